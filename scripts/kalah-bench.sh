#!/usr/bin/env bash
# Kalah solve times (docs/games/kalah/solve.md): every solve of SOLVES run RUNS
# times, one run after another so that none shares the machine with another, in
# each mode of MODES:
#
#   nothing  one solver thread (PLY_THREADS=1) and a new, empty PLY_TABLES_DIR each
#            run: the endgame tables are built in the run and saved to it
#   disk     the default threads, the tables on disk in TABLES (built by one run
#            first, not timed, if they are not there yet)
#
# For each run: wall seconds (measured here), the time ply gives its tables and its
# search, and the nodes; for each solve and mode the fastest, median and slowest
# run and how many took at most the mode's goal (GOAL_NOTHING, GOAL_DISK: the Kalah
# issue's 35 s on one thread from nothing and 10 s with the tables on disk). Every
# run of a solve must print the same values and best moves as its first (a timing
# of a wrong answer is refused). The table goes to stdout and to OUT.
#
#   scripts/kalah-bench.sh                              Kalah(6,4), both rules, 4 runs
#   RUNS=8 MODES=nothing scripts/kalah-bench.sh         the one-thread goal only
#   SOLVES=kalah:6x5 MODES=disk RUNS=1 PLY_HASH_MB=8192 PLY_KALAH_TABLE_SEEDS=30 \
#       scripts/kalah-bench.sh                          (6,5): hours for its tables
#
# Environment: SOLVES (default "kalah:6x4 kalah:6x4:empty-capture"), MODES (default
# "nothing disk"), RUNS (default 4), GOAL_NOTHING and GOAL_DISK (seconds, default
# 35 and 10), TABLES (default $PLY_TABLES_DIR, else ~/.cache/ply), OUT (default
# docs/games/kalah-bench.md), PLY (a ply binary to time instead of building this
# checkout's). Other PLY_* settings (PLY_HASH_MB, PLY_KALAH_TABLE_SEEDS, ...) reach
# every run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
solves="${SOLVES:-kalah:6x4 kalah:6x4:empty-capture}"
modes="${MODES:-nothing disk}"
runs="${RUNS:-4}"
goal_nothing="${GOAL_NOTHING:-35}"
goal_disk="${GOAL_DISK:-10}"
tables="${TABLES:-${PLY_TABLES_DIR:-$HOME/.cache/ply}}"
out="${OUT:-$root/docs/games/kalah-bench.md}"

