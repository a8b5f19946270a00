#!/usr/bin/env bash
# mypy over the installed `trident.*` names (the link tree scripts/check-imports.sh builds), with the settings of
# pyproject.toml: imports between packages are followed, not taken as Any.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
ROOT=$PWD
TREE=build/linked
if [ ! -d "$TREE/trident" ]; then
    mkdir -p "$TREE/trident"
    for package in server tools retrieval evaluation embedding store host ingest cli; do
        ln -s "$ROOT/$package" "$TREE/trident/$package"
    done
fi
cd "$TREE" && MYPYPATH="$PWD" "$ROOT/$VENV/bin/mypy" --config-file "$ROOT/pyproject.toml" -p trident
