#!/usr/bin/env python3
"""docs_check.py - docs/model.md documents every input and line of templates/tco.ini.

For each [input.X] and [line.X] section of the template, docs/model.md must
name X in a code span (`X`); for each line, its formula must appear verbatim
in a code span too.  With TCO and SOURCE_DIR, the table of "Names tco adds
itself" is checked against `tco --scenario cluster32 --format json`: one row
per NAME_total of a per-year line (JSON source "total of per-year line ..."),
in the JSON's order, with its label, unit and value (to 1e-9 relative), and
the count in the sentence before it ("The template produces N of them").
Prints what is missing; the last line is "N passed, N failed".
Usage: docs_check.py TEMPLATE.ini MODEL.md [TCO SOURCE_DIR]
"""
import configparser, json, re, subprocess, sys


def check_totals(tco, src, text):
    """Problems of model.md's table of automatic NAME_total names, against a fresh cluster32 run."""
    out = subprocess.run([tco, "--root", src, "--scenario", "cluster32", "--format", "json", "--no-workbook"],
                         capture_output=True, text=True, check=True).stdout
    outputs = json.loads(out)["outputs"]
    problems_early = []
    items = outputs.items() if isinstance(outputs, dict) else [(o["name"], o) for o in outputs]
    want = [(k, v) for k, v in items if str(v.get("source", "")).startswith("total of per-year line ")]
    monthly = [k for k, v in items if str(v.get("source", "")).startswith("total of per-month line ")]
    for k in monthly:  # documented in the per-month lines' table, each with its total
        if "`%s`" % k[:-len("_total")] not in text:
            problems_early.append("docs/model.md does not name the per-month line of `%s`" % k)
    problems = problems_early
    sec = text.split("### Names tco adds itself", 1)
    if len(sec) < 2:
        return ["docs/model.md has no section 'Names tco adds itself'"]
    body = sec[1].split("\n### ", 1)[0]
    rows = re.findall(r"(?m)^\| `(\w+_total)` \| (.*?) \| (.*?) \| (.*?) \|$", body)
    m = re.search(r"The template produces (\d+) of them", body)
    if not m or int(m.group(1)) != len(want):
        problems.append("'Names tco adds itself': the sentence should say 'The template produces %d of them'"
                        % len(want))
    for i, (name, v) in enumerate(want):
        row = rows[i] if i < len(rows) else None
        if row is None or row[0] != name:
            problems.append("'Names tco adds itself': row %d should be `%s` | %s | %s | %r (found %s)" % (
                i + 1, name, v["label"], v["unit"], v["value"], row[0] if row else "no row"))
            continue
        if row[1] != v["label"] or row[2] != v["unit"]:
            problems.append("'Names tco adds itself': `%s` has label/unit '%s' / '%s'; the run says '%s' / '%s'" % (
                name, row[1], row[2], v["label"], v["unit"]))
        elif abs(float(row[3]) - v["value"]) > 1e-9 * max(1.0, abs(v["value"])):
            problems.append("'Names tco adds itself': `%s` is %s in cluster32; the table says %s" % (
                name, v["value"], row[3]))
    if len(rows) > len(want):
        problems.append("'Names tco adds itself': %d rows, the run has %d totals: %s" % (
            len(rows), len(want), ", ".join(r[0] for r in rows[len(want):])))
    return problems


def main():
    template, doc = sys.argv[1], sys.argv[2]
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=(";", "#"), inline_comment_prefixes=None,
                                   strict=True)
    cp.optionxform = str
    with open(template, encoding="utf-8") as fh:
        cp.read_file(fh)
    text = open(doc, encoding="utf-8").read()
    passed = failed = 0
    for section in cp.sections():
        kind, _, name = section.partition(".")
        if kind not in ("input", "line"):
            continue
        if f"`{name}`" not in text:
            print(f"docs/model.md does not name `{name}` ([{section}])")
            failed += 1
            continue
        if kind == "line":
            formula = cp[section]["formula"].strip()
            if f"`{formula}`" not in text:
                print(f"docs/model.md lacks the formula of {name} verbatim: `{formula}`")
                failed += 1
                continue
        passed += 1
    if len(sys.argv) > 4:
        problems = check_totals(sys.argv[3], sys.argv[4], text)
        for p in problems:
            print(p)
        failed += len(problems)
        passed += not problems
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
