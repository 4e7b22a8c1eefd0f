#!/usr/bin/env bash
# The crates stay publishable: `cargo publish --dry-run` packages ply-core and ply-host
# (ply-host against the packaged ply-core) and builds each from its package alone.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== cargo publish --dry-run -p ply-core -p ply-host"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cargo publish --dry-run --allow-dirty -p ply-core -p ply-host >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
grep -E '^ *(Packaged|Verifying)' "$log"
