#!/usr/bin/env python3
"""formats_test.py - the machine formats of tco (issue 12, part 6), checked on real runs.

Usage: formats_test.py SUBCOMMAND TCO_BINARY SOURCE_DIR

  schema    every --format json document (cluster32, a what-if with "n.a." lines, a scenario whose
            break-even is "never", --currency USD, --scenario all, --compare, and `quotes check
            --format json` on good and bad files) validates against docs/tco.schema.json, with the
            cross-field rules the schema cannot say (one by_year entry per period, ...); and the
            schema rejects documents made wrong on purpose (the negative self-check).
  csv       --format csv read by pandas: the value column is float64, every input and output of the
            JSON is a row with the same number, text and note, totals are rows of their own, the
            source column is the JSON's source, formula-looking text is escaped in CSV only.
  examples  the shell examples of docs/cli.md, json.md, quotes.md, advise.md, bridge.md and uncertainty.md marked
            <!-- example: NAME --> run verbatim (with `tco` and a `python3` that has pandas and
            jsonschema on PATH, in a folder holding the project's pricing/, templates/, scenarios/
            and docs/) and print exactly the block marked <!-- output: NAME -->.
  charts    every chart's cached series values (<c:numCache>) equal the cached results of the cells
            the series reads, for cluster32, a comparison and the mini model.

Needs python3-jsonschema and python3-pandas (Debian packages; sh .ci/install-deps --test).  When the
python3 running this lacks them (a python3 of its own ahead of Debian's on PATH), the script runs
itself again under /usr/bin/python3, which has them; if that has not either, it fails saying so.
"""
import csv, importlib, io, json, math, os, re, subprocess, sys, tempfile, zipfile

NEEDS = {"schema": ["jsonschema"], "csv": ["pandas"], "examples": ["pandas", "jsonschema"], "charts": []}


def need(modules):
    missing = []
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError:
            missing.append(m)
    if not missing:
        return
    alt = "/usr/bin/python3"
    if os.path.exists(alt) and os.path.realpath(sys.executable) != os.path.realpath(alt) and \
            not os.environ.get("TCO_FORMATS_REEXEC"):
        os.environ["TCO_FORMATS_REEXEC"] = "1"
        os.execv(alt, [alt] + sys.argv)
    sys.exit("formats_test: python module(s) %s missing: install python3-jsonschema and python3-pandas "
             "(sh .ci/install-deps --test)" % ", ".join(missing))


if len(sys.argv) != 4 or sys.argv[1] not in NEEDS:
    sys.exit(__doc__)
CMD, TCO, SRC = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
need(NEEDS[CMD])
sys.path.insert(0, os.path.join(SRC, "tests"))
import recalc  # noqa: E402  (the workbook cell reader of the recalculation tests)

T = tempfile.mkdtemp(prefix="tco-formats-")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def tco(*args, cwd=None, want=(0,)):
    """Run tco (in @p cwd, default the temporary folder); returns stdout, checks the exit code."""
    r = subprocess.run([TCO, *args], capture_output=True, cwd=cwd or T)  # bytes: CSV keeps its CRLF
    check(r.returncode in want, "tco %s: exit %d, expected %s: %s" % (" ".join(args), r.returncode, want,
                                                                      r.stderr.decode()[-600:]))
    return r.stdout.decode()


def finish():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


ROOT = ("--root", SRC)


# ---- schema -------------------------------------------------------------------------------------

