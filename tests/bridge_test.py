#!/usr/bin/env python3
"""bridge_test.py - tco diff, the budget bridge (issue 14 section 5; docs/bridge.md).

Usage: bridge_test.py TCO_BINARY SOURCE_ROOT [--app gnumeric|libreoffice|both]

OLD is cluster32 as shipped; NEW is cluster32 with --set facility.electricity_price=0.85 (from 0.7) and
--set card.price=88000 (the D-M row of the tier table, from 95,000).  By hand, from the catalog:

  electricity: the facility draws IT load x PUE, all year, every operating year (templates/tco.ini
  [line.electricity]: operating_year x facility_power_kw x hours_per_year x electricity_price).  The IT
  load (line it_load_kw) is
      32 cards x 700 W x 0.9 utilisation          20,160 W
      4 hosts x 4,600 W base power                18,400 W
      1 leaf switch x 1,500 W                      1,500 W
      100 TB storage x 8 W/TB                        800 W
      4 hosts x 50 W management                      200 W
                                                  41,060 W = 41.06 kW
  so 0.15 CNY/kWh more costs 41.06 kW x 1.3 PUE x 8,760 h x 3 years x 0.15 = 210,416.076 CNY (VAT on
  electricity is recovered: not a cost).
  card price: 33 cards bought (32 in service + 1 spare held) x -7,000 CNY = -231,000 CNY of capex, and
  support is 5%/yr of hardware capex for 3 years: -231,000 x (1 + 0.15) = -265,650 CNY.
So by effect the card price comes first (|-265,650| > 210,416.076), in file order the electricity price
(the template lists it before the tier table); either way the steps add up to NEW - OLD exactly.
Prints one line per failure; the last line is "N passed, N failed".
"""
import json, os, re, shutil, subprocess, sys, tempfile, zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402
import recalc  # noqa: E402

TCO, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
APP = sys.argv[sys.argv.index("--app") + 1] if "--app" in sys.argv else "gnumeric"
ELECTRICITY = 41.06 * 1.3 * 8760 * 3 * 0.15   # 210,416.076 CNY
CARD = 33 * (88000 - 95000) * (1 + 3 * 0.05)  # -265,650 CNY


def near(a, b, tol=1e-6):
    return a is not None and b is not None and abs(a - b) <= tol


def tco(*args, want=0, cwd=None):
    r = subprocess.run([TCO, *args], capture_output=True, text=True, cwd=cwd)
    check(r.returncode == want, "tco %s: exit %d, expected %d: %s" % (" ".join(args), r.returncode, want,
                                                                      r.stderr[-500:]))
    return r


def summary(path, *sets):
    """Write tco --scenario ... --format json to @p path; return the parsed summary."""
    r = tco("--root", SRC, "--no-workbook", "--format", "json", *sets)
    with open(path, "w") as fh:
        fh.write(r.stdout)
    return json.loads(r.stdout)


def diff(old, new, *extra, want=0):
    r = tco("diff", old, new, "--root", SRC, "--format", "json", *extra, want=want)
    return json.loads(r.stdout) if want == 0 else r


def error_as_data(r, path):
    """A refused tco diff --format json prints its error on stdout as data (docs/json.md, "A failed run"):
    the line stderr prints after "tco: ", and the file it names."""
    err = json.loads(r.stdout).get("error", {}) if r.stdout.startswith("{") else {}
    return err.get("diagnostic") == r.stderr[len("tco: "):].rstrip("\n") and err.get("file") == path


def adds_up(d, old, new, what):
    """The deltas, added as the JSON gives them, are NEW - OLD exactly, from the files' own TCOs."""
    total = 0.0
    for s in d["steps"]:
        total += s["delta"]
    check(total == new["tco"] - old["tco"], "%s: the deltas add up to %r, NEW - OLD is %r" %
          (what, total, new["tco"] - old["tco"]))
    check(d["tco_from"] == old["tco"] and d["tco_to"] == new["tco"],
          "%s: the bridge runs from %r to %r, the files say %r and %r" %
          (what, d["tco_from"], d["tco_to"], old["tco"], new["tco"]))
    check(d["exact"] is True, "%s: exact is %r" % (what, d["exact"]))
    running = d["tco_from"]
    for s in d["steps"]:
        running += s["delta"]
        check(running == s["tco"], "%s: step %s: running TCO %r, the step says %r" % (what, s["input"], running,
                                                                                       s["tco"]))


