#!/usr/bin/env python3
"""The draughts endgame databases of 7 and 8 pieces built on many machines, projected
from measured rates (docs/games/draughts-databases.md, "Many machines").

The items are the pairs of slices of `ply db build checkers` under mpirun
(host/src/draughts_db/job.rs): the slices of up to N pieces, their pairs (a slice
and the one with the colours swapped), and for each pair the slices its
conversions lead to (core/src/games/draughts/db/slice.rs, SliceKey::conversions).
Slice sizes by the index's formula (core/src/games/draughts/db/index.rs); the
script checks its totals against the published counts. Then a list schedule as
rank 0 deals the items: a free machine takes a pair whose needs are built (the
first in build order, or with --order largest the largest); a pair takes
positions / (RATE x CORES) seconds on one machine.

    scripts/draughts-db-project.py --rate 2.3e6 --cores 16 --machines 16 64 --pieces 7 8

Prints, for each piece count and number of machines: the wall time, the CPU hours,
the largest pair, the memory of the largest item (cells two bytes a position,
entries one, and the slices it needs a byte a position), the items, and the disk
at --bytes a position; then the longest chain of pairs each needing the one before
(the wall time no number of machines beats) and the largest pair's needs.
"""

import argparse
import heapq
from math import comb

# Published counts of positions with exactly N pieces (issue 47; docs table).
PUBLISHED = {1: 120, 2: 6972, 3: 261224, 4: 7092774, 5: 148688232, 6: 2503611964,
             7: 34779531480, 8: 406309208481}


def keys_of(n):
    """The slices of exactly n pieces in build order, as (a, b, c, d): the
    mover's men and kings, the opponent's men and kings."""
    for men in range(n + 1):
        for a in range(men + 1):
            for b in range(n - men + 1):
                yield (a, b, men - a, n - men - b)


def slice_size(k):
    """Positions of slice k: the mover's men on 1-28 (j of them on 1-4), the
    opponent's men on the squares of 5-32 left, then the kings on what is free."""
    a, b, c, d = k
    total = 0
    for j in range(min(a, 4) + 1):
        men = comb(4, j) * comb(24, a - j) * comb(28 - (a - j), c)
        free = 32 - a - c
        total += men * comb(free, b) * comb(free - b, d)
    return total


def swapped(k):
    a, b, c, d = k
    return (c, d, a, b)


def conversions(k):
    """SliceKey::conversions: the slices a capture or a crowning leads to."""
    a, b, c, d = k
    if a + b == 0:
        return []
    out = []
    for c2 in range(c + 1):
        for d2 in range(d + 1):
            if (c2, d2) != (c, d):
                out.append((c2, d2, a, b))
            if a > 0:
                out.append((c2, d2, a - 1, b + 1))
    return out


def pairs(pieces):
    """The items: (first key, positions, needed items, needed positions)."""
    keys = [k for n in range(1, pieces + 1) for k in keys_of(n) if k <= swapped(k)]
    where = {}
    for i, k in enumerate(keys):
        where[k] = i
        where[swapped(k)] = i
    items = []
    for i, k in enumerate(keys):
        own = slice_size(k) + (0 if swapped(k) == k else slice_size(swapped(k)))
        slices = sorted(set(conversions(k) + conversions(swapped(k))))
        needs = sorted({where[s] for s in slices} - {i})
        items.append((k, own, needs, sum(slice_size(s) for s in slices)))
    return items


def schedule(items, machines, seconds, largest):
    """Wall seconds of a list schedule: a free machine takes the largest ready pair
    (`largest`), else the first in build order, as ply's dispatcher does."""
    def key(i):
        return -items[i][1] if largest else i

    left = [len(n) for _, _, n, _ in items]
    users = [[] for _ in items]
    for i, (_, _, needs, _) in enumerate(items):
        for j in needs:
            users[j].append(i)
    ready = [(key(i), i) for i in range(len(items)) if left[i] == 0]
    heapq.heapify(ready)
    running = []  # (end, item)
    free, now, done = machines, 0.0, 0
    while done < len(items):
        while free > 0 and ready:
            _, i = heapq.heappop(ready)
            heapq.heappush(running, (now + seconds(items[i][1]), i))
            free -= 1
        now, i = heapq.heappop(running)
        free += 1
        done += 1
        for u in users[i]:
            left[u] -= 1
            if left[u] == 0:
                heapq.heappush(ready, (key(u), u))
    return now


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rate", type=float, required=True,
                   help="positions built a CPU second (measured: scripts/draughts-db.sh)")
    p.add_argument("--cores", type=int, default=16, help="cores a machine (one rank a machine)")
    p.add_argument("--machines", type=int, nargs="+", default=[16, 64])
    p.add_argument("--pieces", type=int, nargs="+", default=[7, 8])
    p.add_argument("--bytes", type=float, default=0.18,
                   help="bytes on disk a position, compressed (measured: 0.176 for 1-6 pieces)")
    p.add_argument("--order", choices=["index", "largest"], default="index",
                   help="which ready pair a free machine takes: the first in build order "
                        "(ply's dispatcher) or the largest")
    a = p.parse_args()
    for n in range(1, max(a.pieces) + 1):
        got = sum(slice_size(k) for k in keys_of(n))
        assert got == PUBLISHED[n], (n, got, PUBLISHED[n])
    print("pieces machines cores  wall_h  cpu_h  largest_pair  pair_mem_GB  items  disk_GB(1..N)")
    for n in a.pieces:
        items = pairs(n)
        this = [it for it in items if sum(it[0]) == n]
        total = sum(own for _, own, _, _ in items)
        biggest = max(this, key=lambda it: it[1])
        mem = max(3 * own + need for _, own, _, need in items)
        for m in a.machines:
            wall = schedule(items, m, lambda pos: pos / (a.rate * a.cores), a.order == "largest")
            print(f"{n:6d} {m:8d} {a.cores:5d} {wall / 3600:7.2f} {total / a.rate / 3600:6.1f}"
                  f"  {biggest[1]:12d}  {mem / 1e9:11.1f}  {len(items):5d}  {total * a.bytes / 1e9:8.1f}")
        # The longest chain of pairs each needing the one before: no number of
        # machines builds them sooner than one after the other.
        chain = []
        for _, own, needs, _ in items:
            chain.append(own + max((chain[j] for j in needs), default=0))
        print(f"# {n} pieces: the longest chain of needs holds {max(chain)} positions: "
              f"{max(chain) / (a.rate * a.cores) / 3600:.2f} h on machines of {a.cores} cores, "
              f"however many")
        k = biggest[0]
        print(f"# {n} pieces: largest pair m{k[0]}k{k[1]}-m{k[2]}k{k[3]} and its swap, "
              f"{biggest[1]} positions; it needs {len(biggest[2])} pairs, "
              f"{biggest[3]} positions of slices in memory; alone on one machine "
              f"{biggest[1] / (a.rate * a.cores) / 60:.1f} min")


if __name__ == "__main__":
    main()
