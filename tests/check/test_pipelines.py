"""End to end: producers on small fixture projects, their documents piped into check and trace.

* fixtures/check/e2e-next: openapi + routes --role server + routes --role client
  of a Next.js project, then `check` (golden text report);
* fixtures/schema/prisma/prisma-app: sql-schema of its migration + schema, then
  `check --pairs` (golden text report);
* fixtures/graph/next-prisma: routes + schema, then `trace` with the bundled
  reach document and with a reach built from the project (same report).
"""

from __future__ import annotations

from pathlib import Path

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden

STAMP = "--generated-at=2026-01-01T00:00:00.000Z"
CHECK = REPO / "fixtures" / "check"


def _write(folder: Path, name: str, *args: str | Path) -> None:
    result = tsograph(*args, STAMP)
    assert result.code == 0, result.stderr
    (folder / name).write_bytes(result.stdout)


def test_openapi_and_routes_into_check(tmp_path: Path) -> None:
    project = CHECK / "e2e-next" / "project"
    _write(
        tmp_path,
        "contract.json",
        "openapi",
        project / "openapi.yaml",
        "--service",
        "shop",
        "--project",
        project,
    )
    for role, name in (("server", "decl.json"), ("client", "calls.json")):
        _write(tmp_path, name, "routes", "--role", role, "--project", project, "--service", "shop")
    result = tsograph("check", "contract.json", "decl.json", "calls.json", cwd=tmp_path)
    assert result.code == 3
    assert_matches_golden(result.stdout, CHECK / "e2e-next" / "expected.txt")


def test_schema_and_sql_schema_into_check_pairs(tmp_path: Path) -> None:
    project = REPO / "fixtures" / "schema" / "prisma" / "prisma-app" / "project"
    _write(
        tmp_path,
        "sql.json",
        "sql-schema",
        project / "prisma" / "migrations",
        "--project",
        project,
        "--dialect",
        "postgres",
    )
    _write(tmp_path, "uses.json", "schema", "--project", project)
    result = tsograph("check", "--pairs", "uses.json", "sql.json", cwd=tmp_path)
    # The fixture's raw SQL names two tables its migration never creates (audit_logs,
    # reports.weekly): true drift, so the run fails.
    assert result.code == 3
    assert_matches_golden(result.stdout, CHECK / "e2e-prisma" / "expected.txt")


def test_trace_follows_routes_to_tables(tmp_path: Path) -> None:
    project = REPO / "fixtures" / "graph" / "next-prisma"
    _write(tmp_path, "decl.json", "routes", "--role", "server", "--project", project)
    _write(tmp_path, "uses.json", "schema", "--project", project)
    args = [
        "trace",
        "--project",
        project,
        "--routes",
        "decl.json",
        "--uses",
        "uses.json",
        "--route",
        "POST /api/jobs",
        "--no-cache",
    ]
    bundled = tsograph(*args, "--reach", project / "reach-post.json", cwd=tmp_path)
    built = tsograph(*args, cwd=tmp_path)
    assert bundled.code == built.code == 0, bundled.stderr + built.stderr
    assert bundled.stdout == built.stdout
    assert_matches_golden(built.stdout, CHECK / "trace-next-prisma" / "expected.txt")


def test_trace_of_every_route_as_json(tmp_path: Path) -> None:
    project = REPO / "fixtures" / "graph" / "next-prisma"
    _write(tmp_path, "decl.json", "routes", "--role", "server", "--project", project)
    _write(tmp_path, "uses.json", "schema", "--project", project)
    whole = tsograph(
        "trace",
        "--project",
        project,
        "--routes",
        "decl.json",
        "--uses",
        "uses.json",
        "--no-cache",
        "--format",
        "json",
        cwd=tmp_path,
    )
    assert whole.code == 0, whole.stderr
    assert_matches_golden(whole.stdout, CHECK / "trace-next-prisma" / "expected.json")


def test_trace_refuses_a_route_no_declaration_answers(tmp_path: Path) -> None:
    project = REPO / "fixtures" / "graph" / "next-prisma"
    _write(tmp_path, "decl.json", "routes", "--role", "server", "--project", project)
    _write(tmp_path, "uses.json", "schema", "--project", project)
    result = tsograph(
        "trace",
        "--project",
        project,
        "--routes",
        "decl.json",
        "--uses",
        "uses.json",
        "--route",
        "GET /nowhere",
        "--no-cache",
        cwd=tmp_path,
    )
    assert result.code == 64 and result.stdout == b""
    assert "no route of --routes answers it" in result.stderr


def test_trace_reports_the_weakest_step(tmp_path: Path) -> None:
    """fixtures/graph/di-dispatch: GET reaches the SQL store only through a bound edge.

    The uses and calls are written by hand on the graph ids the project really
    has (fixtures/check/trace-di-dispatch); with --dispatch direct the store
    is not reached, so only the handler's own table remains.
    """
    project = REPO / "fixtures" / "graph" / "di-dispatch"
    case = CHECK / "trace-di-dispatch"
    _write(tmp_path, "decl.json", "routes", "--role", "server", "--project", project)
    outputs = []
    for mode in ("bound", "direct"):
        result = tsograph(
            "trace",
            "--project",
            project,
            "--routes",
            tmp_path / "decl.json",
            "--uses",
            "uses.json",
            "--calls",
            "calls.json",
            "--dispatch",
            mode,
            "--no-cache",
            cwd=case,
        )
        assert result.code == 0, result.stderr
        outputs.append(f"== --dispatch {mode}\n".encode() + result.stdout)
    assert_matches_golden(b"".join(outputs), case / "expected.txt")


def test_typescript_client_against_fastapi_server(tmp_path: Path) -> None:
    """One repository, a TypeScript web client (axios, fetch) and a FastAPI server: the
    client document and the Python server document join by channel in `check`."""
    project = CHECK / "e2e-fastapi" / "project"
    for role, name in (("server", "decl.json"), ("client", "calls.json")):
        _write(tmp_path, name, "routes", "--role", role, "--project", project, "--service", "shop")
    assert b'"platform": "python"' in (tmp_path / "decl.json").read_bytes()
    result = tsograph("check", "calls.json", "decl.json", cwd=tmp_path)
    # DELETE /api/items/{} and GET /api/stats have no route on the server: true drift.
    assert result.code == 3
    assert_matches_golden(result.stdout, CHECK / "e2e-fastapi" / "expected.txt")
