"""A router whose creation is out of view: framework defaults for paths, no trailing-slash claim."""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan


def test_a_runner_loaded_fastify_plugin_claims_no_trailing_slash_flag(tmp_path: Path) -> None:
    # fastify-cli / @fastify/autoload call the exported plugin; its instance's options
    # (ignoreTrailingSlash among them) are not in the project.
    document = scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"fastify": "5.12.5"}}',
            "routes/users.js": (
                "module.exports = async function (fastify) {\n"
                "  fastify.get('/users/:id', async () => 'user');\n"
                "};\n"
            ),
        },
    )
    facts = document["facts"]
    assert facts, document["limitations"]
    assert all("trailingSlash" not in fact for fact in facts)
    # Fastify's default (strict, parameters may be empty) decides the templates.
    assert {fact["channel"] for fact in facts} == {"/users/{}", "/users/"}
