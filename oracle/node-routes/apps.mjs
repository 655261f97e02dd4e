// How the oracle loads each fixture's apps with the real framework: which export, and how
// requests reach it (an ephemeral 127.0.0.1 port, Hono's app.request, Fastify's inject).
// `group` is the order group the facts name (the app's `<file>#<variable>`); facts without
// an order go to the first app of their fixture.
// A NestJS app whose src/main.ts exports bootstrap(), started on an ephemeral port.
const NEST_APP = [
  {
    group: '*',
    transport: 'nest',
    load: async (m) => {
      process.env.NODE_ROUTES_ORACLE = '1';
      process.env.PORT = '0';
      process.env.HOST = '127.0.0.1';
      const app = await (await m('src/main.ts')).bootstrap();
      // NestJS 7's listen() returns before the server listens (listenAsync waits).
      const server = app.getHttpServer();
      if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
      return app;
    },
  },
];

export const APPS = {
  'express4-app': [
    { group: 'src/app.js#app', transport: 'http', load: async (m) => (await m('src/app.js')).default },
  ],
  'express-promise-callbacks': [
    { group: 'src/app.js#app', transport: 'http', load: async (m) => (await m('src/app.js')).default.app },
    {
      group: 'src/app.js#server',
      transport: 'http',
      load: async (m) => await (await m('src/app.js')).default.started,
    },
  ],
  'express5-app': [
    { group: 'src/app.ts#app', transport: 'http', load: async (m) => (await m('src/app.ts')).app },
  ],
  'hono-app': [
    { group: 'src/index.ts#app', transport: 'fetch', load: async (m) => (await m('src/index.ts')).default },
    { group: 'src/loose.ts#loose', transport: 'fetch', load: async (m) => (await m('src/loose.ts')).loose },
  ],
  'koa-app': [
    { group: 'src/app.js#app', transport: 'http', load: async (m) => (await m('src/app.js')).default },
  ],
  'koa13-app': [
    { group: 'src/app.js#app', transport: 'http', load: async (m) => (await m('src/app.js')).default },
  ],
  'fastify4-app': [
    {
      group: 'src/server.js#app',
      transport: 'inject',
      load: async (m) => (await m('src/server.js')).default.build(),
    },
  ],
  'fastify5-app': [
    {
      group: 'src/server.ts#app',
      transport: 'inject',
      load: async (m) => (await m('src/server.ts')).buildServer(),
    },
  ],
  'nest-app': NEST_APP,
  // The same app on NestJS 9 and 8 (Express 4 underneath, as NestJS 10).
  'nest9-app': NEST_APP,
  'nest8-app': NEST_APP,
  // NestJS 7: the app without what NestJS 8 added (versioning, RouterModule, exclude).
  'nest7-app': NEST_APP,
};
