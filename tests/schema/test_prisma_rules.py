"""Prisma rules on small projects: symbols are graph ids, schema location, versions, naming."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.openapi.support import invoke
from tests.schema.support import FIXTURES
from tests.schema.support import copy_project
from tests.schema.support import document_of
from tests.schema.support import write_project
from tsograph.producers.schema.prisma import naming
from tsograph.producers.schema.prisma.locate import CONFIG_CANDIDATES
from tsograph.producers.schema.prisma.psl import read_schema

SCHEMA = """datasource db {
  provider = "postgresql"
}

model Job {
  id Int @id
}
"""


def channels(document: dict[str, Any]) -> set[tuple[str, str | None, bool]]:
    return {(f["channel"], f.get("method"), f["dynamic"]) for f in document["facts"]}


def client_project(tmp_path: Path, sources: dict[str, str]) -> Path:
    """A Prisma 6 project: the package, the schema and these sources."""
    files = {
        "package.json": '{"dependencies": {"@prisma/client": "6.19.0"}}',
        "prisma/schema.prisma": SCHEMA,
        **sources,
    }
    return write_project(tmp_path / "p", files)


def source_places(document: dict[str, Any]) -> set[tuple[str, int]]:
    """(path, line) of the facts found in code (under src/), not in the schema."""
    return {
        (f["location"]["path"], f["location"]["line"])
        for f in document["facts"]
        if f["location"]["path"].startswith("src/")
    }


@pytest.mark.parametrize("case", ["prisma-app", "client-provenance", "multi-file", "edge-cases"])
def test_every_source_fact_names_a_graph_node(case: str, tmp_path: Path) -> None:
    project = copy_project(FIXTURES / case / "project", tmp_path / case)
    document = document_of(project)
    result = invoke("graph", "--project", str(project), "--no-cache")
    assert result.code == 0, result.stderr
    nodes = {node["id"] for node in orjson.loads(result.stdout)["nodes"]}
    usrs = {
        fact["symbol"]["usr"]
        for fact in document["facts"]
        if "symbol" in fact
        and "#model:" not in fact["symbol"]["usr"]
        and "#typedsql:" not in fact["symbol"]["usr"]
    }
    assert usrs, "the case has source facts"
    assert usrs <= nodes, sorted(usrs - nodes)
    for fact in document["facts"]:
        usr = fact.get("symbol", {}).get("usr", "")
        if usr in usrs:  # a source fact: its qualifiedName is the graph id too
            assert fact["symbol"]["qualifiedName"] == usr


def test_config_order_follows_the_prisma_cli() -> None:
    # prisma@7.10.1 looks for prisma7.config.* first; c12 tries "", then .js, .ts, … per base.
    assert CONFIG_CANDIDATES[:2] == ("prisma7.config.js", "prisma7.config.ts")
    assert CONFIG_CANDIDATES.index("prisma.config.ts") < CONFIG_CANDIDATES.index(
        ".config/prisma.ts"
    )
    assert CONFIG_CANDIDATES.index(".config/prisma.ts") < CONFIG_CANDIDATES.index(
        ".config/prisma.config.ts"
    )


def test_schema_prisma_beats_prisma_folder_and_package_json_is_ignored_by_prisma_7(
    tmp_path: Path,
) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"prisma": "7.8.0"}, '
            '"prisma": {"schema": "x.prisma"}}',
            "schema.prisma": SCHEMA,
            "prisma/schema.prisma": SCHEMA.replace("Job", "Other"),
            "x.prisma": SCHEMA.replace("Job", "Legacy"),
        },
    )
    assert ("Job", None, False) in channels(document_of(project))
    assert {c for c, _, _ in channels(document_of(project))} == {"Job"}


def test_package_json_schema_is_honoured_for_prisma_6(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"prisma": "6.19.0"}, '
            '"prisma": {"schema": "x.prisma"}}',
            "x.prisma": SCHEMA.replace("Job", "Legacy"),
        },
    )
    assert {c for c, _, _ in channels(document_of(project))} == {"Legacy"}


@pytest.mark.parametrize(
    ("lockfile", "text", "expected"),
    [
        ("package-lock.json", '{"packages": {"node_modules/prisma": {"version": "7.8.0"}}}', "Job"),
        ("pnpm-lock.yaml", "packages:\n  '@prisma/orm-family-sql@8.0.0-rc.5':\n", "job"),
        ("yarn.lock", '"@prisma/orm-family-sql@^8.0.0-rc.12":\n  version "8.0.0-rc.12"\n', "Job"),
        ("bun.lock", '{"packages": {"prisma": ["prisma@6.1.0", ""]}}', "Job"),
    ],
)
def test_lockfiles_select_the_naming_rule(
    tmp_path: Path, lockfile: str, text: str, expected: str
) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"@prisma/client": "*"}}',
            lockfile: text,
            "prisma/schema.prisma": SCHEMA,
        },
    )
    assert (expected, None, False) in channels(document_of(project))


def test_prisma_8_lower_first_rule_and_agreement() -> None:
    rules = [naming.PRISMA_7, naming.ORM_8_LOWER_FIRST, naming.ORM_8_EXACT]
    names = [naming.table_name(rule, "Job", None) for rule in rules]
    assert names == ["Job", "job", "Job"]
    assert naming.agreed(list(names)) is None
    assert naming.agreed([naming.table_name(r, "Job", "jobs") for r in rules]) == "jobs"
    assert naming.default_relation_name("tag", "Book") == "BookTotag"  # code-point order


@given(st.text(alphabet=st.sampled_from(list('model Ab{}()[]@"=?\\/ \n')), max_size=300))
def test_reader_never_fails(text: str) -> None:
    schema = read_schema("s.prisma", text)
    assert all(number >= 1 for number in schema.unparsed)
    assert all(block.name for block in schema.blocks)


def test_reader_counts_lines_it_does_not_understand() -> None:
    schema = read_schema("s.prisma", "model A {\n  id Int @id\n  ??? what\n}\nstray\n")
    assert schema.unparsed == [3, 5]
    assert [f.name for f in schema.blocks[0].fields] == ["id"]


def test_escaped_channels_and_typed_sql_without_preview_feature(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"prisma": "7.8.0"}}',
            "prisma/schema.prisma": SCHEMA.replace("@id", '@id\n  @@map("a.b%")'),
            "prisma/sql/q.sql": "SELECT * FROM jobs",
        },
    )
    document = document_of(project)
    assert {c for c, _, _ in channels(document)} == {"a%2Eb%25"}


def test_join_table_names_over_63_bytes() -> None:
    relation = "A" * 70
    # Prisma's schema engine cuts PostgreSQL names at 63 (oracle/prisma-naming recordings).
    assert naming.join_table_name(relation, "postgresql") == "_" + "A" * 62
    assert naming.join_table_name(relation, "mysql") is None
    assert naming.join_table_name("é" * 40, "postgresql") is None
    assert naming.join_table_name("BookToTag", "sqlite") == "_BookToTag"


def test_unreadable_project_and_usage_errors(tmp_path: Path) -> None:
    missing = invoke("schema", "--project", str(tmp_path / "nope"))
    assert (missing.code, missing.stdout) == (2, b"")
    assert missing.stderr.count("\n") == 1
    assert invoke("schema").code == 64
    file = tmp_path / "file.txt"
    file.write_text("x", encoding="utf-8")
    assert invoke("schema", "--project", str(file)).code == 2
    assert invoke("schema", "--project", str(tmp_path), "--generated-at", "yesterday").code == 64


def test_project_without_prisma_or_sql_has_no_facts(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p", {"src/a.ts": "export const select = (s: string) => s.replace('a', 'b');\n"}
    )
    document = document_of(project)
    assert (document["target"], document["facts"], document["limitations"]) == (None, [], [])


def test_long_import_chains_are_cut_and_counted(tmp_path: Path) -> None:
    files = {
        "package.json": '{"dependencies": {"@prisma/client": "7.8.0"}}',
        "prisma/schema.prisma": SCHEMA,
        "src/a0.ts": 'import { PrismaClient } from "@prisma/client";\n'
        "export const prisma = new PrismaClient();\n",
        "src/near.ts": 'import { prisma } from "./a30";\n'
        "export const near = () => prisma.job.count();\n",
        "src/far.ts": 'import { prisma } from "./a69";\n'
        "export const far = () => prisma.job.count();\n",
    }
    for index in range(1, 70):
        files[f"src/a{index}.ts"] = f'export {{ prisma }} from "./a{index - 1}";\n'
    document = document_of(write_project(tmp_path / "p", files))
    used = {
        f["symbol"]["usr"]
        for f in document["facts"]
        if f["location"]["path"] != "prisma/schema.prisma"
    }
    assert used == {"src/near.ts#near"}
    prefixes = {line.split(" ")[0] for line in document["limitations"]}
    assert {"provenance-truncated:", "unresolved-client-receivers:"} <= prefixes


def test_walk_rules_links_oversized_files_and_generator_output(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"prisma": "7.8.0"}}',
            "prisma/schema.prisma": SCHEMA.replace(
                "model Job", 'generator client {\n  output = "../src/gen"\n}\n\nmodel Job'
            ),
            "src/gen/index.ts": 'export const q = "SELECT * FROM generated_only";\n',
            "src/types.d.ts": 'declare const q: "SELECT * FROM declared_only";\n',
            "src/app.ts": 'export const q = "SELECT * FROM app_table";\n',
            "src/big.ts": "// "
            + "x" * (4 * 1024 * 1024)
            + '\nexport const q = "SELECT * FROM big";\n',
        },
    )
    (project / "src" / "linked.ts").symlink_to(project / "src" / "app.ts")
    document = document_of(project)
    assert {c for c, _, _ in channels(document)} == {"Job", "app_table"}
    prefixes = {line.split(" ")[0] for line in document["limitations"]}
    assert {"skipped-symlinks:", "oversized-sources:"} <= prefixes


def test_receivers_nested_beyond_the_interpreter_are_cut_not_crashed(tmp_path: Path) -> None:
    chain = " ?? ".join(["a"] * 6000)
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"@prisma/client": "7.8.0"}}',
            "prisma/schema.prisma": SCHEMA,
            "src/deep.ts": 'import { PrismaClient } from "@prisma/client";\n'
            f"const a = undefined;\nconst x = {chain} ?? new PrismaClient();\n"
            "export function f() { return x.job.findMany(); }\n"
            "export function g(p: PrismaClient) { return p.job.count(); }\n",
        },
    )
    document = document_of(project)
    used = {f["symbol"]["usr"] for f in document["facts"] if f["location"]["path"] == "src/deep.ts"}
    assert used == {"src/deep.ts#g"}
    assert any(line.startswith("provenance-truncated: ") for line in document["limitations"])


@pytest.mark.parametrize("folder", ["", "packages/prisma", "apps/web"])
def test_a_workspace_schema_serves_the_root_and_its_dependents(folder: str, tmp_path: Path) -> None:
    # documenso's layout: the schema lives in a workspace package; the root and the apps
    # depend on Prisma (hoisted) and on that package. Only packages/orphan, which depends on
    # Prisma but not on the schema package, has no schema that applies.
    project = copy_project(FIXTURES / "workspace-schema" / "project", tmp_path / "w")
    document = document_of(project / folder if folder else project)
    missing = [line for line in document["limitations"] if "prisma-schema-not-found" in line]
    if folder == "":
        assert missing == [
            "prisma-schema-not-found: 1 Prisma project(s) without a schema file at the CLI's "
            "locations (packages/orphan)"
        ]
    elif folder == "packages/prisma":
        assert missing == []
        assert ("Document", "userId", False) in channels(document)
    else:
        # Run on the app alone, the workspace package is outside the project: nothing applies.
        assert missing == [
            "prisma-schema-not-found: 1 Prisma project(s) without a schema file at the CLI's "
            "locations (.)"
        ]


def test_only_client_types_make_a_client_not_any_type_that_mentions_one(tmp_path: Path) -> None:
    # A type that merely contains PrismaClient (an object type, an interface body, an array,
    # a function type) is not a client: its `.user` is something else.
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"@prisma/client": "6.19.0"}}',
            "prisma/schema.prisma": SCHEMA.replace("Job", "User"),
            "src/a.ts": """import { PrismaClient, Prisma } from "@prisma/client";
