#!/usr/bin/env python3
"""docs_cells.py - the cell addresses, defined names and figures the docs quote hold in a fresh run.

  docs_cells.py TCO SOURCE_DIR [DOC.md ...]

Writes the workbooks the docs are about (RUNS below: cluster32; cluster32
priced from pricing/example-quotes.csv as of 2026-11-30, in CNY and in EUR;
the comparison compare-team70b), then reads docs/*.md,
README.md and tests/README.md (or the DOC.md files given) paragraph by paragraph (a paragraph is
the text between blank lines; a table is one paragraph; fenced code blocks are
skipped) and checks:

1. Every code span that holds a cell reference (`'Opex'!D10`, `$J$5:$J$14`,
   `=INDEX('Inputs'!$W$5:$W$14,card_row)`) has each reference in it covered by
   a cell marker of its paragraph (below); in a paragraph without cell markers
   it may instead be, without its leading "=", part of a formula of one of
   those workbooks (a weaker check: it says the formula is printed that way,
   not that the cell means what the sentence says).
2. Every reference in prose written with its sheet (Inputs C20, Inputs, C20,
   Inputs!C20, Sizing cell C6) and every bare range (J5:W14) is covered by a
   cell marker of its paragraph.
3. Each marker holds in the run it names:

     <!-- cell: Inputs!C20 = electricity_price -->   the defined name points at the cell
     <!-- cell: Inputs!J4 = "Tier" -->               the cell holds that text
     <!-- cell: Sizing!C5 = 9 -->                    the cell's value is that number
     <!-- cell: Sizing!C6 = =INDEX(...) -->          the cell's formula is that one
     <!-- cell: Opex!C10:F10 = row "Opex" -->        column A of its row holds that label
     <!-- cell: Inputs!J5:J14 = column "Tier" -->    row 4 (the headers) of its column, or the row above the
                                                     range (a table below another), holds that header
     <!-- cell: Inputs!J5:W14 = table "Tier" to "Price (CNY/card)" -->
                                                     the headers of its first and last columns; its
                                                     rows are those of the table (first column filled,
                                                     the cell below empty)
     <!-- cell[quotes]: Inputs!W13 = =... -->        in the run "quotes" (default: cluster32)
     <!-- cell: illustration A1:B2 -->               this span only shows reference syntax

   A marker's reference covers a reference in its paragraph to a cell or range
   inside it ($ and quotes aside); a reference without a sheet takes the
   marker's.
4. Each figure marker holds, and its number (with or without thousands
   separators) is written in its paragraph:

     <!-- figure: formula_cells = 921 -->

   The measures are listed in MEASURES below (counted in a fresh run).

Prints each problem; the last line is "N passed, N failed".  Exit 0 when all pass.
"""
import csv, io, os, re, subprocess, sys, tempfile, zipfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recalc  # noqa: E402  (read_cells, q: the workbook reader of the recalculation tests)

RUNS = {
    "cluster32": ["--scenario", "cluster32"],
    "quotes": ["--scenario", "cluster32", "--quotes", "pricing/example-quotes.csv", "--as-of", "2026-11-30"],
    "quotes-eur": ["--scenario", "cluster32", "--quotes", "pricing/example-quotes.csv", "--as-of", "2026-11-30",
                   "--currency", "EUR"],
    "compare": ["--compare", "compare-team70b"],
}

COL = r"\$?[A-Z]{1,3}\$?\d+"
SHEETREF = r"(?:'(?:[^']|'')+'|[A-Za-z][A-Za-z0-9_]*)!"
# a reference in a code span: Sheet!A1, 'Sheet'!$A$1, A1:B2, $A$1, A$1, $A1; a bare A1 only in a formula
# (a span starting with "=", or A1 next to an operator): alone it is too often a word (C30, the tier)
SPAN_REF = re.compile(r"(%s)?(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)(?![\w$]|[,.]\d\d)" % SHEETREF)
MARK = re.compile(r"<!--\s*cell(?:\[([a-z0-9-]+)\])?:\s*(.*?)\s*-->", re.S)
FIGURE = re.compile(r"<!--\s*figure:\s*([a-z_]+)\s*=\s*([0-9.]+)\s*-->")


