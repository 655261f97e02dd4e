// Asks the real frameworks which path a route gets under a mount prefix.
//
//   node record-joins.mjs > recorded-joins.json
//
// Hono, @koa/router and Fastify store the joined path, which is read back;
// Express joins at request time (it trims the mount path from the URL), so
// an Express app is served on an ephemeral 127.0.0.1 port and asked which
// probe paths reach the route. tests/routes/node/test_node_paths_joins.py
// replays the recording against producers.routes.node.paths.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:http'
import { Hono } from 'hono'

const require = createRequire(import.meta.url)
const version = (name) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version

const PAIRS = [
  ['/api', '/users'], ['/api/', '/users'], ['/api', '/'], ['/api/', '/'], ['api', 'users'],
  ['/api', 'users'], ['/', '/users'], ['/', '/'], ['/api//', '/users'], ['/api', '/users/'],
  ['/v1/:org', '/repos'], ['/api', '*'], ['', '/users'], ['/api', '']
]

const handler = () => {}

function attempt (fn) {
  try {
    return { paths: fn() }
  } catch (error) {
    return { error: String(error.message).split('\n')[0] }
  }
}

function hono () {
  const cases = []
  for (const [prefix, path] of PAIRS) {
    const basePath = attempt(() => {
      const app = new Hono().basePath(prefix)
      app.get(path, (c) => c.text('x'))
      return app.routes.map((r) => r.path)
    })
    const route = attempt(() => {
      const sub = new Hono()
      sub.get(path, (c) => c.text('x'))
      const app = new Hono()
      app.route(prefix, sub)
      return app.routes.map((r) => r.path)
    })
    cases.push({ prefix, path, basePath, route })
  }
  return cases
}

function koa (name) {
  const Router = require(name)
  const RouterClass = Router.Router || Router.default || Router
  const cases = []
  for (const [prefix, path] of PAIRS) {
    const option = attempt(() => {
      const router = new RouterClass({ prefix })
      router.get(path, handler)
      return router.stack.map((layer) => layer.path)
    })
    const method = attempt(() => {
      const router = new RouterClass()
      router.get(path, handler)
      router.prefix(prefix)
      return router.stack.map((layer) => layer.path)
    })
    const use = attempt(() => {
      const child = new RouterClass()
      child.get(path, handler)
      const parent = new RouterClass()
      parent.use(prefix, child.routes())
      return parent.stack.map((layer) => layer.path)
    })
    cases.push({ prefix, path, option, prefixMethod: method, use })
  }
  return cases
}

const PROBES = ['/', '//', '/api', '/api/', '/api//', '/api/users', '/api/users/', '/api//users',
  '/api///users', '/users', '/users/', '//users', '/apiusers', '/api/users/x', '/API/USERS', '/v1/acme/repos',
  '/v1//repos', '/api/x', '/apix', '/api/*']

// Fastify registers a `/` route under a prefix twice (`/api` and `/api/`) but
// runs onRoute hooks for the first only, so what a route serves is asked
// with inject(); onRoute still shows the stored url.
async function fastify (name) {
  const Fastify = require(name)
  const cases = []
  for (const [prefix, path] of PAIRS) {
    const urls = []
    let result
    try {
      const app = Fastify()
      app.addHook('onRoute', (route) => { if (route.method === 'GET') urls.push(route.url) })
      app.register(async (instance) => { instance.get(path, async () => 'hit') }, { prefix })
      await app.ready()
      const matches = []
      for (const probe of PROBES) {
        const response = await app.inject({ method: 'GET', url: probe })
        if (response.statusCode === 200 && response.body === 'hit') matches.push(probe)
      }
      result = { urls, matches }
    } catch (error) {
      result = { error: String(error.message).split('\n')[0] }
    }
    cases.push({ prefix, path, register: result })
  }
  // Nested plugin prefixes: where buildRoutePrefix differs between majors.
  const nested = []
  for (const [outer, inner] of [['/a', '/b'], ['/a/', '/b'], ['/a/', 'b'], ['/a', 'b'], ['', 'b'], ['/a', '']]) {
    const urls = []
    let result
    try {
      const app = Fastify()
      app.addHook('onRoute', (route) => { if (route.method === 'GET') urls.push(route.url) })
      app.register(async (o) => {
        o.register(async (i) => { i.get('/x', handler) }, { prefix: inner })
      }, { prefix: outer })
      await app.ready()
      result = { urls }
    } catch (error) {
      result = { error: String(error.message).split('\n')[0] }
    }
    nested.push({ outer, inner, register: result })
  }
  return { cases, nested }
}

// Each pair twice: a default router, and `Router({ strict: true })` (the mount layer
// itself is never strict, so only the route's own trailing slash changes).
async function express (name) {
  const express = require(name)
  const cases = []
  for (const [prefix, path] of PAIRS) {
    cases.push({ prefix, path, use: await expressUse(express, prefix, path, {}),
      strictUse: await expressUse(express, prefix, path, { strict: true }) })
  }
  return cases
}

async function expressUse (express, prefix, path, options) {
    let result
    try {
      const app = express()
      const router = express.Router(options)
      router.get(path, (req, res) => res.send('hit'))
      app.use(prefix, router)
      app.use((req, res) => res.status(404).send('miss'))
      const server = createServer(app)
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
      const { port } = server.address()
      const matches = []
      for (const probe of PROBES) {
        const response = await fetch(`http://127.0.0.1:${port}${probe}`)
        if ((await response.text()) === 'hit') matches.push(probe)
      }
      await new Promise((resolve) => server.close(resolve))
      result = { matches }
    } catch (error) {
      result = { error: String(error.message).split('\n')[0] }
    }
    return result
}

const output = {
  hono: { library: `hono@${version('hono')}`, cases: hono() },
  koa: Object.fromEntries(['koa-router-13', 'koa-router-15'].map((name) =>
    [`@koa/router@${version(name)}`, koa(name)])),
  fastify: {},
  express: {},
  probes: PROBES
}
for (const name of ['fastify-4', 'fastify-5']) {
  output.fastify[`fastify@${version(name)}`] = await fastify(name)
}
for (const name of ['express-4', 'express-5']) {
  output.express[`express@${version(name)}`] = await express(name)
}
process.stdout.write(JSON.stringify(output, null, 1) + '\n')
