#!/usr/bin/env python3
"""bench_perf.py - tco's speed as ratios to bare-library floors (issue 12, part 5).

Not a test: it prints figures and asserts nothing about time.  The machine is
shared and noisy, so every figure is a ratio of medians of two programs timed
alternately in one run (tco, floor, tco, floor, ...):

  1. cluster32 workbook: `tco --scenario cluster32` against floor.c rewriting
     the cells of that very workbook with bare libxlsxwriter      (target <= 1.3x)
     and against the limit of its design (issue 25): floor + limit.c, which
     loads the INI files the run reads with iniparser and reads the floor's
     workbook back with minizip (every CRC) and expat (every part)  (target <= 1.1x)
  2. a template with 100x the lines (mkroots.py `lines100`): tco against the
     floor rewriting that run's workbook                          (target <= 1.5x)
     and against floor + verification (limit.c -verify alone: a bare
     iniparser_load of the 7 MB template is itself quadratic)     (target <= 1.3x)
     and, for scale only, against the floor given huge pages for its heap as tco
     asks for its own (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, engine/base/memory.h),
     and the cost per template line at 1x, 10x and 100x (linear growth: the
     cost of the lines added from 10x to 100x, per line, is that from 1x to 10x)
  3. `tco quotes check FILE` on 1,000,000 rows against csvfloor.c, a bare libcsv
     parse of the same file (64 KiB blocks, fields only counted)  (target <= 2x)
     with the peak RSS of tco's runs on 100,000 and 1,000,000 rows (memory flat),
     and of `--scenario cluster32 --quotes FILE`, which keeps the rows it can use
  4. loading: `--scenario all` and `--compare` against the floor writing the same
     workbooks in one process, and how often each shared file is opened (strace)

The floors come from PERF_DIR (default ../shared/tools/perf beside the source
folder; README.md there) and are compiled here with `cc -O2`.  Each floor's
workbook is dumped back and compared with tco's (cellsdiff.py) before timing, so
that both sides write the same cells.  libxlsxwriter keeps defined names in a
list sorted by name and inserts from its head, so the order of the
workbook_define_name() calls decides whether n names cost n or n^2/2 string
comparisons; tco gives them in descending order, the dump lists them ascending.
The floor is given the dump with its names in tco's order (the same calls, so
the same workbook), or it would be slower than tco at 100x (17,000 names: 2.9 s
instead of 0.3 s) and the ratio meaningless; the ascending figure is printed too.
Both sides write their temporary part files to the same folder as their
workbooks (tco's rule; FLOOR_TMPDIR for the floor).

Usage: bench_perf.py TCO_BINARY SOURCE_DIR [--perf-dir DIR] [--runs N] [--rows N]
                     [--only cluster32,lines,quotes,loading] [--keep DIR]
   or: cmake --build build --target bench_perf   (build with -DCMAKE_BUILD_TYPE=Release)
"""
import argparse
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd, env=None, cwd=None):
    """Run @p cmd once: (wall seconds, cpu seconds) of that child alone; exits on failure."""
    if cwd is not None:
        cmd = ["sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", cwd] + cmd
    null = os.open(os.devnull, os.O_WRONLY)
    acts = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawnp(cmd[0], cmd, env if env is not None else os.environ, file_actions=acts)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(null)
    if os.waitstatus_to_exitcode(status) != 0:
        run(cmd, env=env)  # again, to show why
        sys.exit("bench_perf: %s failed" % " ".join(cmd))
    return wall, ru.ru_utime + ru.ru_stime


def peak_rss(tool, cmd, runs=3):
    """Largest peak RSS (KiB) of @p runs runs of @p cmd, each measured by peak_rss.c (a child forked from Python
    would carry Python's high-water mark across exec)."""
    peak = 0
    for _ in range(runs):
        p = run([tool] + cmd)
        peak = max(peak, int(re.search(r"peak_rss_kib (\d+)", p.stderr).group(1)))
    return peak


