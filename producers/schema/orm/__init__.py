"""Node ORMs and SQL drivers for `tsograph schema`: Drizzle, TypeORM, Sequelize 6, knex,
raw drivers (pg, mysql2, SQLite drivers, libSQL, postgres.js, Neon, Vercel Postgres,
PlanetScale) and Cloudflare D1.

`collect.collect(scan)` is the entry point; the ORMs it runs are the rows of
`collect.ORMS`. Receivers count only when their provenance is proven over the neutral
syntax form (orm_evaluator.py, with the package tables of packages.py); each library's
naming rules live in a module of their own, checked against recordings of the real
packages (oracle/orm-naming/, replayed by tests/schema/orm/).
"""
