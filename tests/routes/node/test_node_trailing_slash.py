"""Trailing slashes under Express strict routing, as Express 4.22.3 and 5.2.1 answered.

Run on 127.0.0.1 (oracle/node-paths/record-joins.mjs, `strictUse` cases): a
`Router({ strict: true })` route `/ping/` mounted at `/api/v2` answers
`/api/v2/ping/` and not `/api/v2/ping`, in both majors. `app.enable('strict
routing')` only counts before the app's router exists: Express creates it at
the first use/route/METHOD call (4.22.3 `lazyrouter`, 5.2.1 the `router`
getter), and a later setting left `/a/` answering `/a` too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.routes.node.support import scan


def _facts(document: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(f["method"], f["channel"], f.get("trailingSlash", "")) for f in document["facts"]}


@pytest.mark.parametrize("express", ["4.22.3", "5.2.1"])
def test_a_strict_router_keeps_the_trailing_slash_under_a_mount(
    tmp_path: Path, express: str
) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": f'{{"dependencies": {{"express": "{express}"}}}}',
            "src/app.js": (
                "const express = require('express');\n"
                "const app = express();\n"
                "const v2 = express.Router({ strict: true });\n"
                "v2.get('/ping/', (req, res) => res.send('pong'));\n"
                "v2.get('/', (req, res) => res.send('root'));\n"
                "app.use('/api/v2', v2);\n"
                "module.exports = app;\n"
            ),
        },
    )
    assert _facts(document) == {
        ("GET", "/api/v2/ping/", "strict"),
        ("GET", "/api/v2", "strict"),
        ("GET", "/api/v2/", "strict"),
    }


@pytest.mark.parametrize("express", ["4.22.3", "5.2.1"])
def test_strict_routing_set_after_the_first_route_has_no_effect(
    tmp_path: Path, express: str
) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": f'{{"dependencies": {{"express": "{express}"}}}}',
            "src/app.js": (
                "const express = require('express');\n"
                "const app = express();\n"
                "app.get('/a/', (req, res) => res.send('a'));\n"
                "app.enable('strict routing');\n"
                "module.exports = app;\n"
            ),
        },
    )
    assert all(f["trailingSlash"] == "optional" for f in document["facts"]), document["facts"]
