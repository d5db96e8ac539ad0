#!/usr/bin/env bash
# Runs a command with a recent enough Node first on PATH. Where the machine's Node is older, Node 24 is
# installed once from the npm registry into .tools/node24 (no other download source is needed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# 22.22 is the oldest Node that strips TypeScript types by default and that react-router accepts.
recent_enough=$(node -p 'const [a, b] = process.versions.node.split(".").map(Number); a >= 24 || (a === 22 && b >= 22) ? 1 : 0' 2>/dev/null || echo 0)
if [ "$recent_enough" != 1 ]; then
  node24="$root/.tools/node24/node_modules/.bin"
  if [ ! -x "$node24/node" ]; then
    echo "Node $(node -v 2>/dev/null || echo missing) is too old (need 22.22+ or 24+): installing Node 24 into .tools/node24" >&2
    npm install --prefix "$root/.tools/node24" --no-save --no-audit --no-fund node@24 >&2
  fi
  export PATH="$node24:$PATH"
fi
exec "$@"
