"""Receivers count only when their provenance is proven; names alone prove nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.schema.orm.support import document_of
from tests.schema.orm.support import write_project


def _document(tmp_path: Path, files: dict[str, str]) -> dict[str, Any]:
    """The schema document of a small project written under tmp_path."""
    return document_of(write_project(tmp_path / "p", files))


def _declared(document: dict[str, Any], *, models_only: bool = True) -> list[tuple[str, str]]:
    """(channel, column or "") of the declaration facts (of every fact: models_only=False)."""
    return sorted(
        (fact["channel"], fact.get("method", ""))
        for fact in document["facts"]
        if not models_only or "#model:" in fact["symbol"]["usr"]
    )


def _uses(document: dict[str, Any]) -> list[tuple[str, str, str, int]]:
    return sorted(
        (
            fact["channel"],
            fact.get("method", ""),
            fact["location"]["path"],
            fact["location"]["line"],
        )
        for fact in document["facts"]
        if "#model:" not in fact.get("symbol", {}).get("usr", "")
    )


def _prefixes(document: dict[str, Any]) -> set[str]:
    return {line.partition(" ")[0] for line in document["limitations"]}


def test_a_receiver_named_like_a_client_is_not_a_client(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/schema.ts": (
                'import { pgTable, text } from "drizzle-orm/pg-core";\n'
                'export const users = pgTable("users", { id: text("id") });\n'
            ),
            "src/q.ts": (
                'import { users } from "./schema";\n'
                'import { makeDb } from "./somewhere";\n'
                "const db = makeDb();\n"
                "export function list() {\n"
                "  return db.select().from(users);\n"
                "}\n"
            ),
        },
    )
    assert _uses(document) == []
    assert "unresolved-orm-receivers:" in _prefixes(document)


def test_the_phase_is_skipped_without_a_supported_import(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {"src/a.ts": 'export function f(db: any) {\n  return db.prepare("select * from t");\n}\n'},
    )
    assert document["facts"] == []
    assert not _prefixes(document) & {"unresolved-orm-receivers:", "orm-naming-unverified:"}


def test_parameters_shadow_proven_clients(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/a.ts": (
                'import { Pool } from "pg";\n'
                "const pool = new Pool();\n"
                "export async function outer() {\n"
                '  await pool.query("select * from proven");\n'
                "}\n"
                "export async function inner(pool: { query(s: string): void }) {\n"
                '  pool.query("select * from shadowed");\n'
                "}\n"
            )
        },
    )
    assert _uses(document) == [("proven", "", "src/a.ts", 4)]


def test_every_declaration_form_shadows_a_proven_client(tmp_path: Path) -> None:
    """Array, rest and defaulted-shorthand patterns, `for…of` and `catch` bindings declare
    the name (the value layer's one scope table): the outer client is not what they hold."""
    document = _document(
        tmp_path,
        {
            "src/a.ts": (
                'import { Pool } from "pg";\n'
                "const pool = new Pool();\n"
                'pool.query("select * from proven");\n'
                "export function f(pools: any[], opts: any) {\n"
                "  { const [pool] = pools; pool.query('select * from from_array'); }\n"
                "  { const { ...pool } = opts; pool.query('select * from from_rest'); }\n"
                "  { const { pool = null } = opts; pool.query('select * from from_default'); }\n"
                "  for (const pool of pools) pool.query('select * from from_loop');\n"
                "  try {} catch (pool) { pool.query('select * from from_catch'); }\n"
                "}\n"
                "export function g(...pool: any[]) { pool.query('select * from from_params'); }\n"
            )
        },
    )
    assert _uses(document) == [("proven", "", "src/a.ts", 3)]


def test_a_module_export_shadows_a_star_and_a_star_never_gives_default(tmp_path: Path) -> None:
    """ES ResolveExport (the shared export order): `db` is the barrel's own (unproven)
    export, not the one its `export *` module has; `export *` does not re-export
    `default`."""
    document = _document(
        tmp_path,
        {
            "src/real.ts": (
                'import { Pool } from "pg";\n'
                "export const db = new Pool();\n"
                "export default new Pool();\n"
            ),
            "src/barrel.ts": (
                'export * from "./real";\n'
                'import { makeDb } from "./somewhere";\n'
                "export const db = makeDb();\n"
            ),
            "src/q.ts": (
                'import pool, { db } from "./barrel";\n'
                'import { db as real } from "./real";\n'
                'db.query("select * from shadowed");\n'
                'pool.query("select * from no_default");\n'
                'real.query("select * from proven");\n'
            ),
        },
    )
    assert _uses(document) == [("proven", "", "src/q.ts", 5)]


def test_this_in_a_function_expression_of_a_method_is_not_the_instance(tmp_path: Path) -> None:
    """A function expression binds its own `this` (an arrow keeps the method's): the one
    rule of the value layer (values/class_members.this_class) for every evaluator."""
    document = _document(
        tmp_path,
        {
            "src/a.ts": (
                'import { Pool } from "pg";\n'
                "export class Repo {\n"
                "  pool = new Pool();\n"
                '  run() { this.pool.query("select * from proven"); }\n'
                '  arrow() { return () => this.pool.query("select * from kept"); }\n'
                "  later() {\n"
                '    return function (this: any) { this.pool.query("select * from rebound"); };\n'
                "  }\n"
                "}\n"
            )
        },
    )
    assert _uses(document) == [("kept", "", "src/a.ts", 5), ("proven", "", "src/a.ts", 4)]


def test_this_fields_hold_a_value_only_when_the_class_proves_one(tmp_path: Path) -> None:
    """values/class_members.this_value: an initializer no method writes over, or the one
    write of the constructor's body; a declared type holds whatever is written."""
    document = _document(
        tmp_path,
        {
            "src/a.ts": (
                'import { Pool } from "pg";\n'
                "export class Repo {\n"
                "  kept = new Pool();\n"
                "  reset = new Pool();\n"
                "  typed: Pool;\n"
                "  assigned: any;\n"
                "  static kept = 1;\n"
                "  constructor(other: any) {\n"
                "    this.typed = other;\n"
                "    this.assigned = new Pool();\n"
                "  }\n"
                "  swap(other: any) { this.reset = other; }\n"
                "  run() {\n"
                '    this.kept.query("select * from kept");\n'
                '    this.reset.query("select * from reset");\n'
                '    this.typed.query("select * from typed");\n'
                '    this.assigned.query("select * from assigned");\n'
                "  }\n"
                '  static run() { this.kept.query("select * from static_side"); }\n'
                "}\n"
            )
        },
    )
    assert _uses(document) == [
        ("assigned", "", "src/a.ts", 17),
        ("kept", "", "src/a.ts", 14),
        ("typed", "", "src/a.ts", 16),
    ]


def test_a_local_require_is_not_nodes(tmp_path: Path) -> None:
    """values/modules.is_global_require, as the client evaluator reads it: a parameter
    named `require` may load anything."""
    document = _document(
        tmp_path,
        {
            "src/a.ts": (
                'const { Pool } = require("pg");\n'
                'new Pool().query("select * from proven");\n'
                "export function load(require: (name: string) => any) {\n"
                '  const { Pool } = require("pg");\n'
                '  new Pool().query("select * from shadowed");\n'
                "}\n"
            )
        },
    )
    assert _uses(document) == [("proven", "", "src/a.ts", 2)]


def test_commonjs_exports_carry_the_client_across_files(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/db.js": (
                'const knex = require("knex");\nmodule.exports = knex({ client: "pg" });\n'
            ),
            "src/users.js": (
                'const db = require("./db");\n'
                "async function names() {\n"
                '  return db("users as u").select("u.name").where({ id: 1 });\n'
                "}\n"
                "module.exports = { names };\n"
            ),
        },
    )
    assert _uses(document) == [
        ("users", "", "src/users.js", 3),
        ("users", "id", "src/users.js", 3),
        ("users", "name", "src/users.js", 3),
    ]


