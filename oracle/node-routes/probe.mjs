// Runs inside a scratch copy of one fixture (with its packages installed): loads the apps,
// sends the probes and records, per probe, the status and every project function that ran
// while it was answered (V8 precise coverage, mapped back to the source through source maps).
// Usage: node --enable-source-maps --import tsx probe.mjs <fixture-dir> <name> <expected.json> <out>
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { APPS } from './apps.mjs';

const [dir, name, expectedPath, out] = process.argv.slice(2);
const srcUrl = pathToFileURL(path.join(dir, 'src')).href + '/';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Debugger.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const load = (relative) => import(pathToFileURL(path.join(dir, relative)).href);
const document = JSON.parse(readFileSync(expectedPath, 'utf8'));
const apps = [];
for (const spec of APPS[name]) {
  apps.push({ spec, app: await spec.load(load) });
}

const sources = new Map();
async function scriptSource(scriptId) {
  if (!sources.has(scriptId)) {
    const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId });
    sources.set(scriptId, scriptSource);
  }
  return sources.get(scriptId);
}

function lineColumn(text, offset) {
  let line = 0;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return [line, offset - start];
}

async function invoked() {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const found = [];
  for (const script of result) {
    if (!script.url.startsWith(srcUrl)) continue;
    const file = path.relative(dir, fileURLToPath(script.url)).split(path.sep).join('/');
    for (const fn of script.functions) {
      const range = fn.ranges[0];
      if (range.count === 0 || range.startOffset === 0) continue;
      const [line, column] = lineColumn(await scriptSource(script.scriptId), range.startOffset);
      const map = findSourceMap(fileURLToPath(script.url));
      const entry = map ? map.findEntry(line, column) : null;
      if (entry && entry.originalLine !== undefined) {
        found.push({ path: file, line: entry.originalLine + 1, column: entry.originalColumn + 1 });
      } else {
        found.push({ path: file, line: line + 1, column: column + 1 });
      }
    }
  }
  return found.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
}

function concrete(template) {
  return template.replaceAll('{**}', 'a/b').replaceAll('{}', '7');
}

function probesFor(fact) {
  if (fact.pathAnchor !== 'root' || fact.dynamic) return [];
  const url = concrete(fact.channel);
  const methods = fact.method === 'ANY' ? ['GET', 'POST'] : [fact.method];
  const other = fact.method === 'DELETE' ? 'PUT' : 'DELETE';
  const toggled = url === '/' ? null : url.endsWith('/') ? url.slice(0, -1) : url + '/';
  const probes = methods.map((method) => ({ method, url }));
  probes.push({ method: other, url });
  if (toggled) probes.push({ method: methods[0], url: toggled });
  if (url.toUpperCase() !== url) probes.push({ method: methods[0], url: url.toUpperCase() });
  return probes;
}

async function send(entry, method, url) {
  const { spec, app } = entry;
  if (spec.transport === 'fetch') {
    const response = await app.request(url, { method });
    await response.text();
    return response.status;
  }
  if (spec.transport === 'inject') {
    const response = await app.inject({ method, url });
    return response.statusCode;
  }
  if (!entry.port) {
    if (spec.transport === 'nest') {
      entry.port = app.getHttpServer().address().port;
    } else {
      entry.server = await new Promise((resolve) => {
        const server = app.listen(0, '127.0.0.1', () => resolve(server));
      });
      entry.port = entry.server.address().port;
    }
  }
  return await new Promise((resolve) => {
    const request = http.request(
      { host: '127.0.0.1', port: entry.port, method, path: url },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      },
    );
    // A handler that never answers (one that holds the request) is recorded as status 0.
    request.setTimeout(5000, () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(0)); // a timeout or a connection the app dropped
    request.end();
  });
}

// Requests built from the framework's own route table, so that routes the facts miss are
// probed too: Hono's app.routes, @koa/router's stack (found through app.middleware), and the
// routes registered directly on an Express app (Express 4 app._router, 5 app.router, Nest's).
function tablePaths(entry) {
  const { spec, app } = entry;
  const found = [];
  if (spec.transport === 'fetch') {
    for (const route of app.routes) found.push([route.method, route.path]);
  }
  if (Array.isArray(app.middleware)) {
    for (const middleware of app.middleware) {
      for (const layer of middleware.router?.stack ?? []) {
        for (const method of layer.methods) found.push([method, layer.path]);
      }
    }
  }
  const express = spec.transport === 'nest' ? app.getHttpAdapter().getInstance() : app;
  const router = express && (express._router ?? express.router);
  for (const layer of router?.stack ?? []) {
    if (layer.route && typeof layer.route.path === 'string') {
      for (const method of Object.keys(layer.route.methods)) found.push([method, layer.route.path]);
    }
  }
  return found;
}

function concretePattern(pattern) {
  return pattern
    .replace(/\{[^{}]*\}/g, (group) => (group.startsWith('{/') ? '' : group)) // optional groups
    .replace(/:[A-Za-z0-9_$]+(\{[^}]*\}|\([^)]*\))?\??/g, '7')
    .replace(/\*[A-Za-z0-9_$]*/g, 'a/b');
}

const seen = new Set();
const recorded = [];
await invoked(); // drop what loading the apps ran
const planned = [];
for (const fact of document.facts) {
  const group = fact.order ? fact.order.group : null;
  const entry = apps.find((candidate) => candidate.spec.group === group) ?? apps[0];
  for (const probe of probesFor(fact)) planned.push([entry, probe]);
}
for (const entry of apps) {
  for (const [method, pattern] of tablePaths(entry)) {
    const verb = method.toUpperCase() === 'ALL' || method === '_all' ? 'GET' : method.toUpperCase();
    // Node's HTTP server hands CONNECT to its 'connect' event, never to the app.
    if (verb === 'HEAD' || verb === 'OPTIONS' || verb === 'CONNECT') continue;
    const url = concretePattern(pattern);
    if (url.startsWith('/')) planned.push([entry, { method: verb, url }]);
  }
}
for (const [entry, probe] of planned) {
  const key = `${entry.spec.group} ${probe.method} ${probe.url}`;
  if (seen.has(key)) continue;
  seen.add(key);
  const status = await send(entry, probe.method, probe.url);
  recorded.push({ app: entry.spec.group, ...probe, status, invoked: await invoked() });
}
for (const entry of apps) {
  if (entry.server) entry.server.close();
  if (entry.spec.transport === 'nest') await entry.app.close();
  if (entry.spec.transport === 'inject') await entry.app.close();
}
recorded.sort((a, b) => `${a.app} ${a.url} ${a.method}`.localeCompare(`${b.app} ${b.url} ${b.method}`));
// Written to a file: apps may log to stdout (Hono's logger does).
writeFileSync(out, JSON.stringify({ fixture: name, probes: recorded }));
process.exit(0);
