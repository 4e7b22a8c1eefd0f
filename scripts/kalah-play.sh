#!/usr/bin/env bash
# How well `ply search` plays Kalah(6,4) at 0.1 s a move, judged by `ply solve`
# (docs/games/kalah/play.md; tools/kalah_play.py does the work). Two modes:
#
#   positions  COUNT_POSITIONS seeded random positions 6-30 plies in: each player's
#              move judged by the exact value of every move: the share of optimal
#              moves, and the seeds a move lost (mean, largest)
#   games      COUNT_GAMES games, each from a seeded random position 4-8 plies in:
#              the player moves for the side to move there, ply solve's perfect
#              play (its first best move) for the other side, to the end; a game
#              counts when the player's final margin equals the position's solved
#              value (any mistake against perfect play lowers it)
#
# Players, side by side on the same positions: `tables` (this build, the default
# evaluation: endgame tables and the exact solver at the root) and `heuristic`
# (this build with --eval ply: ply's evaluation alone, main's default before exact
# play). BASE=/path/to/ply adds a player `base` (another build, its defaults);
# PLAYERS picks among them (default "tables heuristic", and "base" with BASE).
# VIA picks how a player is driven: `engine` (default) keeps one `ply engine`
# process a player for the whole run, as a match controller does (docs/protocol.md):
# the tables are loaded once at `isready`, `ucinewgame` comes before each position
# or game, and each move is a `go movetime`, timed from outside; the solver's table
# is kept from move to move within a game. `search` makes every move a new `ply
# search` process, which loads (and checks) the tables before its clock starts and
# whose solver's table starts empty.
#
#   scripts/kalah-play.sh                          both modes: 200 positions, 100 games
#   MODE=positions COUNT_POSITIONS=40 scripts/kalah-play.sh
#   TABLES=/big/tables THREADS=2 MODE=games scripts/kalah-play.sh
#
# Environment: MODE (positions, games or both; default both), COUNT_POSITIONS
# (default 200), COUNT_GAMES (default 100), TIME (seconds a move, default 0.1),
# VIA (engine or search, default engine),
# SEED (default 46), THREADS (the players' --threads, default 1), SPEC (default
# kalah:6x4), TABLES (the players' endgame tables: PLY_TABLES_DIR, default
# ~/.cache/ply), JUDGE_TABLES (the judge's, default TABLES: bigger tables make
# `ply solve` faster, e.g. 26 seeds in play for 6 pits, 1.69 GB, built once in a
# few minutes by PLY_KALAH_TABLE_SEEDS=26), CACHE (the judge's answers kept between
# runs, default JUDGE_TABLES/kalah-play-judge.jsonl), PLY (a ply binary instead of
# building this checkout's), BASE (a second ply binary to compare).
#
# Time on the 2-core machine: positions about 2-4 minutes, games 30-60 minutes
# (most of it the judge's solves and each process's table load), the judge's
# answers cached for the next run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${MODE:-both}"
count_positions="${COUNT_POSITIONS:-200}"
count_games="${COUNT_GAMES:-100}"
time_s="${TIME:-0.1}"
seed="${SEED:-46}"
threads="${THREADS:-1}"
spec="${SPEC:-kalah:6x4}"
via="${VIA:-engine}"
tables="${TABLES:-${PLY_TABLES_DIR:-$HOME/.cache/ply}}"
judge_tables="${JUDGE_TABLES:-$tables}"
cache="${CACHE:-$judge_tables/kalah-play-judge.jsonl}"

fail() {
    echo "kalah-play: $*" >&2
    exit 2
}
case "$mode" in positions | games | both) ;; *) fail "MODE must be positions, games or both (got '$mode')" ;; esac
case "$via" in engine | search) ;; *) fail "VIA must be engine or search (got '$via')" ;; esac
[[ "$count_positions" =~ ^[1-9][0-9]*$ ]] || fail "COUNT_POSITIONS must be a whole number, 1 or more (got '$count_positions')"
[[ "$count_games" =~ ^[1-9][0-9]*$ ]] || fail "COUNT_GAMES must be a whole number, 1 or more (got '$count_games')"
[[ "$time_s" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "TIME must be seconds (got '$time_s')"
[[ "$seed" =~ ^[0-9]+$ ]] || fail "SEED must be a whole number (got '$seed')"
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || fail "THREADS must be a whole number, 1 or more (got '$threads')"
mkdir -p "$tables" "$judge_tables" || fail "cannot make the tables folders $tables, $judge_tables"

if [ -n "${PLY:-}" ]; then
    ply="$PLY"
    [ -x "$ply" ] || fail "PLY: $ply is not an executable"
else
    echo "== building ply (cargo build --release)" >&2
    (cd "$root" && cargo build --release --quiet -p ply-host --bin ply)
    ply="$root/target/release/ply"
fi
players=()
for p in ${PLAYERS:-tables heuristic ${BASE:+base}}; do
    case "$p" in
    tables) players+=(--player "tables=$ply,--threads,$threads") ;;
    heuristic) players+=(--player "heuristic=$ply,--threads,$threads,--eval,ply") ;;
    base)
        [ -n "${BASE:-}" ] && [ -x "$BASE" ] || fail "PLAYERS: base needs BASE, a ply binary (got '${BASE:-}')"
        players+=(--player "base=$BASE,--threads,$threads")
        ;;
    *) fail "PLAYERS: '$p' is not a player (tables, heuristic, base)" ;;
    esac
done
[ "${#players[@]}" -gt 0 ] || fail "PLAYERS names no player"

echo "# $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown), $spec, $time_s s a move, $threads thread(s), via $via; players' tables $tables, the judge's $judge_tables; load average $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
    PLAYER_TABLES="$tables" JUDGE_TABLES="$judge_tables" python3 "$root/tools/kalah_play.py" \
        --spec "$spec" --time "$time_s" --seed "$seed" --cache "$cache" --judge "$ply" --via "$via" "${players[@]}" "$@"
}
if [ "$mode" != games ]; then
    run --mode positions --count "$count_positions"
fi
if [ "$mode" != positions ]; then
    run --mode games --count "$count_games"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
