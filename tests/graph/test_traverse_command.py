"""reach and impact on the command line: goldens, saved snapshots, missing roots, usage errors."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import Result
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.exchange.validation import validate

BASICS = REPO / "fixtures" / "graph" / "basics"
GOLDENS = REPO / "fixtures" / "traversal"
AT = "2026-09-27T00:00:00.000Z"
QUERIES = {
    "reach-post": ("reach", "src/lib/handlers.ts#handlers.POST"),
    "reach-server-direct": ("reach", "--dispatch", "direct", "src/app/server.ts#<module>"),
    "impact-audit": ("impact", "src/lib/audit.ts#audit"),
    "reach-depth-1": ("reach", "--max-depth", "1", "src/app/server.ts#<module>"),
}


def _live(command: str, project: Path, cache: Path, *rest: str) -> Result:
    """command on project's sources as they are now (cached in cache), at the fixed time."""
    return tsograph(
        command, "--project", project, "--cache-dir", cache, "--generated-at", AT, *rest
    )


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_traversal_matches_golden(name: str, tmp_path: Path) -> None:
    command, *rest = QUERIES[name]
    result = _live(command, BASICS, tmp_path, *rest)
    assert result.code == 0, result.stderr
    validate(orjson.loads(result.stdout))
    assert_matches_golden(result.stdout, GOLDENS / f"{name}.json")


def test_saved_snapshot_gives_the_same_traversal(tmp_path: Path) -> None:
    snapshot = _snapshot(tmp_path, "json")
    live = _live("impact", BASICS, tmp_path, "src/lib/audit.ts#audit")
    saved = tsograph(
        "impact", "--graph-file", snapshot, "--generated-at", AT, "src/lib/audit.ts#audit"
    )
    assert live.code == saved.code == 0
    assert live.stdout == saved.stdout


def test_missing_roots_write_the_document_then_exit_64(tmp_path: Path) -> None:
    result = _live(
        "reach",
        BASICS,
        tmp_path,
        "src/lib/audit.ts#audit",
        "src/nope.ts#x",
        "prisma/schema.prisma#model:Job",
    )
    assert result.code == 64
    document = orjson.loads(result.stdout)
    assert [root["id"] for root in document["roots"]] == [
        "src/lib/audit.ts#audit",
        "src/nope.ts#x",
        "prisma/schema.prisma#model:Job",
    ]
    assert document["truncated"] is True and document["truncationReasons"] == ["root-not-found"]
    assert "unknown ids: src/nope.ts#x" in result.stderr
    assert "declaration ids no traversal reaches: prisma/schema.prisma#model:Job" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("reach", "--project", str(BASICS)),
        ("reach", "src/a.ts#a"),
        ("reach", "--project", str(BASICS), "--graph-file", "g.json", "src/a.ts#a"),
        ("reach", "--project", str(BASICS), "--max-depth", "0", "src/a.ts#a"),
        ("impact", "--project", str(BASICS), "--max-reached", "100001", "src/a.ts#a"),
        ("impact", "--project", str(BASICS), "--dispatch", "guess", "src/a.ts#a"),
    ],
)
def test_usage_errors_exit_64_with_empty_stdout(args: tuple[str, ...]) -> None:
    result = tsograph(*args)
    assert (result.code, result.stdout) == (64, b"")


