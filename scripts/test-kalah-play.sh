#!/usr/bin/env bash
# CI check of scripts/kalah-play.sh and tools/kalah_play.py on Kalah(4,3), whose
# tables hold every seed and whose solves take milliseconds: both ways of driving a
# player (VIA=engine, VIA=search) and both modes give their tables, every player
# plays exact moves there (the tables reach every position, so a miss is a bug in the
# player or the tool), and bad settings are refused with one line before any work.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo build --release --quiet -p ply-host --bin ply
ply="$root/target/release/ply"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
    echo "test-kalah-play: $*" >&2
    exit 1
}
for via in engine search; do
    out="$work/$via.txt"
    PLY="$ply" VIA="$via" SPEC=kalah:4x3 TABLES="$work/tables" COUNT_POSITIONS=6 COUNT_GAMES=2 \
        PLAYERS=tables TIME=0.05 bash scripts/kalah-play.sh >"$out" 2>"$work/$via.err" ||
        fail "VIA=$via failed: $(tail -3 "$work/$via.err")"
    grep -q "via $via;" "$out" || fail "VIA=$via: the header does not name it"
    grep -Eq '^\| tables \| 6 \| 6 \| 100\.0 \|' "$out" ||
        fail "VIA=$via: not every move of Kalah(4,3) was exact: $(grep '^| tables' "$out")"
    grep -Eq '^\| tables \| 2 \| 2 \| 100\.0 \|' "$out" ||
        fail "VIA=$via: a game did not end at its solved value: $(grep '^| tables' "$out")"
done
grep -q "from \`go\` to \`bestmove\`" "$work/engine.txt" || fail "VIA=engine: no move times"
if VIA=telnet PLY="$ply" bash scripts/kalah-play.sh >"$work/bad.out" 2>"$work/bad.err"; then
    fail "VIA=telnet was accepted"
fi
[ "$(wc -l <"$work/bad.err")" -eq 1 ] && grep -q "VIA must be engine or search" "$work/bad.err" ||
    fail "VIA=telnet: expected one line naming VIA, got: $(cat "$work/bad.err")"
[ -s "$work/bad.out" ] && fail "VIA=telnet wrote output"
echo "test-kalah-play: ok (VIA=engine and VIA=search, both modes, Kalah(4,3))"
