#!/usr/bin/env bash
# The crates stay publishable: `cargo publish --dry-run` packages ply-core and ply-host
# (ply-host against the packaged ply-core) and builds each from its package alone.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== cargo publish --dry-run -p ply-core -p ply-host"
# Cargo verifies ply-host against the packaged ply-core, which it sees as a crate of a
# local registry in target/package. A crate of a registry never changes, so cargo
# reuses what it has of an earlier commit's ply-core: the package extracted under
# $CARGO_HOME/registry/src/-<hash>/ (the local registries' directories start with
# '-') and the build of it in the target directory. Both go first, and the check
# builds in a target directory of its own.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/ply-core-* \
  "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/ply-host-*
export CARGO_TARGET_DIR=target/publish-check
cargo clean -q -p ply-core -p ply-host
rm -rf "$CARGO_TARGET_DIR/package"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cargo publish --dry-run --allow-dirty -p ply-core -p ply-host >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
grep -E '^ *(Packaged|Verifying)' "$log"
