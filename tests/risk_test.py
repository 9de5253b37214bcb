#!/usr/bin/env python3
"""risk_test.py - sensitivity and Monte Carlo runs (issue 14 §2, §3) checked against tco's own
point runs and an independent recalculation.

Usage: risk_test.py TCO_BINARY PROJECT_ROOT [--app gnumeric|libreoffice|both]

  1. --sensitivity: every row's tco_low and tco_high equal, exactly, the TCO that a plain run with
     --set SET=LOW (SET=HIGH) prints; rows are sorted by swing; swing = |tco_high - tco_low|.
  2. --monte-carlo with one ranged input whose effect on the TCO is linear (the electricity price,
     0.5 .. 0.9 around 0.7, triangular): the draws' P90 equals the TCO of a plain run at the
     triangle's 90th percentile.  The triangle with 5% below 0.5 and above 0.9 and its mode at 0.7 has
     half-width h = 0.2 / (1 - sqrt(0.1)) = 0.292495, so its P90 is 0.7 + h (1 - sqrt(0.2)) = 0.861686
     and its P50 0.7; the S-curve's points are the same percentiles.
  3. The same seed gives the same JSON bytes; another seed other draws.
  3a. Degenerate ranges (LOW = HIGH = the point value) on every input the shipped files range, each
     distribution in turn: the Monte Carlo P10, P50, P80, P90 and mean of TCO, NPV cost and unit cost
     are the plain run's figures exactly (==), stdev and contingency 0; every sensitivity row has
     swing 0 and both ends at the plain run's figures.
  4. The workbook: every formula cell recalculates to its cached value (Gnumeric and LibreOffice);
     with the electricity price edited on Inputs, the Run snapshot, Sensitivity and Risk checks say
     "stale: run tco again" after recalculation, and "current: ..." without the edit.
Exit 0 when all pass; the last line is a summary.
"""
import argparse, json, math, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recalc  # noqa: E402

RANGES = ["--set", "facility.pue_range=1.2,1.6", "--set", "facility.electricity_price_range=0.5,0.9",
          "--set", "card.price_range=80000,110000", "--set", "card.price_dist=pert"]
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


_schema = []


def conforms(doc, what):
    """Every JSON document this test reads is checked against docs/tco.schema.json (when python3-jsonschema
    is there; the test json_schema needs it anyway)."""
    if not _schema:
        try:
            import jsonschema
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "tco.schema.json")) as fh:
                _schema.append(jsonschema.Draft202012Validator(json.load(fh)))
        except ImportError:
            _schema.append(None)
    if _schema[0] is not None:
        errors = list(_schema[0].iter_errors(doc))
        if errors:
            import jsonschema
            e = jsonschema.exceptions.best_match(errors)
            check(False, f"{what}: does not conform to docs/tco.schema.json: "
                  f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")


def run(a, *args, raw=False):
    cmd = [a.tco, "--root", a.root, "--scenario", "cluster32", "--format", "json", *args]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr}")
    doc = json.loads(r.stdout)
    conforms(doc, " ".join(cmd[1:]))
    return r.stdout if raw else doc


def sensitivity(a):
    doc = run(a, "--no-workbook", "--sensitivity", *RANGES)
    rows = doc["sensitivity"]
    check(len(rows) >= 3, f"sensitivity: {len(rows)} rows (at least the three ranges given)")
    check(all(rows[i]["swing"] >= rows[i + 1]["swing"] for i in range(len(rows) - 1)), "rows sorted by swing")
    for row in rows:
        check(row["swing"] == abs(row["tco_high"] - row["tco_low"]), f"{row['input']}: swing = |high - low|")
        for end in ("low", "high"):
            tco = run(a, "--no-workbook", "--set", f"{row['set']}={row[end]!r}")["tco"]
            check(tco == row["tco_" + end], f"{row['input']}: --set {row['set']}={row[end]!r} prints TCO "
                  f"{tco!r}, the row's tco_{end} {row['tco_' + end]!r}")
    return doc


def root_without_ranges(a, tmp):
    """A copy of the project root whose INI files give no range (every KEY_range, KEY_dist,
    KEY_range_source and KEY_range_kind line dropped), so that a run ranges exactly what its --set values give."""
    import re, shutil
    dst = os.path.join(tmp, "root")
    for sub in ("pricing", "templates", "scenarios"):
        shutil.copytree(os.path.join(a.root, sub), os.path.join(dst, sub))
    pat = re.compile(r"^\s*[A-Za-z0-9_.-]+_(range|dist|range_source|range_kind)\s*=", re.I)
    for folder, _dirs, files in os.walk(dst):
        for f in files:
            if f.endswith(".ini"):
                path = os.path.join(folder, f)
                with open(path, encoding="utf-8") as fh:
                    lines = fh.read().splitlines(keepends=True)
                with open(path, "w", encoding="utf-8") as fh:
                    fh.writelines(l for l in lines if not pat.match(l))
    return dst


