'use strict';
// Helpers shared by record.js (Next's own functions called directly) and live.js (`next build`
// + `next start` answering real HTTP requests).

const fs = require('fs');
const path = require('path');

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys(value[key])]),
    );
  }
  return value;
}

// A case's `links` file: one `<link> -> <target>` per line, created in the copy (links are
// never committed).
function makeLinks(caseDir, projectDir) {
  const file = path.join(caseDir, 'links');
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const [link, target] = line.split(' -> ');
    const at = path.join(projectDir, link.trim());
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(target.trim(), at);
  }
}

// Concrete paths for a route: one value per dynamic segment kind, both lengths of catch-alls.
function concretePaths(route) {
  let paths = [''];
  for (const segment of route.split('/').slice(1)) {
    let options;
    if (/^\[\[\.\.\..+\]\]$/.test(segment)) options = [null, 'a', 'a/b'];
    else if (/^\[\.\.\..+\]$/.test(segment)) options = ['a', 'a/b'];
    else if (segment.includes('[')) options = [segment.replace(/\[[^\]]*\]/g, 'v1')];
    else options = [encodeURIComponent(segment)];
    paths = paths.flatMap((prefix) =>
      options.map((option) => (option === null ? prefix : `${prefix}/${option}`)),
    );
  }
  return paths.map((p) => p || '/');
}

module.exports = { concretePaths, makeLinks, sortKeys };
