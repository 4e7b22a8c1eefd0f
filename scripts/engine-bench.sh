#!/usr/bin/env bash
# Time to depth of the shared-table engine: `ply bench` of `engine`, `lazysmp` and
# `abdada` at each thread count on every workload of benches/data/engine/workloads.txt,
# speedups over `lazysmp` at 1 thread (the engine in exact mode over the shared
# table; alpha-beta would take hours at these depths), the `scaling` column being each
# strategy's time at 1 thread over its time at N. Each table goes to
# docs/engine/NAME.md with its command and the load average at its top.
#
#   scripts/engine-bench.sh                          every workload, threads 1,2, 5 runs
#   THREADS=1,2,4,8,16 RUNS=3 scripts/engine-bench.sh  on a machine with more cores
#   scripts/engine-bench.sh kalah6x4-start           only these workloads
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
threads="${THREADS:-1,2}"
runs="${RUNS:-5}"
cd "$root"
out=docs/engine
mkdir -p "$out"
cargo build --release --locked -p ply-host --bin ply
ply="$root/target/release/ply"
source "$root/scripts/workloads.sh"

bench_one() {
    local name="$1" spec="$2" eval="$3" depth="$4" position="${5:-}"
    local args=(bench "$spec" --depth "$depth" --algo lazysmp,abdada,engine --baseline lazysmp
        --threads "$threads" --runs "$runs" --hash-mb 64 --eval "$eval")
    [[ -n "$position" ]] && args+=(--position "$position")
    echo "== $name"
    {
        echo "# $name"
        echo
        echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores."
        echo
        echo '```sh'
        echo "ply ${args[*]}"
        echo '```'
        echo
        "$ply" "${args[@]}"
    } | tee "$out/$name.md"
}
each_workload benches/data/engine/workloads.txt bench_one "$@"