def test_d1_annotations_enable_the_phase_without_imports(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/worker.ts": (
                "export async function handle(db: D1Database) {\n"
                '  return db.prepare("select id from jobs where id = ?").bind(1).all();\n'
                "}\n"
            )
        },
    )
    assert _uses(document) == [("jobs", "", "src/worker.ts", 2)]
    assert document["facts"][0]["symbol"]["usr"] == "src/worker.ts#handle"


def test_a_custom_typeorm_naming_strategy_keeps_explicit_names_only(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/ds.ts": (
                'import { DataSource } from "typeorm";\n'
                'import { SnakeNamingStrategy } from "typeorm-naming-strategies";\n'
                'export const ds = new DataSource({ type: "postgres", '
                "namingStrategy: new SnakeNamingStrategy() });\n"
            ),
            "src/user.ts": (
                'import { Column, Entity, PrimaryColumn } from "typeorm";\n'
                '@Entity("people")\n'
                "export class User {\n"
                "  @PrimaryColumn() id: string;\n"
                '  @Column({ name: "given_name" }) firstName: string;\n'
                "  @Column() lastName: string;\n"
                "}\n"
                "@Entity()\n"
                "export class Unnamed {\n"
                "  @PrimaryColumn() id: string;\n"
                "}\n"
            ),
        },
    )
    assert _declared(document) == [("people", ""), ("people", "given_name")]
    assert "orm-naming-unverified:" in _prefixes(document)


