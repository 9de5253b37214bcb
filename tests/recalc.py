#!/usr/bin/env python3
"""recalc.py - independent recalculation checks for tco workbooks (stdlib only).

  recalc.py check [--app gnumeric|libreoffice|both] BOOK.xlsx...
      Every formula cell's cached value (what tco wrote) must equal the value
      Gnumeric (ssconvert --recalc) and/or LibreOffice (headless, recalculation
      on load forced) compute, within a relative 1e-9; a cached text result
      ("never: ...", "n.a.: ...") must be recalculated to the same text.  Fails on a formula with
      no cached value, an error value, or fewer than --min-formulas formulas.

  recalc.py json BOOK.xlsx JSON
      The numbers tco printed with --format json equal the workbook's cached
      values exactly: each output and input name is looked up as a defined name.

  recalc.py live --tco BIN --root DIR --scenario NAME --set SECTION.KEY=VALUE --name INPUT
      Proves no derived number is pasted as a value: change input INPUT in the
      workbook itself, recalculate with Gnumeric, and compare every defined
      name with tco's own result for the scenario with SECTION.KEY=VALUE.
      At least one total must move.  --app libreoffice recalculates with
      LibreOffice instead, --app both with each.  --quotes FILE (repeatable) and
      --as-of DATE price both runs from vendor quotes.  --via-set takes tco's
      answer from a run with --set SECTION.KEY=VALUE instead of an edited
      scenario file (needed for what no scenario file holds, such as the
      exchange rate fx.usd).  --expect-move NAME=DELTA (repeatable) pins how far
      a value must move, in tco's run and in the recalculated workbook alike.
      The edited input's Status cell (a live formula against the value the
      run wrote) must read "edited", every other input's Status what the run
      wrote.  --tier CODE edits the row CODE of per-tier input INPUT (its
      column of the tier table) instead; tco's run must then give that row the
      typed value.  --expect-at SHEET COLUMN LABEL HEADER VALUE (repeatable)
      pins a cell by what it is next to: on SHEET, the row whose cell in
      COLUMN reads LABEL, the column whose header (above it) reads HEADER; it
      must read VALUE after the edit in each application, and must not before.

Exit 0 when every check passes, 1 otherwise; the last line is a summary.
"""
import argparse, json, math, os, re, shutil, subprocess, sys, tempfile, zipfile
import xml.etree.ElementTree as ET

M = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PR = "http://schemas.openxmlformats.org/package/2006/relationships"
RTOL = 1e-9


def q(tag):
    return "{%s}%s" % (M, tag)


def sheet_parts(z):
    """[(sheet name, part path)] in workbook order."""
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = {r.get("Id"): r.get("Target") for r in rels.iter("{%s}Relationship" % PR)}
    out = []
    for s in wb.iter(q("sheet")):
        t = target[s.get("{%s}id" % R)].lstrip("/")
        out.append((s.get("name"), t if t.startswith("xl/") else "xl/" + t))
    return out


def defined_names(z):
    """{name (lower case): (sheet, cell ref without $)}."""
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    names = {}
    for d in wb.iter(q("definedName")):
        m = re.fullmatch(r"'?(.+?)'?!\$?([A-Z]+)\$?(\d+)", (d.text or "").strip())
        if m:
            names[d.get("name").lower()] = (m.group(1).replace("''", "'"), m.group(2) + m.group(3))
    return names


def cell_at(cells, column, label, header):
    """The ref of the cell of @cells (one sheet's) in the row whose COLUMN cell reads LABEL and the column
    whose header reads HEADER (the nearest cell reading it above that row: row 4, or the header row of the
    Inputs' tier table below the list), or None."""
    rows = [re.sub(r"[A-Z]+", "", r) for r, c in cells.items() if re.fullmatch(column + r"\d+", r) and c[2] == label]
    if not rows:
        return None
    heads = [re.fullmatch(r"([A-Z]+)(\d+)", r).groups() for r, c in cells.items() if c[2] == header]
    heads = [(int(n), col) for col, n in heads if int(n) <= int(rows[0])]
    return max(heads)[1] + rows[0] if heads else None


def same_text(got, want):
    """A cell's text @got reads @want: the same text, or the same number."""
    if got == want:
        return True
    try:
        return same(float(got), float(want))
    except (TypeError, ValueError):
        return False


