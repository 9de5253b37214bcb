#!/usr/bin/env python3
"""bench_quotes.py - how fast tco reads vendor quotes, and in how much memory.

Generates quote files of 10,000, 100,000 and 1,000,000 rows (most of them for
items cluster32 does not buy, some expired, one in fifty for D-M), then times
  tco quotes check FILE                       (every row checked, none kept)
  tco --scenario cluster32 --quotes FILE      (rows for the items it buys kept)
and prints rows/s and the peak resident memory of each run.  Memory that does
not grow with the rows ignored is the point: compare the 100k and 1M rows.
Usage: bench_quotes.py TCO_BINARY PROJECT_ROOT [ROWS...]
"""
import os, random, resource, subprocess, sys, tempfile, time

ITEMS = ["C30", "C60", "C70", "C90", "W-A", "W-B", "W-C", "D-S", "D-L", "switch", "optic", "cable", "rack"]


def make(path, rows):
    rnd = random.Random(rows)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write("quote_id,vendor,item,unit_price,currency,quote_date,valid_until,min_qty,lead_time_weeks,notes\r\n")
        for i in range(rows):
            item = "D-M" if i % 50 == 0 else rnd.choice(ITEMS)
            ccy = "USD" if i % 7 == 0 else "CNY"
            price = rnd.randint(1000, 200000) / (7.1 if ccy == "USD" else 1)
            until = "2026-10-31" if i % 11 == 0 else "2027-06-30"
            fh.write(f'Q-{i},"Vendor {i % 997}, Ltd",{item},"{price:,.2f}",{ccy},2026-06-01,{until},'
                     f'{rnd.randint(1, 64)},{rnd.randint(1, 12)},"row {i}"\r\n')


def run(cmd):
    """Wall time and peak RSS (KiB) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr[-400:]}")
    return elapsed, max(peak, before)


def main():
    tco, root = sys.argv[1], sys.argv[2]
    sizes = [int(x) for x in sys.argv[3:]] or [10_000, 100_000, 1_000_000]
    print(f"{'rows':>10} {'mode':<10} {'seconds':>8} {'rows/s':>12} {'peak RSS':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for rows in sizes:
            path = os.path.join(tmp, f"quotes-{rows}.csv")
            make(path, rows)
            # Each measurement in a fresh child so ru_maxrss is that run's own peak.
            for mode, cmd in (("check", [tco, "--root", root, "quotes", "check", path]),
                              ("scenario", [tco, "--root", root, "--scenario", "cluster32", "--quotes", path,
                                            "--as-of", "2026-11-30", "--out", os.path.join(tmp, "b.xlsx")])):
                probe = [sys.executable, "-c",
                         "import resource, subprocess, sys, time; t = time.perf_counter(); "
                         "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
                         "e = time.perf_counter() - t; "
                         "print(r.returncode, e, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + cmd
                out = subprocess.run(probe, capture_output=True, text=True).stdout.split()
                rc, secs, rss = int(out[0]), float(out[1]), int(out[2])
                if rc != 0:
                    sys.exit(f"{mode} run on {rows} rows exited {rc}")
                print(f"{rows:>10} {mode:<10} {secs:>8.2f} {rows / secs:>12,.0f} {rss / 1024:>8.1f} MiB")


if __name__ == "__main__":
    main()
