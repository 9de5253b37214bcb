#!/usr/bin/env python3
"""quotes_test.py - vendor quote files through the tco command: prices that must
come out right (tier rows past 1,000 rows, --set over quotes, format characters,
CR-only line ends, wide headers), text built from quotes that must fit a cell,
memory and time on a 256 MiB field, and `quotes check --format json` (every problem's
file, line and column on hand-made files).

Usage: quotes_test.py TCO_BINARY SOURCE_DIR PEAK_RSS_BINARY

Figures are checked by hand against pricing/cards.ini: W-B costs 45,000 CNY in
the catalog, D-M 95,000; cluster32 buys 32 D-M cards on dc8 hosts, solo one
C70 on a tower-workstation.
"""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import xml.dom.minidom
import zipfile

TCO, SRC, PEAK_RSS = sys.argv[1], sys.argv[2], sys.argv[3]
T = tempfile.mkdtemp(prefix="tco-quotes-")
HEADER = "vendor,item,unit_price,currency"
failures = []
passes = 0


def check(ok, what):
    global passes
    if ok:
        passes += 1
    else:
        failures.append(what)
        print("FAIL:", what)


def tco(*args):
    p = subprocess.run([TCO, "--root", SRC, *args], capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def write(name, data):
    path = os.path.join(T, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def run_json(scenario, *args):
    out = os.path.join(T, "book.xlsx")
    as_of = ("--as-of", "2026-11-30") if "--quotes" in args else ()  # a date judges quotes: not given without
    rc, so, se = tco("--scenario", scenario, *as_of, "--format", "json", "--out", out, "--force", *args)
    if rc != 0:
        print(se)
        return None
    return json.loads(so)


def shared_strings(book):
    z = zipfile.ZipFile(book)
    for n in z.namelist():
        if n.endswith(".xml") or n.endswith(".rels"):
            xml.dom.minidom.parseString(z.read(n))  # every part is well-formed XML
    doc = xml.dom.minidom.parseString(z.read("xl/sharedStrings.xml"))
    return ["".join(t.firstChild.data if t.firstChild else "" for t in si.getElementsByTagName("t"))
            for si in doc.getElementsByTagName("si")]


def utf16_units(s):
    return len(s.encode("utf-16-le")) // 2


# --- 5. A tier's cheapest quote after 1,000 rows for another item --------------------------
rows = [HEADER] + ["Bulk %d,dc8,190000,CNY" % i for i in range(1001)] + ["Late,W-B,40000,CNY"]
tier = write("tier.csv", "\n".join(rows) + "\n")
for scenario in ("solo", "cluster32"):  # solo does not buy dc8; cluster32 does
    d = run_json(scenario, "--quotes", tier)
    check(d is not None and d["inputs"]["tier_price"]["by_tier"]["W-B"] == 40000,
          "%s: W-B's quote (40,000) after 1,001 dc8 rows must replace the catalog's 45,000" % scenario)
d = run_json("solo")
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["W-B"] == 45000, "solo without quotes: W-B 45,000")
# 1,200 dearer W-B rows, then the cheapest: past the listing cap it is still chosen.
rows = [HEADER] + ["Dear %d,W-B,44000,CNY" % i for i in range(1200)] + ["Cheapest,W-B,39000,CNY"]
d = run_json("solo", "--quotes", write("tier2.csv", "\n".join(rows) + "\n"))
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["W-B"] == 39000 and
      "Cheapest" in d["inputs"]["tier_price"]["source"], "the cheapest W-B after 1,200 rows must price W-B")

# --- 5. --set wins over quotes everywhere the value appears ----------------------------------
book = os.path.join(T, "book.xlsx")
d = run_json("cluster32", "--set", "card.price=80000", "--quotes", os.path.join(SRC, "pricing/example-quotes.csv"))
check(d is not None and d["outputs"]["card_price"]["value"] == 80000, "--set card.price=80000: card_price 80,000")
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["D-M"] == 80000,
      "--set card.price=80000: the D-M tier row must say 80,000, not the quote's 85,910")
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["W-B"] == 41000,
      "--set card.price: W-B's own quote (41,000) still prices the W-B row")
check(d is not None and d["outputs"]["card_capex"]["value"] == 33 * 80000, "card_capex = 33 x 80,000 (32 cards and the spare held)")
strings = shared_strings(book)
check("replaced by --set" in strings, "the D-M quotes are listed as replaced by --set")
d = run_json("cluster32", "--quotes", os.path.join(SRC, "pricing/example-quotes.csv"))
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["D-M"] == 85910, "without --set D-M's row is quoted")
# A tier the scenario does not buy: --set W-B.price=30000 beats X-1's 41,000 on the W-B row only.
d = run_json("cluster32", "--set", "W-B.price=30000", "--quotes", os.path.join(SRC, "pricing/example-quotes.csv"))
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["W-B"] == 30000 and
      d["inputs"]["tier_price"]["by_tier"]["D-M"] == 85910 and d["outputs"]["card_price"]["value"] == 85910,
      "--set W-B.price=30000: the W-B row 30,000, D-M still quoted at 85,910")

# --- 6. --set fx.CODE=RATE: the rate quotes convert at, shown as a --set input; the choice follows it --------
example = os.path.join(SRC, "pricing/example-quotes.csv")
d = run_json("cluster32", "--set", "fx.usd=7.2", "--quotes", example)
check(d is not None and d["inputs"]["fx_usd"]["value"] == 7.2 and "--set fx.usd=7.2 (was 7.1)" in
      d["inputs"]["fx_usd"]["source"], "--set fx.usd=7.2: fx_usd 7.2, its source says what it replaced")
# SG-55, 12,100 USD x 7.2 = 87,120 CNY, still under Huaxin's 88,000 CNY: 33 cards (32 and the spare held)
# cost 2,874,960.
check(d is not None and d["outputs"]["card_price"]["value"] == 12100 * 7.2 and
      d["outputs"]["card_capex"]["value"] == 33 * (12100 * 7.2), "--set fx.usd=7.2: card_price 12,100 x 7.2")
