'use strict';
// Builds fixture apps with the real `next build`, serves them with `next start` on 127.0.0.1
// and records which handler answers each probe: every route handler and API route with
// concrete values, every HTTP method, both trailing-slash forms, with and without basePath,
// locale prefixes, public files, metadata routes and unknown paths. Every fixture handler
// returns a body naming itself (`<file>#<export>`), so the recording says who answered.
//
// Usage: node live.js [case ...]   (after `npm ci` in this folder; writes
// recordings/live-<case>.json; builds in $NEXT_LIVE_DIR or /tmp/next-live, outside the repo)

const fs = require('fs');
const http = require('http');
const net = require('net');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { concretePaths, makeLinks, sortKeys } = require('./common');

const here = __dirname;
const nextVersion = require(path.join(here, 'node_modules', 'next', 'package.json')).version;
const fixtures = path.join(here, '..', '..', 'fixtures', 'routes', 'next');
const scratchRoot = process.env.NEXT_LIVE_DIR || '/tmp/next-live';
// Run the project's own copy of `next`: one from the oracle folder would load a second React
// next to the project's (prerendering then fails with `useContext` of null).
const nextBin = (dir) => path.join(dir, 'node_modules', 'next', 'dist', 'bin', 'next');
// `next build` and `next start` set NODE_ENV themselves.
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
delete env.NODE_ENV;
const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
const HANDLER_BODY = /^[^\s<>"]+#[A-Za-z_$][\w$]*$/;

// Files removed from the scratch copy because `next build` refuses them; the replay requires
// each to be a route-coverage gap of the document, a page or a declaration file (no facts).
const CASES = {
  'app-and-pages': { exclude: {} },
  'app-router': {
    exclude: {
      'app/api/items/[id]/route.ts':
        're-exports x and y, which ../impl does not export, and * from a missing ./more',
      'app/bad/[[x]]/route.ts':
        'Optional route parameters are not yet supported ("[[x]]") in route "/bad/[[x]]"',
      'app/page.tsx':
        "page.tsx doesn't have a root layout (a page, not a route handler; it would also clash with app/route.mts at /)",
    },
  },
  'i18n-pages': { exclude: {}, extraPaths: ['/old'] },
  'pages-router': {
    exclude: {
      'pages/api/broken.ts': 'a syntax error (the build stops at it)',
      'pages/api/users/types.d.ts':
        'Turbopack builds it as the API route /api/users/types.d and panics parsing it',
    },
  },
  'src-basepath': { exclude: {} },
  'trailing-slash': { exclude: {} },
};

function walkFiles(root) {
  if (!fs.existsSync(root)) return [];
  const found = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) found.push(...walkFiles(full).map((p) => `${entry.name}/${p}`));
    else found.push(entry.name);
  }
  return found.sort();
}