def read_cells(path):
    """{sheet: {ref: (formula or None, type, text value or None)}}."""
    with zipfile.ZipFile(path) as z:
        strings = []
        if "xl/sharedStrings.xml" in z.namelist():
            for si in ET.fromstring(z.read("xl/sharedStrings.xml")).iter(q("si")):
                strings.append("".join(t.text or "" for t in si.iter(q("t"))))
        book = {}
        for name, part in sheet_parts(z):
            cells = {}
            for c in ET.fromstring(z.read(part)).iter(q("c")):
                f, v = c.find(q("f")), c.find(q("v"))
                typ = c.get("t", "n")
                val = v.text if v is not None else None
                if typ == "s" and val is not None:
                    val = strings[int(val)]
                cells[c.get("r")] = (None if f is None else (f.text or ""), typ, val)
            book[name] = cells
        return book, defined_names(z)


def recalc_gnumeric(src, tmp):
    dst = os.path.join(tmp, "gnumeric.xlsx")
    r = subprocess.run(["ssconvert", "--recalc", src, dst], capture_output=True, text=True, timeout=600)
    if not os.path.exists(dst):
        raise RuntimeError("ssconvert failed: " + r.stderr[-500:])
    return dst


def recalc_libreoffice(src, tmp):
    profile = os.path.join(tmp, "profile", "user")
    os.makedirs(profile)
    # Force "recalculate on load: always" for OOXML files in a throw-away profile.
    with open(os.path.join(profile, "registrymodifications.xcu"), "w") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
                 'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
                 '<item oor:path="/org.openoffice.Office.Calc/Formula/Load">'
                 '<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>\n'
                 '</oor:items>\n')
    indir, outdir = os.path.join(tmp, "in"), os.path.join(tmp, "lo")
    os.makedirs(indir)
    os.makedirs(outdir)
    copy = os.path.join(indir, "book.xlsx")
    shutil.copyfile(src, copy)
    r = subprocess.run(["soffice", "-env:UserInstallation=file://" + os.path.join(tmp, "profile"),
                        "--headless", "--norestore", "--convert-to", "xlsx:Calc MS Excel 2007 XML",
                        "--outdir", outdir, copy], capture_output=True, text=True, timeout=600)
    dst = os.path.join(outdir, "book.xlsx")
    if not os.path.exists(dst):
        raise RuntimeError("soffice failed: " + (r.stderr or r.stdout)[-500:])
    return dst


def as_number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def same(a, b):
    return a == b or math.isclose(a, b, rel_tol=RTOL, abs_tol=1e-9)


def compare_books(orig, recalculated, label):
    formulas = mismatches = 0
    for sheet, cells in orig.items():
        other = recalculated.get(sheet, {})
        for ref, (formula, _typ, cached) in cells.items():
            if formula is None:
                continue
            formulas += 1
            got = other.get(ref)
            a = as_number(cached)
            b = as_number(got[2]) if got else None
            if _typ == "str":
                # A formula whose result is text ("never: ...", "n.a.: ..."): the same text, not a number.
                if got is None or got[1] not in ("str", "s", "inlineStr") or got[2] != cached:
                    print(f"{label}: {sheet}!{ref} ={formula}: cached text {cached!r}, recalculated "
                          f"{got and got[2]!r} ({got and got[1]})")
                    mismatches += 1
                continue
            # The type as well as the text: a cached number 1 where the app computes the boolean TRUE
            # (a bare =AND(...)) is a mismatch, since =C25=1 is FALSE in Excel there (issue 23 §6).
            if got is not None and got[1] != "e" and (got[1] == "b") != (_typ == "b"):
                kind = {"b": "boolean", "n": "number"}
                print(f"{label}: {sheet}!{ref} ={formula}: cached {kind.get(_typ, _typ)} {cached!r}, recalculated "
                      f"{kind.get(got[1], got[1])} {got[2]!r}")
                mismatches += 1
                continue
            if a is None:
                print(f"{label}: {sheet}!{ref} ={formula}: no cached number ({cached!r})")
                mismatches += 1
            elif got is None or got[1] == "e" or b is None:
                print(f"{label}: {sheet}!{ref} ={formula}: recalculated to {got and got[2]!r}")
                mismatches += 1
            elif not same(a, b):
                print(f"{label}: {sheet}!{ref} ={formula}: cached {a!r}, recalculated {b!r}")
                mismatches += 1
    return formulas, mismatches


