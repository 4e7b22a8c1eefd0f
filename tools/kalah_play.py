#!/usr/bin/env python3
"""How well `ply search` plays Kalah, judged by `ply solve` (docs/games/kalah/play.md).

Two modes, each over seeded random positions (a random move each ply from the start):

* positions: COUNT positions PLIES plies in (default 6-30); each player's move at
  --time seconds, judged by the exact value of every move (`ply solve`): the share
  of optimal moves, and the seeds a move lost against the best one (mean, largest).
* games: COUNT games, each from a position PLIES plies in (default 4-8): the player
  moves for the side to move of that position, the solver's perfect play (a best
  move of `ply solve`, the first printed) for the other side, to the end; the game
  counts as equal when the player's final margin equals the position's solved value
  (against perfect play any mistake lowers it).

Every player moves through a new `ply search SPEC --position P --time T` process
(--via play, games only: one `ply play` process a game, the solver's moves typed in;
--via engine: one `ply engine SPEC` process a player for the whole run, speaking
docs/protocol.md as a match controller does: the tables loaded once at `isready`,
`ucinewgame` before each position or game, `go movetime` for each move, its time
measured from outside).
A player is `LABEL=PLY[,ARG...]`: a ply binary and extra arguments, e.g.
`tables=target/release/ply` and `heuristic=target/release/ply,--eval,ply`.

    python3 tools/kalah_play.py --mode positions --count 200 --player ply=target/release/ply

The judge's endgame tables are those in JUDGE_TABLES (PLY_TABLES_DIR for `ply solve`),
the players' in PLAYER_TABLES (their PLY_TABLES_DIR); both default to PLY_TABLES_DIR.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time


class Kalah:
    """Kalah positions in the text ply reads (`4 4 4 4 4 4 [0] / ... / first`), the
    rules of core/src/games/kalah: checked against every `ply solve` of the run
    (the legal moves it values must be the moves this class finds)."""

    def __init__(self, pits, seeds, empty_capture=False):
        self.pits = pits
        self.rows = [[seeds] * pits, [seeds] * pits]
        self.stores = [0, 0]
        self.side = 0
        self.empty_capture = empty_capture

    def copy(self):
        k = Kalah(self.pits, 0, self.empty_capture)
        k.rows = [list(self.rows[0]), list(self.rows[1])]
        k.stores = list(self.stores)
        k.side = self.side
        return k

    def over(self):
        return not any(self.rows[0]) or not any(self.rows[1])

    def moves(self):
        """Legal moves, 1-based pit numbers from the mover's left."""
        if self.over():
            return []
        return [i + 1 for i, c in enumerate(self.rows[self.side]) if c > 0]

    def play(self, move):
        p, me = self.pits, self.side
        own, opp = self.rows[me], self.rows[1 - me]
        i = move - 1
        seeds, own[i] = own[i], 0
        # Slots: own pits 0..p-1, own store p, the opponent's pits p+1..2p.
        pos = i
        while seeds:
            pos = (pos + 1) % (2 * p + 1)
            if pos < p:
                own[pos] += 1
            elif pos == p:
                self.stores[me] += 1
            else:
                opp[pos - p - 1] += 1
            seeds -= 1
        extra = pos == p
        if pos < p and own[pos] == 1:
            across = p - 1 - pos
            if opp[across] > 0 or self.empty_capture:
                self.stores[me] += 1 + opp[across]
                own[pos], opp[across] = 0, 0
        if self.over():
            for s in (0, 1):
                self.stores[s] += sum(self.rows[s])
                self.rows[s] = [0] * p
        elif not extra:
            self.side = 1 - me

    def seeds_in_play(self):
        return sum(self.rows[0]) + sum(self.rows[1])

    def text(self):
        row = lambda s: " ".join(str(c) for c in self.rows[s]) + f" [{self.stores[s]}]"
        return f"{row(0)} / {row(1)} / {'first' if self.side == 0 else 'second'}"


def parse_spec(spec):
    m = re.fullmatch(r"kalah(?::(\d+)x(\d+))?(:empty-capture)?", spec)
    if not m:
        raise SystemExit(f"--spec {spec}: expected kalah[:PITSxSEEDS][:empty-capture]")
    pits, seeds = (int(m.group(1)), int(m.group(2))) if m.group(1) else (6, 4)
    return pits, seeds, bool(m.group(3))


def random_position(rng, rules, plies):
    """A position after `plies` random moves from the start; None if the game ended."""
    k = Kalah(*rules)
    for _ in range(plies):
        ms = k.moves()
        if not ms:
            return None
        k.play(rng.choice(ms))
    return None if k.over() else k