def monte_carlo(a, tmp):
    one = ["--set", "facility.electricity_price_range=0.5,0.9"]
    bare = argparse.Namespace(tco=a.tco, root=root_without_ranges(a, tmp))
    doc = run(bare, "--no-workbook", "--monte-carlo", "4000", "--seed", "11", *one)
    mc = doc["monte_carlo"]
    check(mc["draws"] == 4000 and mc["seed"] == 11 and mc["inputs"] >= 1, "monte_carlo: draws, seed, inputs")
    t = mc["tco"]
    check(t["p10"] <= t["p50"] <= t["p80"] <= t["p90"], "P10 <= P50 <= P80 <= P90")
    check(t["contingency_p80_p50"] == t["p80"] - t["p50"], "contingency = P80 - P50")
    h = 0.2 / (1 - math.sqrt(0.1))
    p90_price, p50_price = 0.7 + h * (1 - math.sqrt(0.2)), 0.7
    at = {p: run(bare, "--no-workbook", "--set", f"facility.electricity_price={p!r}")["tco"] for p in (0.5, 0.9)}
    per_price = (at[0.9] - at[0.5]) / 0.4  # the TCO is linear in the price
    # Latin hypercube puts one draw in each slice of 1/4000 of probability, so the k-th smallest price
    # is within 2/4000 of probability of the triangle's quantile: in price, 2/4000 over the triangle's
    # density there (ends a = 0.7 - h, b = 0.7 + h: density 2 (b - x) / (2h h) above the mode).
    b = 0.7 + h
    ranged = sum(1 for v in doc["inputs"].values() if v.get("range")) + \
        sum(len(v.get("range_by_tier") or {}) for v in doc["inputs"].values())
    check(mc["inputs"] == ranged == 1, f"only the ranged input is drawn: {mc['inputs']} of {ranged}")
    if ranged == 1:  # only the price moves: the TCO's percentiles are the price's, through the line
        for name, price in (("p90", p90_price), ("p50", p50_price)):
            density = 2 * (b - max(price, 0.7)) / (2 * h * h)
            tol = per_price * (2 / 4000) / density
            expect = doc["tco"] + (price - 0.7) * per_price
            check(abs(t[name] - expect) <= tol, f"TCO {name} {t[name]:.2f} = TCO at price {price:.6f}: "
                  f"{expect:.2f} (within {tol:.2f})")
    same1 = run(a, "--no-workbook", "--monte-carlo", "3000", "--seed", "5", *RANGES, raw=True)
    same2 = run(a, "--no-workbook", "--monte-carlo", "3000", "--seed", "5", *RANGES, raw=True)
    other = run(a, "--no-workbook", "--monte-carlo", "3000", "--seed", "6", *RANGES, raw=True)
    check(same1 == same2, "the same seed gives the same JSON bytes")
    # The fingerprint covers the inputs and their ranges: another range, another fingerprint.
    fp = lambda *sets: run(a, "--no-workbook", "--sensitivity", *sets)["fingerprint"]
    base, again = fp(*RANGES), fp(*RANGES)
    check(base == again, "the same inputs and ranges, the same fingerprint")
    # Each value is set once (a key set twice is refused): the pue range replaced in the list, not set again.
    moved = [x.replace("facility.pue_range=1.2,1.6", "facility.pue_range=1.1,1.6") for x in RANGES]
    check(moved != list(RANGES), "the test moves the pue range")
    check(fp(*moved) != base, "a range moved: another fingerprint")
    check(fp(*RANGES, "--set", "facility.pue_dist=uniform") != base, "a distribution changed: another fingerprint")
    check(fp(*RANGES, "--set", "facility.pue=1.35") != base, "a value changed: another fingerprint")
    check(json.loads(same1)["monte_carlo"]["tco"] != json.loads(other)["monte_carlo"]["tco"],
          "another seed gives other draws")


DISTS = ("triangular", "uniform", "pert", "normal", "lognormal")


