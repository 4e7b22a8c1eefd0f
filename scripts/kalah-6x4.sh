#!/usr/bin/env bash
# The long Kalah check: `ply solve` of Kalah(6,4) under both capture rules must
# print the published values, +8 (seed rules) and +10 (empty capture), with every
# first move's exact value. Endgame tables are cached in $PLY_TABLES_DIR (default
# ~/.cache/ply) and built the first time (20 seeds in play: 226 MB a rule).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p ply-host
status=0
for pair in "kalah:6x4 8" "kalah:6x4:empty-capture 10"; do
  set -- $pair
  spec=$1 want=$2
  echo "== ply solve $spec (want value: $want); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  out=$(mktemp)
  /usr/bin/time -f "wall %e s, cpu %U s user" ./target/release/ply solve "$spec" 2>&1 \
    | tee "$out" | grep -v '^ *[0-9.]* s pit [0-9]*: \(depth\|exact\)' || true
  if ! grep -qx "value: $want" "$out"; then
    echo "FAIL: ply solve $spec did not print 'value: $want'" >&2
    status=1
  fi
  # Every first move's value is printed.
  if [ "$(grep -c '^move [1-6]: -\?[0-9]*$' "$out")" -ne 6 ]; then
    echo "FAIL: ply solve $spec did not print the value of all 6 first moves" >&2
    status=1
  fi
  rm -f "$out"
done
exit $status
