#!/usr/bin/env bash
# Write scripts/constraints.txt anew: every package the project and all its extras install, at the
# newest versions pyproject.toml allows, as one fresh virtual environment resolves them today.
# Run it to take newer releases (then run ./test.sh and commit both files); scripts/setup-venv.sh
# installs from the file, so a clone next month gets what CI tested.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
venv="$(mktemp -d)/venv"
trap 'rm -rf "$(dirname "$venv")"' EXIT
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -e ".[test,postgresql,offline]"  # (editable: no build/ left in the tree)
{
  echo "# Every package the project and its extras install, pinned (scripts/update-constraints.sh writes it)."
  "$venv/bin/python" -m pip freeze --exclude-editable | grep -v '^storyteller-bot[ =@]'
} > scripts/constraints.txt
echo "scripts/constraints.txt: $(grep -vc '^#' scripts/constraints.txt) packages"
