"""Middleware a package's factory makes from a project callback passes requests on like the
package itself: the callback is the factory's argument, not a handler that answers."""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan

HONO = '{"dependencies": {"hono": "4.13.12"}}'


def _routes(document: dict[str, object]) -> list[tuple[str, str]]:
    facts = document["facts"]
    assert isinstance(facts, list)
    return [(fact["method"], fact["channel"]) for fact in facts]


def test_a_hono_logger_given_a_print_function_answers_nothing(tmp_path: Path) -> None:
    # karakeep-app/karakeep packages/api/index.ts: `.use(logger((str) => log.info(str)))`.
    # hono/logger@4.13.12 calls the function with each log line and then `await next()`.
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "import { logger as loggerMiddleware } from 'hono/logger';\n"
                "const app = new Hono();\n"
                "app.use(loggerMiddleware((line: string) => { console.log(line); }));\n"
                "app.get('/items', (c) => c.json([]));\n"
                "export default app;\n"
            ),
        },
    )
    assert _routes(document) == [("GET", "/items")]
    assert document["limitations"] == []
