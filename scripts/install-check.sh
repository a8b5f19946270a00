#!/usr/bin/env bash
# Run the README's install section as written: the ```bash block after the `<!-- install-check -->` marker, in a
# fresh clone of this repository's HEAD, with a throwaway HOME (so nothing installed here is used), then check that
# the `trident` it installed answers `--version` and `client-config`.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

block="$(awk '/<!-- install-check -->/{found=1; next} found && /^```bash/{inside=1; next} inside && /^```/{exit} inside{print}' "$ROOT/README.md")"
if [ -z "$block" ]; then
  echo "install-check: no \`\`\`bash block after <!-- install-check --> in README.md" >&2
  exit 1
fi
git clone --quiet "$ROOT" "$WORK/trident"
mkdir -p "$WORK/home"
echo "install-check: running, in a fresh clone with HOME=$WORK/home:" >&2
echo "$block" >&2
(cd "$WORK/trident" && HOME="$WORK/home" PATH="$WORK/home/.local/bin:$PATH" bash -euo pipefail -c "$block")
trident="$(cd "$WORK/trident" && HOME="$WORK/home" PATH="$WORK/home/.local/bin:$PATH" bash -c 'command -v trident')"
case "$trident" in
  "$WORK"/*) ;;
  *) echo "install-check: the README's commands left no trident of their own on PATH (found: $trident)" >&2; exit 1 ;;
esac
expected="trident $(cd "$ROOT" && sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)"
got="$(HOME="$WORK/home" "$trident" --version)"
[ "$got" = "$expected" ] || { echo "install-check: --version printed '$got', expected '$expected'" >&2; exit 1; }
HOME="$WORK/home" "$trident" client-config | grep -q "\"command\": \"$WORK/" \
  || { echo "install-check: client-config does not name the trident just installed" >&2; exit 1; }
echo "install-check: passed ($got at $trident)" >&2
