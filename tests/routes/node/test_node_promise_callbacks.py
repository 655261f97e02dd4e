"""Promise callbacks run after the top levels; what they cannot prove stays unproven.

The fixture express-promise-callbacks (test_node_golden.py) holds the common case:
an app built inside `prepare().then(...)`; these are the edges around it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.node.support import scan

EXPRESS4 = '{"type": "module", "dependencies": {"express": "4.22.3"}}'
# The top of every server below: an app and a handler.
APP = "import express from 'express'\nconst app = express()\nfunction h(req, res) {}\n"


def _routes(document: dict[str, Any]) -> list[tuple[str, str, Any]]:
    return sorted((f["channel"], f["pathAnchor"], f.get("order")) for f in document["facts"])


def test_after_a_top_level_await_the_callback_carries_no_order(tmp_path: Path) -> None:
    # The queued callback may run while the module waits at the await (ES modules,
    # Node 20.20.2), before `/c` is registered: the order of `/b` is not proven.
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "server.js": (
                APP + "app.get('/a', h)\n"
                "Promise.resolve().then(() => { app.get('/b', h) })\n"
                "await Promise.resolve()\n"
                "app.get('/c', h)\n"
                "app.listen(3000)\n"
            ),
        },
    )
    assert _routes(document) == [
        ("/a", "root", {"group": "server.js#app", "index": 0}),
        ("/b", "root", None),
        ("/c", "root", {"group": "server.js#app", "index": 1}),
    ]
    assert any("registration-from-another-module" in line for line in document["limitations"])


def test_the_value_a_callback_receives_is_not_a_prefix(tmp_path: Path) -> None:
    # `prefix` is whatever the promise fulfils with: the mount prefix is not proven, even
    # though the callback's default would be a literal.
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "server.js": (
                "import express from 'express'\n"
                "const app = express()\n"
                "const api = express.Router()\n"
                "api.get('/users', function users(req, res) {})\n"
                "fetch('/config').then((prefix = '/api') => { app.use(prefix, api) })\n"
                "app.listen(3000)\n"
            ),
        },
    )
    assert [(f["channel"], f["pathAnchor"]) for f in document["facts"]] == [("/users", "base")]
    assert any(line.startswith("unresolved-route-prefix") for line in document["limitations"])


def test_a_promise_held_in_a_name_is_not_followed(tmp_path: Path) -> None:
    # Nothing proves `pending` is a promise (its `then` could be anything's): the callback
    # does not run, only the top level's route is a fact, and the callback is counted.
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "server.js": (
                APP + "const pending = fetch('/config')\n"
                "pending.then(() => { app.get('/unproven', h) })\n"
                "app.get('/a', h)\n"
                "app.listen(3000)\n"
            ),
        },
    )
    assert [f["channel"] for f in document["facts"]] == ["/a"]
    assert document["limitations"] == [
        "route-coverage: 1 registration(s) or file(s) could not be fully modeled "
        "(callback-of-unproven-promise: 1; at server.js:5)"
    ]


def test_a_callback_that_queues_itself_again_runs_once(tmp_path: Path) -> None:
    # A retry loop (`connect` calls itself from its own rejection callback) would queue the
    # same callback for ever: it runs once, and the modules after it are still read.
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "a.js": (
                "import express from 'express'\n"
                "export const app = express()\n"
                "function h(req, res) {}\n"
                "function connect() {\n"
                "  fetch('/db').then(() => { app.get('/up', h) }).catch(() => connect())\n"
                "}\n"
                "connect()\n"
                "app.listen(3000)\n"
            ),
            "b.js": (
                "import express from 'express'\n"
                "const other = express()\n"
                "other.get('/b', function b(req, res) {})\n"
                "other.listen(3001)\n"
            ),
        },
    )
    assert sorted(f["channel"] for f in document["facts"]) == ["/b", "/up"]