def test_sequelize_define_options_of_the_instance_apply_to_every_model(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/models.js": (
                'const { Sequelize, DataTypes } = require("sequelize");\n'
                "const sequelize = new Sequelize(process.env.URL, "
                "{ define: { underscored: true, freezeTableName: true, timestamps: false } });\n"
                'const LineItem = sequelize.define("LineItem", { unitPrice: DataTypes.INTEGER });\n'
                "module.exports = { LineItem };\n"
            )
        },
    )
    assert _declared(document, models_only=False) == [
        ("LineItem", ""),
        ("LineItem", "id"),
        ("LineItem", "unit_price"),
    ]


def test_drizzle_casing_from_config_and_calls_that_agree(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "drizzle.config.ts": 'export default { casing: "camelCase", schema: "./src/s.ts" };\n',
            "src/s.ts": (
                'import { sqliteTable, text } from "drizzle-orm/sqlite-core";\n'
                'export const notes = sqliteTable("notes", { body_text: text() });\n'
            ),
            "src/db.ts": (
                'import { drizzle } from "drizzle-orm/libsql";\n'
                'export const db = drizzle({ connection: "file:x.db", casing: "camelCase" });\n'
            ),
        },
    )
    assert _declared(document, models_only=False) == [("notes", ""), ("notes", "bodyText")]


def test_factory_parameters_take_the_kind_every_caller_passes(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "models/post.js": (
                'const { DataTypes } = require("sequelize");\n'
                "module.exports = (sequelize) => {\n"
                '  return sequelize.define("Post", { title: DataTypes.STRING }, '
                "{ timestamps: false });\n"
                "};\n"
            ),
            "models/index.js": (
                'const { Sequelize } = require("sequelize");\n'
                "let sequelize;\n"
                "if (process.env.PROD) {\n"
                "  sequelize = new Sequelize(process.env.URL);\n"
                "} else {\n"
                '  sequelize = new Sequelize("sqlite::memory:");\n'
                "}\n"
                'const Post = require("./post")(sequelize);\n'
                "async function titles() {\n"
                '  return sequelize.models.Post.findAll({ attributes: ["title"] });\n'
                "}\n"
                "module.exports = { Post, titles };\n"
            ),
        },
    )
    assert _uses(document) == [
        ("Posts", "", "models/index.js", 10),
        ("Posts", "title", "models/index.js", 10),
    ]
    assert _declared(document) == [("Posts", ""), ("Posts", "id"), ("Posts", "title")]


def test_one_caller_without_proof_leaves_the_parameter_unproven(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/q.ts": (
                'import { Pool } from "pg";\n'
                "const pool = new Pool();\n"
                "function run(client: any) {\n"
                '  return client.query("select * from maybe");\n'
                "}\n"
                "run(pool);\n"
                "run(somethingElse);\n"
            )
        },
    )
    assert _uses(document) == []


def test_constants_return_types_and_exported_type_aliases(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/names.ts": 'export const TABLES = { users: "app_users" } as const;\n',
            "src/schema.ts": (
                'import { sqliteTable, text } from "drizzle-orm/sqlite-core";\n'
                'import { TABLES } from "./names";\n'
                'export const users = sqliteTable(TABLES.users, { id: text("id") });\n'
            ),
            "src/client.ts": (
                'import { drizzle } from "drizzle-orm/d1";\n'
                "export const createDb = (d1: D1Database) => drizzle(d1);\n"
            ),
            "src/types.ts": (
                'import type { createDb } from "./client";\n'
                "export type Db = ReturnType<typeof createDb>;\n"
            ),
            "src/repo.ts": (
                'import type { Db } from "./types";\n'
                'import { users } from "./schema";\n'
                "export async function all(db: Db) {\n"
                "  return db.select().from(users);\n"
                "}\n"
            ),
        },
    )
    assert _uses(document) == [("app_users", "", "src/repo.ts", 4)]


