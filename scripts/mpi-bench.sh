#!/usr/bin/env bash
# Scaling of `ply perft` over MPI ranks on this machine: draughts perft at each depth
# as one process on one thread (no MPI) and under `mpirun -np R` for each R (one
# thread a rank; more ranks than cores are oversubscribed). The configurations take
# turns, run after run, so that a change in the machine's other load touches them
# alike. Prints a Markdown table (the one in docs/mpi.md): the median wall time of
# RUNS runs of the whole command (mpirun's start of 0.5-0.7 s included) with the
# fastest and slowest, the speedup of the median over the one-process median, the
# median CPU time of all the processes (user + system: the work plus what MPI costs,
# whatever else the machine runs), and the load average (1 minute) at the start and
# the end of the depth. Every count is checked against the one-process count.
#
#   scripts/mpi-bench.sh                              depth 13, ranks 1, 2, 4, 3 runs
#   DEPTHS="13 14" RANKS="1 2 4 8" RUNS=5 scripts/mpi-bench.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
depths="${DEPTHS:-13}"
ranks="${RANKS:-1 2 4}"
runs="${RUNS:-3}"
game="${GAME:-checkers}"

bash scripts/setup-mpi.sh
command -v /usr/bin/time >/dev/null || { echo "mpi-bench: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
cargo build --release --locked -p ply-host --features mpi --bin ply
ply="$root/target/release/ply"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_base_warn_component_unused=0

out=$(mktemp)
trap 'rm -f "$out" "$out.err" "$out.cpu"' EXIT
s() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

echo "$(nproc) cores; $(mpirun --version | head -n 1); $runs runs a row, taking turns."
echo
echo "| perft | processes | leaves | wall s: median (fastest–slowest) | speedup | CPU s | load average at start, end |"
echo "|---|---|---:|---:|---:|---:|---:|"
for d in $depths; do
    configs=(0 $ranks) # 0: one process without MPI
    declare -A times=() cpu=()
    want=""
    load0=$(cut -d' ' -f1 /proc/loadavg)
    for ((i = 0; i < runs; i++)); do
        for r in "${configs[@]}"; do
            cmd=("$ply" perft "$game" "$d" --threads 1)
            ((r > 0)) && cmd=(mpirun -np "$r" --oversubscribe "${cmd[@]}")
            t0=$(date +%s%N)
            /usr/bin/time -f "%U %S" -o "$out.cpu" "${cmd[@]}" >"$out" 2>"$out.err"
            t1=$(date +%s%N)
            cpu[$r]+="$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$out.cpu") "
            leaves=$(head -n 1 "$out")
            [[ -z "$want" ]] && want=$leaves
            if [[ "$leaves" != "$want" ]]; then
                echo "perft $d on $r ranks counted $leaves, not $want" >&2
                cat "$out.err" >&2
                exit 1
            fi
            times[$r]+="$(((t1 - t0) / 1000000)) "
        done
    done
    load1=$(cut -d' ' -f1 /proc/loadavg)
    base=""
    for r in "${configs[@]}"; do
        mapfile -t sorted < <(printf '%s\n' ${times[$r]} | sort -n)
        mid=${sorted[$((runs / 2))]}
        mapfile -t cpus < <(printf '%s\n' ${cpu[$r]} | sort -n)
        [[ -z "$base" ]] && base=$mid
        if ((r == 0)); then
            label="1 process, 1 thread (no MPI)"
        else
            label="$r rank$([[ $r == 1 ]] || echo s) × 1 thread"
            ((r > $(nproc))) && label+=", oversubscribed"
        fi
        echo "| $game $d | $label | $want | $(s "$mid") ($(s "${sorted[0]}")–$(s "${sorted[$((runs - 1))]}")) | $(awk -v a="$base" -v b="$mid" 'BEGIN { printf "%.2f", a / b }') | $(s "${cpus[$((runs / 2))]}") | $load0, $load1 |"
    done
    unset times cpu
done