class Book:
    def __init__(self, path):
        self.cells, _ = recalc.read_cells(path)
        with zipfile.ZipFile(path) as z:
            wb = ET.fromstring(z.read("xl/workbook.xml"))
        self.names = {}
        for d in wb.iter(recalc.q("definedName")):
            if not d.get("name").startswith("_xlnm."):
                self.names[d.get("name").lower()] = norm_ref(d.text or "")
        self.formulas = [f for sheet in self.cells.values() for (f, _, _) in sheet.values() if f]


def norm_ref(text):
    """'Inputs'!$C$20 -> Inputs!C20; $J$5:$J$14 -> J5:J14."""
    text = text.replace("$", "").strip()
    m = re.fullmatch(r"(?:'((?:[^']|'')+)'|([A-Za-z][A-Za-z0-9_ ]*))!(.+)", text)
    if m:
        return "%s!%s" % ((m.group(1) or m.group(2)).replace("''", "'"), m.group(3))
    return text


def is_ref(s):
    """The cell references of a code span (sheet-qualified, with a $, a range, or in a formula)."""
    formula = s.startswith("=") or re.search(r"[A-Z]{1,3}\d+\s*[-+*/]\s*[A-Z]{1,3}\d+", s)
    for m in SPAN_REF.finditer(s):
        whole = m.group(0)
        start = m.start()
        if start > 0 and (s[start - 1].isalnum() or s[start - 1] in "_."):
            continue  # part of a word (US$1,200, x86)
        if m.group(1) or "$" in whole or ":" in whole or formula:
            yield norm_ref(whole)


def col_number(letters):
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def corners(cells):
    """A1:B2 -> ((col, row), (col, row))."""
    first, _, last = cells.partition(":")
    out = []
    for c in (first, last or first):
        m = re.fullmatch(r"([A-Z]+)(\d+)", c)
        if not m:
            return None
        out.append((col_number(m.group(1)), int(m.group(2))))
    return out


def inside(ref, marker):
    """Reference ref (a cell or range, maybe without its sheet) lies in the marker's cell or range."""
    msheet, _, mcells = marker.partition("!")
    if "!" in ref:
        sheet, _, cells = ref.partition("!")
        if sheet != msheet:
            return False
    else:
        cells = ref
    a, b = corners(cells), corners(mcells)
    if not a or not b:
        return False
    return all(b[0][i] <= a[0][i] and a[1][i] <= b[1][i] for i in (0, 1))


def paragraphs(text):
    """[(first line number, paragraph text)], fenced code blocks left out."""
    out, cur, start, fence = [], [], 1, False
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            if cur:
                out.append((start, "\n".join(cur)))
                cur = []
            continue
        if fence:
            continue
        if not line.strip():
            if cur:
                out.append((start, "\n".join(cur)))
            cur = []
            continue
        if not cur:
            start = n
        cur.append(line)
    if cur:
        out.append((start, "\n".join(cur)))
    return out


def measures(tco, src, tmp, books):
    """The figures the docs may quote, each counted in a fresh run."""
    c32 = books["cluster32"]
    per_period = {"Opex", "Cash flow", "Depreciation", "Budget"}
    r = subprocess.run([tco, "--root", src, "--scenario", "cluster32", "--format", "csv", "--no-workbook"],
                       capture_output=True, text=True, cwd=tmp, check=True)
    rows = list(csv.reader(io.StringIO(r.stdout)))[1:]
    with open(os.path.join(src, "tests", "suites.h"), encoding="utf-8") as fh:
        suites = len(re.findall(r"^\s*X\(\w+\)", fh.read(), re.M))
    return {
        # formula cells of cluster32's workbook (recalc.py check counts them as formulas=N)
        "formula_cells": len(c32.formulas),
        # recalc.py check --app both: each formula cell once per application
        "formula_checks_both": 2 * len(c32.formulas),
        # defined names of cluster32's workbook, the _xlnm.Print_Titles entries aside
        "defined_names": len(c32.names),
        # of them, the Total cells of per-year and per-month lines
        "total_names": sum(1 for ref in c32.names.values() if ref.split("!")[0] in per_period),
        # tco --scenario cluster32 --format csv: rows after the header, input rows, output rows
        "csv_rows": len(rows),
        "csv_input_rows": sum(1 for row in rows if len(row) > 1 and row[1] == "input"),
        "csv_output_rows": sum(1 for row in rows if len(row) > 1 and row[1] == "output"),
        # the CUnit suites (tests/suites.h)
        "unit_suites": suites,
    }


