#!/usr/bin/env bash
# The import-layer contract (pyproject.toml, [tool.importlinter]) over the installed `trident.*` names. The packages
# live in top-level folders mapped to `trident.*` at install time, so a tree of links under build/ gives
# import-linter (and mypy, see `make lint`) the package as it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
TREE=build/linked
rm -rf "$TREE" && mkdir -p "$TREE/trident"
for package in server tools retrieval evaluation embedding store host ingest cli; do
    ln -s "$PWD/$package" "$TREE/trident/$package"
done
cd "$TREE" && PYTHONPATH="$PWD" "../../$VENV/bin/lint-imports" ../../pyproject.toml --no-cache
