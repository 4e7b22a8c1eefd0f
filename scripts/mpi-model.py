#!/usr/bin/env python3
"""A model of scale for perft with one table across the ranks (docs/mpi.md, "A model
of scale"): from runs saved by scripts/mpi-bench.sh (SAVE=DIR) on 1 to R ranks of
one machine (oversubscribed: the work counts, the wall time does not), projects the
time and speedup on P machines, one rank of one thread each, joined by a stated
network, and prints them beside what was measured.

    SAVE=runs DEPTHS=16 RANKS="1 2 4 8 16" RUNS=1 scripts/mpi-bench.sh
    scripts/mpi-model.py runs --latency-us 10 --bandwidth-gbs 1.25 --machines 16 64 256
    scripts/mpi-model.py runs --target "perft 22=32400:6"

What it reads (DIR/runs.tsv, one line a run: job, configuration, run, wall ms, CPU
ms, the files of its standard output and error): the one process's CPU (T1); for
each rank count R its CPU summed over the ranks (W_R), and from rank 0's per-rank
lines each rank's messages, bytes sent and table probes. The routed count works in
rounds: every rank sends every other rank one message a round, so the rounds are
rank 0's messages / (R - 1).

The model (every figure a median over the runs of a configuration):
  work      W(P) = a + b log2 P, fitted to W_R by least squares (each doubling of
            the ranks adds the same CPU: routing, merging, polling);
  imbalance the busiest rank's probes over the mean, as at the most ranks measured
            (the rounds wait for the slowest rank);
  rounds    rounds(P) = q * ceil(items / (batch * P)), q the mean rounds a batch
            measured (a batch is `batch` items a rank; all ranks take one at a time);
  bytes     a machine sends payload(P) / P + 16 (P - 1) rounds(P): the positions
            and counts, payload(P) = c (P - 1) / P fitted (the share of positions
            owned elsewhere), and 16 bytes (round and checksum) in each of the P - 1
            messages of a round;
  time      T(P) = W(P) / P * imbalance + rounds(P) * (latency + 2 (P - 1) * per
            message) + bytes / bandwidth; speedup T1 / T(P).
A --target NAME=CPU:PLIES projects a larger count from the one process's CPU for it
(seconds): its work and payload scale by CPU / T1, and its batches take 3 more
rounds for each of PLIES more routed plies.
"""

import argparse
import math
import os
import statistics
import sys

HEADER = 16  # bytes of a routed message besides its words: round and checksum


def fail(msg):
    print("mpi-model: " + msg, file=sys.stderr)
    sys.exit(1)


def positive(kind):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a number" % text)
        if not v > 0:
            raise argparse.ArgumentTypeError("%r is not above 0" % text)
        return v
    return parse


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def from_env(name, default, kind=float):
    """A default from the environment variable `name`, checked as a flag is."""
    text = os.environ.get(name)
    if text is None:
        return default
    try:
        return positive(kind)(text)
    except argparse.ArgumentTypeError as e:
        fail("%s=%s" % (name, e))


def target(text):
    """NAME=CPU_SECONDS[:EXTRA_PLIES]"""
    name, sep, rest = text.partition("=")
    cpu, _, plies = rest.partition(":")
    try:
        cpu, plies = float(cpu), int(plies or "0")
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not NAME=CPU_SECONDS[:EXTRA_PLIES]" % text)
    if not name or not sep or cpu <= 0 or plies < 0:
        raise argparse.ArgumentTypeError("%r is not NAME=CPU_SECONDS[:EXTRA_PLIES]" % text)
    return name, cpu, plies


def rank_lines(err_text):
    """Rank 0's per-rank lines of a routed count: (messages, bytes, probes) a rank."""
    out = []
    for line in err_text.splitlines():
        if not line.startswith("rank ") or " routed " not in line:
            continue
        w = line.replace(",", "").split()
        try:
            messages = int(w[w.index("bytes") - 4])
            sent = int(w[w.index("bytes") - 1])
            probes = int(w[w.index("probes") - 1])
        except (ValueError, IndexError):
            fail("cannot read the per-rank line %r" % line)
        out.append((messages, sent, probes))
    return out


