#!/usr/bin/env bash
# Deep English-draughts perft with the table, ply beside a yardstick of the same
# design over the tight C++ reference generator (scripts/yardstick/perft-table.cpp,
# which includes shared/peers/checkers-tight/tight.cpp, kept outside the repository).
# Both count from the start position on the same threads and the same table size, in
# turns, ROUNDS times; each count is checked against the published one
# (tests/data/checkers_perft.txt). Prints wall time, user and system CPU of each run.
# docs/deep-perft.md and its logs have the figures it gave.
#
#   scripts/perft-yardstick.sh [DEPTH...]     (default: 17 18)
#   THREADS   threads of both (default 2)
#   TABLE_MB  table size of both in MiB (default: 1024 up to depth 17, 2048 above)
#   ROUNDS    rounds (default 1)
#   PEERS     the folder holding checkers-tight/tight.cpp (default: shared/peers next
#             to the repository or to its worktree folder)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
peers="${PEERS:-}"
if [ -z "$peers" ]; then
    for p in "$root/../shared/peers" "$root/../../shared/peers"; do
        [ -f "$p/checkers-tight/tight.cpp" ] && peers="$p" && break
    done
fi
if [ -z "$peers" ] || [ ! -f "$peers/checkers-tight/tight.cpp" ]; then
    echo "perft-yardstick: checkers-tight/tight.cpp not found (set PEERS to the folder holding it)" >&2
    exit 1
fi
command -v g++ >/dev/null || { echo "perft-yardstick: g++ not found" >&2; exit 1; }
cargo build --release --bin ply
mkdir -p target/yardstick
g++ -O3 -march=native -std=c++17 -pthread -I "$peers/checkers-tight" \
    -o target/yardstick/perft-table scripts/yardstick/perft-table.cpp
depths=("$@")
[ ${#depths[@]} -eq 0 ] && depths=(17 18)
threads=${THREADS:-2}
rounds=${ROUNDS:-1}
status=0
check() { # name depth expected output-file
    local got
    got=$(grep -m1 -E '^[0-9]+$' "$4" || true)
    if [ "$got" != "$3" ]; then
        echo "$1 perft $2: counted $got, published $3" >&2
        status=1
    fi
}
for d in "${depths[@]}"; do
    expected=$(awk -v d="$d" '$1 == "english" && $2 == "paths" && $3 == d { print $4 }' \
        tests/data/checkers_perft.txt)
    mb=${TABLE_MB:-$([ "$d" -le 17 ] && echo 1024 || echo 2048)}
    for r in $(seq "$rounds"); do
        out=$(mktemp)
        /usr/bin/time -f "ply   perft $d, $threads threads, $mb MiB: wall %e s, user %U s, sys %S s" \
            target/release/ply perft checkers:repeat=0 "$d" --threads "$threads" --hash-mb "$mb" \
            >"$out" 2> >(grep -v '^perft:' >&2)
        wait
        check ply "$d" "$expected" "$out"
        grep -E '^table:' "$out" || true
        TABLE_MB=$mb THREADS=$threads /usr/bin/time \
            -f "yardstick perft $d, $threads threads, $mb MiB: wall %e s, user %U s, sys %S s" \
            target/yardstick/perft-table "$d" >"$out"
        check yardstick "$d" "$expected" "$out"
        grep -E '^perft-table:' "$out"
        rm -f "$out"
    done
done
exit $status
