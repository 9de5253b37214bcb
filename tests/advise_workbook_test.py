#!/usr/bin/env python3
"""advise_workbook_test.py - the advice workbook's Rank sheet is live (issue 13).

Usage: advise_workbook_test.py TCO_BINARY SOURCE_ROOT [--app gnumeric|libreoffice|both]
                               [--question team-30b] [--set facility.colo_price_kw_month=1500]

  1. `tco advise QUESTION --format json` writes the workbook; its Rank sheet, as cached, gives for every
     listed option the JSON's figures (throughput, memory, capex, cost, NPV cost, cost per unit) and
     rank, and for a rejected one no figure and the JSON's reasons.
  2. The input the --set names (colo_price_kw_month: one cell on the Shared inputs sheet) is typed into
     the workbook, which Gnumeric and LibreOffice recalculate; every Rank cell then equals
     `tco advise QUESTION --set ... --format json` in the live rows (the first three, with their sheets),
     and the figures as written in the rows of values after them (Sheets: "values at run"): each figure,
     each rank (among the options listed: 1 + the listed options before it by cost per unit, capex and
     candidate number, the live rows at the new price and the rows of values at the old), the best and
     the runner-up and how much cheaper the best is, (runner-up - best) / runner-up of their cost per unit.
  3. The order moves where it should: for team-30b, a colocation fee of 800 -> 1,500 CNY per kW-month
     moves 2x W-A in ws4 in colocation from 378,856 to 407,332 CNY over the period (20.86 -> 22.42
     CNY/Mtok), and the same cards owned, which pay no fee, stay at 404,542 (22.27): the owned one becomes
     rank 1.  (team-70b's electricity swap, owned against rented 2x D-M, went with issue 22 §3: the runtime
     reserve leaves no feasible 2x D-M.)
Prints one line per failure; the last line is "N passed, N failed".
"""
import argparse, json, math, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recalc  # noqa: E402
from tally import check, finish  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("tco")
ap.add_argument("src")
ap.add_argument("--app", choices=["gnumeric", "libreoffice", "both"], default="both")
ap.add_argument("--question", default="team-30b")
ap.add_argument("--set", dest="set_", default="facility.colo_price_kw_month=1500")
ap.add_argument("--name", default="colo_price_kw_month", help="the defined name of the input the --set changes")
ap.add_argument("--swap", nargs=2, metavar=("BEFORE", "AFTER"),
                default=["2x W-A in ws4, colocation", "2x W-A in ws4, owned"],
                help="the option ranked 1 before the edit, and the one ranked 1 after it")
a = ap.parse_args()

SERVE = [("Throughput (tokens/s)", "tokens_per_s"), ("Per stream (tokens/s)", "stream_tokens_per_s"),
         ("Card memory (GB)", "memory_gb"), ("Memory needed (GB)", "need_gb"), ("Capex (CNY)", "capex"),
         ("Cost over the period (CNY)", "tco"), ("NPV cost (CNY)", "npv_cost")]
TRAIN = [("Training run (days)", "train_days"), ("Card memory (GB)", "memory_gb"),
         ("Memory needed (GB)", "need_gb"), ("Capex (CNY)", "capex"), ("Cost over the period (CNY)", "tco"),
         ("NPV cost (CNY)", "npv_cost")]
FAILS, UNRANKED, VALUES = "n.a.: fails a check", "not ranked", "values at run"
LIVE = 3  # the listed options written live, with their sheets (TCO_ADVISE_LIVE, apps/advise.h)


def run(*args):
    cmd = [a.tco, "advise", a.question, "--root", a.src, "--format", "json", *args]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def label(o):
    if o["acquisition"] == "rent":
        return f"{o['cards']}x {o['tier']} rented (cloud)"
    return f"{o['cards']}x {o['tier']} in {o['host']}, {o['facility']}"


def col_letters(n):
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def headers(book):
    """The Rank sheet's header -> column letters, as tco wrote them (an application may write the
    header cells back as inline strings, which recalc.read_cells() does not read)."""
    heads = {}
    for c in range(40):
        v = book["Rank"].get(f"{col_letters(c)}4")
        if v and v[2]:
            heads[v[2]] = col_letters(c)
    return heads


def rank_sheet(book, orig, heads):
    """([row dicts: header -> (type, text)], {label below the table: cell}) of the Rank sheet of @p book;
    a text cell (no formula: it cannot change on recalculation) as tco wrote it in @p orig, since an
    application may write such cells back as inline strings."""
    cells, first = book["Rank"], orig["Rank"]

    def at(ref):
        got = cells.get(ref)
        if got is None or got[0] is None:
            got = first.get(ref)
        return (got or (None, None, None))[1:]
    rows, r = [], 5
    while first.get(f"B{r}"):
        rows.append({h: at(f"{col}{r}") for h, col in heads.items()})
        r += 1
    below = {}
    for k in range(r, r + 8):
        if first.get(f"B{k}") and first.get(f"C{k}"):
            below[first[f"B{k}"][2]] = at(f"C{k}")
    return rows, below


def num(cell):
    return recalc.as_number(cell[1]) if cell and cell[0] not in ("str", "s", "inlineStr", "e") else None


def near(x, y):
    return x is not None and y is not None and math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)