def recalc_col(n):
    letters = ""
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return letters



def head_rows(first):
    """The rows a header of a range starting at row @first may be in: row 4 (a sheet's header row), or the row
    just above the range (the Inputs' tier table, below the inputs list)."""
    return [4] if first - 1 == 4 else [4, first - 1]

def check_marker(book, ref, want):
    """None when the marker holds, else what is wrong."""
    sheet, _, cells = ref.partition("!")
    if not sheet or sheet not in book.cells:
        return "no sheet %r (sheets: %s)" % (sheet, ", ".join(book.cells))
    first, _, last = cells.partition(":")
    if want.startswith("="):
        f = book.cells[sheet].get(first, (None, None, None))[0]
        return None if f is not None and "=" + f == want else "%s holds %s" % (ref, "=" + f if f else "no formula")
    table = re.fullmatch(r'table "(.*)" to "(.*)"', want)
    if table:
        box = corners(cells)
        if not box:
            return "cannot read the reference %s" % ref
        (c0, r0), (c1, r1) = box
        got = [(book.cells[sheet].get(recalc_col(c0) + str(h), (0, 0, None))[2],
                book.cells[sheet].get(recalc_col(c1) + str(h), (0, 0, None))[2]) for h in head_rows(r0)]
        got = tuple(table.groups()) if tuple(table.groups()) in got else got[-1]
        if got != table.groups():
            return "the headers of its first and last columns are %r and %r" % got
        keys = [book.cells[sheet].get(recalc_col(c0) + str(r), (0, 0, None))[2] for r in range(r0, r1 + 2)]
        if not all(keys[:-1]) or keys[-1]:
            return "the table's first column, rows %d on, holds %r" % (r0, keys)
        return None
    label = re.fullmatch(r'(row|column) "(.*)"', want)
    if label:
        box = corners(cells)
        if not box:
            return "cannot read the reference %s" % ref
        if label.group(1) == "row":
            where = ["A%d" % r for r in range(box[0][1], box[1][1] + 1)]
        else:
            heads = head_rows(box[0][1])  # row 4, or the row above the range (the Inputs' tier table)
            col_head = [[book.cells[sheet].get(recalc_col(c) + str(h), (0, 0, None))[2] for h in heads]
                        for c in range(box[0][0], box[1][0] + 1)]
            where = [recalc_col(c) + str(heads[-1] if label.group(2) not in col_head[k] else
                                         heads[col_head[k].index(label.group(2))])
                     for k, c in enumerate(range(box[0][0], box[1][0] + 1))]
        got = [book.cells[sheet].get(w, (0, 0, None))[2] for w in where]
        bad = [(w, g) for w, g in zip(where, got) if g != label.group(2)]
        return None if not bad else "%s holds %r" % bad[0]
    if want.startswith('"') and want.endswith('"'):
        got = book.cells[sheet].get(first, (0, 0, None))[2]
        return None if got == want[1:-1] else "%s holds %r" % (ref, got)
    if re.fullmatch(r"-?[0-9.]+", want):
        got = book.cells[sheet].get(first, (0, 0, None))[2]
        try:
            ok = got is not None and abs(float(got) - float(want)) <= 1e-9 * max(1, abs(float(want)))
        except ValueError:
            ok = False
        return None if ok else "%s holds %r" % (ref, got)
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", want):
        target = book.names.get(want.lower())
        if target is None:
            return "the workbook has no defined name %s" % want
        return None if target == ref else "%s is %s" % (want, target)
    return "cannot read what is said to be there: %r" % want


