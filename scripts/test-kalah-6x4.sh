#!/usr/bin/env bash
# The long Kalah check (run by scripts/test.sh): `ply solve` of Kalah(6,4) under
# both capture rules must print the published values, +8 (seed rules) and +10
# (empty capture), pit 3 as the only best move with that exact value, and a line
# for every first move (an exact value, or a proved upper bound below the root
# value when its exact value is over PLY_KALAH_MOVE_NODES). About 50 s a rule on
# the 2-core machine once the endgame tables exist; they are cached in
# $PLY_TABLES_DIR (default ~/.cache/ply) and built the first time (20 seeds in
# play: 226 MB a rule, a few minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p ply-host
status=0
for pair in "kalah:6x4 8" "kalah:6x4:empty-capture 10"; do
  set -- $pair
  spec=$1 want=$2
  echo "== ply solve $spec (want value: $want); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  out=$(mktemp)
  start=$(date +%s%N)
  # ply's own failure shows up as missing lines below.
  ./target/release/ply solve "$spec" 2>&1 \
    | tee "$out" | grep -v '^ *[0-9.]* s \(root\|pit [0-9]*\): \(depth\|exact\)' || true
  echo "wall $(( ($(date +%s%N) - start) / 1000000 )) ms"
  for line in "value: $want" "best moves: 3" "move 3: $want"; do
    if ! grep -qx "$line" "$out"; then
      echo "FAIL: ply solve $spec did not print '$line'" >&2
      status=1
    fi
  done
  # Every first move gets a line: an exact value or an upper bound below the root's.
  for pit in 1 2 3 4 5 6; do
    if ! grep -q "^move $pit: \(-\?[0-9]*\|<= -\?[0-9]* (upper bound.*)\)$" "$out"; then
      echo "FAIL: ply solve $spec printed no value for pit $pit" >&2
      status=1
    fi
  done
  awk -v want="$want" '/^move [1-6]: <= / { if ($4 + 0 >= want + 0) { print "FAIL: bound " $0 " not below the root value"; bad = 1 } } END { exit bad }' "$out" || status=1
  rm -f "$out"
done
exit $status
