#!/usr/bin/env bash
# Scaling of long `ply` jobs over MPI ranks on this machine: each job as one process
# on one thread (no MPI) and under `mpirun -np R` for each R (one thread a rank; more
# ranks than cores are oversubscribed). The jobs are draughts perft at each depth of
# DEPTHS, and the Kalah solves of SOLVES (every first move exact; the endgame tables
# are built or loaded first, untimed). The configurations take turns, run after run,
# so that a change in the machine's other load touches them alike. Prints a Markdown
# table (the ones in docs/log/2026-11-24-mpi.md): the median wall time of RUNS runs of the whole
# command (mpirun's start of 0.5-0.7 s included) with the fastest and slowest, the
# speedup of the median over the one-process median, the median CPU time of all the
# processes (user + system: the work plus what MPI costs, whatever else the machine
# runs), and the load average (1 minute) at the start and the end of the job. Every
# result is checked against the one-process result (perft: the count; solve: the
# value and every move's value). With SPLITS, each solve runs on each rank count once
# per Kalah split depth in SPLITS (PLY_KALAH_SPLIT_PLIES; without it, the default
# for the number of ranks).
#
# Perft runs with one table across the ranks (the default under mpirun); with
# PRIVATE=1 each rank count runs again with --private-tables. HASH_MB sets each
# rank's table (MiB); the one process then gets one as large as the most ranks'
# together (HASH_MB × the largest of RANKS). The perft rows add the work: table
# probes and misses summed over the ranks against the one process's, positions a
# message and the bytes the busiest rank sent (from rank 0's per-rank lines).
# PLY_ROUTE_REST, PLY_ROUTE_NODES and PLY_ROUTE_BATCH (the fallbacks of perft's --route-*
# flags) reach every rank.
#
#   scripts/mpi-bench.sh                              perft 13, ranks 1, 2, 4, 3 runs
#   DEPTHS="15 16" SOLVES="kalah:6x4" RANKS="1 2 4" RUNS=1 scripts/mpi-bench.sh
#   DEPTHS="" SOLVES="kalah:6x4 kalah:6x4:empty-capture" scripts/mpi-bench.sh
#   DEPTHS="" SOLVES="kalah:6x4" RANKS="4 16" SPLITS="2 3 4" RUNS=1 scripts/mpi-bench.sh
#   DEPTHS=16 RANKS="1 2 4 8 16" HASH_MB=32 PRIVATE=1 RUNS=1 scripts/mpi-bench.sh
#
# With SAVE=DIR every run's standard output and error are kept in DIR, with a line
# each in DIR/runs.tsv (job, configuration: 0 for one process, R or R:private for R
# ranks; run; wall ms; CPU ms; the two files): what scripts/mpi-model.py reads.
#
#   SAVE=runs DEPTHS=16 RANKS="1 2 4 8 16" RUNS=1 scripts/mpi-bench.sh
#
# With PLY_BUNDLE=DIR (a folder made by scripts/mpi-bundle.sh) it runs the bundled
# ply and mpirun and installs and builds nothing: for a machine without Rust,
# OpenMPI or a network.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
depths="${DEPTHS-13}"
solves="${SOLVES:-}"
ranks="${RANKS:-1 2 4}"
runs="${RUNS:-3}"
splits="${SPLITS:-}"
game="${GAME:-checkers}"
hash_mb="${HASH_MB:-}"
private="${PRIVATE:-}"
if [[ -n "$hash_mb" && ! "$hash_mb" =~ ^[1-9][0-9]*$ ]]; then
    echo "mpi-bench: HASH_MB=$hash_mb is not a number of MiB" >&2
    exit 1
fi
save="${SAVE:-}"
if [[ -n "$save" ]]; then
    mkdir -p "$save" && : >>"$save/runs.tsv" ||
        { echo "mpi-bench: SAVE=$save: cannot write runs.tsv there" >&2; exit 1; }
