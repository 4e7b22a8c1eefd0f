#!/usr/bin/env bash
# Draughts perft at depths 12 and 13 from the start position, both conventions
# (every capture path: 388,623,673 and 1,766,623,630; capture paths with the same
# result once: 388,617,999 and 1,766,564,893), checked against
# tests/data/checkers_perft.txt. About 2.2 billion leaves per convention: a minute
# or more, so the tests are #[ignore]d in the normal run and scripts/test.sh (CI)
# runs them here, in the same optimised test build.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -p ply-tests --test draughts perft -- --ignored --nocapture