strings = shared_strings(book)
check(any(x.startswith("What-if (--set): ") and "fx_usd = 7.2 (was 7.1)" in x for x in strings),
      "the Summary names the rate set")
# At 7.3 SG-55 costs 88,330 CNY: Huaxin's 88,000 CNY quote wins (the engine chooses at the rates given).
d = run_json("cluster32", "--set", "fx.usd=7.3", "--quotes", example)
check(d is not None and d["outputs"]["card_price"]["value"] == 88000 and "Q-2026-101" in d["inputs"]["tier_price"]["source"],
      "--set fx.usd=7.3: Huaxin's 88,000 CNY beats 12,100 x 7.3 = 88,330")
for args, code, text in (
        (["--set", "fx.usd=7.2"], 64, "--set fx.usd=7.2: exchange rates convert vendor quotes (give --quotes "
         "FILE.csv) and the reporting currency (here CNY)"),
        (["--set", "fx.eur=7.8", "--currency", "USD"], 64, "--set fx.eur=7.8: exchange rates convert vendor quotes "
         "(give --quotes FILE.csv) and the reporting currency (here USD)"),
        (["--set", "fx.usb=7.2", "--quotes", example], 65, "--set fx.usb=7.2: no rate 'usb' in "),
        (["--set", "fx.cny=2", "--quotes", example], 65, "--set fx.cny=2: CNY is the reporting currency"),
        (["--set", "fx.usd=0", "--quotes", example], 65,
         "--set fx.usd=0: expected CNY per USD as a number from 0.000001 to 1000000, found '0'"),
        (["--set", "fx.eur=7.8", "--quotes", example], 65,
         "--set fx.eur=7.8: no quote read is in EUR, so no price uses this rate")):
    no_book = os.path.join(T, "fx-no.xlsx")
    as_of = ("--as-of", "2026-11-30") if "--quotes" in args else ()  # --as-of without --quotes is refused (64)
    rc, so, se = tco("--scenario", "cluster32", *as_of, "--out", no_book, *args)
    check(rc == code and text in se and not os.path.exists(no_book), "%s: exit %d, %r: got %d %s" %
          (" ".join(args), code, text, rc, se))

# --- 4. Format characters do not make another item ---------------------------------------------
feff = write("feff.csv", HEADER + "\nDear,D-M,90000,CNY\nCheap,\ufeffD-M,80000,CNY\n"
             "Zero width,\u200bW-B\u00a0,40000,\u2060CNY\n")
d = run_json("cluster32", "--quotes", feff)
check(d is not None and d["outputs"]["card_price"]["value"] == 80000 and
      "from Cheap" in d["inputs"]["tier_price"]["source"], "\\uFEFFD-M is D-M: the cheaper quote (80,000) wins")
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["W-B"] == 40000, "\\u200BW-B is W-B (40,000)")
rc, so, se = tco("quotes", "check", feff)
check(rc == 0 and "3 rows, 0 errors" in so, "quotes check accepts format characters around items: " + se)

# --- 4. 'tier' is not an item; headers wider than 256 columns ----------------------------------
rc, so, se = tco("quotes", "check", write("tier_item.csv", HEADER + "\nA,tier,40000,CNY\n"))
check(rc == 0 and "tier_item.csv:2: column 2 (item): unknown item 'tier'" in se and "0 errors, 1 warning" in so,
      "quotes check warns about 'tier' as a run does: " + so + se)
wide = write("wide.csv", ",".join("x%d" % i for i in range(300)) + "," + HEADER + "\n" + "," * 300 +
             "Wide,W-B,40000,CNY\n")
d = run_json("solo", "--quotes", wide)
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["W-B"] == 40000, "a 304-column file prices W-B")

# --- 7. CR-only and mixed line ends: the line an editor shows ------------------------------------
cr = write("cr.csv", HEADER + ",notes\rA,D-M,90000,CNY,\"two\rlines\"\rB,D-M,85000,CNY,\r\n")
d = run_json("cluster32", "--quotes", cr)
check(d is not None and d["outputs"]["card_price"]["value"] == 85000 and
      "(%s:4)" % cr in d["inputs"]["tier_price"]["source"], "CR-only file: the chosen quote is on line 4")
rc, so, se = tco("--scenario", "cluster32", "--quotes",
                 write("cr_bad.csv", HEADER + "\r\nA,D-M,1,CNY\r\"B\n2\",D-M,1,CNY\rC,D-M,abc,CNY\r"),
                 "--out", os.path.join(T, "no.xlsx"))
check(rc == 65 and "cr_bad.csv:5: column 3 (unit_price)" in se and not os.path.exists(os.path.join(T, "no.xlsx")),
      "mixed line ends: the error names line 5: " + se)

# --- 7. Dates that name no day -------------------------------------------------------------------------
rc, so, se = tco("--scenario", "cluster32", "--as-of", "2026-02-30", "--out", os.path.join(T, "no.xlsx"))
check(rc == 64 and "--as-of: no such day: '2026-02-30' (February 2026 has 28 days)" in se, "--as-of 2026-02-30")
rc, so, se = tco("quotes", "check", write("day.csv", HEADER + ",valid_until\nA,D-M,1,CNY,2026-02-30\n"))
check(rc == 65 and "day.csv:2: column 5 (valid_until): no such day" in se, "valid_until 2026-02-30: no such day")

# --- 7. The price rule -----------------------------------------------------------------------------------
d = run_json("cluster32", "--quotes", write("dec.csv", HEADER + "\nA,D-M,123457.250,CNY\nB,switch,0.125,CNY\n"))
check(d is not None and d["outputs"]["card_price"]["value"] == 123457.25 and d["inputs"]["switch_price"]["value"] == 0.125,
      "123457.250 and 0.125 are decimals")