def degenerate(a, tmp):
    """Ranges of one point: every input the shipped files range (scalars and per-tier catalog rows,
    e.g. card.price for the D-M row and C90.price), given LOW = HIGH = its value on a root without
    ranges, so that these are the run's only ranges.  A draw of a range of one point is that point,
    whatever the distribution, so every percentile is the plain run's figure, bit for bit."""
    bare = argparse.Namespace(tco=a.tco, root=os.path.join(tmp, "root"))
    if not os.path.isdir(bare.root):
        root_without_ranges(a, tmp)
    shipped = run(a, "--no-workbook")
    plain = run(bare, "--no-workbook")
    check(plain["tco"] == shipped["tco"], f"without ranges the point TCO is the same: {plain['tco']!r}")
    points = []  # (--set key, point value) of each shipped range
    for name, v in shipped["inputs"].items():
        if v.get("range"):
            points.append((v["range"]["set"], plain["inputs"][name]["value"]))
        for tier, r in (v.get("range_by_tier") or {}).items():
            points.append((r["set"], plain["inputs"][name]["by_tier"][tier]))
    check(len(points) >= 20 and any(s.startswith("card.") for s, _ in points)
          and any(s.startswith("C90.") for s, _ in points),
          f"degenerate: {len(points)} shipped ranges, the scenario's card row and another tier row among them")
    want = {"tco": plain["tco"], "npv_cost": plain["outputs"]["npv_cost"]["value"]}
    per_run = 32  # a range and a distribution each: two --set values of the 64 allowed
    for dist in DISTS:
        # A lognormal range needs LOW > 0: a point of 0 (electricity_escalation) is refused, as documented.
        usable = [(s, v) for s, v in points if dist != "lognormal" or v > 0]
        if dist == "lognormal":
            zero = [(s, v) for s, v in points if v <= 0]
            for s, v in zero[:1]:
                r = subprocess.run([a.tco, "--root", bare.root, "--scenario", "cluster32", "--no-workbook",
                                    "--set", f"{s}_range={v!r},{v!r}", "--set", f"{s}_dist=lognormal"],
                                   capture_output=True, text=True)
                check(r.returncode == 65 and "lognormal range needs LOW > 0" in r.stderr,
                      f"lognormal {s}_range={v!r},{v!r} refused (exit {r.returncode}): {r.stderr.strip()[:90]}")
        for first in range(0, len(usable), per_run):
            chunk = usable[first:first + per_run]
            sets = []
            for s, v in chunk:
                sets += ["--set", f"{s}_range={v!r},{v!r}", "--set", f"{s}_dist={dist}"]
            what = f"degenerate {dist}, ranges {first + 1}-{first + len(chunk)}"
            doc = run(bare, "--no-workbook", "--sensitivity", "--monte-carlo", "2000", "--seed", "3", *sets)
            given = [(r, v.get("value")) for v in doc["inputs"].values() if v.get("range") for r in [v["range"]]] + \
                [(r, v["by_tier"][t]) for v in doc["inputs"].values() for t, r in (v.get("range_by_tier") or {}).items()]
            check(len(given) == len(chunk) and all(r["low"] == r["high"] == p and r["dist"] == dist for r, p in given),
                  f"{what}: the run's {len(given)} ranges are all LOW = HIGH = value, {dist}")
            mc = doc["monte_carlo"]
            check(mc["inputs"] == len(chunk) and doc["tco"] == want["tco"],
                  f"{what}: {mc['inputs']} inputs drawn; point TCO {doc['tco']!r}")
            want["unit_cost"] = plain["outputs"][mc["unit_cost"]["line"]]["value"]
            for key in ("tco", "npv_cost", "unit_cost"):
                f = mc[key]
                exact = all(f[p] == want[key] for p in ("p10", "p50", "p80", "p90", "mean", "min", "max"))
                check(exact and f["stdev"] == 0 and f["contingency_p80_p50"] == 0 and f["na_draws"] == 0,
                      f"{what}: {key} P10 {f['p10']!r} = P50 = P80 = P90 = mean = the point {want[key]!r}, "
                      f"stdev {f['stdev']!r}, contingency {f['contingency_p80_p50']!r}")
            rows = doc["sensitivity"]
            ends = [(r["tco_" + e], r["npv_cost_" + e], r["unit_cost_" + e]) for r in rows for e in ("low", "high")]
            check(len(rows) == len(chunk) and all(r["swing"] == 0 for r in rows)
                  and all(e == (want["tco"], want["npv_cost"], want["unit_cost"]) for e in ends),
                  f"{what}: {len(rows)} sensitivity rows, swing 0, TCO, NPV cost and unit cost at both ends the point's")
    # A long run (from 20,000 draws a second thread evaluates half of them on a twin model): the same.
    sets = []
    for s, v in [points[0]] + [p for p in points if p[0] == "card.price"]:
        sets += ["--set", f"{s}_range={v!r},{v!r}", "--set", f"{s}_dist=normal"]
    t = run(bare, "--no-workbook", "--monte-carlo", "20000", *sets)["monte_carlo"]["tco"]
    check(len(sets) == 8 and t["draws"] == 20000 and t["p10"] == t["p50"] == t["p90"] == t["mean"] == want["tco"]
          and t["stdev"] == 0, f"degenerate normal, 20000 draws: TCO P10 {t['p10']!r} = P50 = P90 = mean = "
          f"the point {want['tco']!r}")