function prepare(name, spec) {
  const dir = path.join(scratchRoot, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(scratchRoot, { recursive: true });
  const caseDir = path.join(fixtures, name);
  fs.cpSync(path.join(caseDir, 'project'), dir, { recursive: true, verbatimSymlinks: true });
  makeLinks(caseDir, dir);
  // Turbopack resolves `next` only inside the project root, so a symlinked node_modules is
  // refused: hard-link a copy (same file system), or copy it.
  const modules = path.join(here, 'node_modules');
  if (spawnSync('cp', ['-al', modules, path.join(dir, 'node_modules')]).status !== 0) {
    fs.cpSync(modules, path.join(dir, 'node_modules'), { recursive: true });
  }
  for (const file of Object.keys(spec.exclude)) fs.rmSync(path.join(dir, file), { force: true });
  return dir;
}

function build(dir) {
  const run = spawnSync(process.execPath, [nextBin(dir), 'build'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 15 * 60 * 1000,
  });
  const output = `${run.stdout || ''}${run.stderr || ''}`.split(dir).join('<project>');
  const errors = output
    .split('\n')
    .filter((line) => /error/i.test(line))
    .map((line) => line.slice(0, 300));
  return { ok: run.status === 0, errors: run.status === 0 ? [] : errors.slice(0, 10) };
}

function readJson(file) {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

// The routes the build produced, as the server's manifests list them.
function builtRoutes(dir) {
  const appRoutes = readJson(path.join(dir, '.next', 'app-path-routes-manifest.json')) || {};
  const pages = readJson(path.join(dir, '.next', 'server', 'pages-manifest.json')) || {};
  const routes = readJson(path.join(dir, '.next', 'routes-manifest.json')) || {};
  return {
    app: Object.entries(appRoutes)
      .map(([entry, route]) => ({ entry, route }))
      .sort((a, b) => (a.entry < b.entry ? -1 : 1)),
    basePath: routes.basePath || '',
    locales: (routes.i18n && routes.i18n.locales) || [],
    pages: Object.keys(pages).sort(),
  };
}

function probeUrls(dir, built, spec) {
  const base = built.basePath;
  const routes = [
    ...built.app.filter(({ entry }) => entry.endsWith('/route')).map(({ route }) => route),
    ...built.pages.filter((page) => page === '/api' || page.startsWith('/api/')),
  ];
  const concretes = new Set();
  for (const route of routes) {
    for (const concrete of concretePaths(route)) concretes.add(concrete);
    // A mixed segment (`v[id]`) also as the literal folder name, brackets raw and encoded.
    if (route.split('/').some((segment) => segment.includes('[') && !/^\[.*\]$/.test(segment))) {
      concretes.add(route);
      concretes.add(route.split('/').map(encodeURIComponent).join('/'));
    }
  }
  for (const file of walkFiles(path.join(dir, 'public'))) concretes.add(`/${file}`);
  for (const file of walkFiles(path.join(dir, 'static'))) concretes.add(`/static/${file}`);
  for (const extra of spec.extraPaths || []) concretes.add(extra);
  concretes.add('/__unknown__');
  concretes.add('/__unknown__/deep/x');
  const urls = new Set();
  const both = (url) => {
    urls.add(url);
    urls.add(url === '/' ? url : url.endsWith('/') ? url.slice(0, -1) : `${url}/`);
  };
  for (const concrete of concretes) {
    both(base ? (concrete === '/' ? base : `${base}${concrete}`) : concrete);
    if (base) both(concrete);
    for (const locale of built.locales) both(`${base}/${locale}${concrete === '/' ? '' : concrete}`);
  }
  return [...urls].sort();
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function request(port, method, url) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: url, agent: false, timeout: 30000 },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout ${method} ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

function describe(response, port) {
  const text = response.body.toString('utf8');
  const type = String(response.headers['content-type'] || '');
  const answer = {
    status: response.status,
    handler: HANDLER_BODY.test(text) ? text : null,
    body: text === '' ? 'empty' : HANDLER_BODY.test(text) ? 'handler' : type.includes('html') ? 'html' : 'other',
  };
  if (response.headers.allow) {
    answer.allow = String(response.headers.allow).split(',').map((m) => m.trim()).sort();
  }
  if (response.headers.location) {
    answer.location = String(response.headers.location).replace(`http://127.0.0.1:${port}`, '');
  }
  return answer;
}

async function probe(port, method, url) {
  const first = describe(await request(port, method, url), port);
  const record = { method, url, ...first };
  // Follow redirects (same method) to the answer, at most three hops.
  let answer = first;
  const hops = [];
  while (answer.location && answer.status >= 300 && answer.status < 400 && hops.length < 3) {
    hops.push(answer.location);
    answer = describe(await request(port, method, answer.location), port);
  }
  if (hops.length) {
    record.final = { status: answer.status, handler: answer.handler, body: answer.body };
    if (answer.allow) record.final.allow = answer.allow;
  }
  return record;
}

async function serve(dir, action) {
  const port = await freePort();
  const server = spawn(process.execPath, [nextBin(dir), 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  server.stdout.on('data', (chunk) => (log += chunk));
  server.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise((resolve) => server.on('exit', resolve));
  try {
    const deadline = Date.now() + 60000;
    for (;;) {
      try {
        await request(port, 'GET', '/__ready__');
        break;
      } catch (error) {
        if (Date.now() > deadline || server.exitCode !== null) {
          throw new Error(`next start did not answer: ${log.split(dir).join('<project>')}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    return await action(port);
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}

async function recordCase(name) {
  const spec = CASES[name];
  const dir = prepare(name, spec);
  const result = { case: name, excluded: spec.exclude, next: nextVersion };
  result.build = build(dir);
  if (!result.build.ok) return result;
  const built = builtRoutes(dir);
  result.built = built;
  const urls = probeUrls(dir, built, spec);
  result.probes = await serve(dir, async (port) => {
    const probes = [];
    for (const url of urls) {
      for (const method of METHODS) probes.push(await probe(port, method, url));
    }
    return probes;
  });
  return result;
}

async function main() {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CASES).sort();
  for (const name of names) {
    if (!CASES[name]) throw new Error(`unknown case ${name}`);
    const started = Date.now();
    const result = await recordCase(name);
    const file = path.join(here, 'recordings', `live-${name}.json`);
    fs.writeFileSync(file, `${JSON.stringify(sortKeys(result), null, 2)}\n`);
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stderr.write(
      `${name}: build ${result.build.ok ? 'ok' : 'FAILED'}, ${(result.probes || []).length} probes, ${seconds}s\n`,
    );
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