def semantic_problems(doc):
    """What the schema cannot say: the arrays' lengths agree with periods and months, and a per-year
    line's total is the sum of its years (to rounding)."""
    out = []
    docs = doc if isinstance(doc, list) else [doc]
    for d in docs:
        if d is None:
            continue
        n, months = len(d["periods"]), len(d["budget"]["months"]) if "budget" in d else None
        if d["opex_by_year"] is not None and len(d["opex_by_year"]) != n:
            out.append("%s: opex_by_year has %d entries for %d periods" % (d["scenario"], len(d["opex_by_year"]), n))
        if "cash_flow" in d:
            if d["cash_flow"]["periods"] != d["periods"]:
                out.append("%s: cash_flow periods differ from periods" % d["scenario"])
            for k, v in d["cash_flow"].items():
                if k != "periods" and len(v) != n:
                    out.append("%s: cash_flow %s has %d entries for %d periods" % (d["scenario"], k, len(v), n))
        if "budget" in d:
            for k, v in d["budget"].items():
                if k not in ("months", "total") and len(v) != months:
                    out.append("%s: budget %s has %d entries for %d months" % (d["scenario"], k, len(v), months))
        for name, e in d["inputs"].items():  # a range holds its value: low <= value <= high
            pairs = [(e.get("value"), e.get("range"))] + [(e["by_tier"][t], r) for t, r in
                                                          e.get("range_by_tier", {}).items()]
            for v, r in pairs:
                if r is not None and not (isinstance(v, (int, float)) and r["low"] <= v <= r["high"]):
                    out.append("%s: %s's range %r does not hold its value %r" % (d["scenario"], name, r, v))
        # In another currency a money input (its unit starts with the code) carries its CNY value, "given",
        # and its value is that over the rate fx_report (the one conversion); in CNY none carries one.
        rate = d["inputs"].get("fx_report", {}).get("value")
        for name, e in d["inputs"].items():
            money = d["currency"] != "CNY" and e["unit"][:3] == d["currency"] and isinstance(
                e.get("value", 0), (int, float))
            rows = [(e["value"], e.get("given"))] if "value" in e else \
                [(v, e.get("given_by_tier", {}).get(t)) for t, v in e["by_tier"].items()]
            for r in [e.get("range")] + list(e.get("range_by_tier", {}).values()):
                if r is not None:
                    rows += [(r["low"], r.get("given_low")), (r["high"], r.get("given_high"))]
            for v, g in rows:
                if money and not (isinstance(g, (int, float)) and math.isclose(v, g / rate, rel_tol=1e-15)):
                    out.append("%s: money input %s is %r, its given %r over fx_report %r" % (d["scenario"], name, v,
                                                                                               g, rate))
                if not money and g is not None:
                    out.append("%s: %s has a given value %r, and is no money input of a run in another currency" %
                               (d["scenario"], name, g))
        for group in ("inputs", "outputs"):
            for name, e in d[group].items():
                # A line of the schedule sheet has one entry per schedule period (to the end of the book life),
                # and says so ("periods": "schedule"); every other per-year entry follows periods.
                sched = d.get("schedule", {})
                on = name in sched.get("lines", ())
                if "by_year" in e and (e.get("periods") == "schedule") != on:
                    out.append("%s: %s is %son the schedule sheet but its periods is %r" %
                               (d["scenario"], name, "" if on else "not ", e.get("periods")))
                want = len(sched["periods"]) if on else n
                if "by_year" in e and len(e["by_year"]) != want:
                    out.append("%s: %s has %d years for %d periods" % (d["scenario"], name, len(e["by_year"]), want))
                if "by_month" in e and len(e["by_month"]) != months:
                    out.append("%s: %s has %d months for %d" % (d["scenario"], name, len(e["by_month"]), months))
                arr = e.get("by_year", e.get("by_month"))
                if arr is not None and "total" in e and not math.isclose(sum(arr), e["total"], rel_tol=1e-9,
                                                                          abs_tol=1e-6):
                    out.append("%s: %s total %r is not the sum %r" % (d["scenario"], name, e["total"], sum(arr)))
    return out


