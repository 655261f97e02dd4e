"""Which uncalled function runs first: the entry module's, whatever the file names."""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan

FASTIFY5 = '{"dependencies": {"fastify": "5.12.5"}}'


def test_a_plugin_required_inside_the_entry_function_runs_only_under_its_prefix(
    tmp_path: Path,
) -> None:
    # fastify/fastify-example-twitter: fastify-cli loads index.js, whose exported plugin
    # requires follow/index.js inside its body; "follow/index.js" sorts before "index.js".
    document = scan(
        tmp_path,
        {
            "package.json": FASTIFY5,
            "index.js": (
                "module.exports = async function (fastify, opts) {\n"
                "  fastify.register(require('./follow'), { prefix: '/api/follow' })\n"
                "}\n"
            ),
            "follow/index.js": (
                "module.exports = async function (fastify, opts) {\n"
                "  fastify.post('/follow', followHandler)\n"
                "}\n"
                "async function followHandler (req, reply) {}\n"
            ),
        },
    )
    assert [(f["method"], f["channel"], f["pathAnchor"]) for f in document["facts"]] == [
        ("POST", "/api/follow/follow", "base")
    ]
