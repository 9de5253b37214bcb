#!/usr/bin/env python3
"""bench_risk.py - how long a Monte Carlo run with its workbook takes against a plain run.

Not a test: it prints figures, asserts nothing about time.  It runs, alternately and ROUNDS times
each (so both see the same machine load), `tco --scenario cluster32 --monte-carlo N --out A.xlsx`
and the floor, `tco --scenario cluster32 --out B.xlsx` (load, evaluate, write and check the
workbook), and prints the medians of wall and CPU time (user + system of the child, from wait4),
the ratio of the wall medians (issue 25 asks for at most 4x at N = 100,000) and the draws per
second.  Also `--sensitivity` against the same floor, and the peak resident set of one run of
--monte-carlo BIG (default 10^6; issue 25: within 64 MiB), measured by tests/peak_rss.c (built here
with cc: a child forked from Python would carry Python's high-water mark across exec).  It prints
the machine (the CPU's model name, cores, load average) first.

Usage: bench_risk.py TCO_BINARY SOURCE_DIR [--draws N] [--rounds R] [--big-draws BIG] [--cc CC]
   or: cmake --build build --target bench_risk
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    secs = time.monotonic() - t0
    err = p.stderr.read().decode()
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s: exit %d: %s" % (" ".join(cmd), os.waitstatus_to_exitcode(status), err))
    return secs, usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tco")
    ap.add_argument("root")
    ap.add_argument("--draws", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--big-draws", type=int, default=1000000, help="draws of the peak-RSS run (0: none)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    a = ap.parse_args()
    cpu = "?"
    with open("/proc/cpuinfo") as fh:
        for line in fh:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    print("machine: %s, %d cores, load average %.2f at the start" % (cpu, os.cpu_count(), os.getloadavg()[0]))
    with tempfile.TemporaryDirectory() as tmp:
        base = [a.tco, "--root", a.root, "--scenario", "cluster32"]
        runs = {
            "tco --scenario cluster32 (the floor)": base + ["--out", os.path.join(tmp, "plain.xlsx")],
            "--monte-carlo %d" % a.draws: base + ["--monte-carlo", str(a.draws), "--out",
                                                  os.path.join(tmp, "mc.xlsx")],
            "--sensitivity": base + ["--sensitivity", "--out", os.path.join(tmp, "sens.xlsx")],
        }
        times = {k: ([], []) for k in runs}
        for r in range(a.rounds + 1):  # round 0 warms the caches and is not counted
            for k, cmd in runs.items():
                w, c = timed(cmd)
                if r:
                    times[k][0].append(w)
                    times[k][1].append(c)
        rss = None
        if a.big_draws > 0:
            tool = os.path.join(tmp, "peak_rss")
            subprocess.run([a.cc, "-O2", "-o", tool, os.path.join(a.root, "tests", "peak_rss.c")], check=True)
            p = subprocess.run([tool] + base + ["--monte-carlo", str(a.big_draws), "--out",
                                                os.path.join(tmp, "big.xlsx")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            m = re.search(r"peak_rss_kib (\d+) exit (\d+)", p.stderr)
            if m is None or m.group(2) != "0":
                sys.exit("bench_risk: --monte-carlo %d failed: %s" % (a.big_draws, p.stderr))
            rss = int(m.group(1)) / 1024
    floor = statistics.median(times["tco --scenario cluster32 (the floor)"][0])
    print("load average %.2f at the end" % os.getloadavg()[0])
    for k in runs:
        w, c = statistics.median(times[k][0]), statistics.median(times[k][1])
        print("%-40s %8.4f s  cpu %8.4f s  %6.2fx the floor  (median of %d)" % (k, w, c, w / floor, a.rounds))
    mc = statistics.median(times["--monte-carlo %d" % a.draws][0])
    print("draws per second, the whole run: %.0f" % (a.draws / mc))
    if rss is not None:
        print("peak RSS, --monte-carlo %d with its workbook: %.1f MiB  (target <= 64 MiB: %s)"
              % (a.big_draws, rss, "met" if rss <= 64 else "NOT met"))
    print("target: --monte-carlo %d <= 4x the floor: %s" % (a.draws, "met" if mc / floor <= 4 else "NOT met"))
    print("ratio=%.2f" % (mc / floor))


if __name__ == "__main__":
    main()
