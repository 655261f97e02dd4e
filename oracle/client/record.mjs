// Runs every join vector of vectors.json through the real axios and ky and records
// which local server received the request and the request target it saw.
// Usage (from a scratch copy with node_modules installed): node record.mjs vectors.json out.json
import http from 'node:http';
import {readFileSync, writeFileSync} from 'node:fs';
import axios from 'axios';
import ky1 from 'ky1';
import ky2 from 'ky2';

// Read from the installed folders: ky's package.json is not among its exports.
const versionOf = name =>
  JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url))).version;
const versions = {axios: versionOf('axios'), ky1: versionOf('ky1'), ky2: versionOf('ky2')};

const [vectorFile, outFile] = process.argv.slice(2);
const vectors = JSON.parse(readFileSync(vectorFile, 'utf8'));
let received = null;

function startServer(name) {
  const server = http.createServer((request, response) => {
    received = {server: name, target: request.url};
    response.setHeader('content-type', 'application/json');
    response.end('{}');
  });
  return new Promise(resolve => {
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const origin = await startServer('origin');
const other = await startServer('other');
const port = server => server.address().port;
// Placeholders keep the vectors free of the ports chosen at run time.
const values = {
  '{origin}': `http://127.0.0.1:${port(origin)}`,
  '{other}': `http://127.0.0.1:${port(other)}`,
  '{user}': `http://user:pw@127.0.0.1:${port(origin)}`,
  '{hostport}': `127.0.0.1:${port(origin)}`,
};
const fill = text => text === undefined ? undefined
  : Object.entries(values).reduce((acc, [key, value]) => acc.split(key).join(value), text);

// Ports differ per run: recorded targets name the servers by placeholder again.
const unfill = text =>
  Object.entries(values).reduce((acc, [key, value]) => acc.split(value).join(key), text);

async function send(library, vector) {
  const url = fill(vector.url);
  if (library === 'axios') {
    const options = {baseURL: fill(vector.base), timeout: 2000};
    if ('allowAbsoluteUrls' in vector) options.allowAbsoluteUrls = vector.allowAbsoluteUrls;
    await axios.get(url, options);
  } else if (library === 'ky1') {
    await ky1.get(url, {prefixUrl: fill(vector.prefixUrl), retry: 0, timeout: 2000});
  } else {
    const options = {retry: 0, timeout: 2000};
    for (const key of ['prefix', 'baseUrl', 'prefixUrl']) {
      if (key in vector) options[key] = fill(vector[key]);
    }
    await ky2.get(url, options);
  }
}

const out = {versions, vectors: []};
for (const [library, list] of Object.entries(vectors)) {
  for (const vector of list) {
    received = null;
    let error = null;
    try {
      await send(library, vector);
    } catch (caught) {
      error = caught?.name ?? 'Error';
    }
    const result = received ? {server: received.server, target: unfill(received.target)} : {error};
    out.vectors.push({library, ...vector, result});
  }
}
origin.close();
other.close();
writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
console.log(`recorded ${out.vectors.length} vectors`);
