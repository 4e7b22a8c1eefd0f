#!/usr/bin/env bash
# Part of scripts/test.sh (CI): scripts/mpi-model.py on a folder of runs made up
# here (as SAVE=DIR scripts/mpi-bench.sh writes them) with round numbers, so that
# every figure it prints can be worked out by hand: the fit, the measured rows, the
# projected rows, a --target, --startup; and bad input refused in one line.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
bad() {
    echo "test-mpi-model: $*" >&2
    status=1
}

# One rank's line as rank 0 prints it after a routed count.
line() { # rank items messages bytes probes
    echo "rank $1 on h$1: $2 items, 1.000 s busy, 1 at a time, 5 nodes; routed 7 positions in 3 messages (2 a message), $3 messages and $4 bytes sent, $5 probes, 50.0% hits"
}
runs="$work/runs"
mkdir -p "$runs"
add() { # job config cpu_ms probes err_lines...
    local job="$1" config="$2" cpu="$3" probes="$4" name
    shift 4
    name="${job// /-}-$config"
    printf '1\ntable: 16 MiB, %s probes, 40.0%% hits\n' "$probes" >"$runs/$name.out"
    printf '%s\n' "$@" >"$runs/$name.err"
    printf '%s\t%s\t0\t3000\t%s\t%s\t%s\n' "$job" "$config" "$cpu" "$name.out" "$name.err" >>"$runs/runs.tsv"
}
# A start-up job (1 s of CPU everywhere), then the job: 128 items; one process 10 s;
# 12, 14 and 16 s on 1, 2 and 4 ranks (12 + 2 log2 R); on 2 ranks 10 rounds
# (10 messages to 1 other rank), 2000 bytes of payload + 16 x 2 x 1 x 10, the
# busiest rank 600 of 1000 probes (1.2); on 4 ranks 5 rounds, 3000 + 16 x 4 x 3 x 5
# bytes, 300 of a mean of 250 probes (1.2). Payload 4000 (R - 1) / R, exactly.
for c in 0 1 2 4; do add "perft 1" "$c" 1000 1; done
add "perft 9" 0 10000 1000
add "perft 9" 1 12000 1000 "$(line 0 128 0 0 1000)"
add "perft 9" 2 14000 1100 "$(line 0 64 10 1200 600)" "$(line 1 64 10 1120 400)"
add "perft 9" 4 16000 1000 "$(line 0 32 15 1200 300)" "$(line 1 32 15 920 250)" \
    "$(line 2 32 15 920 250)" "$(line 3 32 15 920 200)"
add "perft 9" 2:private 99000 1000 "rank 0 on h0: 64 items, 1.000 s busy, 1 at a time, 5 nodes"

model() { python3 scripts/mpi-model.py "$@"; }
out=$(model "$runs" --batch 16 --latency-us 1000 --message-us 100 --bandwidth-gbs 0.000001 \
    --machines 16 --target "big=100:2" 2>&1) || bad "the model failed: $out"
want() {
    grep -qF -- "$1" <<<"$out" || bad "want the line '$1' in: $out"
}
want "Model of scale: perft 9, one process 10.00 s of CPU; ranks measured: 1, 2, 4; CPU as measured (start-up included)."
want "Network: 1000 us latency, 1e-06 GB/s a machine, 100 us of CPU a message sent or received; batches of 16 items a rank."
# q = mean(10 / ceil(128 / 32), 5 / ceil(128 / 64)) = 2.5.
want "Fit: CPU = 12.000 + 2.000 log2(ranks) s; payload = 4000 (P - 1) / P bytes; 2.50 rounds a batch; 128 items; imbalance 1.200 (at 4 ranks)."
# 2 ranks: measured 14 / 2 x 1.2 + 10 x (1 ms + 2 x 1 x 0.1 ms) + 1200 / 1000 = 9.612 s;
# projected 8.4 + 10 x 1.2 ms + (1000 + 160) / 1000 = 9.572 s; 10 s / either: 1.04.
want "| 2 | 3.00 | 14.00 | 1.40 | 1.40 | 1.10 | 10 | 1200 | 1.200 | 1.04 | 1.04 |"
want "| 1 | 3.00 | 12.00 | 1.20 | 1.20 | 1.00 | 0 | 0 | 1.000 | 0.83 | 0.83 |"
# 16 machines: 20 s of CPU, 20 / 16 x 1.2 = 1.5 s; 2.5 rounds x (1 ms + 30 x 0.1 ms)
# = 0.01 s; 4000 x 15 / 256 + 16 x 15 x 2.5 = 834.375 bytes at 1000 B/s; 2.344 s.
want "| 16 | 20.00 | 1.500 | 2 | 0.0100 | 834 | 0.8344 | 2.344 | 4.27 | 27% |"
# 10 x the work: 15 s; (2.5 + 3 x 2) rounds x 4 ms = 0.034 s; 2343.75 + 2040 bytes.
want "big: one process 1.7 min of CPU (10× the measured job, 2 more routed plies): 16 machines 19.42 s (5.1×)."
want "Assumptions: one rank of one thread a machine"
grep -qF "99.00" <<<"$out" && bad "a run with private tables was read"

# Less the start-up job's 1 s on as many ranks: 9 s, and 11 + 2 log2 R.
out=$(model "$runs" --startup "perft 1" --batch 16 2>&1) || bad "--startup failed: $out"
want "one process 9.00 s of CPU; ranks measured: 1, 2, 4; CPU less that of perft 1 on as many ranks."
want "Fit: CPU = 11.000 + 2.000 log2(ranks) s;"
# The defaults: 10 GbE.
want "Network: 10 us latency, 1.25 GB/s a machine, 1 us of CPU a message sent or received;"
want "| 64 |"
want "| 256 |"

# Bad input: one line naming what is wrong, exit 1, nothing else printed.
refused() { # what want args...
    local what="$1" needle="$2"
    shift 2
    if got=$(env "${env[@]}" python3 scripts/mpi-model.py "$@" 2>&1); then
        bad "$what was accepted: $got"
    elif [[ "$(wc -l <<<"$got")" != 1 || "$got" != "mpi-model: "*"$needle"* ]]; then
        bad "$what: want one line naming '$needle', got: $got"
    fi
}
env=()
refused "a missing folder" "is not a folder of runs" "$work/none"
refused "an unknown job" "no runs of 'perft 3'" "$runs" --job "perft 3"
refused "an unknown start-up job" "--startup: no runs of 'perft 2'" "$runs" --startup "perft 2"
refused "latency 0" "argument --latency-us: '0' is not above 0" "$runs" --latency-us 0
refused "a bad target" "'big' is not NAME=CPU_SECONDS" "$runs" --target big
env=(MODEL_BANDWIDTH_GBS=fast)
refused "a bad variable" "MODEL_BANDWIDTH_GBS='fast' is not a number" "$runs"
env=()
mkdir "$work/short"
cp "$runs"/* "$work/short/"
sed -i '$d' "$work/short/perft-9-4.err"
refused "a run missing a rank's line" "a run on 4 ranks has 3 per-rank lines" "$work/short"
grep -v '^perft 9	0	' "$runs/runs.tsv" >"$work/short/runs.tsv"
refused "no one-process run" "no run of one process" "$work/short" --job "perft 9"
printf 'perft 9\t2\n' >"$work/short/runs.tsv"
refused "a short line" "runs.tsv line 1: want 7 fields" "$work/short"

[[ $status == 0 ]] && echo "mpi-model: the fit, the measured and projected rows, --target, --startup and refusals as worked out by hand"
exit $status
