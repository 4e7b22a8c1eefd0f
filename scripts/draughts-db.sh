#!/usr/bin/env bash
# The draughts endgame databases built and checked whole, with their rates
# (docs/games/draughts-databases.md, "Rates"): for each N in PIECES, in one
# directory, `ply db build checkers --pieces N` (the slices of N pieces only: the
# smaller ones are on disk from the step before), timed by /usr/bin/time, then
# `--verify` (every position against its children). Prints for each N the wall
# and CPU seconds of the build, the positions built, positions per CPU second,
# the largest memory, and the bytes on disk.
#
#   scripts/draughts-db.sh                  up to 5 pieces (about a CPU minute)
#   PIECES="4 5 6" scripts/draughts-db.sh   up to 6: 467 MB of disk, 2.7 GB of memory, about 15 CPU minutes
#   RANKS=2 THREADS=1 scripts/draughts-db.sh  each build under mpirun -np 2, a thread a rank
#
# Environment: PIECES (default "4 5"), TABLES (default a new temporary directory,
# removed at the end; given, it is kept and a build goes on from what it holds),
# NICE (default 10: the machine may be shared), PLY (a ply binary instead of
# building this checkout's; with RANKS, one built with the mpi feature), RANKS (run
# each build as a job of pairs of slices on that many ranks of mpirun, the CPU
# seconds those of all ranks; the --verify pass stays one process), THREADS
# (--threads of each build; default every core, shared among the ranks), VERIFY
# (default 1; 0 leaves out the --verify pass).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pieces="${PIECES:-4 5}"
nice_level="${NICE:-10}"
ranks="${RANKS:-}"
if [ -z "${PLY:-}" ]; then
  if [ -n "$ranks" ]; then
    cargo build --release -q -p ply-host --features mpi --manifest-path "$root/Cargo.toml"
  else
    cargo build --release -q -p ply-host --manifest-path "$root/Cargo.toml"
  fi
  PLY="$root/target/release/ply"
fi
launch=()
if [ -n "$ranks" ]; then
  command -v mpirun >/dev/null || { echo "draughts-db.sh: RANKS needs mpirun (scripts/setup-mpi.sh)" >&2; exit 1; }
  launch=(mpirun -np "$ranks" --oversubscribe --bind-to none)
fi
threads=()
if [ -n "${THREADS:-}" ]; then
  threads=(--threads "$THREADS")
fi
if [ -z "${TABLES:-}" ]; then
  TABLES="$(mktemp -d)"
  trap 'rm -rf "$TABLES"' EXIT
fi
command -v /usr/bin/time >/dev/null || { echo "draughts-db.sh: needs /usr/bin/time (GNU time)" >&2; exit 1; }
export PLY_TABLES_DIR="$TABLES"

printf '%-6s %10s %10s %14s %16s %10s %14s\n' pieces wall_s cpu_s built positions/cpu_s max_rss_MB disk_bytes
for n in $pieces; do
  log="$(mktemp)"
  /usr/bin/time -v nice -n "$nice_level" "${launch[@]}" "$PLY" db build checkers --pieces "$n" "${threads[@]}" >"$log" 2>&1 || {
    cat "$log" >&2; exit 1; }
  wall=$(grep 'Elapsed (wall clock)' "$log" | awk -F': ' '{print $2}' |
    awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u + s}' "$log")
  rss=$(awk -F': ' '/Maximum resident/ {print int($2 / 1024)}' "$log")
  built=$(grep -oE 'built now: [0-9]+' "$log" | awk '{print $3}')
  built=${built:-0}
  rate=$(awk -v b="$built" -v c="$cpu" 'BEGIN { if (c > 0) printf "%d", b / c; else print 0 }')
  disk=$(du -sb "$TABLES/checkers-db" | awk '{print $1}')
  printf '%-6s %10s %10s %14s %16s %10s %14s\n' "$n" "$wall" "$cpu" "$built" "$rate" "$rss" "$disk"
  # Under mpirun: rank 0's line a rank (items, busy seconds, positions built).
  [ -z "$ranks" ] || grep -E '^rank [0-9]+ on ' "$log" | sed 's/^/  /' || true
  rm -f "$log"
done
[ "${VERIFY:-1}" = 0 ] && exit 0
last="${pieces##* }"
nice -n "$nice_level" "$PLY" db build checkers --pieces "$last" --verify | grep -E '^(verified|[0-9]+ pieces:)'
