#!/usr/bin/env python3
"""Helpers of scripts/test-web.sh (standard library only).

serve DIR REPORTS PORTFILE
    Serves DIR on 127.0.0.1 at a free port (written to PORTFILE) with the
    WebAssembly MIME type, and stores each POST to /selftest-report?name=NAME as
    REPORTS/NAME.jsonl: how the page's self-test hands back what it saw.

check SPEC REPORT PLY QUERYFILE
    Reads a self-test report and checks that every position's legal moves, as the
    page listed them, are what `PLY moves SPEC --position TEXT` lists (both sorted),
    and what `PLY moves SPEC --after MOVES...` lists after the moves played from the
    start (the check that also covers draughts' history, which position text
    leaves out). Writes the query string of the screenshot page (the game's moves
    replayed) to QUERYFILE. Exits 1 with the differences on any mismatch.
"""

import http.server
import json
import os
import subprocess
import sys
import urllib.parse


def serve(root, reports, portfile):
    os.makedirs(reports, exist_ok=True)

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".wasm": "application/wasm",
            ".js": "text/javascript",
        }

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=root, **kwargs)

        def do_POST(self):
            url = urllib.parse.urlparse(self.path)
            name = urllib.parse.parse_qs(url.query).get("name", [""])[0]
            if url.path != "/selftest-report" or not name.replace("_", "").isalnum():
                self.send_error(404)
                return
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            tmp = os.path.join(reports, name + ".tmp")
            with open(tmp, "wb") as f:
                f.write(body)
            os.replace(tmp, os.path.join(reports, name + ".jsonl"))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(portfile + ".tmp", portfile)
    server.serve_forever()


def ply_moves(ply, spec, args):
    run = subprocess.run([ply, "moves", spec, *args], capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stderr.strip()
    return run.stdout.splitlines(), None


# The engine's score of a database win at the root (`DB_WIN`, the core's TABLE_WIN)
# and the most it takes off for the progress still to make and the distance in a
# position of up to 3 pieces (1024 × (3 × 25 + 3) plus a distance and plies below
# 1024): a database score lies within this of ±DB_WIN, and a game's win (WIN less
# its plies: the search sees the end) or a value of the evaluation does not.
WIN = 1_000_000
DB_WIN = 500_000
DB_SPAN = 1024 * 79


def solved(ply, position):
    """`ply solve checkers` of `position`: its value and its best moves."""
    run = subprocess.run([ply, "solve", "checkers", "--position", position],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None, None, run.stderr.strip()
    lines = run.stdout.splitlines()
    value = int(next(l for l in lines if l.startswith("value: "))[7:])
    best = next(l for l in lines if l.startswith("best moves: "))[12:].split()
    return value, best, None


def check(spec, report, ply, queryfile, position=None):
    with open(report) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    head, tail = lines[0], lines[-1]
    steps = [l for l in lines if "ply" in l]
    final = next(l for l in lines if "final" in l)
    problems = list(tail.get("errors", []))
    # Every position the page saw: before each ply, and the last one.
    seen = [(s["position"], s["moves"], [x["played"] for x in steps[: s["ply"]]]) for s in steps]
    seen.append((final["final"], final["moves"], final["played"]))
    if steps and steps[0]["position"] != head["start"]:
        problems.append(f"the first position {steps[0]['position']!r} is not the start {head['start']!r}")
    if final["played"] != [s["played"] for s in steps]:
        problems.append(f"the page's moves {final['played']} are not the plies logged")
    start = position
    for position, moves, before in seen:
        after = (["--position", head["start"]] if start else []) + (["--after", *before] if before else [])
        for how, args in (("--position", ["--position", position]), ("--after", after)):
            expected, err = ply_moves(ply, spec, args)
            if err is not None:
                problems.append(f"ply moves {spec} {how} {' '.join(args[1:])!r} failed: {err}")
            elif sorted(expected) != sorted(moves):
                problems.append(
                    f"position {position!r} ({how}): the page lists {sorted(moves)}, "
                    f"ply moves lists {sorted(expected)}"
                )
    # From a database position: every engine move keeps the value `ply solve` gives,
    # and the engine's value is the databases' score (docs/web.md).
    exact = 0
    for s in steps if start else []:
        if not s["by"].startswith("engine"):
            continue
        value, best, err = solved(ply, s["position"])
        if err is not None:
            problems.append(f"ply solve checkers --position {s['position']!r} failed: {err}")
            continue
        if s["played"] not in best:
            problems.append(f"position {s['position']!r}: the engine played {s['played']}, "
                            f"ply solve's best moves are {best}")
        if value == 0:
            ok = s["value"] == 0
        elif WIN - value * s["value"] < 100:
            ok = True  # the game's end within the search's sight: a game's win or loss
        else:
            ok = 0 < DB_WIN - value * s["value"] < DB_SPAN
            exact += ok
        if not ok:
            problems.append(f"position {s['position']!r}: the engine's value {s['value']} is not "
                            f"the databases' score of a {value:+d} (within {DB_SPAN} of {value * DB_WIN})")
    if start and exact == 0:
        problems.append("no engine move from the database position carried the databases' score")
    by = {}
    for s in steps:
        by[s["by"]] = by.get(s["by"], 0) + 1
    depths = [s["depth"] for s in steps if s["by"].startswith("engine")]
    with open(queryfile, "w") as f:
        query = {"game": spec, "moves": " ".join(final["played"]), "first": "human", "second": "human"}
        if start:
            query["position"] = start
        f.write(urllib.parse.urlencode(query))
    if problems:
        print(f"FAIL {spec}:")
        for p in problems:
            print(f"  {p}")
        return 1
    plays = ", ".join(f"{n} by {k}" for k, n in sorted(by.items()))
    depth = f", engine depths {min(depths)}-{max(depths)}" if depths else ""
    print(f"ok {spec}: {len(seen)} positions agree with ply moves (by position text and "
          f"from the start); {len(steps)} plies ({plays}{depth}); outcome {final['outcome']}")
    if start:
        print(f"   from {start}: the engine's moves keep ply solve's value, {exact} with the databases' score")
    print(f"   bad input: {tail['checks']['badPosition']!r}; Stop: {tail['checks']['stop']}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "serve":
        serve(*sys.argv[2:])
    elif len(sys.argv) in (6, 7) and sys.argv[1] == "check":
        sys.exit(check(*sys.argv[2:]))
    else:
        sys.exit(__doc__)
