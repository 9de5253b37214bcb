#!/usr/bin/python3
"""row_heights_test.py - every row of a tco workbook is as tall as its tallest wrapped cell, as LibreOffice
lays it out (issue 23 §2: Cash flow's row 25 held a 3-line source in 2 lines, its first line printed over
the row above).

Opens each BOOK.xlsx in LibreOffice (headless, through the UNO bridge, a private profile), and on every
sheet reads each row's height as tco wrote it, then asks LibreOffice for the row's optimal height (the
height that shows every wrapped cell of it whole, OptimalHeight) and fails for a row whose optimal height
is more than TOLERANCE above the written one: a line of its text would fall outside the row.  Merged cells
do not count towards an optimal height in LibreOffice, so a row whose only tall text is merged is not
checked by this (the Summary's capex lines, the Inputs notes).  Rows taller than their text are fine.
Before text_fit.c counted a line full at WRAP_FILL (95%) of its room, cluster32 had 26 such rows.
Usage: row_heights_test.py BOOK.xlsx...
       row_heights_test.py --tco TCO_BINARY SOURCE_DIR RUN [RUN...]
         each RUN the arguments of one tco run, as one word ("--scenario cluster32 --monte-carlo 200"), run
         from SOURCE_DIR as a user runs from a clone, its workbook written to a temporary folder
(needs /usr/bin/python3 with the uno module, python3-uno, and soffice)
Exit 0 when every row holds its text; the last line is a summary.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

TOLERANCE = 20  # 0.2 mm in 1/100 mm (0.6 pt): rounding, well under the 11 pt of a line of text


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def connect(tmp):
    """Start soffice listening on a private pipe; (process, desktop)."""
    pipe = "tco_rows_%d" % os.getpid()
    proc = subprocess.Popen(["soffice", "-env:UserInstallation=file://" + os.path.join(tmp, "profile"),
                             "--headless", "--norestore", "--invisible",
                             "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % pipe],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(120):
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return proc, ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except NoConnectException:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit("row_heights_test.py: soffice did not start")


def check_book(desktop, path):
    """Rows of @path shorter than their text: [(sheet, row number, written, optimal)] (1/100 mm)."""
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(path)), "_blank", 0,
                                       (prop("Hidden", True),))
    short, rows_seen = [], 0
    try:
        sheets = doc.Sheets
        for s in range(sheets.Count):
            sheet = sheets.getByIndex(s)
            cursor = sheet.createCursor()
            cursor.gotoEndOfUsedArea(False)
            last = cursor.RangeAddress.EndRow
            rows = sheet.Rows
            written = [rows.getByIndex(r).Height for r in range(last + 1)]
            for r in range(last + 1):
                row = rows.getByIndex(r)
                row.OptimalHeight = True
                rows_seen += 1
                if row.Height > written[r] + TOLERANCE:
                    short.append((sheet.Name, r + 1, written[r], row.Height))
    finally:
        doc.close(True)
    return short, rows_seen


def make_books(tmp, tco, src, runs):
    """The workbooks of @runs (each a string of tco arguments), written by @tco from @src into @tmp."""
    books = []
    for k, run in enumerate(runs):
        book = os.path.join(tmp, "book%d.xlsx" % k)
        r = subprocess.run([os.path.abspath(tco)] + run.split() + ["--out", book], cwd=src,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 or not os.path.exists(book):
            raise SystemExit("FAIL: tco %s exited %d: %s" % (run, r.returncode, r.stderr.strip()))
        books.append((run, book))
    return books


def main():
    args = sys.argv[1:]
    if not args or (args[0] == "--tco" and len(args) < 4):
        raise SystemExit(__doc__)
    bad = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        books = make_books(tmp, args[1], args[2], args[3:]) if args[0] == "--tco" else [(a, a) for a in args]
        proc, desktop = connect(tmp)
        try:
            for path, book in books:
                short, seen = check_book(desktop, book)
                checked += seen
                for sheet, row, was, need in short:
                    print(f"{path}: {sheet} row {row} is {was / 35.28:.1f} pt, its wrapped text needs "
                          f"{need / 35.28:.1f} pt (LibreOffice's optimal height)")
                bad += len(short)
                print(f"{path}: {seen} rows, {len(short)} shorter than their text")
        finally:
            try:
                desktop.terminate()
            except Exception:
                pass
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"{checked - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