def cmd_schema():
    import jsonschema
    with open(os.path.join(SRC, "docs", "tco.schema.json")) as fh:
        schema = json.load(fh)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    check(cls is jsonschema.Draft202012Validator, "docs/tco.schema.json is not read as draft 2020-12: %r" % cls)
    validator = cls(schema)

    def part(name):
        """A validator for one $defs entry (so a document is checked against the shape it must have)."""
        return cls({"$ref": "#/$defs/" + name, "$defs": schema["$defs"]})

    def errors(doc, v=validator):
        return ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message) for e in v.iter_errors(doc)]

    def valid(label, text, shape):
        try:
            doc = json.loads(text)
        except ValueError as e:
            check(False, "%s: not JSON: %s" % (label, e))
            return None
        errs = errors(doc) + errors(doc, part(shape))
        check(not errs, "%s: does not conform to docs/tco.schema.json: %s" % (label, errs[:5]))
        sem = semantic_problems(doc) if shape not in ("quotes_check", "advice", "error") else []
        check(not sem, "%s: %s" % (label, sem[:5]))
        return doc

    runs = {
        "cluster32": ROOT + ("--scenario", "cluster32", "--format", "json", "--no-workbook"),
        # card.price=0: no card capex, so the share of non-card cost is "n.a." (null with a reason).
        "cluster32 --set card.price=0": ROOT + ("--scenario", "cluster32", "--set", "card.price=0", "--format",
                                                "json", "--no-workbook"),
        # team: renting costs less than running the cards, so break-even is "never"; tokens are served.
        "team": ROOT + ("--scenario", "team", "--format", "json", "--no-workbook"),
        "cluster32 --currency USD": ROOT + ("--scenario", "cluster32", "--currency", "USD", "--format", "json",
                                            "--no-workbook"),
        "cluster32 --quotes": ROOT + ("--scenario", "cluster32", "--quotes",
                                      os.path.join(SRC, "pricing", "example-quotes.csv"), "--as-of", "2026-11-30",
                                      "--format", "json", "--no-workbook"),
        "mini good (no cash flow, no budget)": ("--root", os.path.join(SRC, "tests/fixtures/roots/mini"),
                                                "--scenario", "good", "--format", "json", "--no-workbook"),
        "mini tiered": ("--root", os.path.join(SRC, "tests/fixtures/roots/mini"), "--scenario", "tiered",
                        "--format", "json", "--no-workbook"),
        # Ranges: scalar ones (one with a basis, a pert and a uniform one), per-tier rows, a --set range.
        "mini ranged": ("--root", os.path.join(SRC, "tests/fixtures/roots/mini"), "--scenario", "ranged",
                        "--format", "json", "--no-workbook"),
        "mini tiered ranged": ("--root", os.path.join(SRC, "tests/fixtures/roots/mini"), "--scenario",
                               "tiered_ranged", "--format", "json", "--no-workbook"),
        "cluster32 --set facility.pue_range=1.1,1.7": ROOT + ("--scenario", "cluster32", "--set",
                                                              "facility.pue_range=1.1,1.7", "--format", "json",
                                                              "--no-workbook"),
        # A risk run: fingerprint, sensitivity rows and the Monte Carlo block.
        "cluster32 --sensitivity --monte-carlo 500": ROOT + ("--scenario", "cluster32", "--set",
                                                             "facility.pue_range=1.1,1.7", "--sensitivity",
                                                             "--monte-carlo", "500", "--format", "json",
                                                             "--no-workbook"),
        # One draw: every figure of it, and no sample deviation (null: it needs two draws).
        "cluster32 --monte-carlo 1": ROOT + ("--scenario", "cluster32", "--monte-carlo", "1", "--format", "json",
                                             "--no-workbook"),
    }
    docs = {}
    for label, args in runs.items():
        docs[label] = valid(label, tco(*args), "scenario")
    d = docs["cluster32 --set card.price=0"]
    if d:
        e = d["outputs"]["non_card_share"]
        check(e["value"] is None and e["reason"].startswith("n.a."), "card.price=0: non_card_share %r" % e)
    d = docs["team"]
    if d:
        # team reserves its 2 W-B every hour: 2 x 8,760 x 7 = 122,640 CNY a year, 367,920 in 3 years, so owning
        # (capex 205,330, opex 265,068.06) pays back after 205,330 / ((367,920 - 265,068.06) / 36) = 71.9
        # months, past the period: a text with its reason, no number.
        e = d["outputs"]["break_even_months"]
        check(e["value"] is None and e["reason"].startswith("beyond the period"), "team: break_even_months %r" % e)
    d = docs["cluster32 --currency USD"]
    if d:
        check(d["currency"] == "USD", "USD run: currency %r" % d["currency"])
        # --set takes CNY: the JSON gives each money input's CNY value as "given" (pricing/hosts.ini [dc8]
        # price = 200000, its range 140000 to 260000; the D-M card 95,000 CNY), the rate's --set key fx.usd.
        h, t = d["inputs"]["host_price"], d["inputs"]["tier_price"]
        check(h.get("given") == 200000 and h["range"].get("given_low") == 140000 and
              h["range"].get("given_high") == 260000 and h["set"] == "host.price", "USD run: host_price %r" % h)
        check(t.get("given_by_tier", {}).get("D-M") == 95000 and t["range_by_tier"]["D-M"].get("given_low") == 66500,
              "USD run: tier_price %r" % t.get("given_by_tier"))
        check(d["inputs"]["fx_report"]["set"] == "fx.usd" and "given" not in d["inputs"]["fx_report"],
              "USD run: fx_report %r" % d["inputs"]["fx_report"])
    d = docs["mini ranged"]
    if d:
        check(d["inputs"]["rate"]["range"] == {"low": 0.4, "high": 0.7, "dist": "uniform", "kind": "p5p95", "basis": None,
                                               "set": "site.rate"}, "mini ranged: rate %r" % d["inputs"]["rate"])
        check(d["inputs"]["years"]["range"] is None, "mini ranged: years %r" % d["inputs"]["years"])
    d = docs["mini tiered ranged"]
    if d:
        check(list(d["inputs"]["row_size"]["range_by_tier"]) == ["large", "medium"] and
              d["inputs"]["row_kind"]["range_by_tier"] == {}, "mini tiered ranged: %r" % d["inputs"]["row_size"])
    d = docs["cluster32 --set facility.pue_range=1.1,1.7"]
    if d:
        r = d["inputs"]["pue"]["range"]
        check(r["low"] == 1.1 and r["high"] == 1.7 and r["set"] == "facility.pue", "--set pue_range: %r" % r)
    d = docs["cluster32 --monte-carlo 1"]
    if d:
        t = d["monte_carlo"]["tco"]
        check(t["draws"] == 1 and t["stdev"] is None and t["min"] == t["max"] == t["p50"] == t["mean"],
              "--monte-carlo 1: %r" % t)
    d = docs["cluster32"]
    if d:
        check(d["workbook"] is None, "--no-workbook: workbook %r, expected null" % d["workbook"])
        check(d["tco"] == 7724461.688, "cluster32 tco %r, expected 7724461.688 (README)" % d["tco"])

    # Lists: every scenario, and a comparison (one object per option).
    every = valid("--scenario all", tco(*ROOT, "--scenario", "all", "--format", "json", "--no-workbook"),
                  "scenario_list")
    names = sorted(f[:-4] for f in os.listdir(os.path.join(SRC, "scenarios"))
                   if f.endswith(".ini") and not f.startswith("compare-")
                   and "[advise]" not in open(os.path.join(SRC, "scenarios", f)).read().splitlines())
    check(every is not None and [x["scenario"] for x in every] == names,
          "--scenario all: %r, expected %r" % (every and [x["scenario"] for x in every], names))
    cmp_doc = valid("--compare compare-team70b", tco(*ROOT, "--compare", "compare-team70b", "--format", "json",
                                                     "--no-workbook"), "scenario_list")
    check(cmp_doc is not None and [x["scenario"] for x in cmp_doc] == ["team-70b-wb3", "team-70b-dm2"],
          "--compare: options %r" % (cmp_doc and [x["scenario"] for x in cmp_doc]))

    # Text is verbatim in JSON: a title that starts with '-' or '=' has no apostrophe.
    scen = os.path.join(T, "dash.ini")
    with open(scen, "w") as fh:
        fh.write("[scenario]\ntitle = -minus =1+1\ntemplate = mini\nthing = widget\nqty = 3\nyears = 2\n")
    d = valid("a title starting with '-'", tco("--root", os.path.join(SRC, "tests/fixtures/roots/mini"),
                                              "--scenario", scen, "--format", "json", "--no-workbook"), "scenario")
    check(d is not None and d["title"] == "-minus =1+1", "JSON title %r, expected '-minus =1+1' verbatim"
          % (d and d["title"]))

    # quotes check --format json: a good file and a bad one (tests/quotes_test.py checks the places).
    good = valid("quotes check (good)", tco(*ROOT, "quotes", "check", os.path.join(SRC, "pricing",
                                                                                     "example-quotes.csv"),
                                           "--format", "json", "--as-of", "2026-11-30"), "quotes_check")
    # On 2026-11-30 one row has expired (EU-7731, line 4, valid until 2026-10-31): a warning, no error.
    check(good is not None and [(p["line"], p["severity"]) for p in good["problems"]] == [(4, "warning")] and
          good["errors"] == 0 and good["files"][0]["rows"] == 9,
          "quotes check of the example: %r" % good)
    bad_csv = os.path.join(T, "bad.csv")
    with open(bad_csv, "w") as fh:
        fh.write("vendor,item,unit_price,currency,colour\nA,D-M,abc,CNY,red\nB,D-LL,1000,CNY,\n")
    bad = valid("quotes check (bad)", tco(*ROOT, "quotes", "check", bad_csv, os.path.join(T, "missing.csv"),
                                          "--format", "json", want=(65,)), "quotes_check")
    # Errors: the price 'abc' and the missing file; warnings: the column 'colour' and the unknown item D-LL.
    check(bad is not None and bad["errors"] == 2 and bad["warnings"] == 2 and len(bad["problems"]) == 4,
          "quotes check (bad): %r" % bad)

    # tco advise --format json (issue 13): serving and training questions, with and without a workbook.
    advice = {}
    for q, extra in (("solo-dev", ("--no-workbook",)), ("train-7b", ("--no-workbook",)),
                     ("team-70b", ("--out", os.path.join(T, "advice.xlsx")))):
        doc = advice[q] = valid("advise " + q, tco("advise", q, "--root", SRC, "--format", "json", *extra), "advice")
        if doc is None:
            continue
        opts = doc["options"]
        n_feasible = sum(o["feasible"] for o in opts)
        check(doc["candidates"] == len(opts) and doc["feasible"] == n_feasible,
              "advise %s: %d candidates, %d feasible, but %d options, %d feasible" % (
                  q, doc["candidates"], doc["feasible"], len(opts), n_feasible))
        check([o["rank"] for o in opts[:n_feasible]] == list(range(1, n_feasible + 1))
              and all(not o["feasible"] for o in opts[n_feasible:]),
              "advise %s: the feasible options are not first, ranked 1 to %d" % (q, n_feasible))
        check(all(len(o["reasons"]) == len(o["checks"]) for o in opts),
              "advise %s: an option with a reason per check missing" % q)
    check(advice.get("team-70b", {}).get("workbook") == os.path.join(T, "advice.xlsx"),
          "advise team-70b --out: workbook %r" % advice.get("team-70b", {}).get("workbook"))
    check(advice.get("solo-dev", {}).get("workbook", 1) is None, "advise --no-workbook: workbook not null")
    # With quotes and another currency (the run object's): the quotes list and units in USD, against the schema.
    doc = valid("advise team-30b --quotes --currency USD",
                tco("advise", "team-30b", "--root", SRC, "--format", "json", "--no-workbook", "--quotes",
                    os.path.join(SRC, "pricing", "example-quotes.csv"), "--as-of", "2026-11-30", "--currency", "USD"),
                "advice")
    check(doc is not None and doc["unit"] == "USD/Mtok" and doc["quotes"]["rows"] == 9
          and len(doc["quotes"]["list"]) == 9, "advise --quotes --currency USD: %r" % (doc or {}).get("quotes"))

    # A run that fails prints its error with the place as data (docs/json.md "A failed run"): planted bad
    # values whose file, line, section and key are known by hand, and the diagnostic standard error prints.
    mini = os.path.join(SRC, "tests/fixtures/roots/mini")
    bad_value = os.path.join(T, "bad_value.ini")
    with open(bad_value, "w") as fh:
        fh.write("[scenario]\ntitle = t\ntemplate = mini\nthing = widget\nqty = lots\nyears = 2\n")
    bad_range = os.path.join(T, "bad_range.ini")
    with open(bad_range, "w") as fh:
        fh.write("[scenario]\ntitle = t\ntemplate = mini\nthing = widget\nqty = 3\nyears = 2\nqty_range = 1, x\n")
    bad_line = os.path.join(T, "bad_line.ini")
    with open(bad_line, "w") as fh:
        fh.write("[scenario]\ntitle = t\ntemplate = mini\nthing = widget\nqty = 3\n[Scenario]\n")
    bad_char = os.path.join(T, "bad_char.ini")
    with open(bad_char, "w") as fh:
        fh.write("[scenario]\ntitle = t\x01\ntemplate = mini\nthing = widget\nqty = 3\nyears = 2\n")
    bad_formula = os.path.join(T, "bad_formula.ini")
    with open(bad_formula, "w") as fh:  # mini's unknown_name.ini: [line.cost] formula = qty * prise
        fh.write("[scenario]\ntitle = t\ntemplate = unknown_name\nthing = widget\nqty = 3\nyears = 2\n")
    failures = [
        ("a formula's unknown name", ("--root", mini, "--scenario", bad_formula), 65,
         {"file": os.path.join(mini, "templates", "unknown_name.ini"), "line": None, "column": 7,
          "section": "line.cost", "key": "formula"},
         "unknown name 'prise' (did you mean 'price'?)"),
        # (label, args, exit, {field: expected}, message)
        ("a bad value", ("--root", mini, "--scenario", bad_value), 65,
         {"file": bad_value, "line": None, "column": None, "section": "scenario", "key": "qty"},
         "expected a number in things (digits, '.' for decimals, no thousands separators or units), found 'lots'"),
        ("a bad end of a range", ("--root", mini, "--scenario", bad_range), 65,
         {"file": bad_range, "line": None, "column": None, "section": "scenario", "key": "qty_range"},
         "HIGH: expected a number in things (digits, '.' for decimals, no thousands separators or units), "
         "found 'x'"),
        ("a duplicate section", ("--root", mini, "--scenario", bad_line), 65,
         {"file": bad_line, "line": 6, "column": None, "section": None, "key": None},
         "duplicate section [Scenario] (first at line 1)"),
        ("a control character", ("--root", mini, "--scenario", bad_char), 65,
         {"file": bad_char, "line": 2, "column": 10, "section": None, "key": None},
         "control character 0x01 is not allowed"),
        ("a bad --set", ROOT + ("--scenario", "cluster32", "--set", "facility.pue=abc"), 65,
         {"file": None, "line": None, "column": None, "section": "facility", "key": "pue"},
         "expected a number in ratio (digits, '.' for decimals, no thousands separators or units), found 'abc'"),
        ("a bad --set in a comparison", ROOT + ("--compare", "cluster32,team", "--set", "facility.pue=x"), 65,
         {"file": None, "line": None, "column": None, "section": "facility", "key": "pue"},
         "expected a number in ratio (digits, '.' for decimals, no thousands separators or units), found 'x'"),
        ("no such scenario", ROOT + ("--scenario", "nosuch"), 66,
         {"file": os.path.join(SRC, "scenarios", "nosuch.ini"), "line": None, "section": None, "key": None},
         None),
    ]
    for label, args, code, place, message in failures:
        r = subprocess.run([TCO, *args, "--format", "json", "--no-workbook"], capture_output=True, text=True, cwd=T)
        check(r.returncode == code, "%s: exit %d, expected %d: %s" % (label, r.returncode, code, r.stderr))
        doc = valid("the error of " + label, r.stdout, "error")
        if doc is None:
            continue
        e = doc["error"]
        for key, want in place.items():
            check(e[key] == want, "%s: error.%s %r, expected %r" % (label, key, e[key], want))
        if message is not None:
            check(e["message"] == message, "%s: error.message %r, expected %r" % (label, e["message"], message))
        check(e["exit"] == code, "%s: error.exit %r, expected %d" % (label, e["exit"], code))
        check(r.stderr == "tco: " + e["diagnostic"] + "\n",
              "%s: standard error %r is not 'tco: ' + the diagnostic %r" % (label, r.stderr, e["diagnostic"]))
        check(e["diagnostic"].endswith(e["message"]), "%s: the message is not the diagnostic's end" % label)
    if doc is not None:  # the negative self-check: every place field is required
        broken = json.loads(json.dumps(doc))
        del broken["error"]["key"]
        check(bool(errors(broken)), "the schema accepts an error without its key")
    # A usage error prints nothing on standard output.
    r = subprocess.run([TCO, *ROOT, "--scenario", "cluster32", "--format", "json", "--bogus"], capture_output=True,
                       text=True, cwd=T)
    check(r.returncode == 64 and r.stdout == "", "a usage error printed %r (exit %d)" % (r.stdout, r.returncode))

    # The negative self-check: the schema rejects what tco must never print.
    base = docs["cluster32"] or {}
    mutations = {
        "a number as text": lambda d: d.update(tco="7615211.688"),
        "a missing key": lambda d: d.pop("outputs"),
        "an unknown key": lambda d: d.update(extra=1),
        "a null value without its reason": lambda d: d["outputs"]["tco"].update(value=None),
        "a reason beside a number": lambda d: d["outputs"]["tco"].update(reason="n.a.: no"),
        "a lower-case currency": lambda d: d.update(currency="cny"),
        "a name that is no defined name": lambda d: d["outputs"].update({"Tco Total": d["outputs"]["tco"]}),
        "a warning without its message": lambda d: d.update(warnings=[{"check": "checks_ok"}]),
        "by_year holding text": lambda d: d["outputs"]["opex"].update(by_year=["0", 1, 2, 3]),
        "a period that is no year": lambda d: d.update(periods=["Y0", "Y1", "Y2", "Y3"]),
        "an input without its range key": lambda d: d["inputs"]["pue"].pop("range"),
        "a range of an unknown distribution": lambda d: d["inputs"]["pue"].update(
            range={"low": 1.2, "high": 1.6, "dist": "gauss", "basis": None, "set": "facility.pue"}),
        "a range without its set key": lambda d: d["inputs"]["pue"].update(
            range={"low": 1.2, "high": 1.6, "dist": "pert", "basis": None}),
        "a null tier range": lambda d: d["inputs"]["tier_price"].update(range_by_tier={"D-M": None}),
    }
    for what, mutate in mutations.items():
        doc = json.loads(json.dumps(base))
        mutate(doc)
        check(bool(errors(doc)), "the schema accepts %s" % what)
    # A deviation is null exactly for one draw; a figure of no draw has its counts alone.
    for label, what, mutate in (
            ("cluster32 --sensitivity --monte-carlo 500", "a null deviation of 500 draws",
             lambda d: d["monte_carlo"]["tco"].update(stdev=None)),
            ("cluster32 --sensitivity --monte-carlo 500", "a figure of 500 draws without its P80",
             lambda d: d["monte_carlo"]["npv_cost"].pop("p80")),
            ("cluster32 --monte-carlo 1", "a deviation of one draw", lambda d: d["monte_carlo"]["tco"].update(stdev=0)),
            ("cluster32 --monte-carlo 1", "a figure of no draw with a percentile",
             lambda d: d["monte_carlo"]["unit_cost"].update(draws=0, na_draws=1))):
        if docs.get(label):
            doc = json.loads(json.dumps(docs[label]))
            mutate(doc)
            check(bool(errors(doc)), "the schema accepts %s" % what)
    doc = json.loads(json.dumps(base))
    doc["outputs"]["opex"]["by_year"] = doc["outputs"]["opex"]["by_year"][:2]
    check(bool(semantic_problems(doc)), "the cross-field check accepts a by_year shorter than periods")
    doc = json.loads(json.dumps(base))
    doc["inputs"]["pue"]["range"] = {"low": 1.4, "high": 1.6, "dist": "triangular", "basis": None, "set": "facility.pue"}
    check(bool(semantic_problems(doc)), "the cross-field check accepts a range that does not hold its value")
    usd = docs["cluster32 --currency USD"] or {}
    for what, mutate in (("a money input of a USD run without its given",
                          lambda d: d["inputs"]["host_price"].pop("given", None)),
                         ("a given that is not the value times the rate",
                          lambda d: d["inputs"]["tier_price"].setdefault("given_by_tier", {}).update({"D-M": 88000}))):
        doc = json.loads(json.dumps(usd))
        if doc:
            mutate(doc)
            check(bool(semantic_problems(doc)), "the cross-field check accepts %s" % what)
    doc = json.loads(json.dumps(base))
    doc["inputs"]["host_price"]["given"] = 200000
    check(bool(semantic_problems(doc)), "the cross-field check accepts a given value in a CNY run")
    check(not errors(doc), "the schema refuses a single value's given (it must allow one)")
    for q, what, mutate in (
            ("solo-dev", "a rank on a rejected option", lambda d: d["options"][-1].update(rank=3)),
            ("solo-dev", "a rejected option without its reasons", lambda d: d["options"][-1].update(reasons=[])),
            ("solo-dev", "a feasible option without a rank", lambda d: d["options"][0].update(rank=None)),
            ("solo-dev", "a serving option without its throughput", lambda d: d["options"][0].pop("tokens_per_s")),
            ("train-7b", "a training option without its days", lambda d: d["options"][0].pop("train_days")),
            ("train-7b", "a training answer with a target load", lambda d: d.update(target_tokens_per_s=1.0)),
            ("solo-dev", "an acquisition other than own or rent", lambda d: d["options"][0].update(acquisition="buy"))):
        if advice.get(q):
            doc = json.loads(json.dumps(advice[q]))
            mutate(doc)
            check(bool(errors(doc)), "the schema accepts %s" % what)
    if bad:
        for what, mutate in {"a problem without its line": lambda d: d["problems"][0].pop("line"),
                             "a line 0": lambda d: d["problems"][0].update(line=0),
                             "a severity other than error or warning": lambda d: d["problems"][0].update(
                                 severity="fatal")}.items():
            doc = json.loads(json.dumps(bad))
            mutate(doc)
            check(bool(errors(doc)), "the schema accepts %s" % what)
    finish()