def main():
    tco, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    docs = sys.argv[3:] or sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(src, "docs"))
                                  if f.endswith(".md")) + ["README.md", "tests/README.md"]
    failed = passed = 0

    def fail(msg):
        nonlocal failed
        failed += 1
        print(msg)

    with tempfile.TemporaryDirectory() as tmp:
        books = {}
        for run, args in RUNS.items():
            out = os.path.join(tmp, run + ".xlsx")
            subprocess.run([tco, "--root", src] + args + ["--out", out], capture_output=True, text=True,
                           cwd=src, check=True)
            books[run] = Book(out)
        figures = measures(tco, src, tmp, books)
    sheets = sorted({s for b in books.values() for s in b.cells}, key=len, reverse=True)
    prose_ref = re.compile(r"\b(%s)(?:!|, | )(?:cell )?(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)\b"
                           % "|".join(re.escape(s) for s in sheets))
    bare_range = re.compile(r"(?<![\w$!:'])([A-Z]{1,3}\d+:[A-Z]{1,3}\d+)\b")
    all_formulas = [f for b in books.values() for f in b.formulas]

    for doc in docs:
        with open(os.path.join(src, doc), encoding="utf-8") as fh:
            text = fh.read()
        for line, para in paragraphs(text):
            where = "%s:%d" % (doc, line)
            covered, illustrations = [], set()
            for m in MARK.finditer(para):
                run, body = m.group(1) or "cluster32", m.group(2)
                if body.startswith("illustration "):
                    illustrations.add(body[len("illustration "):].strip())
                    continue
                ref, eq, want = body.partition(" = ")
                if not eq or run not in books:
                    fail("%s: cannot read the marker <!-- cell: %s -->" % (where, body))
                    continue
                ref = norm_ref(ref)
                problem = check_marker(books[run], ref, want.strip())
                if problem:
                    fail("%s: the doc says %s (%s) is %s, but %s" % (where, ref, run, want.strip(), problem))
                else:
                    passed += 1
                covered.append(ref)

            def is_covered(ref):
                return any(inside(ref, c) for c in covered)

            for m in FIGURE.finditer(para):
                name, value = m.group(1), m.group(2)
                if name not in figures:
                    fail("%s: no measure %s (measures: %s)" % (where, name, ", ".join(sorted(figures))))
                    continue
                got = figures[name]
                prose = MARK.sub("", FIGURE.sub("", para))
                if float(value) != got:
                    fail("%s: the doc says %s = %s, a fresh run measures %s" % (where, name, value, got))
                elif value not in prose and "{:,}".format(int(got)) not in prose:
                    fail("%s: figure %s = %s is not written in its paragraph" % (where, name, value))
                else:
                    passed += 1

            prose = MARK.sub("", FIGURE.sub("", para))
            spans = re.findall(r"`([^`\n]+)`", prose)
            for span in spans:
                refs = list(is_ref(span))
                if not refs:
                    continue
                if span in illustrations:
                    passed += 1
                    continue
                body = span[1:] if span.startswith("=") else span
                if not covered and any(body in f for f in all_formulas):
                    passed += 1
                    continue
                missing = [r for r in refs if not is_covered(r)]
                if missing:
                    fail("%s: `%s` is in no formula of the workbooks (%s) and no <!-- cell: --> marker says what %s holds"
                         % (where, span, ", ".join(books), ", ".join(missing)))
                else:
                    passed += 1
            plain = re.sub(r"`[^`\n]+`", "", prose)
            for m in list(prose_ref.finditer(plain)) + list(bare_range.finditer(plain)):
                ref = norm_ref(m.group(1) + "!" + m.group(2)) if m.re is prose_ref else norm_ref(m.group(1))
                if is_covered(ref):
                    passed += 1
                else:
                    fail("%s: %r names a cell, and no <!-- cell: %s = ... --> marker in its paragraph says what is there"
                         % (where, m.group(0), ref))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
