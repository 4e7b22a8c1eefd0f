#!/usr/bin/env bash
# Draughts perft from the start position, checked against tests/data/checkers_perft.txt:
# depths 12 and 13 without a table in both conventions (every capture path:
# 388,623,673 and 1,766,623,630; capture paths with the same result once: 388,617,999
# and 1,766,564,893), then depths 14, 15 and 16 (every capture path: 7,978,439,499,
# 36,263,167,175 and 165,629,569,428) with the table of exact counts shared by two
# threads. About two minutes on 2 cores, so the tests are #[ignore]d in the normal
# run and scripts/test.sh (CI) runs them here, in the same optimised test build.
# Depths 17 to 20: scripts/perft-deep.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -p ply-tests --test draughts perft -- --ignored --nocapture --test-threads 1
