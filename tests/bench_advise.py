#!/usr/bin/env python3
"""bench_advise.py - how long `tco advise` takes against one `tco --scenario cluster32` run.

Not a test: it prints figures, asserts nothing about time.  It runs, alternately and ROUNDS times
each (so all see the same machine load), `tco advise QUESTION --format json --no-workbook` (the
search), the same with its workbook (`--out FILE.xlsx`: every listed option's model loaded afresh and
written, the Rank sheet) and the floor, `tco --scenario cluster32 --out FILE.xlsx` (load, evaluate,
write and check the workbook), and prints for each question the best and the median time of the
search and the floor, the ratio of the medians (issue 13 asks for at most about 10x for train-7b),
the candidates per second (the JSON's "candidates" over the search's median time, model loads
included), and the median with the workbook, its ratio to the floor and issue 25's target for it
(train-7b at most 4x, team-70b 3x: "met" or "not met"; "-" for a question without one), then the
same ratio of the CPU times (user + system, the median of each; tco verifies a workbook on two threads,
so CPU time runs above wall time on an idle machine), which the machine's other work moves less.
Before and after the table: the CPU model (/proc/cpuinfo) and the load average.

Usage: bench_advise.py TCO_BINARY SOURCE_DIR [QUESTION ...] [--rounds N]
       (default: train-7b, team-70b, solo-dev, team-30b; 15 rounds)
   or: cmake --build build --target bench_advise
"""
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd, cpu=None):
    """Wall seconds and standard output of @p cmd; its CPU seconds (user + system) appended to @p cpu."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    secs = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr))
    if cpu is not None:
        cpu.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return secs, p.stdout


# Issue 25, target 2: tco advise with its workbook against one cluster32 run.
TARGETS = {"train-7b": 4.0, "team-70b": 3.0}


def machine():
    """The CPU model and the load average, as the figures are read beside them."""
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), model)
    except OSError:
        pass
    try:
        load = "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load = "unknown"
    return "%s, %d CPUs, load average %s" % (model, os.cpu_count() or 0, load)


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
        print("machine: %s" % machine())
        print("%-10s %10s %9s %9s %12s %12s %7s %13s %12s %7s %14s %18s" % (
            "question", "candidates", "best s", "median s", "floor best", "floor median", "ratio", "candidates/s",
            "workbook med", "ratio", "target", "CPU book/floor"))
        for q in questions:
            cmd = [tco, "advise", q, "--format", "json", "--root", src, "--no-workbook"]
            book_cmd = [tco, "advise", q, "--format", "json", "--root", src, "--out", os.path.join(tmp, "a.xlsx")]
            times, books, floors, n = [], [], [], 0
            book_cpu, floor_cpu = [], []
            for _ in range(rounds):
                secs, out = timed(cmd)
                times.append(secs)
                n = json.loads(out)["candidates"]
                books.append(timed(book_cmd, book_cpu)[0])
                floors.append(timed(floor_cmd, floor_cpu)[0])
            med, bmed, fmed = statistics.median(times), statistics.median(books), statistics.median(floors)
            goal = TARGETS.get(q)
            target = "-" if goal is None else "%.0fx %s" % (goal, "met" if bmed / fmed <= goal else "not met")
            bcpu, fcpu = statistics.median(book_cpu), statistics.median(floor_cpu)
            print("%-10s %10d %9.3f %9.3f %12.3f %12.3f %6.1fx %13.0f %12.3f %6.1fx %14s %7.3f/%.3f %4.1fx" % (
                q, n, min(times), med, min(floors), fmed, med / fmed, n / med, bmed, bmed / fmed, target, bcpu, fcpu,
                bcpu / fcpu), flush=True)
        print("machine: %s" % machine())


if __name__ == "__main__":
    main()
