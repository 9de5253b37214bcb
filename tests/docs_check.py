#!/usr/bin/env python3
"""docs_check.py - docs/model.md documents every input and line of templates/tco.ini.

For each [input.X] and [line.X] section of the template, docs/model.md must
name X in a code span (`X`); for each line, its formula must appear verbatim
in a code span too.  Prints what is missing; the last line is "N passed, N failed".
Usage: docs_check.py TEMPLATE.ini MODEL.md
"""
import configparser, sys


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
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