# ---- csv ----------------------------------------------------------------------------------------

def cmd_csv():
    import pandas as pd
    for label, args in {"cluster32": ("--scenario", "cluster32"), "team": ("--scenario", "team"),
                        "cluster32 --set card.price=0": ("--scenario", "cluster32", "--set", "card.price=0")}.items():
        text = tco(*ROOT, *args, "--format", "csv", "--no-workbook")
        doc = json.loads(tco(*ROOT, *args, "--format", "json", "--no-workbook"))
        df = pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])
        check(list(df.columns) == "scenario,kind,name,period,value,unit,text,note,label,source,low,high,dist".split(","),
              "%s: columns %r" % (label, list(df.columns)))
        check(str(df["value"].dtype) == "float64", "%s: value column is %s, expected float64" % (label,
                                                                                           df["value"].dtype))
        check(text.count("\r\n") == len(df) + 1 and "\n" not in text.replace("\r\n", ""),
              "%s: not one CRLF line per row" % label)
        rows = {}
        for r in csv.DictReader(io.StringIO(text)):  # the raw fields, as written
            rows.setdefault((r["name"], r["period"]), r)
        check(len(rows) == len(df), "%s: a (name, period) pair appears twice" % label)
        missing, wrong = [], []
        for group, kind in (("inputs", "input"), ("outputs", "output")):
            for name, e in doc[group].items():
                ranges = e.get("range_by_tier", {"": e.get("range")})  # low, high, dist as JSON's range
                if "value" in e:
                    want = [("", e["value"], e.get("reason"))]
                elif "by_year" in e:
                    want = [(p, v, None) for p, v in zip(doc["periods"], e["by_year"])]
                elif "by_month" in e:
                    want = [(p, v, None) for p, v in zip(doc["budget"]["months"], e["by_month"])]
                else:
                    want = [(t, v, None) for t, v in e["by_tier"].items()]
                for period, v, reason in want:
                    r = rows.get((name, period))
                    if r is None:
                        missing.append((name, period))
                        continue
                    if isinstance(v, str):
                        ok = r["value"] == "" and r["text"] == v and r["note"] == ""
                    elif v is None:
                        ok = r["value"] == "" and r["text"] == "" and r["note"] == reason
                    else:
                        ok = float(r["value"]) == v and r["text"] == "" and r["note"] == ""
                    rg = ranges.get(period)
                    ok = ok and ((r["low"], r["high"], r["dist"]) == ("", "", "") if rg is None else
                                 (float(r["low"]), float(r["high"]), r["dist"]) == (rg["low"], rg["high"], rg["dist"]))
                    if not ok or r["kind"] != kind or r["source"] != e["source"] or r["unit"] != e["unit"] or \
                            r["label"] != e["label"]:
                        wrong.append((name, period, v, dict(r)))
        check(not missing, "%s: JSON entries with no CSV row: %r" % (label, missing[:5]))
        check(not wrong, "%s: CSV rows that differ from the JSON: %r" % (label, wrong[:3]))
        json_rows = sum(1 if "value" in e else len(e.get("by_year", e.get("by_month", e.get("by_tier", {}))))
                        for g in ("inputs", "outputs") for e in doc[g].values())
        check(json_rows == len(df), "%s: %d CSV rows, the JSON holds %d values" % (label, len(df), json_rows))
        single = df[df["period"].isna()].set_index("name")
        if label == "cluster32":
            # The README's figures: capex 5,544,050; opex (all years) 2,180,411.688; TCO 7,724,461.688 CNY.
            check(single.loc["capex_total", "value"] == 5544050 and single.loc["opex_total", "value"] == 2180411.688
                  and single.loc["tco", "value"] == 7724461.688, "cluster32: totals %r" %
                  single.loc[["capex_total", "opex_total", "tco"], "value"].tolist())
            opex = df[df["name"] == "opex"]
            check(opex["period"].tolist() == ["Year 0", "Year 1", "Year 2", "Year 3"] and
                  math.isclose(opex["value"].sum(), single.loc["opex_total", "value"], rel_tol=1e-12),
                  "cluster32: opex by year %r does not add up to opex_total" % opex["value"].tolist())
            check(single.loc["card_tier", "text"] == "D-M" and math.isnan(single.loc["card_tier", "value"]),
                  "cluster32: the text input card_tier is not text with an empty value")
            # Run with --root SRC (an absolute path): the source names the file relative to the root, as the
            # workbook's Source / basis column does wherever the root is.
            check(single.loc["pue", "source"].startswith("pricing/site.ini [facility] pue"),
                  "cluster32: pue's source %r" % single.loc["pue", "source"])
        if label == "team":
            b = single.loc["break_even_months"]
            check(math.isnan(b["value"]) and b["note"] == "beyond the period (TCO sheet: months of saving that repay the capex)",
                  "team: break_even_months %r" % dict(b))
    # Formula-looking text: an apostrophe in CSV, none in JSON.
    mini = os.path.join(T, "mini")
    subprocess.run(["cp", "-r", os.path.join(SRC, "tests/fixtures/roots/mini"), mini], check=True)
    tpl = os.path.join(mini, "templates", "mini.ini")
    with open(tpl) as fh:
        text = fh.read()
    with open(tpl, "w") as fh:
        fh.write(text.replace("label = Unit price", "label = -price (=A1+1)").replace("label = Cost", "label = @cost"))
    args = ("--root", mini, "--scenario", "good", "--no-workbook")
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(tco(*args, "--format", "csv")))}
    doc = json.loads(tco(*args, "--format", "json"))
    check(rows["price"]["label"] == "'-price (=A1+1)" and rows["cost"]["label"] == "'@cost",
          "CSV labels %r %r, expected a leading apostrophe" % (rows["price"]["label"], rows["cost"]["label"]))
    check(doc["inputs"]["price"]["label"] == "-price (=A1+1)" and doc["outputs"]["cost"]["label"] == "@cost",
          "JSON labels %r %r, expected verbatim" % (doc["inputs"]["price"]["label"], doc["outputs"]["cost"]["label"]))
    check(rows["price"]["value"] == "10" and rows["cost"]["value"] == "30",
          "numbers are not escaped: %r %r" % (rows["price"]["value"], rows["cost"]["value"]))
    finish()


