#!/usr/bin/env bash
# Drive `trident serve` with the MCP Inspector's CLI mode, an independent client from the npm registry:
# list the tools, then call search on the auth sample project and check the cited answer.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
INSPECTOR_VERSION=0.15.0
INSPECTOR_DIR=${INSPECTOR_DIR:-$HOME/.cache/trident/inspector-$INSPECTOR_VERSION}
# Installing from the npm registry takes a minute at most here; a stalled registry ends the check, saying so.
INSTALL_SECONDS=${INSTALL_SECONDS:-600}
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "inspector-check: Node.js and npm are needed (the MCP Inspector comes from the npm registry);" \
    "install them (e.g. apt-get install nodejs npm) and run make test again" >&2
  exit 1
fi
if [ ! -x "$INSPECTOR_DIR/node_modules/.bin/mcp-inspector" ]; then
  mkdir -p "$INSPECTOR_DIR"
  if ! timeout "$INSTALL_SECONDS" npm install --prefix "$INSPECTOR_DIR" --no-audit --no-fund --silent \
    "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2; then
    echo "inspector-check: installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION from the npm registry" \
      "failed or took over ${INSTALL_SECONDS}s; check the registry is reachable (npm ping) and run make test again" >&2
    rm -rf "$INSPECTOR_DIR"
    exit 1
  fi
fi
INSPECTOR="$INSPECTOR_DIR/node_modules/.bin/mcp-inspector"
HOME_DIR=$(mktemp -d)
trap 'rm -rf "$HOME_DIR"' EXIT
TRIDENT_HOME=$HOME_DIR "$VENV/bin/trident" index examples/auth 2>/dev/null
export TRIDENT_HOME=$HOME_DIR
"$INSPECTOR" --cli "$VENV/bin/trident" serve --method tools/list >"$HOME_DIR/tools.json"
"$INSPECTOR" --cli "$VENV/bin/trident" serve --method tools/call --tool-name search \
  --tool-arg query="verify a token" --tool-arg top_k=1 >"$HOME_DIR/search.json"
# A bad argument is a tool result with isError (MCP 2025-11-25), which the Inspector prints like any result: one
# bad call per read tool, each line "tool what-the-message-names key=value...".
BAD_CALLS=(
  "search top_k query=token top_k=0"
  "trace_relationships max_hops entity=TokenVerifier max_hops=0"
  "explain_path max_paths source=TokenVerifier target=RotatingKeyStore max_paths=0"
  "find_similar top_k text=token top_k=0"
  "get_entity NoSuchThing name_or_id=NoSuchThing"
  "status offset offset=-1"
)
for call in "${BAD_CALLS[@]}"; do
  read -r tool named pairs <<<"$call"
  args=()
  for pair in $pairs; do args+=(--tool-arg "$pair"); done
  "$INSPECTOR" --cli "$VENV/bin/trident" serve --method tools/call --tool-name "$tool" "${args[@]}" \
    >"$HOME_DIR/bad-$tool.json"
  echo "$tool $named" >>"$HOME_DIR/bad-calls.txt"
done
"$VENV/bin/python" - "$HOME_DIR" <<'PY'
import json, sys
from pathlib import Path

home = Path(sys.argv[1])
tools = {t["name"] for t in json.loads((home / "tools.json").read_text())["tools"]}
expected = {"search", "trace_relationships", "explain_path", "find_similar", "get_entity", "status"}
assert expected <= tools, f"missing tools: {expected - tools}"
hit = json.loads((home / "search.json").read_text())["structuredContent"]["hits"][0]
assert hit["citation"].startswith("auth/internal/tokens/verifier.go:L"), hit
calls = [line.split() for line in (home / "bad-calls.txt").read_text().splitlines()]
for tool, named in calls:
    bad = json.loads((home / f"bad-{tool}.json").read_text())
    assert bad.get("isError") is True and named in bad["content"][0]["text"], (tool, bad)
print(f"inspector: {len(tools)} tools listed; search -> {hit['citation']}; "
      f"a bad argument to each of {len(calls)} tools -> isError naming it")
PY
