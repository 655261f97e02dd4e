"""`tsograph routes` as users call it: a subprocess, exit codes and streams."""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.cli_helpers import tsograph


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "web"
    (root / "app" / "hello").mkdir(parents=True)
    (root / "package.json").write_text('{"dependencies": {"next": "16.2.7"}}', encoding="utf-8")
    (root / "app" / "hello" / "route.ts").write_text("export function GET() {}\n", "utf-8")
    return root


def test_server_document_on_stdout(tmp_path: Path) -> None:
    result = tsograph("routes", "--role", "server", "--project", _project(tmp_path))
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    assert [fact["channel"] for fact in document["facts"]] == ["/hello"]


def test_client_model_with_the_server_role_exits_64_with_empty_stdout(tmp_path: Path) -> None:
    model = tmp_path / "model.json"
    model.write_text("[]", encoding="utf-8")
    result = tsograph(
        "routes", "--role", "server", "--project", _project(tmp_path), "--client-model", model
    )
    assert result.code == 64 and result.stdout == b""
    assert "--client-model applies to --role client only" in result.stderr


def test_bad_generated_at_exits_64(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = tsograph("routes", "--role", "server", "--project", project, "--generated-at", "x")
    assert result.code == 64 and result.stdout == b""
