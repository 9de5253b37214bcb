#!/usr/bin/env python3
"""print_test.py - the printed Inputs sheet as LibreOffice prints it (issue 11 §9).

Writes a scenario's workbook, prints it to PDF with LibreOffice (headless), and checks:
  - every page that prints the Inputs table header (Input, Unit, Value, Low, High, Status, Name) also prints
    its "Source / basis" column: an input's source is on the same page as its value;
  - no sheet prints below 8 pt (issue 11 §9: "no sheet prints below about 8 pt"): every print scale the
    workbook sets is 73 or more (its 11 pt text at 11 x 0.73 = 8.03 pt; PRINT_MIN_SCALE).
LibreOffice lays out Calibri columns with Carlito (fonts-crosextra-carlito, metric-compatible); without
it a fallback font makes every column about a third wider, and the test says so rather than passing.
Usage: print_test.py TCO_BINARY SOURCE_DIR SCENARIO
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

MIN_SCALE = 73  # the least scale that keeps 11 pt text at 8 pt: 8 / 11 = 72.7%, rounded up


def pages_text(pdf):
    out = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")


def main():
    tco, src, scenario = sys.argv[1:4]
    for tool in ("soffice", "pdftotext", "fc-match"):
        if shutil.which(tool) is None:
            print(f"FAIL: {tool} is missing (sh .ci/install-deps --test installs it)")
            return 1
    font = subprocess.run(["fc-match", "Calibri"], capture_output=True, text=True).stdout
    if "Carlito" not in font and "Calibri" not in font:
        print(f"FAIL: no Calibri or Carlito font (fc-match Calibri: {font.strip()}): install "
              "fonts-crosextra-carlito, or LibreOffice prints every column wider than the workbook says")
        return 1
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, scenario + ".xlsx")
        r = subprocess.run([tco, "--root", src, "--scenario", scenario, "--out", book], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL: tco exited {r.returncode}: {r.stderr}")
            return 1
        z = zipfile.ZipFile(book)
        for part in sorted(n for n in z.namelist() if n.startswith("xl/worksheets/sheet")):
            for scale in re.findall(r'<pageSetup[^>]*\bscale="(\d+)"', z.read(part).decode()):
                if int(scale) < MIN_SCALE:
                    print(f"FAIL: {part} prints at {scale}%, below {MIN_SCALE}% (11 pt text under 8 pt)")
                    bad += 1
        profile = os.path.join(tmp, "profile")
        r = subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                            "--outdir", tmp, book], capture_output=True, text=True, timeout=300)
        pdf = os.path.join(tmp, scenario + ".pdf")
        if not os.path.exists(pdf):
            print(f"FAIL: LibreOffice wrote no PDF: {r.stdout} {r.stderr}")
            return 1
        header = re.compile(r"^\s*Input\s+Unit\s+Value\s+Low\s+High\s+Status\s+Name\b", re.M)
        input_pages = 0
        for k, text in enumerate(pages_text(pdf), 1):
            if not header.search(text):
                continue
            input_pages += 1
            if "Source / basis" not in text:
                print(f"FAIL: page {k} prints inputs without their Source / basis column")
                bad += 1
        if input_pages == 0:
            print("FAIL: no page prints the Inputs table: the check proves nothing")
            bad += 1
    print(f"{input_pages} Inputs pages, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
