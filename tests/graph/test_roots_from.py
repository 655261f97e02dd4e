"""`--roots-from FILE` on reach and impact: ids from a JSON array or a bridge-facts document."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import Result
from tests.cli_helpers import tsograph
from tsograph.exchange.errors import InputError
from tsograph.producers.graph.roots_file import read_root_ids

ENTRIES = REPO / "fixtures" / "graph" / "entries"
AT = "2026-09-27T00:00:00.000Z"


def _traverse(tmp_path: Path, *args: str | Path, stdin: bytes | None = None) -> Result:
    command, *rest = args
    return tsograph(
        command,
        "--project",
        ENTRIES,
        "--cache-dir",
        tmp_path / "cache",
        "--generated-at",
        AT,
        *rest,
        stdin=stdin,
    )


def _file(tmp_path: Path, content: bytes | str, name: str = "roots.json") -> Path:
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def test_ids_from_a_file_follow_the_positional_ids_once(tmp_path: Path) -> None:
    ids = ["src/lib/jobs.ts#createJob", "src/lib/audit.ts#audit", "src/lib/jobs.ts#createJob"]
    roots = _file(tmp_path, orjson.dumps(ids[1:]))
    combined = _traverse(tmp_path, "impact", "--roots-from", roots, ids[0])
    positional = _traverse(tmp_path, "impact", *ids)
    assert combined.code == positional.code == 0, combined.stderr
    assert combined.stdout == positional.stdout
    document = orjson.loads(combined.stdout)
    assert [root["id"] for root in document["roots"]] == ids[:2]


def test_a_bridge_facts_document_gives_its_symbol_usrs(tmp_path: Path) -> None:
    routes = tsograph("routes", "--role", "server", "--project", ENTRIES, "--generated-at", AT)
    assert routes.code == 0, routes.stderr
    facts = orjson.loads(routes.stdout)["facts"]
    usrs = list(dict.fromkeys(fact["symbol"]["usr"] for fact in facts))
    assert "src/app/api/jobs/route.ts#POST" in usrs
    result = _traverse(tmp_path, "reach", "--roots-from", "-", stdin=routes.stdout)
    assert result.code == 0, result.stderr
    assert [root["id"] for root in orjson.loads(result.stdout)["roots"]] == usrs


def test_facts_without_a_usr_are_skipped(tmp_path: Path) -> None:
    document = {
        "format": "bridge-facts",
        "facts": [
            {"kind": "route-contract", "symbol": {"qualifiedName": "GET /x"}},
            {"kind": "route-call", "symbol": {"usr": "src/lib/jobs.ts#listJobs"}},
        ],
    }
    result = _traverse(tmp_path, "impact", "--roots-from", _file(tmp_path, orjson.dumps(document)))
    assert result.code == 0, result.stderr
    assert [r["id"] for r in orjson.loads(result.stdout)["roots"]] == ["src/lib/jobs.ts#listJobs"]


def test_an_empty_list_is_a_traversal_without_roots(tmp_path: Path) -> None:
    result = _traverse(tmp_path, "impact", "--roots-from", _file(tmp_path, "[]"))
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    assert (document["roots"], document["reached"], document["truncated"]) == ([], [], False)


def test_unknown_ids_from_a_file_are_root_not_found(tmp_path: Path) -> None:
    roots = _file(tmp_path, '["src/lib/jobs.ts#listJobs", "src/nope.ts#x"]')
    result = _traverse(tmp_path, "reach", "--roots-from", roots)
    assert result.code == 64
    assert orjson.loads(result.stdout)["truncationReasons"] == ["root-not-found"]
    assert "unknown ids: src/nope.ts#x" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "--roots-from roots.json: not JSON (unexpected character"),
        ('{"ids": ["a.ts#a"]}', "--roots-from roots.json: is a JSON object of no tsograph "),
        ('"a.ts#a"', "--roots-from roots.json: is a JSON scalar; pass a JSON array of symbol"),
        ('["a.ts#a", 3]', "--roots-from roots.json: item 1 is not a non-empty string; pass"),
        ('["a.ts#a", ""]', "--roots-from roots.json: item 1 is not a non-empty string"),
        ('["' + "x" * 8193 + '"]', "--roots-from roots.json: item 0 is longer than 8192 "),
        (
            '{"format": "bridge-facts"}',
            "--roots-from roots.json: is a bridge-facts document without a facts array",
        ),
        (
            '{"format": "bridge-facts", "facts": [{"symbol": {"usr": 1}}]}',
            "--roots-from roots.json: facts[0].symbol.usr is not a non-empty string",
        ),
    ],
)
def test_a_malformed_file_is_an_input_error(tmp_path: Path, content: str, message: str) -> None:
    with pytest.raises(InputError) as raised:
        read_root_ids(str(_file(tmp_path, content)))
    assert raised.value.message.startswith(message)
    assert raised.value.exit_code == 2


@pytest.mark.parametrize("command", ["reach", "impact"])
def test_a_malformed_file_exits_2_with_one_line_before_any_graph(
    tmp_path: Path, command: str
) -> None:
    result = _traverse(tmp_path, command, "--roots-from", _file(tmp_path, "[1]"), "a.ts#a")
    assert (result.code, result.stdout) == (2, b"")
    assert result.stderr == (
        "tsograph: --roots-from roots.json: item 0 is not a non-empty string; "
        "pass a JSON array of symbol ids or a bridge-facts document\n"
    )
    assert not (tmp_path / "cache").exists(), "the file is read before the graph is built"


def test_an_unreadable_file_exits_2(tmp_path: Path) -> None:
    with pytest.raises(InputError) as raised:
        read_root_ids(str(tmp_path))
    assert raised.value.message.startswith(f"--roots-from {tmp_path.name}: is a folder, not a")
    result = _traverse(tmp_path, "impact", "--roots-from", tmp_path / "absent.json")
    assert (result.code, result.stdout) == (2, b"")
    assert result.stderr.startswith("tsograph: --roots-from absent.json: no such file; pass ")
    assert str(tmp_path) not in result.stderr


def test_without_ids_or_a_file_it_is_a_usage_error(tmp_path: Path) -> None:
    result = _traverse(tmp_path, "impact")
    assert (result.code, result.stdout) == (64, b"")
    assert "give at least one symbol id, or --roots-from" in result.stderr
