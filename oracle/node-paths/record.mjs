// Asks the real routers which request paths each registered path matches.
//
//   node record.mjs > recorded.json
//
// Every router is driven the way its framework drives it, with the
// framework's default options (the rules are in the comments below), so the
// recording is the ground truth tsograph's path translation is replayed
// against (tests/routes/node/test_node_paths_conformance.py).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Hono } from 'hono'

const require = createRequire(import.meta.url)
// Read the installed package.json directly: some packages do not export it.
const version = (name) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version
const ptr01 = require('path-to-regexp-0.1')
const ptr6 = require('path-to-regexp-6')
const ptr8 = require('path-to-regexp-8')
const fmw8 = require('find-my-way-8')
const fmw9 = require('find-my-way-9')
const fmw910 = require('find-my-way-9.10')

const inputs = JSON.parse(readFileSync(new URL('./inputs.json', import.meta.url), 'utf8'))

// Express 4.22.3 lib/router/layer.js: a route layer is pathRegexp(path, keys,
// { sensitive: false, strict: false, end: true }) and the path '*' is the
// fast_star layer that matches every path.
function express4 (path) {
  const regexp = ptr01(path, [], { sensitive: false, strict: false, end: true })
  return (probe) => path === '*' || regexp.test(probe)
}

// @koa/router 13.1.1 lib/layer.js: pathToRegexp(path, keys, { end: true,
// strict: false, sensitive: false }) tested against ctx.path.
function koa13 (path) {
  const regexp = ptr6.pathToRegexp(path, [], { end: true, strict: false, sensitive: false })
  return (probe) => regexp.test(probe)
}

// @koa/router 15.7.0 (compilePathToRegexp) and router 2.3.0 (Express 5, after
// its loosen()): pathToRegexp(path, { end: true, trailing: true, sensitive: false }).
function ptr8Matcher (path) {
  const { regexp } = ptr8.pathToRegexp(path, { end: true, trailing: true, sensitive: false })
  return (probe) => regexp.test(probe)
}

// Fastify 4.29.1 / 5.12.5 build the router with ignoreTrailingSlash: false,
// ignoreDuplicateSlashes: false, caseSensitive: true, maxParamLength: 100.
function findMyWay (factory) {
  return (path) => {
    const router = factory({
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      caseSensitive: true,
      maxParamLength: 100
    })
    router.on('GET', path, () => {})
    return (probe) => router.find('GET', probe) !== null
  }
}

// Hono 4.13.12 with its default SmartRouter (RegExpRouter, falling back to
// TrieRouter) and strict: true; app.request() goes through the whole app.
async function hono (path) {
  const app = new Hono()
  app.get(path, (c) => c.text('hit'))
  return async (probe) => {
    const response = await app.request(`http://localhost${probe}`)
    return response.status === 200 && (await response.text()) === 'hit'
  }
}

const LIBRARIES = {
  'path-to-regexp-0.1': [[`path-to-regexp@${version('path-to-regexp-0.1')}`, express4]],
  'path-to-regexp-6': [[`path-to-regexp@${version('path-to-regexp-6')}`, koa13]],
  'path-to-regexp-8': [[`path-to-regexp@${version('path-to-regexp-8')}`, ptr8Matcher]],
  'find-my-way': [
    [`find-my-way@${version('find-my-way-8')}`, findMyWay(fmw8)],
    [`find-my-way@${version('find-my-way-9')}`, findMyWay(fmw9)],
    [`find-my-way@${version('find-my-way-9.10')}`, findMyWay(fmw910)]
  ],
  hono: [[`hono@${version('hono')}`, hono]]
}

function toggleSlash (probe) {
  if (probe === '/') return '//'
  return probe.endsWith('/') ? probe.slice(0, -1) : `${probe}/`
}

// The probes of a dialect: the common ones, each vector's own, and for each
// of those the trailing slash toggled, one more segment, and upper case.
function corpus (vectors) {
  const seeds = [...inputs.commonProbes, ...vectors.flatMap((vector) => vector.probes)]
  const all = new Set()
  for (const seed of seeds) {
    for (const probe of [seed, toggleSlash(seed), `${seed.replace(/\/$/, '')}/extra`, seed.toUpperCase()]) {
      all.add(probe)
    }
  }
  return [...all].sort()
}

const output = { dialects: {} }
for (const [dialect, vectors] of Object.entries(inputs.dialects)) {
  const probes = corpus(vectors)
  const libraries = {}
  for (const [library, build] of LIBRARIES[dialect]) {
    const results = []
    for (const { path } of vectors) {
      let matcher
      try {
        matcher = await build(path)
        const matches = []
        for (const probe of probes) {
          if (await matcher(probe)) matches.push(probe)
        }
        results.push({ path, matches })
      } catch (error) {
        results.push({ path, error: String(error.message).split('\n')[0] })
      }
    }
    libraries[library] = results
  }
  output.dialects[dialect] = { probes, libraries }
}
process.stdout.write(JSON.stringify(output, null, 1) + '\n')
