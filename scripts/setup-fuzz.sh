#!/usr/bin/env bash
# Installs cargo-fuzz for scripts/fuzz.sh (idempotent; a few minutes the first time).
set -euo pipefail
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
