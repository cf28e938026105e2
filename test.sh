#!/usr/bin/env bash
# Set everything up and run the whole test suite (extra arguments go to pytest; `./test.sh -m quick`
# runs the pure and adapter tiers only, the loop while you work: docs/tests.md).
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup-venv.sh test
.venv/bin/ruff check .
# the type checker over every game and the bot
.venv/bin/mypy games bot
exec .venv/bin/python -m pytest "$@"
