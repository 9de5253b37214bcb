#!/usr/bin/env python3
"""number_formats_test.py - one number format per line (issue 11 §9), and a Summary's unit and value agree.

Every shipped scenario and comparison is written, and on each calculation sheet every line has one
number format over all its cells: a per-year or per-month line across its period columns and Total
(a row), a per-tier line down its tier rows (a column of the per-tier sheet).  Before this held, a
money row could show 950.50 in one year and 1,200 in the next, and a tier column mix 937.50 with 1,234.

The sheets are told apart by the template: [model] sheets, and for each line its `sheet` and `per`.

On each Summary (an option's too), a figure whose format shows the currency code ("80,463 CNY") has a unit
that is the currency, or the currency a year or a month ("CNY/yr", as the period columns): issue 23 §2's
fresh user read "80,463 CNY" beside the unit "CNY/card-yr" (TCO per card-year now shows "80,463"; with
the template before that, every scenario's Summary failed here).
Usage: number_formats_test.py TCO_BINARY SOURCE_DIR
"""
import configparser
import os
import re
import subprocess
import sys
import tempfile
import zipfile

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def template_sheets(src):
    """{sheet: 'tier' | 'rows'} for the calculation sheets of templates/tco.ini."""
    ini = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=(";", "#"), strict=False)
    ini.read(os.path.join(src, "templates", "tco.ini"), encoding="utf-8")
    kinds = {s.strip(): "rows" for s in ini["model"]["sheets"].split(",")}
    for sec in ini.sections():
        if sec.startswith("line.") and ini[sec].get("per", "").strip() == "tier":
            kinds[ini[sec]["sheet"].strip()] = "tier"
    return kinds


def cell_formats(book):
    """{sheet name: {(row, col): numFmtId}} for every number or formula cell of each sheet."""
    import xml.etree.ElementTree as ET
    z = zipfile.ZipFile(book)
    styles = ET.fromstring(z.read("xl/styles.xml"))
    xfs = [int(x.get("numFmtId", "0")) for x in styles.find(NS + "cellXfs")]
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = {r.get("Id"): r.get("Target") for r in rels}
    out = {}
    for sh in wb.find(NS + "sheets"):
        rid = sh.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
        xml = ET.fromstring(z.read("xl/" + target[rid].lstrip("/").removeprefix("xl/")))
        cells = {}
        for c in xml.iter(NS + "c"):
            if c.get("t") in ("s", "inlineStr", "str", "b", "e"):
                continue  # text, or a formula caching text ("n.a."): no number format shown
            if c.find(NS + "v") is None and c.find(NS + "f") is None:
                continue  # a blank cell (of a note merged across the table): no number shown
            m = re.match(r"([A-Z]+)(\d+)$", c.get("r"))
            col = 0
            for ch in m.group(1):
                col = col * 26 + ord(ch) - 64
            cells[(int(m.group(2)), col)] = xfs[int(c.get("s", "0"))]
        out[sh.get("name")] = cells
    return out


def check(book, kinds):
    bad = []
    for sheet, cells in cell_formats(book).items():
        base = re.sub(r"^[A-Z] ", "", sheet)  # "A Opex" in a comparison
        if base not in kinds:
            continue
        groups = {}
        for (row, col), fmt in cells.items():
            if row < 5 or col < 3:  # header rows, label and unit columns
                continue
            key = col if kinds[base] == "tier" else row
            groups.setdefault(key, set()).add(fmt)
        for key, fmts in sorted(groups.items()):
            if len(fmts) > 1:
                bad.append(f"{os.path.basename(book)} {sheet} {'column' if kinds[base] == 'tier' else 'row'} "
                           f"{key}: number formats {sorted(fmts)}")
    return bad


def summary_units(book):
    """The Summaries' rows whose value's number format shows a currency code its unit does not read alone."""
    import xml.etree.ElementTree as ET
    z = zipfile.ZipFile(book)
    styles = ET.fromstring(z.read("xl/styles.xml"))
    codes = {int(f.get("numFmtId")): f.get("formatCode") for f in styles.iter(NS + "numFmt")}
    xfs = [int(x.get("numFmtId", "0")) for x in styles.find(NS + "cellXfs")]
    strings = ["".join(t.text or "" for t in si.iter(NS + "t")) for si in ET.fromstring(z.read("xl/sharedStrings.xml"))]
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    rels = {r.get("Id"): r.get("Target") for r in ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))}
    bad, seen = [], 0
    for sh in wb.find(NS + "sheets"):
        if not re.fullmatch(r"([A-Z] )?Summary", sh.get("name")):
            continue
        rid = sh.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
        xml = ET.fromstring(z.read("xl/" + rels[rid].lstrip("/").removeprefix("xl/")))
        for row in xml.iter(NS + "row"):
            cells = {re.match(r"[A-Z]+", c.get("r")).group(0): c for c in row.iter(NS + "c")}
            unit, value = cells.get("B"), cells.get("C")
            if unit is None or value is None or unit.get("t") != "s" or value.get("t") in ("s", "str", "inlineStr"):
                continue
            text = strings[int(unit.find(NS + "v").text)]
            code = codes.get(xfs[int(value.get("s", "0"))], "")
            currency = re.search(r'"([A-Z]{3})"', code)
            if currency is None:
                continue
            seen += 1
            if text not in (currency.group(1), currency.group(1) + "/yr", currency.group(1) + "/month"):
                bad.append(f"{os.path.basename(book)} {sh.get('name')} row {row.get('r')}: the value shows "
                           f"{currency.group(1)} ({code}) beside the unit {text!r}")
    if seen == 0:
        bad.append(f"{os.path.basename(book)}: no Summary figure shows a currency code: the check proves nothing")
    return bad


def main():
    tco, src = sys.argv[1], sys.argv[2]
    kinds = template_sheets(src)
    names = sorted(f[:-4] for f in os.listdir(os.path.join(src, "scenarios")) if f.endswith(".ini")
                   and "[advise]" not in open(os.path.join(src, "scenarios", f)).read().splitlines())  # tco advise's
    failures, books = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            book = os.path.join(tmp, name + ".xlsx")
            compare = name.startswith("compare-")
            r = subprocess.run([tco, "--root", src, "--compare" if compare else "--scenario", name, "--out", book],
                               capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"{name}: tco exited {r.returncode}: {r.stderr.strip()}")
                continue
            books += 1
            failures += check(book, kinds)
            failures += summary_units(book)
    for f in failures:
        print("FAIL:", f)
    print(f"{books} workbooks, {len(failures)} problems (lines with more than one number format, Summary units)")
    # Every scenario must have been checked: a run that wrote nothing proves nothing.
    return 1 if failures or books < len(names) or books == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
