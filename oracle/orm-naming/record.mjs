// Runs the real ORM packages' naming on the synthetic declarations of cases.json and
// prints what they produce (JSON on stdout). Nothing connects to a database:
// drizzle-orm builds SQL with its query builder, TypeORM builds entity metadata over
// the sql.js driver without initialising it, Sequelize defines models on the sqlite
// dialect with a stand-in driver module, knex compiles builders with toSQL().
// Usage: npm ci && node record.mjs > recorded.json
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
require("reflect-metadata");
const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8"));
const local = (path) => new URL(`./node_modules/${path}`, import.meta.url).pathname;
// Package exports maps hide package.json and internals: read them by file path.
const versionOf = (name) => JSON.parse(readFileSync(local(`${name}/package.json`), "utf8")).version;

// ---- inflection (Sequelize's pluralisation) ---------------------------------------
const inflection = require("inflection");
const { Sequelize, DataTypes } = require("sequelize");
const SequelizeUtils = require(local("sequelize/lib/utils.js"));

function recordInflection() {
  const words = {};
  for (const word of cases.words) {
    words[word] = {
      pluralize: inflection.pluralize(word),
      singularize: inflection.singularize(word),
      sequelizePluralize: SequelizeUtils.pluralize(word),
      sequelizeSingularize: SequelizeUtils.singularize(word),
    };
  }
  const underscore = {};
  for (const word of cases.underscore) {
    underscore[word] = { underscore: inflection.underscore(word), camelize: SequelizeUtils.camelize(word) };
  }
  return { version: versionOf("inflection"), words, underscore };
}

// ---- Sequelize 6 ---------------------------------------------------------------------
function recordSequelize() {
  const sequelize = new Sequelize({ dialect: "sqlite", dialectModule: {}, logging: false });
  const models = {};
  for (const spec of cases.sequelize.define) {
    const attributes = {};
    for (const [name, options] of Object.entries(spec.attributes)) {
      attributes[name] = { type: DataTypes.STRING, ...options };
    }
    // Sequelize writes into the options it is given: pass copies.
    models[spec.modelName] = sequelize.define(spec.modelName, attributes, structuredClone(spec.options ?? {}));
  }
  const associations = [];
  for (const spec of cases.sequelize.associations) {
    const source = models[spec.source];
    const target = models[spec.target];
    const association = source[spec.type](target, structuredClone(spec.options ?? {}));
    const entry = {
      ...spec,
      foreignKey: association.foreignKey,
      identifierField: association.identifierField ?? null,
    };
    if (spec.type === "belongsToMany") {
      const through = association.through.model;
      entry.throughTable = through.getTableName();
      entry.otherKey = association.otherKey;
      entry.throughFields = Object.fromEntries(
        Object.entries(through.rawAttributes).map(([name, attribute]) => [name, attribute.field]),
      );
    }
    associations.push(entry);
  }
  const tables = {};
  for (const [name, model] of Object.entries(models)) {
    const table = model.getTableName();
    tables[name] = {
      table: typeof table === "string" ? table : { tableName: table.tableName, schema: table.schema },
      singular: model.options.name.singular,
      plural: model.options.name.plural,
      fields: Object.fromEntries(
        Object.entries(model.rawAttributes).map(([attr, attribute]) => [attr, attribute.field]),
      ),
    };
  }
  return { version: versionOf("sequelize"), tables, associations, schemas: recordSequelizeSchemas() };
}

// Where a model's schema comes from: the model's options, then `define`, then the
// instance's own `schema` option (model.js init merges them in that order).
function recordSequelizeSchemas() {
  const found = {};
  for (const [label, instance, model] of [
    ["instance", { schema: "inst" }, {}],
    ["define", { schema: "inst", define: { schema: "def" } }, {}],
    ["model", { schema: "inst", define: { schema: "def" } }, { schema: "own" }],
  ]) {
    const sequelize = new Sequelize({ dialect: "sqlite", dialectModule: {}, logging: false, ...instance });
    const table = sequelize.define("Invoice", { total: DataTypes.INTEGER }, model).getTableName();
    found[label] = { schema: table.schema, tableName: table.tableName };
  }
  return found;
}

