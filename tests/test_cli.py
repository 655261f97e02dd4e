"""The command line contract: version, help, exit codes and error lines."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tsograph.exchange.version import TOOL_VERSION
from tsograph.producers import cli

CONTRACT = REPO / "fixtures" / "documents" / "route-contract.json"


def test_version() -> None:
    result = tsograph("--version")
    assert (result.code, result.stdout) == (0, f"tsograph {TOOL_VERSION}\n".encode())


def test_help_lists_only_working_commands() -> None:
    result = tsograph("--help")
    assert result.code == 0
    assert b"validate" in result.stdout
    assert b"Exit codes" in result.stdout


@pytest.mark.parametrize(
    "args",
    [(), ("no-such-command",), ("--no-such-flag",), ("validate",)],
)
def test_usage_errors_exit_64_with_empty_stdout(args: tuple[str, ...]) -> None:
    result = tsograph(*args)
    assert result.code == 64
    assert result.stdout == b""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("tsograph: ")


def test_validate_accepts_a_valid_document_from_another_directory(tmp_path: Path) -> None:
    result = tsograph("validate", CONTRACT, cwd=tmp_path)
    assert result.code == 0
    assert result.stdout.endswith(b"route-contract.json: valid bridge-facts document\n")
    assert str(REPO).encode() not in result.stdout


@pytest.mark.parametrize(
    ("mutate", "pointer"),
    [
        (lambda d: d["facts"][0].update(extra=1), "/facts/0/extra"),
        (lambda d: d["facts"][1].update(method="get"), "/facts/1/method"),
        (lambda d: d["facts"][0].update(kind="route-maybe"), "/facts/0/kind"),
        (lambda d: d.update(limitations=["guessed: 1 thing"]), "/limitations/0"),
    ],
)
def test_validate_rejects_with_one_line_naming_the_pointer(
    tmp_path: Path, mutate: object, pointer: str
) -> None:
    document = orjson.loads(CONTRACT.read_bytes())
    mutate(document)  # type: ignore[operator]
    path = tmp_path / "doc.json"
    path.write_bytes(orjson.dumps(document))
    result = tsograph("validate", "doc.json", cwd=tmp_path)
    assert result.code == 2
    assert result.stdout == b""
    assert result.stderr.startswith(f"tsograph: doc.json: invalid at {pointer}: ")
    assert result.stderr.count("\n") == 1


def test_validate_names_no_absolute_path(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(b"{not json")
    result = tsograph("validate", path)
    assert result.code == 2
    assert str(tmp_path) not in result.stderr
    assert "broken.json" in result.stderr


def test_validate_missing_file_is_exit_2(tmp_path: Path) -> None:
    result = tsograph("validate", "absent.json", cwd=tmp_path)
    assert (result.code, result.stdout) == (2, b"")
    assert result.stderr == (
        "tsograph: absent.json: no such file; pass a bridge-facts, language-traversal or "
        "tsograph-graph document (JSON or NDJSON)\n"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"{not json",
            "broken.json: not JSON (unexpected character, expected a string key at line 1, "
            "column 2); pass a bridge-facts, language-traversal or tsograph-graph document",
        ),
        (b"[1]", "broken.json: is a JSON array; pass a bridge-facts"),
        (b'{"format": "x"}', "broken.json: is a JSON object of no tsograph format; pass a"),
    ],
)
def test_validate_names_the_file_the_cause_and_a_fix(
    tmp_path: Path, content: bytes, message: str
) -> None:
    (tmp_path / "broken.json").write_bytes(content)
    result = tsograph("validate", "broken.json", cwd=tmp_path)
    assert (result.code, result.stdout) == (2, b"")
    assert result.stderr.startswith(f"tsograph: {message}")
    assert result.stderr.count("\n") == 1
    assert "invalid at not JSON" not in result.stderr


def test_validate_names_a_folder_as_a_folder(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    result = tsograph("validate", "docs", cwd=tmp_path)
    assert (result.code, result.stdout) == (2, b"")
    assert result.stderr.startswith("tsograph: docs: is a folder, not a file; pass a")


def test_validate_ndjson_export(tmp_path: Path) -> None:
    header = {
        "format": "tsograph-graph-ndjson",
        "version": 1,
        "tool": {"name": "tsograph", "version": TOOL_VERSION},
        "platform": "js",
        "project": "p",
        "generatedAt": "2026-01-01T00:00:00.000Z",
        "graphRevision": "sha256:" + "0" * 64,
        "statistics": {"nodes": 1},
        "limitations": [],
    }
    location = {"path": "a.ts", "line": 1, "column": 1}
    nodes = [
        {"record": "node", "id": f"a.ts#{name}", "kind": "function", "location": location}
        for name in ("f", "g")
    ]
    edge = {"record": "edge", "from": "a.ts#f", "to": "a.ts#g", "kinds": ["call"]}
    path = tmp_path / "graph.ndjson"

    def write(*records: Any) -> None:
        path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in (header, *records)))

    write(edge, *nodes)
    result = tsograph("validate", path.name, cwd=tmp_path)
    assert result.code == 2
    assert "line 2" in result.stderr
    edge["evidence"] = "direct"
    write(edge, *nodes)
    assert tsograph("validate", path.name, cwd=tmp_path).code == 0


def test_unexpected_exception_is_internal_error_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def explode(args: argparse.Namespace) -> int:
        raise KeyError("/secret/absolute/path")

    original = cli.build_parser

    def parser_with_failing_command(
        command: str | None = None, *, every: bool = True
    ) -> argparse.ArgumentParser:
        parser = original(command, every=every)
        parser.set_defaults(run=explode)
        return parser

    monkeypatch.setattr(cli, "build_parser", parser_with_failing_command)
    assert cli.run([]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "tsograph: internal error (KeyError)\n"


def test_recursion_error_is_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def deep(args: argparse.Namespace) -> int:
        raise RecursionError

    original = cli.build_parser

    def parser_with_deep_command(
        command: str | None = None, *, every: bool = True
    ) -> argparse.ArgumentParser:
        parser = original(command, every=every)
        parser.set_defaults(run=deep)
        return parser

    monkeypatch.setattr(cli, "build_parser", parser_with_deep_command)
    assert cli.run([]) == 2
    assert "internal error (RecursionError)" in capsys.readouterr().err


def _run_here(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.run(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


SPEC = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {/a: {get: {}}}\n'

# Every command that reads a project folder, with `{project}` where --project goes.
PROJECT_COMMANDS = {
    "openapi": ("openapi", "api.yaml", "--service", "s", "--project", "{project}"),
    "routes-server": ("routes", "--role", "server", "--project", "{project}"),
    "routes-client": ("routes", "--role", "client", "--project", "{project}"),
    "schema": ("schema", "--project", "{project}"),
    "graph": ("graph", "--no-cache", "--project", "{project}"),
    "reach": ("reach", "--no-cache", "--project", "{project}", "a.ts#f"),
    "impact": ("impact", "--no-cache", "--project", "{project}", "a.ts#f"),
}


@pytest.mark.parametrize("command", PROJECT_COMMANDS.values(), ids=PROJECT_COMMANDS)
@pytest.mark.parametrize(
    ("project", "cause"),
    [("nope", "no such folder"), ("api.yaml", "is a file, not a folder")],
)
def test_an_unreadable_project_is_exit_2_for_every_command(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
    project: str,
    cause: str,
) -> None:
    (tmp_path / "api.yaml").write_text(SPEC)
    monkeypatch.chdir(tmp_path)
    argv = [part.format(project=project) for part in command]
    code, out, err = _run_here(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == f"tsograph: --project {project}: {cause}; pass the project root folder\n"


def test_an_absolute_project_path_is_named_by_its_last_component(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run_here(capsys, "schema", "--project", str(tmp_path / "gone"))
    assert (code, out) == (2, "")
    assert err == "tsograph: --project gone: no such folder; pass the project root folder\n"


def test_a_required_project_left_out_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run_here(capsys, "schema")
    assert (code, out) == (64, "")
    assert "--project" in err


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    subparsers = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    return dict(subparsers.choices)


def _options(command: str) -> set[str]:
    return {
        option
        for action in _commands(cli.build_parser())[command]._actions
        for option in action.option_strings
    }


def test_the_command_table_names_the_module_that_registers_each_command() -> None:
    # A run imports only the module the table names for its command: the table must list
    # every command the full parser has, in its order, and each module must register its
    # command with the options the full parser gives it.
    full = _commands(cli.build_parser())
    assert list(full) == list(cli.COMMANDS)
    for name in cli.COMMANDS:
        alone = _commands(cli.build_parser(name))
        assert name in alone
        assert alone[name].format_help() == full[name].format_help()


def test_the_commands_that_cache_take_both_cache_flags_and_only_they() -> None:
    # graph, reach and impact cache facts and graphs; routes and schema cache syntax files.
    caching = {"graph", "reach", "impact", "routes", "schema"}
    for command in ("openapi", "routes", "schema", "validate", *caching):
        options = _options(command)
        expected = {"--cache-dir", "--no-cache"} if command in caching else set()
        assert options & {"--cache-dir", "--no-cache"} == expected, command


def _files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()]


@pytest.fixture
def default_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The default cache folder ($XDG_CACHE_HOME) moved to tmp_path/xdg, not yet made."""
    folder = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


