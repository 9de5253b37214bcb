#!/usr/bin/env python3
"""bench_advise.py - how long `tco advise` takes against one `tco --scenario cluster32` run.

Not a test: it prints figures, asserts nothing about time.  It runs, alternately and ROUNDS times
each (so all see the same machine load), `tco advise QUESTION --format json --no-workbook` (the
search), the same with its workbook (`--out FILE.xlsx`: every listed option's model loaded afresh and
written, the Rank sheet) and the floor, `tco --scenario cluster32 --out FILE.xlsx` (load, evaluate,
write and check the workbook), and prints for each question the best and the median time of the
search and the floor, the ratio of the medians (issue 13 asks for at most about 10x for train-7b),
the candidates per second (the JSON's "candidates" over the search's median time, model loads
included), and the median with the workbook and its ratio to the floor.

Usage: bench_advise.py TCO_BINARY SOURCE_DIR [QUESTION ...] [--rounds N]
       (default: train-7b, team-70b, solo-dev, team-30b; 15 rounds)
   or: cmake --build build --target bench_advise
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    secs = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr))
    return secs, p.stdout


def main():
    args = sys.argv[1:]
    rounds = 15
    if "--rounds" in args:
        i = args.index("--rounds")
        rounds = int(args[i + 1])
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    tco, src = os.path.abspath(args[0]), os.path.abspath(args[1])
    questions = args[2:] or ["train-7b", "team-70b", "solo-dev", "team-30b"]
    with tempfile.TemporaryDirectory(prefix="bench_advise.") as tmp:
        floor_cmd = [tco, "--root", src, "--scenario", "cluster32", "--out", os.path.join(tmp, "c.xlsx")]
        print("%-10s %10s %9s %9s %12s %12s %7s %13s %12s %7s" % (
            "question", "candidates", "best s", "median s", "floor best", "floor median", "ratio", "candidates/s",
            "workbook med", "ratio"))
        for q in questions:
            cmd = [tco, "advise", q, "--format", "json", "--root", src, "--no-workbook"]
            book_cmd = [tco, "advise", q, "--format", "json", "--root", src, "--out", os.path.join(tmp, "a.xlsx")]
            times, books, floors, n = [], [], [], 0
            for _ in range(rounds):
                secs, out = timed(cmd)
                times.append(secs)
                n = json.loads(out)["candidates"]
                books.append(timed(book_cmd)[0])
                floors.append(timed(floor_cmd)[0])
            med, bmed, fmed = statistics.median(times), statistics.median(books), statistics.median(floors)
            print("%-10s %10d %9.3f %9.3f %12.3f %12.3f %6.1fx %13.0f %12.3f %6.1fx" % (
                q, n, min(times), med, min(floors), fmed, med / fmed, n / med, bmed, bmed / fmed), flush=True)


if __name__ == "__main__":
    main()
