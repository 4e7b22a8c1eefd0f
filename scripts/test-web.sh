#!/usr/bin/env bash
# The page in a real browser (docs/web.md): builds it (scripts/web.sh), serves web/www
# on a free local port, and for every board runs headless Chromium on the page's
# self-test: engine moves through the Web Worker under a time limit and clicked moves
# alternate for a few plies, the page reporting each position text and the legal moves
# it listed. Every list is checked against `ply moves` (by position text, and by the
# moves from the start). Then a screenshot of each board after its game:
# target/web-screenshots/GAME.png. One more draughts game starts from a won ending of
# 3 pieces: each engine move there must keep the value `ply solve` gives (from the
# endgame databases, built here) and carry the databases' score.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-web.sh
bash scripts/web.sh
echo "== cargo build --release --bin ply"
cargo build --release --bin ply
ply=target/release/ply

out=target/web-test
shots=target/web-screenshots
rm -rf "$out" "$shots"
mkdir -p "$out" "$shots"
# The databases of up to 3 pieces, for `ply solve` to check the page's engine
# against (about a second).
export PLY_TABLES_DIR="$PWD/$out/tables"
"$ply" db build checkers --pieces 3 >"$out/db-build.log" 2>&1 ||
  { cat "$out/db-build.log" >&2; exit 1; }

server=""
chrome=""
cleanup() {
  [ -n "$chrome" ] && kill -TERM -- "-$chrome" 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
}
trap cleanup EXIT

python3 scripts/web-test.py serve web/www "$out/reports" "$out/port" &
server=$!
for _ in $(seq 300); do [ -s "$out/port" ] && break; sleep 0.1; done
[ -s "$out/port" ] || { echo "test-web: the test server did not start within 30 s" >&2; exit 1; }
base="http://127.0.0.1:$(cat "$out/port")/index.html"

# Chromium as root needs --no-sandbox; the network flags keep it from reaching out.
chromium_flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --disable-dev-shm-usage --hide-scrollbars)

# GAME PLIES: a short game on each board (tic-tac-toe to its end).
# spec, plies, and a start position (optional): the last is a won ending of 3
# pieces, played from the endgame databases compiled into the page.
games=("tictactoe 9" "kalah:6x4 12" "checkers 12" "checkers:calgary 12" "halma:8 10" "halma:16 8"
  "checkers 8 W:WK14,K19:BK32")
status=0
for entry in "${games[@]}"; do
  read -r spec plies position <<<"$entry"
  name=${spec//:/_}${position:+_db}
  # setsid: Chromium and its helpers form one process group, stopped together.
  setsid chromium "${chromium_flags[@]}" --user-data-dir="$out/profile-$name" \
    "$base?game=$spec${position:+&position=$position}&selftest=$plies&time=100&report=$name" \
    >"$out/$name.chromium.log" 2>&1 &
  chrome=$!
  for _ in $(seq 600); do
    [ -s "$out/reports/$name.jsonl" ] && break
    sleep 0.1
  done
  kill -TERM -- "-$chrome" 2>/dev/null || true
  wait "$chrome" 2>/dev/null || true
  chrome=""
  if [ ! -s "$out/reports/$name.jsonl" ]; then
    echo "FAIL $spec: the page reported nothing within 60 s (Chromium's log: $out/$name.chromium.log)"
    status=1
    continue
  fi
  python3 scripts/web-test.py check "$spec" "$out/reports/$name.jsonl" "$ply" "$out/$name.query" \
    ${position:+"$position"} || status=1
  # The board after the game: the page replays the moves (the engine stays idle).
  chromium "${chromium_flags[@]}" --user-data-dir="$out/profile-$name-shot" \
    --window-size=1180,860 --virtual-time-budget=5000 --screenshot="$shots/$name.png" \
    "$base?$(cat "$out/$name.query")" >"$out/$name.screenshot.log" 2>&1 || true
  if [ -s "$shots/$name.png" ]; then
    echo "   screenshot $shots/$name.png"
  else
    echo "FAIL $spec: no screenshot (Chromium's log: $out/$name.screenshot.log)"
    status=1
  fi
done
rm -rf "$out"/profile-*
[ "$status" = 0 ] && echo "web: every board's legal moves in the browser agree with ply moves"
exit "$status"
