#!/usr/bin/env bash
# Wall-clock check of `ply play --time S` from outside the process: AI-against-AI games
# of every game at 0.01, 0.05, 0.1 and 0.5 s per move, on 1 and 2 threads, with and
# without another CPU-bound process, timing each move line as it arrives
# (tools/time_budget.py). Prints a row per configuration and per budget (with the mean
# use of the budget) and exits 1 if any move took longer than its budget. A
# measurement, not a test (it reads the wall clock): about 10 minutes; not run by CI.
#
#   scripts/time-budget.sh                       everything
#   scripts/time-budget.sh --budgets 0.05 --plies 10 --games kalah
#   scripts/time-budget.sh --loads hog --nice 10 beside the busy process only, ply and
#                                                it at nice 10 (a shared machine)
#   python3 tools/time_budget.py OLD NEW ...     two builds, game by game in turn
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo build --release --locked -p ply-host --bin ply
exec python3 tools/time_budget.py "$root/target/release/ply" "$@"