def expect_rank_sheet(book, orig, heads, doc, who, reasons_doc):
    """Every Rank cell of @p book against the JSON @p doc in a live row, against reasons_doc (the JSON of
    the run that wrote it) in a row of values; a rejected option's reasons against reasons_doc's."""
    rows, below = rank_sheet(book, orig, heads)
    figs = TRAIN if doc["job"] == "train" else SERVE
    unit = doc["unit"]
    check(all(h in heads for h, _ in figs) and unit in heads and "Rank" in heads and "Sheets" in heads
          and "Candidate" in heads, f"{who}: Rank sheet headers {sorted(heads)}")
    by_label = {label(o): o for o in doc["options"]}
    reasons_by = {label(o): o for o in reasons_doc["options"]}
    live = [r["Sheets"][1] != VALUES for r in rows]
    check(live == [i < LIVE for i in range(len(rows))],
          f"{who}: live rows {live}, expected the first {LIVE} live and the rest values at run")
    listed = [(by_label if lv else reasons_by).get(r["Option"][1]) for r, lv in zip(rows, live)]
    check(all(listed) and len(rows) >= 2, f"{who}: {len(rows)} rows, unknown options "
          f"{[r['Option'][1] for r, o in zip(rows, listed) if not o]}")
    # tco advise's order among the rows listed: cost per unit, then capex, then the candidate number
    order_key = {id(o): (o["cost_per_unit"], o["capex"], num(r["Candidate"])) for r, o in zip(rows, listed) if o}
    ranked = sorted(order_key[id(o)] for o in listed if o and o["feasible"])
    checked = 0
    for r, o in zip(rows, listed):
        if not o:
            continue
        name = label(o)
        if o["feasible"]:
            want_rank = 1 + ranked.index(order_key[id(o)])  # among the options listed
            check(num(r["Rank"]) == want_rank, f"{who}: {name}: rank {r['Rank']}, expected {want_rank} "
                  f"(tco advise ranks it {o['rank']} of {doc['feasible']})")
            for h, key in figs + [(unit, "cost_per_unit")]:
                check(near(num(r[h]), o[key]), f"{who}: {name}: {h} {r[h]}, tco advise gives {o[key]!r}")
                checked += 1
        else:
            check(r["Rank"][1] == UNRANKED, f"{who}: {name} (rejected): rank {r['Rank']}")
            for h, _ in figs + [(unit, "cost_per_unit")]:
                check(r[h][1] == FAILS, f"{who}: {name} (rejected): {h} shows {r[h]}, expected no figure")
            want = "; ".join(reasons_by[name]["reasons"])
            check(r["Why not (a rejected option's failing checks)"][1] == want,
                  f"{who}: {name}: reasons {r['Why not (a rejected option' + chr(39) + 's failing checks)']}, expected {want!r}")
        checked += 1
    # The best and the runner-up by the live ranks, and how much cheaper per unit the best is.
    order = sorted((o for o in listed if o and o["feasible"]), key=lambda o: order_key[id(o)])
    if len(order) >= 2:
        check(below["Best (rank 1)"][1] == label(order[0]), f"{who}: best {below['Best (rank 1)']}, "
              f"expected {label(order[0])}")
        check(below["Runner-up (rank 2)"][1] == label(order[1]), f"{who}: runner-up {below['Runner-up (rank 2)']}")
        share = (order[1]["cost_per_unit"] - order[0]["cost_per_unit"]) / order[1]["cost_per_unit"]
        got = num(below["Best: cheaper per unit than the runner-up"])
        check(near(got, share), f"{who}: the best is cheaper by {got!r}, expected {share!r}")
    print(f"{who}: {len(rows)} options, {checked} cells as tco advise gives them")
    return {r["Option"][1]: num(r["Rank"]) for r in rows}


with tempfile.TemporaryDirectory() as tmp:
    base_book = os.path.join(tmp, "advice.xlsx")
    base = run("--out", base_book)
    after = run("--set", a.set_, "--no-workbook")
    orig, names = recalc.read_cells(base_book)
    heads = headers(orig)
    before_ranks = expect_rank_sheet(orig, orig, heads, base, "as written", base)
    sheet, ref = names[a.name]
    check(sheet == "Shared inputs", f"{a.name} is on sheet {sheet!r}, expected the one shared cell")
    typed = float(a.set_.split("=", 1)[1])
    edited = os.path.join(tmp, "edited.xlsx")
    recalc.set_cell(base_book, edited, sheet, ref, typed)
    apps = ["gnumeric", "libreoffice"] if a.app == "both" else [a.app]
    for app in apps:
        with tempfile.TemporaryDirectory() as work:
            out = (recalc.recalc_libreoffice if app == "libreoffice" else recalc.recalc_gnumeric)(edited, work)
            rec, _ = recalc.read_cells(out)
        ranks = expect_rank_sheet(rec, orig, heads, after, f"{app}, {a.name} = {typed!r}", base)
        first, second = a.swap
        check(before_ranks.get(first) == 1 and before_ranks.get(second) == 2,
              f"before the edit: {first} {before_ranks.get(first)}, {second} {before_ranks.get(second)}, expected 1, 2")
        check(ranks.get(second) == 1 and ranks.get(first) == 2,
              f"{app}: after the edit {second} is {ranks.get(second)} and {first} {ranks.get(first)}, expected 1, 2")
        moved = sum(1 for k in ranks if ranks[k] != before_ranks.get(k))
        check(moved >= 2, f"{app}: the edit moved {moved} ranks")
        print(f"{app}: {moved} ranks moved; rank 1 is now {second}")
    # The listed options are the CLI's top ten after the edit too, so every rank is tco's own.
    top = {label(o) for o in after["options"] if o["feasible"] and o["rank"] <= 10}
    listed_top = {k for k, v in before_ranks.items() if v is not None and v <= 10}
    check(top == listed_top, f"the top ten after the edit differ from those listed: {sorted(top ^ listed_top)}")
finish()