def test_typeorm_entity_names_that_are_not_constants_are_unreadable(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/e.ts": (
                'import { Column, Entity } from "typeorm";\n'
                "@Entity(process.env.TABLE)\n"
                "export class Audit {\n"
                "  @Column() note: string;\n"
                "}\n"
            )
        },
    )
    assert document["facts"] == []
    assert "unreadable-orm-declarations:" in _prefixes(document)


def test_typeorm_03_derives_a_name_for_an_empty_entity_name(tmp_path: Path) -> None:
    entity = (
        'import { Entity, PrimaryColumn } from "typeorm";\n'
        '@Entity("")\n'
        "export class AuditLog {\n"
        "  @PrimaryColumn() id: string;\n"
        "}\n"
    )
    tables = {}
    for version in ("0.3.31", "1.1.1"):
        project = write_project(
            tmp_path / version,
            {"package.json": f'{{"dependencies": {{"typeorm": "{version}"}}}}', "src/e.ts": entity},
        )
        document = document_of(project)
        tables[version] = sorted({fact["channel"] for fact in document["facts"]})
        unreadable = "unreadable-orm-declarations:" in _prefixes(document)
        assert unreadable == (version == "1.1.1")
    # 1.x keeps the empty name (recorded: tableNameEmpty), which names no relation.
    assert tables == {"0.3.31": ["audit_log"], "1.1.1": []}


def test_knex_names_tables_the_way_knex_compiles_them(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/k.ts": (
                'import knex from "knex";\n'
                'const db = knex({ client: "pg" });\n'
                "export async function f() {\n"
                '  await db("s.users as u").select("u.email");\n'
                '  await db.withSchema("s").from({ a: "accounts" }).select("a.id");\n'
                '  await db.schema.createTable("ignored", () => {});\n'
                "}\n"
            )
        },
    )
    found = sorted(
        (fact["channel"], fact.get("method", ""), fact["dynamic"]) for fact in document["facts"]
    )
    # recorded: 's.users as u' -> "s"."users" as "u"; withSchema + object alias -> no table
    assert found == [("", "", True), ("s.users", "", False), ("s.users", "email", False)]


def test_association_keys_are_located_where_the_association_is_written(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/db.js": (
                'const { Sequelize } = require("sequelize");\n'
                'module.exports = new Sequelize("sqlite::memory:");\n'
            ),
            "src/user.js": (
                'const sequelize = require("./db");\n'
                'module.exports = sequelize.define("User", {}, { timestamps: false });\n'
            ),
            "src/post.js": (
                'const sequelize = require("./db");\n'
                'module.exports = sequelize.define("Post", {}, { timestamps: false });\n'
            ),
            "src/associate.js": (
                'const User = require("./user");\nconst Post = require("./post");\n'
                "Post.belongsTo(User);\n"
            ),
        },
    )
    keys = [fact for fact in document["facts"] if fact.get("method") == "UserId"]
    assert [(fact["location"], fact["symbol"]["usr"]) for fact in keys] == [
        ({"path": "src/associate.js", "line": 3, "column": 16}, "src/post.js#model:Post.UserId")
    ]


def test_d1_bindings_declared_the_way_wrangler_4_generates_them(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "worker-configuration.d.ts": (
                "declare namespace Cloudflare {\n"
                "  interface Env {\n    DB: D1Database;\n  }\n"
                "}\n"
                "interface Env extends Cloudflare.Env {}\n"
                "interface D1Database {\n  prepare(query: string): D1PreparedStatement;\n}\n"
            ),
            "src/index.ts": (
                "export default {\n"
                "  async fetch(request: Request, env: Env) {\n"
                '    return env.DB.prepare("select id from links where slug = ?").first();\n'
                "  },\n"
                "};\n"
            ),
        },
    )
    # lowercase SQL: only a proven D1 binding reads it (the literal pass would skip it)
    assert _uses(document) == [("links", "", "src/index.ts", 3)]