# --- 2. Text built from quotes is whole and fits a cell ---------------------------------------------------
han = "\u534e" * 100
han_csv = write("han.csv", HEADER + "\n%s,D-M,80000,CNY\nDear,D-M,90000,CNY\n" % han)
d = run_json("cluster32", "--quotes", han_csv)
strings = shared_strings(book)  # fails if a reason was cut inside a character (not UTF-8)
check("a cheaper quote from %s (%s:2) was chosen" % (han, han_csv) in strings,
      "the losing quote's reason names the 100-character Chinese vendor whole")
check(d is not None and d["outputs"]["card_price"]["value"] == 80000, "the Chinese vendor's 80,000 prices the card")
longest = "V" * 1000
d = run_json("cluster32", "--quotes", write("long.csv", HEADER + ",quote_id\n" + "\n".join(
    "%s%03d,%s,%d,CNY,%s" % (longest[:997], i, item, 1000 + i, "Q" * 256)
    for i, item in enumerate(["D-M", "D-M", "W-B", "C30", "C60", "C70", "C90", "W-A", "W-C", "D-S", "D-L", "dc8",
                              "switch", "optic", "cable", "rack"])) + "\n"))
strings = shared_strings(book)
check(d is not None and max(utf16_units(s) for s in strings) <= 32767,
      "every text built from 1,000-character vendors fits a cell")
rc, so, se = tco("--scenario", "cluster32", "--quotes", write("cell.csv", HEADER + "\n" + "V" * 32767 + ",D-M,1,CNY\n"),
                 "--out", os.path.join(T, "no.xlsx"))
check(rc == 65 and "cell.csv:2: column 1 (vendor): 32767 characters, expected at most 1000" in se and
      not os.path.exists(os.path.join(T, "no.xlsx")), "a 32,767-character vendor is refused when read: " + se)
rc, so, se = tco("quotes", "check", write("ufffe.csv", HEADER + "\nV\ufffe,D-M,1,CNY\n"))
check(rc == 65 and "ufffe.csv:2: column 1 (vendor): expected text, found the non-character U+FFFE" in se,
      "U+FFFE in a vendor is refused with line and column")

# --- round 2: a copy of the project whose fx.ini or template is changed -------------------------------
def make_root(name, fx=None, template=None, cards=None):
    """A copy of pricing/, templates/ and scenarios/ under T/NAME; fx, template and cards are (old, new) edits."""
    root = os.path.join(T, name)
    os.makedirs(root)
    for sub in ("pricing", "templates", "scenarios"):
        subprocess.run(["cp", "-r", os.path.join(SRC, sub), root], check=True)
    for rel, edit in (("pricing/fx.ini", fx), ("templates/tco.ini", template), ("pricing/cards.ini", cards)):
        if edit:
            path = os.path.join(root, rel)
            text = open(path, encoding="utf-8").read()
            assert edit[0] in text, edit[0]
            open(path, "w", encoding="utf-8").write(text.replace(edit[0], edit[1], 1))
    return root


