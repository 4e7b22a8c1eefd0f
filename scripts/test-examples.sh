#!/usr/bin/env bash
# Runs every example end to end (their unit tests run in `cargo test --workspace`):
# Connect Four's perft and searches, the allocation-free game of `embed` (it aborts
# if the core allocates) and the custom evaluation's match.
set -euo pipefail
cd "$(dirname "$0")/.."
for example in connect_four embed custom_eval; do
  echo "== cargo run --release --example $example"
  cargo run --release -q --example "$example"
done