def cmd_check(a):
    apps = ["gnumeric", "libreoffice"] if a.app == "both" else [a.app]
    total_f = total_bad = 0
    for path in a.books:
        orig, _ = read_cells(path)
        for app in apps:
            with tempfile.TemporaryDirectory() as tmp:
                out = (recalc_gnumeric if app == "gnumeric" else recalc_libreoffice)(os.path.abspath(path), tmp)
                rec, _ = read_cells(out)
            f, bad = compare_books(orig, rec, f"{path} [{app}]")
            print(f"{path} [{app}]: formulas={f} mismatches={bad}")
            if f < a.min_formulas:
                print(f"{path} [{app}]: expected at least {a.min_formulas} formula cells")
                bad += 1
            total_f += f
            total_bad += bad
    print(f"{total_f - total_bad} passed, {total_bad} failed")
    return 1 if total_bad else 0


def value_at(book, names, name):
    sheet, ref = names[name]
    cell = book[sheet].get(ref)
    return as_number(cell[2]) if cell else None


def json_values(doc):
    """{name: number} for every scalar input/output and each output's total; for a comparison (a list, one
    document per option) the names carry the option's prefix, a_tco, b_tco."""
    if isinstance(doc, list):
        return {f"{chr(97 + k)}_{n}": v for k, d in enumerate(doc) for n, v in json_values(d).items()}
    out = {}
    for group in ("inputs", "outputs"):
        for name, item in doc[group].items():
            if "value" in item and item["value"] is not None and not isinstance(item["value"], str):
                out[name] = item["value"]
            elif "total" in item:
                out[name + "_total"] = item["total"]
    return out


def json_texts(doc):
    """{name: text} for every output that gives text: a reason ("n.a.: ...", "never: ...") or a text line
    (prefixed per option for a comparison, as json_values())."""
    if isinstance(doc, list):
        return {f"{chr(97 + k)}_{n}": v for k, d in enumerate(doc) for n, v in json_texts(d).items()}
    out = {}
    for name, item in doc["outputs"].items():
        if item.get("value") is None and "reason" in item:
            out[name] = item["reason"]
        elif isinstance(item.get("value"), str):
            out[name] = item["value"]
    return out


def cmd_json(a):
    book, names = read_cells(a.book)
    with open(a.json) as fh:
        doc = json.load(fh)
    checked = bad = 0
    for name, value in json_values(doc).items():
        if name not in names:
            continue
        got = value_at(book, names, name)
        checked += 1
        if got is None or got != value:
            print(f"{name}: JSON {value!r}, workbook {got!r}")
            bad += 1
    for role, name in (("tco", "tco"), ("capex", "capex_total"), ("opex_total", "opex_total")):
        if name in names:
            checked += 1
            if value_at(book, names, name) != doc[role]:
                print(f"JSON {role} {doc[role]!r} differs from workbook {name}")
                bad += 1
    if checked < 20:
        print(f"only {checked} JSON numbers matched a defined name")
        bad += 1
    print(f"{checked - bad} passed, {bad} failed")
    return 1 if bad else 0


def set_cell(src, dst, sheet_name, ref, value):
    """Copy src to dst with one input cell's value replaced (XML edited in place): a number, or
    text (written as an inline string, as a user typing it would leave it).  An input cell holding a
    formula (a quoted price, a money input in another currency: =0.7/fx_report) loses it, as when a
    user types over it."""
    with zipfile.ZipFile(src) as z:
        part = dict(sheet_parts(z))[sheet_name]
        xml = z.read(part).decode("utf-8")
        pat = re.compile(r'<c r="%s"([^>]*)>(?:<f>[^<]*</f>)?<v>[^<]*</v>' % ref)

        def attrs(m):  # the cell's other attributes (style), without its type
            return re.sub(r'\s+t="[^"]*"', "", m.group(1))
        if isinstance(value, str):
            esc = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            new, n = pat.subn(lambda m: '<c r="%s"%s t="inlineStr"><is><t>%s</t></is>' % (ref, attrs(m), esc), xml)
        else:
            new, n = pat.subn(lambda m: '<c r="%s"%s><v>%r</v>' % (ref, attrs(m), value), xml)
        if n != 1:
            raise RuntimeError(f"cell {sheet_name}!{ref} not found as a plain value")
        with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
            for info in z.infolist():
                out.writestr(info, new.encode("utf-8") if info.filename == part else z.read(info.filename))


