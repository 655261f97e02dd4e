#!/bin/sh
# Record conformance/client-url-joins.json and client-url-origins.json with the real libraries.
# Usage: oracle/client/run.sh [scratch-folder]   (default /tmp/scratch-client-oracle, outside git)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
scratch=${1:-/tmp/scratch-client-oracle}
mkdir -p "$scratch"
cp "$here/package.json" "$here/record.mjs" "$here/vectors.json" "$here/origins.mjs" "$here/origin-vectors.json" "$scratch/"
if [ -f "$here/package-lock.json" ]; then cp "$here/package-lock.json" "$scratch/"; fi
cd "$scratch"
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
cp -n package-lock.json "$here/package-lock.json" 2>/dev/null || true
node record.mjs vectors.json "$here/../../conformance/client-url-joins.json"
node origins.mjs origin-vectors.json "$here/../../conformance/client-url-origins.json"