fi
most=1
for r in $ranks; do ((r > most)) && most=$r; done

if [[ -n "${PLY_BUNDLE:-}" ]]; then
    [[ -f "$PLY_BUNDLE/env.sh" ]] ||
        { echo "mpi-bench: PLY_BUNDLE=$PLY_BUNDLE is not a folder made by scripts/mpi-bundle.sh (no env.sh)" >&2; exit 1; }
    # shellcheck source=/dev/null
    source "$PLY_BUNDLE/env.sh"
    ply="$(cd "$PLY_BUNDLE" && pwd)/bin/ply"
else
    bash scripts/setup-mpi.sh
    cargo build --release --locked -p ply-host --features mpi --bin ply
    ply="$root/target/release/ply"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_base_warn_component_unused=0
# One thread a process (a solve's threads; perft has --threads 1).
export PLY_THREADS=1

out=$(mktemp)
trap 'rm -f "$out" "$out.err" "$out.cpu"' EXIT
s() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

echo "$(nproc) cores; $(mpirun --version | sed -n 1p); $runs runs a row, taking turns."
echo
[[ -n "$hash_mb" ]] && echo "Tables: $hash_mb MiB a rank; the one process $((hash_mb * most)) MiB."
echo
echo "| job | processes | result | wall s: median (fastest–slowest) | speedup | CPU s | load average at start, end | probes (× 1 process) | misses (× 1 process) | positions a message | bytes sent, busiest rank |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
# The jobs: "perft D" and "solve SPEC".
jobs=()
for d in $depths; do jobs+=("perft $d"); done
for g in $solves; do
    jobs+=("solve $g")
    # The endgame tables on disk before any timing.
    PLY_THREADS=$(nproc) "$ply" solve "$g" >/dev/null 2>&1 || true
