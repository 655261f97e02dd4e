"""Check that the graph oracle renders id text exactly as exchange/symbol_ids.py does.

    python oracle/check_id_port.py [--count N] [--seed S]

Random strings built from the characters the rules treat specially (quotes,
backslashes, C0 and C1 controls, DEL, U+2028/U+2029, lone surrogates, astral
characters, `…`) at lengths around the 64-unit cut go through both
implementations: `quote`, `cut_utf16` then `escape_text`, and `escape_text`
alone. Any difference is printed and the exit code is 1. Needs Node.js and
`npm ci` in oracle/ts-graph.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tsograph.exchange.symbol_ids import cut_utf16  # noqa: E402
from tsograph.exchange.symbol_ids import escape_text  # noqa: E402
from tsograph.exchange.symbol_ids import quote  # noqa: E402

ORACLE = REPO / "oracle" / "ts-graph" / "graph-oracle.mjs"
# Plain text, then what JSON escapes, then what only the id rules escape, then astral.
ALPHABET = (
    *("a", "Z", " ", "/", "\u00e9", "\u2026"),
    *('"', "\\", "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f"),
    *("\x7f", "\x85", "\x9f", "\u2028", "\u2029", "\ud800", "\udc00"),
    "\U0001f600",
)
LENGTHS = (0, 1, 5, 31, 32, 33, 63, 64, 65, 66, 100)
SCRIPT = """
import { quote, cutUtf16, escapeText } from %s;
let data = '';
process.stdin.on('data', (chunk) => { data += chunk; }).on('end', () => {
  const cases = JSON.parse(data);
  const rows = cases.map((text) => [quote(text), escapeText(cutUtf16(text)), escapeText(text)]);
  process.stdout.write(JSON.stringify(rows));
});
"""


def python_rows(cases: list[str]) -> list[list[str]]:
    return [[quote(text), escape_text(cut_utf16(text)), escape_text(text)] for text in cases]


def node_rows(cases: list[str]) -> list[list[str]]:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("check_id_port: node is not on PATH")
    script = SCRIPT % json.dumps(ORACLE.as_uri())
    completed = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(cases).encode(),
        capture_output=True,
        check=True,
    )
    rows: list[list[str]] = json.loads(completed.stdout)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    generator = random.Random(args.seed)
    cases = [
        "".join(generator.choice(ALPHABET) for _ in range(generator.choice(LENGTHS)))
        for _ in range(args.count)
    ]
    cases += ["x" * 63 + "\U0001f600", "x" * 62 + "\U0001f600", "x" * 64, "x" * 65]
    mismatches = [
        (text, want, got)
        for text, want, got in zip(cases, python_rows(cases), node_rows(cases), strict=True)
        if want != got
    ]
    for text, want, got in mismatches[:10]:
        print(f"{text!r}: python {want!r} oracle {got!r}")
    print(f"{len(cases)} strings, {len(mismatches)} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