interface UserService { findMany(q: unknown): Promise<unknown[]> }
interface Deps { db: PrismaClient; user: UserService }
interface Extended extends PrismaClient { extra: 1 }
type Alias = Readonly<Prisma.TransactionClient>;
export function viaInterfaceBody(deps: Deps) { return deps.user.findMany({}); }
export function viaObjectType(deps: { db: PrismaClient; user: UserService }) {
  return deps.user.findMany({});
}
export function viaArray(clients: Array<PrismaClient>) { return clients.user.findMany({}); }
export function viaFunction(make: () => PrismaClient) { return make.user.findMany({}); }
export function viaOptional(db?: PrismaClient | undefined) { return db!.user.findMany({}); }
export function viaOmit(db: Omit<PrismaClient, "$on">) { return db.user.findMany({}); }
export function viaIntersection(db: PrismaClient & { tag: string }) {
  return db.user.findMany({});
}
export function viaExtends(db: Extended) { return db.user.findMany({}); }
export function viaAlias(db: Alias) { return db.user.findMany({}); }
""",
        },
    )
    document = document_of(project)
    owners = _owners_in(document, "src/a.ts")
    assert owners == {"viaOptional", "viaOmit", "viaIntersection", "viaExtends", "viaAlias"}
    assert (
        "unresolved-client-receivers: 4 delegate call(s) on receivers not proven to be a client"
        " (at src/a.ts:6, src/a.ts:8, src/a.ts:10, src/a.ts:11)" in document["limitations"]
    )


def test_a_generic_function_returns_the_client_its_callback_returns(tmp_path: Path) -> None:
    # documenso's packages/prisma: `remember<T>(name, getValue: () => T): T` caches the client.
    # T is inferred from the callback alone, so the call is a client exactly when every value
    # the callback returns is one.
    project = client_project(
        tmp_path,
        {
            "src/remember.ts": """export function remember<T>(name: string, getValue: () => T): T {
  return (globalThis as any)[name] ?? getValue();
}
export function withDefault<T>(getValue: () => T, fallback: T): T {
  return getValue() ?? fallback;
}
""",
            "src/db.ts": """import { PrismaClient } from "@prisma/client";
