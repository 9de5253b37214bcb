#!/usr/bin/env python3
"""run_cases.py - run the data-driven CLI cases of tests/cli/*.cases.

Usage: python3 tests/cli/run_cases.py TCO SOURCE_DIR FILE.cases...

Each .cases file is run in one fresh temporary folder $T, its steps in order
(a case may use what an earlier case of the same file wrote).  The runner
prints "FILE: N passed, M failed" and exits 1 when any check fails, or when a
file holds no check at all.

THE CASE FORMAT
---------------
One step a line, "KEY: VALUE".  Blank lines and lines starting with '#' are
comments.  A line indented by two spaces continues the step above it (the
body of py:, script:, check:, do:), with those two spaces removed.

A case is a command and what it must do:

    # --bogus is a usage error
    tco: --bogus
    exit: 64
    stderr: tco: unknown option '--bogus'

The command (not a check by itself; its stdout goes to $T/out, its stderr to
$T/err):
    tco: ARGS        runs "$TCO" ARGS (ARGS is shell text: quote as in sh)
    run: SHELL       runs any shell text, e.g. (cd "$T/x" && "$TCO" ...) or
                     SOURCE_DATE_EPOCH=0 "$TCO" ...

Checks on the last command (each one check):
    exit: N              its exit status is N
    stdout: TEXT         stdout holds TEXT (a fixed string, on one line)
    stderr: TEXT         stderr holds TEXT
    stdout-lacks: TEXT   stdout does not hold TEXT
    stderr-lacks: TEXT
    stdout-empty:        stdout is empty (the value is ignored)
    stderr-empty:        stderr is empty
    stderr-lines: N      stderr has N lines
TEXT is literal: only $TCO, $SRC, $MINI (= $SRC/tests/fixtures/roots/mini)
and $T are replaced by their values; nothing else (no quotes, no escapes).

Checks on files (each one check; the values are shell words, so quote paths
with blanks and use $T, $SRC, $MINI freely):
    file: PATH           PATH exists and is not empty
    no-file: PATH        PATH does not exist
    same: A B            the files A and B are byte-identical
    differ: A B          they are not
    no-temp: DIR         no temporary .tco-*.tmp file is left in DIR

Scripted checks, for what a fragment cannot say (each one check):
    check: SHELL         passes when the shell text exits 0
    py: ARGS             the indented block below is a python3 program run as
                         python3 - ARGS; passes when it exits 0
Setup (not a check, but the file fails when it exits non-zero):
    do: SHELL            shell text, e.g. mkdir "$T/x", printf ... >"$T/f.csv"
A scripted case with its own loop or function may count its own checks:
    script: SHELL        shell text that calls `ok` for each check that
                         passes and `bad MESSAGE` for each that fails

JSON against the schema: the standard output of every tco: step that asks for
--format json (tco diff's bridge too: $defs/bridge) is kept
and, after the file has run, validated against docs/tco.schema.json, each
document one check ("FILE:LINE: JSON does not conform ..." when it fails).
An empty output (a usage error prints nothing) is skipped.  Needs
python3-jsonschema (the runner re-runs itself under /usr/bin/python3 for it,
as tests/formats_test.py does); without it the check is skipped, saying so.

All shell text of one file runs in one sh process, so a variable set by do:
is seen by later steps.  TCO, SRC, MINI and T are in the environment, $rc
holds the last command's exit status, and `member BOOK PART` prints one part
of a workbook (e.g. member "$T/c.xlsx" xl/workbook.xml | grep -q ...).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

PRELUDE = r'''
set -u
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); printf 'FAIL %s: %s\n' "$where" "$*"; }
show() { printf '  --- stdout:\n'; head -c 800 "$T/out"; printf '\n  --- stderr:\n'; head -c 800 "$T/err"; printf '\n'; }
chk() { if [ "$1" = 0 ]; then ok; else bad "$2"; show; fi; }
# member BOOK PART: print one part of a workbook (an .xlsx is a zip; the tests need no unzip).
member() { python3 -c 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())' "$1" "$2"; }
rc=0
: >"$T/out"; : >"$T/err"
'''

FRAGMENT_KEYS = {
    "stdout": ('grep -qF -- {f} "$T/out"', "stdout lacks {t}"),
    "stderr": ('grep -qF -- {f} "$T/err"', "stderr lacks {t}"),
    "stdout-lacks": ('! grep -qF -- {f} "$T/out"', "stdout holds {t}"),
    "stderr-lacks": ('! grep -qF -- {f} "$T/err"', "stderr holds {t}"),
}


def sq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def parse(path):
    steps = []
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("  ") and steps and steps[-1][1] in ("py", "script", "check", "do"):
                steps[-1][3].append(line[2:])
                continue
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"([a-z-]+):(?: (.*))?$", line)
            if not m:
                sys.exit(f"{path}:{no}: expected KEY: VALUE, found {line!r}")
            steps.append((no, m.group(1), m.group(2) or "", []))
    return steps


def wants_json(args):
    """True when tco ARGS prints a document docs/tco.schema.json describes: --format json (every command,
    tco diff's bridge included)."""
    try:
        words = shlex.split(args)
    except ValueError:
        return False
    return "--format=json" in words or any(a == "--format" and b == "json" for a, b in zip(words, words[1:]))


def compile_file(path, env, json_dir=None, json_docs=None):
    """The shell script of one .cases file, and its number of checks.  With @p json_dir, each tco: step that
    prints JSON copies its stdout there, and (label, file) is appended to @p json_docs."""
    name = os.path.basename(path)
    out = [PRELUDE]
    checks = 0

    def subst(text):
        return re.sub(r"\$(TCO|SRC|MINI|T)\b|\$\{(TCO|SRC|MINI|T)\}",
                      lambda m: env[m.group(1) or m.group(2)], text)

    for no, key, val, body in parse(path):
        out.append(f"where={sq(f'{name}:{no}')}")
        text = "\n".join([val] + body) if body else val
        if key in ("tco", "run"):
            cmd = f'"$TCO" {val}' if key == "tco" else val
            out.append(f'{{ {cmd}\n}} >"$T/out" 2>"$T/err"; rc=$?')
            if key == "tco" and json_dir is not None and wants_json(val):
                doc = os.path.join(json_dir, "%d.json" % no)
                json_docs.append((f"{name}:{no}", doc))
                out.append(f'cp "$T/out" {sq(doc)}')
            continue
        if key == "do":
            out.append(f'{{ {text}\n}} || bad "setup failed"')
            continue
        if key == "script":
            out.append(text)
            continue
        checks += 1
        if key == "exit":
            if not re.fullmatch(r"\d+", val):
                sys.exit(f"{path}:{no}: exit: expected a number, found {val!r}")
            out.append(f'[ "$rc" -eq {val} ]; chk $? "exit $rc, expected {val}"')
        elif key in FRAGMENT_KEYS:
            test, msg = FRAGMENT_KEYS[key]
            f = sq(subst(val))
            out.append(test.format(f=f) + f"; chk $? {sq(msg.format(t=repr(subst(val))))}")
        elif key in ("stdout-empty", "stderr-empty"):
            stream = key.split("-")[0][3:]
            out.append(f'[ ! -s "$T/{stream}" ]; chk $? "{key.split("-")[0]} is not empty"')
        elif key == "stderr-lines":
            out.append(f'[ "$(wc -l <"$T/err")" -eq {int(val)} ]; chk $? "stderr has not {int(val)} lines"')
        elif key == "file":
            out.append(f'[ -s {val} ]; chk $? {sq("no file (or empty): " + val)}')
        elif key == "no-file":
            out.append(f'[ ! -e {val} ]; chk $? {sq("a file exists: " + val)}')
        elif key == "same":
            out.append(f'cmp -s {val}; chk $? {sq("files differ: " + val)}')
        elif key == "differ":
            out.append(f'! cmp -s {val}; chk $? {sq("files are identical: " + val)}')
        elif key == "no-temp":
            out.append(f"! ls -a {val} | grep -q '^\\.tco-.*\\.tmp$'; chk $? {sq('temporary file left in ' + val)}")
        elif key == "check":
            out.append(f'( {text}\n); chk $? {sq("check failed: " + text.splitlines()[0])}')
        elif key == "py":
            out.append(f"python3 - {val} <<'__PY__'\n{chr(10).join(body)}\n__PY__\n"
                       f'chk $? {sq("python check failed")}')
        else:
            sys.exit(f"{path}:{no}: unknown key '{key}'")
    out.append(f'echo "{name}: $pass passed, $fail failed"\n[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]')
    return "\n".join(out) + "\n", checks


def need_jsonschema():
    """The jsonschema module, or None; re-runs this script under /usr/bin/python3 (Debian's, which has
    python3-jsonschema) when the python3 running it lacks it."""
    try:
        import jsonschema
        return jsonschema
    except ImportError:
        alt = "/usr/bin/python3"
        if os.path.exists(alt) and os.path.realpath(sys.executable) != os.path.realpath(alt) and \
                not os.environ.get("TCO_CASES_REEXEC"):
            os.environ["TCO_CASES_REEXEC"] = "1"
            os.execv(alt, [alt] + sys.argv)
        return None


def check_json(src, name, docs):
    """Validate each kept JSON output against docs/tco.schema.json; True when all conform."""
    docs = [(label, f) for label, f in docs if os.path.exists(f) and os.path.getsize(f) > 0]
    if not docs:
        return True
    jsonschema = need_jsonschema()
    if jsonschema is None:
        print(f"{name}: {len(docs)} JSON outputs not checked against docs/tco.schema.json: python3-jsonschema missing")
        return True
    import json
    with open(os.path.join(src, "docs", "tco.schema.json"), encoding="utf-8") as fh:
        validator = jsonschema.Draft202012Validator(json.load(fh))
    bad = 0
    for label, f in docs:
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        try:
            errors = list(validator.iter_errors(json.loads(text)))
            why = None
            if errors:  # the deepest error of the shape it came closest to (oneOf names them all)
                e = jsonschema.exceptions.best_match(errors)
                why = "/".join(map(str, e.absolute_path)) + ": " + e.message[:300]
        except ValueError as e:
            why = "not JSON: %s" % e
        if why:
            bad += 1
            print(f"FAIL {label}: JSON does not conform to docs/tco.schema.json: {why}")
    print(f"{name}: {len(docs) - bad} JSON outputs conform to docs/tco.schema.json, {bad} do not")
    return bad == 0


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: run_cases.py TCO SOURCE_DIR FILE.cases...")
    tco = os.path.abspath(sys.argv[1])
    src = os.path.abspath(sys.argv[2])
    failed = False
    need_jsonschema()  # before any work: the re-run under /usr/bin/python3 starts from the beginning
    for path in sys.argv[3:]:
        t = tempfile.mkdtemp(prefix="tco-cli-")
        json_dir = tempfile.mkdtemp(prefix="tco-cli-json-")
        env = {"TCO": tco, "SRC": src, "MINI": src + "/tests/fixtures/roots/mini", "T": t}
        json_docs = []
        try:
            script, _ = compile_file(path, env, json_dir, json_docs)
            with tempfile.NamedTemporaryFile("w", suffix=".sh", encoding="utf-8", delete=False) as f:
                f.write(script)
            try:
                r = subprocess.run(["sh", f.name], env={**os.environ, **env}, cwd=t)
            finally:
                os.unlink(f.name)
            failed |= r.returncode != 0
            failed |= not check_json(src, os.path.basename(path), json_docs)
        finally:
            shutil.rmtree(t, ignore_errors=True)
            shutil.rmtree(json_dir, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
