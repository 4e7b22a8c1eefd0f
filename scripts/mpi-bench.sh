#!/usr/bin/env bash
# Scaling of `ply perft` over MPI ranks on this machine: draughts perft at each depth,
# first as one process on one thread, then under `mpirun -np R` for each R (one thread
# a rank; more ranks than cores are oversubscribed). Prints a Markdown table (the one
# in docs/mpi.md) with the load average before and after: wall time of the whole
# command (mpirun's start of 0.5-0.7 s included), the time `ply` itself reports, and
# the speedup of the wall time over the one-process run. Each count is checked
# against the one-process count.
#
#   scripts/mpi-bench.sh                      depths 13 and 14, ranks 1, 2 and 4
#   DEPTHS="12 13" RANKS="1 2 4 8" scripts/mpi-bench.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
depths="${DEPTHS:-13 14}"
ranks="${RANKS:-1 2 4}"
game="${GAME:-checkers}"

bash scripts/setup-mpi.sh
cargo build --release --locked -p ply-host --features mpi --bin ply
ply="$root/target/release/ply"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_base_warn_component_unused=0

now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
fmt_s() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(mpirun --version | head -n 1)."
echo
echo "| perft | processes | leaves | wall (s) | ply's time (s) | speedup (wall) |"
echo "|---|---|---:|---:|---:|---:|"
for d in $depths; do
    out=$(mktemp)
    t0=$(now)
    "$ply" perft "$game" "$d" --threads 1 >"$out"
    t1=$(now)
    leaves=$(head -n 1 "$out")
    base=$(ms "$t0" "$t1")
    echo "| $game $d | 1 process, 1 thread (no MPI) | $leaves | $(fmt_s "$base") | $(sed -n 's/^time: \([0-9.]*\) s/\1/p' "$out") | 1.00 |"
    for r in $ranks; do
        t0=$(now)
        mpirun -np "$r" --oversubscribe "$ply" perft "$game" "$d" --threads 1 >"$out" 2>"$out.err"
        t1=$(now)
        got=$(head -n 1 "$out")
        if [[ "$got" != "$leaves" ]]; then
            echo "perft $d on $r ranks counted $got, not $leaves" >&2
            cat "$out.err" >&2
            exit 1
        fi
        wall=$(ms "$t0" "$t1")
        over=""
        ((r > $(nproc))) && over=", oversubscribed"
        echo "| $game $d | $r rank$([[ $r == 1 ]] || echo s) × 1 thread$over | $got | $(fmt_s "$wall") | $(sed -n 's/^time: \([0-9.]*\) s/\1/p' "$out") | $(awk -v a="$base" -v b="$wall" 'BEGIN { printf "%.2f", a / b }') |"
    done
    rm -f "$out" "$out.err"
done
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
