#!/usr/bin/env python3
"""2 threads against 1 at equal time per move: `ply tournament` per game, the score of
the 2-thread engine with its 95% error bar and the Elo difference it implies.

    python3 tools/strength.py PLY [--time 0.05] [--games 100] [--specs checkers,kalah,halma:8]
"""

import argparse
import math
import re
import subprocess
import sys
import time

RESULT = re.compile(r"A wins (\d+), draws (\d+), losses (\d+)")


def elo(score):
    if score <= 0.0 or score >= 1.0:
        return float("inf") if score >= 1.0 else float("-inf")
    return -400.0 * math.log10(1.0 / score - 1.0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ply")
    p.add_argument("--time", default="0.05")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--specs", default="checkers,kalah,halma:8")
    p.add_argument("--max-plies", default="300")
    p.add_argument("--random-plies", default="4")
    a = p.parse_args()
    print(f"# ply tournament, A = engine on 2 threads, B = engine on 1 thread, "
          f"{a.time} s a move each, {a.games} games a game (openings of "
          f"{a.random_plies} random plies, colours swapped, draw adjudicated at "
          f"{a.max_plies} plies)")
    print("| game | A wins | draws | A losses | A's score | 95% error | Elo (A − B) | wall (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for spec in a.specs.split(","):
        args = [a.ply, "tournament", spec, "--a", f"time={a.time},threads=2",
                "--b", f"time={a.time},threads=1", "--games", str(a.games),
                "--random-plies", a.random_plies, "--max-plies", a.max_plies]
        t = time.monotonic()
        out = subprocess.run(args, capture_output=True, text=True)
        wall = time.monotonic() - t
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed: {out.stderr.strip()}")
        m = RESULT.search(out.stdout)
        w, d, l = (int(x) for x in m.groups())
        n = w + d + l
        s = (w + 0.5 * d) / n
        var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
        err = 1.96 * math.sqrt(var / n)
        lo, hi = elo(max(s - err, 1e-9)), elo(min(s + err, 1 - 1e-9))
        print(f"| {spec} | {w} | {d} | {l} | {s:.3f} | ±{err:.3f} | {elo(s):+.0f} "
              f"({lo:+.0f} to {hi:+.0f}) | {wall:.0f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
