#!/usr/bin/env python3
"""bench_ini.py - how long `tco` takes to read (accept or refuse) large INI files.

Not a test: it prints figures, asserts nothing about time.  Each case is one
generated file given to `tco --scenario FILE`; the scenario is the first file
tco reads, so the time is the INI reading plus a refusal by the model (the
generated files are not scenarios), or the INI reading up to the limit that
refuses the file.  The last case runs a real scenario against a template 100
times the size of templates/tco.ini (every input and line copied 100 times
under new names), so it times the whole model as well.

Usage: bench_ini.py TCO_BINARY SOURCE_DIR [--skip-model]
   or: cmake --build build --target bench_ini
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

MAX_BYTES = 8 * 1024 * 1024


def b36(i):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        i, r = divmod(i, 36)
        s = digits[r] + s
        if i == 0:
            return "k" + s


def keys_file(path, keys, per_section, size=None):
    """`keys` lines `kNAME = 1` in sections of `per_section` keys; with `size`,
    compact lines whose values are padded so the file is about `size` bytes."""
    width, longer = 1, 0
    if size is not None:
        names = sum(len(b36(i)) + 2 for i in range(keys))
        heads = sum(len("[s%d]\n" % j) for j in range((keys + per_section - 1) // per_section))
        width, longer = divmod(max(keys, size - names - heads), keys)
    sep = "=" if size is not None else " = "
    with open(path, "w") as f:
        for i in range(keys):
            if i % per_section == 0:
                f.write("[s%d]\n" % (i // per_section))
            f.write("%s%s%s\n" % (b36(i), sep, "1" * (width + (i < longer))))
    return os.path.getsize(path)


def template_copies(src, copies):
    """templates/tco.ini with every [input.X] and [line.X] copied `copies` times as X, X_r1, ...

    Names in the copies' formulas are renamed alike, so each copy is a
    self-contained model of its own; [model] and [chart.*] stay single.  A
    copy drops `quote`/`structural` keys (one input per quote item and per
    structural value)."""
    text = open(src).read()
    blocks = re.split(r"(?m)^(?=\[)", text)
    head, sections = blocks[0], blocks[1:]
    names = set(re.findall(r"(?m)^\[(?:input|line)\.([A-Za-z_][A-Za-z0-9_]*)\]", text))
    ident = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\b")

    def rename(s, r):
        def one(m):
            w = m.group(1)
            base = w[:-6] if w.endswith("_total") and w[:-6] in names else w
            if base in names:
                return base + "_r%d" % r + w[len(base):]
            return w
        return ident.sub(one, s)

    out = [head] + sections
    for r in range(1, copies):
        for sec in sections:
            m = re.match(r"\[(input|line)\.([A-Za-z0-9_]+)\]", sec)
            if not m:
                continue
            lines = []
            for line in sec.splitlines(keepends=True):
                key = line.split("=", 1)[0].strip()
                if key in ("quote", "quote_qty", "structural"):
                    continue
                if key == "formula":
                    k, v = line.split("=", 1)
                    line = k + "=" + rename(v, r)
                elif line.startswith("["):
                    line = "[%s.%s_r%d]\n" % (m.group(1), m.group(2), r)
                lines.append(line)
            out.append("".join(lines))
    return "".join(out)


def run(tco, args, timeout=600):
    t0 = time.monotonic()
    try:
        p = subprocess.run([tco] + args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.monotonic() - t0, None, "timed out after %d s" % timeout
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    return time.monotonic() - t0, p.returncode, lines[-1] if lines else ""


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tco, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    skip_model = "--skip-model" in sys.argv[3:]
    root = os.path.join(src, "tests", "fixtures", "roots", "mini")
    tmp = tempfile.mkdtemp(prefix="bench_ini.")
    try:
        cases = []

        def case(label, path):
            size = os.path.getsize(path)
            secs, rc, msg = run(tco, ["--root", root, "--scenario", path, "--out", os.path.join(tmp, "o.xlsx")])
            cases.append((label, size, secs, rc, msg))
            print("%-48s %9d bytes %7.3f s  exit %s  %s" % (label, size, secs, rc, msg[:120]), flush=True)

        for keys in (10_000, 100_000, 250_000):
            p = os.path.join(tmp, "k%d.ini" % keys)
            keys_file(p, keys, 10)
            case("%d keys, 10 per section" % keys, p)
        p = os.path.join(tmp, "k250k_8m.ini")
        keys_file(p, 250_000, 10, size=MAX_BYTES)
        case("250000 keys, 10 per section (8 MiB)", p)
        p = os.path.join(tmp, "k100k_1000.ini")
        keys_file(p, 100_000, 1000)
        case("100000 keys, 1000 per section", p)
        # The file: about 940,000 keys at the 8 MiB limit.
        p = os.path.join(tmp, "k940k.ini")
        keys_file(p, 940_000, 1000, size=MAX_BYTES)
        case("940000 keys, 1000 per section (8 MiB)", p)
        p = os.path.join(tmp, "k940k_one.ini")
        keys_file(p, 940_000, 940_000, size=MAX_BYTES)
        case("940000 keys in one section (8 MiB)", p)
        p = os.path.join(tmp, "k940k_sec.ini")
        with open(p, "w") as f:
            for i in range(420_000):
                f.write("[s%d]\n" % i)
        case("420000 empty sections", p)
        # A template 100 times templates/tco.ini, read as a file (not yet as a template).
        big = template_copies(os.path.join(src, "templates", "tco.ini"), 100)
        p = os.path.join(tmp, "tco100.ini")
        with open(p, "w") as f:
            f.write(big)
        nsec = len(re.findall(r"(?m)^\[", big))
        nkeys = len(re.findall(r"(?m)^[^;#\[\s][^=]*=", big))
        case("tco.ini x100 (%d sections, %d keys)" % (nsec, nkeys), p)

        if not skip_model:
            # The whole run with the 100x template in a copy of the project.
            proj = os.path.join(tmp, "proj")
            for d in ("pricing", "scenarios", "templates"):
                shutil.copytree(os.path.join(src, d), os.path.join(proj, d))
            with open(os.path.join(proj, "templates", "tco.ini"), "w") as f:
                f.write(big)
            for label, tpl in (("cluster32, shipped template", None), ("cluster32, template x100", big)):
                with open(os.path.join(proj, "templates", "tco.ini"), "w") as f:
                    f.write(tpl if tpl else open(os.path.join(src, "templates", "tco.ini")).read())
                secs, rc, msg = run(tco, ["--root", proj, "--scenario", "cluster32", "--format", "json",
                                          "--out", os.path.join(tmp, "c.xlsx")])
                print("%-48s %9s       %7.3f s  exit %s  %s" % (label + " (whole run)", "", secs, rc, msg[:120]),
                      flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