# ---- examples -----------------------------------------------------------------------------------

def blocks(path):
    """{NAME: (kind, text)} for each fenced block right after <!-- example: NAME --> or <!-- output: NAME -->."""
    with open(path) as fh:
        text = fh.read()
    out = {}
    for m in re.finditer(r"<!-- (example|output): ([a-z0-9-]+) -->\n```[a-z]*\n(.*?)```\n", text, re.S):
        out[(m.group(1), m.group(2))] = m.group(3)
    return out


def cmd_examples():
    bindir = os.path.join(T, "bin")
    os.mkdir(bindir)
    os.symlink(TCO, os.path.join(bindir, "tco"))
    os.symlink(sys.executable, os.path.join(bindir, "python3"))  # one with pandas (need() above)
    env = {k: v for k, v in os.environ.items() if k not in ("TCO_ROOT", "TCO_FORMATS_REEXEC")}
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    seen = 0
    for doc in ("docs/cli.md", "docs/json.md", "docs/quotes.md", "docs/advise.md", "docs/bridge.md", "docs/uncertainty.md"):
        found = blocks(os.path.join(SRC, doc))
        for (kind, name), script in sorted(found.items()):
            if kind != "example":
                continue
            seen += 1
            want = found.get(("output", name))
            check(want is not None, "%s: example %s has no <!-- output: %s --> block" % (doc, name, name))
            work = os.path.join(T, name)
            os.mkdir(work)
            for d in ("pricing", "templates", "scenarios", "docs"):
                os.symlink(os.path.join(SRC, d), os.path.join(work, d))
            r = subprocess.run(["sh", "-e", "-c", script], capture_output=True, text=True, cwd=work, env=env)
            check(r.returncode == 0, "%s: example %s exits %d: %s" % (doc, name, r.returncode, r.stderr[-800:]))
            check(r.stdout == want, "%s: example %s prints\n%s\nbut the doc shows\n%s" % (doc, name, r.stdout, want))
            check(not os.path.exists(os.path.join(work, "out")), "%s: example %s wrote out/" % (doc, name))
    check(seen >= 5, "only %d marked examples found in docs/cli.md, docs/json.md and docs/quotes.md" % seen)
    finish()


