#!/usr/bin/env bash
# Set everything up and run the bot. With no DISCORD_TOKEN it says what to do;
# ./run.sh --offline plays in your browser with no Discord account.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup-venv.sh offline
exec .venv/bin/python -m bot "$@"
