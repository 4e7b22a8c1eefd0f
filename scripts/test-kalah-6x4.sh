#!/usr/bin/env bash
# The long Kalah check (run by scripts/test.sh): `ply solve` of Kalah(6,4) under
# both capture rules must print the published root values, +8 (seed rules) and
# +10 (empty capture), pit 3 as the only best move, and the exact value of every
# first move (ply's own results, the same from one solver thread and from two;
# docs/games/kalah/solve.md). About 35-55 s a rule on the 2-core machine once the
# endgame tables exist; they are cached in $PLY_TABLES_DIR (default
# ~/.cache/ply) and built the first time (20 seeds in play: 226 MB a rule, about
# 30 s each on two cores).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p ply-host
status=0
for rule in "kalah:6x4|8|-14 -10 8 -2 -8 4" "kalah:6x4:empty-capture|10|-14 -8 10 -2 -6 4"; do
  IFS='|' read -r spec want moves <<<"$rule"
  echo "== ply solve $spec (want value: $want, moves: $moves); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  out=$(mktemp)
  start=$(date +%s%N)
  # ply's own failure shows up as missing lines below.
  ./target/release/ply solve "$spec" 2>&1 \
    | tee "$out" | grep -v '^ *[0-9.]* s \(\(root\|pit [0-9]*\|first guesses\): \(depth\|exact\)\|proved:\)' || true
  echo "wall $(( ($(date +%s%N) - start) / 1000000 )) ms"
  expect=("value: $want" "best moves: 3")
  pit=1
  for v in $moves; do
    expect+=("move $pit: $v")
    pit=$((pit + 1))
  done
  for line in "${expect[@]}"; do
    if ! grep -qx -- "$line" "$out"; then
      echo "FAIL: ply solve $spec did not print '$line'" >&2
      status=1
    fi
  done
  if grep -q 'upper bound' "$out"; then
    echo "FAIL: ply solve $spec left a move's value as a bound" >&2
    status=1
  fi
  rm -f "$out"
done
exit $status