def test_bad_graph_files_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{not json")
    (tmp_path / "b.json").write_text('{"format": "tsograph-graph", "version": 1}')
    (tmp_path / "c.ndjson").write_text('{"format": "tsograph-graph-ndjson"}\n')
    for name in ("a.json", "b.json", "c.ndjson", "absent.json"):
        result = tsograph("reach", "--graph-file", tmp_path / name, "x.ts#y")
        assert (result.code, result.stdout) == (2, b""), name
        assert str(tmp_path) not in result.stderr


def test_candidate_edges_are_followed_only_in_candidates_mode(tmp_path: Path) -> None:
    dispatch = REPO / "fixtures" / "graph" / "dispatch"
    reached = {}
    for mode in ("direct", "bound", "candidates"):
        result = _live("reach", dispatch, tmp_path, "--dispatch", mode, "src/lib/handler.ts#save")
        assert result.code == 0, result.stderr
        document = orjson.loads(result.stdout)
        reached[mode] = {item["symbol"]["usr"]: item["evidence"] for item in document["reached"]}
        root = document["roots"][0]
        assert ("unresolvedCalls" in root) == (mode != "candidates")
    assert reached["direct"] == reached["bound"] == {}
    assert reached["candidates"] == {
        "src/lib/store.ts#MemoryItemStore.saveItem": "candidate",
        "src/lib/store.ts#SqlItemStore.saveItem": "candidate",
        "src/lib/store.ts#objectStore.saveItem": "candidate",
        "src/lib/store.ts#SqlClient.query": "candidate",
    }


def test_an_unknown_root_id_gets_the_closest_graph_ids_on_stderr(tmp_path: Path) -> None:
    result = _live(
        "impact",
        BASICS,
        tmp_path,
        "src/lib/audit.ts#audti",
        "src/lib/adit.ts#audit",
        "zzzz",
    )
    assert result.code == 64
    assert orjson.loads(result.stdout)["truncationReasons"] == ["root-not-found"]
    assert result.stderr.count("\n") == 1
    # A typo in the name, one in the file, and an id nothing resembles.
    assert "src/lib/audit.ts#audti: did you mean src/lib/audit.ts#audit?" in result.stderr
    assert "src/lib/adit.ts#audit: did you mean src/lib/audit.ts#audit?" in result.stderr
    assert "zzzz: no similar graph id" in result.stderr
    assert "the document was written for the other roots" in result.stderr


def _snapshot(tmp_path: Path, output_format: str) -> Path:
    graph = _live("graph", BASICS, tmp_path, "--format", output_format)
    assert graph.code == 0, graph.stderr
    path = tmp_path / f"graph.{output_format}"
    path.write_bytes(graph.stdout)
    return path


@pytest.mark.parametrize(
    "query",
    [
        ("impact", "src/lib/audit.ts#audit"),
        ("reach", "--dispatch", "candidates", "src/app/server.ts#<module>"),
    ],
)
def test_an_ndjson_export_gives_the_same_traversal_as_the_json_snapshot(
    tmp_path: Path, query: tuple[str, ...]
) -> None:
    command, *rest = query
    results = [
        tsograph(command, "--graph-file", _snapshot(tmp_path, kind), "--generated-at", AT, *rest)
        for kind in ("json", "ndjson")
    ]
    assert results[0].code == results[1].code == 0, results[1].stderr
    assert results[0].stdout == results[1].stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            (REPO / "fixtures" / "documents" / "route-contract.json").read_bytes(),
            "is a bridge-facts document, not a tsograph-graph snapshot",
        ),
        (b'["a.ts#f"]', "is a JSON array, not a tsograph-graph snapshot"),
        (b'{"format": "other"}', "is a JSON object of no tsograph format, not a tsograph-graph"),
        (
            b"{not json",
            "not JSON (unexpected character, expected a string key at line 1, column 2)",
        ),
        (
            b'{"format": "tsograph-graph-ndjson"}\n{"record": "node"}\n',
            "line 1 is not a valid NDJSON header",
        ),
    ],
)
def test_a_graph_file_of_the_wrong_kind_is_named_by_its_kind(
    tmp_path: Path, content: bytes, message: str
) -> None:
    (tmp_path / "in.json").write_bytes(content)
    result = tsograph("reach", "--graph-file", "in.json", "x.ts#y", cwd=tmp_path)
    assert (result.code, result.stdout) == (2, b"")
    assert result.stderr.startswith(f"tsograph: --graph-file in.json: {message}")
    assert result.stderr.count("\n") == 1
    assert "pass " in result.stderr or "write it again" in result.stderr


def test_a_broken_ndjson_record_is_named_by_its_line(tmp_path: Path) -> None:
    lines = _snapshot(tmp_path, "ndjson").read_bytes().split(b"\n")
    lines[2] = b'{"record": "node", "id": 5}'
    (tmp_path / "broken.ndjson").write_bytes(b"\n".join(lines))
    result = tsograph("reach", "--graph-file", "broken.ndjson", "x.ts#y", cwd=tmp_path)
    assert (result.code, result.stdout) == (2, b"")
    assert result.stderr.startswith(
        "tsograph: --graph-file broken.ndjson: not a valid tsograph-graph snapshot (at /nodes/"
    )


def test_an_unknown_id_with_a_line_break_keeps_the_message_one_line(tmp_path: Path) -> None:
    result = tsograph(
        "reach", "--project", BASICS, "--cache-dir", tmp_path, "--generated-at", AT, "a\nb"
    )
    assert result.code == 64
    assert result.stderr.count("\n") == 1 and "unknown ids: a\\x0ab" in result.stderr
