#!/usr/bin/env bash
# Deep English-draughts perft from the start position with the table of exact counts
# (`ply perft checkers:repeat=0 D --threads N`), each count checked against the
# published counts in tests/data/checkers_perft.txt (A. Bik's, OEIS A133046). Depths
# 17 to 20 by default, or the depths given. The published counts count move paths
# with no draw rule: `repeat=0` turns off the threefold-repetition draw of ply's
# default English rules, which ends some games at depth 20 (ply perft checkers 20
# gives 74,545,030,871,209, 344 fewer; docs/games/draughts.md). Progress goes to standard error; the time, the
# table's size and its hit rate follow each count. docs/deep-perft.md (and its
# logs) has the timings and how long each depth takes.
#
#   scripts/perft-deep.sh [DEPTH...]
#   PERFT_THREADS  threads (default: every core; under PERFT_MPIRUN, a rank's)
#   PERFT_HASH_MB  table size in MiB (default: ply's choice from the depth and the
#                  free memory; under PERFT_MPIRUN, a rank's)
#   PERFT_CHECKPOINT_DIR  keep each depth's finished subtrees in DIR/perft-D.ckpt and
#                  go on from it when the script is run again (--checkpoint, --resume):
#                  for depths 21 and 22, which take hours
#   PERFT_MPIRUN   a launcher to run each count on, with its arguments, for example
#                  "mpirun -np 4 --hostfile hosts --bind-to none" (ply built with the
#                  `mpi` feature; docs/mpi.md)
#
# CI runs depths 14 to 16 (scripts/test-draughts-perft-deep.sh); these take minutes
# to tens of minutes, so they are a script of their own.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${PERFT_MPIRUN:-}" ]; then
  cargo build --release -p ply-host --bin ply --features mpi
else
  cargo build --release --bin ply
fi
depths=("$@")
[ ${#depths[@]} -eq 0 ] && depths=(17 18 19 20)
threads=${PERFT_THREADS:-$(nproc)}
status=0
for d in "${depths[@]}"; do
  expected=$(awk -v d="$d" '$1 == "english" && $2 == "paths" && $3 == d { print $4 }' \
    tests/data/checkers_perft.txt)
  args=(perft checkers:repeat=0 "$d" --threads "$threads")
  [ -n "${PERFT_HASH_MB:-}" ] && args+=(--hash-mb "$PERFT_HASH_MB")
  if [ -n "${PERFT_CHECKPOINT_DIR:-}" ]; then
    mkdir -p "$PERFT_CHECKPOINT_DIR"
    args+=(--checkpoint "$PERFT_CHECKPOINT_DIR/perft-$d.ckpt" --resume)
  fi
  launcher=()
  # shellcheck disable=SC2206 # the launcher's words, split as a shell would
  [ -n "${PERFT_MPIRUN:-}" ] && launcher=($PERFT_MPIRUN)
  echo "== ${launcher[*]} ply ${args[*]} (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  out=$("${launcher[@]}" target/release/ply "${args[@]}")
  echo "$out"
  got=${out%%$'\n'*}
  if [ -z "$expected" ]; then
    echo "perft $d: no published count to check against"
  elif [ "$got" = "$expected" ]; then
    echo "perft $d: $got, the published count"
  else
    echo "perft $d: $got, but the published count is $expected" >&2
    status=1
  fi
done
exit $status
