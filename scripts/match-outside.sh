#!/usr/bin/env bash
# Strength against engines nobody here wrote (docs/strength.md): `ply match` of
# `ply engine GAME` against each engine of OPPONENTS, from the ACF three-move ballots
# (checkers) with colours swapped, at TIME seconds a move, one process a side. A
# measurement, not a test: all 312 ballot games at 0.1 s take about an hour an
# opponent on this machine; not run by CI (scripts/test-match-outside.sh checks the
# script itself).
#
# Each opponent is NAME=COMMAND (the command line of a program speaking the engine
# protocol, docs/protocol.md), the opponents separated by ';'; how to build the outside engines measured so far is
# in docs/strength.md. For each, the match's log and its games (PDN) go to OUT_DIR,
# and a row of the table below to stdout and to OUT_DIR/table.md:
#
#   | opponent | time | games | ply's W-D-L | score (95%) | Elo (95%) | ply's mean time | ply's longest move | ply's moves over | opponent's mean time |
#
#   OPPONENTS="simplech=/path/to/simplech;guinn=/path/to/guinn" scripts/match-outside.sh
#   OPPONENTS=... TIME=1 GAMES=40 scripts/match-outside.sh
#   OPPONENTS=... SPRT=elo0=0,elo1=20 scripts/match-outside.sh
#
# Environment: OPPONENTS (required), GAME (default checkers), TIME (default 0.1),
# GAMES (default: every ballot twice), SPRT (an --sprt of ply match), ENGINE_ARGS
# (more flags for `ply engine`, e.g. "--eval standard"), CONCURRENCY (default 1),
# OUT_DIR (default target/match-outside), PLY (a ply binary instead of building
# this checkout's).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
game="${GAME:-checkers}"
time_s="${TIME:-0.1}"
games="${GAMES:-}"
sprt="${SPRT:-}"
engine_args="${ENGINE_ARGS:-}"
concurrency="${CONCURRENCY:-1}"
out_dir="${OUT_DIR:-$root/target/match-outside}"

fail() {
    echo "match-outside: $*" >&2
    exit 2
}

[ -n "${OPPONENTS:-}" ] || fail "OPPONENTS is empty: give NAME=COMMAND pairs, e.g. OPPONENTS=\"simplech=/path/to/simplech\""
[[ "$time_s" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "TIME=$time_s: expected seconds, e.g. 0.1"
[ -z "$games" ] || [[ "$games" =~ ^[1-9][0-9]*$ ]] || fail "GAMES=$games: expected a whole number of games, at least 1"
[[ "$concurrency" =~ ^[1-9][0-9]*$ ]] || fail "CONCURRENCY=$concurrency: expected a whole number, at least 1"
names=()
commands=()
IFS=';' read -r -a pairs <<<"$OPPONENTS"
for pair in "${pairs[@]}"; do
    pair="${pair#"${pair%%[![:space:]]*}"}"
    [ -n "$pair" ] || continue
    name="${pair%%=*}"
    command="${pair#*=}"
    [ "$name" != "$pair" ] && [ -n "$name" ] && [ -n "$command" ] ||
        fail "OPPONENTS item '$pair': expected NAME=COMMAND"
    [[ "$name" =~ ^[A-Za-z0-9_.-]+$ ]] || fail "OPPONENTS name '$name': letters, digits, '.', '_' and '-' only"
    program="${command%% *}"
    [ -x "$program" ] || command -v "$program" >/dev/null ||
        fail "OPPONENTS $name: '$program' is not a program that can be run"
    names+=("$name")
    commands+=("$command")
done
[ "${#names[@]}" -gt 0 ] || fail "OPPONENTS has no NAME=COMMAND pair"
mkdir -p "$out_dir" 2>/dev/null && [ -w "$out_dir" ] || fail "OUT_DIR=$out_dir cannot be written"

if [ -z "${PLY:-}" ]; then
    (cd "$root" && cargo build --release --locked --quiet -p ply-host --bin ply)
    PLY="$root/target/release/ply"
fi
[ -x "$PLY" ] || fail "PLY=$PLY is not a program"

header="| opponent | time (s) | games | ply's W-D-L | score (95%) | Elo (95%) | ply's mean time | ply's longest move (s) | ply's moves over | opponent's mean time |"
rule="|---|---:|---:|---|---|---|---:|---:|---:|---:|"
table="$out_dir/table.md"
{
    echo "$header"
    echo "$rule"
} >"$table"
echo "$header"
echo "$rule"

for k in "${!names[@]}"; do
    name="${names[$k]}"
    log="$out_dir/$name.log"
    args=(match "$game" --a "$PLY engine $game $engine_args" --b "${commands[$k]}"
        --time "$time_s" --concurrency "$concurrency" --pdn "$out_dir/$name.pdn")
    [ -z "$games" ] || args+=(--games "$games")
    [ -z "$sprt" ] || args+=(--sprt "$sprt")
    "$PLY" "${args[@]}" >"$log" 2>&1 || fail "the match against $name failed: $(tail -n 1 "$log")"
    # The summary lines of ply match (docs/match.md).
    wdl=$(sed -nE 's/^A: ([0-9]+) wins, ([0-9]+) draws, ([0-9]+) losses in ([0-9]+) games.*/\1-\2-\3 \4/p' "$log")
    score=$(sed -nE 's/^score: A ([0-9.]+%) ± ([0-9.]+%).*/\1 ± \2/p' "$log")
    elo=$(sed -nE 's/^elo: A ([^ ]+) \(95% interval ([^ ]+) to ([^ ]+)\)/\1 (\2 to \3)/p' "$log")
    time_a=$(sed -nE 's/^time A: ([0-9.]+%) of the .* longest ([0-9.]+) s, ([0-9]+) of ([0-9]+) moves over budget/\1 \2 \3\/\4/p' "$log")
    time_b=$(sed -nE 's/^time B: ([0-9.]+%) of the .*/\1/p' "$log")
    [ -n "$wdl" ] && [ -n "$score" ] && [ -n "$elo" ] && [ -n "$time_a" ] && [ -n "$time_b" ] ||
        fail "the match against $name printed no summary (see $log)"
    read -r wdl_text played <<<"$wdl"
    read -r mean_a longest_a over_a <<<"$time_a"
    row="| $name | $time_s | $played | $wdl_text | $score | $elo | $mean_a | $longest_a | $over_a | $time_b |"
    echo "$row"
    echo "$row" >>"$table"
done
