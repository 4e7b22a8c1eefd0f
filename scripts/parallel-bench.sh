#!/usr/bin/env bash
# Runs `ply bench` on every workload of benches/data/parallel/workloads.txt whose game
# this `ply` knows, writing each table to docs/parallel/NAME.md and its speedup plot to
# docs/parallel/NAME.svg, then a depth sweep on Kalah 6x4 (the Mancala parallelization report's speedup against
# depth) to docs/parallel/kalah6x4-depths.md.
#
#   scripts/parallel-bench.sh                 all workloads, threads 1,2, 5 runs
#   THREADS=1,2,4,8,16 RUNS=3 scripts/parallel-bench.sh
#   scripts/parallel-bench.sh kalah6x4-start  only these workloads (kalah6x4-depths:
#                                             the depth sweep)
#   RUNS=15 scripts/parallel-bench.sh halma8-middle   millisecond workloads want more runs
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
threads="${THREADS:-1,2}"
runs="${RUNS:-5}"
cd "$root"
out=docs/parallel
mkdir -p "$out"
(cd "$root" && cargo build --release --locked -p ply-host --bin ply)
ply="$root/target/release/ply"

source "$root/scripts/workloads.sh"

bench_one() {
    local name="$1" spec="$2" eval="$3" depth="$4" algos="$5" position="${6:-}"
    local args=(bench "$spec" --depth "$depth" --algo "$algos" --threads "$threads"
        --runs "$runs" --plot "$out/$name.svg")
    [[ -n "$eval" ]] && args+=(--eval "$eval")
    [[ -n "$position" ]] && args+=(--position "$position")
    echo "== $name: ply ${args[*]}"
    if ! "$ply" "${args[@]}" >"$out/$name.md.tmp" 2>"$out/$name.err"; then
        echo "   skipped: $(cat "$out/$name.err")"
        rm -f "$out/$name.md.tmp" "$out/$name.err"
        return 0
    fi
    rm -f "$out/$name.err"
    {
        echo "Load average before the run: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores."
        echo
        echo '```'
        echo "ply ${args[*]}"
        echo '```'
        echo
        cat "$out/$name.md.tmp"
    } >"$out/$name.md"
    rm -f "$out/$name.md.tmp"
    cat "$out/$name.md"
}
each_workload "$root/benches/data/parallel/workloads.txt" bench_one "$@"

if (($# == 0)) || [[ " $* " == *" kalah6x4-depths "* ]]; then
    sweep="$out/kalah6x4-depths.md"
    echo "== Kalah 6x4 depth sweep"
    {
        echo "Load average before the run: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores."
        echo
        echo "Made by \`THREADS=$threads RUNS=$runs scripts/parallel-bench.sh kalah6x4-depths\`."
        echo
    } >"$sweep"
    for d in 9 11 13 15; do
        "$ply" bench kalah:6x4 --eval store --depth "$d" --algo alphabeta,ybwc,abdada \
            --threads "$threads" --runs "$runs" | tee -a "$sweep"
        echo >>"$sweep"
    done
fi