class Judge:
    """`ply solve`: the value of a position and of each move, for its side to move."""

    def __init__(self, ply, spec, tables, cache):
        self.ply, self.spec, self.tables = ply, spec, tables
        self.cache_path, self.cache = cache, {}
        self.seconds, self.solves = 0.0, 0
        if cache and os.path.exists(cache):
            with open(cache) as f:
                for line in f:
                    e = json.loads(line)
                    self.cache[(e["spec"], e["position"])] = e
        self.rules = parse_spec(spec)

    def solve(self, pos):
        key = (self.spec, pos.text())
        if key not in self.cache:
            env = dict(os.environ)
            if self.tables:
                env["PLY_TABLES_DIR"] = self.tables
            args = [self.ply, "solve", self.spec, "--position", pos.text()]
            t = time.monotonic()
            out = subprocess.run(args, capture_output=True, text=True, env=env)
            self.seconds += time.monotonic() - t
            self.solves += 1
            if out.returncode != 0:
                raise SystemExit(f"{' '.join(args)} failed: {out.stderr.strip()[-300:]}")
            if "upper bound" in out.stdout:
                raise SystemExit(f"{' '.join(args)}: a move's value is only a bound")
            value = int(re.search(r"^value: (-?\d+)$", out.stdout, re.M).group(1))
            moves = {int(m): int(v) for m, v in re.findall(r"^move (\d+): (-?\d+)$", out.stdout, re.M)}
            e = {"spec": self.spec, "position": pos.text(), "value": value,
                 "moves": {str(m): v for m, v in moves.items()}}
            self.cache[key] = e
            if self.cache_path:
                with open(self.cache_path, "a") as f:
                    f.write(json.dumps(e) + "\n")
        e = self.cache[key]
        moves = {int(m): v for m, v in e["moves"].items()}
        if sorted(moves) != pos.moves():
            raise SystemExit(f"the rules here and ply's differ at {pos.text()}: "
                             f"ply values moves {sorted(moves)}, here {pos.moves()}")
        if max(moves.values()) != e["value"]:
            raise SystemExit(f"ply solve at {pos.text()}: value {e['value']} is no move's")
        return e["value"], moves


class Player:
    """A ply binary with arguments, choosing moves through `ply search`."""

    def __init__(self, text, spec, seconds, tables):
        label, _, rest = text.partition("=")
        parts = rest.split(",")
        if not label or not parts[0]:
            raise SystemExit(f"--player {text}: expected LABEL=PLY[,ARG...]")
        self.label, self.ply, self.args = label, parts[0], parts[1:]
        self.spec, self.seconds, self.tables = spec, seconds, tables
        self.moves, self.wall, self.longest = 0, 0.0, 0.0
        self.engine = None

    def start_engine(self):
        """Starts the player's `ply engine` process and waits for its tables."""
        env = dict(os.environ)
        if self.tables:
            env["PLY_TABLES_DIR"] = self.tables
        args = [self.ply, "engine", self.spec] + self.args
        self.engine = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, env=env, text=True,
                                       bufsize=1)
        self.send("uci")
        self.expect("uciok")
        self.send("isready")
        self.expect("readyok")

    def send(self, line):
        self.engine.stdin.write(line + "\n")
        self.engine.stdin.flush()

    def expect(self, word):
        """The engine's lines up to the first starting with `word`: that line."""
        while True:
            line = self.engine.stdout.readline()
            if not line:
                raise SystemExit(f"{self.label}: ply engine ended before `{word}`")
            if line.startswith("error"):
                raise SystemExit(f"{self.label}: ply engine answered {line.strip()}")
            if line.split()[:1] == [word]:
                return line.strip()

    def new_game(self):
        if self.engine is not None:
            self.send("ucinewgame")

    def engine_move(self, pos):
        self.send(f"position fen {pos.text()}")
        t = time.monotonic()
        self.send(f"go movetime {round(self.seconds * 1000)}")
        line = self.expect("bestmove")
        wall = time.monotonic() - t
        self.moves += 1
        self.wall += wall
        self.longest = max(self.longest, wall)
        return int(line.split()[1])

    def close(self):
        if self.engine is not None:
            self.send("quit")
            self.engine.stdin.close()
            self.engine.wait()

    def choose(self, pos):
        if self.engine is not None:
            return self.engine_move(pos)
        env = dict(os.environ)
        if self.tables:
            env["PLY_TABLES_DIR"] = self.tables
        args = [self.ply, "search", self.spec, "--position", pos.text(),
                "--time", str(self.seconds)] + self.args
        t = time.monotonic()
        out = subprocess.run(args, capture_output=True, text=True, env=env)
        wall = time.monotonic() - t
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed: {out.stderr.strip()[-300:]}")
        self.moves += 1
        self.wall += wall
        self.longest = max(self.longest, wall)
        return int(re.search(r"^best move: (\d+)$", out.stdout, re.M).group(1))


    def play_game(self, start, judge):
        """The game from `start` in one `ply play` process, the player for the side to
        move there, the judge's moves typed in for the other side: the final position.
        The player keeps its tables and its solver's table from move to move, and its
        first move counts from the process start (docs/games/kalah/play.md)."""
        me = start.side
        sides = ["ai", "human"] if me == 0 else ["human", "ai"]
        env = dict(os.environ)
        if self.tables:
            env["PLY_TABLES_DIR"] = self.tables
        args = [self.ply, "play", self.spec, "--position", start.text(), "--first", sides[0],
                "--second", sides[1], "--time", str(self.seconds)] + self.args
        err = tempfile.TemporaryFile()
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=err, env=env)
        events = re.compile(rb"position: ([^\n]*)\n|chooses pit (\d+) \(|to move \('help'"
                            rb" explains, 'moves' lists them, 'quit' ends\): |result: ")
        pos, buf, at, shown = start.copy(), b"", 0, None
        while True:
            m = events.search(buf, at)
            if m is None:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                buf += chunk
                continue
            at = m.end()
            if m.group(1) is not None:
                shown = m.group(1).decode()
            elif m.group(2) is not None:
                if pos.side != me:
                    raise SystemExit(f"{' '.join(args)}: ply moved for the other side")
                pos.play(int(m.group(2)))
                self.moves += 1
            elif m.group(0).startswith(b"to move"):
                if shown != pos.text():
                    raise SystemExit(f"{' '.join(args)}: ply shows {shown}, here {pos.text()}")
                value, moves = judge.solve(pos)
                mv = min(k for k, v in moves.items() if v == value)
                pos.play(mv)
                proc.stdin.write(f"{mv}\n".encode())
                proc.stdin.flush()
            else:
                break
        proc.stdin.close()
        proc.stdout.read()
        if proc.wait() != 0 or not pos.over():
            err.seek(0)
            raise SystemExit(f"{' '.join(args)} failed: {err.read().decode()[-300:]}")
        return pos


