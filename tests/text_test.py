#!/usr/bin/env python3
"""text_test.py - text from the input files reaches the workbook as written, and the workbook opens.

Each case writes a small project root (a copy of tests/fixtures/roots/mini with
one template or scenario changed), runs `tco` on it, then checks:
- every XML part of the workbook parses (expat: well-formed, UTF-8, XML 1.0 characters);
- LibreOffice opens the workbook and, exported sheet by sheet to CSV, shows the text exactly as
  the input file wrote it (Excel and LibreOffice decode "_xHHHH_"; Gnumeric shows escapes raw,
  so it is not the reference here);
- the case's own expectation on the XML (escape, chart references, limits).
Usage: text_test.py TCO_BINARY PROJECT_ROOT.  Last line: "N passed, N failed".
"""
import csv, glob, os, re, shutil, subprocess, sys, tempfile, zipfile
import xml.etree.ElementTree as ET

tco, src = sys.argv[1], sys.argv[2]
MINI = os.path.join(src, "tests", "fixtures", "roots", "mini")
from tally import check, finish


def make_root(tmp, name, template_edit=None, scenario=None, extra_scenarios=None):
    root = os.path.join(tmp, name)
    shutil.copytree(MINI, root)
    if template_edit:
        p = os.path.join(root, "templates", "mini.ini")
        text = open(p, encoding="utf-8").read()
        for old, new in template_edit:
            assert old in text, old
            text = text.replace(old, new, 1)
        open(p, "w", encoding="utf-8").write(text)
    for stem, body in [("case", scenario)] + list((extra_scenarios or {}).items()):
        if body:
            open(os.path.join(root, "scenarios", stem + ".ini"), "w", encoding="utf-8").write(body)
    return root


SCEN = "[scenario]\n{title}template = mini\nthing = widget\nqty = 3\nyears = 2\n"


def run_tco(root, *args):
    out = os.path.join(root, "book.xlsx")
    r = subprocess.run([tco, "--root", root, *args, "--out", out], capture_output=True, text=True)
    return r, out


def parts_parse(book, label):
    """Every XML part parses; returns {part: text}."""
    parts = {}
    with zipfile.ZipFile(book) as z:
        for n in z.namelist():
            if n.endswith(".xml") or n.endswith(".rels"):
                data = z.read(n)
                try:
                    ET.fromstring(data)
                    parts[n] = data.decode("utf-8")
                except ET.ParseError as e:
                    check(False, "%s: %s does not parse: %s" % (label, n, e))
                    return parts
    check(True, label)
    return parts


def libreoffice_sheets(book, tmp):
    """{sheet name: rows} as LibreOffice shows them, or None if it cannot open the book."""
    outdir = tempfile.mkdtemp(dir=tmp)
    profile = "file://" + tempfile.mkdtemp(dir=tmp)
    # Filter options: comma, quote, UTF-8, from line 1, ..., token 12 = -1: every sheet to NAME-SHEET.csv.
    subprocess.run(["soffice", "-env:UserInstallation=" + profile, "--headless", "--convert-to",
                    "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
                    "--outdir", outdir, book], capture_output=True, timeout=300)
    stem = os.path.splitext(os.path.basename(book))[0]
    sheets = {}
    for f in glob.glob(os.path.join(outdir, stem + "-*.csv")):
        name = os.path.basename(f)[len(stem) + 1:-4]
        with open(f, encoding="utf-8", newline="") as fh:
            sheets[name] = list(csv.reader(fh))
    return sheets or None


def cell(sheets, sheet, text):
    """True when some cell of @sheet is exactly @text."""
    return any(text == c for row in sheets.get(sheet, []) for c in row)


