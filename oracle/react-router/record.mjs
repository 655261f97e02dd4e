// Usage: node record.mjs <fixture project>... > recorded.json
// For each project, the route module files flatRoutes() finds under <project>/app, the way
// @react-router/dev calls it (it sets the app folder first; the root route is its own entry).
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const { flatRoutes } = require("@react-router/fs-routes");

const recorded = {};
for (const project of process.argv.slice(2)) {
  const app = path.resolve(project, "app");
  globalThis.__reactRouterAppDirectory = app;
  const files = [];
  const walk = (routes) => {
    for (const route of routes) {
      files.push(`app/${route.file}`);
      walk(route.children ?? []);
    }
  };
  walk(await flatRoutes());
  recorded[path.basename(project)] = files.sort();
}
console.log(JSON.stringify(recorded, null, 2));
