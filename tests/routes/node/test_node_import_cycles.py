"""Import cycles between an app's file and its sub-apps' files (openstatus apps/workflows).

Modules run from the entry, as Node runs them; `import type` runs nothing, since
TypeScript erases it (typescript@5.9.3 transpileModule: `import type { A } from
'./a'` and `export type { C } from './c'` leave no import; `import { type B }`
leaves `import {} from './b'` under verbatimModuleSyntax, so it still runs).
"""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan

HONO4 = '{"dependencies": {"hono": "4.13.12"}}'
SUB_APP = (
    "import { Hono } from 'hono';\n"
    "{import}\n"
    "export const jobs = new Hono();\n"
    "jobs.post('/run', (c) => c.text('ran'));\n"
)
APP = (
    "import { Hono } from 'hono';\n"
    "import { jobs } from './cron';\n"
    "export type Env = { Variables: { id: string } };\n"
    "export const LABEL = 'jobs';\n"
    "export const app = new Hono();\n"
    "app.route('/jobs', jobs);\n"
)


def _facts(document: dict[str, object]) -> list[tuple[str, str, str]]:
    facts = document["facts"]
    assert isinstance(facts, list)
    return [(f["method"], f["channel"], f["pathAnchor"]) for f in facts]


def test_a_type_import_of_the_app_file_does_not_run_it_before_the_sub_app(
    tmp_path: Path,
) -> None:
    # "cron/index.ts" sorts before "index.ts"; before, its `import type` ran index.ts
    # first, whose mount then saw no sub-app: POST /run was written at the root.
    document = scan(
        tmp_path,
        {
            "package.json": HONO4,
            "src/index.ts": APP,
            "src/cron/index.ts": SUB_APP.replace(
                "{import}", "import type { Env } from '../index';"
            ),
        },
    )
    assert _facts(document) == [("POST", "/jobs/run", "root")]
    assert document["limitations"] == []


def test_a_value_import_cycle_runs_from_the_entry(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": HONO4,
            "src/serve.ts": "import { app } from './index';\nexport default app;\n",
            "src/index.ts": APP,
            "src/cron/index.ts": SUB_APP.replace("{import}", "import { LABEL } from '../index';"),
        },
    )
    assert _facts(document) == [("POST", "/jobs/run", "root")]


def test_a_sub_app_read_before_its_cycle_bound_it_is_not_an_app_at_the_root(
    tmp_path: Path,
) -> None:
    # No entry: the cycle starts at the first path, cron/index.ts, so index.ts mounts a
    # name its import has not bound yet. Where the sub-app is served is not proven.
    document = scan(
        tmp_path,
        {
            "package.json": HONO4,
            "src/index.ts": APP,
            "src/cron/index.ts": SUB_APP.replace("{import}", "import { LABEL } from '../index';"),
        },
    )
    assert _facts(document) == [("POST", "/run", "base")]
    assert any("unresolved-mounted-router: 1" in line for line in document["limitations"])
