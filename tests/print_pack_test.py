#!/usr/bin/env python3
"""print_pack_test.py - a workbook as LibreOffice prints it: how many pages, and none without content
(issue 23 §2).

Writes a workbook with tco, prints it to PDF with LibreOffice (headless, a private profile so that
parallel runs do not collide), counts its pages with pdfinfo and reads each page with pdftotext:
  - the whole pack prints on at most MAX_PAGES pages;
  - with --summary-max N, each Summary sheet ("Summary", or an option's "A Summary", "B Summary", ...)
    prints on 1 to N pages (its footer names the sheet), and there is at least one;
  - with --headers SHEET HEADERS (repeatable; HEADERS comma-separated), every page of SHEET holds each
    word of each header as a whole word: its header row and first columns repeated on each page, and
    no header cut off ("ughput (tokens/s)" for "Throughput (tokens/s)"); with --whole SHEET HEADERS, the
    pages of SHEET hold them together (the table's headers on its page, the reasons on theirs);
  - with --apart SHEET TEXTS (repeatable; TEXTS comma-separated), each TEXT that a page of SHEET prints stands
    apart, no letter or digit either side: a cell's text wraps within its column rather than running into
    the next one's ("values at runn.a.: fails a check"), and TEXT is printed at least once;
  - with --footer SHEET TEXT (repeatable), every page of SHEET holds TEXT in its footer (an option's Summary
    names the option: "3x D-M in dc4, owned (team-70b)"), and SHEET prints;
  - with --sheets NAMES (comma-separated), exactly those sheets print, in that order (the options'
    other sheets of a comparison or an advice are hidden, and a hidden sheet is not printed);
  - with --words SHEET MARKER HEADERS (repeatable), the pages of SHEET that print MARKER (a table's title,
    "Tier catalog") hold each header's words whole, a word that wraps breaking only after a hyphen
    ("(CNY/GPU-" then "hour)"), never inside ("Bandwidt" then "h");
  - with --sheet-pages SHEET N (repeatable), SHEET prints on 1 to N pages (Cash flow on one: its last row
    took a page of its own);
  - with --budget-pack N ADDED (ADDED comma-separated: the analysis sheets a flag adds, Quotes, Risk,
    Sensitivity), the budget's own sheets, all but ADDED, print on at most N pages: a budget's pack is 30
    pages whatever analysis it carries, and each added sheet its own pages on top (--sheet-pages);
  - with --page-starts SHEET K TEXT (repeatable), the K-th page of SHEET starts with TEXT, its first line
    (the Summary's second page with its Checks block, not a repeated Key figures header above them);
  - every page holds content: more than its footer (sheet, scenario, "Page k of n"), at least MIN_CHARS
    characters and MIN_LINES lines, so no page is blank or holds only a stray cell or row (a last row of
    Cash flow alone, the ends of Budget sources that ran across the month columns).
Usage: print_pack_test.py TCO_BINARY SOURCE_DIR MAX_PAGES [--summary-max N] [--headers SHEET HEADERS]... [--whole SHEET HEADERS]...
       [--words SHEET MARKER HEADERS]... [--apart SHEET TEXTS]... [--footer SHEET TEXT]... [--sheet-pages SHEET N]...
       [--page-starts SHEET K TEXT]... [--budget-pack N ADDED]
       [--sheets NAMES] -- TCO_ARGS...
(TCO_ARGS without --out: the test adds its own.)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MIN_CHARS = 40  # a page with a heading and one row of a table has some 100 characters
MIN_LINES = 6  # the header row and one row of three lines took 4 (Cash flow's last page)


def pieces(header):
    """The parts of @header a printed line may not break: words, split after a hyphen."""
    return [p for word in header.split() for p in re.split(r"(?<=-)(?=.)", word)]


def main():
    args = sys.argv[1:]
    sep = args.index("--")
    opts, tco_args = args[:sep], args[sep + 1:]
    tco, src, max_pages = opts[0], opts[1], int(opts[2])
    summary_max = int(opts[opts.index("--summary-max") + 1]) if "--summary-max" in opts else None
    headers = {opts[i + 1]: opts[i + 2].split(",") for i, o in enumerate(opts) if o == "--headers"}
    whole = {opts[i + 1]: opts[i + 2].split(",") for i, o in enumerate(opts) if o == "--whole"}
    apart = {opts[i + 1]: opts[i + 2].split(",") for i, o in enumerate(opts) if o == "--apart"}
    apart_seen = set()  # (sheet, text) printed at least once
    footers = {opts[i + 1]: opts[i + 2] for i, o in enumerate(opts) if o == "--footer"}
    word_checks = {opts[i + 1]: (opts[i + 2], opts[i + 3].split(",")) for i, o in enumerate(opts) if o == "--words"}
    sheet_pages = {opts[i + 1]: int(opts[i + 2]) for i, o in enumerate(opts) if o == "--sheet-pages"}
    page_starts = {(opts[i + 1], int(opts[i + 2])): opts[i + 3] for i, o in enumerate(opts) if o == "--page-starts"}
    starts_seen = set()
    pages_of = {}  # sheet: its pages
    marked_tokens = {}  # sheet: the tokens of its pages that print its --words MARKER, split as pieces() splits
    sheet_words = {}  # sheet: the words of all its pages
    sheets = opts[opts.index("--sheets") + 1].split(",") if "--sheets" in opts else None
    pack = (int(opts[opts.index("--budget-pack") + 1]), opts[opts.index("--budget-pack") + 2].split(",")) \
        if "--budget-pack" in opts else None
    for tool in ("soffice", "pdfinfo", "pdftotext"):
        if shutil.which(tool) is None:
            print(f"FAIL: {tool} is missing (sh .ci/install-deps --test installs it)")
            return 1
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "pack.xlsx")
        # Run from the source folder as a user does from a clone: sources name relative paths
        # (pricing/cards.ini); an absolute --root makes every source longer and the Inputs taller.
        r = subprocess.run([os.path.abspath(tco), *tco_args, "--out", book], capture_output=True, text=True, cwd=src)
        if r.returncode != 0:
            print(f"FAIL: tco {' '.join(tco_args)} exited {r.returncode}: {r.stderr}")
            return 1
        profile = os.path.join(tmp, "profile")
        r = subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                            "--outdir", tmp, book], capture_output=True, text=True, timeout=600)
        pdf = os.path.join(tmp, "pack.pdf")
        if not os.path.exists(pdf):
            print(f"FAIL: LibreOffice wrote no PDF: {r.stdout} {r.stderr}")
            return 1
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
        pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
        print(f"tco {' '.join(tco_args)}: {pages} pages (at most {max_pages})")
        if pages > max_pages:
            print(f"FAIL: {pages} pages, more than {max_pages}")
            bad += 1
        footer = re.compile(r"^\s*(.*?)\s{2,}.*Page (\d+) of (\d+)\s*$")
        summaries = {}  # Summary sheet: its pages
        printed = []  # the sheets in print order
        for k in range(1, pages + 1):
            text = subprocess.run(["pdftotext", "-layout", "-f", str(k), "-l", str(k), pdf, "-"],
                                  capture_output=True, text=True, check=True).stdout
            lines = [ln for ln in text.splitlines() if ln.strip()]
            m = footer.match(lines[-1]) if lines else None
            if m is None or int(m.group(2)) != k:
                print(f"FAIL: page {k} has no footer 'SHEET ... Page {k} of {pages}': {lines[-1:]!r}")
                bad += 1
                continue
            sheet = m.group(1)
            if re.fullmatch(r"([A-Z] )?Summary", sheet):
                summaries[sheet] = summaries.get(sheet, 0) + 1
            if not printed or printed[-1] != sheet:
                printed.append(sheet)
            # A header wraps over lines ("Cost over the" / "period (CNY)"): each of its words is a whole
            # word of the page ("ughput" is no "Throughput").
            words = set(" ".join(lines).split())
            sheet_words.setdefault(sheet, set()).update(words)
            if sheet in word_checks and word_checks[sheet][0] in text:
                marked_tokens.setdefault(sheet, set()).update(p for wd in words for p in pieces(wd))
            pages_of[sheet] = pages_of.get(sheet, 0) + 1
            want = page_starts.get((sheet, pages_of[sheet]))
            if want is not None:
                starts_seen.add((sheet, pages_of[sheet]))
                if not lines[0].strip().startswith(want):
                    print(f"FAIL: page {k} ({sheet}, its page {pages_of[sheet]}) starts {lines[0].strip()[:80]!r}, "
                          f"not {want!r}")
                    bad += 1
            for head in headers.get(sheet, []):
                if not all(word in words for word in head.split()):
                    print(f"FAIL: page {k} ({sheet}) lacks the header {head!r} (whole words)")
                    bad += 1
            if sheet in footers and footers[sheet] not in lines[-1]:
                print(f"FAIL: page {k} ({sheet}) lacks {footers[sheet]!r} in its footer: {lines[-1].strip()!r}")
                bad += 1
            for text_ in apart.get(sheet, []):
                for ln in lines[:-1]:
                    for hit in re.finditer(re.escape(text_), ln):
                        apart_seen.add((sheet, text_))
                        a, b = hit.start(), hit.end()
                        if (a > 0 and ln[a - 1].isalnum()) or (b < len(ln) and ln[b].isalnum()):
                            print(f"FAIL: page {k} ({sheet}) runs {text_!r} into its neighbour: {ln.strip()!r}")
                            bad += 1
            body = sum(len(ln.strip()) for ln in lines[:-1])
            if body < MIN_CHARS or len(lines) - 1 < MIN_LINES:
                print(f"FAIL: page {k} ({sheet}) holds {body} characters in {len(lines) - 1} lines besides its "
                      f"footer: {' | '.join(ln.strip() for ln in lines[:-1])!r}")
                bad += 1
        if summary_max is not None:
            if not summaries:
                print("FAIL: no Summary sheet printed")
                bad += 1
            for name, n in summaries.items():
                if not 1 <= n <= summary_max:
                    print(f"FAIL: {name} prints on {n} pages, not 1 to {summary_max}")
                    bad += 1
        for name in list(headers) + list(whole) + list(apart) + list(footers):
            if name not in printed:
                print(f"FAIL: no page of {name}")
                bad += 1
        for name, texts in apart.items():
            for text_ in texts:
                if (name, text_) not in apart_seen:
                    print(f"FAIL: no page of {name} prints {text_!r}: the check proves nothing")
                    bad += 1
        for name, heads in whole.items():
            for head in heads:
                if not all(word in sheet_words.get(name, ()) for word in head.split()):
                    print(f"FAIL: the pages of {name} lack the header {head!r} (whole words)")
                    bad += 1
        for name, (marker, heads) in word_checks.items():
            if name not in marked_tokens:
                print(f"FAIL: no page of {name} prints {marker!r}: the check proves nothing")
                bad += 1
                continue
            for head in heads:
                cut = [p for p in pieces(head) if p not in marked_tokens[name]]
                if cut:
                    print(f"FAIL: the pages of {name} break the header {head!r} inside a word: {cut} not whole")
                    bad += 1
        for name, most in sheet_pages.items():
            if not 1 <= pages_of.get(name, 0) <= most:
                print(f"FAIL: {name} prints on {pages_of.get(name, 0)} pages, not 1 to {most}")
                bad += 1
        if pack is not None:
            own = sum(n for name, n in pages_of.items() if name not in pack[1])
            print(f"the budget's own sheets (all but {', '.join(pack[1])}): {own} pages (at most {pack[0]})")
            if own > pack[0]:
                print(f"FAIL: the budget's own sheets print on {own} pages, more than {pack[0]}")
                bad += 1
            if not all(name in pages_of for name in pack[1]):
                print(f"FAIL: an added sheet ({', '.join(pack[1])}) does not print")
                bad += 1
        for (name, n), want in page_starts.items():
            if (name, n) not in starts_seen:
                print(f"FAIL: {name} has no page {n} (to start with {want!r})")
                bad += 1
        print("pages per sheet: " + ", ".join(f"{name} {n}" for name, n in pages_of.items()))
        print(f"sheets printed: {', '.join(printed)}")
        if sheets is not None and printed != sheets:
            print(f"FAIL: the sheets printed are {printed}, not {sheets}")
            bad += 1
    print(f"{bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
