#!/usr/bin/env bash
# ply's whole test suite, from a fresh clone: set-up, format, lints, every test,
# snapshot checks and the no_std builds for Cortex-M4.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (host workspace, all targets, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo doc (ply-core, ply-host; broken links and ambiguities are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p ply-core -p ply-host

echo "== ply-core for thumbv7em-none-eabihf (no allocator), with and without defmt"
cargo build -p ply-core --target thumbv7em-none-eabihf
cargo build -p ply-core --target thumbv7em-none-eabihf --features defmt

echo "== tests (snapshots must match: INSTA_UPDATE=no)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
INSTA_UPDATE=no cargo test --workspace 2>&1 | tee "$log"

leftover=$(find . -name '*.snap.new' -not -path './target/*')
if [ -n "$leftover" ]; then
  echo "unreviewed snapshot files: $leftover" >&2
  exit 1
fi

for s in scripts/test-*.sh; do
  [ -e "$s" ] || continue
  echo "== $s"
  bash "$s"
done
# One closing line for the whole suite, summed over every test binary.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
