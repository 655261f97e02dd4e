"""reach/impact --format mermaid|dot on the command line: saved snapshots, missing roots, usage."""

from __future__ import annotations

from pathlib import Path

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph

NEXT_PRISMA = REPO / "fixtures" / "graph" / "next-prisma"
ROOT = "src/app/api/jobs/route.ts#POST"


def test_a_saved_snapshot_draws_the_handler_without_a_route_path(tmp_path: Path) -> None:
    graph = tsograph("graph", "--project", NEXT_PRISMA, "--cache-dir", tmp_path)
    assert graph.code == 0, graph.stderr
    snapshot = tmp_path / "graph.json"
    snapshot.write_bytes(graph.stdout)
    saved = tsograph(
        "impact", "--graph-file", snapshot, "--format", "dot", "src/lib/audit.ts#audit"
    )
    live = tsograph(
        "impact",
        "--project",
        NEXT_PRISMA,
        "--cache-dir",
        tmp_path,
        "--format",
        "dot",
        "src/lib/audit.ts#audit",
    )
    assert saved.code == live.code == 0
    # The snapshot knows the handler is one; only the project's route facts know its path.
    assert (
        'label="POST\\nsrc/app/api/jobs/route.ts:5\\nentry: route-handler"' in saved.stdout.decode()
    )
    assert 'label="POST /api/jobs\\nPOST\\nsrc/app/api/jobs/route.ts:5"' in live.stdout.decode()


def test_missing_roots_draw_the_rest_then_exit_64(tmp_path: Path) -> None:
    result = tsograph(
        "reach",
        "--project",
        NEXT_PRISMA,
        "--cache-dir",
        tmp_path,
        "--format",
        "mermaid",
        ROOT,
        "src/nope.ts#x",
    )
    assert result.code == 64
    assert "unknown ids: src/nope.ts#x" in result.stderr
    text = result.stdout.decode()
    assert '  more["the answer itself is incomplete<br/>1 given ids are not graph nodes"]' in text
    assert "  n2 --> n3\n" in text


def test_max_nodes_needs_a_diagram_format(tmp_path: Path) -> None:
    result = tsograph(
        "reach", "--project", NEXT_PRISMA, "--cache-dir", tmp_path, "--max-nodes", "5", ROOT
    )
    assert (result.code, result.stdout) == (64, b"")
    assert "--max-nodes applies to --format mermaid and --format dot" in result.stderr


def test_max_nodes_keeps_room_for_the_final_node(tmp_path: Path) -> None:
    result = tsograph(
        "reach",
        "--project",
        NEXT_PRISMA,
        "--cache-dir",
        tmp_path,
        "--format",
        "mermaid",
        "--max-nodes",
        "2",
        ROOT,
    )
    assert result.code == 0, result.stderr
    text = result.stdout.decode()
    assert "  n1" not in text
    assert '  more["3 more symbols not drawn<br/>--max-nodes 2 keeps the nearest 1"]' in text
    too_few = tsograph(
        "reach", "--project", NEXT_PRISMA, "--format", "dot", "--max-nodes", "1", ROOT
    )
    assert too_few.code == 64
    assert "--max-nodes must be between 2 and 1000" in too_few.stderr


def _trace_documents(folder: Path) -> list[str | Path]:
    for name, args in (
        ("decl.json", ("routes", "--role", "server")),
        ("uses.json", ("schema",)),
    ):
        written = tsograph(*args, "--project", NEXT_PRISMA)
        assert written.code == 0, written.stderr
        (folder / name).write_bytes(written.stdout)
    return ["--routes", folder / "decl.json", "--uses", folder / "uses.json"]


def test_trace_draws_a_given_reach_as_the_built_one(tmp_path: Path) -> None:
    """The bundled reach document (fixtures/graph/next-prisma/reach-post.json) holds the same
    traversal the command builds, so both draw the same picture."""
    given = [
        "trace",
        "--project",
        NEXT_PRISMA,
        "--cache-dir",
        tmp_path,
        *_trace_documents(tmp_path),
        "--route",
        "POST /api/jobs",
        "--format",
        "dot",
    ]
    built = tsograph(*given)
    bundled = tsograph(*given, "--reach", NEXT_PRISMA / "reach-post.json")
    assert built.code == bundled.code == 0, built.stderr + bundled.stderr
    assert built.stdout == bundled.stdout
    assert b"shape=cylinder" in built.stdout


def test_trace_max_nodes_needs_a_diagram_format(tmp_path: Path) -> None:
    result = tsograph(
        "trace",
        "--project",
        NEXT_PRISMA,
        "--cache-dir",
        tmp_path,
        *_trace_documents(tmp_path),
        "--max-nodes",
        "5",
    )
    assert result.code == 64 and result.stdout == b""
    assert "--max-nodes applies to --format mermaid and --format dot" in result.stderr