fail() {
    echo "kalah-bench: $*" >&2
    exit 2
}
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || fail "RUNS must be a whole number of runs, 1 or more (got '$runs')"
[[ "$goal_nothing" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "GOAL_NOTHING must be a number of seconds (got '$goal_nothing')"
[[ "$goal_disk" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "GOAL_DISK must be a number of seconds (got '$goal_disk')"
for m in $modes; do
    case "$m" in nothing | disk) ;; *) fail "MODES: '$m' is not a mode (nothing, disk)" ;; esac
done
[ -n "$solves" ] || fail "SOLVES names no solve"
if [ -e "$out" ]; then
    [ -f "$out" ] && [ -w "$out" ] || fail "OUT: cannot write $out"
else
    [ -d "$(dirname "$out")" ] && [ -w "$(dirname "$out")" ] || fail "OUT: cannot write $out (no writable folder $(dirname "$out"))"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -n "${PLY:-}" ]; then
    ply="$PLY"
    [ -x "$ply" ] || fail "PLY: $ply is not an executable"
else
    echo "== building ply (cargo build --release)" >&2
    (cd "$root" && cargo build --release --quiet -p ply-host --bin ply)
    ply="$root/target/release/ply"
fi
commit="$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# `solve LOG SPEC [VAR=VALUE...]`: ply solve SPEC with those settings, its output
# in LOG; a failure stops the script with ply's last line.
solve() {
    local log="$1" spec="$2"
    shift 2
    env "$@" "$ply" solve "$spec" >"$log" 2>"$work/err" ||
        fail "ply solve $spec failed: $(tail -n 1 "$work/err")"
}

# One timed run: `run MODE SPEC` appends "wall tables search nodes" to $work/rows
# and leaves the answer (values and best moves) in $work/answer.
run() {
    local mode="$1" spec="$2" log="$work/log" dir="$tables" threads=() start end
    if [ "$mode" = nothing ]; then
        dir="$(mktemp -d "$work/tables.XXXXXX")"
        threads=(PLY_THREADS=1)
    fi
    start=$(date +%s%N)
    solve "$log" "$spec" "${threads[@]}" PLY_TABLES_DIR="$dir"
    end=$(date +%s%N)
    if [ "$mode" = nothing ]; then
        rm -rf "$dir"
    fi
    grep -E '^(value|best moves|move [0-9]+):' "$log" >"$work/answer"
    awk '/^endgame tables: up to [0-9]+ seeds in play/ { print $5 }' "$log" >"$work/seeds"
    awk -v wall="$(((end - start) / 1000000))" '
        /^time: endgame tables/ { t = $4; s = $7 }
        /^nodes:/ { n = $2 }
        END {
            if (t == "" || s == "" || n == "") exit 1
            printf "%.2f %s %s %s\n", wall / 1000, t, s, n
        }' "$log" >>"$work/rows" || fail "ply solve $spec printed no time or nodes line"
}

{
    echo "# Kalah solve times"
    echo
    echo "Made by \`SOLVES=\"$solves\" MODES=\"$modes\" RUNS=$runs scripts/kalah-bench.sh\`"
    echo "on $(date -u +%Y-%m-%d) at commit $commit: $(nproc) cores$(awk -F': ' '/^model name/ && !n++ { printf ", %s", $2 }' /proc/cpuinfo),"
    echo "load average at the start $(cut -d' ' -f1-3 /proc/loadavg). Runs one after another;"
    echo "\"nothing\": one thread, the endgame tables built in the run; \"disk\": the default"
    echo "threads, the tables on disk. Seconds; a run is one line."
    echo
    echo "| solve | mode | run | wall | tables | search | nodes |"
    echo "|---|---|---|---|---|---|---|"
} >"$work/table"
summary="$work/summary"
: >"$summary"

for spec in $solves; do
    for mode in $modes; do
        if [ "$mode" = disk ]; then
            echo "== $spec: the tables in $tables (built first if missing; not timed)" >&2
            mkdir -p "$tables" 2>/dev/null || fail "TABLES: cannot make $tables"
            solve /dev/null "$spec" PLY_TABLES_DIR="$tables"
        fi
        : >"$work/rows"
        rm -f "$work/first"
        for i in $(seq 1 "$runs"); do
            echo "== $spec, $mode, run $i of $runs (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
            run "$mode" "$spec"
            if [ -f "$work/first" ]; then
                cmp -s "$work/first" "$work/answer" ||
                    fail "$spec ($mode) run $i printed other values than run 1: $(diff "$work/first" "$work/answer" | tr '\n' ' ')"
            else
                cp "$work/answer" "$work/first"
            fi
            read -r wall t s n < <(tail -n 1 "$work/rows")
            echo "| $spec | $mode | $i | $wall | $t | $s | $n |" | tee -a "$work/table" >&2
        done
        goal=$goal_nothing
        [ "$mode" = disk ] && goal=$goal_disk
        sort -n "$work/rows" | awk -v spec="$spec" -v mode="$mode" -v goal="$goal" '
            { w[NR] = $1; if ($1 + 0 <= goal + 0) met++ }
            END {
                med = NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
                printf "- %s, %s: fastest %.2f s, median %.2f s, slowest %.2f s; at most %s s in %d of %d runs\n",
                    spec, mode, w[1], med, w[NR], goal, met, NR
            }' >>"$summary"
        value="$(awk '/^value:/ { print $2 }' "$work/first")"
        seeds="$(cat "$work/seeds")"
        echo "  (value $value; endgame tables up to ${seeds:-?} seeds in play; every run the same values and best moves)" >>"$summary"
    done
done

{
    cat "$work/table"
    echo
    cat "$summary"
} | tee "$out"
