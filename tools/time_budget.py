#!/usr/bin/env python3
"""Measures from outside the process how long each move of `ply play` takes.

Plays AI-against-AI games of every game at several time budgets per move, on 1 and 2
threads, with and without another CPU-bound process running, and timestamps each
move line as it arrives on ply's standard output. A move's time is from the previous
move line (the process start for the first move) to its own line: it includes the
search, the table set-up, playing the move and printing the board. Prints one row per
configuration and a total; exits 1 if any move took longer than its budget.

    python3 tools/time_budget.py PLY [--budgets 0.05,0.1,0.5] [--threads 1,2]
                                     [--plies 30] [--games tictactoe,kalah,...]
"""

import argparse
import os
import re
import subprocess
import sys
import time

MOVE = re.compile(r"\(value -?\d+, depth \d+, nodes \d+, [0-9.]+ s\)$")
GAMES = "tictactoe,kalah,checkers,checkers:calgary,halma:8,halma:16"


def hog():
    """A CPU-bound process (a busy loop) that runs until killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def play(ply, game, budget, threads, plies):
    """The wall time of every AI move of one game, in seconds."""
    args = [ply, "play", game, "--first", "ai", "--second", "ai", "--time", str(budget),
            "--threads", str(threads), "--max-plies", str(plies)]
    start = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True, bufsize=1)
    times = []
    last = start
    for line in proc.stdout:
        now = time.monotonic()
        if MOVE.search(line.rstrip()):
            times.append(now - last)
            last = now
    err = proc.stderr.read()
    if proc.wait() != 0:
        raise SystemExit(f"{' '.join(args)} failed: {err.strip()}")
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ply")
    p.add_argument("--budgets", default="0.05,0.1,0.5")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--plies", type=int, default=30)
    p.add_argument("--games", default=GAMES)
    a = p.parse_args()
    budgets = [float(b) for b in a.budgets.split(",")]
    threads = [int(t) for t in a.threads.split(",")]
    games = a.games.split(",")
    print(f"# ply play, AI against AI, {a.plies} plies at most a game; a move's time is "
          f"measured outside the process (cores: {os.cpu_count()})")
    print("| game | budget (s) | threads | load | moves | longest (s) | mean (s) | over |")
    print("|---|---:|---:|---|---:|---:|---:|---:|")
    total = over = 0
    worst = 0.0
    for budget in budgets:
        for t in threads:
            for loaded in (False, True):
                h = hog() if loaded else None
                try:
                    for game in games:
                        times = play(a.ply, game, budget, t, a.plies)
                        n_over = sum(1 for x in times if x > budget)
                        for i, x in enumerate(times):
                            if x > budget:
                                print(f"  over: {game} move {i + 1}: {x:.4f} s",
                                      file=sys.stderr)
                        total += len(times)
                        over += n_over
                        longest = max(times, default=0.0)
                        worst = max(worst, longest / budget)
                        mean = sum(times) / len(times) if times else 0.0
                        print(f"| {game} | {budget} | {t} | {'cpu hog' if loaded else 'idle'} "
                              f"| {len(times)} | {longest:.4f} | {mean:.4f} | {n_over} |",
                              flush=True)
                finally:
                    if h:
                        h.kill()
                        h.wait()
    print(f"\nmoves: {total}, over budget: {over}, longest move / budget: {worst:.3f}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