import { remember, withDefault } from "./remember";

const base = remember("prisma", () => new PrismaClient());
const replicas = remember("replicas", () => {
  if (!process.env.REPLICAS) {
    return base;
  }
  return base.$extends({}) as unknown as typeof base;
});
const mixed = remember("mixed", () => {
  if (process.env.X) {
    return base;
  }
  return { job: { findMany: () => [] } };
});
const fallback = withDefault(() => base, { job: { findMany: () => [] } });
export { replicas as prisma };

export function uses() {
  mixed.job.findMany();
  fallback.job.findMany();
  return base.job.findMany();
}
""",
            "src/jobs.ts": """import { prisma } from "./db";
export const list = () => prisma.job.findMany();
""",
        },
    )
    document = document_of(project)
    sources = source_places(document)
    assert sources == {("src/db.ts", 23), ("src/jobs.ts", 2)}
    assert (
        "unresolved-client-receivers: 2 delegate call(s) on receivers not proven to be a client"
        " (at src/db.ts:21, src/db.ts:22)" in document["limitations"]
    )


def test_loop_and_switch_clause_bindings_shadow_the_client(tmp_path: Path) -> None:
    # The value layer's one scope table: a `for…of` binding and a `const` of a `case`
    # clause declare the name there, so the module's client is not what they hold.
    project = client_project(
        tmp_path,
        {
            "src/a.ts": """import { PrismaClient } from "@prisma/client";
