"""Hono's `strict` option belongs to the app that receives the request.

hono@4.13.19 (scratch install, run with app.request): a default sub-app mounted with
`route('/', sub)` on `new Hono({ strict: false })` answered `POST /run/` with 200, and a
`new Hono({ strict: false })` sub-app mounted at `/s` on a default app answered
`GET /s/x/` with 404 (openstatus apps/workflows mounts a default sub-app on a
`strict: false` app).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.node.support import scan

HONO4 = '{"dependencies": {"hono": "4.13.12"}}'


def _facts(document: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    return [
        (f["method"], f["channel"], f["pathAnchor"], f.get("trailingSlash", ""))
        for f in document["facts"]
    ]


def _app(app_options: str, sub_options: str, mount: str) -> str:
    return (
        "import { Hono } from 'hono';\n"
        f"const sub = new Hono({sub_options});\n"
        "sub.post('/run', (c) => c.text('ran'));\n"
        f"const app = new Hono({app_options});\n"
        "app.get('/ping', (c) => c.text('pong'));\n"
        f"{mount}\n"
        "export default app;\n"
    )


def test_a_default_sub_app_on_a_non_strict_app_ignores_the_trailing_slash(
    tmp_path: Path,
) -> None:
    source = _app("{ strict: false }", "", "app.route('/', sub);")
    document = scan(tmp_path, {"package.json": HONO4, "src/index.ts": source})
    assert _facts(document) == [
        ("GET", "/ping", "root", "optional"),
        ("POST", "/run", "root", "optional"),
    ]


def test_a_non_strict_sub_app_on_a_default_app_is_strict(tmp_path: Path) -> None:
    source = _app("", "{ strict: false }", "app.route('/s', sub);")
    document = scan(tmp_path, {"package.json": HONO4, "src/index.ts": source})
    assert _facts(document) == [
        ("GET", "/ping", "root", "strict"),
        ("POST", "/s/run", "root", "strict"),
    ]


def test_a_sub_app_mounted_out_of_view_claims_no_trailing_slash_rule(tmp_path: Path) -> None:
    source = (
        "import { Hono } from 'hono';\n"
        "export const sub = new Hono({ strict: false });\n"
        "sub.post('/run', (c) => c.text('ran'));\n"
        "declare const host: { route(path: string, app: unknown): void };\n"
        "host.route('/x', sub);\n"
    )
    document = scan(tmp_path, {"package.json": HONO4, "src/index.ts": source})
    assert _facts(document) == [("POST", "/run", "base", "")]
