"""Which declarations a change edits when it only adds or only deletes lines.

Lines added between two declarations edit neither (only the module code they
are); module-level lines deleted edit the module; lines added inside a body
edit the declaration that holds them.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.review.history import _git
from tests.review.history import _write
from tsograph.producers.cli import run

BASE = """import { x } from './x';
import { y } from './y';

export function first(): number {
  return x + 1;
}
export function second(): number {
  return y + 2;
}
export function third(): number {
  let total = x;
  total += y;
  return total;
}
"""
# An import deleted, a statement added between first and second with no blank line
# around it, and a line added inside third.
CHANGE = """import { x } from './x';

export function first(): number {
  return x + 1;
}
console.log('between');
export function second(): number {
  return y + 2;
}
export function third(): number {
  let total = x;
  total += y;
  total += 1;
  return total;
}
"""


def test_added_and_deleted_lines_edit_what_holds_them(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _write(
        repo,
        {
            "package.json": '{ "name": "app" }\n',
            "src/x.ts": "export const x = 1;\n",
            "src/y.ts": "export const y = 2;\n",
            "src/a.ts": BASE,
        },
    )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _write(repo, {"src/a.ts": CHANGE})
    out = tmp_path / "out"
    assert run(["review", "--project", str(repo), "--no-cache", "--out", str(out)]) == 0
    summary = orjson.loads((out / "impact.json").read_bytes())
    edited = [symbol["id"] for symbol in summary["touched"]["edited"]]
    # The lines around the added statement belong to first and second: neither is edited.
    assert edited == ["src/a.ts#<module>", "src/a.ts#third"]