def kinds(d):
    return sorted((o["kind"], o["input"]) for o in d["other"])


def siphash24(k0, k1, data):
    """SipHash-2-4 (Aumasson and Bernstein 2012), written from the paper's description, to check the
    template fingerprint independently of engine/base/names.c."""
    mask = (1 << 64) - 1
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d, k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]

    def rotl(x, b):
        return ((x << b) | (x >> (64 - b))) & mask

    def rnd():
        v[0] = (v[0] + v[1]) & mask; v[1] = rotl(v[1], 13) ^ v[0]; v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & mask; v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & mask; v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & mask; v[1] = rotl(v[1], 17) ^ v[2]; v[2] = rotl(v[2], 32)

    end = len(data) - len(data) % 8
    for i in range(0, end, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v[3] ^= m
        rnd(); rnd()
        v[0] ^= m
    m = int.from_bytes(data[end:], "little") | ((len(data) & 0xff) << 56)
    v[3] ^= m
    rnd(); rnd()
    v[0] ^= m
    v[2] ^= 0xff
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def in_usd(tmp, p, cny, usd):
    """Two runs in USD (fx.ini: 7.1 CNY per USD).  Each money input is its CNY value over the rate, so a new
    rate moves every money figure and changes no price: one step, fx_report.  By hand, the USD TCO is the CNY
    TCO over the rate (tco.ini's formulas are linear in the money inputs), so the step is
    TCO_CNY / 7.5 - TCO_CNY / 7.1, with TCO_CNY from the CNY run of cluster32 (7,724,461.688)."""
    fx = summary(p("usd75.json"), "--scenario", "cluster32", "--currency", "USD", "--set", "fx.usd=7.5")
    d = diff(p("usd.json"), p("usd75.json"))
    steps = [(s["input"], s["set"], s["from"], s["to"], s["unit"]) for s in d["steps"]]
    check(steps == [("fx_report", "fx.usd", 7.1, 7.5, "CNY/USD")], "USD, rate 7.1 -> 7.5: steps %r" % steps)
    check(d["other"] == [] and d["currency"] == "USD", "USD, rate: other %r" % d["other"])
    adds_up(d, usd, fx, "USD, rate")
    if len(d["steps"]) == 1:
        delta, hand = d["steps"][0]["delta"], cny["tco"] / 7.5 - cny["tco"] / 7.1
        check(delta == fx["tco"] - usd["tco"], "USD, rate: delta %r, NEW - OLD %r" % (delta, fx["tco"] - usd["tco"]))
        check(abs(delta - hand) <= 1e-9 * abs(hand), "USD, rate: delta %r, by hand %r" % (delta, hand))
    t = tco("diff", "usd.json", "usd75.json", "--root", SRC, cwd=tmp).stdout
    check(re.search(r"\nfx_report +7\.1 +7\.5 +-58,024 +1,029,928  CNY/USD\n", t) and "1 step;" in t,
          "USD, rate: the table shows the rates as given and one step:\n" + t)

    # A price changed in CNY and the rate: two steps.  The card price is its own step, -265,650 CNY (above)
    # at the rate in force when it moves: by effect after the rate (|-58,024| > |-265,650 / 7.1|), so at 7.5;
    # in file order first (the template lists the tier table before fx_report, which tco adds last), at 7.1.
    both = summary(p("usd75c.json"), "--scenario", "cluster32", "--currency", "USD", "--set", "fx.usd=7.5",
                   "--set", "card.price=88000")
    for order, want, rate in (("effect", ["fx_report", "tier_price"], 7.5), ("file", ["tier_price", "fx_report"], 7.1)):
        b = diff(p("usd.json"), p("usd75c.json"), "--order", order)
        check([s["input"] for s in b["steps"]] == want, "USD, %s order: steps %r" % (order, b["steps"]))
        adds_up(b, usd, both, "USD, price and rate, %s order" % order)
        price = [s for s in b["steps"] if s["input"] == "tier_price"]
        if len(b["steps"]) == 2 and price:
            s = price[0]
            check((s["tier"], s["set"], s["from"], s["to"], s["unit"]) == ("D-M", "D-M.price", 95000, 88000, "CNY/card"),
                  "USD, %s order: the price step in CNY, as --set takes it: %r" % (order, s))
            check(near(s["delta"], CARD / rate), "USD, %s order: price step %r, by hand %r / %r = %r" %
                  (order, s["delta"], CARD, rate, CARD / rate))

    # The JSON gives each money input's CNY value ("given"), the units its --set key takes: --set SET=given
    # reproduces the run, and --set SET=value (USD) does not.
    h = summary(p("usdh.json"), "--scenario", "cluster32", "--currency", "USD", "--set", "host.price=230000")
    e = h["inputs"]["host_price"]
    check(e.get("given") == 230000 and near(e["value"], 230000 / 7.1, 1e-9), "USD host_price %r" % e)
    again = summary(p("again.json"), "--scenario", "cluster32", "--currency", "USD", "--set",
                    "%s=%r" % (e["set"], e.get("given")))
    check("%.16G" % again["tco"] == "%.16G" % h["tco"], "--set host.price=given gives %r, the run %r" %
          (again["tco"], h["tco"]))
    wrong = summary(p("wrong.json"), "--scenario", "cluster32", "--currency", "USD", "--set",
                    "%s=%r" % (e["set"], e["value"]))
    check(wrong["tco"] < h["tco"] - 10000, "--set host.price=<the USD value> is taken as CNY: %r" % wrong["tco"])

    # A USD summary without "given" (written by an older tco) is refused, naming the file and the input.
    older = json.loads(json.dumps(usd))
    del older["inputs"]["host_price"]["given"]
    with open(p("older.json"), "w") as fh:
        json.dump(older, fh)
    r = diff(p("older.json"), p("usd75.json"), want=65)
    check("older.json: inputs.host_price: a money input of a run in USD without \"given\"" in r.stderr and
          error_as_data(r, p("older.json")), "older USD file: %r %r" % (r.stderr, r.stdout))


def edited(p, base, name, change):
    """Write a copy of summary @p base, changed by @p change (a function of the copy), to @p name."""
    d = json.loads(json.dumps(base))
    change(d)
    with open(p(name), "w") as fh:
        json.dump(d, fh)
    return p(name)


def hostile(tmp, p, old, usd):
    """Hand-edited and one-sided files: each difference said, each bad value refused in --set's terms."""
    # A tier row in one file only is said from either side, by the rows the bridge compares: a USD file's
    # money rows are its given_by_tier (CNY), not its by_tier (USD).
    def drop(d):
        del d["inputs"]["tier_price"]["given_by_tier"]["D-M"]
    m = edited(p, usd, "m.json", drop)
    for a, b, kind in ((m, p("usd.json"), "only_in_new"), (p("usd.json"), m, "only_in_old")):
        got = kinds(diff(a, b))
        check(got == [(kind, "tier_price [D-M]")], "given_by_tier without D-M, %s: other %r" % (kind, got))

    def extra(d):
        d["inputs"]["tier_price"]["given_by_tier"]["D-X"] = 1000
    x = edited(p, usd, "x.json", extra)
    got = kinds(diff(p("usd.json"), x))
    check(got == [("only_in_new", "tier_price [D-X]")], "a tier row only in NEW's given_by_tier: other %r" % got)

    # The table of a USD bridge says the unit of From and To (a money input's CNY, as --set takes it) and that
    # the deltas are in USD: the card price, 95,000 -> 88,000 CNY per card, moves the TCO by -265,650 CNY at
    # 7.5 CNY per USD = -35,420 USD.
    t = tco("diff", "usd.json", "usd75c.json", "--root", SRC, cwd=tmp).stdout
    check(re.search(r"\nInput +From +To +Delta +Running TCO +Unit\n", t) and
          re.search(r"\ntier_price \[D-M\] +95,000 +88,000 +-35,420 +[0-9,]+ +CNY/card\n", t) and
          re.search(r"\nfx_report +7\.1 +7\.5 +-58,024 +1,029,928 +CNY/USD\n", t) and
          "(money in CNY); Delta and Running TCO in USD." in t, "USD table: the units of From and To:\n" + t)
    book = p("usd-bridge.xlsx")
    tco("diff", p("usd.json"), p("usd75c.json"), "--root", SRC, "--out", book)
    sheet = recalc.read_cells(book)[0]["Bridge"]
    head = {v[2]: ref for ref, v in sheet.items() if ref[1:] == "4" and v[2]}
    unit_col = head.get("Unit") and re.match(r"[A-Z]+", head["Unit"]).group(0)
    price = [ref for ref, v in sheet.items() if ref.startswith("A") and str(v[2]).find("tier_price [D-M]") >= 0]
    check(unit_col and price and sheet.get(unit_col + price[0][1:], (0, 0, None))[2] == "CNY/card",
          "the Bridge sheet's Unit column: heads %r, price row %r" % (head, price))
    os.remove(book)

    # A value that disagrees with its given over fx_report (edited by hand) is said, naming the file: the
    # bridge moves money by given, so the value is not what it compares.
    def cheap(d):
        d["inputs"]["electricity_price"]["value"] = 0.2
    h = edited(p, usd, "h.json", cheap)
    for a, b in ((p("usd.json"), h), (h, p("usd.json"))):
        o = diff(a, b)
        got = [x for x in o["other"] if x["kind"] == "value_not_given"]
        check(len(got) == 1 and got[0]["input"] == "electricity_price" and "h.json" in got[0]["message"] and
              "0.2" in got[0]["message"] and "0.7" in got[0]["message"], "a hand-edited value: other %r" % o["other"])
        check(o["steps"] == [], "a hand-edited value moves nothing: %r" % o["steps"])

    def cheap_row(d):
        d["inputs"]["tier_price"]["by_tier"]["D-M"] = 1
    got = kinds(diff(p("usd.json"), edited(p, usd, "hr.json", cheap_row)))
    check(got == [("value_not_given", "tier_price [D-M]")], "a hand-edited tier row value: other %r" % got)

    # A value the model refuses is refused in the units --set takes, with the bounds, as --set says it.
    def negative(d):
        d["inputs"]["electricity_price"]["given"] = -1
    r = diff(p("usd.json"), edited(p, usd, "neg.json", negative), want=65)
    check("neg.json: inputs.electricity_price: expected a number >= 0 CNY/kWh, found -1" in r.stderr and
          error_as_data(r, p("neg.json")), "a negative given: %r %r" % (r.stderr, r.stdout))

    def no_rate(d):
        d["inputs"]["fx_report"]["value"] = 0
    r = diff(edited(p, usd, "rate0.json", no_rate), p("usd.json"), want=65)
    check("rate0.json: inputs.fx_report: expected a number >= 1e-06 and <= 1000000 CNY/USD, found 0" in r.stderr,
          "a rate of 0: %r" % r.stderr)

    # A quote's rate (fx_usd: an input only of a run with --quotes) is said as such, not as a template change.
    quotes = ("--quotes", os.path.join(SRC, "pricing", "example-quotes.csv"), "--as-of", "2026-11-30")
    summary(p("q.json"), "--scenario", "cluster32", *quotes)
    summary(p("q2.json"), "--scenario", "cluster32", *quotes, "--set", "fx.usd=7.3")
    for a, b in ((p("q.json"), p("q2.json")), (p("old.json"), p("q.json"))):
        o = diff(a, b)
        got = [x for x in o["other"] if x["input"] == "fx_usd"]
        check(len(got) == 1 and got[0]["kind"] == "quote_rate" and "--quotes" in got[0]["message"] and
              "no such input now" not in got[0]["message"], "a quote rate: %r" % got)

    # Money is compared in CNY: a USD quote priced at a new rate is a price step beside the rate's.  SG-55,
    # 12,100 USD, is 85,910 CNY at 7.1 and 87,120 at 7.2: 33 cards (the spare too) x 1,210 CNY x 1.15
    # (support) over 7.2.
    summary(p("qa.json"), "--scenario", "cluster32", "--currency", "USD", *quotes)
    summary(p("qb.json"), "--scenario", "cluster32", "--currency", "USD", *quotes, "--set", "fx.usd=7.2")
    o = diff(p("qa.json"), p("qb.json"))
    got = [(s["input"], s.get("tier"), s["from"], s["to"]) for s in o["steps"]]
    check(got == [("fx_report", None, 7.1, 7.2), ("tier_price", "D-M", 85910, 87120)] and o["other"] == [],
          "a USD quote at a new rate: steps %r, other %r" % (got, o["other"]))
    if len(got) == 2:
        check(near(o["steps"][1]["delta"], 33 * 1210 * 1.15 / 7.2), "the quoted price's step %r, by hand %r" %
              (o["steps"][1]["delta"], 33 * 1210 * 1.15 / 7.2))

    # A huge TCO typed into NEW: the difference is said in a few digits, not 309.
    big = edited(p, old, "big.json", lambda d: d.update(tco=1e308))
    o = diff(p("old.json"), big)
    msg = " ".join(x["message"] for x in o["other"] if x["kind"] == "new_not_reproduced")
    check(msg and not re.search(r"[0-9]{30}", msg), "a TCO of 1e308: %r" % msg)
    t = tco("diff", p("old.json"), big, "--root", SRC).stdout
    check(not re.search(r"[0-9]{30}", t), "a TCO of 1e308 in the table:\n" + t)

    # A currency that is not a text, or that is not the one the inputs were reported in, is refused.
    r = diff(edited(p, usd, "c5.json", lambda d: d.update(currency=5)), p("usd.json"), want=65)
    check("c5.json: currency: not a text" in r.stderr, "currency 5: %r" % r.stderr)
    r = diff(edited(p, old, "ceur.json", lambda d: d.update(currency="USD")), p("usd.json"), want=65)
    check("ceur.json: \"currency\" is USD, and inputs.currency is CNY" in r.stderr, "currency vs inputs: %r" % r.stderr)


def main():
    tmp = tempfile.mkdtemp()
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp)
    finish()


