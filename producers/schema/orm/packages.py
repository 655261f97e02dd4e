"""Which npm packages the ORM phase reads, which it only counts, and what their values are.

A value is identified by the import specifier and the imported name (`pg` + `Pool`),
never by a local name. Each table below maps those to the kind of value a call, a
`new`, or a type annotation produces, and what a method of such a value returns or
hands its callback (see orm_evaluator.py for the kinds). Provenance is data: adding a
driver or a handle is a row here, not code in the evaluator.
"""

from __future__ import annotations

# The specifiers whose import turns the phase on (a package or any subpath of it).
SUPPORTED = (
    "drizzle-orm",
    "typeorm",
    "sequelize",
    "knex",
    "pg",
    "mysql2",
    "better-sqlite3",
    "sqlite3",
    "node:sqlite",
    "bun:sqlite",
    "@libsql/client",
    "postgres",
    "@neondatabase/serverless",
    "@vercel/postgres",
    "@planetscale/database",
    "@cloudflare/workers-types",
)
# Read by nobody here: files importing them are counted (uppercase SQL literals in them
# are still read by the SQL text pass).
UNSUPPORTED = (
    "kysely",
    "objection",
    "@mikro-orm",
    "pg-promise",
    "sequelize-typescript",
    "sqlite",
    "mssql",
    "tedious",
    "oracledb",
    "slonik",
)
NON_RELATIONAL = (
    "mongoose",
    "mongodb",
    "@aws-sdk/client-dynamodb",
    "@aws-sdk/lib-dynamodb",
    "dynamoose",
    "firebase",
    "firebase-admin",
    "@google-cloud/firestore",
    "redis",
    "ioredis",
    "@upstash/redis",
)


def package_of(specifier: str, names: tuple[str, ...]) -> str | None:
    """The entry of `names` that `specifier` is, or a subpath of (`drizzle-orm/pg-core`)."""
    for name in names:
        if specifier == name or specifier.startswith(name + "/"):
            return name
    return None


# What a METHOD_RESULTS entry means besides a kind: the receiver itself. What a package
# export called or constructed gives is the shared provenance table
# (producers/values/provenance.py).
SAME = "=same"

# (receiver kind, method) -> what the call returns: SAME for the receiver (a connection,
# a transaction-capable handle or a sub-app of the same kind); `typeorm-repo` carries the
# entity of the call's first argument.
METHOD_RESULTS: dict[tuple[str, str], str] = {
    ("sql", "connect"): SAME,  # pg Pool.connect, mysql2 getConnection/promise
    ("sql", "getConnection"): SAME,
    ("sql", "promise"): SAME,
    ("sql", "connection"): SAME,
    ("knex", "transaction"): SAME,
    ("knex", "transactionProvider"): SAME,
    ("knex", "queryBuilder"): SAME,
    ("typeorm-ds", "getRepository"): "typeorm-repo",
    ("typeorm-ds", "getTreeRepository"): "typeorm-repo",
    ("typeorm-ds", "createQueryRunner"): "sql",
    ("typeorm-ds", "initialize"): SAME,
    ("typeorm-ds", "connect"): SAME,
    ("typeorm-manager", "getRepository"): "typeorm-repo",
    ("typeorm-manager", "getTreeRepository"): "typeorm-repo",
    ("typeorm-manager", "createQueryRunner"): "sql",
    ("typeorm-manager", "initialize"): SAME,
    ("typeorm-manager", "connect"): SAME,
    ("hono", "basePath"): SAME,
    ("hono", "route"): SAME,
}
# (kind, member) -> kind of a property of such a value.
MEMBER_VALUES: dict[tuple[str, str], str] = {("typeorm-ds", "manager"): "typeorm-manager"}
# (receiver kind, method) -> what the first parameter of a callback passed to the method
# is: SAME for a transaction of the receiver's kind; `hono-ctx` carries the app's bindings.
CALLBACK_PARAMETERS: dict[tuple[str, str], str] = {
    **{
        (kind, method): SAME
        for kind in ("drizzle", "knex", "tag", "sql")
        for method in ("transaction", "begin", "reserve")
    },
    ("typeorm-ds", "transaction"): "typeorm-manager",
    ("typeorm-manager", "transaction"): "typeorm-manager",
    ("drizzle-table", "as"): "drizzle",  # pgView(…).as((qb) => …)
    **{
        ("hono", method): "hono-ctx"
        for method in ("get", "post", "put", "delete", "patch", "all", "use", "on", "options")
    },
}
# (package, class) -> kind of `this` in a class extending it.
BASE_CLASSES: dict[tuple[str, str], str] = {("typeorm", "Repository"): "typeorm-repo"}
# Values an import is by itself, without a call (`import { sql } from '@vercel/postgres'`).
IMPORTED_VALUES: dict[tuple[str, str], str] = {
    ("@vercel/postgres", "sql"): "tag",
    ("@vercel/postgres", "db"): "sql",
}
# (package, type name) -> kind, for annotations. Drizzle database and transaction
# types are recognised by suffix (drizzle-orm 0.45.3: NodePgDatabase, LibSQLDatabase,
# DrizzleD1Database, PgTransaction, …).
TYPES: dict[tuple[str, str], str] = {
    ("knex", "Knex"): "knex",
    ("pg", "Pool"): "sql",
    ("pg", "PoolClient"): "sql",
    ("pg", "Client"): "sql",
    ("mysql2", "Pool"): "sql",
    ("mysql2", "Connection"): "sql",
    ("mysql2", "PoolConnection"): "sql",
    ("better-sqlite3", "default"): "sql",
    ("better-sqlite3", "Database"): "sql",
    ("node:sqlite", "DatabaseSync"): "sql",
    ("bun:sqlite", "Database"): "sql",
    ("@libsql/client", "Client"): "sql",
    ("@libsql/client", "Transaction"): "sql",
    ("postgres", "Sql"): "tag",
    ("@cloudflare/workers-types", "D1Database"): "d1",
    ("typeorm", "DataSource"): "typeorm-ds",
    ("typeorm", "EntityManager"): "typeorm-manager",
    ("typeorm", "Repository"): "typeorm-repo",
    ("typeorm", "QueryRunner"): "sql",
    ("sequelize", "Sequelize"): "sequelize",
}
DRIZZLE_TYPE_SUFFIXES = ("Database", "Transaction")
# Drizzle table and view builders (drizzle-orm 0.45.3 pg-core, sqlite-core, mysql-core).
DRIZZLE_TABLES = frozenset(
    {
        "pgTable",
        "sqliteTable",
        "mysqlTable",
        "pgView",
        "pgMaterializedView",
        "sqliteView",
        "mysqlView",
    }
)
DRIZZLE_SCHEMAS = frozenset({"pgSchema", "mysqlSchema"})
DRIZZLE_CREATORS = frozenset({"pgTableCreator", "sqliteTableCreator", "mysqlTableCreator"})
# Packages whose values carry ORM receivers (Hono's bindings hold D1) without turning
# the phase on by themselves.
HELPERS = ("hono",)
