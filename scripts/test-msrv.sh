#!/usr/bin/env bash
# The minimum supported Rust version in Cargo.toml (`rust-version`) builds the
# published crates: installs that toolchain (minimal profile) and checks ply-core and
# ply-host with it, in a target directory of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
[ -n "$msrv" ] || { echo "test-msrv: no rust-version in Cargo.toml" >&2; exit 1; }
grep -q "^$msrv" <<<"$(rustup toolchain list)" || rustup toolchain install "$msrv" --profile minimal
echo "== cargo +$msrv check -p ply-core -p ply-host"
CARGO_TARGET_DIR=target/msrv cargo "+$msrv" check -q -p ply-core -p ply-host
