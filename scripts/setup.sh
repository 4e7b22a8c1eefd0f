#!/usr/bin/env bash
# Installs everything ply's build and tests need on a fresh machine (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo is not installed; install Rust with rustup first" >&2
  exit 1
fi
if command -v rustup >/dev/null 2>&1; then
  installed_components=$(rustup component list --installed 2>/dev/null || true)
  for c in rustfmt clippy; do
    grep -q "^$c" <<<"$installed_components" || rustup component add "$c"
  done
  grep -qx thumbv7em-none-eabihf <<<"$(rustup target list --installed)" || rustup target add thumbv7em-none-eabihf
else
  echo "setup: rustup not found; the thumbv7em-none-eabihf target must already be installed" >&2
fi
# Further set-up steps of individual parts (the firmware's QEMU, for one).
for s in scripts/setup-*.sh; do
  [ -e "$s" ] && bash "$s"
done
exit 0
