#!/usr/bin/env bash
# The cost of a probe of the draughts endgame databases, compressed and plain
# (docs/games/draughts-databases.md, "Compressed files"): for each tables
# directory given, the criterion bench `draughts_db` (probes per second of a
# cached block and of random positions), then the engine's nodes per second at a
# fixed depth on endgame positions with the databases (`--eval learned-db`) and
# without (`--eval learned`).
#
#   scripts/draughts-db-probe.sh DIR...     each DIR a tables directory (holding checkers-db/)
#
# Environment: DEPTH (default 20), NICE (default 10), PLY (a ply binary instead of
# building this checkout's).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: scripts/draughts-db-probe.sh TABLES_DIR..." >&2; exit 2; }
for d in "$@"; do
  [ -d "$d/checkers-db" ] || { echo "draughts-db-probe.sh: $d has no checkers-db/" >&2; exit 2; }
done
depth="${DEPTH:-20}"
nice_level="${NICE:-10}"
if [ -z "${PLY:-}" ]; then
  cargo build --release -q -p ply-host --manifest-path "$root/Cargo.toml"
  PLY="$root/target/release/ply"
fi
# Endings of 10 pieces: the search reaches the databases after four captures.
positions=(
  "W:W18,22,25,27,K30:B5,6,11,13,K1"
  "B:W17,21,22,23,26:B9,10,11,12,K3"
)
for d in "$@"; do
  echo "== $d: $(ls "$d/checkers-db" | grep -c '\.v3\.cdb$') compressed files, $(ls "$d/checkers-db" | grep -c '\.v2\.cdb$') plain, $(du -sbL "$d/checkers-db" | awk '{print $1}') bytes"
  PLY_TABLES_DIR="$d" nice -n "$nice_level" cargo bench -q -p ply-benches --bench draughts_db \
    --manifest-path "$root/Cargo.toml" 2>&1 | grep -E 'draughts_db|time:|thrpt:' | grep -v '%' || true
  for p in "${positions[@]}"; do
    for eval in learned-db learned; do
      out="$(PLY_TABLES_DIR="$d" nice -n "$nice_level" "$PLY" search checkers --position "$p" \
        --depth "$depth" --eval "$eval" 2>&1)"
      printf '%-32s %-11s %s\n' "$p" "$eval" \
        "$(echo "$out" | grep -E '^(best move|nodes|time|nodes/s):' | tr '\n' ' ')"
    done
  done
done
