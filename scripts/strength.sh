#!/usr/bin/env bash
# Strength of the multi-thread engine: `ply tournament` of the engine on 2 threads
# against the engine on 1 thread at equal time per move, 100 games per game
# (checkers, Kalah, Halma 8x8), the score with its 95% error bar (tools/strength.py).
# A measurement, not a test: about 35 minutes at 0.05 s a move; not run by CI.
#
#   scripts/strength.sh                                  the default run
#   scripts/strength.sh --time 0.1 --games 200 --specs kalah
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo build --release --locked -p ply-host --bin ply
exec python3 tools/strength.py "$root/target/release/ply" "$@"
