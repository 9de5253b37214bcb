#!/usr/bin/env python3
"""bench_scale.py - does `tco advise` take time linear in its candidates? (issue 25, target 5)

Not a test: it prints figures and asserts nothing about time.  It copies the project root (without
build folders, tests and docs) into a temporary folder several times, each copy with a larger
catalog: pricing/cards.ini's tiers and pricing/hosts.ini's hosts repeated under new codes (`D-L-2`,
`dc8-2`, ...: the same figures, so every copy of a tier is a candidate as the original is), at

    1x   the shipped catalog (10 tiers x 5 hosts)
    4x   20 tiers x 10 hosts
    16x  80 tiers x 10 hosts
    20x  100 tiers x 10 hosts (the issue's catalog)

and times `tco advise QUESTION --set advise.tiers=all --set advise.hosts=all --no-workbook --format json`
(every tier and host of the catalog, whatever the question lists) on each, the sizes alternately, ROUNDS
times each (so all see the same machine load).  For each size it prints the candidates (the JSON's
"candidates"), the median wall and CPU time, the time per candidate, and between consecutive sizes the
growth of the time per candidate per doubling of the candidates:

    growth = (t2 / n2 / (t1 / n1)) ^ (1 / log2(n2 / n1))      (1.00: linear; target <= 1.2)

A fixed cost (loading the template, starting the process) makes the time per candidate fall with size,
so growth below 1 is expected; above 1 would mean a cost that grows faster than the candidates.
With --workbook the same runs write the advice workbook too (`--out FILE.xlsx`): its Rank sheet holds
every candidate, so it is the workbook's growth that shows.

Usage: bench_scale.py TCO_BINARY SOURCE_DIR [QUESTION ...] [--rounds N] [--workbook] [--keep DIR]
       (default: train-7b and team-70b, 5 rounds)
"""
import argparse
import json
import math
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_advise import machine  # noqa: E402  (the CPU model and load average, as bench_advise prints them)

# (label, tier copies, host copies, in the growth) of the shipped 10 tiers x 5 hosts: the growth is taken
# over 1x, 4x and 16x (two doublings each); 20x is the catalog, printed, a third of a doubling past
# 16x (too short a step for a growth that noise does not swamp).
SIZES = [("1x", 1, 1, True), ("4x", 2, 2, True), ("16x", 8, 2, True), ("20x", 10, 2, False)]
TARGET = 1.2


def repeat_sections(path, copies):
    """Repeat every [SECTION] of the INI file @p path @p copies times in all, the copies named SECTION-2,
    SECTION-3, ...; the comments before the first section stay once.  Returns the number of sections."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    first = re.search(r"(?m)^\[", text)
    head, body = text[:first.start()], text[first.start():]
    sections = [sec for sec in re.split(r"(?m)^(?=\[)", body) if sec]
    out = [head] + sections
    for i in range(2, copies + 1):
        for sec in sections:
            out.append(re.sub(r"^\[([^\]]+)\]", lambda m: "[%s-%d]" % (m.group(1), i), sec, count=1))
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(out))
    return len(sections) * copies


def make_root(src, dst, tier_copies, host_copies):
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("build*", "out", ".git", "tests", "docs"))
    tiers = repeat_sections(os.path.join(dst, "pricing", "cards.ini"), tier_copies)
    hosts = repeat_sections(os.path.join(dst, "pricing", "hosts.ini"), host_copies)
    return tiers, hosts


def timed(cmd):
    """(wall seconds, CPU seconds of the child, standard output); exits on failure."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=1200)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("bench_scale: %s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-800:]))
    return wall, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tco")
    ap.add_argument("src")
    ap.add_argument("questions", nargs="*", default=["train-7b", "team-70b"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--workbook", action="store_true", help="write the advice workbook in each run")
    ap.add_argument("--keep", help="build the roots in this folder and keep them")
    a = ap.parse_args()
    tco, src = os.path.abspath(a.tco), os.path.abspath(a.src)
    work = os.path.abspath(a.keep) if a.keep else tempfile.mkdtemp(prefix="bench_scale.")
    os.makedirs(work, exist_ok=True)
    print("bench_scale: %s, %s; tco %s; %d rounds%s" % (
        time.strftime("%Y-%m-%d %H:%M"), machine(), tco, a.rounds,
        ", with the workbook" if a.workbook else ", --no-workbook"))
    try:
        roots = []
        for label, tc, hc, _ in SIZES:
            root = os.path.join(work, "root-" + label)
            if os.path.exists(root):
                shutil.rmtree(root)
            tiers, hosts = make_root(src, root, tc, hc)
            roots.append((label, root, tiers, hosts))
        worst, worst_cpu = 0.0, 0.0
        for q in a.questions:
            cmds = []
            for label, root, tiers, hosts in roots:
                out = ["--out", os.path.join(work, "%s-%s.xlsx" % (q, label)), "--force"] if a.workbook \
                    else ["--no-workbook"]
                cmds.append([tco, "advise", q, "--root", root, "--format", "json", "--set", "advise.tiers=all",
                             "--set", "advise.hosts=all"] + out)
            cands = []
            for cmd in cmds:  # a warm-up run each, and the candidates
                cands.append(json.loads(timed(cmd)[2])["candidates"])
            walls, cpus = [[] for _ in cmds], [[] for _ in cmds]
            for _ in range(a.rounds):
                for i, cmd in enumerate(cmds):
                    w, c, _ = timed(cmd)
                    walls[i].append(w)
                    cpus[i].append(c)
            print("\n%s:" % q)
            print("  %-5s %6s %6s %10s %9s %9s %12s %12s %14s" % (
                "size", "tiers", "hosts", "candidates", "wall s", "cpu s", "wall us/cand", "cpu us/cand",
                "growth/doubling"))
            prev = None
            for i, (label, _, tiers, hosts) in enumerate(roots):
                w, c, n = statistics.median(walls[i]), statistics.median(cpus[i]), cands[i]
                growth = ""
                if prev is not None and n > prev[0] and SIZES[i][3]:
                    doublings = math.log2(n / prev[0])
                    g = ((w / n) / (prev[1] / prev[0])) ** (1 / doublings)
                    gc = ((c / n) / (prev[2] / prev[0])) ** (1 / doublings)
                    worst, worst_cpu = max(worst, g), max(worst_cpu, gc)
                    growth = "%.2f (cpu %.2f)" % (g, gc)
                print("  %-5s %6d %6d %10d %9.3f %9.3f %12.1f %12.1f %14s" % (
                    label, tiers, hosts, n, w, c, w / n * 1e6, c / n * 1e6, growth))
                prev = (n, w, c)
            w1, n1 = statistics.median(walls[0]), cands[0]
            wl, nl = statistics.median(walls[-1]), cands[-1]
            print("  %s to %s: %.1fx the candidates in %.1fx the time" % (roots[0][0], roots[-1][0], nl / n1, wl / w1))
        print("\nworst growth of the time per candidate per doubling (1x to 4x, 4x to 16x): %.2f (target <= %.1f: %s)" % (
            worst, TARGET, "met" if worst <= TARGET else "NOT met"))
        print("load average after: %.2f" % os.getloadavg()[0])
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
