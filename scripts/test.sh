#!/usr/bin/env bash
# The one test command (README and .ci/run): installs what the tests need, then lints, type-checks and tests.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,build]'

# anvil (the EVM node for tests and --devnet) ships as a binary inside the npm package; the protocols'
# contract artifacts come from theirs. Install when any package.json devDependency is missing.
if ! node -e 'const p = require("./package.json");
  for (const name of Object.keys(p.devDependencies)) require.resolve(name + "/package.json");' 2>/dev/null; then
  npm install --no-audit --no-fund --silent >/dev/null
  # The lock carries every platform's packages (tests/docs/test_package_lock.py), so the install leaves it
  # as committed; in CI a rewritten lock fails here, where a newcomer's clone would have been left dirty.
  if [ "${CI:-}" = "true" ] && ! git diff --quiet -- package-lock.json; then
    echo "npm install rewrote package-lock.json:" >&2
    git diff --stat -- package-lock.json >&2
    exit 1
  fi
fi

# Headless Chromium for the dashboard test (Debian's packages; Playwright drives /usr/bin/chromium and
# downloads no browser of its own).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# PostgreSQL for the storage suite: start the local cluster if it is not answering.
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  fi
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
# One worker per core: each test makes its own store, ports and schema, so they run side by side.
.venv/bin/python -m pytest -n auto "$@"