def items_of(err_text):
    n = 0
    for line in err_text.splitlines():
        if line.startswith("rank ") and " on " in line and ": " in line:
            try:
                n += int(line.split(": ", 1)[1].split()[0])
            except ValueError:
                pass
    return n


def read_runs(folder):
    """Every run of DIR/runs.tsv: {job: {configuration: [(wall s, CPU s, stdout,
    stderr)]}} for one process (0) and routed ranks (R), the jobs in file order."""
    path = os.path.join(folder, "runs.tsv")
    try:
        with open(path) as f:
            rows = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    except OSError as e:
        fail("cannot read %s: %s (make it with SAVE=%s scripts/mpi-bench.sh)"
             % (path, e.strerror, folder))
    jobs = {}
    for n, row in enumerate(rows, 1):
        if len(row) != 7:
            fail("%s line %d: want 7 fields (job, configuration, run, wall ms, CPU ms, "
                 "stdout, stderr), got %d" % (path, n, len(row)))
        name, config, _, wall, cpu, out, err = row
        runs = jobs.setdefault(name, {})
        if ":" in config:
            continue  # private tables, or a Kalah split
        try:
            ranks, wall, cpu = int(config), int(wall) / 1000, int(cpu) / 1000
        except ValueError:
            fail("%s line %d: configuration, wall and CPU must be numbers" % (path, n))
        texts = []
        for file in (out, err):
            try:
                with open(os.path.join(folder, file)) as f:
                    texts.append(f.read())
            except OSError as e:
                fail("cannot read %s: %s" % (os.path.join(folder, file), e.strerror))
        runs.setdefault(ranks, []).append((wall, cpu, texts[0], texts[1]))
    if not jobs:
        fail("%s holds no runs" % path)
    return jobs


def pick(jobs, name, folder, what):
    if name not in jobs:
        fail("%s: no runs of %r in %s (there: %s)"
             % (what, name, os.path.join(folder, "runs.tsv"), ", ".join(jobs)))
    return jobs[name]


def probes_of(out_text):
    for line in out_text.splitlines():
        if line.startswith("table: "):
            return int(line.split(", ")[1].split()[0])
    return None


def measure(runs, startup):
    """The medians of each configuration, and rank counts' work and messages; CPU
    less the median CPU of `startup` (if any) on as many ranks."""
    if 0 not in runs:
        fail("no run of one process (configuration 0) to measure the speedup against")
    start = {}
    for r in runs:
        if startup is None:
            start[r] = 0.0
        elif r not in startup:
            fail("--startup has no run on %s to subtract" % (
                "one process" if r == 0 else "%d ranks" % r))
        else:
            start[r] = statistics.median(c for _, c, _, _ in startup[r])
    one = runs[0]
    t1 = statistics.median(c for _, c, _, _ in one) - start[0]
    if t1 <= 0:
        fail("the one process's CPU is no more than --startup's")
    p1 = probes_of(one[0][2])
    rows = {}
    for r in sorted(k for k in runs if k > 0):
        per = []
        for wall, cpu, out, err in runs[r]:
            lines = rank_lines(err)
            if len(lines) != r:
                fail("a run on %d ranks has %d per-rank lines of a routed count, not %d "
                     "(a run with --private-tables, or a failed one?)" % (r, len(lines), r))
            msgs, sent, probes = zip(*lines)
            rounds = msgs[0] / (r - 1) if r > 1 else 0
            mean = sum(probes) / r
            per.append(dict(wall=wall, cpu=cpu - start[r], rounds=rounds, bytes_max=max(sent),
                            payload=max(0, sum(sent) - HEADER * r * (r - 1) * rounds),
                            imbalance=max(probes) / mean if mean else 1.0,
                            probes=probes_of(out), items=items_of(err)))
        rows[r] = {k: statistics.median(p[k] for p in per if p[k] is not None)
                   if any(p[k] is not None for p in per) else None for k in per[0]}
    if not rows:
        fail("no runs on ranks to fit")
    return t1, p1, rows


