"""reach and impact drawn as Mermaid and DOT on the graph fixtures, compared byte for byte.

The same golden files are what oracle/diagrams/record.py gives Mermaid's parser and
Graphviz; test_oracle_replay.py checks their recorded verdicts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden

GRAPH = REPO / "fixtures" / "graph"
GOLDENS = REPO / "fixtures" / "diagrams"
SUFFIXES = {"mermaid": ".mmd", "dot": ".dot"}
CASES = {
    # A route handler root: its method and path come from the route facts.
    "next-prisma-reach-post": ("next-prisma", "reach", "src/app/api/jobs/route.ts#POST"),
    "basics-reach-post": ("basics", "reach", "src/lib/handlers.ts#handlers.POST"),
    "basics-impact-audit": ("basics", "impact", "src/lib/audit.ts#audit"),
    # Seven symbols kept of more: the nearest, and a last node counting the rest.
    "basics-reach-server-cut": (
        "basics",
        "reach",
        "--max-nodes",
        "8",
        "src/app/server.ts#<module>",
    ),
    # Everything fits, but the traversal stopped at its depth budget: the last node says so.
    "basics-reach-depth-1": ("basics", "reach", "--max-depth", "1", "src/app/server.ts#<module>"),
    # Two route roots; direct, bound and candidate edges.
    "di-dispatch-reach-candidates": (
        "di-dispatch",
        "reach",
        "--dispatch",
        "candidates",
        "src/app/api/items/route.ts#GET",
        "src/app/api/items/route.ts#PATCH",
    ),
    # Pages, server actions, crons and metadata routes reaching a library function.
    "entries-impact-audit": ("entries", "impact", "src/lib/audit.ts#audit"),
}
AT = "2026-09-27T00:00:00.000Z"


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("format_name", sorted(SUFFIXES))
def test_diagram_matches_golden(name: str, format_name: str, tmp_path: Path) -> None:
    case, command, *rest = CASES[name]
    result = tsograph(
        command,
        "--project",
        GRAPH / case,
        "--cache-dir",
        tmp_path,
        "--format",
        format_name,
        *rest,
    )
    assert result.code == 0, result.stderr
    assert_matches_golden(result.stdout, GOLDENS / f"{name}{SUFFIXES[format_name]}")


CHECK = REPO / "fixtures" / "check"
# name -> (graph fixture, documents folder (uses.json, calls.json) or None, trace arguments).
TRACE_CASES: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    # A route handler to the two tables its callees write (schema's uses of the fixture).
    "trace-next-prisma-post": ("next-prisma", None, ("--route", "POST /api/jobs")),
    # Two routes; bound steps to a table and a service call; a handler that touches nothing.
    "trace-di-dispatch": ("di-dispatch", "trace-di-dispatch", ()),
    # The same cut to five nodes: a last node counts the three not drawn.
    "trace-di-dispatch-cut": ("di-dispatch", "trace-di-dispatch", ("--max-nodes", "5")),
}


@pytest.mark.parametrize("name", sorted(TRACE_CASES))
@pytest.mark.parametrize("format_name", sorted(SUFFIXES))
def test_trace_diagram_matches_golden(name: str, format_name: str, tmp_path: Path) -> None:
    case, documents, rest = TRACE_CASES[name]
    project = GRAPH / case
    decl = tsograph("routes", "--role", "server", "--project", project)
    assert decl.code == 0, decl.stderr
    (tmp_path / "decl.json").write_bytes(decl.stdout)
    if documents is None:
        uses = tsograph("schema", "--project", project)
        assert uses.code == 0, uses.stderr
        (tmp_path / "uses.json").write_bytes(uses.stdout)
        given = ["--uses", tmp_path / "uses.json"]
    else:
        folder = CHECK / documents
        given = ["--uses", folder / "uses.json", "--calls", folder / "calls.json"]
    result = tsograph(
        "trace",
        "--project",
        project,
        "--cache-dir",
        tmp_path / "cache",
        "--routes",
        tmp_path / "decl.json",
        *given,
        "--format",
        format_name,
        *rest,
    )
    assert result.code == 0, result.stderr
    assert_matches_golden(result.stdout, GOLDENS / f"{name}{SUFFIXES[format_name]}")


@pytest.mark.parametrize("format_name", sorted(SUFFIXES))
def test_trace_diagram_of_hostile_names(format_name: str) -> None:
    """Route paths, tables, columns and a service made of quotes, brackets, `#`, `%%`,
    HTML and entity look-alikes (fixtures/check/trace-hostile, a hand-written reach)."""
    folder = CHECK / "trace-hostile"
    result = tsograph(
        "trace",
        "--project",
        folder,
        "--routes",
        folder / "decl.json",
        "--uses",
        folder / "uses.json",
        "--calls",
        folder / "calls.json",
        "--reach",
        folder / "reach.json",
        "--format",
        format_name,
    )
    assert result.code == 0, result.stderr
    assert_matches_golden(result.stdout, GOLDENS / f"trace-hostile{SUFFIXES[format_name]}")
