"""Limitation lines name what a user should open: unreadable sources by file, in every producer.

A source that is not UTF-8 is counted under unreadable-sources: by the walk
that every command shares; the line names the file (a whole file is the
place), so schema, routes --role client and graph all point at it.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import tsograph

COMMANDS = {
    "schema": ["schema"],
    "client": ["routes", "--role", "client"],
    "graph": ["graph", "--no-cache"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unreadable_source_is_named(command: str, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "ok.ts").write_text("export const a = 1;\n", encoding="utf-8")
    (tmp_path / "src" / "latin1.ts").write_bytes(b"export const caf\xe9 = 1;\n")
    result = tsograph(*COMMANDS[command], "--project", tmp_path)
    assert result.code == 0, result.stderr
    lines = orjson.loads(result.stdout)["limitations"]
    assert (
        "unreadable-sources: 1 source file(s) or folder(s) could not be read "
        "(not-utf8: 1, src/latin1.ts)"
    ) in lines