const prisma = new PrismaClient();
export function proven() { return prisma.job.findMany({}); }
export function loop(mocks: any[]) {
  for (const prisma of mocks) prisma.job.findMany({});
}
export function clause(kind: number, mock: any) {
  switch (kind) {
    case 1:
      const prisma = mock;
      return prisma.job.findMany({});
  }
}
""",
        },
    )
    document = document_of(project)
    owners = _owners_in(document, "src/a.ts")
    assert owners == {"proven"}


def test_this_fields_are_clients_when_the_class_proves_one(tmp_path: Path) -> None:
    # values/class_members.this_value, shared with the ORM and client evaluators: the one
    # write of the constructor's body is followed, an initializer written over is not.
    project = client_project(
        tmp_path,
        {
            "src/a.ts": """import { PrismaClient } from "@prisma/client";
export class Jobs {
  db: any;
  other = new PrismaClient();
  constructor() { this.db = new PrismaClient(); }
  swap(mock: any) { this.other = mock; }
  assigned() { return this.db.job.findMany({}); }
  overwritten() { return this.other.job.findMany({}); }
}
""",
        },
    )
    document = document_of(project)
    owners = _owners_in(document, "src/a.ts")
    assert owners == {"Jobs.assigned"}


def test_a_module_export_shadows_the_same_name_of_its_star(tmp_path: Path) -> None:
    # ES ResolveExport, as values/exports.py orders it for the ORM and client evaluators:
    # the barrel's own (mock) `prisma` is the export, not its `export *` module's client.
    project = client_project(
        tmp_path,
        {
            "src/real.ts": (
                'import { PrismaClient } from "@prisma/client";\n'
                "export const prisma = new PrismaClient();\n"
            ),
            "src/barrel.ts": (
                'export * from "./real";\n'
                'import { makeMock } from "./mocks";\n'
                "export const prisma = makeMock();\n"
            ),
            "src/a.ts": (
                'import { prisma } from "./barrel";\n'
                'import { prisma as real } from "./real";\n'
                "export function shadowed() { return prisma.job.findMany({}); }\n"
                "export function proven() { return real.job.findMany({}); }\n"
            ),
        },
    )
    document = document_of(project)
    owners = _owners_in(document, "src/a.ts")
    assert owners == {"proven"}


def _owners_in(document: dict[str, Any], path: str) -> set[str]:
    """The declarations (the part of their id after `#`) holding the facts of one file."""
    return {
        fact["symbol"]["usr"].rpartition("#")[2]
        for fact in document["facts"]
        if fact["location"]["path"] == path
    }


def test_a_factory_without_a_declared_return_type_gives_what_every_return_gives(
    tmp_path: Path,
) -> None:
    # umami's src/lib/prisma.ts: `function getClient() { …; return baseClient }` (or its
    # `$extends`), then `(globalThis[KEY] || getClient()) as ReturnType<typeof getClient>`.
    # A call is a client when every `return` of the function gives one; an async
    # function's call is a promise, a bare `return;` gives undefined, and a recursive
    # factory proves nothing by itself.
    project = client_project(
        tmp_path,
        {
            "src/db.ts": """import { PrismaClient } from "@prisma/client";