def run(tmp):
    p = lambda name: os.path.join(tmp, name)  # noqa: E731
    old = summary(p("old.json"), "--scenario", "cluster32")
    new = summary(p("new.json"), "--scenario", "cluster32", "--set", "facility.electricity_price=0.85",
                  "--set", "card.price=88000")

    # The JSON summary carries what reproduces a run: each input's --set key, and the template's identity.
    check(old["inputs"]["electricity_price"]["set"] == "facility.electricity_price", "electricity_price's set")
    check(old["inputs"]["card_count"]["set"] == "scenario.cards", "card_count's set")
    check(old["inputs"]["tier_price"]["set_by_tier"]["D-M"] == "D-M.price", "tier_price's D-M row set")
    with open(os.path.join(SRC, "templates", "tco.ini"), "rb") as fh:
        want = "%016x" % siphash24(int.from_bytes(b"tco fing", "big"), int.from_bytes(b"erprint.", "big"), fh.read())
    check(old["template"] == {"file": "templates/tco.ini", "fingerprint": want},
          "template identity %r, expected fingerprint %s" % (old.get("template"), want))

    # Largest effect first: the card price, then the electricity price, each the hand figure.
    d = diff(p("old.json"), p("new.json"))
    steps = [(s["input"], s.get("tier"), s["set"], s["from"], s["to"]) for s in d["steps"]]
    check(steps == [("tier_price", "D-M", "D-M.price", 95000, 88000),
                    ("electricity_price", None, "facility.electricity_price", 0.7, 0.85)],
          "steps by effect: %r" % steps)
    if len(d["steps"]) == 2:
        check(near(d["steps"][0]["delta"], CARD), "card price step %r, by hand %r" % (d["steps"][0]["delta"], CARD))
        check(near(d["steps"][1]["delta"], ELECTRICITY),
              "electricity step %r, by hand %r" % (d["steps"][1]["delta"], ELECTRICITY))
        check(near(d["steps"][1]["alone"], ELECTRICITY), "electricity alone from OLD %r" % d["steps"][1]["alone"])
        # A step's set key reproduces it: --set D-M.price=88000 alone gives the TCO after step 1.
        one = summary(p("one.json"), "--scenario", "cluster32", "--set", "D-M.price=88000")
        check("%.16G" % one["tco"] == "%.16G" % d["steps"][0]["tco"],
              "--set D-M.price=88000 gives %r, the bridge after step 1 %r" % (one["tco"], d["steps"][0]["tco"]))
    adds_up(d, old, new, "by effect")
    check(d["other"] == [], "other differences: %r" % d["other"])
    check(d["from"] == p("old.json") and d["to"] == p("new.json") and d["order"] == "effect", "from, to, order")

    # File order: the electricity price first (the template lists it before the tier table).
    f = diff(p("old.json"), p("new.json"), "--order", "file")
    check([s["input"] for s in f["steps"]] == ["electricity_price", "tier_price"],
          "steps in file order: %r" % [s["input"] for s in f["steps"]])
    if len(f["steps"]) == 2:
        check(near(f["steps"][0]["delta"], ELECTRICITY) and near(f["steps"][1]["delta"], CARD),
              "file order deltas %r" % [s["delta"] for s in f["steps"]])
    adds_up(f, old, new, "file order")

    # The terminal table names each step, from, to and the delta.
    t = tco("diff", "old.json", "new.json", "--root", SRC, cwd=tmp).stdout
    for text in ["tier_price [D-M]   95,000  88,000  -265,650    7,458,812",
                 "electricity_price     0.7    0.85  +210,416    7,669,228", "NEW - OLD", "-55,234"]:
        check(text in t, "the table lacks %r:\n%s" % (text, t))

    # A value of many digits is shown to 6 significant digits (1.2345678 as 1.23457), the JSON keeps it whole.
    summary(p("pue.json"), "--scenario", "cluster32", "--set", "facility.pue=1.2345678")
    t = tco("diff", "old.json", "pue.json", "--root", SRC, cwd=tmp).stdout
    check(re.search(r"\npue +1\.3 +1\.23457 +-", t), "the table shows 1.2345678 as 1.23457:\n" + t)
    check(diff(p("old.json"), p("pue.json"))["steps"][0]["to"] == 1.2345678, "the JSON keeps 1.2345678")

    # Inputs on one side only, and a template that changed, are listed under other, never moved.
    one_sided = dict(new)
    one_sided["inputs"] = {k: v for k, v in new["inputs"].items() if k != "w_consumer_compute"}
    one_sided["inputs"]["made_up"] = {"label": "Not in the model", "unit": "CNY", "value": 1, "source": "hand",
                                      "set": "x.y"}
    with open(p("one_sided.json"), "w") as fh:
        json.dump(one_sided, fh)
    changed = dict(old)
    changed["template"] = {"file": "templates/tco.ini", "fingerprint": "0123456789abcdef"}
    with open(p("changed.json"), "w") as fh:
        json.dump(changed, fh)
    o = diff(p("changed.json"), p("one_sided.json"))
    check(kinds(o) == [("only_in_new", "made_up"), ("only_in_old", "w_consumer_compute"),
                       ("template_changed", None)], "other: %r" % kinds(o))
    check([s["input"] for s in o["steps"]] == ["tier_price", "electricity_price"], "one-sided: the same steps")
    adds_up(o, old, new, "one-sided")

    # A structural input (years: the workbook's shape) moves last, by loading the model again.
    y5 = summary(p("y5.json"), "--scenario", "cluster32", "--set", "scenario.years=5", "--set", "facility.pue=1.2")
    y = diff(p("old.json"), p("y5.json"))
    check([(s["input"], s["structural"]) for s in y["steps"]] == [("pue", False), ("years", True)],
          "structural steps: %r" % [(s["input"], s["structural"]) for s in y["steps"]])
    check(("structural", "years") in kinds(y), "years reported under other: %r" % kinds(y))
    adds_up(y, old, y5, "structural")

    # Another scenario of the same template: said under other; its inputs are steps.
    c16 = summary(p("c16.json"), "--scenario", "cluster16")
    c = diff(p("old.json"), p("c16.json"))
    check(kinds(c) == [("scenario_changed", None)], "cluster16: other %r" % kinds(c))
    check([s["input"] for s in c["steps"]][:1] == ["card_count"], "cluster16: card_count first")
    adds_up(c, old, c16, "cluster16")

    # What is not one scenario's summary is refused, naming the file.
    tco("--root", SRC, "--compare", "compare-team70b", "--format", "json", "--no-workbook")
    refusals = [
        ("array.json", "[1, 2]", "array.json: a JSON array, as --scenario all and --compare print", 65),
        ("advise.json", '{"question": "solo-dev"}', "advise.json: the answer of tco advise", 65),
        ("check.json", '{"problems": [], "files": []}', "check.json: the report of tco quotes check", 65),
        ("notjson.json", '{"scenario": ', "notjson.json:1:13: not JSON", 65),
        ("empty.json", '{"scenario": "cluster32"}', "empty.json: not a tco JSON summary", 65),
        ("noscen.json", json.dumps(dict(old, scenario="no-such")), "cannot open", 66),
        ("badinput.json", json.dumps(dict(old, inputs={"pue": {"value": [1]}})),
         "badinput.json: inputs.pue: expected an object with \"value\"", 65),
    ]
    for name, text, message, code in refusals:
        with open(p(name), "w") as fh:
            fh.write(text)
        r = diff(p(name), p("new.json"), want=code)
        check(message in r.stderr, "%s: stderr %r lacks %r" % (name, r.stderr, message))
        # --format json: the same error as data on stdout (docs/json.md, "A failed run"), the file named.
        err = json.loads(r.stdout)["error"] if r.stdout.startswith("{") else {}
        check(err.get("diagnostic") == r.stderr[len("tco: "):].rstrip("\n") and err.get("exit") == code,
              "%s: stdout %r is not the error of stderr %r" % (name, r.stdout, r.stderr))
        check(name == "notjson.json" or err.get("file") == p(name),
              "%s: the error's file is %r" % (name, err.get("file")))
    r = diff(p("old.json"), p("missing.json"), want=66)
    check("missing.json: cannot open: No such file or directory" in r.stderr, "missing file: %r" % r.stderr)
    usd = summary(p("usd.json"), "--scenario", "cluster32", "--currency", "USD")
    r = diff(p("old.json"), p("usd.json"), want=65)
    check("is in CNY and" in r.stderr and "usd.json in USD" in r.stderr, "currencies: %r" % r.stderr)
    check(usd["currency"] == "USD", "usd.json is in USD")
    in_usd(tmp, p, old, usd)
    hostile(tmp, p, old, usd)

    # The workbook: one Bridge sheet and a chart, written only where asked, figures that recalculate.
    book = p("bridge.xlsx")
    r = tco("diff", p("old.json"), p("new.json"), "--root", SRC, "--out", book)
    check(r.stdout.rstrip().endswith("Workbook: " + book), "names the workbook")
    check(sorted(n for n in os.listdir(tmp) if not n.endswith(".json")) == ["bridge.xlsx"],
          "files written: %r" % os.listdir(tmp))
    with zipfile.ZipFile(book) as z:
        names = z.namelist()
        check([s for s, _ in recalc.sheet_parts(z)] == ["Bridge"], "sheets: %r" % recalc.sheet_parts(z))
        check("xl/charts/chart1.xml" in names, "a chart")
        strings = z.read("xl/sharedStrings.xml").decode()
        check(old["template"]["fingerprint"] in strings and "stands alone" in strings,
              "the sheet says what it is and names the fingerprints")
    cells, _ = recalc.read_cells(book)
    sheet = cells["Bridge"]
    label = {v[2]: ref for ref, v in sheet.items() if ref.startswith("A") and v[2]}
    checks = [label.get("Check: the steps add up to NEW - OLD"), label.get("Check: the running TCO ends at NEW")]
    check(None not in checks, "the two checks: %r" % checks)
    if None in checks:
        return
    checks = ["F" + ref[1:] for ref in checks]
    check([sheet[c][2] for c in checks] == ["yes", "yes"], "checks cached %r" % [sheet[c][2] for c in checks])
    r = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "recalc.py"), "check", "--app",
                        APP, "--min-formulas", "10", book], capture_output=True, text=True)
    check(r.returncode == 0, "recalc check of the Bridge workbook:\n" + r.stdout[-1500:])
    # Invariant 10: a figure edited after tco wrote it turns the checks to "no".
    edited = p("edited.xlsx")
    recalc.set_cell(book, edited, "Bridge", "F6", -250000)
    again = recalc.read_cells(recalc.recalc_gnumeric(edited, tmp))[0]["Bridge"]
    check([again[c][2][:3] for c in checks] == ["no:", "no:"], "edited: checks %r" % [again[c][2] for c in checks])
    # A bridge across a factor of 2 (team to cluster32) is not exact in doubles: said, never hidden.
    summary(p("team.json"), "--scenario", "team")
    tm = diff(p("team.json"), p("old.json"))
    check(tm["exact"] or ("inexact", None) in kinds(tm), "team -> cluster32: exact %r, other %r" %
          (tm["exact"], kinds(tm)))


if __name__ == "__main__":
    main()