def fit(rows, batch):
    ranks = sorted(rows)
    # Work: least squares of W = a + b log2 R (a line through one point is flat).
    xs = [math.log2(r) for r in ranks]
    ys = [rows[r]["cpu"] for r in ranks]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    a = my - b * mx
    several = [r for r in ranks if r > 1]
    # Payload: least squares of c (R - 1) / R through 0.
    fs = [(r - 1) / r for r in several]
    c = (sum(f * rows[r]["payload"] for f, r in zip(fs, several)) / sum(f * f for f in fs)
         if several else 0.0)
    items = rows[ranks[-1]]["items"]
    q = (statistics.mean(rows[r]["rounds"] / math.ceil(items / (batch * r)) for r in several)
         if several else 0.0)
    return dict(a=a, b=b, c=c, q=q, items=items,
                imbalance=rows[ranks[-1]]["imbalance"], most=ranks[-1])


def project(m, p, net, scale=1.0, plies=0):
    """Time on p machines: compute, latency and transfer seconds, and the bytes."""
    work = (m["a"] + m["b"] * math.log2(p)) * scale
    compute = work / p * (m["imbalance"] if p > 1 else 1.0)
    rounds = (m["q"] + 3 * plies) * math.ceil(m["items"] / (net.batch * p)) if p > 1 else 0
    latency = rounds * (net.latency + 2 * (p - 1) * net.message)
    sent = (m["c"] * scale * (p - 1) / p / p + HEADER * (p - 1) * rounds) if p > 1 else 0
    transfer = sent / net.bandwidth
    return dict(work=work, compute=compute, rounds=rounds, latency=latency, bytes=sent,
                transfer=transfer, time=compute + latency + transfer)


def hours(s):
    return "%.2f h" % (s / 3600) if s >= 3600 else "%.1f min" % (s / 60) if s >= 60 else "%.2f s" % s


