'use strict';
// Records what Next.js itself decides for the tsograph routes fixtures, using
// the functions of the installed `next` package (never a re-implementation):
//
//   config      server/config.js loadConfig (the real loader; fixture configs run here, in the
//               oracle, never in tsograph)
//   folders     lib/find-pages-dir.js findPagesDir
//   routes      build/route-discovery.js discoverRoutes (+ find-page-file.js matchers)
//   probes      lib/load-custom-routes.js redirects, path-match.js / prepare-destination.js,
//               router/utils getSortedRoutes + route-regex.js / route-matcher.js, the static
//               lookup rule of server/lib/router-utils/filesystem.js (raw, then decoded path)
//   vectors     is-metadata-route.js isMetadataRouteFile, app-paths.js normalizeAppPath,
//               web/http.js HTTP_METHODS, constants.js CONFIG_FILES, config.js basePath checks
//
// Usage: node record.js [fixturesRoot] [outDir]   (after `npm ci` in this folder)
// Writes one JSON file per case plus vectors.json, keys sorted, project-relative paths only.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { createRequire } = require('module');
const { concretePaths, makeLinks, sortKeys } = require('./common');

process.env.NEXT_TELEMETRY_DISABLED = '1';
const here = __dirname;
const need = createRequire(path.join(here, 'package.json'));
const nextVersion = need('next/package.json').version;
const loadConfig = need('next/dist/server/config').default;
const { PHASE_PRODUCTION_BUILD, CONFIG_FILES } = need('next/dist/shared/lib/constants');
const { findPagesDir } = need('next/dist/lib/find-pages-dir');
const { discoverRoutes } = need('next/dist/build/route-discovery');
const { createValidFileMatcher } = need('next/dist/server/lib/find-page-file');
const { isMetadataRouteFile } = need('next/dist/lib/metadata/is-metadata-route');
const { normalizeAppPath } = need('next/dist/shared/lib/router/utils/app-paths');
const { getSortedRoutes, isDynamicRoute } = need('next/dist/shared/lib/router/utils');
const { getRouteRegex } = need('next/dist/shared/lib/router/utils/route-regex');
const { getRouteMatcher } = need('next/dist/shared/lib/router/utils/route-matcher');
const { getPathMatch } = need('next/dist/shared/lib/router/utils/path-match');
const { prepareDestination } = need('next/dist/shared/lib/router/utils/prepare-destination');
const { pathHasPrefix } = need('next/dist/shared/lib/router/utils/path-has-prefix');
const { modifyRouteRegex } = need('next/dist/lib/redirect-status');
const { isAPIRoute } = need('next/dist/lib/is-api-route');
const { HTTP_METHODS } = need('next/dist/server/web/http');
const loadCustomRoutes = need('next/dist/lib/load-custom-routes').default;
const { defaultConfig } = need('next/dist/server/config-shared');

function firstLine(error) {
  return String((error && error.message) || error).split('\n')[0];
}

async function quiet(action) {
  // loadConfig and discoverRoutes log warnings; keep stdout for nothing and stderr short.
  const log = console.log;
  const warn = console.warn;
  console.log = () => {};
  console.warn = () => {};
  try {
    return await action();
  } finally {
    console.log = log;
    console.warn = warn;
  }
}

function buildRedirects(redirects) {
  // As server/lib/router-utils/filesystem.js buildCustomRoute does for the router, keeping the
  // regular expression it builds.
  return redirects.map((item) => {
    let regex = '';
    const match = getPathMatch(item.source, {
      strict: true,
      removeUnnamedParams: true,
      sensitive: false,
      regexModifier: (source) => {
        regex = item.internal ? source : modifyRouteRegex(source, ['/_next']);
        return regex;
      },
    });
    return { item, match, regex };
  });
}

