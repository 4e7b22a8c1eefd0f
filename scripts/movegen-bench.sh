#!/usr/bin/env bash
# Move generation at the hardware limit, measured side by side (docs/performance.md,
# section "Move generation"; the runs in docs/log/): single-thread draughts perft 12 of ply (the build the
# README gives, `cargo build --release`) beside the tight C++ reference perft
# (`tight.cpp`, a yardstick kept outside the repository), the engine's nodes per
# second on two draughts searches, Halma 16x16 perft 5 and Kalah perft 11. Every
# figure is user CPU time (`/usr/bin/time -f %U`): the machine may be shared, and
# CPU time is what a busy machine disturbs least. The rounds alternate the
# programs, and the load average is printed with each round; the table takes each
# program's fastest round.
#
#   scripts/movegen-bench.sh                 ply and the reference
#   scripts/movegen-bench.sh /tmp/ply-before ... and an older ply binary beside them
#
# Environment: ROUNDS (default 3); PEERS (the folder holding checkers-tight/tight.cpp;
# default: shared/peers next to the repository or to its worktree folder). Without
# g++ or tight.cpp the reference is skipped, with a message.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-3}"
before="${1:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== building ply (cargo build --release)"
(cd "$root" && cargo build --release --quiet --bin ply)
ply="$root/target/release/ply"

peers="${PEERS:-}"
if [ -z "$peers" ]; then
    for p in "$root/../shared/peers" "$root/../../shared/peers"; do
        [ -f "$p/checkers-tight/tight.cpp" ] && peers="$p" && break
    done
fi
tight=""
if [ -n "$peers" ] && [ -f "$peers/checkers-tight/tight.cpp" ] && command -v g++ >/dev/null; then
    echo "== building the reference: g++ -O3 -march=native $peers/checkers-tight/tight.cpp"
    g++ -O3 -march=native -o "$work/tight" "$peers/checkers-tight/tight.cpp"
    g++ -O3 -march=native -DWITH_HASH -o "$work/tight_hash" "$peers/checkers-tight/tight.cpp"
    tight="$work/tight"
else
    echo "== no reference: tight.cpp (checkers-tight under PEERS) or g++ not found; skipping it"
fi
if [ -n "$before" ] && [ ! -x "$before" ]; then
    echo "no executable $before" >&2
    exit 1
fi

# cpu NAME COMMAND...: runs COMMAND, keeps its user CPU seconds under NAME.
cpu() {
    local name="$1"
    shift
    /usr/bin/time -f '%U' -o "$work/time" "$@" >/dev/null 2>&1
    local t
    t=$(tail -n 1 "$work/time")
    echo "$t" >>"$work/t.$name"
    printf '  %-28s %6s s\n' "$name" "$t"
}
best() { sort -g "$work/t.$1" | sed -n 1p; }

middle='B:W19,21,22,27,29,30,31,32:B1,2,3,4,5,11,12,14'
bins=(after)
[ -n "$before" ] && bins=(before after)
for r in $(seq 1 "$rounds"); do
    echo "== round $r of $rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
    if [ -n "$tight" ]; then
        cpu tight "$work/tight" 12
        cpu tight_hash "$work/tight_hash" 12
    fi
    for b in "${bins[@]}"; do
        bin="$ply"
        [ "$b" = before ] && bin="$before"
        # The generator alone: no table of counts (a ply from before the table has
        # no --no-table, and counts without one anyway).
        plain=()
        help=$("$bin" perft --help 2>&1 || true)
        [[ $help == *--no-table* ]] && plain=(--no-table)
        cpu "perft12.$b" "$bin" perft checkers 12 --threads 1 "${plain[@]}"
        cpu "search16.$b" "$bin" search checkers --depth 16
        cpu "middle14.$b" "$bin" search checkers --depth 14 --position "$middle"
        cpu "halma5.$b" "$bin" perft halma:16 5 --threads 1
        cpu "kalah11.$b" "$bin" perft kalah 11 --threads 1
    done
done

# Leaves of draughts perft 12 (paths) and its interior nodes (the positions at
# depths 0-11, each generating or counting its moves).
leaves=388623673
interior=108669000
search16=$("$ply" search checkers --depth 16 2>/dev/null | sed -n 's/^nodes: //p')
middle14=$("$ply" search checkers --depth 14 --position "$middle" 2>/dev/null | sed -n 's/^nodes: //p')
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f M/s", n / s / 1e6; else print "-" }'; }
per() { awk -v n="$1" -v s="$2" 'BEGIN { if (n > 0) printf "%.1f ns", s * 1e9 / n; else print "-" }'; }

echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); best of $rounds rounds, user CPU"
echo
echo "| program | draughts perft 12 (s) | leaves/s | per interior node |"
echo "|---|---:|---:|---:|"
for b in "${bins[@]}"; do
    t=$(best "perft12.$b")
    echo "| ply ($b) | $t | $(rate $leaves "$t") | $(per $interior "$t") |"
done
if [ -n "$tight" ]; then
    for t in tight tight_hash; do
        s=$(best $t)
        echo "| $t.cpp | $s | $(rate $leaves "$s") | $(per $interior "$s") |"
    done
fi
echo
echo "| program | search --depth 16 | middle game --depth 14 | Halma 16x16 perft 5 | Kalah perft 11 |"
echo "|---|---:|---:|---:|---:|"
for b in "${bins[@]}"; do
    s=$(best "search16.$b")
    m=$(best "middle14.$b")
    echo "| ply ($b) | $s s, $(rate "$search16" "$s") | $m s, $(rate "$middle14" "$m") | $(best "halma5.$b") s | $(best "kalah11.$b") s |"
done
