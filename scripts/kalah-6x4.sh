#!/usr/bin/env bash
# The long Kalah checks: Kalah(6,4) = +8 (seed rules) and +10 (empty capture) by
# the core solver test, then `ply solve` of both rules with timings (every first
# move's value; endgame tables cached in $PLY_TABLES_DIR, default ~/.cache/ply).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -p ply-core --lib -- --ignored published_6x4_values
cargo build --release -p ply-host
for spec in kalah:6x4 kalah:6x4:empty-capture; do
  echo "== ply solve $spec"
  /usr/bin/time -f "wall %e s, cpu %U s user" ./target/release/ply solve "$spec" 2>&1 \
    | grep -v '^ *[0-9.]* s pit [0-9]*: \(depth\|exact\)'
done