function resolver(config, files) {
  const statics = new Map();
  const dynamics = [];
  for (const [route, file] of files) {
    if (isDynamicRoute(route)) dynamics.push(route);
    else statics.set(route, file);
  }
  const sorted = getSortedRoutes(dynamics).map((route) => [
    route,
    getRouteMatcher(getRouteRegex(route)),
  ]);
  return (url) => {
    let pathname = url;
    if (config.basePath) {
      if (!pathHasPrefix(pathname, config.basePath)) return null;
      pathname = pathname.slice(config.basePath.length) || '/';
    }
    if (pathname !== '/' && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
    if (statics.has(pathname)) return statics.get(pathname);
    let decoded = pathname;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {}
    if (statics.has(decoded)) return statics.get(decoded);
    for (const [route, match] of sorted) {
      if (match(pathname)) return files.get(route);
    }
    return null;
  };
}

function outcome(url, redirects, resolve) {
  for (const { item, match } of redirects) {
    if (item.has) continue; // plain requests carry no extra headers, cookies or queries
    const params = match(url);
    if (!params) continue;
    const { parsedDestination } = prepareDestination({
      appendParamsToQuery: false,
      destination: item.destination,
      params,
      query: {},
    });
    return { redirect: parsedDestination.pathname, handler: resolve(parsedDestination.pathname) };
  }
  return { redirect: null, handler: resolve(url) };
}

function relative(projectDir, absolute) {
  return path.relative(projectDir, absolute).split(path.sep).join('/');
}

async function recordCase(caseDir) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tsograph-next-oracle-'));
  const dir = path.join(scratch, path.basename(caseDir));
  try {
    fs.cpSync(path.join(caseDir, 'project'), dir, { recursive: true, verbatimSymlinks: true });
    makeLinks(caseDir, dir);
    // Lets fixture configs import `next` and the wrappers they declare.
    fs.symlinkSync(path.join(here, 'node_modules'), path.join(dir, 'node_modules'));
    const result = { next: nextVersion };
    let config;
    try {
      config = await quiet(() => loadConfig(PHASE_PRODUCTION_BUILD, dir, { silent: true }));
    } catch (error) {
      result.configError = firstLine(error);
      return result;
    }
    result.config = {
      assetPrefix: config.assetPrefix,
      basePath: config.basePath,
      i18n: Boolean(config.i18n),
      pageExtensions: config.pageExtensions,
      skipTrailingSlashRedirect: Boolean(config.skipTrailingSlashRedirect),
      trailingSlash: Boolean(config.trailingSlash),
    };
    let dirs;
    try {
      dirs = findPagesDir(dir);
    } catch (error) {
      result.foldersError = firstLine(error);
      return result;
    }
    const appDir = dirs.appDir;
    const pagesDir = dirs.pagesDir;
    result.folders = {
      app: appDir ? relative(dir, appDir) : null,
      pages: pagesDir ? relative(dir, pagesDir) : null,
    };
    const matcher = createValidFileMatcher(config.pageExtensions, appDir);
    const found = await quiet(() =>
      discoverRoutes({
        appDir,
        pagesDir,
        pageExtensions: config.pageExtensions,
        isDev: false,
        baseDir: dir,
        isSrcDir: Boolean((appDir || pagesDir) && path.basename(path.dirname(appDir || pagesDir)) === 'src'),
        validFileMatcher: matcher,
      }),
    );
    // route -> [kind, project-relative file]
    const files = new Map();
    const routes = [];
    const add = (route, kind, file) => {
      routes.push({ file, kind, route });
      if (!files.has(route)) files.set(route, file);
    };
    for (const [page, alias] of Object.entries(found.mappedAppPages || {})) {
      if (!alias.startsWith('private-next-app-dir/')) continue; // built-in not-found/error pages
      const file = `${result.folders.app}/${alias.slice('private-next-app-dir/'.length)}`;
      const kind = matcher.isAppRouterRoute(alias)
        ? 'handler'
        : matcher.isMetadataFile(`/${alias.slice('private-next-app-dir/'.length)}`)
          ? 'metadata'
          : 'page';
      add(normalizeAppPath(page), kind, file);
    }
    for (const [page, alias] of Object.entries(found.mappedPages || {})) {
      if (!alias.startsWith('private-next-pages/')) continue; // next/dist/pages/_app and friends
      const file = `${result.folders.pages}/${alias.slice('private-next-pages/'.length)}`;
      add(page, isAPIRoute(page) ? 'api' : 'page', file);
    }
    routes.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    // A route the router's sorter rejects fails `next build`; record the error and resolve
    // the probes of the other routes as if the file were absent.
    for (const entry of routes) {
      try {
        getSortedRoutes([entry.route]);
      } catch (error) {
        entry.buildError = firstLine(error);
        if (files.get(entry.route) === entry.file) files.delete(entry.route);
      }
    }
    result.routes = routes;
    const custom = await quiet(() => loadCustomRoutes(config));
    const redirects = buildRedirects(custom.redirects);
    result.redirects = redirects.map(({ item, regex }) => ({
      destination: item.destination,
      regex,
      source: item.source,
    }));
    const resolve = resolver(config, files);
    const urls = new Set();
    const base = config.basePath;
    for (const { route, kind, buildError } of routes) {
      if (kind === 'page' || buildError) continue;
      for (const concrete of concretePaths(route)) {
        const full = base && concrete === '/' ? base : `${base}${concrete}`;
        urls.add(full);
        urls.add(full.endsWith('/') ? full.slice(0, -1) || '/' : `${full}/`);
        if (base) urls.add(concrete);
      }
    }
    for (const unknown of ['/__unknown__', '/__unknown__/deep/x/']) {
      urls.add(`${base}${unknown}`);
    }
    result.probes = [...urls].sort().map((url) => ({ url, ...outcome(url, redirects, resolve) }));
    return result;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const BASE_PATHS = ['', '/', 'docs', '/docs', '/docs/', '/a/b', '//x', '/a b', '/café', '/[x]'];
const METADATA_PATHS = [
  '/robots.txt', '/robots.ts', '/robots.js', '/a/robots.txt', '/robots.xml', '/sitemap.xml',
  '/a/sitemap.xml', '/a/sitemap.ts', '/sitemap.json', '/icon.png', '/icon1.png', '/icon12.png',
  '/icon.txt', '/a/icon.tsx', '/a/icon.svg', '/icon-abcdef.png', '/favicon.ico', '/a/favicon.ico',
  '/favicon.png', '/manifest.json', '/manifest.webmanifest', '/manifest.ts', '/a/manifest.json',
  '/apple-icon.jpg', '/apple-icon.svg', '/apple-icon2.png', '/opengraph-image.gif',
  '/blog/opengraph-image.tsx', '/twitter-image.jpeg', '/twitter-image.webp', '/(g)/robots.txt',
  '/(g)/icon.png', '/myicon.png', '/icons.png', '/robots.txt/route.ts', '/a/page.tsx',
  '/sitemap.page.ts', '/icon.mdx',
];
const APP_PATHS = [
  '/(shop)/cart/route', '/@modal/login/route', '/(.)photo/route', '/(.)/x/route', '/a/(b)/(c)/route',
  '/@children/x/route', '/%5Fx/route', '/route', '/page', '/a/page/route', '/a/route/x',
];

// Folder paths below app/ (or pages/api/) as the router's sorter sees them.
const SEGMENT_ROUTES = [
  '/[[x]]', '/[...a]/b', '/[id]/[id]', '/[.x]', '/[...x]', '/[[...x]]', '/[[...a]]/b', '/v[id]',
  '/[a]b', '/[x]/[y]', '/[]', '/[...]', '/[[...]]', '/a/[b]/[...c]', '/[x]/[[...x]]',
  '/[a-b]', '/[é]', '/[x]/[...y]/z', '/[…x]', '/[[…x]]', '/[a-b]/[ab]', '/[a_b]/[ab]', '/[[[x]]]',
  '/[a][b]', '/[]/[x]',
];

function sorterVerdict(route) {
  try {
    getSortedRoutes([route]);
    return { accepted: true, dynamic: isDynamicRoute(route), regex: getRouteRegex(route).re.source, route };
  } catch (error) {
    return { accepted: false, error: firstLine(error), route };
  }
}

async function basePathVerdict(value) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tsograph-next-base-'));
  try {
    fs.writeFileSync(
      path.join(scratch, 'next.config.js'),
      `module.exports = { basePath: ${JSON.stringify(value)} };\n`,
    );
    try {
      const config = await quiet(() => loadConfig(PHASE_PRODUCTION_BUILD, scratch, { silent: true }));
      return { accepted: true, basePath: config.basePath };
    } catch (error) {
      return { accepted: false, error: firstLine(error) };
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function vectors() {
  const basePaths = [];
  for (const value of BASE_PATHS) basePaths.push({ value, ...(await basePathVerdict(value)) });
  const extensions = defaultConfig.pageExtensions;
  return {
    basePaths,
    configFiles: CONFIG_FILES,
    defaultPageExtensions: extensions,
    httpMethods: HTTP_METHODS,
    metadata: METADATA_PATHS.map((file) => ({
      file,
      metadata: isMetadataRouteFile(file, extensions, true),
    })),
    next: nextVersion,
    normalizeAppPath: APP_PATHS.map((page) => ({ page, route: normalizeAppPath(page) })),
    segments: SEGMENT_ROUTES.map(sorterVerdict),
  };
}

async function main() {
  const fixtures = path.resolve(process.argv[2] || path.join(here, '../../fixtures/routes/next'));
  const out = path.resolve(process.argv[3] || path.join(here, 'recordings'));
  fs.mkdirSync(out, { recursive: true });
  const write = (name, value) =>
    fs.writeFileSync(path.join(out, name), `${JSON.stringify(sortKeys(value), null, 2)}\n`);
  for (const name of fs.readdirSync(fixtures).sort()) {
    const caseDir = path.join(fixtures, name);
    if (!fs.existsSync(path.join(caseDir, 'project'))) continue;
    write(`${name}.json`, await recordCase(caseDir));
  }
  write('vectors.json', await vectors());
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
