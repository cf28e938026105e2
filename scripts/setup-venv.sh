#!/usr/bin/env bash
# Make .venv (Python 3.11+) and install the project into it, once per change of pyproject.toml or
# scripts/constraints.txt, at the versions that file pins (scripts/update-constraints.sh renews it).
# Usage: scripts/setup-venv.sh [extras]   e.g. scripts/setup-venv.sh test
# An install that already holds what the extras ask for (the 'test' extra holds the 'offline' one)
# is not redone. pip's output goes to .venv/pip.log, shown only when the install fails.
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
# one stamp per pyproject.toml and constraints, listing the extras installed from them
constraints=scripts/constraints.txt
stamp=".venv/.installed-$(cat pyproject.toml "$constraints" | sha1sum | cut -c1-12)"
satisfied() {
  # every extra asked for is one installed from this pyproject.toml, or its requirements are all
  # installed already (what 'test' installs covers 'offline' and 'postgresql')
  [ -f "$stamp" ] || return 1
  .venv/bin/python - "$stamp" "$extras" <<'EOF' 2>/dev/null
import sys, tomllib
from importlib.metadata import PackageNotFoundError, version
try:
    from packaging.requirements import Requirement
except ImportError:
    from pip._vendor.packaging.requirements import Requirement
stamp, asked = sys.argv[1], [e for e in sys.argv[2].split(",") if e]
installed = set(open(stamp).read().split())
with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
wanted = [r for e in asked if e not in installed for r in project["optional-dependencies"][e]]
for text in wanted:
    req = Requirement(text)
    try:
        if not req.specifier.contains(version(req.name), prereleases=True):
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
EOF
}
if ! satisfied; then
  echo "Installing the project and its '$extras' extra into .venv (once per change of pyproject.toml)..." >&2
  log=.venv/pip.log
  if ! { .venv/bin/python -m pip install --quiet --upgrade pip \
         && .venv/bin/python -m pip install --quiet -c "$constraints" -e ".[$extras]"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "The install failed (above, and in $log)." >&2
    exit 1
  fi
  [ -f "$stamp" ] || rm -f .venv/.installed-*  # (the stamps of an older pyproject.toml)
  tr ',' '\n' <<<"$extras" >>"$stamp"
fi
