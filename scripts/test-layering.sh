#!/usr/bin/env bash
# No import cycle between the files and folders of ply-core and ply-host
# (ARCHITECTURE.md, "Layering"): scripts/layering.py reads each file's `use` lines and
# `crate::` / `super::` paths and fails, naming the files, on a cycle.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== import cycles (scripts/layering.py)"
python3 scripts/layering.py core/src host/src
# The check itself: a cycle made on purpose in a copy is found.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/a"
printf 'pub mod a;\npub mod b;\n' >"$tmp/src/lib.rs"
printf 'mod x;\n' >"$tmp/src/a/mod.rs"
printf 'use crate::b::{f, g as h};\npub fn y() {}\n' >"$tmp/src/a/x.rs"
printf 'pub fn f() { super::a::x::y() }\npub fn g() {}\n' >"$tmp/src/b.rs"
if out=$(python3 scripts/layering.py "$tmp/src" 2>&1); then
  echo "test-layering: a cycle between a/ and b.rs was not found" >&2
  exit 1
fi
grep -q "cycle in .*src/: a, b" <<<"$out" || { echo "test-layering: unexpected report: $out" >&2; exit 1; }
echo "ok: a cycle made on purpose is found"
