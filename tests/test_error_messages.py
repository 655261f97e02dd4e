"""Every user-facing failure is one line: the file as the user named it, the cause and a fix.

One table over all commands, run in a folder laid out for the case, with
relative names; the message must not hold the absolute folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tsograph.producers import cli

SPEC = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {/a: {get: {}}}\n'

FILES = {
    "api.yaml": SPEC,
    "broken.yaml": "openapi: 3.0.3\npaths: [\n",
    "broken.json": '{"openapi": "3.0.3",\n "paths": {"/a": ]}',
    "facts.json": '{"format": "bridge-facts"}',
    "bad.json": "{not json",
    "object.json": '{"a": 1}',
    "project/a.ts": "export function f() {}\n",
    "project/bad.json": '{"compilerOptions": }',
    "project/apps/api/c.ts": "export function h() {}\n",
    "other/b.ts": "export function g() {}\n",
}

# (argv, exit code, the start of the message after "tsograph: ")
CASES = {
    "openapi-missing-spec": (
        ["openapi", "nope.yaml", "--service", "s"],
        2,
        "nope.yaml: no such file; check the spec's path",
    ),
    "openapi-folder-spec": (
        ["openapi", "project", "--service", "s"],
        2,
        "project: is a folder; pass the spec file itself",
    ),
    "openapi-broken-yaml": (
        ["openapi", "broken.yaml", "--service", "s"],
        2,
        "broken.yaml: is not valid YAML",
    ),
    "openapi-broken-json": (
        ["openapi", "broken.json", "--service", "s"],
        2,
        "broken.json: is not valid JSON at line 2",
    ),
    "openapi-wrong-document": (
        ["openapi", "facts.json", "--service", "s"],
        2,
        "facts.json: does not declare a supported version",
    ),
    "graph-tsconfig-missing": (
        ["graph", "--no-cache", "--project", "project", "--tsconfig", "nope.json"],
        2,
        "--tsconfig nope.json: cannot be read (no such file in the project); pass a config",
    ),
    "graph-tsconfig-broken": (
        ["graph", "--no-cache", "--project", "project", "--tsconfig", "bad.json"],
        2,
        "--tsconfig bad.json: cannot be read (bad.json not read (not JSON",
    ),
    "graph-tsconfig-outside": (
        ["graph", "--no-cache", "--project", "project", "--tsconfig", "../api.yaml"],
        2,
        "--tsconfig ../api.yaml: lies outside the project; pass a config path",
    ),
    "graph-workspace-missing": (
        ["graph", "--no-cache", "--project", "project", "--workspace", "nope"],
        2,
        "--workspace nope: no such folder; pass the project root folder",
    ),
    # A package path written from --project: it is read from the working folder.
    "graph-workspace-from-project": (
        ["graph", "--no-cache", "--project", "project", "--workspace", "apps/api"],
        2,
        "--workspace apps/api: no such folder; it is taken from the working folder, not from "
        "--project: pass the --project path followed by /apps/api",
    ),
    "graph-workspace-apart": (
        ["graph", "--no-cache", "--project", "project", "--workspace", "other"],
        64,
        "--workspace other: neither holds nor lies in --project; pass a package folder",
    ),
    "routes-workspace-apart": (
        ["routes", "--role", "server", "--project", "other", "--workspace", "project"],
        64,
        "--workspace project: neither holds nor lies in --project; pass a package folder",
    ),
    "reach-roots-from-missing": (
        ["reach", "--no-cache", "--project", "project", "--roots-from", "nope.json"],
        2,
        "--roots-from nope.json: no such file; pass a JSON array of symbol ids",
    ),
    "reach-roots-from-not-json": (
        ["reach", "--no-cache", "--project", "project", "--roots-from", "bad.json"],
        2,
        "--roots-from bad.json: not JSON (",
    ),
    "reach-roots-from-wrong-kind": (
        ["reach", "--no-cache", "--project", "project", "--roots-from", "object.json"],
        2,
        "--roots-from object.json: is a JSON object of no tsograph format; pass a JSON array",
    ),
    "reach-graph-file-folder": (
        ["reach", "--graph-file", "project", "a.ts#f"],
        2,
        "--graph-file project: is a folder, not a file; pass a snapshot written by",
    ),
    "routes-client-model-missing": (
        ["routes", "--role", "client", "--project", "project", "--client-model", "nope.json"],
        2,
        "--client-model nope.json: no such file; pass a client model as",
    ),
    "routes-client-model-not-json": (
        ["routes", "--role", "client", "--project", "project", "--client-model", "bad.json"],
        2,
        "--client-model bad.json: not JSON (",
    ),
    "validate-not-json": (["validate", "bad.json"], 2, "bad.json: not JSON ("),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES)
def test_a_failure_is_one_line_with_file_cause_and_fix(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case: tuple[list[str], int, str],
) -> None:
    argv, code, start = case
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    assert cli.run(argv) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"tsograph: {start}"), captured.err
    assert captured.err.count("\n") == 1
    # A fix follows the cause.
    assert "; " in captured.err.partition(start)[2] or "; " in start
    assert str(tmp_path) not in captured.err