done
for job in "${jobs[@]}"; do
    read -r kind arg <<<"$job"
    # 0: one process without MPI; R: R ranks; R:S: R ranks splitting S plies.
    configs=(0)
    for r in $ranks; do
        if [[ $kind == solve && -n "$splits" ]]; then
            for sp in $splits; do configs+=("$r:$sp"); done
        else
            configs+=("$r")
            [[ $kind == perft && -n "$private" ]] && configs+=("$r:private")
        fi
    done
    declare -A times=() cpu=() work=()
    want=""
    load0=$(cut -d' ' -f1 /proc/loadavg)
    for ((i = 0; i < runs; i++)); do
        for c in "${configs[@]}"; do
            r=${c%%:*}
            if [[ $kind == perft ]]; then
                cmd=("$ply" perft "$game" "$arg" --threads 1)
                if [[ -n "$hash_mb" ]]; then
                    ((r == 0)) && cmd+=(--hash-mb $((hash_mb * most))) || cmd+=(--hash-mb "$hash_mb")
                fi
                [[ $c == *:private ]] && cmd+=(--private-tables)
            else
                cmd=("$ply" solve "$arg")
            fi
            if ((r > 0)); then
                pass=(-x PLY_THREADS)
                for v in PLY_ROUTE_REST PLY_ROUTE_NODES PLY_ROUTE_BATCH; do
                    [[ -n "${!v:-}" ]] && pass+=(-x "$v")
                done
                cmd=(mpirun -np "$r" --oversubscribe "${pass[@]}" "${cmd[@]}")
            fi
            [[ $c == *:* && $c != *:private ]] && cmd=(env PLY_KALAH_SPLIT_PLIES="${c#*:}" "${cmd[@]}")
            t0=$(date +%s%N)
            # Bash's own clock: the CPU time of every process the command started.
            { TIMEFORMAT="%U %S"; time "${cmd[@]}" >"$out" 2>"$out.err" || true; } 2>"$out.cpu"
            t1=$(date +%s%N)
            cpu[$c]+="$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$out.cpu" | tail -n 1) "
            if [[ $kind == perft ]]; then
                result=$(head -n 1 "$out")
            else
                # The value and every move's value, on one line.
                result=$(grep -E '^(value|move [0-9]+):' "$out" | tr '\n' ' ' | sed 's/ $//')
            fi
            [[ -z "$want" ]] && want=$result
            if [[ -z "$result" || "$result" != "$want" ]]; then
                echo "$job on $c ranks gave '$result', not '$want'" >&2
                cat "$out.err" >&2
                exit 1
            fi
            times[$c]+="$(((t1 - t0) / 1000000)) "
            if [[ -n "$save" ]]; then
                kept="${job// /-}-${c/:/-}-$i"
                cp "$out" "$save/$kept.out"
                cp "$out.err" "$save/$kept.err"
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$job" "$c" "$i" "$(((t1 - t0) / 1000000))" \
                    "$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$out.cpu" | tail -n 1)" \
                    "$kept.out" "$kept.err" >>"$save/runs.tsv"
            fi
            if [[ $kind == perft ]]; then
                # probes, misses (from the hit rate), positions and messages routed,
                # the most bytes a rank sent.
                work[$c]=$(awk '
                    /^table: / { gsub(",", ""); p = $4; h = $6; sub("%", "", h); m = p * (1 - h / 100) }
                    END { printf "%d %d ", p, m }' "$out")
                work[$c]+=$(awk '
                    /^rank [0-9]+ on .* routed / {
                        for (i = 1; i <= NF; i++) {
                            if ($i == "routed") pos += $(i + 1)
                            if ($i == "messages" && $(i - 2) == "in") msg += $(i - 1)
                            if ($i == "bytes" && $(i + 1) == "sent,") { if ($(i - 1) > b) b = $(i - 1) }
                        }
                    }
                    END { printf "%d %d %d", pos, msg, b }' "$out.err")
            fi
        done
    done
    load1=$(cut -d' ' -f1 /proc/loadavg)
    base=""
    for c in "${configs[@]}"; do
        r=${c%%:*}
        mapfile -t sorted < <(printf '%s\n' ${times[$c]} | sort -n)
        mid=${sorted[$((runs / 2))]}
        mapfile -t cpus < <(printf '%s\n' ${cpu[$c]} | sort -n)
        [[ -z "$base" ]] && base=$mid
        if ((r == 0)); then
            label="1 process, 1 thread (no MPI)"
        else
            label="$r rank$([[ $r == 1 ]] || echo s) × 1 thread"
            ((r > $(nproc))) && label+=", oversubscribed"
            if [[ $c == *:private ]]; then
                label+=", private tables"
            elif [[ $c == *:* ]]; then
                label+=", split ${c#*:}"
            fi
        fi
        extra="| – | – | – | – |"
        if [[ $kind == perft ]]; then
            read -r p m pos msg b <<<"${work[$c]}"
            read -r p0 m0 _ <<<"${work[0]}"
            ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "–" }'; }
            ppm=$(awk -v a="$pos" -v b="$msg" 'BEGIN { if (b > 0) printf "%d", a / b; else printf "–" }')
            ((r == 0 || b == 0)) && b="–"
            extra="| $p ($(ratio "$p" "$p0")) | $m ($(ratio "$m" "$m0")) | $ppm | $b |"
        fi
        shown=$want
        [[ $kind == perft ]] && shown="$want leaves" || shown=$(echo "$want" | cut -d' ' -f1-2)
        name="$kind $arg"
        [[ $kind == perft ]] && name="perft $game $arg"
        echo "| $name | $label | $shown | $(s "$mid") ($(s "${sorted[0]}")–$(s "${sorted[$((runs - 1))]}")) | $(awk -v a="$base" -v b="$mid" 'BEGIN { printf "%.2f", a / b }') | $(s "${cpus[$((runs / 2))]}") | $load0, $load1 $extra"
    done
    unset times cpu work
done
