#!/usr/bin/env bash
# Wall-clock check of `ply play --time S` from outside the process: AI-against-AI games
# of every game at 0.05, 0.1 and 0.5 s per move, on 1 and 2 threads, with and without
# another CPU-bound process, timing each move line as it arrives (tools/time_budget.py).
# Prints a row per configuration and exits 1 if any move took longer than its budget.
# A measurement, not a test (it reads the wall clock): about 8 minutes; not run by CI.
#
#   scripts/time-budget.sh                       everything
#   scripts/time-budget.sh --budgets 0.05 --plies 10 --games kalah
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo build --release --locked -p ply-host --bin ply
exec python3 tools/time_budget.py "$root/target/release/ply" "$@"