with tempfile.TemporaryDirectory() as tmp:
    have_lo = shutil.which("soffice") is not None
    if not have_lo:
        print("note: soffice not found; LibreOffice round trips are not checked")

    # 1. Literal _xHHHH_ text: stored with Excel's _x005F_ escape, shown as written.
    title = "_x000D_=1+2 and _x0041_ Systems _x_ _x12_ _x4a_ _x00041_"
    root = make_root(tmp, "escape", [("label = Unit price", "label = _x0041_ price")],
                     SCEN.format(title="title = %s\n" % title))
    r, book = run_tco(root, "--scenario", "case")
    check(r.returncode == 0, "escape: exit %d: %s" % (r.returncode, r.stderr))
    parts = parts_parse(book, "escape: every part parses")
    sst = parts.get("xl/sharedStrings.xml", "")
    check("_x005F_x000D_=1+2 and _x005F_x0041_ Systems _x_ _x005F_x12_ _x005F_x4a_ _x00041_" in sst, "escape: the title is stored escaped")
    check("_x005F_x0041_ price" in sst, "escape: a template label is stored escaped")
    if have_lo:
        sh = libreoffice_sheets(book, tmp)
        check(sh is not None and cell(sh, "Summary", title), "escape: LibreOffice shows the title as written")
        check(sh is not None and cell(sh, "Inputs", "_x0041_ price"), "escape: LibreOffice shows the label as written")

    # 2. A chart title and a series label that start with '=' stay text: both are cell references.
    chart = "\n[chart.running]\ntype = column_stacked\ntitle = =1+2 running (CNY)\nseries = running\n"
    root = make_root(tmp, "chart", [("label = Running cost", "label = =SUM(1) running"),
                                    ("[line.total]", chart.lstrip() + "\n[line.total]")],
                     SCEN.format(title=""))
    r, book = run_tco(root, "--scenario", "case")
    check(r.returncode == 0, "chart: exit %d: %s" % (r.returncode, r.stderr))
    parts = parts_parse(book, "chart: every part parses")
    charts = [t for n, t in parts.items() if n.startswith("xl/charts/chart")]
    check(len(charts) == 1, "chart: one chart part")
    ch = charts[0] if charts else ""
    check(re.search(r"<c:title><c:tx><c:strRef><c:f>Charts!\$E\$5</c:f>", ch) is not None,
          "chart: the title is a reference to Charts!E5")
    check("<c:v>=1+2 running (CNY)</c:v>" in ch, "chart: the title's cached text is as written")
    check(re.search(r"<c:ser>.*?<c:tx><c:strRef><c:f>Years!\$A\$\d+</c:f>", ch, re.S) is not None,
          "chart: the series name is a reference to its label cell")
    check("<c:v>=SUM(1) running</c:v>" in ch, "chart: the series name's cached text is as written")
    check("<c:f>1+2" not in ch and "<c:f>SUM(1)" not in ch, "chart: no text became a chart formula")
    if have_lo:
        sh = libreoffice_sheets(book, tmp)
        check(sh is not None and cell(sh, "Charts", "=1+2 running (CNY)"), "chart: LibreOffice shows the title cell")

    # 3. A Compare label of 300 three-byte characters (900 bytes, past any 256-byte buffer).
    long_label = "\u6210\u672c" * 150
    tpl = [("[model]\n", "[model]\ncompare = total, per_unit\n"), ("label = Total\n", "label = %s\n" % long_label)]
    root = make_root(tmp, "compare", tpl, None,
                     {"a": SCEN.format(title=""), "b": SCEN.format(title="").replace("qty = 3", "qty = 4")})
    r, book = run_tco(root, "--compare", "a,b")
    check(r.returncode == 0, "compare: exit %d: %s" % (r.returncode, r.stderr))
    parts = parts_parse(book, "compare: every part parses")
    check(long_label in parts.get("xl/sharedStrings.xml", ""), "compare: the long label is stored whole")
    if have_lo:
        sh = libreoffice_sheets(book, tmp)
        check(sh is not None and cell(sh, "Compare", long_label), "compare: LibreOffice shows the whole label")

    # 4. Limits at their edge are accepted and open: a 64-character non-ASCII unit in a
    #    data-validation message, a 29-unit sheet name of emoji (1 + 14 x 2), a 255-byte drop-down list.
    unit64 = "\u5355" * 64
    sheet29 = "Y" + "\U0001F600" * 14
    root = make_root(tmp, "edges", [("unit = share/yr", "unit = " + unit64),
                                     ("sheets = Calc, Years", "sheets = Calc, " + sheet29),
                                     ("sheet = Years", "sheet = " + sheet29)], SCEN.format(title=""))
    r, book = run_tco(root, "--scenario", "case")
    check(r.returncode == 0, "edges: exit %d: %s" % (r.returncode, r.stderr))
    parts = parts_parse(book, "edges: every part parses")
    check(('name="%s"' % sheet29) in parts.get("xl/workbook.xml", ""), "edges: the emoji sheet name is kept")
    check(("(%s)." % unit64) in "".join(parts.values()), "edges: the unit is whole in its validation message")
    if have_lo:
        sh = libreoffice_sheets(book, tmp)
        check(sh is not None and sheet29 in sh, "edges: LibreOffice opens the book with the emoji sheet")

    tiered = os.path.join(tmp, "list")
    shutil.copytree(MINI, tiered)
    # 'single' + ',' + 248 more bytes: "double" then "x" padding to exactly 255 bytes.
    items = "single, double, " + "x" * (255 - len("single,double,"))
    p = os.path.join(tiered, "templates", "tiered.ini")
    text = open(p, encoding="utf-8").read().replace("values = single, double", "values = " + items, 1)
    open(p, "w", encoding="utf-8").write(text)
    r, book = run_tco(tiered, "--scenario", "tiered")
    check(r.returncode == 0, "list: a 255-byte drop-down list is accepted: %s" % r.stderr)
    parts = parts_parse(book, "list: every part parses")
    open(p, "w", encoding="utf-8").write(text.replace("values = " + items, "values = " + items + "y", 1))
    r, book2 = run_tco(tiered, "--scenario", "tiered")
    check(r.returncode == 65 and "[input.mode] values: the list is 256 bytes" in r.stderr,
          "list: a 256-byte list is refused when read: %s" % r.stderr)

    # 5. Text built from a variable number of parts stays within a cell: 3,000 tier rows without
    #    the `extra` key each take the default, and the input's source names the first ones and
    #    counts the rest instead of growing to 90,000 characters.
    many = os.path.join(tmp, "many")
    shutil.copytree(MINI, many)
    rows = "".join("[t%d]\nsize = %d\nkind = plain\n\n" % (i, i % 7 + 1) for i in range(3000))
    open(os.path.join(many, "pricing", "tiers.ini"), "a", encoding="utf-8").write("\n" + rows)
    r, book = run_tco(many, "--scenario", "tiered")
    check(r.returncode == 0, "many tiers: exit %d: %s" % (r.returncode, r.stderr))
    parts = parts_parse(book, "many tiers: every part parses")
    sst = parts.get("xl/sharedStrings.xml", "")
    m = re.search(r"<t[^>]*>([^<]*key extra of each tier \(small, large, medium, t0, [^<]*: not in the catalog, 0;[^<]*)</t>", sst)
    check(m is not None and "more rows not from the catalog (see the tier table)" in m.group(1)
          and len(m.group(1)) < 32767, "many tiers: the source lists the first rows and counts the rest")

    # 5b. A comparison whose options are finite (-1.7e308 and 1.7e308) but whose difference B - A is
    #     not: refused (exit 65, naming the compared figure), nothing written; 1e-300 against 1e300
    #     likewise for the relative difference (B - A) / A.
    swing = "[input.swing]\nlabel = Swing\nunit = CNY\nfrom = scenario.swing\n\n"
    for lo, hi, what in [("-1.7e308", "1.7e308", "difference"), ("1e-300", "1e300", "relative difference")]:
        root = make_root(tmp, "swing" + lo, [("[model]\n", "[model]\ncompare = swing, total\n"), ("[input.rate]", swing + "[input.rate]")],
                         None, {"a": SCEN.format(title="") + "swing = %s\n" % lo,
                                "b": SCEN.format(title="") + "swing = %s\n" % hi})
        r, book = run_tco(root, "--compare", "a,b")
        check(r.returncode == 65 and "Compare sheet, Swing: option B against option A: result overflows (#NUM!)" in r.stderr
              and not os.path.exists(book), "compare: an overflowing %s is refused: exit %d %s" % (what, r.returncode, r.stderr))

    # 5c. Excel's column and series limits are found when the template is read (exit 65, naming the
    #     line or chart): 16,001 per-tier lines on one sheet, a chart of 256 series.
    many = os.path.join(tmp, "cols")
    shutil.copytree(MINI, many)
    p = os.path.join(many, "templates", "tiered.ini")
    lines = "".join("\n[line.col_%d]\nsheet = Rows\nper = tier\nlabel = C%d\nunit = x\nformula = row_size\n" % (i, i)
                    for i in range(16001))
    open(p, "a", encoding="utf-8").write(lines)
    r, book = run_tco(many, "--scenario", "tiered")
    check(r.returncode == 65 and "sheet: sheet 'Rows' would hold more than 16000 per-tier lines" in r.stderr
          and not os.path.exists(book), "columns: 16,001 per-tier lines refused when read: %s" % r.stderr[-300:])
    # 256 per-year lines with names of 2 and 3 characters (_0, _a, _aa, ...), so that the series
    # list fits one INI line (1,022 bytes).
    al = "0123456789abcdefghijklmnopqrstuvwxyz"
    names = ["_" + c for c in al] + ["_" + a + b for a in al[10:] for b in al[10:]][:220]
    ylines = "".join("[line.%s]\nsheet = Years\nper = year\nlabel = Y%d\nunit = CNY/yr\nformula = running\n\n" % (n, i)
                     for i, n in enumerate(names))
    chart = "[chart.many]\ntype = line\ntitle = Many\nseries = %s\n\n" % ",".join(names)
    root = make_root(tmp, "series", [("[line.total]", ylines + chart + "[line.total]")], SCEN.format(title=""))
    r, book = run_tco(root, "--scenario", "case")
    check(r.returncode == 65 and "[chart.many] series: 256 series; a chart holds at most 255" in r.stderr,
          "series: a chart of 256 series refused when read: %s" % r.stderr)

    # 6. The what-if note on Summary lists 64 --set text values of 500 characters (each with its
    #    prior value of 500) only up to half a cell, and counts the rest.
    inputs = "".join("[input.txt_%d]\nlabel = Text %d\nunit = text\nfrom = scenario.txt_%d\ntype = text\n\n" % (i, i, i)
                     for i in range(64))
    scen = SCEN.format(title="") + "".join("txt_%d = %s\n" % (i, "a" * 500) for i in range(64))
    root = make_root(tmp, "whatif", [("[input.rate]", inputs + "[input.rate]")], scen)
    sets = []
    for i in range(64):
        sets += ["--set", "scenario.txt_%d=%s" % (i, "b" * 500)]
    r, book = run_tco(root, "--scenario", "case", *sets)
    check(r.returncode == 0, "what-if: 64 long --set values: exit %d: %s" % (r.returncode, r.stderr[:300]))
    parts = parts_parse(book, "what-if: every part parses")
    m = re.search(r"<t[^>]*>(What-if \(--set\): [^<]*)</t>", parts.get("xl/sharedStrings.xml", ""))
    check(m is not None and len(m.group(1)) <= 32767 and
          re.search(r"; \d+ more \(the Inputs sheet shows each value before --set\)\.$", m.group(1)) is not None,
          "what-if: the note stays within a cell and counts the values it does not list")

finish()