function getClient() {
  const base = new PrismaClient();
  if (process.env.REPLICA) {
    return base.$extends({});
  }
  return base;
}
async function later() {
  return new PrismaClient();
}
function maybe() {
  if (process.env.X) {
    return;
  }
  return new PrismaClient();
}
function again(): any {
  return again();
}
const client = ((globalThis as any)["prisma"] || getClient()) as ReturnType<typeof getClient>;
export { client as prisma };

export function uses() {
  later().job.findMany();
  maybe().job.findMany();
  again().job.findMany();
}
""",
            "src/jobs.ts": """import { prisma } from "./db";
export const list = () => prisma.job.findMany();
""",
        },
    )
    document = document_of(project)
    sources = source_places(document)
    assert sources == {("src/jobs.ts", 2)}
    assert (
        "unresolved-client-receivers: 3 delegate call(s) on receivers not proven to be a client"
        " (at src/db.ts:26, src/db.ts:27, src/db.ts:28)" in document["limitations"]
    )


def test_a_client_held_in_a_property_of_an_object_literal_nothing_writes_into(
    tmp_path: Path,
) -> None:
    # umami's src/lib/prisma.ts: `export default { client, transaction, … }`, used as
    # `prisma.client.board.findUnique(…)` and `const { client } = prisma`. A property
    # is read from the literal only when nothing can have replaced it: no spread or
    # computed key in the literal, no write into the object in the module that holds it.
    project = client_project(
        tmp_path,
        {
            "src/db.ts": """import { PrismaClient } from "@prisma/client";
