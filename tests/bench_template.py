#!/usr/bin/env python3
"""bench_template.py - how the time of a whole `tco` run grows with the template's size.

Not a test: it prints figures, asserts nothing about time.  Each case is the
shipped project (pricing/, scenarios/, templates/) copied with N extra scalar
lines appended to templates/tco.ini, then `tco --scenario cluster32` run on it
(load, bind, order, evaluate, write and verify the workbook).  Two shapes:

  chain        [line.c_I] formula = c_(I-1)+1   (every line uses the one before)
  independent  [line.c_I] formula = 1

For each it prints the time, the time per extra line and the time above the
shipped template's run (the floor) per extra line; growth is linear when the
last column stays flat as N doubles.  (Before the name index and the ordered
defined names, 49,000 chained lines took 50 s: 5k 0.29 s, 10k 1.14 s, 20k 4.6 s.)

Usage: bench_template.py TCO_BINARY SOURCE_DIR [N ...]   (default N: 5000 10000 20000 40000)
   or: cmake --build build --target bench_template
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time


def extra_lines(n, chain):
    out = ["\n[line.c_0]\nsheet = Sizing\nlabel = L\nunit = CNY\nformula = 1\n"]
    for i in range(1, n):
        out.append("[line.c_%d]\nsheet = Sizing\nlabel = L\nunit = CNY\nformula = %s\n"
                   % (i, "c_%d+1" % (i - 1) if chain else "1"))
    return "\n".join(out)


def run(tco, proj, out, repeat=3):
    """Best of @p repeat runs (seconds), with the exit code of the last."""
    best, rc = None, None
    for _ in range(repeat):
        t0 = time.monotonic()
        p = subprocess.run([tco, "--root", proj, "--scenario", "cluster32", "--out", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=600)
        secs = time.monotonic() - t0
        best = secs if best is None else min(best, secs)
        rc = p.returncode
        if rc != 0:
            sys.stderr.write(p.stderr)
            break
    return best, rc


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tco, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sizes = [int(a) for a in sys.argv[3:]] or [5000, 10000, 20000, 40000]
    tmp = tempfile.mkdtemp(prefix="bench_template.")
    try:
        proj = os.path.join(tmp, "proj")
        for d in ("pricing", "scenarios", "templates"):
            shutil.copytree(os.path.join(src, d), os.path.join(proj, d))
        tpl = os.path.join(proj, "templates", "tco.ini")
        shipped = open(tpl).read()
        out = os.path.join(tmp, "c.xlsx")
        floor, rc = run(tco, proj, out)
        print("%-12s %7s %10s %8s %9s %14s %16s" % ("shape", "lines", "bytes", "time s", "exit", "us/line",
                                                     "(t-floor)/N us"))
        print("%-12s %7d %10d %8.3f %9s" % ("shipped", 0, len(shipped), floor, rc), flush=True)
        for chain in (True, False):
            for n in sizes:
                text = shipped + extra_lines(n, chain)
                with open(tpl, "w") as f:
                    f.write(text)
                secs, rc = run(tco, proj, out, repeat=1 if n > 20000 else 3)
                print("%-12s %7d %10d %8.3f %9s %14.1f %16.1f"
                      % ("chain" if chain else "independent", n, len(text), secs, rc, secs / n * 1e6,
                         (secs - floor) / n * 1e6), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
