#!/usr/bin/env python3
"""Differential fixtures from OpenSpiel: tic-tac-toe, Kalah (OpenSpiel's `mancala`)
and English draughts (OpenSpiel's `checkers`).

Plays seeded random games in OpenSpiel and writes, for every position visited at the
start of a turn, the set of positions reachable in one turn, and for every game the
final position with its result. The Rust tests in tests/tests/<game>/differential.rs replay
these files through ply-core and require the same sets and results. The format is
documented in tests/fixtures/README.md; it knows nothing of ply's own text formats.

Usage (from the repository root):

    python3 -m venv .venv-openspiel
    .venv-openspiel/bin/pip install -r tools/requirements.txt
    .venv-openspiel/bin/python tools/openspiel_fixtures.py            # all games
    .venv-openspiel/bin/python tools/openspiel_fixtures.py --game mancala

The output is a pure function of the seeds and the game counts below (and of
OpenSpiel's rules), so a regeneration with the pinned OpenSpiel version reproduces the
committed files byte for byte.
"""

import argparse
import importlib.metadata
import os
import random
import sys

import pyspiel

# (OpenSpiel game name, fixture file, number of random games, seed)
GAMES = {
    "tic_tac_toe": ("tictactoe.txt", 600, 1),
    "mancala": ("kalah.txt", 150, 2),
    "checkers": ("checkers.txt", 120, 3),
}

FIXTURE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")


# ---------------------------------------------------------------------------------
# Positions in the neutral format
# ---------------------------------------------------------------------------------


def ttt_board(state):
    """Nine characters x, o, '.' row by row from the top left."""
    rows = str(state).split()
    board = "".join(rows)
    assert len(board) == 9 and set(board) <= set("xo."), board
    return board


def ttt_side(state):
    return "x" if state.current_player() == 0 else "o"


def mancala_board(state):
    """Fourteen counts in sowing order, comma-separated: the first player's pits from
    its left, its store, the second player's pits from its own left, its store.

    OpenSpiel's array is [second store, first pits 1-6, first store, second pits 1-6]:
    index i of OpenSpiel is index (i - 1) mod 14 here."""
    t = state.observation_tensor(0)
    raw = [int(x) for x in t[:14]]
    ours = raw[1:14] + raw[0:1]
    return ",".join(str(x) for x in ours)


def mancala_side(state):
    return "first" if state.current_player() == 0 else "second"


# OpenSpiel checkers cells: 'o' White man, '8' White king, '+' Black man, '*' Black king.
CHECKERS_CELL = {".": ".", "o": "w", "8": "W", "+": "b", "*": "B"}


def checkers_board(state):
    """The 32 dark squares, row by row from the top (Black's home rows), left to right:
    '.' empty, 'w'/'W' White man/king, 'b'/'B' Black man/king."""
    lines = str(state).splitlines()[:8]
    out = []
    for r, line in enumerate(lines):
        cells = line[-8:]
        for c in range(8):
            if (r + c) % 2 == 1:
                out.append(CHECKERS_CELL[cells[c]])
            else:
                assert cells[c] == ".", line
    return "".join(out)


def checkers_side(player):
    return "white" if player == 0 else "black"


def piece_count(board):
    return sum(1 for ch in board if ch != ".")


# ---------------------------------------------------------------------------------
# Turns: one action in tic-tac-toe and mancala, a chain of jumps in checkers
# ---------------------------------------------------------------------------------


def simple_turns(state, key):
    """(key of the resulting position, resulting state) for each legal action."""
    out = []
    for a in state.legal_actions():
        child = state.child(a)
        out.append((key(child), child))
    return out


def checkers_turns(state):
    """Compose OpenSpiel's one-jump actions until the player to move changes (or the
    game ends): every position reachable in one turn of the player to move."""
    mover = state.current_player()
    out = []

    def walk(s):
        for a in s.legal_actions():
            child = s.child(a)
            if child.is_terminal() or child.current_player() != mover:
                out.append(child)
            else:
                walk(child)

    walk(state)
    return out


# ---------------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------------


