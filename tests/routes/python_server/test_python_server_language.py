"""Which language `routes --role server` reads at a root (python_server/language.py)."""

from __future__ import annotations

import json
from pathlib import Path

import orjson

from tests.cli_helpers import tsograph

SERVER = (
    'from fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get("/py")\ndef py():\n    pass\n'
)
EXPRESS = "const app = require('express')();\napp.get('/js', (req, res) => res.send('js'));\n"


def _project(root: Path, dependencies: dict[str, str]) -> Path:
    (root / "server").mkdir(parents=True)
    (root / "server" / "main.py").write_text(SERVER)
    (root / "app.js").write_text(EXPRESS)
    (root / "package.json").write_text(json.dumps({"dependencies": dependencies}))
    return root


def _channels(stdout: bytes) -> tuple[str, list[str]]:
    document = orjson.loads(stdout)
    return document["platform"], [fact["channel"] for fact in document["facts"]]


def test_python_server_without_a_js_server_is_read_as_python(tmp_path: Path) -> None:
    project = _project(tmp_path / "p", {"axios": "1.7.9"})
    result = tsograph("routes", "--role", "server", "--project", project)
    assert result.code == 0, result.stderr
    assert _channels(result.stdout) == ("python", ["/py"])


def test_both_servers_at_one_root_need_language(tmp_path: Path) -> None:
    project = _project(tmp_path / "p", {"express": "4.22.3"})
    result = tsograph("routes", "--role", "server", "--project", project)
    assert result.code == 64
    assert "--language" in result.stderr and not result.stdout
    for language, expected in (("python", ("python", ["/py"])), ("js", ("js", ["/js"]))):
        chosen = tsograph(
            "routes", "--role", "server", "--project", project, "--language", language
        )
        assert chosen.code == 0, chosen.stderr
        assert _channels(chosen.stdout) == expected
