"""Route producers for Node backends (Hono, Express, Fastify, Koa, NestJS)."""
