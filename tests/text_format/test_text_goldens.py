"""`--format text` of every producer and of reach/impact, compared byte for byte with goldens.

Each case runs the command on a fixture twice, as JSON and as text: the text
golden is the reading, and the JSON run shows that the text shows the same
document (every fact's method and path, every limitation line).
Regenerate on purpose with TSOGRAPH_REGENERATE=1 and read the diff.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.producers.cli import build_parser

AT = "2026-09-27T00:00:00.000Z"
GOLDENS = REPO / "fixtures" / "text"
F = REPO / "fixtures"
# case name -> (expected exit code, command line before --format)
CASES: dict[str, tuple[int, list[str | Path]]] = {
    "openapi-spec-example": (
        0,
        [
            "openapi",
            F / "openapi/spec-example/api/openapi.yaml",
            "--service",
            "example-api",
            "--project",
            F / "openapi/spec-example",
        ],
    ),
    "routes-server-hono": (
        0,
        ["routes", "--role", "server", "--project", F / "routes/node/hono-app/project"],
    ),
    "routes-server-next": (
        0,
        ["routes", "--role", "server", "--project", F / "routes/next/app-router/project"],
    ),
    "routes-client-web": (
        0,
        ["routes", "--role", "client", "--project", F / "routes/client/web-app/sources"],
    ),
    "schema-prisma": (0, ["schema", "--project", F / "schema/prisma/prisma-app/project"]),
    "schema-drizzle-d1": (0, ["schema", "--project", F / "schema/orm/drizzle-d1-app/project"]),
    "sql-schema-migrations": (
        0,
        ["sql-schema", F / "sql_schema/migrations", "--dialect", "sqlite"],
    ),
    "sql-schema-unread-statements": (0, ["sql-schema", F / "sql_schema/unread-statements"]),
    "graph-next-prisma": (0, ["graph", "--project", F / "graph/next-prisma"]),
    "reach-di-dispatch": (
        64,
        [
            "reach",
            "--project",
            F / "graph/di-dispatch",
            "src/app/api/items/route.ts#GET",
            "src/app/api/items/route.ts#PATCH",
            "src/app/api/items/route.ts#MISSING",
        ],
    ),
    "impact-basics": (0, ["impact", "--project", F / "graph/basics", "src/lib/audit.ts#audit"]),
}


def _run(case: str, output: str, cache: Path) -> tuple[int, bytes]:
    code, words = CASES[case]
    extra: list[str | Path] = ["--generated-at", AT, "--format", output]
    if words[0] in ("graph", "reach", "impact"):
        extra += ["--cache-dir", cache]
    command, *rest = words
    result = tsograph(command, *extra, *rest)
    assert result.code == code, result.stderr
    return result.code, result.stdout


@pytest.mark.parametrize("case", sorted(CASES))
def test_text_matches_golden(case: str, tmp_path: Path) -> None:
    _, text = _run(case, "text", tmp_path)
    assert_matches_golden(text, GOLDENS / f"{case}.txt")


@pytest.mark.parametrize("case", sorted(CASES))
def test_text_shows_every_limitation_of_the_json_document(case: str, tmp_path: Path) -> None:
    _, text = _run(case, "text", tmp_path)
    _, data = _run(case, "json", tmp_path)
    document = orjson.loads(data)
    lines = text.decode("utf-8").splitlines()
    for limitation in document["limitations"]:
        assert f"  {limitation}" in lines
    for fact in document.get("facts", []):
        if fact["kind"] != "relation-use":
            assert any(
                line.split()[:2] == [fact["method"], fact["channel"] or "(unknown)"]
                or fact.get("pathAnchor") == "base"
                for line in lines
            ), fact
    for item in document.get("reached", []):
        assert any(item["symbol"]["usr"] in line.split() for line in lines), item


# The check and trace reports are text by default; their goldens are the expected.txt
# files of fixtures/check (tests/check/test_check_golden.py, tests/check/test_pipelines.py).
_TEXT_GOLDENS_ELSEWHERE = {
    "check": F / "check" / "calls" / "expected.txt",
    "trace": F / "check" / "trace-next-prisma" / "expected.txt",
}


def _commands_with_text_format() -> set[str]:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    found = set()
    for name, command in commands.choices.items():
        for action in command._actions:
            if "--format" in action.option_strings and "text" in (action.choices or ()):
                found.add(name)
    return found


def test_every_command_with_a_text_format_has_a_golden() -> None:
    covered = {str(words[0]) for _, words in CASES.values()} | set(_TEXT_GOLDENS_ELSEWHERE)
    assert _commands_with_text_format() <= covered
    assert all(path.is_file() for path in _TEXT_GOLDENS_ELSEWHERE.values())
    roles = {str(words[2]) for _, words in CASES.values() if words[0] == "routes"}
    assert roles == {"server", "client"}
