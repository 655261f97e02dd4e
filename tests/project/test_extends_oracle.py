"""Replays oracle/ts-extends/recorded.json: the files each `extends` reaches, per TypeScript.

The oracle ran typescript@5.9.3 over each case with the node_modules links its
package manager creates; here the same files are written without those links,
so the workspace model has to stand in for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.project.builder import write_tree
from tsograph.producers.project import paths
from tsograph.producers.project.fsread import read_config
from tsograph.producers.project.jsonc import loads
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.project.tsconfig_extends import ExtendsLocator

ORACLE = Path(__file__).resolve().parents[2] / "oracle" / "ts-extends"
CASES: dict[str, Any] = orjson.loads((ORACLE / "cases.json").read_bytes())
RECORDED: dict[str, Any] = orjson.loads((ORACLE / "recorded.json").read_bytes())


def _chain(root: Path, locator: ExtendsLocator, config: str, seen: list[str]) -> None:
    """The extended files in TypeScript's order: each base, then what that base extends."""
    data = read_config(root, config)
    assert data is not None
    extends = loads(data).get("extends")
    for spec in [extends] if isinstance(extends, str) else extends or []:
        found = locator.locate(paths.parent(config), spec)
        if found is not None and found not in seen:
            seen.append(found)
            _chain(root, locator, found, seen)


@pytest.mark.parametrize("case", sorted(CASES))
def test_extends_reach_the_files_typescript_reads(case: str, tmp_path: Path) -> None:
    assert RECORDED["typescript"] == "5.9.3"
    write_tree(tmp_path, CASES[case]["files"])
    notes: list[str] = []
    locator = ExtendsLocator(tmp_path, load_workspace(tmp_path), notes.append)
    for config, expected in RECORDED["cases"][case].items():
        notes.clear()
        seen: list[str] = []
        _chain(tmp_path, locator, config, seen)
        assert seen == expected["extended"], config
        assert len(notes) == len(expected["errors"]), (config, notes, expected["errors"])
