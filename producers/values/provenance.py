"""What a package export is when used: one table of `(package, export path, use) → kind`.

Every evaluator of the JavaScript/TypeScript producers asks this table which
library values it holds (a Hono app is proven here once, for the routes and the
schema producers alike); adding a client, framework, ORM or driver is a row.

The export path is `""` for what `require(package)` returns (and what the Node
interpreter gives a default import, esModuleInterop's reading), `"default"` for
the ES default export, otherwise the exported name and members (`NestFactory.create`).
`use` is how the value is used: `value` (the export itself), `call`, `new`, or
`call-or-new` when both make the same thing.

Read from the packages (scratch installs, recorded next to the producers' rules):
axios@1.21.1 (lib/axios.js: the default export, also `module.exports`, is the request
function), ky@1.14.3 / ky@2.1.0 (an ES module only, its default export the request
function), express@4.22.3 / 5.2.1 (`express()` an app, `express.Router()` a router,
with or without `new`), hono@4.13.12 (`Hono` a class: `new Hono()`), @hono/zod-openapi@1.6.3
(`OpenAPIHono` a subclass of Hono; `createRoute(config)` returns a copy of config), koa@2/3 (`new
Koa()`), @koa/router@12–15, fastify@4/5 (`fastify()`), fastify-plugin,
@nestjs/core@11.2.10, @prisma/client (`new PrismaClient()`), and the drivers'
typings: pg 8, mysql2 3, better-sqlite3 11, @libsql/client 0.14, postgres 3,
@neondatabase/serverless 0.10, @vercel/postgres 0.10, @planetscale/database 1.
"""

from __future__ import annotations

from typing import Literal

Use = Literal["value", "call", "new", "call-or-new"]

# A kind meaning: the package's own module object again (sqlite3 5 `verbose()`).
PACKAGE_MODULE = "package-module"

PROVENANCE: dict[tuple[str, str, Use], str] = {
    # HTTP clients: the request function itself.
    ("axios", "default", "value"): "axios",
    ("axios", "", "value"): "axios",
    ("ky", "default", "value"): "ky",
    # Node web frameworks: apps, routers, plugins.
    ("express", "", "call"): "express-app",
    ("express", "Router", "call-or-new"): "express-router",
    ("hono", "Hono", "new"): "hono",
    ("@hono/zod-openapi", "OpenAPIHono", "new"): "hono",
    ("@hono/zod-openapi", "createRoute", "call"): "hono-openapi-route",
    ("koa", "", "new"): "koa-app",
    ("koa", "default", "new"): "koa-app",
    ("@koa/router", "", "call-or-new"): "koa-router",
    ("@koa/router", "default", "call-or-new"): "koa-router",
    ("@koa/router", "Router", "call-or-new"): "koa-router",
    ("fastify", "", "call"): "fastify-app",
    ("fastify", "default", "call"): "fastify-app",
    ("fastify", "fastify", "call"): "fastify-app",
    ("fastify-plugin", "", "call-or-new"): "fastify-plugin",
    ("fastify-plugin", "default", "call-or-new"): "fastify-plugin",
    ("@nestjs/core", "NestFactory.create", "call-or-new"): "nest-app",
    ("@nestjs/core", "RouterModule.register", "call-or-new"): "nest-router-module",
    ("@nestjs/swagger", "SwaggerModule.setup", "call"): "nest-swagger",
    # Prisma Client (the module may also be `.prisma/client` or a generator output).
    ("@prisma/client", "PrismaClient", "new"): "prisma-client",
    # Query builders, ORMs and SQL drivers: called and constructed alike.
    ("knex", "default", "call-or-new"): "knex",
    ("knex", "knex", "call-or-new"): "knex",
    ("knex", "", "call-or-new"): "knex",  # `const knex = require('knex')(config)`
    ("pg", "Pool", "call-or-new"): "sql",
    ("pg", "Client", "call-or-new"): "sql",
    ("mysql2", "createPool", "call-or-new"): "sql",
    ("mysql2", "createConnection", "call-or-new"): "sql",
    ("mysql2", "createPoolCluster", "call-or-new"): "sql",
    ("better-sqlite3", "default", "call-or-new"): "sql",
    ("better-sqlite3", "", "call-or-new"): "sql",
    ("sqlite3", "Database", "call-or-new"): "sql",
    ("node:sqlite", "DatabaseSync", "call-or-new"): "sql",
    ("bun:sqlite", "Database", "call-or-new"): "sql",
    ("@libsql/client", "createClient", "call-or-new"): "sql",
    ("postgres", "default", "call-or-new"): "tag",
    ("postgres", "", "call-or-new"): "tag",
    ("@neondatabase/serverless", "neon", "call-or-new"): "tag",
    ("@neondatabase/serverless", "Pool", "call-or-new"): "sql",
    ("@neondatabase/serverless", "Client", "call-or-new"): "sql",
    ("@vercel/postgres", "createPool", "call-or-new"): "sql",
    ("@vercel/postgres", "createClient", "call-or-new"): "sql",
    ("@planetscale/database", "connect", "call-or-new"): "sql",
    ("typeorm", "DataSource", "call-or-new"): "typeorm-ds",
    ("sequelize", "Sequelize", "call-or-new"): "sequelize",
    ("sequelize", "default", "call-or-new"): "sequelize",
    ("sqlite3", "verbose", "call-or-new"): PACKAGE_MODULE,
}


def kind_of(package: str, export: str, use: Use) -> str | None:
    """The kind of value `package`'s `export` gives when used so; None when no row says."""
    found = PROVENANCE.get((package, export, use))
    if found is None and use in ("call", "new"):
        found = PROVENANCE.get((package, export, "call-or-new"))
    return found