def test_names_computed_at_run_time_are_not_guessed(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/schema.ts": (
                'import { pgTable, text } from "drizzle-orm/pg-core";\n'
                "const column = process.env.COLUMN;\n"
                'export const notes = pgTable("notes", { id: text("id"), body: text(column) });\n'
            ),
            "src/entity.ts": (
                'import { Column, Entity, PrimaryColumn } from "typeorm";\n'
                "@Entity()\n"
                "export class Memo {\n"
                "  @PrimaryColumn() id: string;\n"
                "  @Column({ name: process.env.MEMO_COLUMN }) text: string;\n"
                "}\n"
            ),
            "src/model.js": (
                'const { Sequelize, DataTypes } = require("sequelize");\n'
                'const sequelize = new Sequelize("sqlite::memory:");\n'
                "const options = require('./options');\n"
                'module.exports = sequelize.define("Card", { title: DataTypes.STRING }, options);\n'
            ),
        },
    )
    declared = _declared(document, models_only=False)
    # body (drizzle) and text (TypeORM) are left out; Card's table depends on options
    assert declared == [("memo", ""), ("memo", "id"), ("notes", ""), ("notes", "id")]
    prefixes = _prefixes(document)
    assert {"unreadable-orm-declarations:", "orm-naming-unverified:"} <= prefixes


def test_an_entity_prefix_that_is_not_constant_leaves_every_table_unnamed(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/ds.ts": (
                'import { DataSource } from "typeorm";\n'
                'export const ds = new DataSource({ type: "postgres", '
                "entityPrefix: process.env.PREFIX });\n"
            ),
            "src/user.ts": (
                'import { Entity, PrimaryColumn } from "typeorm";\n'
                '@Entity("people")\n'
                "export class Person {\n"
                "  @PrimaryColumn() id: string;\n"
                "}\n"
            ),
        },
    )
    assert document["facts"] == []
    assert "orm-naming-unverified:" in _prefixes(document)


def test_template_escapes_are_read_as_the_runtime_cooks_them(tmp_path: Path) -> None:
    document = _document(
        tmp_path,
        {
            "src/k.ts": (
                'import knex from "knex";\n'
                'const db = knex({ client: "pg" });\n'
                "export async function f() {\n"
                "  await db.raw(`select setval(\\'seq\\', (select max(id) from \"orgs\"))`);\n"
                "}\n"
            )
        },
    )
    assert _uses(document) == [("orgs", "", "src/k.ts", 4)]


DRIVERS_JS = (
    'const { Pool } = require("pg");\n'
    'const pg = require("pg");\n'
    'const sqlite3 = require("sqlite3").verbose();\n'
    'const mysql = require("mysql2");\n'
    "const p1 = new Pool();\n"
    "const p2 = new pg.Pool();\n"
    'const db = new sqlite3.Database(":memory:");\n'
    "const conn = mysql.createConnection({}).promise();\n"
    "async function f() {\n"
    '  await p1.query("select * from one");\n'
    '  await p2.query("select * from two");\n'
    '  db.all("select * from three", () => {});\n'
    '  db.each("select * from four", () => {});\n'
    '  await conn.query({ sql: "select * from five" });\n'
    "}\n"
    "module.exports = { f };\n"
)
DRIVERS_TS = (
    'import pg from "pg";\n'
    'import Database from "better-sqlite3";\n'
    'import { DatabaseSync } from "node:sqlite";\n'
    'import { Database as Bun } from "bun:sqlite";\n'
    'import { connect } from "@planetscale/database";\n'
    "const { Client } = pg;\n"
    "const client = new Client();\n"
    'const b = new Database("x.db");\n'
    'const n = new DatabaseSync(":memory:");\n'
    "const bun = new Bun();\n"
    'const ps = connect({ url: "" });\n'
    "export async function g() {\n"
    '  await client.query("select * from six");\n'
    '  b.prepare("select * from seven").all();\n'
    '  n.exec("delete from eight");\n'
    '  bun.query("select * from nine").all();\n'
    '  await ps.execute("select * from ten");\n'
    "}\n"
)


def test_driver_clients_of_every_supported_package_are_proven(tmp_path: Path) -> None:
    document = _document(tmp_path, {"src/a.js": DRIVERS_JS, "src/b.ts": DRIVERS_TS})
    channels = sorted(fact["channel"] for fact in document["facts"])
    # lowercase SQL: each fact proves a traced client (the literal pass skips them)
    expected = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    assert channels == sorted(expected)
    assert document["limitations"] == []