CACHE_RUNS = {
    "graph": ("graph",),
    "reach": ("reach", "src/a.ts#f"),
    "impact": ("impact", "src/a.ts#f"),
    "routes-client": ("routes", "--role", "client"),
}


@pytest.mark.parametrize("command", CACHE_RUNS.values(), ids=CACHE_RUNS)
def test_no_cache_writes_nothing_and_cache_dir_is_where_the_cache_goes(
    tmp_path: Path,
    default_cache: Path,
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
) -> None:
    project = tmp_path / "p"
    (project / "src").mkdir(parents=True)
    (project / "src" / "a.ts").write_text("export function f() { return g(); }\nfunction g() {}\n")
    name, *ids = command
    ids = ["--generated-at", "2026-01-01T00:00:00.000Z", *ids]
    assert cli.run([name, "--project", str(project), "--no-cache", *ids]) == 0
    without = capsys.readouterr().out
    assert not default_cache.exists() and _files_under(tmp_path) == [project / "src" / "a.ts"]
    chosen = tmp_path / "chosen"
    assert cli.run([name, "--project", str(project), "--cache-dir", str(chosen), *ids]) == 0
    assert capsys.readouterr().out == without
    assert _files_under(chosen) and not default_cache.exists()
    # The default folder is used when neither flag is given.
    assert cli.run([name, "--project", str(project), *ids]) == 0
    assert _files_under(default_cache)


@pytest.mark.parametrize(
    "command",
    [("routes", "--role", "server"), ("routes", "--role", "client"), ("schema",)],
)
def test_routes_and_schema_cache_syntax_where_told(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    default_cache: Path,
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
) -> None:
    project = tmp_path / "p"
    (project / "app" / "api").mkdir(parents=True)
    (project / "app" / "api" / "route.ts").write_text(
        'const q = "SELECT id FROM users";\n'
        "export async function GET() { return fetch('/api/x'); }\n"
    )
    (project / "package.json").write_text('{"dependencies": {"next": "16.2.7"}}')
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    run = [*command, "--project", str(project), "--generated-at", "2026-01-01T00:00:00.000Z"]
    assert cli.run([*run, "--no-cache"]) == 0
    without = capsys.readouterr().out
    assert not default_cache.exists() and not (tmp_path / "home").exists()
    chosen = tmp_path / "chosen"
    assert cli.run([*run, "--cache-dir", str(chosen)]) == 0
    assert capsys.readouterr().out == without
    assert _files_under(chosen) and not default_cache.exists()
    assert cli.run(run) == 0
    assert capsys.readouterr().out == without
    assert _files_under(default_cache) and not (tmp_path / "home").exists()
