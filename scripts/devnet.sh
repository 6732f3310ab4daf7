#!/usr/bin/env bash
# The README's first command: the whole service on the offline devnet (local chains running the protocols'
# real contracts, a local market feed), with nothing to configure. On the first run it installs what that
# needs: the Python packages into .venv, and anvil with the protocols' contract artifacts from npm.
# Arguments go to `intentgate serve --devnet` (for example --port 0); the store lives in .devnet/.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# Installed once per version of pyproject.toml (its dependencies), so a pull that changes them reinstalls.
STAMP=".venv/.intentgate-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -x .venv/bin/intentgate ] || [ ! -e "$STAMP" ]; then
  echo "installing intentgate into .venv (once)" >&2
  .venv/bin/python -m pip install -q --disable-pip-version-check -e . >&2
  touch "$STAMP"
fi

# anvil ships as a binary inside an npm package; the protocols' contracts come from theirs.
if ! node -e 'const p = require("./package.json");
  for (const name of Object.keys(p.devDependencies)) require.resolve(name + "/package.json");' 2>/dev/null; then
  command -v npm >/dev/null 2>&1 || { echo "intentgate: the devnet needs Node.js with npm (for anvil)" >&2; exit 2; }
  echo "installing anvil and the protocols' contracts from npm (once)" >&2
  npm install --no-audit --no-fund --silent >/dev/null
fi

exec .venv/bin/intentgate serve --devnet --data-dir .devnet "$@"
