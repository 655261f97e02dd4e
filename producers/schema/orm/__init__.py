"""Node ORMs and SQL drivers for `tsograph schema`: Drizzle, TypeORM, Sequelize 6, knex,
raw drivers (pg, mysql2, SQLite drivers, libSQL, postgres.js, Neon, Vercel Postgres,
PlanetScale) and Cloudflare D1.

`collect.collect_orm(project)` is the entry point. Receivers count only when their
provenance is proven over the syntax (values.py); each library's naming rules live in a
module of their own, checked against recordings of the real packages
(oracle/orm-naming/, replayed by tests/schema/orm/).
"""