def alternate(sides, runs):
    """Time each of @p sides ((label, cmd, env)) @p runs times, alternately; {label: [(wall, cpu, rss)]}."""
    out = {label: [] for label, _, _ in sides}
    for label, cmd, env in sides:  # one warm-up run each (page cache, dynamic loader)
        timed(cmd, env)
    for _ in range(runs):
        for label, cmd, env in sides:
            out[label].append(timed(cmd, env))
    return out


def med(samples, k=0):
    return statistics.median(s[k] for s in samples)


def show(name, results, tco_label, floor_label, target=None):
    """Print medians and the ratio tco/floor; returns the ratio of wall medians."""
    t, f = results[tco_label], results[floor_label]
    ratio = med(t) / med(f)
    cpu_ratio = med(t, 1) / med(f, 1)
    verdict = "" if target is None else ("  (target <= %.1fx: %s)" % (target, "met" if ratio <= target else "NOT met"))
    print("  %-34s %9.4f s  cpu %9.4f s   (median of %d runs)" % (tco_label, med(t), med(t, 1), len(t)))
    print("  %-34s %9.4f s  cpu %9.4f s" % (floor_label, med(f), med(f, 1)))
    print("  %-34s %9.2fx     cpu %8.2fx%s" % ("ratio " + name, ratio, cpu_ratio, verdict), flush=True)
    return ratio


INI_RUN_ENTRIES = 128  # engine/read/ini.c INI_CHUNK_ENTRIES: the entries of one iniparser_load() of a large file


def show_limit(name, results, tco_label, parts, target):
    """Print tco against the sum of @p parts (labels timed in the same rounds): the median of each round's sum
    (floor + limit run one after the other in that round), and whether it meets @p target (None: for scale, no
    target).  Returns the ratio of wall medians."""
    t = results[tco_label]
    sums = [tuple(sum(results[p][i][k] for p in parts) for k in (0, 1)) for i in range(len(t))]
    for p in parts[1:]:
        print("  %-34s %9.4f s  cpu %9.4f s" % (p, med(results[p]), med(results[p], 1)))
    ratio, cpu_ratio = med(t) / med(sums), med(t, 1) / med(sums, 1)
    print("  %-34s %9.4f s  cpu %9.4f s   (median of the rounds' sums)" % (" + ".join(parts), med(sums), med(sums, 1)))
    verdict = "" if target is None else "  (target <= %.1fx: %s)" % (target, "met" if ratio <= target else "NOT met")
    print("  %-34s %9.2fx     cpu %8.2fx%s" % ("ratio " + name, ratio, cpu_ratio, verdict), flush=True)
    return ratio


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit("bench_perf: %s failed (exit %d): %s" % (" ".join(cmd), p.returncode, (p.stderr or p.stdout)[-600:]))
    return p


