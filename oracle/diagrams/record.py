"""Record what Mermaid's parser and Graphviz say about every diagram tsograph's tests draw.

    cd oracle/diagrams && npm ci && cd ../.. && python oracle/diagrams/record.py

The diagrams are the goldens under fixtures/diagrams/ (*.mmd, *.dot: reach,
impact, trace and query answers; review-*.mmd, the review brief's diagram, in
Mermaid only) and the hostile-name diagrams of tests/diagrams/hostile.py
(traversal-shaped and trace-shaped), in both languages. Each
Mermaid text goes through `mermaid.parse` and the flowchart database of
mermaid 11.17.2 and 12.3.0 (parse.mjs, a jsdom window for DOMPurify); each DOT text through
`dot -Tsvg`, keeping the exit code, stderr, and per node and edge the text
lines and dash pattern of the SVG. Recordings are keyed by the sha256 of the
diagram text, so a renderer change that alters any diagram needs a new
recording: the replay test (tests/diagrams/test_oracle_replay.py) fails on a
diagram it has no verdict for. Recording twice gives the same bytes.

Needs Node.js with `npm ci` here, and Graphviz (`apt-get install -y graphviz`).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GOLDENS = REPO / "fixtures" / "diagrams"
RECORDINGS = REPO / "oracle" / "recordings" / "diagrams"
SVG = "{http://www.w3.org/2000/svg}"
# package.json aliases: the newest mermaid 11 and 12 releases when this was written.
MERMAID_PACKAGES = ("mermaid-11", "mermaid-12")

sys.path.insert(0, str(REPO))

from tests.diagrams.hostile import every_hostile_diagram  # noqa: E402
from tsograph.producers.diagrams import dot  # noqa: E402
from tsograph.producers.diagrams import mermaid  # noqa: E402


def key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def texts(suffix: str, render: Any) -> list[str]:
    found = [path.read_text(encoding="utf-8") for path in sorted(GOLDENS.glob(f"*{suffix}"))]
    return found + [render(diagram) for diagram in every_hostile_diagram()]


def mermaid_verdicts(package: str, diagrams: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as scratch:
        given, answered = Path(scratch) / "in.json", Path(scratch) / "out.json"
        given.write_text(json.dumps(diagrams), encoding="utf-8")
        command = ["node", str(HERE / "parse.mjs"), package, str(given), str(answered)]
        subprocess.run(command, check=True, cwd=HERE)
        verdicts = json.loads(answered.read_text(encoding="utf-8"))
    return {key(text): verdict for text, verdict in zip(diagrams, verdicts, strict=True)}


def dot_verdict(text: str) -> dict[str, Any]:
    done = subprocess.run(["dot", "-Tsvg"], input=text.encode(), capture_output=True, check=False)
    verdict: dict[str, Any] = {"exit": done.returncode, "stderr": done.stderr.decode()}
    if done.returncode != 0:
        return verdict
    root = ElementTree.fromstring(done.stdout)
    nodes: dict[str, list[str]] = {}
    edges: list[list[Any]] = []
    for group in root.iter(f"{SVG}g"):
        title = group.findtext(f"{SVG}title") or ""
        if group.get("class") == "node":
            nodes[title] = [element.text or "" for element in group.iter(f"{SVG}text")]
        elif group.get("class") == "edge":
            path = group.find(f"{SVG}path")
            dashes = path.get("stroke-dasharray") if path is not None else None
            edges.append([title, dashes])
    verdict.update(nodes=nodes, edges=edges)
    return verdict


def graphviz_version() -> str:
    done = subprocess.run(["dot", "-V"], capture_output=True, check=True)
    return done.stderr.decode().strip()


def layout(value: Any, levels: int, indent: str = "") -> str:
    """JSON with the outer `levels` of objects one member per line and everything deeper on
    that member's line: one verdict a line keeps the file small and its diffs readable."""
    if levels == 0 or not isinstance(value, dict) or not value:
        return json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    inner = indent + " "
    members = [
        f"{inner}{json.dumps(name, ensure_ascii=True)}:{layout(value[name], levels - 1, inner)}"
        for name in sorted(value)
    ]
    return "{\n" + ",\n".join(members) + "\n" + indent + "}"


def write(name: str, payload: dict[str, Any], levels: int) -> None:
    RECORDINGS.mkdir(parents=True, exist_ok=True)
    target = RECORDINGS / name
    target.write_text(layout(payload, levels) + "\n")
    print(f"wrote {target.relative_to(REPO)}")


def main() -> int:
    mermaid_texts = texts(".mmd", mermaid.render)
    for package in MERMAID_PACKAGES:
        manifest = json.loads((HERE / "node_modules" / package / "package.json").read_text())
        version = manifest["version"]
        # One file per version keeps each recording well under the repository's file size cap.
        verdicts = mermaid_verdicts(package, mermaid_texts)
        write(f"mermaid-{version}.json", {"mermaid": version, "verdicts": verdicts}, levels=2)
    dot_texts = texts(".dot", dot.render)
    write(
        "dot.json",
        {"graphviz": graphviz_version(), "verdicts": {key(t): dot_verdict(t) for t in dot_texts}},
        levels=2,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
