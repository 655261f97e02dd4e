// Records the origin Node's WHATWG URL parser gives each URL of origin-vectors.json, and,
// for URLs that name this machine, which host and port real fetch, axios and ky send to.
// Usage (from a scratch copy with node_modules installed): node origins.mjs origin-vectors.json out.json
import http from 'node:http';
import {readFileSync, writeFileSync} from 'node:fs';
import axios from 'axios';
import ky1 from 'ky1';
import ky2 from 'ky2';

const versionOf = name =>
  JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url))).version;
const versions = {node: process.versions.node, axios: versionOf('axios'), ky1: versionOf('ky1'), ky2: versionOf('ky2')};

const [vectorFile, outFile] = process.argv.slice(2);
const vectors = JSON.parse(readFileSync(vectorFile, 'utf8'));

const parse = text => {
  try {
    return {origin: new URL(text).origin};
  } catch (caught) {
    return {error: caught?.code ?? caught?.name ?? 'Error'};
  }
};

let received = null;
// '::' also accepts IPv4 connections on Linux, so 127.0.0.1, localhost and [::1] all arrive here.
const server = http.createServer((request, response) => {
  received = {host: request.headers.host, target: request.url};
  response.setHeader('content-type', 'application/json');
  response.end('{}');
});
await new Promise(resolve => server.listen(0, '::', resolve));
const port = String(server.address().port);
const fill = text => text.split('{port}').join(port);
const unfill = text => text.split(`:${port}`).join(':{port}');

const senders = {
  fetch: url => fetch(url, {signal: AbortSignal.timeout(2000)}),
  axios: url => axios.get(url, {timeout: 2000}),
  ky1: url => ky1.get(url, {retry: 0, timeout: 2000}),
  ky2: url => ky2.get(url, {retry: 0, timeout: 2000}),
};

const out = {versions, parse: vectors.parse.map(url => ({url, ...parse(url)})), send: []};
for (const url of vectors.send) {
  const parsed = parse(fill(url));
  const result = {url, ...(parsed.origin ? {origin: unfill(parsed.origin)} : parsed), libraries: {}};
  for (const [library, send] of Object.entries(senders)) {
    received = null;
    let error = null;
    try {
      await send(fill(url));
    } catch (caught) {
      error = caught?.name ?? 'Error';
    }
    result.libraries[library] = received
      ? {host: unfill(received.host), target: received.target}
      : {error};
  }
  out.send.push(result);
}
server.close();
writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
console.log(`recorded ${out.parse.length} parsed and ${out.send.length} sent vectors`);
