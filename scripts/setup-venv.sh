#!/usr/bin/env bash
# Make .venv (Python 3.11+) and install the project into it, once per change of pyproject.toml.
# Usage: scripts/setup-venv.sh [extras]   e.g. scripts/setup-venv.sh test
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-offline}"
python="${PYTHON:-}"
if [ -z "$python" ]; then
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      python="$candidate"; break
    fi
  done
fi
if [ -z "$python" ]; then echo "Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)." >&2; exit 2; fi
[ -x .venv/bin/python ] || "$python" -m venv .venv
stamp=".venv/.installed-$extras-$(sha1sum pyproject.toml | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[$extras]"
  touch "$stamp"
fi