class Bench:
    def __init__(self, a):
        self.tco, self.src, self.perf, self.runs = a.tco, a.src, a.perf_dir, a.runs
        self.work = a.work
        self.env = dict(os.environ, FLOOR_TMPDIR=self.work)
        self.limit_ratios = []  # (label, ratio, target): tco against the limit of its design

    def path(self, *p):
        return os.path.join(self.work, *p)

    def build_floors(self):
        cc = os.environ.get("CC", "cc")
        xl = run(["pkg-config", "--cflags", "--libs", "xlsxwriter"]).stdout.split()
        self.floor, self.csvfloor = self.path("floor"), self.path("csvfloor")
        run([cc, "-O2", "-o", self.floor, os.path.join(self.perf, "floor.c")] + xl)
        self.limit = self.path("limit")
        lim = run(["pkg-config", "--cflags", "--libs", "minizip", "expat"]).stdout.split()
        run([cc, "-O2", "-o", self.limit, os.path.join(self.perf, "limit.c")] + lim +
            ["-I/usr/include/iniparser", "-liniparser"])
        run([cc, "-O2", "-o", self.csvfloor, os.path.join(self.perf, "csvfloor.c"), "-lcsv"])
        self.peak_rss = self.path("peak_rss")
        run([cc, "-O2", "-o", self.peak_rss, os.path.join(self.src, "tests", "peak_rss.c")])
        print("floors: %s -O2 from %s" % (cc, self.perf))

    def dump(self, xlsx, cells):
        """xlsx2cells.py @p xlsx to @p cells, and a copy with the names in tco's (descending) order."""
        p = run([sys.executable, os.path.join(self.perf, "xlsx2cells.py"), xlsx, cells])
        note = p.stderr.strip()
        with open(cells, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        # floor.c writes whole, decimal and list validations only: tco's custom-formula ones (the Inputs
        # sheet's tier code check and 'least' ranges) are left out of the dump that both sides are held to,
        # so the floor does a little less than tco (the ratio errs against tco), and said.
        custom = [l for l in lines if l.startswith("#dv\t") and l.split("\t")[2:3] == ["custom"]]
        if custom:
            lines = [l for l in lines if not (l.startswith("#dv\t") and l.split("\t")[2:3] == ["custom"])]
            with open(cells, "w", encoding="utf-8") as f:
                f.writelines(lines)
            note = (note + "; " if note else "") + (
                "%d custom-formula validations of tco's workbook left out (floor.c writes none)" % len(custom))
        names = [l for l in lines if l.startswith("#name\t")]
        names.sort(key=lambda l: l.split("\t")[1].lower(), reverse=True)
        desc = cells[:-6] + "-desc.cells"
        with open(desc, "w", encoding="utf-8") as f:
            f.writelines([l for l in lines if not l.startswith("#name\t")] + names)
        return desc, note

    def same_cells(self, a_cells, xlsx):
        """The floor's workbook @p xlsx has the cells of the dump @p a_cells (cellsdiff.py)."""
        b = xlsx[:-5] + ".check.cells"
        run([sys.executable, os.path.join(self.perf, "xlsx2cells.py"), xlsx, b])
        p = subprocess.run([sys.executable, os.path.join(self.perf, "cellsdiff.py"), a_cells, b],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("bench_perf: the floor's workbook differs from tco's:\n" + p.stdout[-2000:])
        return p.stdout.strip().splitlines()[-1]

    def workbook_pair(self, label, root, scenario="cluster32", ascending=False):
        """tco's command for @p scenario under @p root, and the floor's for the same cells."""
        stem = re.sub(r"\W", "_", label)
        tco_out = self.path(stem + ".xlsx")
        tco_cmd = [self.tco, "--root", root, "--scenario", scenario, "--out", tco_out, "--force"]
        run(tco_cmd)
        cells = self.path(stem + ".cells")
        desc, note = self.dump(tco_out, cells)
        floor_out = self.path(stem + "-floor.xlsx")
        floor_cmd = [self.floor, desc, floor_out]
        run(floor_cmd, env=self.env)
        same = self.same_cells(cells, floor_out)
        print("  %s: floor's workbook checked: %s%s" % (label, same, ("; " + note) if note else ""))
        asc = [self.floor, cells, self.path(stem + "-floor-asc.xlsx")] if ascending else None
        return tco_cmd, floor_cmd, asc

    # -- 1 ------------------------------------------------------------------------------------------
    def cluster32(self):
        print("\n1. cluster32 workbook: tco --scenario cluster32 against the floor writing the same cells")
        t, f, _ = self.workbook_pair("cluster32", self.src)
        inis = self.ini_files(t)
        lim = [self.limit] + [a for p in inis for a in ("-ini", p)] + ["-verify", f[-1]]
        print("  limit: loads %d INI files (%s) and verifies the floor's workbook" % (
            len(inis), ", ".join(os.path.relpath(p, self.src) for p in inis)))
        r = alternate([("tco --scenario cluster32", t, None), ("floor (same cells)", f, self.env),
                       ("limit (INI + verification)", lim, None)], self.runs)
        ratio = show("cluster32", r, "tco --scenario cluster32", "floor (same cells)", 1.3)
        self.limit_ratios.append(("cluster32 / (floor + limit)", show_limit(
            "cluster32 / (floor + limit)", r, "tco --scenario cluster32",
            ["floor (same cells)", "limit (INI + verification)"], 1.1), 1.1))
        return ratio

    def ini_files(self, tco_cmd):
        """The INI files @p tco_cmd opens (strace), each once; without strace the scenario, pricing/ and
        templates/ INI files of the source folder."""
        found = []
        if shutil.which("strace"):
            log = self.path("strace-ini.log")
            subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o", log] + tco_cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.src)
            with open(log, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    m = re.search(r'openat\([^,]+, "([^"]+\.ini)"', line)
                    if m and "= -1" not in line:
                        p = os.path.join(self.src, m.group(1))
                        if p not in found:
                            found.append(p)
        if not found:
            found = [os.path.join(self.src, "scenarios", tco_cmd[tco_cmd.index("--scenario") + 1] + ".ini")]
            for d in ("pricing", "templates"):
                found += sorted(os.path.join(self.src, d, n) for n in os.listdir(os.path.join(self.src, d))
                                if n.endswith(".ini"))
        return found

    def ini_in_runs(self, tco_cmd):
        """The INI files @p tco_cmd opens, with its largest (the template) cut into files of whole sections of at
        most INI_RUN_ENTRIES entries (a section header and each key one entry), as tco hands a large file to
        iniparser (engine/read/ini.c, INI_CHUNK_ENTRIES): a bare iniparser_load() of a 10 MB file is quadratic
        in its entries, one of each run is linear.  Comments and blank lines go with the section they follow."""
        files = self.ini_files(tco_cmd)
        big = max(files, key=os.path.getsize)
        folder = self.path("template-runs")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        out, run_lines, entries = [], [], 0

        def flush():
            if run_lines:
                out.append(os.path.join(folder, "run%05d.ini" % len(out)))
                with open(out[-1], "w", encoding="utf-8") as fh:
                    fh.writelines(run_lines)

        with open(big, encoding="utf-8") as fh:
            sections = re.split(r"(?m)^(?=\[)", fh.read())
        for sec in sections:
            lines = sec.splitlines(keepends=True)
            n = sum(1 for l in lines if l.strip() and not l.lstrip().startswith((";", "#")))
            if run_lines and entries + n > INI_RUN_ENTRIES:
                flush()
                run_lines, entries = [], 0
            run_lines += lines
            entries += n
        flush()
        return [p for p in files if p != big] + out

    # -- 2 ------------------------------------------------------------------------------------------
    def lines(self):
        print("\n2. template size: every template line copied 10x and 100x (mkroots.py)")
        roots = self.path("roots")
        run([sys.executable, os.path.join(self.perf, "mkroots.py"), self.src, roots])
        per_line = []
        ratio = None
        for name, root in (("lines1", self.src), ("lines10", os.path.join(roots, "lines10")),
                           ("lines100", os.path.join(roots, "lines100"))):
            with open(os.path.join(root, "templates", "tco.ini"), encoding="utf-8") as fh:
                n_lines = len(re.findall(r"(?m)^\[line\.", fh.read()))
            t, f, asc = self.workbook_pair(name, root, ascending=name == "lines100")
            sides = [("tco " + name, t, None), ("floor " + name, f, self.env)]
            if asc:
                sides.append(("verification of the floor's book", [self.limit, "-verify", f[-1]], None))
                sides.append(("floor, names ascending", asc, self.env))
                # For scale: tco asks for huge pages for its heap (engine/base/memory.h); the floor given the same
                # pages by glibc's own setting.
                huge = dict(self.env if self.env is not None else os.environ, GLIBC_TUNABLES="glibc.malloc.hugetlb=1")
                sides.append(("floor, heap in huge pages", f, huge))
                runs_lim = self.ini_in_runs(t)
                sides.append(("limit, template in runs", [self.limit] + [a for p in runs_lim for a in ("-ini", p)] +
                              ["-verify", f[-1]], None))
            runs = self.runs if name != "lines100" else max(5, self.runs // 2)
            r = alternate(sides, runs)
            print("  [%s: %d template lines]" % (name, n_lines))
            rr = show(name, r, "tco " + name, "floor " + name, 1.5 if name == "lines100" else None)
            if asc:
                self.limit_ratios.append(("lines100 / (floor + verification)", show_limit(
                    "lines100 / (floor + verif.)", r, "tco " + name,
                    ["floor " + name, "verification of the floor's book"], 1.3), 1.3))
                # Not the definition (a proposal for its owner, docs/performance.md): the template read as
                # tco reads it, iniparser_load() on runs of whole sections, beside every other INI file and the
                # verification; so the limit counts the template's reading as cluster32's counts its INI files.
                print("  (proposed: the limit with the template read by iniparser in runs of <= %d entries,"
                      " %d files)" % (INI_RUN_ENTRIES, len(runs_lim)))
                show_limit("lines100 / (floor + limit in runs)", r, "tco " + name,
                           ["floor " + name, "limit, template in runs"], 1.3)
                print("  %-34s %9.4f s  (the dump's order; tco is %.2fx this)" % (
                    "floor, names ascending", med(r["floor, names ascending"]),
                    med(r["tco " + name]) / med(r["floor, names ascending"])))
                print("  (for scale, not a target: the floor with its heap in huge pages, as tco asks for its own)")
                show_limit("lines100 / (floor in huge pages + verif.)", r, "tco " + name,
                           ["floor, heap in huge pages", "verification of the floor's book"], None)
                ratio = rr
            per_line.append((name, n_lines, med(r["tco " + name]), med(r["floor " + name])))
        print("\n  cost per template line (medians):")
        print("  %-9s %7s %10s %10s %12s %12s" % ("root", "lines", "tco s", "floor s", "tco us/line", "floor us/line"))
        for name, n, t, f in per_line:
            print("  %-9s %7d %10.4f %10.4f %12.1f %12.1f" % (name, n, t, f, t / n * 1e6, f / n * 1e6))
        (_, n1, t1, f1), (_, n10, t10, f10), (_, n100, t100, f100) = per_line
        a, b = (t10 - t1) / (n10 - n1), (t100 - t10) / (n100 - n10)
        fa, fb = (f10 - f1) / (n10 - n1), (f100 - f10) / (n100 - n10)
        print("  added lines, 1x->10x:   tco %6.1f us/line, floor %6.1f us/line" % (a * 1e6, fa * 1e6))
        print("  added lines, 10x->100x: tco %6.1f us/line, floor %6.1f us/line" % (b * 1e6, fb * 1e6))
        print("  growth (10x->100x over 1x->10x, 1.00 = linear): tco %.2f, floor %.2f" % (b / a, fb / fa), flush=True)
        return ratio

    # -- 3 ------------------------------------------------------------------------------------------
    ITEMS = ["C30", "C60", "C70", "C90", "W-A", "W-B", "W-C", "D-S", "D-L", "switch", "optic", "cable", "rack"]

    def quote_file(self, rows):
        """A valid quote file of @p rows rows (every item known, every field well-formed: `quotes check` exits 0
        having parsed and checked every field of every row)."""
        path = self.path("quotes-%d.csv" % rows)
        rnd = random.Random(rows)
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write("quote_id,vendor,item,unit_price,currency,quote_date,valid_until,min_qty,lead_time_weeks,notes\r\n")
            for i in range(rows):
                item = "D-M" if i % 50 == 0 else rnd.choice(self.ITEMS)
                ccy = "USD" if i % 7 == 0 else "CNY"
                price = rnd.randint(1000, 200000) / (7.1 if ccy == "USD" else 1)
                until = "2026-10-31" if i % 11 == 0 else "2027-06-30"
                fh.write(f'Q-{i},"Vendor {i % 997}, Ltd",{item},"{price:,.2f}",{ccy},2026-06-01,{until},'
                         f'{rnd.randint(1, 64)},{rnd.randint(1, 12)},"row {i}"\r\n')
        return path

    def quotes(self, rows):
        print("\n3. quote import: tco quotes check FILE against a bare libcsv parse (csvfloor, 64 KiB blocks)")
        small = max(1, rows // 10)
        ratio = None
        rss = {}
        for n in (small, rows):
            path = self.quote_file(n)
            p = run([self.tco, "--root", self.src, "quotes", "check", path])
            parsed = run([self.csvfloor, path]).stdout.strip()
            print("  %d rows, %d bytes: tco says '%s'; csvfloor: %s" % (n, os.path.getsize(path), p.stdout.strip(),
                                                                      parsed))
            check = [self.tco, "--root", self.src, "quotes", "check", path]
            scen = [self.tco, "--root", self.src, "--scenario", "cluster32", "--quotes", path, "--as-of",
                    "2026-11-30", "--out", self.path("quotes-book.xlsx"), "--force"]
            sides = [("tco quotes check", check, None), ("csvfloor", [self.csvfloor, path], None),
                     ("csvfloor -lines -copy", [self.csvfloor, "-lines", "-copy", path], None)]
            runs = self.runs if n == small else max(5, self.runs // 2)
            r = alternate(sides, runs)
            print("  [%d rows]" % n)
            rr = show("quotes %d rows" % n, r, "tco quotes check", "csvfloor", 2.0 if n == rows else None)
            print("  %-34s %9.4f s  (line by line, fields copied; tco is %.2fx this)" % (
                "csvfloor -lines -copy", med(r["csvfloor -lines -copy"]),
                med(r["tco quotes check"]) / med(r["csvfloor -lines -copy"])))
            sc = [timed(scen) for _ in range(3)]
            rss[n] = (peak_rss(self.peak_rss, check), peak_rss(self.peak_rss, scen),
                      peak_rss(self.peak_rss, [self.csvfloor, path]))
            print("  %-34s %9.4f s  (median of 3 runs; keeps the rows it can use)" % (
                "tco --scenario cluster32 --quotes", med(sc)))
            print("  peak RSS (peak_rss.c, largest of 3 runs): quotes check %.1f MiB, --scenario cluster32 --quotes "
                  "%.1f MiB, csvfloor %.1f MiB" % (rss[n][0] / 1024, rss[n][1] / 1024, rss[n][2] / 1024))
            if n == rows:
                ratio = rr
        (c1, s1, _), (c2, s2, _) = rss[small], rss[rows]
        print("  peak RSS, %d vs %d rows: quotes check %.1f vs %.1f MiB (%.2fx); --scenario --quotes %.1f vs %.1f "
              "MiB (%.2fx)" % (small, rows, c1 / 1024, c2 / 1024, c2 / c1, s1 / 1024, s2 / 1024, s2 / s1), flush=True)
        return ratio

    # -- 4 ------------------------------------------------------------------------------------------
    def loading(self):
        print("\n4. loading: several workbooks in one process, and the opens of each shared file")
        listing = run([self.tco, "--root", self.src, "--list"]).stdout
        scen = sorted(os.path.basename(p)[:-4] for p in os.listdir(os.path.join(self.src, "scenarios"))
                      if p.endswith(".ini") and not p.startswith("compare-"))
        allwd = self.path("all")
        os.makedirs(allwd, exist_ok=True)
        t_all = [self.tco, "--root", self.src, "--scenario", "all", "--force"]
        run(t_all, cwd=allwd)
        pairs = []
        for s in scen:
            book = os.path.join(allwd, "out", s + ".xlsx")
            if not os.path.exists(book):
                continue
            desc, _ = self.dump(book, self.path("all-%s.cells" % s))
            pairs += [desc, self.path("all-%s-floor.xlsx" % s)]
        f_all = [self.floor] + pairs

        comp = [c for c in ("compare-team70b",) if c in listing]
        sides = [("tco --scenario all", ["sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", allwd] + t_all, None),
                 ("floor, the same %d workbooks" % (len(pairs) // 2), f_all, self.env)]
        r = alternate(sides, max(5, self.runs // 2))
        show("--scenario all", r, sides[0][0], sides[1][0])
        if comp:
            out = self.path("compare.xlsx")
            tc = [self.tco, "--root", self.src, "--compare", comp[0], "--out", out, "--force"]
            run(tc)
            desc, _ = self.dump(out, self.path("compare.cells"))
            fc = [self.floor, desc, self.path("compare-floor.xlsx")]
            r = alternate([("tco --compare " + comp[0], tc, None), ("floor (same cells)", fc, self.env)], self.runs)
            show("--compare", r, "tco --compare " + comp[0], "floor (same cells)")
        if shutil.which("strace") is None:
            print("  (strace not installed: opens not counted)")
            return
        for label, cmd, cwd in (("--scenario all (%d scenarios)" % len(scen), t_all, allwd),
                                ("--compare " + (comp[0] if comp else "?"), tc if comp else None, None),
                                ("--scenario cluster32 --quotes", [self.tco, "--root", self.src, "--scenario",
                                 "cluster32", "--quotes", os.path.join(self.src, "pricing", "example-quotes.csv"),
                                 "--as-of", "2026-11-30", "--out", self.path("q.xlsx"), "--force"], None)):
            if cmd is None:
                continue
            log = self.path("strace.log")
            subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o", log] + cmd, cwd=cwd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            opens = {}
            with open(log, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    m = re.search(r'openat\([^,]+, "([^"]+\.ini)"', line)
                    if m and "= -1" not in line:
                        rel = os.path.relpath(m.group(1), self.src)
                        if not rel.startswith("scenarios/"):
                            opens[rel] = opens.get(rel, 0) + 1
            print("  %s: opens of the shared files: %s" % (
                label, ", ".join("%s %d" % kv for kv in sorted(opens.items())) or "none"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tco")
    ap.add_argument("src")
    ap.add_argument("--perf-dir", help="folder of floor.c, csvfloor.c, xlsx2cells.py, cellsdiff.py, mkroots.py "
                                       "(default: ../shared/tools/perf beside SRC)")
    ap.add_argument("--runs", type=int, default=15, help="timed runs of each side (default 15; half at 100x)")
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows of the large quote file (default 1,000,000)")
    ap.add_argument("--only", default="cluster32,lines,quotes,loading")
    ap.add_argument("--keep", help="work in this folder and keep it (default: a temporary folder, removed)")
    a = ap.parse_args()
    a.tco, a.src = os.path.abspath(a.tco), os.path.abspath(a.src)
    a.perf_dir = os.path.abspath(a.perf_dir or os.path.join(a.src, "..", "shared", "tools", "perf"))
    if not os.path.exists(os.path.join(a.perf_dir, "floor.c")):
        sys.exit("bench_perf: no floor.c in %s; give --perf-dir DIR" % a.perf_dir)
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    a.work = os.path.abspath(a.keep) if a.keep else tempfile.mkdtemp(prefix="bench_perf.")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bench_perf: terminated"))  # the work folder is removed
    try:
        b = Bench(a)
        cpu = "?"
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        print("bench_perf: %s, %d CPUs (%s), load %.2f; tco %s" % (
            time.strftime("%Y-%m-%d %H:%M"), os.cpu_count(), cpu, os.getloadavg()[0], a.tco))
        b.build_floors()
        only = set(a.only.split(","))
        ratios = []
        if "cluster32" in only:
            ratios.append(("cluster32 workbook", b.cluster32(), 1.3))
        if "lines" in only:
            ratios.append(("template x100 (lines100)", b.lines(), 1.5))
        if "quotes" in only:
            ratios.append(("quotes check, %d rows" % a.rows, b.quotes(a.rows), 2.0))
        if "loading" in only:
            b.loading()
        print("\nsummary (wall-time medians, tco / floor; tco / the limit of its design):")
        for label, r, target in ratios + b.limit_ratios:
            print("  %-32s %6.2fx   target <= %.1fx   %s" % (label, r, target, "met" if r <= target else "NOT met"))
    finally:
        if not a.keep:
            shutil.rmtree(a.work, ignore_errors=True)


if __name__ == "__main__":
    main()
