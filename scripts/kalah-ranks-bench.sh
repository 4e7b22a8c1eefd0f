#!/usr/bin/env bash
# The work of a Kalah solve on MPI ranks against one process's, side by side in one
# run: `ply solve SOLVE` as one process on 1 and 2 threads, then under
# `mpirun -np R` (one thread a rank, oversubscribed past the cores) for each R of
# RANKS, once with the ranks sharing no table entries (--share-work 64, the solve
# as before 2026-11-29) and once for each --share-work of SHARE (10, the default).
# Prints a Markdown table: nodes summed over the ranks (the solve's `nodes:` line)
# and against the one-thread process's, wall and CPU seconds (user + system of
# mpirun and every rank), and the table entries rank 0 sent and learnt. Every
# value and move value is checked against the one-thread process's. The endgame
# tables are built or loaded first (untimed) in PLY_TABLES_DIR (default: the
# user's cache).
#
#   scripts/kalah-ranks-bench.sh                         kalah:6x4, ranks 1 2 4
#   SOLVE=kalah:6x3 RANKS="2 4 8 16" SHARE="6 10 14" scripts/kalah-ranks-bench.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
solve="${SOLVE:-kalah:6x4}"
ranks="${RANKS:-1 2 4}"
share="${SHARE:-10}"
for n in $ranks $share; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "kalah-ranks-bench: '$n' in RANKS or SHARE is not a number" >&2; exit 1; }
done
bash scripts/setup-mpi.sh >/dev/null
cargo build --release --locked -p ply-host --features mpi --bin ply
ply="$root/target/release/ply"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_base_warn_component_unused=0

out=$(mktemp)
trap 'rm -f "$out" "$out.err" "$out.cpu"' EXIT
"$ply" solve "$solve" --threads "$(nproc)" >/dev/null 2>&1 # tables, untimed

base_nodes=""
base_values=""
run() { # label, then the command
    local label="$1"
    shift
    local t0 t1
    t0=$(date +%s.%N)
    { TIMEFORMAT="%U %S"; time "$@" >"$out" 2>"$out.err"; } 2>"$out.cpu"
    t1=$(date +%s.%N)
    local nodes values cpu sent learnt
    nodes=$(sed -n 's/^nodes: //p' "$out")
    values=$(grep -E '^(value|best moves|move [0-9]+):' "$out")
    cpu=$(tail -n 1 "$out.cpu" | awk '{ printf "%.1f", $1 + $2 }')
    read -r sent learnt < <(sed -n 's/^table entries shared: \([0-9]*\) sent by rank 0, \([0-9]*\) learnt.*/\1 \2/p' "$out.err") || true
    if [[ -z "$base_nodes" ]]; then
        base_nodes=$nodes
        base_values=$values
    elif [[ "$values" != "$base_values" ]]; then
        echo "kalah-ranks-bench: $label: values differ from one process's" >&2
        exit 1
    fi
    echo "| $label | $nodes | $(awk -v a="$nodes" -v b="$base_nodes" 'BEGIN { printf "%.2f", a / b }') | $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') | $cpu | ${sent:--} | ${learnt:--} |"
}

echo "$(nproc) cores; $solve; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo
echo "| run | nodes | × 1 process | wall s | CPU s | entries sent by rank 0 | learnt by rank 0 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
run "1 process, 1 thread" "$ply" solve "$solve" --threads 1
run "1 process, 2 threads" "$ply" solve "$solve" --threads 2
for r in $ranks; do
    for s in 64 $share; do
        label="$r ranks, no sharing"
        [[ $s != 64 ]] && label="$r ranks, --share-work $s"
        run "$label" mpirun -np "$r" --oversubscribe --bind-to none "$ply" solve "$solve" --threads 1 --share-work "$s"
    done
done
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