class Fixture:
    def __init__(self):
        self.lines = []
        self.seen_positions = set()
        self.seen_ends = set()
        self.positions = 0
        self.successors = 0
        self.ends = 0

    def position(self, pos, successors):
        if pos in self.seen_positions:
            return
        self.seen_positions.add(pos)
        self.positions += 1
        self.lines.append("P " + pos)
        for s in sorted(set(successors)):
            self.lines.append("N " + s)
            self.successors += 1

    def end(self, pos, result):
        line = "E " + pos + " " + result
        if line in self.seen_ends:
            return
        self.seen_ends.add(line)
        self.ends += 1
        self.lines.append(line)


def generate_simple(game_name, board, side, result_names, games, seed):
    game = pyspiel.load_game(game_name)
    rng = random.Random(seed)
    fx = Fixture()

    def key(s):
        return board(s) + " " + ("-" if s.is_terminal() else side(s))

    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            turns = simple_turns(state, key)
            fx.position(key(state), [k for k, _ in turns])
            state = rng.choice(turns)[1]
        # No game may end by OpenSpiel's length limit (not a rule of Kalah).
        assert game_name == "tic_tac_toe" or state.move_number() < game.max_game_length()
        r = state.returns()
        result = "draw" if r[0] == r[1] else (result_names[0] if r[0] > r[1] else result_names[1])
        fx.end(key(state), result)
    return fx


def generate_checkers(games, seed):
    game = pyspiel.load_game("checkers")
    rng = random.Random(seed)
    fx = Fixture()
    for _ in range(games):
        state = game.new_initial_state()
        side = state.current_player()
        # OpenSpiel's own counter: plies (single jumps included) since the last capture.
        quiet_plies = 0
        while not state.is_terminal():
            assert state.current_player() == side
            pos = checkers_board(state) + " " + checkers_side(side)
            children = checkers_turns(state)
            fx.position(pos, [checkers_board(c) + " " + checkers_side(1 - side) for c in children])
            nxt = rng.choice(children)
            before, after = piece_count(checkers_board(state)), piece_count(checkers_board(nxt))
            if after < before:
                quiet_plies = 0
            else:
                quiet_plies += 1
            state = nxt
            side = 1 - side
        assert state.move_number() < game.max_game_length()
        r = state.returns()
        if r[0] == r[1]:
            # The only way a checkers game is drawn in OpenSpiel: 40 plies without a
            # capture (checked here, so a change of OpenSpiel's rule is noticed).
            assert quiet_plies >= 40, (quiet_plies, str(state))
            result = "draw-no-capture-40"
        else:
            result = "white" if r[0] > r[1] else "black"
        fx.end(checkers_board(state) + " " + checkers_side(side), result)
    return fx


def write(path, game_name, games, seed, fx):
    version = importlib.metadata.version("open_spiel")
    header = [
        "# ply differential fixture, generated by tools/openspiel_fixtures.py",
        "# source: OpenSpiel %s game %r, %d random games, seed %d" % (version, game_name, games, seed),
        "# %d positions, %d successors, %d distinct final positions" % (fx.positions, fx.successors, fx.ends),
        "# format: tests/fixtures/README.md",
    ]
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(header + fx.lines) + "\n")
    print("%s: %d positions, %d successors, %d final positions, %d bytes"
          % (os.path.relpath(path), fx.positions, fx.successors, fx.ends, os.path.getsize(path)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(GAMES), action="append",
                    help="only this OpenSpiel game (repeatable); default: all")
    ap.add_argument("--out", default=FIXTURE_DIR, help="output directory")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.game or sorted(GAMES):
        file, games, seed = GAMES[name]
        if name == "tic_tac_toe":
            fx = generate_simple(name, ttt_board, ttt_side, ("x", "o"), games, seed)
        elif name == "mancala":
            fx = generate_simple(name, mancala_board, mancala_side, ("first", "second"), games, seed)
        else:
            fx = generate_checkers(games, seed)
        write(os.path.join(args.out, file), name, games, seed, fx)
    return 0


if __name__ == "__main__":
    sys.exit(main())
