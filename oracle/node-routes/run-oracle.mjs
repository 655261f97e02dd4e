// Installs each Node fixture into a scratch copy from the npm registry, runs probe.mjs in it
// with the real frameworks, and writes recordings/<fixture>.json (replayed offline by
// tests/routes/node/test_oracle_replay.py).
// Usage: node run-oracle.mjs <scratch-dir> [fixture ...]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APPS } from './apps.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '../../fixtures/routes/node');
const TSX = 'tsx@4.23.15';
const [scratch, ...only] = process.argv.slice(2);
if (!scratch) {
  console.error('usage: node run-oracle.mjs <scratch-dir> [fixture ...]');
  process.exit(64);
}
const VERSIONED = [
  'express',
  'hono',
  'koa',
  '@koa/router',
  'fastify',
  'fastify-plugin',
  'find-my-way',
  'path-to-regexp',
  '@nestjs/core',
  '@nestjs/platform-express',
];

for (const name of only.length ? only : Object.keys(APPS)) {
  const target = path.resolve(scratch, name);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(path.join(fixtures, name, 'project'), target, { recursive: true, verbatimSymlinks: true });
  const npm = ['--no-audit', '--no-fund', '--loglevel=error'];
  execFileSync('npm', ['install', ...npm], { cwd: target, stdio: 'inherit' });
  execFileSync('npm', ['install', '--no-save', ...npm, TSX], { cwd: target, stdio: 'inherit' });
  const raw = path.join(target, 'oracle-recording.json');
  execFileSync(
    'node',
    [
      '--enable-source-maps',
      '--import',
      'tsx',
      path.join(here, 'probe.mjs'),
      target,
      name,
      path.join(fixtures, name, 'expected.json'),
      raw,
    ],
    { cwd: target, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  const recording = JSON.parse(readFileSync(raw, 'utf8'));
  recording.packages = {};
  for (const pkg of VERSIONED) {
    const manifest = path.join(target, 'node_modules', pkg, 'package.json');
    if (existsSync(manifest)) {
      recording.packages[pkg] = JSON.parse(readFileSync(manifest, 'utf8')).version;
    }
  }
  const file = path.join(here, 'recordings', `${name}.json`);
  writeFileSync(file, JSON.stringify(recording, null, 2) + '\n');
  console.log(`${name}: ${recording.probes.length} probes recorded`);
}