// ---- TypeORM 1.x and 0.3 -------------------------------------------------------------------
async function recordTypeorm(packageName) {
  const typeorm = require(packageName);
  const spec = cases.typeorm;
  const classes = {};
  const make = (name) => {
    classes[name] ??= { [name]: class {} }[name];
    return classes[name];
  };
  for (const [name, columns] of Object.entries(spec.embeddables)) {
    const cls = make(name);
    for (const column of columns) {
      typeorm.Column({ type: "varchar", ...(column.name ? { name: column.name } : {}) })(cls.prototype, column.prop);
    }
  }
  for (const entity of spec.entities) {
    const cls = make(entity.class);
    for (const column of entity.columns ?? []) {
      const options = { type: "varchar", ...(column.name ? { name: column.name } : {}) };
      (column.primary ? typeorm.PrimaryColumn : typeorm.Column)(options)(cls.prototype, column.prop);
    }
    for (const embedded of entity.embedded ?? []) {
      const options = "prefix" in embedded ? { prefix: embedded.prefix } : {};
      typeorm.Column(() => make(embedded.cls), options)(cls.prototype, embedded.prop);
    }
    for (const relation of entity.manyToOne ?? []) {
      typeorm.ManyToOne(() => make(relation.target))(cls.prototype, relation.prop);
      if (relation.joinColumn) {
        const options = {};
        if (relation.joinColumn.name) options.name = relation.joinColumn.name;
        if (relation.joinColumn.referenced) options.referencedColumnName = relation.joinColumn.referenced;
        typeorm.JoinColumn(options)(cls.prototype, relation.prop);
      }
    }
    for (const relation of entity.manyToMany ?? []) {
      typeorm.ManyToMany(() => make(relation.target))(cls.prototype, relation.prop);
      if (relation.joinTable) typeorm.JoinTable(relation.joinTable)(cls.prototype, relation.prop);
    }
    const options = {};
    if (entity.schema) options.schema = entity.schema;
    (entity.name ? typeorm.Entity(entity.name, options) : typeorm.Entity(options))(cls);
  }
  const dataSource = new typeorm.DataSource({
    type: "sqljs",
    entities: spec.entities.map((entity) => classes[entity.class]),
    entityPrefix: spec.options.entityPrefix,
  });
  await dataSource.buildMetadatas();
  const tables = {};
  for (const metadata of dataSource.entityMetadatas) {
    const key = metadata.tableType === "junction" ? `junction:${metadata.tableName}` : metadata.targetName;
    tables[key] = {
      tableName: metadata.tableName,
      schema: metadata.schema ?? null,
      columns: Object.fromEntries(metadata.columns.map((column) => [column.propertyPath, column.databaseName])),
    };
  }
  const strategy = new typeorm.DefaultNamingStrategy();
  const strings = {};
  const { camelCase, snakeCase, titleCase } = require(local(`${packageName}/util/StringUtils.js`));
  for (const text of cases.typeormStrings) {
    strings[text] = {
      snakeCase: snakeCase(text),
      camelCase: camelCase(text),
      titleCase: titleCase(text),
      tableName: strategy.tableName(text, undefined),
      tableNameEmpty: strategy.tableName(text, ""),
    };
  }
  return { version: versionOf(packageName), tables, strings };
}