const client = new PrismaClient();
export const named = { db: client };
export const spread = { ...{}, db: client };
export const computed = { ["x" + 1]: 1, db: client };
export const written = { db: client };
written.db = {} as any;
export default { client };
""",
            "src/uses.ts": """import prisma, { named, spread, computed, written } from "./db";
export function uses() {
  prisma.client.job.findMany();
  named.db.job.findMany();
  const { client } = prisma;
  client.job.findMany();
  const { db: renamed } = named;
  renamed.job.findMany();
  spread.db.job.findMany();
  computed.db.job.findMany();
  written.db.job.findMany();
}
""",
            "src/rewrites.ts": """import prisma from "./db";
prisma.client = {} as any;
export const list = () => prisma.client.job.findMany();
""",
        },
    )
    document = document_of(project)
    assert source_places(document) == {
        ("src/uses.ts", 3),
        ("src/uses.ts", 4),
        ("src/uses.ts", 6),
        ("src/uses.ts", 8),
    }
    assert (
        "unresolved-client-receivers: 4 delegate call(s) on receivers not proven to be a client"
        " (at src/rewrites.ts:3, src/uses.ts:9, src/uses.ts:10, src/uses.ts:11)"
        in document["limitations"]
    )


def test_logical_filters_of_a_where_name_columns_of_the_same_model(tmp_path: Path) -> None:
    # postiz users.repository.ts: where: { OR: [{ email }, { name }] }. A WhereInput's AND,
    # OR and NOT hold WhereInputs of the same model (@prisma/client 6.5.0 reserves those
    # three as field names, generator-build/index.js); only in a where.
    schema = SCHEMA.replace("  id Int @id\n", "  id Int @id\n  email String\n  name String\n")
    files = {
        "package.json": '{"dependencies": {"@prisma/client": "6.19.0"}}',
        "prisma/schema.prisma": schema,
        "src/a.ts": (
            'import { PrismaClient } from "@prisma/client";\n'
            "const prisma = new PrismaClient();\n"
            "export function f(x: string) {\n"
            "  return prisma.job.findMany({\n"
            "    where: { AND: [{ OR: [{ email: x }, { NOT: { name: x } }] }] },\n"
            "    select: { OR: true },\n"
            "  });\n"
            "}\n"
        ),
    }
    document = document_of(write_project(tmp_path / "p", files))
    used = sorted(
        (f["method"], f["location"]["line"])
        for f in document["facts"]
        if f["location"]["path"] == "src/a.ts" and "method" in f
    )
    assert used == [("email", 5), ("name", 5)]
