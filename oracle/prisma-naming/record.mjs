// Records how Prisma itself names the database objects of every fixture schema under
// fixtures/schema/prisma/<case>/project: the SQL that `prisma migrate diff --from-empty
// --to-schema <schema> --script` prints, produced by Prisma's own schema engine (the
// WebAssembly build, @prisma/schema-engine-wasm, driven offline through a stub driver
// adapter that answers the engine's one version query), and getDMMF of @prisma/internals
// (model dbName / schema, field dbName, relation names). MongoDB schemas have no DDL.
// Output: recordings.json, replayed by tests/schema/test_prisma_oracle.py.
//
//   cd oracle/prisma-naming && npm ci --ignore-scripts && node record.mjs
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { getDMMF } = require("@prisma/internals");
const { bindMigrationAwareSqlAdapterFactory } = require("@prisma/driver-adapter-utils");
const internalsVersion = require("@prisma/internals/package.json").version;
const engineVersion = JSON.parse(readFileSync(new URL("node_modules/@prisma/schema-engine-wasm/package.json", import.meta.url), "utf8")).version;

const base = new URL("node_modules/@prisma/schema-engine-wasm/", import.meta.url);
const wasm = await import(new URL("schema_engine_bg.js", base));
const { instance } = await WebAssembly.instantiate(readFileSync(new URL("schema_engine_bg.wasm", base)), {
  "./schema_engine_bg.js": wasm,
});
wasm.__wbg_set_wasm(instance.exports);
instance.exports.__wbindgen_start?.();

const fixtures = new URL("../../fixtures/schema/prisma/", import.meta.url).pathname;
// A line the fixtures hold on purpose (tsograph counts it as unparsed); Prisma rejects it.
const BROKEN_LINE = "this line is not PSL";

function prismaFiles(folder) {
  const found = [];
  for (const name of readdirSync(folder).sort()) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...prismaFiles(path));
    else if (name.endsWith(".prisma")) found.push(path);
  }
  return found;
}

function stubAdapter(provider) {
  const fail = async () => {
    throw new Error("the oracle has no database");
  };
  const adapter = {
    provider,
    adapterName: "tsograph-oracle-offline",
    queryRaw: async (query) => {
      if (query.sql.includes("server_version_num")) {
        return {
          columnNames: ["exists", "version", "numeric_version"],
          columnTypes: [5, 7, 0],
          rows: [[true, "PostgreSQL 16.4", 160004]],
        };
      }
      return { columnNames: [], columnTypes: [], rows: [] };
    },
    executeRaw: fail,
    executeScript: fail,
    startTransaction: fail,
    getConnectionInfo: () => ({ schemaName: undefined, supportsRelationJoins: true }),
    dispose: async () => {},
  };
  return bindMigrationAwareSqlAdapterFactory({
    provider,
    adapterName: adapter.adapterName,
    connect: async () => adapter,
    connectToShadowDb: async () => adapter,
  });
}

async function ddl(files) {
  const engine = await wasm.SchemaEngine.new({ datamodels: files }, () => {}, stubAdapter("postgres"));
  const result = await engine.diff({
    from: { tag: "empty" },
    to: { tag: "schemaDatamodel", files: files.map(([path, content]) => ({ path, content })) },
    script: true,
    exitCode: null,
    filters: { externalTables: [], externalEnums: [] },
  });
  return result.stdout;
}

const recordings = {};
for (const fixture of readdirSync(fixtures).sort()) {
  let files;
  try {
    const project = join(fixtures, fixture, "project");
    files = prismaFiles(project).map((file) => [
      relative(project, file),
      readFileSync(file, "utf8").replace(BROKEN_LINE, ""),
    ]);
  } catch {
    continue;
  }
  if (files.length === 0) continue;
  // Prisma 8 (@prisma/orm-family-sql) names tables by other rules than this engine's.
  const manifest = readFileSync(join(fixtures, fixture, "project", "package.json"), "utf8");
  if (manifest.includes("@prisma/orm-family-sql")) continue;
  const entry = {};
  try {
    const dmmf = await getDMMF({ datamodel: files });
    entry.models = dmmf.datamodel.models.map((model) => ({
      name: model.name,
      dbName: model.dbName,
      schema: model.schema ?? null,
      fields: model.fields.map((field) => ({
        name: field.name,
        kind: field.kind,
        dbName: field.dbName ?? null,
        relationName: field.relationName ?? null,
      })),
    }));
  } catch (error) {
    entry.dmmfError = String(error.message ?? error).split("\n")[0];
  }
  const provider = files
    .map(([, text]) => /datasource\s+\w+\s*\{[^}]*?provider\s*=\s*"([^"]+)"/.exec(text)?.[1])
    .find(Boolean);
  if (provider === "postgresql") {
    try {
      entry.postgresqlScript = await ddl(files);
    } catch (error) {
      entry.ddlError = String(error.message ?? error).split("\n")[0];
    }
  }
  recordings[fixture] = entry;
}
writeFileSync(
  new URL("recordings.json", import.meta.url),
  JSON.stringify(
    {
      tools: [`@prisma/internals@${internalsVersion}`, `@prisma/schema-engine-wasm@${engineVersion}`],
      recordings,
    },
    null,
    2,
  ) + "\n",
);