def plies_range(text):
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def parse_position(rules, text):
    """A position from ply's text (`4 4 4 4 4 4 [0] / ... / first`)."""
    k = Kalah(*rules)
    first, second, side = (part.strip() for part in text.split("/"))
    for s, part in enumerate((first, second)):
        pits, store = part.split("[")
        k.rows[s] = [int(x) for x in pits.split()]
        k.stores[s] = int(store.rstrip("]"))
    k.side = 0 if side == "first" else 1
    return k


def run_positions(a, rules, judge, players, rng):
    lo, hi = plies_range(a.plies or "6-30")
    positions = []
    if a.positions:
        with open(a.positions) as f:
            positions = [parse_position(rules, line.rstrip("\n").split("\t")[-1])
                         for line in f if line.strip()]
        a.count = len(positions)
    positions += random_positions(rng, rules, lo, hi, a.count - len(positions))
    stats = {pl.label: [] for pl in players}
    for n, pos in enumerate(positions):
        value, moves = judge.solve(pos)
        for pl in players:
            pl.new_game()
            m = pl.choose(pos)
            lost = value - moves[m]
            stats[pl.label].append((pos.seeds_in_play(), lost))
            if lost and a.verbose:
                print(f"  {pl.label}: {pos.text()}: played {m} ({moves[m]}), best {value}, "
                      f"lost {lost}", file=sys.stderr, flush=True)
        if a.verbose:
            print(f"position {n + 1}/{len(positions)} done", file=sys.stderr, flush=True)
    print(f"\n{a.count} random {a.spec} positions {lo}-{hi} plies in (seed {a.seed}), "
          f"{a.time} s a move; judged by ply solve\n")
    print("| player | positions | optimal | optimal % | seeds lost: mean | max | "
          "optimal by seeds in play: >36 | 29-36 | <=28 |")
    print("|---|---:|---:|---:|---:|---:|---|---|---|")
    for pl in players:
        s = stats[pl.label]
        ok = sum(1 for _, lost in s if lost == 0)
        bucket = lambda f: (lambda b: f"{sum(1 for _, l in b if l == 0)}/{len(b)}")(
            [x for x in s if f(x[0])])
        print(f"| {pl.label} | {len(s)} | {ok} | {100.0 * ok / len(s):.1f} | "
              f"{sum(l for _, l in s) / len(s):.2f} | {max(l for _, l in s)} | "
              f"{bucket(lambda n: n > 36)} | {bucket(lambda n: 29 <= n <= 36)} | "
              f"{bucket(lambda n: n <= 28)} |")


