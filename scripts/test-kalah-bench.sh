#!/usr/bin/env bash
# Part of scripts/test.sh (CI): scripts/kalah-bench.sh on a board that solves at once
# (Kalah(4,3), both rules, both modes, two runs each) writes its table and summary;
# it refuses bad settings before any run, and a solve whose runs print different
# values (a fake ply) stops it with an error, nothing written to OUT.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/script-test.sh test-kalah-bench

# A real run.
SOLVES="kalah:4x3 kalah:4x3:empty-capture" RUNS=2 TABLES="$work/tables" OUT="$work/out.md" \
    bash scripts/kalah-bench.sh >"$work/stdout" 2>"$work/stderr" || bad "the Kalah(4,3) run failed: $(tail -n 3 "$work/stderr")"
rows=$(grep -cE '^\| kalah:4x3(:empty-capture)? \| (nothing|disk) \| [12] \| [0-9]+\.[0-9]{2} \| [0-9.]+ \| [0-9.]+ \| [0-9]+ \|$' "$work/out.md" || true)
[ "$rows" = 8 ] || bad "want 8 rows of runs in the table, got $rows"
summaries=$(grep -cE '^- kalah:4x3(:empty-capture)?, (nothing: .* at most 35 s|disk: .* at most 10 s) in 2 of 2 runs$' "$work/out.md" || true)
[ "$summaries" = 4 ] || bad "want 4 summary lines, each against its mode's goal, got $summaries"
grep -cE '^- kalah:4x3, nothing: fastest [0-9]+\.[0-9]{2} s, median [0-9]+\.[0-9]{2} s, slowest [0-9]+\.[0-9]{2} s; ' "$work/out.md" >/dev/null ||
    bad "a summary line does not give the fastest, median and slowest run"
grep -cE '^  \(value 6; endgame tables up to [0-9]+ seeds in play; every run the same values and best moves\)$' "$work/out.md" >/dev/null ||
    bad "the summary does not give Kalah(4,3)'s value, 6, and the tables' seeds"
cmp -s "$work/stdout" "$work/out.md" || bad "stdout is not the table written to OUT"

# Bad settings: a one-line error naming the setting, exit 2, before any run.
expect_refusal() {
    local what="$1" want="$2"
    shift 2
    rm -f "$work/none.md"
    if env "$@" SOLVES=kalah:4x3 OUT="${OUT_OVERRIDE:-$work/none.md}" bash scripts/kalah-bench.sh >/dev/null 2>"$work/err"; then
        bad "$what was accepted"
    elif ! grep -c -- "$want" "$work/err" >/dev/null; then
        bad "$what: want an error naming '$want', got: $(cat "$work/err")"
    elif grep -c '^== kalah' "$work/err" >/dev/null; then
        bad "$what: a run started before the error"
    fi
    [ ! -e "$work/none.md" ] || bad "$what: OUT was written"
}
expect_refusal "RUNS=0" "RUNS must be" RUNS=0
expect_refusal "RUNS=two" "RUNS must be" RUNS=two
expect_refusal "GOAL_NOTHING=fast" "GOAL_NOTHING must be" GOAL_NOTHING=fast
expect_refusal "GOAL_DISK=-1" "GOAL_DISK must be" GOAL_DISK=-1
expect_refusal "MODES=fast" "MODES: 'fast' is not a mode" MODES=fast
expect_refusal "PLY not executable" "PLY: " PLY="$work/missing"
OUT_OVERRIDE="$work/no/such/folder/out.md" expect_refusal "OUT in a missing folder" "OUT: cannot write" RUNS=1

# A ply whose second run prints another value: the timing is refused.
cat >"$work/fake-ply" <<EOF
#!/usr/bin/env bash
n=\$(cat "$work/count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$work/count"
echo "value: \$((n == 0 ? 6 : 4))"
echo "best moves: 1"
echo "move 1: 6"
echo "time: endgame tables 0.01 s, search 0.02 s"
echo "nodes: 10"
EOF
chmod +x "$work/fake-ply"
if PLY="$work/fake-ply" SOLVES=kalah:4x3 MODES=nothing RUNS=2 OUT="$work/fake.md" \
    bash scripts/kalah-bench.sh >/dev/null 2>"$work/err"; then
    bad "runs that printed different values were timed"
elif ! grep -c 'printed other values than run 1' "$work/err" >/dev/null; then
    bad "different values: want an error saying so, got: $(cat "$work/err")"
fi
[ ! -e "$work/fake.md" ] || bad "different values: OUT was written"

[ "$status" = 0 ] && echo "kalah-bench: a table of 8 runs and 4 summaries for Kalah(4,3); bad settings and changing answers refused"
exit "$status"
