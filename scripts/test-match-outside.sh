#!/usr/bin/env bash
# Part of scripts/test.sh (CI): scripts/match-outside.sh with ply's own engine (the
# material-only evaluation) standing in for an outside one, two games at 0.02 s:
# its table row and files; bad settings refused with one line before any game.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/script-test.sh test-match-outside

OPPONENTS="material=$PLY engine checkers --eval material" TIME=0.02 GAMES=2 OUT_DIR="$work/out" \
    bash scripts/match-outside.sh >"$work/stdout" 2>"$work/stderr" || bad "the run failed: $(tail -n 3 "$work/stderr")"
row=$(grep -cE '^\| material \| 0\.02 \| 2 \| [0-2]-[0-2]-[0-2] \| [0-9.]+% ± [0-9.]+% \| [^|]+ \| [0-9.]+% \| [0-9.]+ \| [0-9]+/[0-9]+ \| [0-9.]+% \|$' "$work/stdout" || true)
[ "$row" = 1 ] || bad "want one table row for 'material', got: $(cat "$work/stdout")"
cmp -s "$work/stdout" "$work/out/table.md" || bad "stdout is not the table written to OUT_DIR/table.md"
[ -s "$work/out/material.pdn" ] || bad "no PDN of the games"
[ "$(grep -c '^\[Event ' "$work/out/material.pdn" || true)" = 2 ] || bad "want 2 games in the PDN"

expect_refusal() {
    local what="$1" want="$2"
    shift 2
    rm -rf "$work/none"
    if env "$@" OUT_DIR="$work/none" bash scripts/match-outside.sh >/dev/null 2>"$work/err"; then
        bad "$what was accepted"
    elif ! grep -c -- "$want" "$work/err" >/dev/null; then
        bad "$what: want '$want' in the error, got: $(cat "$work/err")"
    elif [ "$(wc -l <"$work/err")" != 1 ]; then
        bad "$what: want one line, got: $(cat "$work/err")"
    elif [ -e "$work/none" ]; then
        bad "$what: OUT_DIR was made before the refusal"
    fi
}
expect_refusal "no opponents" "OPPONENTS is empty" OPPONENTS=
expect_refusal "an item without =" "expected NAME=COMMAND" OPPONENTS=simplech
expect_refusal "a missing program" "is not a program" OPPONENTS="x=/no/such/engine"
expect_refusal "a bad time" "TIME=fast" OPPONENTS="x=$PLY" TIME=fast
expect_refusal "a bad game count" "GAMES=0" OPPONENTS="x=$PLY" GAMES=0

[ "$status" = 0 ] && echo "match-outside: a table row and the games; bad settings refused"
exit "$status"