// ---- drizzle-orm ---------------------------------------------------------------------------
async function recordDrizzle() {
  const { toSnakeCase, toCamelCase } = await import("drizzle-orm/casing");
  const pg = await import("drizzle-orm/pg-core");
  const keys = {};
  for (const key of cases.drizzleKeys) keys[key] = { snake_case: toSnakeCase(key), camelCase: toCamelCase(key) };
  const columns = Object.fromEntries(cases.drizzleKeys.filter((key) => key).map((key) => [key, pg.text()]));
  const table = pg.pgTable("t", { ...columns, named: pg.text("explicit_name") });
  const selected = {};
  for (const casing of [undefined, "snake_case", "camelCase"]) {
    const builder = new pg.QueryBuilder(new pg.PgDialect({ casing }));
    selected[casing ?? "none"] = builder.select().from(table).toSQL().sql;
  }
  const schema = pg.pgSchema("billing");
  const prefixed = pg.pgTableCreator((name) => `app_${name}`);
  const configs = {
    schemaTable: pg.getTableConfig(schema.table("invoices", { id: pg.integer() })),
    creatorTable: pg.getTableConfig(prefixed("users", { id: pg.integer() })),
  };
  const tables = Object.fromEntries(
    Object.entries(configs).map(([name, config]) => [
      name,
      { name: config.name, schema: config.schema ?? null, columns: config.columns.map((column) => column.name) },
    ]),
  );
  return { version: versionOf("drizzle-orm"), keys, selected, tables };
}

// The tables of fixtures/schema/orm/drizzle-d1-app/project/src/db/schema.ts, written
// again here with the same builders, and the columns drizzle selects from them under
// the fixture's casing ("snake_case" in its drizzle() call and drizzle.config.ts).
async function recordDrizzleD1Fixture() {
  const s = await import("drizzle-orm/sqlite-core");
  const users = s.sqliteTable("users", {
    id: s.integer().primaryKey({ autoIncrement: true }),
    fullName: s.text().notNull(),
    email: s.text("email_address").notNull().unique(),
    createdAt: s.integer({ mode: "timestamp" }),
  });
  const timestamps = { updatedAt: s.integer({ mode: "timestamp" }) };
  const posts = s.sqliteTable(
    "blog_posts",
    (t) => ({
      id: t.integer().primaryKey(),
      authorId: t.integer("author").references(() => users.id),
      title: t.text().notNull(),
      ...timestamps,
    }),
    (table) => [s.index("posts_author_idx").on(table.authorId)],
  );
  const activeUsers = s.sqliteView("active_users", { id: s.integer(), email: s.text("email_address") }).existing();
  const builder = new s.QueryBuilder(new s.SQLiteSyncDialect({ casing: "snake_case" }));
  return Object.fromEntries(
    [users, posts, activeUsers].map((table) => {
      const sql = builder.select().from(table).toSQL().sql;
      return [sql.match(/ from "([^"]+)"$/)[1], sql];
    }),
  );
}

// ---- knex ----------------------------------------------------------------------------------------
function recordKnex() {
  const knex = require("knex")({ client: "pg" });
  const sql = {};
  for (const args of cases.knex) {
    sql[JSON.stringify(args)] = knex(...args).select("id").toSQL().sql;
    sql[`withSchema:${JSON.stringify(args)}`] = knex.withSchema("s").from(...args).select("id").toSQL().sql;
  }
  return { version: versionOf("knex"), sql };
}

// Both TypeORM versions keep decorator metadata in one global store: one process each.
function typeormInChild(packageName) {
  const script = fileURLToPath(import.meta.url);
  return JSON.parse(execFileSync(process.execPath, [script, "typeorm", packageName], { encoding: "utf8" }));
}

if (process.argv[2] === "typeorm") {
  process.stdout.write(JSON.stringify(await recordTypeorm(process.argv[3])));
} else {
  const recorded = {
    inflection: recordInflection(),
    sequelize: recordSequelize(),
    typeorm: typeormInChild("typeorm"),
    typeorm03: typeormInChild("typeorm03"),
    drizzle: await recordDrizzle(),
    drizzleD1Fixture: await recordDrizzleD1Fixture(),
    knex: recordKnex(),
  };
  process.stdout.write(JSON.stringify(recorded, null, 2) + "\n");
}