def tco_in(root, *args):
    p = subprocess.run([TCO, "--root", root, *args], capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def sheet_xml(book):
    z = zipfile.ZipFile(book)
    return "".join(z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/"))


# --- 3. An exchange rate has a range (1e-6 to 1e6), checked when fx.ini is read ---------------------------
no_book = os.path.join(T, "no.xlsx")
usd_row = write("usd.csv", HEADER + "\nA,D-M,20000,USD\n")
for value in ("1e300", "1e-300", "0.0000009", "1000001", "inf", "nan", "0"):
    root = make_root("fx-" + value, fx=("usd = 7.1", "usd = " + value))
    want = "pricing/fx.ini [fx] usd: expected CNY per unit as a number from 0.000001 to 1000000, found '%s'" % value
    rc, so, se = tco_in(root, "--scenario", "cluster32", "--quotes", usd_row, "--out", no_book)
    check(rc == 65 and want in se and not os.path.exists(no_book), "fx usd = %s refused in a run: %s" % (value, se))
    rc, so, se = tco_in(root, "quotes", "check", usd_row)
    check(rc == 65 and want in se, "fx usd = %s refused by quotes check: %s" % (value, se))
# The ends of the range are rates: 1 USD at 1,000,000 CNY; 1 JPY at 0.000001 CNY.
root = make_root("fx-ends", fx=("usd = 7.1\n", "usd = 1000000\n"))
root_jpy = make_root("fx-ends-jpy", fx=("jpy = 0.047", "jpy = 0.000001"))
d = json.loads(tco_in(root, "--scenario", "cluster32", "--as-of", "2026-11-30", "--format", "json", "--quotes",
                      write("usd1.csv", HEADER + "\nA,D-M,0.09,USD\n"), "--out", book, "--force")[1])
check(d["outputs"]["card_price"]["value"] == 90000, "0.09 USD x 1,000,000 = 90,000 CNY prices the card")
d = json.loads(tco_in(root_jpy, "--scenario", "cluster32", "--as-of", "2026-11-30", "--format", "json", "--quotes",
                      write("jpy.csv", HEADER + "\nA,D-M,\"80,000,000,000\",JPY\n"), "--out", book, "--force")[1])
check(d["outputs"]["card_price"]["value"] == 80000, "80,000,000,000 JPY x 0.000001 = 80,000 CNY prices the card")
# The largest price at the largest rate, not used (min_qty 100,000 > 32 cards): the Quotes sheet caches
# 99,999,999,999 x 1,000,000 = 9.9999999999e+16, a finite number, never INF.
rc, so, se = tco_in(root, "--scenario", "cluster32", "--as-of", "2026-11-30", "--out", book, "--force", "--quotes",
                    write("huge.csv", HEADER + ",min_qty\nA,D-M,\"99,999,999,999\",USD,100000\n"))
xml_text = sheet_xml(book) if rc == 0 else ""
check(rc == 0 and "<f>F5*H5/IF(I5=\"yes\",1+J5,1)</f><v>9.9999999999E+16</v>" in xml_text,
      "the largest converted price is cached finite: rc %d %s" % (rc, se))
check("INF" not in xml_text and "NaN" not in xml_text, "no sheet caches INF or NaN")

# --- 4. A quote is never used outside its input's min/max: the run stops, naming the quote ------------------
# The card's price is the D-M row of tier_price (card_price looks it up): its bounds apply to the quote.
# The max is the dearest catalog tier's 160,000 (D-L); 25,000 USD x 7.1 = 177,500 CNY is above it.  (D-L's
# range, up to 208,000, is cut to that max too: a range must lie within its input's bounds.)
DL_RANGE = ("price_range = 112000, 208000", "price_range = 112000, 160000")
root = make_root("max", template=("from = tier.price\nper = tier\nmin = 0\n",
                                  "from = tier.price\nper = tier\nmin = 0\nmax = 160000\n"), cards=DL_RANGE)
rc, so, se = tco_in(root, "--scenario", "cluster32", "--quotes", write("usd25.csv", HEADER + "\nA,D-M,25000,USD\n"),
                    "--out", no_book)
check(rc == 65 and "usd25.csv:2: quote from A for D-M: 25000 USD = 177500 CNY is above the max 160000 of the D-M row "
      "of tier_price" in se and not os.path.exists(no_book),
      "25,000 USD x 7.1 = 177,500 CNY above tier_price's max 160,000 stops the run: " + se)
rc, so, se = tco_in(root, "--scenario", "cluster32", "--set", "card.price=177500", "--out", no_book)
check(rc == 65 and "<= 160000" in se, "--set card.price=177500 is refused alike: " + se)
# The same quote beaten by a cheaper one in range is not used (its row says so), and the run goes on.
d = json.loads(tco_in(root, "--scenario", "cluster32", "--as-of", "2026-11-30", "--format", "json", "--out", book,
                      "--force", "--quotes", write("usd2.csv", HEADER + "\nA,D-M,25000,USD\nB,D-M,90000,CNY\n"))[1])
check(d["outputs"]["card_price"]["value"] == 90000 and "from B" in d["inputs"]["tier_price"]["source"],
      "a cheaper quote in range (90,000 CNY) prices the card")
check(any(s.startswith("a cheaper quote from B") for s in shared_strings(book)), "the 177,500 CNY quote is listed as beaten")
root = make_root("min", template=("from = tier.price\nper = tier\nmin = 0\n", "from = tier.price\nper = tier\nmin = 50\n"))
rc, so, se = tco_in(root, "--scenario", "cluster32", "--quotes", write("low.csv", HEADER + "\nLow,D-M,10,CNY\n"),
                    "--out", no_book)
check(rc == 65 and "low.csv:2: quote from Low for D-M: 10 CNY is below the min 50 of the D-M row of tier_price" in se
      and not os.path.exists(no_book), "10 CNY below tier_price's min 50 stops the run: " + se)
# A tier row: tier_price max 160,000 (the dearest catalog tier); W-B quoted at 160,001 CNY stops the run.
root = make_root("tiermax", template=("from = tier.price\nper = tier\nmin = 0\n",
                                          "from = tier.price\nper = tier\nmin = 0\nmax = 160000\n"), cards=DL_RANGE)
rc, so, se = tco_in(root, "--scenario", "solo", "--quotes", write("wb.csv", HEADER + ",quote_id\nX,W-B,160001,CNY,Q7\n"),
                    "--out", no_book)
check(rc == 65 and "wb.csv:2: quote Q7 from X for W-B: 160001 CNY is above the max 160000 of the W-B row of tier_price"
      in se, "W-B at 160,001 above tier_price's max 160,000 stops the run: " + se)
d = json.loads(tco_in(root, "--scenario", "solo", "--as-of", "2026-11-30", "--format", "json", "--out", book, "--force",
                      "--quotes", write("wb2.csv", HEADER + "\nX,W-B,160000,CNY\n"))[1])
check(d["inputs"]["tier_price"]["by_tier"]["W-B"] == 160000, "W-B at 160,000 (= the max) prices its row")

# --- 2. A quote file's path, and the rates' path, are XML text without control characters ------------------
for raw, what in ((b"q\xef\xbf\xbf.csv", "a code point that is not an XML character"), (b"q\xff.csv", "bytes that are not UTF-8"),
                  (b"q\x01.csv", "a control character"), (b"q\tx.csv", "a control character")):
    path = os.path.join(T.encode(), raw)
    with open(path, "wb") as f:
        f.write(open(os.path.join(SRC, "pricing/example-quotes.csv"), "rb").read())
    for args in ([b"--scenario", b"cluster32", b"--out", no_book.encode(), b"--quotes", path],
                 [b"quotes", b"check", path]):
        p = subprocess.run([TCO.encode(), b"--root", SRC.encode(), *args], capture_output=True)
        se = p.stderr.decode("utf-8", "replace")
        check(p.returncode == 65 and "the quote file's path, which the workbook shows, holds %s" % what in se and
              "at byte %d; rename it" % (len(T.encode()) + 3) in se and not os.path.exists(no_book),
              "%r %s: %s" % (raw, args[0], se))
    os.remove(path)
bad_root = os.path.join(T.encode(), b"r\x01")
os.makedirs(bad_root)
subprocess.run([b"cp", b"-r", os.path.join(SRC.encode(), b"pricing"), os.path.join(SRC.encode(), b"templates"), bad_root],
               check=True)
p = subprocess.run([TCO.encode(), b"--root", bad_root, b"quotes", b"check", usd_row.encode()], capture_output=True)
check(p.returncode == 65 and b"pricing/fx.ini: the exchange rates' path, which the workbook shows, holds a control "
      b"character" in p.stderr, "a root holding 0x01: fx.ini's path is refused: %r" % p.stderr)

# --- 6. A large catalog: lookups by hash, suggestions looked for once per distinct unknown item ------------
def add_tiers(root, n, fmt):
    """Append n copies of the D-M tier, named fmt % k, to root's cards.ini (without its ranges, so that
    11,000 copies stay within the 250,000 keys of one file)."""
    path = os.path.join(root, "pricing/cards.ini")
    text = open(path, encoding="utf-8").read()
    i = text.index("[D-M]")
    j = text.find("\n[", i + 1)
    body = "\n".join(l for l in text[i:j if j >= 0 else len(text)].split("\n")[1:]
                     if not l.startswith(";") and "_range" not in l)
    with open(path, "a", encoding="utf-8") as f:
        f.write("".join("\n[%s]\n%s\n" % (fmt % k, body) for k in range(n)))


fast_seconds = float(os.environ.get("TCO_QUOTES_FAST_LIMIT", "8"))


def child_cpu():
    """CPU seconds (user + system) of every child process waited for so far, grandchildren included: what
    the guards below compare with their limits.  Not wall time: on a loaded machine (CI next to other builds,
    two cores) a run waits for a core without doing more work, and a guard against a quadratic slip must
    not fail for that."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


root = make_root("big-catalog")
add_tiers(root, 11000, "T%05d")
rows = ["V,D-MM,100,CNY"] + ["V,ZZ%06d,100,CNY" % r for r in range(19997)] + ["V,D-MM,100,CNY", "V,W-X,100,CNY"]
unk = write("unk.csv", HEADER + "\n" + "\n".join(rows) + "\n")
start = child_cpu()
rc, so, se = tco_in(root, "quotes", "check", unk)
seconds = child_cpu() - start
print("quotes check, 11,000 extra tiers x 20,000 unknown rows: %.2f s of CPU" % seconds)
check(rc == 0 and "unk.csv: 20000 rows, 0 errors, 20000 warnings" in so,
      "20,000 unknown rows are 20,000 warnings (a run prices nothing from them and goes on): " + so)
# The table prints the first 1,000 problems of a file and counts the rest; the JSON lists every one.
check("unk.csv: 19000 further problems (0 errors, 19000 warnings) were found and counted but not printed" in se,
      "the table prints 1,000 problems of the file and counts the other 19,000: " + se[-400:])
rc_j, so_j, se_j = tco_in(root, "quotes", "check", unk, "--format", "json")
diagnostics = [p["diagnostic"] for p in json.loads(so_j)["problems"]] if rc_j == 0 else []
check("unk.csv:2: column 2 (item): unknown item 'D-MM' (did you mean 'D-M'?)" in se and
      any("unk.csv:20000: column 2 (item): unknown item 'D-MM' (did you mean 'D-M'?)" in d for d in diagnostics),
      "D-MM (one edit from D-M, two from D-S) gets its suggestion on line 2 and again (cached) on line 20,000")
check(any("unk.csv:20001: column 2 (item): unknown item 'W-X'; expected a card tier" in d for d in diagnostics),
      "W-X, the 19,999th distinct unknown item, is past the 500 searched: no suggestion")
# Distinct unknown items: D-MM, ZZ000000..ZZ019996, W-X = 19,999; searched: the first 500 (D-MM and 499 ZZ);
# rows past them: 19,997 - 499 ZZ rows + W-X = 19,499.
check("note: 19499 rows name unknown items past the first 500 distinct ones" in se, "the unsearched rows are counted")
check(seconds < fast_seconds, "quotes check over 11,000 tiers: %.2f s, expected under %g s of CPU" % (seconds, fast_seconds))
# Names of 63 characters (the edit distance's whole table would be 63 x 63 cells a pair): 11,000 of them
# against 20,000 distinct unknown ones of 63 characters (11.7 s before, when every pair cost the table).
root = make_root("long-catalog")
add_tiers(root, 11000, "A" * 58 + "%05d")
unk = write("unk_long.csv", HEADER + "\n" + "".join("V,%s%06d,100,CNY\n" % ("B" * 57, r) for r in range(20000)))
start = child_cpu()
rc, so, se = tco_in(root, "quotes", "check", unk)
seconds = child_cpu() - start
print("quotes check, 11,000 tiers of 63 characters x 20,000 unknown rows: %.2f s of CPU" % seconds)
check(rc == 0 and "unk_long.csv: 20000 rows, 0 errors, 20000 warnings" in so and "note: 19500 rows name unknown items" in se,
      "20,000 unknown rows of 63 characters, 500 searched: " + so)
check(seconds < fast_seconds, "quotes check over 63-character names: %.2f s, expected under %g s of CPU" %
      (seconds, fast_seconds))

# --- 6. Rows listed on the Quotes sheet: 20,000 in all, each price's best always -----------------------------
root = make_root("many-tiers")
add_tiers(root, 30, "T%02d")
rows = ["V,T%02d,%d,CNY" % (k, 90000 + r) for r in range(1000) for k in range(30)] + ["Cheap,T29,50000,CNY"]
many = write("many.csv", HEADER + "\n" + "\n".join(rows) + "\n")
rc, so, se = tco_in(root, "--scenario", "cluster32", "--as-of", "2026-11-30", "--format", "json", "--out", book,
                    "--force", "--quotes", many)
d = json.loads(so) if rc == 0 else None
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["T29"] == 50000 and
      d["inputs"]["tier_price"]["by_tier"]["T00"] == 90000,
      "the cheapest T29 (row 30,001, past the 20,000 listed) prices T29; T00 takes its first row, 90,000")
quotes_xml = [x for x in sheet_xml(book).split("<?xml") if "<f>F5*H5/IF(" in x]
dim = re.search(r'<dimension ref="A1:S(\d+)"', quotes_xml[0]) if quotes_xml else None
# 4 rows above the list, 20,000 rows listed plus T29's best, a blank row and the note: 20,007.
check(dim is not None and dim.group(1) == "20007", "the Quotes sheet ends at row 20,007: %s" % (dim and dim.group(1)))
check("10000 further rows were read and counted but not listed: the sheet lists at most 1000 rows for each price "
      "quotes set and 1000 for other items, 20000 in all" in "".join(shared_strings(book)),
      "the Quotes sheet says 30,001 - 20,001 = 10,000 rows were counted, not listed")
# The review's case: 1,100 extra tiers x 960 rows (1,056,000 rows, 19 MB): peak memory and time.
root = make_root("many-tiers-big")
add_tiers(root, 1100, "T%04d")
big_many = os.path.join(T, "big_many.csv")
with open(big_many, "w") as f:
    f.write(HEADER + "\n")
    for r in range(960):
        f.write("".join("V,T%04d,%d,CNY\n" % (k, 90000 + r) for k in range(1100)))
start = child_cpu()
# Under a sanitizer build ASan's quarantine of freed memory (256 MiB by default) would be measured, not tco's:
# it is turned off for this run (a plain build ignores ASAN_OPTIONS). Measured: plain 47 MiB, ASan 98 MiB.
asan = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0").lstrip(":"))
p = subprocess.run([PEAK_RSS, TCO, "--root", root, "--scenario", "cluster32", "--quotes", big_many, "--out", book,
                    "--force"], capture_output=True, env=asan)
seconds = child_cpu() - start
m = re.search(r"peak_rss_kib (\d+) exit (\d+)", p.stderr.decode())
kib = int(m.group(1)) if m else 1 << 30
print("1,100 tiers x 960 rows: %.2f s of CPU, peak RSS %.1f MiB" % (seconds, kib / 1024))
check(m is not None and m.group(2) == "0", "1,100 tiers x 960 rows: the run succeeds")
check(kib < 128 * 1024, "1,100 tiers x 960 rows: peak RSS %d KiB, expected under 128 MiB" % kib)
check(seconds < fast_seconds, "1,100 tiers x 960 rows: %.2f s, expected under %g s of CPU" % (seconds, fast_seconds))
os.remove(big_many)

# --- 7. VAT basis (issue 11 §2): a price that includes VAT is converted to the model's ex-VAT basis ---------
# By hand: 113,000 CNY incl. 13% VAT = 113,000 / 1.13 = 100,000 CNY ex VAT (dc8, cluster32's host);
# 12,100 USD incl. 6% VAT at 7.1 CNY/USD = 12,100 x 7.1 / 1.06 = 81,047.1698... CNY ex VAT (the D-M row);
# vat_included = no keeps the price as written (the rate is shown, not applied); blank means no.
vat_csv = write("vat.csv", "quote_id,vendor,item,unit_price,currency,vat_included,vat_rate\n"
                "V1,Huaxin,dc8,\"113,000\",CNY,yes,0.13\nV2,Lion,D-M,\"12,100\",USD,YES,0.06\n"
                "V3,Other,switch,\"100,000\",CNY,no,0.13\nV4,Other,optic,\"2,000\",CNY,,\n")
vat_book = os.path.join(T, "vat.xlsx")
rc, so, se = tco("--scenario", "cluster32", "--as-of", "2026-11-30", "--format", "json", "--out", vat_book,
                 "--force", "--quotes", vat_csv)
d = json.loads(so) if rc == 0 else None
check(d is not None and abs(d["inputs"]["host_price"]["value"] - 100000) < 1e-9,
      "113,000 CNY incl. 13%% VAT prices dc8 at 100,000 CNY ex VAT: %s" % (d and d["inputs"]["host_price"]))
check(d is not None and d["inputs"]["tier_price"]["by_tier"]["D-M"] == 12100 * 7.1 / 1.06,
      "12,100 USD incl. 6% VAT at 7.1 = 12,100 x 7.1 / 1.06 CNY prices the D-M row")
check(d is not None and d["inputs"]["switch_price"]["value"] == 100000 and d["inputs"]["optic_price"]["value"] == 2000,
      "vat_included = no (or blank): the price as written")
check(d is not None and "113000 CNY incl. 13% VAT / 1.13 = 100000 CNY ex VAT" in d["inputs"]["host_price"]["source"],
      "the source states the VAT taken out: %s" % (d and d["inputs"]["host_price"]["source"]))
xml_text = sheet_xml(vat_book) if rc == 0 else ""
check("<f>'Quotes'!$F$5/(1+'Quotes'!$J$5)</f>" in xml_text and
      "<f>'Quotes'!$F$6*fx_usd/(1+'Quotes'!$J$6)</f>" in xml_text and "<f>'Quotes'!$F$7</f>" in xml_text,
      "quoted inputs divide by 1 + the quote's VAT rate on the Quotes sheet, only where the price includes VAT")
check('<f>F6*H6/IF(I6="yes",1+J6,1)</f><v>81047.16981132075</v>' in xml_text,
      "the Quotes sheet's converted price is ex VAT, a live formula")
strings = shared_strings(vat_book) if rc == 0 else []
check("VAT included" in strings and "VAT rate" in strings and "Converted ex VAT (CNY)" in strings,
      "the Quotes sheet shows both VAT columns")
p = subprocess.run([sys.executable, os.path.join(SRC, "tests/recalc.py"), "check", "--app",
                    os.environ.get("TCO_RECALC_APPS", "both"), vat_book], capture_output=True)
check(p.returncode == 0, "the VAT workbook recalculates with 0 mismatches: %s" % p.stdout.decode()[-400:])
# The same in USD: each price over fx_report too.
rc, so, se = tco("--scenario", "cluster32", "--as-of", "2026-11-30", "--format", "json", "--out", vat_book,
                 "--force", "--currency", "USD", "--quotes", vat_csv)
d = json.loads(so) if rc == 0 else None
check(d is not None and abs(d["inputs"]["host_price"]["value"] - 113000 / 1.13 / 7.1) < 1e-9,
      "in USD: 113,000 / 1.13 / 7.1 USD ex VAT")
p = subprocess.run([sys.executable, os.path.join(SRC, "tests/recalc.py"), "check", "--app",
                    os.environ.get("TCO_RECALC_APPS", "both"), vat_book], capture_output=True)
check(p.returncode == 0, "the USD VAT workbook recalculates: %s" % p.stdout.decode()[-400:])
# Bad values: named by file:line and column.
for body, want in (("A,D-M,1,CNY,maybe,0.13", "vatbad.csv:2: column 5 (vat_included): expected yes or no, found 'maybe'"),
                   ("A,D-M,1,CNY,yes,13", "vatbad.csv:2: column 6 (vat_rate): expected a VAT rate as a share from 0 to 1"),
                   ("A,D-M,1,CNY,yes,", "vatbad.csv:2: column 6 (vat_rate): the price includes VAT (vat_included = yes)"),
                   ("A,D-M,1,CNY,no,-0.1", "vatbad.csv:2: column 6 (vat_rate): expected a VAT rate as a share")):
    bad = write("vatbad.csv", HEADER + ",vat_included,vat_rate\n" + body + "\n")
    rc, so, se = tco("quotes", "check", bad)
    check(rc == 65 and want in se, "quotes check refuses %r: %s" % (body, se))
    rc, so, se = tco("--scenario", "cluster32", "--quotes", bad, "--out", os.path.join(T, "no.xlsx"))
    check(rc == 65 and want in se and not os.path.exists(os.path.join(T, "no.xlsx")),
          "a run refuses %r: %s" % (body, se))
rc, so, se = tco("quotes", "check", write("vatnorate.csv", HEADER + ",vat_included\nA,D-M,1,CNY,yes\n"))
check(rc == 65 and "vatnorate.csv:2: column 5 (vat_included): the price includes VAT, but the file has no "
      "vat_rate column" in se, "vat_included = yes without a vat_rate column is refused: " + se)

# --- 6. A 256 MiB field: stopped at the limit, flat memory, seconds ---------------------------------------
big = os.path.join(T, "big.csv")
with open(big, "wb") as f:  # streamed to disk, 1 MiB at a time
    f.write((HEADER + ",notes\nA,D-M,90000,CNY,\"").encode())
    block = b"x" * (1 << 20)
    for _ in range(256):
        f.write(block)
    f.write(b"\"\n")
limit_rss_kib = 64 * 1024
limit_seconds = float(os.environ.get("TCO_QUOTES_TIME_LIMIT", "30"))
for args in (["quotes", "check", big], ["--scenario", "cluster32", "--quotes", big, "--out", os.path.join(T, "no.xlsx")]):
    start = child_cpu()
    p = subprocess.Popen([TCO, "--root", SRC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    seconds = child_cpu() - start
    err = err.decode()
    check(p.returncode == 65 and "big.csv:2: column 5 (notes): more than 32,767 characters" in err,
          "%s: the 256 MiB field is refused at its line and column: %s" % (args[0], err))
    check(not os.path.exists(os.path.join(T, "no.xlsx")), "no workbook after a refused quote file")
    check(seconds < limit_seconds, "%s: %.2f s of CPU, expected under %g s" % (args[0], seconds, limit_seconds))
os.remove(big)
# Peak memory of one run, measured for that process alone (tests/peak_rss.c: wait4's ru_maxrss).
with open(big, "wb") as f:
    f.write((HEADER + ",notes\nA,D-M,90000,CNY,").encode())
    block = b"y" * (1 << 20)
    for _ in range(256):
        f.write(block)
    f.write(b"\n")
for args in (["quotes", "check", big], ["--scenario", "cluster32", "--quotes", big, "--out", os.path.join(T, "no.xlsx")]):
    p = subprocess.run([PEAK_RSS, TCO, "--root", SRC, *args], capture_output=True)
    m = re.search(r"peak_rss_kib (\d+) exit (\d+)", p.stderr.decode())
    check(m is not None and m.group(2) == "65", "%s: the unquoted 256 MiB field is refused" % args[0])
    kib = int(m.group(1)) if m else 1 << 30
    check(kib < limit_rss_kib, "%s: peak RSS %d KiB on a 256 MiB field, expected under %d KiB" %
          (args[0], kib, limit_rss_kib))
    print("256 MiB field, %s: peak RSS %.1f MiB" % (args[0], kib / 1024))
os.remove(big)

# --- quotes check --format json (issue 12, part 6): every problem with file, line, column ---------
# Hand-made files whose problems sit at known places.  Lines count as an editor shows them: the row
# of "B, with a / newline" starts on line 3 and the next row is on line 5.
bad = write("places.csv",
            "vendor,item,unit_price,currency,valid_until,colour\n"   # 1: column 6 is unknown (a warning)
            "A,D-M,\"12,50\",CNY,2026-12-31,red\n"                   # 2: column 3, a price that is no number
            "\"B, with a\nnewline\",D-M,100,XYZ,2026-12-31,\n"       # 3-4: column 4, no rate for XYZ (a warning)
            "C,D-M,100,CNY\n"                                        # 5: 4 fields for 6: no column
            "D,D-M,100,CNY,2026-02-30,\n"                            # 6: column 5, no such day
            "E,W-Bx,100,CNY,2026-12-31,\n")                          # 7: column 2, unknown item (a warning)
cr = write("cr.csv", HEADER + "\rA,D-M,1,CNY\rB,D-M,x,CNY\r")        # CR line ends: line 3, column 3
unclosed = write("unclosed.csv", HEADER + "\nA,D-M,1,CNY\nB,\"D-M,1,CNY\n")  # a quote opened on line 3, column 2
utf16 = write("utf16.csv", (HEADER + "\n").encode("utf-16"))
want = {
    bad: [(1, 6, None, "warning", "unknown column 'colour' is ignored"),
          (2, 3, "unit_price", "error", "expected ',' only between groups of three digits"),
          (3, 4, "currency", "warning", "no exchange rate for XYZ in "),
          (5, None, None, "error", "expected 6 fields as in the header, found 4"),
          (6, 5, "valid_until", "error", "no such day: '2026-02-30' (February 2026 has 28 days)"),
          (7, 2, "item", "warning", "unknown item 'W-Bx' (did you mean 'W-B'?); a run takes no price from it")],
    cr: [(3, 3, "unit_price", "error", "expected a price such as 12500 or 12,500.00, found 'x'")],
    unclosed: [(3, 2, None, "error", "a quoted field opened here is never closed")],
    utf16: [(None, None, None, "error", "the file is UTF-16")],
}
rc_t, so_t, se_t = tco("quotes", "check", bad, cr, unclosed, utf16)
rc, so, se = tco("quotes", "check", bad, cr, unclosed, utf16, "--format", "json")
check(rc == 65 and rc_t == 65, "quotes check --format json: exit %d (table form %d), expected 65" % (rc, rc_t))
check(se == "", "quotes check --format json: standard error is not empty: " + se)
try:
    doc = json.loads(so)
except ValueError as e:
    doc = None
    check(False, "quotes check --format json: not JSON (%s): %s" % (e, so[:300]))
if doc:
    got = {}
    for p in doc["problems"]:
        got.setdefault(p["file"], []).append(p)
    for path, expected in want.items():
        rows = got.get(path, [])
        check(len(rows) == len(expected), "%s: %d problems, expected %d: %r" % (path, len(rows), len(expected), rows))
        for p, (line, col, name, severity, text) in zip(rows, expected):
            check((p["line"], p["column"], p["column_name"], p["severity"]) == (line, col, name, severity) and
                  p["message"].startswith(text),
                  "%s: %r, expected line %s, column %s (%s), %s, %r" % (path, p, line, col, name, severity, text))
            place = path + (":%d" % line if line else "") + ": " + ("column %d%s: " % (col, " (%s)" % name if name
                                                                                        else "") if col else "")
            check(p["diagnostic"] == place + p["message"], "%s: diagnostic %r is not %r + message" %
                  (path, p["diagnostic"], place))
    # The same problems, word for word, as the table form prints them on standard error.
    table = [("warning: " if p["severity"] == "warning" else "") + p["diagnostic"] for p in doc["problems"]]
    check(table == se_t.splitlines(), "JSON diagnostics differ from the table form:\n%s\n%s" %
          ("\n".join(table), se_t))
    files = [(f["file"], f["rows"], f["errors"], f["warnings"]) for f in doc["files"]]
    # places.csv: 3 errors (lines 2, 5, 6) and 3 warnings (the column, XYZ without a rate, W-Bx)
    check(files == [(bad, 5, 3, 3), (cr, 2, 1, 0), (unclosed, 1, 1, 0), (utf16, 0, 1, 0)], "files: %r" % files)
    plural = lambda n, word: "%d %s%s" % (n, word, "" if n == 1 else "s")
    check(so_t.splitlines() == ["%s: %s, %s, %s" % (f[0], plural(f[1], "row"), plural(f[2], "error"),
                                                    plural(f[3], "warning")) for f in files],
          "the table form's summary lines differ from the JSON's files: %r" % so_t)
    check((doc["errors"], doc["warnings"]) == (6, 3), "totals: %r" % ((doc["errors"], doc["warnings"]),))
# The place comes from the diagnostic's fields, never from its text: a repeated column written in
# capitals ("Vendor") still has its line, column and name, and the message is the text after them.
dup = write("dup.csv", "vendor,Vendor,item,unit_price,currency\nA,A,D-M,1,CNY\n")
rc, so, se = tco("quotes", "check", dup, "--format", "json")
d = json.loads(so) if rc == 65 else None
p = d["problems"][0] if d and d["problems"] else {}
check((p.get("line"), p.get("column"), p.get("column_name"), p.get("message")) ==
      (1, 2, "Vendor", "the column 'vendor' appears twice (first as column 1)") and
      p.get("diagnostic") == dup + ":1: column 2 (Vendor): " + p.get("message", ""),
      "quotes check --format json, a repeated column: exit %d: %s" % (rc, so + se))
# Exit codes as the table form: 0 for a good file, 66 for a missing one (an error with no line).
# On 2026-10-31 (EU-7731's last day) the example's rows quoted later (EU-7732 2026-11-01, SG-55 2026-11-10,
# Q-2026-140/141 2026-11-01, Q-2026-150 2026-11-05, X-1 2026-11-01) are not yet valid: 6 warnings, no error.
rc, so, se = tco("quotes", "check", "--format=json", os.path.join(SRC, "pricing", "example-quotes.csv"),
                 "--as-of=2026-10-31")
d = json.loads(so) if rc == 0 else None
check(d is not None and [p["line"] for p in d["problems"]] == [5, 6, 7, 8, 9, 10] and d["errors"] == 0 and
      d["warnings"] == 6 and d["files"][0]["rows"] == 9,
      "quotes check --format=json on the example: exit %d: %s" % (rc, so + se))
missing = os.path.join(T, "missing.csv")
rc, so, se = tco("quotes", "check", "-f", "json", missing)
d = json.loads(so) if so else None
check(rc == 66 and d is not None and d["problems"][0]["line"] is None and
      d["problems"][0]["message"].startswith("cannot open") and d["files"] == [
          {"file": missing, "rows": 0, "errors": 1, "warnings": 0}], "missing file: exit %d: %s" % (rc, so + se))
rc, so, se = tco("quotes", "check", missing)
check(rc == 66 and so == missing + ": 0 rows, 1 error, 0 warnings\n" and se.startswith("tco: " + missing),
      "missing file, table form: exit %d: %r %r" % (rc, so, se))
for args, msg in ((["--format", "csv", bad], "quotes check --format: expected table or json, found 'csv'"),
                  (["--bogus", bad], "quotes check: unknown option '--bogus'"),
                  (["--format"], "option '--format' needs a value")):
    rc, so, se = tco("quotes", "check", *args)
    check(rc == 64 and so == "" and msg in se, "quotes check %s: exit %d: %s" % (" ".join(args), rc, se))
# "--" ends the options: a file named like one is read.
dash = write("--format", HEADER + "\nA,D-M,1,CNY\n")
p = subprocess.run([TCO, "--root", SRC, "quotes", "check", "--", "--format"], capture_output=True, text=True, cwd=T)
check(p.returncode == 0 and p.stdout == "--format: 1 row, 0 errors, 0 warnings\n",
      "quotes check -- --format: exit %d: %s" % (p.returncode, p.stdout + p.stderr))

subprocess.run(["rm", "-rf", T])
print("%d passed, %d failed" % (passes, len(failures)))
sys.exit(1 if failures else 0)
