#!/usr/bin/env bash
# Part of scripts/test.sh (CI): replays the committed fuzz corpus through every fuzz
# target with a plain `cargo test` (stable, no libFuzzer), then fuzzes each target for
# a few seconds (PLY_FUZZ_SECONDS, default 3; 0 skips) with scripts/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== fuzz corpus replay (cargo test in fuzz/)"
(cd fuzz && cargo test --quiet)

secs=${PLY_FUZZ_SECONDS:-3}
if [ "$secs" != 0 ]; then
  echo "== bounded fuzzing, $secs s per target"
  bash scripts/fuzz.sh "$secs"
fi
