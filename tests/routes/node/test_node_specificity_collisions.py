"""Two registrations answering the same method and path in a specificity router.

Fastify 4.29.1 and 5.12.5 (find-my-way 8 / 9) answered, via inject():
under the prefix `/users`, `GET /users/` reaches the static `/` route and not
the empty value of `/:id`; `/pw/` reaches `/:id` (empty) before `/*`; with
`all('/:id')` beside `get('/')` under `/am`, `GET /am/` is the static route
and `POST /am/` the `all` one; and `get('/u/:id')` with `get('/u/:name')`
makes `ready()` fail with "Method 'GET' already declared".
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tests.routes.node.support import scan
from tsograph.producers.routes.node.collisions import Candidate
from tsograph.producers.routes.node.collisions import resolve

PLUGINS = (
    "import Fastify from 'fastify';\n"
    "async function listUsers() { return []; }\n"
    "async function getUser() { return {}; }\n"
    "async function pwParam() { return 1; }\n"
    "async function pwWild() { return 2; }\n"
    "async function amAll() { return 1; }\n"
    "async function amGet() { return 2; }\n"
    "const app = Fastify();\n"
    "app.register(async (i) => {\n"
    "  i.get('/', listUsers);\n"
    "  i.get('/:id', getUser);\n"
    "}, { prefix: '/users' });\n"
    "app.register(async (i) => {\n"
    "  i.get('/:id', pwParam);\n"
    "  i.get('/*', pwWild);\n"
    "}, { prefix: '/pw' });\n"
    "app.register(async (i) => {\n"
    "  i.all('/:id', amAll);\n"
    "  i.get('/', amGet);\n"
    "}, { prefix: '/am' });\n"
    "export default app;\n"
)


def _by_route(document: dict[str, Any]) -> dict[tuple[str, str], set[str]]:
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for fact in document["facts"]:
        found[(fact["method"], fact["channel"])].add(fact["symbol"]["qualifiedName"])
    return dict(found)


@pytest.mark.parametrize("fastify", ["4.29.1", "5.12.5"])
def test_the_more_specific_registration_is_the_only_fact(tmp_path: Path, fastify: str) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": f'{{"dependencies": {{"fastify": "{fastify}"}}}}',
            "src/app.ts": PLUGINS,
        },
    )
    routes = _by_route(document)
    for (method, channel), handlers in routes.items():
        assert len(handlers) == 1, (method, channel, handlers)
    names = {key: next(iter(value)).rpartition("#")[2] for key, value in routes.items()}
    assert names[("GET", "/users/")] == "listUsers"
    assert names[("GET", "/users")] == "listUsers"
    assert names[("GET", "/users/{}")] == "getUser"
    assert names[("GET", "/pw/")] == "pwParam"
    assert names[("GET", "/pw/{**}")] == "pwWild"
    assert names[("GET", "/am/")] == "amGet"
    # `all` still answers POST /am/, but one ANY fact cannot say "every method but GET".
    assert ("ANY", "/am/") not in routes
    assert names[("ANY", "/am/{}")] == "amAll"
    assert any(
        line.startswith("route-coverage: 1 ") and "same method and path" in line
        for line in document["limitations"]
    ), document["limitations"]


def test_duplicate_registrations_give_no_fact(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"fastify": "5.12.5"}}',
            "src/app.ts": (
                "import Fastify from 'fastify';\n"
                "const app = Fastify();\n"
                "app.get('/u/:id', async function one() { return 1; });\n"
                "app.get('/u/:name', async function two() { return 2; });\n"
                "app.get('/ok', async function ok() { return 3; });\n"
                "export default app;\n"
            ),
        },
    )
    assert set(_by_route(document)) == {("GET", "/ok")}
    assert any(
        line.startswith("route-coverage: 4 ") and "duplicate-registration: 4" in line
        for line in document["limitations"]
    ), document["limitations"]


def test_separate_apps_do_not_collide(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"fastify": "5.12.5"}}',
            "src/a.ts": (
                "import Fastify from 'fastify';\n"
                "export const a = Fastify();\n"
                "a.get('/x', async function fromA() { return 1; });\n"
            ),
            "src/b.ts": (
                "import Fastify from 'fastify';\n"
                "export const b = Fastify();\n"
                "b.get('/x', async function fromB() { return 2; });\n"
            ),
        },
    )
    assert len(_by_route(document)[("GET", "/x")]) == 2


def _fact(method: str, channel: str, usr: str) -> dict[str, Any]:
    symbol = {"qualifiedName": usr, "usr": usr}
    return {"method": method, "channel": channel, "pathAnchor": "root", "symbol": symbol}


def test_a_pair_no_find_my_way_rule_ranks_is_left_out_and_counted() -> None:
    # NestJS's routeResolutionStrategy "specificity" sorts on Express: not find-my-way.
    first, second = _fact("GET", "/users", "a#one"), _fact("GET", "/users", "a#two")
    dropped, reasons = resolve(
        [Candidate(first, 1, "/users", None), Candidate(second, 1, "/users{/:id}", None)]
    )
    assert dropped == {id(first), id(second)}
    assert reasons == {"unranked-collision": 2}


def test_one_handler_under_two_templates_is_no_collision() -> None:
    # The optional parameter registers `/users` and `/users/:id` for one handler.
    facts = [_fact("GET", "/users", "a#one"), _fact("GET", "/users", "a#one")]
    dropped, reasons = resolve([Candidate(fact, 1, "/users/:id?", 9) for fact in facts])
    assert not dropped and not reasons