def ini_set(text, section, key, value):
    """INI text with [section] key set to value: replaced in place, added to the section, or a new section."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.strip().lower() == f"[{section.lower()}]"), None)
    if start is None:
        return text + f"\n[{section}]\n{key} = {value}\n"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("[")), len(lines))
    for i in range(start + 1, end):
        if "=" in lines[i] and lines[i].split("=", 1)[0].strip().lower() == key.lower():
            lines[i] = f"{key} = {value}"
            return "\n".join(lines) + "\n"
    lines.insert(start + 1, f"{key} = {value}")
    return "\n".join(lines) + "\n"


def run_tco(a, scenario, out, extra=()):
    quotes = [arg for f in a.quotes for arg in ("--quotes", f)] + (["--as-of", a.as_of] if a.as_of else [])
    currency = ["--currency", a.currency] if getattr(a, "currency", None) else []
    what = ["--compare", scenario] if getattr(a, "compare", False) else ["--scenario", scenario]
    cmd = [a.tco, "--root", a.root, *what, "--out", out, "--format", "json", *quotes, *currency, *extra]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def cmd_live(a):
    section, rest = a.set.split(".", 1)
    key, value = rest.split("=", 1)
    try:
        value = float(value)
    except ValueError:
        pass  # a text input, e.g. --set scenario.card=D-L edits the card_tier cell
    # The value typed into the cell: the --set value, or --cell-value (a CNY --set of a money input
    # shown in USD is typed as its USD value, 0.85 / 7.1).
    typed = value if a.cell_value is None else float(a.cell_value)
    with tempfile.TemporaryDirectory() as tmp:
        base_book = os.path.join(tmp, "base.xlsx")
        base = run_tco(a, a.scenario, base_book)
        if a.compare and not a.via_set:
            raise SystemExit("live --compare needs --via-set (the comparison's answer with --set)")
        if a.via_set:
            # The same run with --set: tco's own answer.
            expect_doc = run_tco(a, a.scenario, os.path.join(tmp, "expected.xlsx"), ("--set", a.set))
        else:
            # The same scenario with the input changed in its INI: tco's own answer.
            src = os.path.join(a.root, "scenarios", a.scenario + ".ini")
            with open(src) as fh:
                text = fh.read()
            changed_ini = os.path.join(tmp, a.scenario + ".ini")
            with open(changed_ini, "w") as fh:
                fh.write(ini_set(text, section, key, value if isinstance(value, str) else repr(value)))
            expect_doc = run_tco(a, changed_ini, os.path.join(tmp, "expected.xlsx"))
        expect = json_values(expect_doc)
        # The workbook with the input cell edited, recalculated by each application.
        orig_cells, names = read_cells(base_book)
        if a.tier:
            # One row of a per-tier input (no defined name: its formulas name the range): on Inputs, the
            # row whose "Tier" column reads CODE, the column headed "LABEL (UNIT)" as the JSON gives them.
            sheet, cells = "Inputs", orig_cells["Inputs"]
            info = base["inputs"][a.name]
            ref = cell_at(cells, re.sub(r"\d+", "", cell_at(cells, "[A-Z]+", "Tier", "Tier") or "?"), a.tier,
                          "%s (%s)" % (info["label"], info["unit"]))
            if ref is None:
                raise SystemExit(f"no cell of {a.name} for tier {a.tier} on Inputs")
        else:
            sheet, ref = names[a.name]
        edited = os.path.join(tmp, "edited.xlsx")
        set_cell(base_book, edited, sheet, ref, typed)
        apps = ["gnumeric", "libreoffice"] if a.app == "both" else [a.app]
        recalculated = {}
        for app in apps:
            with tempfile.TemporaryDirectory() as work:
                recalculated[app] = read_cells((recalc_libreoffice if app == "libreoffice" else recalc_gnumeric)(
                    edited, work))[0]
    checked = bad = moved = 0
    before = json_values(base)
    for name, want in expect.items():
        if name not in names:
            continue
        for app, rec in recalculated.items():
            got = value_at(rec, names, name)
            checked += 1
            if got is None or not same(got, want):
                print(f"{name}: after editing {a.name} = {value!r} {app} gives {got!r}, tco gives {want!r}")
                bad += 1
        if name not in before or not same(before[name], want):
            moved += 1
    # Outputs that say "n.a." or give text after the change must say the same text in each application.
    before_texts = json_texts(base)
    for name, want in json_texts(expect_doc).items():
        if name not in names:
            continue
        for app, rec in recalculated.items():
            at_sheet, at_ref = names[name]  # not sheet, ref: the edited cell's, whose Status is checked below
            cell = rec[at_sheet].get(at_ref)
            checked += 1
            if cell is None or cell[2] != want:
                print(f"{name}: after editing {a.name} = {value!r} {app} gives {cell and cell[2]!r}, tco gives {want!r}")
                bad += 1
        if before_texts.get(name) != want:
            moved += 1
    # The edited input's Status (column F of its row) is a live formula against the value the run wrote:
    # it reads "edited" now, and every other input's Status still reads what the run wrote (issue 23 §2).
    # A quoted price or a value in another reporting currency (a formula cell) is compared with the formula
    # the run wrote, so it reads "edited" once typed over too.  (A tier row's Status is in the tier table:
    # --expect-at pins it.)
    status_ref = "F" + re.sub(r"[A-Z]+", "", ref)
    status = orig_cells[sheet].get(status_ref) if not a.tier else None
    typed_over = orig_cells[sheet].get(ref, (None,))[0] is None and not a.tier  # the run wrote a plain value there
    for ex_sheet, column, label, header, want in a.expect_at:
        at = cell_at(orig_cells.get(ex_sheet, {}), column, label, header)
        if at is None:
            print(f"{ex_sheet}: no cell in the row of {label!r} (column {column}) under {header!r}")
            bad += 1
            continue
        checked += 1
        if same_text(orig_cells[ex_sheet][at][2], want):
            print(f"{ex_sheet}!{at} ({label}, {header}) reads {want!r} before the edit: the check proves nothing")
            bad += 1
        for app, rec in recalculated.items():
            checked += 1
            got = rec[ex_sheet].get(at, (None, None, None))[2]
            if not same_text(got, want):
                print(f"{ex_sheet}!{at} ({label}, {header}): {app} gives {got!r} after the edit, expected {want!r}")
                bad += 1
            else:
                print(f"{ex_sheet}!{at} ({label}, {header}): {orig_cells[ex_sheet][at][2]!r} -> {got!r} ({app})")
    if typed_over and (status is None or status[0] is None):
        print(f"{sheet}!{status_ref} (Status of {a.name}): no live formula, it cannot say 'edited'")
        bad += 1
    elif status is not None and status[0] is not None:
        for app, rec in recalculated.items():
            checked += 1
            got = rec[sheet].get(status_ref)
            if got is None or got[2] != "edited":
                print(f"{sheet}!{status_ref} (Status of {a.name}): {app} gives {got and got[2]!r} after the edit, "
                      f"not 'edited'")
                bad += 1
            for other, cell in orig_cells[sheet].items():
                if other == status_ref or not other.startswith("F") or cell[0] is None or "edited" not in cell[0]:
                    continue
                checked += 1
                if rec[sheet].get(other, (None, None, None))[2] != cell[2]:
                    print(f"{sheet}!{other}: {app} gives {rec[sheet].get(other)!r} after editing {a.name}, "
                          f"the run wrote {cell[2]!r}")
                    bad += 1
        print(f"{sheet}!{status_ref} (Status of {a.name}): {status[2]!r} -> 'edited' ({', '.join(recalculated)})")
    if a.compare and a.expect_sheet and names[a.name][0] != a.expect_sheet:
        print(f"{a.name} is on sheet {names[a.name][0]!r}, expected {a.expect_sheet!r}")
        bad += 1
    given = (expect_doc[0] if a.compare else expect_doc)["inputs"].get(a.name, {}).get("value")
    if a.tier:
        given = expect_doc["inputs"].get(a.name, {}).get("by_tier", {}).get(a.tier)
    if moved == 0 or not (given == typed or (isinstance(typed, float) and isinstance(given, (int, float)) and
                                             same(given, typed))):
        print(f"changing {a.name} to {value!r} moved no value: the check proves nothing")
        bad += 1
    for pin in a.expect_move:
        name, delta = pin.split("=", 1)
        delta = float(delta)
        moves = [("tco", expect.get(name))] + [(app, value_at(rec, names, name) if name in names else None)
                                               for app, rec in recalculated.items()]
        for who, after in moves:
            checked += 1
            got = None if after is None or name not in before else after - before[name]
            if got is None or not math.isclose(got, delta, rel_tol=1e-9, abs_tol=1e-6):
                print(f"{name}: {who} moves it by {got!r}, expected {delta!r}")
                bad += 1
            else:
                print(f"{name}: {before[name]!r} -> {after!r} ({who}), moved by {got!r} as expected")
    was = before.get("a_" + a.name if a.compare else a.name)
    print(f"{a.name} {was!r} -> {typed!r}: {moved} values moved ({', '.join(recalculated)})")
    print(f"{checked - bad} passed, {bad} failed")
    return 1 if bad else 0


def cmd_broken(a):
    """Edit input NAME to a value that makes some calculation cell an error; every application must
    then show check NAME 0 and the master check not passing (0 or an error, never 1)."""
    try:
        value = float(a.value)
    except ValueError:
        value = a.value
    bad = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        base_book = os.path.join(tmp, "base.xlsx")
        run_tco(a, a.scenario, base_book)
        orig_cells, names = read_cells(base_book)
        sheet, ref = names[a.name]
        edited = os.path.join(tmp, "edited.xlsx")
        set_cell(base_book, edited, sheet, ref, value)
        apps = ["gnumeric", "libreoffice"] if a.app == "both" else [a.app]
        for app in apps:
            with tempfile.TemporaryDirectory() as work:
                rec = read_cells((recalc_libreoffice if app == "libreoffice" else recalc_gnumeric)(edited, work))[0]
            errors = sum(1 for cells in rec.values() for (_f, typ, _v) in cells.values() if typ == "e")
            got = value_at(rec, names, a.check)
            master = rec[names["checks_ok"][0]].get(names["checks_ok"][1])
            checked += 3
            if errors == 0:
                print(f"{app}: editing {a.name} to {value!r} made no error value: the check proves nothing")
                bad += 1
            if got != 0:
                print(f"{app}: {a.check} is {got!r} with {errors} error cells, expected 0")
                bad += 1
            if master is not None and master[1] != "e" and as_number(master[2]) == 1:
                print(f"{app}: checks_ok passes beside {errors} error cells")
                bad += 1
            print(f"{app}: {a.name} = {value!r}: {errors} error cells, {a.check} = {got!r}, checks_ok = "
                  f"{master and master[2]!r}")
    print(f"{checked - bad} passed, {bad} failed")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--app", choices=["gnumeric", "libreoffice", "both"], default="gnumeric")
    c.add_argument("--min-formulas", type=int, default=1)
    c.add_argument("books", nargs="+")
    j = sub.add_parser("json")
    j.add_argument("book")
    j.add_argument("json")
    def run_args(p, app_default):
        """The arguments of a subcommand that runs tco and edits one input of its workbook."""
        p.add_argument("--tco", required=True)
        p.add_argument("--root", required=True)
        p.add_argument("--scenario", required=True)
        p.add_argument("--name", required=True)
        p.add_argument("--app", choices=["gnumeric", "libreoffice", "both"], default=app_default)
        p.add_argument("--quotes", action="append", default=[])
        p.add_argument("--as-of")
    b = sub.add_parser("broken")
    run_args(b, "both")
    b.add_argument("--value", required=True)
    b.add_argument("--check", default="check_no_errors")
    l = sub.add_parser("live")
    run_args(l, "gnumeric")
    l.add_argument("--set", required=True)
    l.add_argument("--compare", action="store_true",
                   help="--scenario names a comparison: each option's figures are its prefixed names (a_tco)")
    l.add_argument("--expect-sheet", help="with --compare: the sheet the edited name must be on (Shared inputs)")
    l.add_argument("--via-set", action="store_true")
    l.add_argument("--expect-move", action="append", default=[])
    l.add_argument("--currency", help="pass --currency CODE to both runs")
    l.add_argument("--cell-value", help="the number typed into the cell (default: the --set value)")
    l.add_argument("--tier", help="edit row CODE of the per-tier input --name (its cell in the tier table)")
    l.add_argument("--expect-at", nargs=5, action="append", default=[],
                   metavar=("SHEET", "COLUMN", "LABEL", "HEADER", "VALUE"),
                   help="the cell in the row whose COLUMN cell reads LABEL, under the header HEADER, reads "
                        "VALUE after the edit and not before")
    a = ap.parse_args()
    try:
        return {"check": cmd_check, "json": cmd_json, "live": cmd_live, "broken": cmd_broken}[a.cmd](a)
    except (RuntimeError, OSError, KeyError, ValueError) as e:
        print(f"recalc.py: {e}")
        print("0 passed, 1 failed")
        return 1


if __name__ == "__main__":
    sys.exit(main())