def random_positions(rng, rules, lo, hi, count):
    """`count` seeded random positions, each LO-HI random plies in and still going."""
    out = []
    while len(out) < count:
        p = random_position(rng, rules, rng.randint(lo, hi))
        if p is not None:
            out.append(p)
    return out


def run_games(a, rules, judge, players, rng):
    lo, hi = plies_range(a.plies or "4-8")
    starts = random_positions(rng, rules, lo, hi, a.count)
    stats = {pl.label: [] for pl in players}
    for n, start in enumerate(starts):
        want, _ = judge.solve(start)
        me = start.side
        for pl in players:
            pos = start.copy()
            pl.new_game()
            if a.via == "play":
                pos = pl.play_game(start, judge)
            while not pos.over():
                if pos.side == me:
                    m = pl.choose(pos)
                else:
                    value, moves = judge.solve(pos)
                    m = min(k for k, v in moves.items() if v == value)
                pos.play(m)
            margin = pos.stores[me] - pos.stores[1 - me]
            stats[pl.label].append(want - margin)
            if a.verbose:
                print(f"game {n + 1}/{len(starts)} {pl.label}: from {start.text()}: "
                      f"solved {want}, final margin {margin}", file=sys.stderr, flush=True)
    via = {"play": "one `ply play` process a game",
           "engine": "one `ply engine` process a player, `go movetime`",
           "search": "one `ply search` process a move"}[a.via]
    print(f"\n{a.count} {a.spec} games from random positions {lo}-{hi} plies in (seed "
          f"{a.seed}), the player at {a.time} s a move ({via}) for the side to move "
          f"there, the solver's perfect play for the other side\n")
    print("| player | games | final margin = solved value | % | shortfall: mean | max |")
    print("|---|---:|---:|---:|---:|---:|")
    for pl in players:
        s = stats[pl.label]
        ok = sum(1 for d in s if d == 0)
        print(f"| {pl.label} | {len(s)} | {ok} | {100.0 * ok / len(s):.1f} | "
              f"{sum(s) / len(s):.2f} | {max(s)} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mode", choices=["positions", "games"], required=True)
    p.add_argument("--player", action="append", required=True,
                   help="LABEL=PLY[,ARG...] (repeat for several)")
    p.add_argument("--judge", help="the ply binary that solves (default: the first player's)")
    p.add_argument("--spec", default="kalah:6x4")
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--plies", help="LO-HI plies in (default 6-30 positions, 4-8 games)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time", type=float, default=0.1)
    p.add_argument("--cache", help="a file of `ply solve` answers kept between runs")
    p.add_argument("--positions", help="positions mode: these positions (a file of position "
                   "texts, one a line, the last tab-separated field) instead of random ones")
    p.add_argument("--via", choices=["search", "play", "engine"], default="search",
                   help="the player's moves by a `ply search` process each (default), "
                   "one `ply play` process a game (games mode), or one `ply engine` "
                   "process a player for the whole run")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args()
    if a.count < 1:
        raise SystemExit("--count must be at least 1")
    rules = parse_spec(a.spec)
    tables = os.environ.get("PLY_TABLES_DIR")
    players = [Player(t, a.spec, a.time, os.environ.get("PLAYER_TABLES", tables))
               for t in a.player]
    judge = Judge(a.judge or players[0].ply, a.spec, os.environ.get("JUDGE_TABLES", tables),
                  a.cache)
    if a.via == "play" and a.mode != "games":
        raise SystemExit("--via play plays games: use it with --mode games")
    rng = random.Random(a.seed)
    t = time.monotonic()
    if a.via == "engine":
        for pl in players:
            pl.start_engine()
    try:
        (run_positions if a.mode == "positions" else run_games)(a, rules, judge, players, rng)
    finally:
        for pl in players:
            pl.close()
    print(f"\nwall {time.monotonic() - t:.0f} s: ply solve {judge.solves} times, "
          f"{judge.seconds:.0f} s (answers not cached before)", end="")
    for pl in players:
        if pl.moves:
            what = "from `go` to `bestmove`" if a.via == "engine" else "with its process"
            print(f"; {pl.label} {pl.moves} moves, {pl.wall / pl.moves:.3f} s a move "
                  f"(longest {pl.longest:.3f} s) {what}", end="")
    print()


if __name__ == "__main__":
    sys.exit(main())