def main():
    ap = Parser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", help="a folder of runs saved by SAVE=DIR scripts/mpi-bench.sh")
    ap.add_argument("--job", help="which job of the folder (default: the last)")
    ap.add_argument("--startup", metavar="JOB",
                    help="a job of the folder whose CPU on as many ranks is subtracted: "
                         "starting the ranks, their tables and a count that takes no time")
    ap.add_argument("--latency-us", type=positive(float),
                    default=from_env("MODEL_LATENCY_US", 10),
                    help="one-way latency of a message, microseconds (MODEL_LATENCY_US; 10: 10 GbE)")
    ap.add_argument("--bandwidth-gbs", type=positive(float),
                    default=from_env("MODEL_BANDWIDTH_GBS", 1.25),
                    help="bytes a machine sends a second, GB/s (MODEL_BANDWIDTH_GBS; 1.25: 10 GbE)")
    ap.add_argument("--message-us", type=positive(float),
                    default=from_env("MODEL_MESSAGE_US", 1),
                    help="CPU to send or receive one message, microseconds (MODEL_MESSAGE_US; 1)")
    ap.add_argument("--batch", type=positive(int), default=64,
                    help="items a rank per batch, as the runs had it (PLY_ROUTE_BATCH; 64)")
    ap.add_argument("--machines", type=positive(int), nargs="+", default=[16, 64, 256])
    ap.add_argument("--target", type=target, action="append", default=[],
                    help="NAME=CPU_SECONDS[:EXTRA_PLIES]: a larger count projected")
    args = ap.parse_args()
    if not os.path.isdir(args.folder):
        fail("%s is not a folder of runs (make it with SAVE=%s scripts/mpi-bench.sh)"
             % (args.folder, args.folder))

    class Net:
        latency = args.latency_us * 1e-6
        bandwidth = args.bandwidth_gbs * 1e9
        message = args.message_us * 1e-6
        batch = args.batch

    jobs = read_runs(args.folder)
    job = args.job or list(jobs)[-1]
    runs = pick(jobs, job, args.folder, "--job")
    startup = pick(jobs, args.startup, args.folder, "--startup") if args.startup else None
    t1, p1, rows = measure(runs, startup)
    m = fit(rows, args.batch)
    print("Model of scale: %s, one process %.2f s of CPU; ranks measured: %s; CPU %s." % (
        job, t1, ", ".join(str(r) for r in sorted(rows)),
        "less that of %s on as many ranks" % args.startup if args.startup
        else "as measured (start-up included)"))
    print("Network: %g us latency, %g GB/s a machine, %g us of CPU a message sent or "
          "received; batches of %d items a rank." % (
              args.latency_us, args.bandwidth_gbs, args.message_us, args.batch))
    print("Fit: CPU = %.3f + %.3f log2(ranks) s; payload = %.0f (P - 1) / P bytes; "
          "%.2f rounds a batch; %d items; imbalance %.3f (at %d ranks)." % (
              m["a"], m["b"], m["c"], m["q"], m["items"], m["imbalance"], m["most"]))
    print()
    print("| ranks | wall s (one machine) | CPU s | CPU × 1 process | fitted CPU × 1 process "
          "| probes × 1 process | rounds | bytes, busiest rank | imbalance "
          "| speedup from the measured work | projected speedup |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in sorted(rows):
        x = rows[r]
        meas = (x["cpu"] / r * (x["imbalance"] if r > 1 else 1.0)
                + x["rounds"] * (Net.latency + 2 * (r - 1) * Net.message)
                + x["bytes_max"] / Net.bandwidth)
        pr = project(m, r, Net)
        probes = "%.2f" % (x["probes"] / p1) if p1 and x["probes"] else "–"
        print("| %d | %.2f | %.2f | %.2f | %.2f | %s | %.0f | %d | %.3f | %.2f | %.2f |" % (
            r, x["wall"], x["cpu"], x["cpu"] / t1, pr["work"] / t1, probes, x["rounds"],
            x["bytes_max"], x["imbalance"] if r > 1 else 1.0, t1 / meas, t1 / pr["time"]))
    print()
    print("| machines | CPU s | compute s | rounds | latency s | bytes a machine | transfer s "
          "| time s | speedup | efficiency |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in args.machines:
        pr = project(m, p, Net)
        print("| %d | %.2f | %.3f | %d | %.4f | %d | %.4f | %.3f | %.2f | %.0f%% |" % (
            p, pr["work"], pr["compute"], pr["rounds"], pr["latency"], pr["bytes"],
            pr["transfer"], pr["time"], t1 / pr["time"], 100 * t1 / pr["time"] / p))
    for name, cpu, plies in args.target:
        scale = cpu / t1
        parts = []
        for p in args.machines:
            pr = project(m, p, Net, scale, plies)
            parts.append("%d machines %s (%.1f×)" % (p, hours(pr["time"]), cpu / pr["time"]))
        print()
        print("%s: one process %s of CPU (%.0f× the measured job, %d more routed plies): %s."
              % (name, hours(cpu), scale, plies, "; ".join(parts)))
    print()
    print("Assumptions: one rank of one thread a machine, each as fast as a core here; "
          "the work of 1 to %d ranks measured on one machine (oversubscribed: CPU, not "
          "wall time) and its growth with log2(ranks) carried on past them; the busiest "
          "rank's share as measured at %d ranks (rounds wait for it); the rounds' "
          "messages overlap (one latency a round); bytes cross each machine's link at "
          "the bandwidth, no switch contention; the one process is the reference." % (
              m["most"], m["most"]))


if __name__ == "__main__":
    main()
