#!/usr/bin/env bash
# Build one self-contained executable, dist/intentgate, with PyInstaller (scripts/intentgate.spec).
#   bash scripts/build-binary.sh              # into dist/
#   DISTPATH=/elsewhere bash scripts/build-binary.sh
# Needs the project installed with its build extra: .venv/bin/pip install -e '.[build]'
# The binary runs on Linux machines of the same architecture with a glibc at least as new as this one's.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-.venv/bin/python}
DISTPATH=${DISTPATH:-dist}
WORKPATH=${WORKPATH:-build/pyinstaller}

"$PY" -m PyInstaller --version >/dev/null 2>&1 || {
  echo "PyInstaller is not installed: $PY -m pip install -e '.[build]'" >&2
  exit 2
}
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$DISTPATH" --workpath "$WORKPATH" scripts/intentgate.spec
echo "built $DISTPATH/intentgate"
