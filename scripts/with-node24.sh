#!/usr/bin/env bash
# Runs a command with Node >= 22 first on PATH. Where the machine's Node is older, Node 24 is
# installed once from the npm registry into .tools/node24 (no other download source is needed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 22 ]; then
  node24="$root/.tools/node24/node_modules/.bin"
  if [ ! -x "$node24/node" ]; then
    echo "Node $(node -v 2>/dev/null || echo missing) is older than 22: installing Node 24 into .tools/node24" >&2
    npm install --prefix "$root/.tools/node24" --no-save --no-audit --no-fund node@24 >&2
  fi
  export PATH="$node24:$PATH"
fi
exec "$@"
