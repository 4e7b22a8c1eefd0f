#!/usr/bin/env bash
# Builds the page in web/www/: ply-web (web/) for wasm32-unknown-unknown, then its
# JavaScript bindings with wasm-bindgen into web/www/pkg/ (git-ignored). Installs what
# is missing first (idempotent): the wasm32 target (rustup) and wasm-bindgen-cli at
# exactly the version of the wasm-bindgen crate in Cargo.lock (cargo install: a few
# minutes, once). docs/web.md has the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "web.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }

if command -v rustup >/dev/null 2>&1; then
  grep -qx wasm32-unknown-unknown <<<"$(rustup target list --installed)" || rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  echo "== installing wasm-bindgen-cli $version (once; a few minutes)"
  # --locked first; if a locked dependency is not in the registry, resolve afresh.
  cargo install wasm-bindgen-cli --version "=$version" --locked ||
    cargo install wasm-bindgen-cli --version "=$version"
fi

echo "== cargo build --release --target wasm32-unknown-unknown -p ply-web"
# No debug info in the module (the workspace's release profile keeps some for perf).
CARGO_PROFILE_RELEASE_DEBUG=0 cargo build --release --target wasm32-unknown-unknown -p ply-web
echo "== wasm-bindgen --target web --out-dir web/www/pkg"
wasm-bindgen --target web --no-typescript --out-dir web/www/pkg \
  target/wasm32-unknown-unknown/release/ply_web.wasm
size=$(($(wc -c <web/www/pkg/ply_web_bg.wasm) / 1024))
echo "built web/www/pkg/ply_web_bg.wasm ($size KiB) and ply_web.js"
echo "serve it:  (cd web/www && python3 -m http.server 8000)  and open http://localhost:8000/"
