// Benchmark peer for `tsograph openapi`: parse one spec (JSON or YAML) with the
// npm `yaml` package and print every operation under `paths` with the line and
// column of its method key, as one JSON array on stdout.
import { readFileSync } from "node:fs";
import { LineCounter, isMap, isScalar, parseDocument } from "yaml";

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

const text = readFileSync(process.argv[2], "utf8");
const lineCounter = new LineCounter();
const document = parseDocument(text, { lineCounter });
if (document.errors.length > 0) {
  process.stderr.write(`${document.errors[0].message}\n`);
  process.exit(2);
}

const operations = [];
const paths = document.get("paths", true);
if (isMap(paths)) {
  for (const item of paths.items) {
    if (!isScalar(item.key) || !isMap(item.value)) continue;
    for (const entry of item.value.items) {
      if (!isScalar(entry.key) || !METHODS.has(entry.key.value)) continue;
      const { line, col } = lineCounter.linePos(entry.key.range[0]);
      operations.push({ method: entry.key.value.toUpperCase(), path: String(item.key.value), line, column: col });
    }
  }
}
process.stdout.write(`${JSON.stringify(operations)}\n`);
