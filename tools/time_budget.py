#!/usr/bin/env python3
"""Measures from outside the process how long each move of `ply play` takes.

Plays AI-against-AI games of every game at several time budgets per move, on 1 and 2
threads, with and without another CPU-bound process running, and timestamps each
move line as it arrives on ply's standard output. A move's time is from the previous
move line (the process start for the first move) to its own line: it includes the
search, the table set-up, playing the move and printing the board. Prints one row per
configuration (its mean move time also as a share of the budget: the use), a row per
budget, and a total; a line on standard error for each move over its budget (with
ply's own reported time beside it); exits 1 if any move took longer than its budget.

With several PLY programs (two builds to compare), each configuration's game is
played by each in turn, so that they see the same load.

    python3 tools/time_budget.py PLY [PLY...] [--budgets 0.01,0.05,0.1,0.5] [--threads 1,2]
                                     [--plies 30] [--games tictactoe,kalah,...]
                                     [--loads idle,hog] [--repeat 1] [--nice 0]
"""

import argparse
import os
import re
import subprocess
import sys
import time

MOVE = re.compile(r"\(value -?\d+, depth \d+, nodes \d+, ([0-9.]+) s\)$")
GAMES = "tictactoe,kalah,checkers,checkers:calgary,halma:8,halma:16"


NICE = 0


def niced(proc):
    """Lowers the priority of a process just started by --nice (set from here, not in
    the child before its exec, which would slow the start that a first move's time
    includes); threads the process starts later inherit it."""
    if NICE:
        os.setpriority(os.PRIO_PROCESS, proc.pid, os.getpriority(os.PRIO_PROCESS, 0) + NICE)
    return proc


def hog():
    """A CPU-bound process (a busy loop) that runs until killed."""
    return niced(subprocess.Popen([sys.executable, "-c", "while True: pass"]))


def play(ply, game, budget, threads, plies):
    """The wall time of every AI move of one game, in seconds, each with the time ply
    itself reported for it."""
    args = [ply, "play", game, "--first", "ai", "--second", "ai", "--time", str(budget),
            "--threads", str(threads), "--max-plies", str(plies)]
    start = time.monotonic()
    proc = niced(subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, text=True, bufsize=1))
    times = []
    last = start
    for line in proc.stdout:
        now = time.monotonic()
        m = MOVE.search(line.rstrip())
        if m:
            times.append((now - last, float(m.group(1))))
            last = now
    err = proc.stderr.read()
    if proc.wait() != 0:
        raise SystemExit(f"{' '.join(args)} failed: {err.strip()}")
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ply", nargs="+")
    p.add_argument("--budgets", default="0.01,0.05,0.1,0.5")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--plies", type=int, default=30)
    p.add_argument("--games", default=GAMES)
    p.add_argument("--loads", default="idle,hog",
                   help="idle (nothing else started), hog (beside a busy process), or both")
    p.add_argument("--repeat", type=int, default=1, help="games of each configuration")
    p.add_argument("--nice", type=int, default=0,
                   help="run ply and the busy process this much nicer than the measurer, "
                        "which then reads each move line as it comes on a busy machine")
    a = p.parse_args()
    global NICE
    NICE = a.nice
    budgets = [float(b) for b in a.budgets.split(",")]
    threads = [int(t) for t in a.threads.split(",")]
    games = a.games.split(",")
    loads = a.loads.split(",")
    for load in loads:
        if load not in ("idle", "hog"):
            p.error(f"--loads {load}: expected idle or hog")
    print(f"# ply play, AI against AI, {a.plies} plies at most a game; a move's time is "
          f"measured outside the process (cores: {os.cpu_count()}; nice {a.nice} beside "
          f"the measurer; load average at the "
          f"start: {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    many = len(a.ply) > 1
    col = "| ply " if many else ""
    print(f"{col}| game | budget (s) | threads | load | moves | longest (s) | mean (s) | use "
          "| over |")
    print(("|---" if many else "") + "|---|---:|---:|---|---:|---:|---:|---:|---:|")
    total = over = 0
    worst = 0.0
    per_budget = {}
    for budget in budgets:
        for t in threads:
            for load in loads:
                h = hog() if load == "hog" else None
                try:
                    for game, ply in ((g, p) for g in games for p in a.ply):
                        times = []
                        for _ in range(a.repeat):
                            moves = play(ply, game, budget, t, a.plies)
                            for i, (x, own) in enumerate(moves):
                                if x > budget:
                                    print(f"  over: {ply + ': ' if many else ''}{game} at "
                                          f"{budget} s, {t} threads, {load}, move {i + 1}: "
                                          f"{x:.4f} s (ply says {own:.3f} s)",
                                          file=sys.stderr, flush=True)
                            times += [x for x, _ in moves]
                        n_over = sum(1 for x in times if x > budget)
                        total += len(times)
                        over += n_over
                        longest = max(times, default=0.0)
                        worst = max(worst, longest / budget)
                        mean = sum(times) / len(times) if times else 0.0
                        b = per_budget.setdefault((ply, budget), [0, 0, 0.0, 0.0])
                        b[0] += len(times)
                        b[1] += n_over
                        b[2] = max(b[2], longest)
                        b[3] += sum(times)
                        print(f"{'| ' + ply + ' ' if many else ''}"
                              f"| {game} | {budget} | {t} | {'cpu hog' if h else 'idle'} "
                              f"| {len(times)} | {longest:.4f} | {mean:.4f} "
                              f"| {mean / budget:.0%} | {n_over} |", flush=True)
                finally:
                    if h:
                        h.kill()
                        h.wait()
    print(f"\n{col}| budget (s) | moves | over | longest (s) | mean use |")
    print(("|---" if many else "") + "|---:|---:|---:|---:|---:|")
    for (ply, budget), (n, o, longest, s) in sorted(per_budget.items()):
        print(f"{'| ' + ply + ' ' if many else ''}| {budget} | {n} | {o} | {longest:.4f} "
              f"| {s / n / budget:.1%} |")
    print(f"\nmoves: {total}, over budget: {over}, longest move / budget: {worst:.3f} "
          f"({'all programs together; ' if many else ''}"
          f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