def workbook(a, tmp):
    book = os.path.join(tmp, "risk.xlsx")
    run(a, "--out", book, "--sensitivity", "--monte-carlo", "2000", *RANGES)
    cells, names = recalc.read_cells(book)
    check({"Sensitivity", "Risk", "Run snapshot"} <= set(cells), "Sensitivity, Risk and Run snapshot sheets")
    check(cells["Run snapshot"]["B3"][2].startswith("current"), "the check reads current as written")
    apps = ["gnumeric", "libreoffice"] if a.app == "both" else [a.app]
    ref = names["electricity_price"]
    edited = os.path.join(tmp, "edited.xlsx")
    recalc.set_cell(book, edited, ref[0], ref[1], 0.85)
    # A range is what the figures came from too: pue's Low (column D of its Inputs row) edited.
    low_edited = os.path.join(tmp, "low-edited.xlsx")
    pue = names["pue"]
    recalc.set_cell(book, low_edited, pue[0], "D" + pue[1].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 1.0)
    # A tier row's range too: the D-M row of the card price's Low column in the tier table.
    inp = cells["Inputs"]
    # (the tier table is below the inputs list: its header row is the row of "Tier" in column J)
    head_row = next(k[1:] for k, v in inp.items() if k.startswith("J") and k[1:].isdigit() and v[2] == "Tier")
    low_col = next(k[:-len(head_row)] for k, v in inp.items() if k.endswith(head_row) and
                   k[:-len(head_row)].isalpha() and str(v[2]).startswith("Low: Price ("))
    dm_row = next(k[1:] for k, v in inp.items() if k.startswith("J") and v[2] == "D-M")
    tier_edited = os.path.join(tmp, "tier-low-edited.xlsx")
    recalc.set_cell(book, tier_edited, "Inputs", low_col + dm_row, 60000)
    check(any(v[2] == "tier_price[D-M] (Low)" for v in cells["Run snapshot"].values()),
          "Run snapshot lists tier_price[D-M] (Low)")
    # In another currency every money input is its CNY value over fx_report: "In the run" holds it to
    # the file's 16 digits, the live cell computes it; unedited, the check still says current.
    usd = os.path.join(tmp, "risk-usd.xlsx")
    run(a, "--out", usd, "--currency", "USD", "--sensitivity", "--monte-carlo", "500", *RANGES)
    usd_cells, _ = recalc.read_cells(usd)
    for app in apps:
        with tempfile.TemporaryDirectory() as t2:
            out = (recalc.recalc_gnumeric if app == "gnumeric" else recalc.recalc_libreoffice)(usd, t2)
            got, _ = recalc.read_cells(out)
            f, m = recalc.compare_books(usd_cells, got, app)
            check(f > 0 and m == 0, f"{app}, USD: {f} formula cells recalculate to tco's values ({m} differ)")
            v = got["Run snapshot"]["B3"][2] or ""
            check(v.startswith("current"), f"{app}, USD: Run snapshot!B3 says '{v[:40]}' (as written)")
    for app in apps:
        for src, want in ((book, "current"), (edited, "stale: run tco again"), (low_edited, "stale: run tco again"),
                          (tier_edited, "stale: run tco again")):
            with tempfile.TemporaryDirectory() as t2:
                out = (recalc.recalc_gnumeric if app == "gnumeric" else recalc.recalc_libreoffice)(src, t2)
                got, _ = recalc.read_cells(out)
                if src == book:
                    f, m = recalc.compare_books(cells, got, app)
                    check(f > 0 and m == 0, f"{app}: {f} formula cells recalculate to tco's values ({m} differ)")
                for sheet in ("Run snapshot", "Sensitivity", "Risk"):
                    v = got[sheet]["B3"][2] or ""
                    what = {book: "as written", edited: "price edited", low_edited: "pue's Low edited",
                            tier_edited: "D-M price's Low edited"}[src]
                    check(v.startswith(want), f"{app}: {sheet}!B3 says '{v[:40]}' ({what})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("tco")
    p.add_argument("root")
    p.add_argument("--app", default="both", choices=["gnumeric", "libreoffice", "both"])
    a = p.parse_args()
    sensitivity(a)
    with tempfile.TemporaryDirectory() as tmp:
        monte_carlo(a, tmp)
        degenerate(a, tmp)
        workbook(a, tmp)
    print(f"risk: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