# ---- charts -------------------------------------------------------------------------------------

def col_index(letters):
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def col_letters(n):
    s = ""
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def cmd_charts():
    books = {
        "cluster32": ROOT + ("--scenario", "cluster32"),
        "compare-team70b": ROOT + ("--compare", "compare-team70b"),
        "team": ROOT + ("--scenario", "team"),
    }
    for label, args in books.items():
        path = os.path.join(T, label + ".xlsx")
        tco(*args, "--out", path)
        cells, _ = recalc.read_cells(path)
        with zipfile.ZipFile(path) as z:
            parts = sorted(n for n in z.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n))
            series = nonzero = 0
            for part in parts:
                xml = z.read(part).decode()
                for m in re.finditer(r"<c:val><c:numRef><c:f>(.*?)</c:f>(.*?)</c:numRef></c:val>", xml, re.S):
                    ref = re.fullmatch(r"'?(.+?)'?!\$([A-Z]+)\$(\d+):\$([A-Z]+)\$(\d+)", m.group(1))
                    check(ref is not None, "%s %s: series range %r" % (label, part, m.group(1)))
                    if ref is None:
                        continue
                    sheet = ref.group(1).replace("''", "'")
                    c1, r1, c2, r2 = col_index(ref.group(2)), int(ref.group(3)), col_index(ref.group(4)), int(ref.group(5))
                    refs = [col_letters(c) + str(r) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
                    cache = re.search(r"<c:numCache>(.*?)</c:numCache>", m.group(2), re.S)
                    check(cache is not None, "%s %s: series %s has no numCache" % (label, part, m.group(1)))
                    if cache is None:
                        continue
                    count = re.search(r'<c:ptCount val="(\d+)"/>', cache.group(1))
                    pts = {int(i): v for i, v in re.findall(r'<c:pt idx="(\d+)"><c:v>([^<]*)</c:v></c:pt>',
                                                            cache.group(1))}
                    check(count is not None and int(count.group(1)) == len(refs),
                          "%s %s: %s caches %s points for %d cells" % (label, part, m.group(1),
                                                                      count and count.group(1), len(refs)))
                    for k, cell in enumerate(refs):
                        f, typ, v = cells[sheet].get(cell, (None, None, None))
                        if typ in ("n", None) and v is not None:
                            check(k in pts and float(pts[k]) == float(v),
                                  "%s %s: %s!%s caches %r, the chart %r" % (label, part, sheet, cell, v, pts.get(k)))
                            nonzero += float(v) != 0
                        else:  # a cell with text ("n.a.") or none: no point
                            check(k not in pts, "%s %s: %s!%s holds %r, the chart caches %r" % (label, part, sheet,
                                                                                               cell, v, pts[k]))
                    series += 1
        check(series > 0 and nonzero > 0, "%s: %d chart series, %d non-zero points" % (label, series, nonzero))
        print("%s: %d charts, %d series checked, %d non-zero points" % (label, len(parts), series, nonzero))
    finish()


{"schema": cmd_schema, "csv": cmd_csv, "examples": cmd_examples, "charts": cmd_charts}[CMD]()
