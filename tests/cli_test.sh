#!/bin/sh
# cli_test.sh - end-to-end tests of the tco command: what a user types, what
# they see, the exit status, and what lands on disk.
# Usage: cli_test.sh TCO_BINARY SOURCE_DIR
set -u
TCO=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run EXPECTED_EXIT ARGS... : runs tco, keeps stdout in $T/out, stderr in $T/err.
run() {
    want=$1
    shift
    "$TCO" "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else bad "tco $*: exit $got, expected $want; stderr: $(cat "$T/err")"; fi
}
expect_out() { if grep -qF -- "$1" "$T/out"; then ok; else bad "stdout lacks '$1':"; cat "$T/out"; fi; }
expect_err() { if grep -qF -- "$1" "$T/err"; then ok; else bad "stderr lacks '$1': $(cat "$T/err")"; fi; }
expect_err_lines() {
    n=$(wc -l <"$T/err")
    if [ "$n" -eq "$1" ]; then ok; else bad "stderr has $n lines, expected $1: $(cat "$T/err")"; fi
}
# member BOOK PART: print one part of a workbook (the tests need no unzip).
member() { python3 -c 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())' "$1" "$2"; }
no_temp_left() {
    if ls -a "$1" | grep -q '^\.tco-.*\.tmp$'; then bad "temporary file left in $1: $(ls -a "$1")"; else ok; fi
}

# --help and --version
run 0 --help
expect_out "Usage: tco --scenario NAME"
expect_out "Exit status: 0 ok, 64 usage, 65 invalid input data"
run 0 --version
expect_out "tco 0."

# --list
run 0 --root "$SRC" --list
expect_out "cluster32"
expect_out "Training cluster: 32x D-M"

# The main job, with the figures of tests/test_model.c (worked by hand there).
run 0 --root "$SRC" --scenario cluster32 --out "$T/c.xlsx"
[ -s "$T/c.xlsx" ] && ok || bad "no workbook at $T/c.xlsx"
expect_out "Capex total"
expect_out "5,449,050  CNY"
expect_out "7,615,212  CNY"
expect_out "Workbook: $T/c.xlsx"
if [ -s "$T/err" ]; then bad "stderr not empty on success: $(cat "$T/err")"; else ok; fi

# A scenario given as a path works the same.
run 0 --root "$SRC" --scenario "$SRC/scenarios/cluster32.ini" --out "$T/p.xlsx"
cmp -s "$T/c.xlsx" "$T/p.xlsx" && ok || bad "path and name give different workbooks"

# "NAME.ini" that is not in the current folder is looked up in scenarios/.
run 0 --root "$SRC" --scenario cluster32.ini --out "$T/i.xlsx"
cmp -s "$T/c.xlsx" "$T/i.xlsx" && ok || bad "cluster32.ini and cluster32 give different workbooks"

# Same input, same bytes (fixed document creation time).
run 0 --root "$SRC" --scenario cluster32 --out "$T/c2.xlsx"
cmp -s "$T/c.xlsx" "$T/c2.xlsx" && ok || bad "two runs gave different bytes"

# JSON: valid, and its numbers equal the workbook's cached values.
run 0 --root "$SRC" --scenario cluster32 --out "$T/j.xlsx" --format json
python3 -m json.tool "$T/out" >/dev/null && ok || bad "--format json is not valid JSON"
cp "$T/out" "$T/c.json"
if python3 "$SRC/tests/recalc.py" json "$T/j.xlsx" "$T/c.json" >"$T/rj" 2>&1; then ok; else bad "JSON vs workbook: $(cat "$T/rj")"; fi
expect_out '"tco": 7615211.688'

# A what-if never replaces the baseline: out/NAME-whatif.xlsx, with a note on its Summary.
mkdir "$T/wi"
(cd "$T/wi" && "$TCO" --root "$SRC" --scenario cluster32 --set facility.pue=1.2 >/dev/null 2>&1) && ok || bad "what-if run failed"
[ -s "$T/wi/out/cluster32-whatif.xlsx" ] && [ ! -e "$T/wi/out/cluster32.xlsx" ] && ok || bad "what-if workbook not at out/cluster32-whatif.xlsx: $(ls "$T/wi/out")"
member "$T/wi/out/cluster32-whatif.xlsx" xl/sharedStrings.xml | grep -q "What-if (--set): pue = 1.2 (was 1.3)." && ok || bad "no what-if note on the Summary"

# Default output: out/NAME.xlsx under the current folder, out/ created.
mkdir "$T/cwd"
(cd "$T/cwd" && "$TCO" --root "$SRC" --scenario cluster32 >/dev/null 2>&1) && ok || bad "default --out run failed"
[ -s "$T/cwd/out/cluster32.xlsx" ] && ok || bad "no out/cluster32.xlsx under the current folder"

# Usage errors: 64, one line plus the hint.
run 64 --bogus
expect_err "tco: unknown option '--bogus'"
run 64 --root "$SRC"
expect_err "no scenario given"
run 64 --root "$SRC" --scenario cluster32 --format xml
expect_err "--format: expected table, json or csv, found 'xml'"
run 64 --root "$SRC" --scenario
expect_err "option '--scenario' needs a value"
run 64 --root "$SRC" --scenario 'a;b'
expect_err "expected a scenario name"

# Missing input: 66.
run 66 --root "$SRC" --scenario nope
expect_err "no such scenario 'nope'; available: cluster16, cluster32, cluster4, cluster8, compare-solo, compare-team30b, compare-team70b, solo, solo-c70, solo-dev, team"
expect_err_lines 1
run 66 --root "$T" --scenario cluster32
expect_err "expected a folder holding pricing/ and templates/"

# Bad data: 65, one line naming file and place, and nothing written.
MINI="$SRC/tests/fixtures/roots/mini"
run 65 --root "$MINI" --scenario "$SRC/tests/fixtures/bad/scenarios/key_typo.ini" --out "$T/bad.xlsx"
expect_err "tests/fixtures/bad/scenarios/key_typo.ini [site] rat: unknown key (did you mean 'rate'?)"
expect_err_lines 1
[ -e "$T/bad.xlsx" ] && bad "a workbook was written for bad input" || ok

# An existing workbook survives a failed run untouched.
printf 'previous workbook' >"$T/keep.xlsx"
run 65 --root "$MINI" --scenario "$SRC/tests/fixtures/bad/scenarios/div_zero.ini" --out "$T/keep.xlsx"
expect_err "division by zero"
[ "$(cat "$T/keep.xlsx")" = "previous workbook" ] && ok || bad "previous workbook changed by a failed run"
no_temp_left "$T"

# Cannot create output: 73, nothing left behind.
run 73 --root "$SRC" --scenario cluster32 --out "$T/missing/dir/c.xlsx"
expect_err "cannot write into folder '$T/missing/dir'"
no_temp_left "$T"
mkdir "$T/isdir.xlsx"
run 64 --root "$SRC" --scenario cluster32 --out "$T/isdir.xlsx"
expect_err "--out $T/isdir.xlsx: is a folder; give a file name such as $T/isdir.xlsx/cluster32.xlsx"
run 64 --root "$SRC" --scenario cluster32 --out "$T/"
expect_err "is a folder; give a file name such as $T/cluster32.xlsx"
run 64 --root "$SRC" --scenario cluster32 --out "$T/c.csv"
expect_err "--out $T/c.csv: expected a file name ending in .xlsx"
[ -e "$T/c.csv" ] && bad "a file was written for a bad --out" || ok

# SOURCE_DATE_EPOCH sets the document's created time; nonsense is refused.
SOURCE_DATE_EPOCH=1700000000 "$TCO" --root "$SRC" --scenario cluster32 --out "$T/e.xlsx" >/dev/null 2>&1 && ok || bad "SOURCE_DATE_EPOCH run failed"
cmp -s "$T/c.xlsx" "$T/e.xlsx" && bad "SOURCE_DATE_EPOCH changed nothing" || ok
member "$T/e.xlsx" docProps/core.xml 2>/dev/null | grep -q "2023-11-14T22:13:20Z" && ok || bad "created time is not 2023-11-14T22:13:20Z"
# Only a plain decimal integer (reproducible-builds.org): no sign, blanks, exponent or point.
for v in 100000000000000000 253402300800 -5 abc 1.5 1e9 ' 5 ' +5 1.0 5x 0x10; do
    SOURCE_DATE_EPOCH=$v "$TCO" --root "$SRC" --scenario cluster32 --out "$T/e2.xlsx" >"$T/out" 2>"$T/err"
    [ $? -eq 64 ] && ok || bad "SOURCE_DATE_EPOCH='$v' not refused with 64"
    expect_err "SOURCE_DATE_EPOCH: expected a plain decimal integer (digits only) of seconds since 1970, from 0 to 253402300799, found '$v'"
done
[ -e "$T/e2.xlsx" ] && bad "workbook written despite a bad SOURCE_DATE_EPOCH" || ok
# 0 and the largest value are accepted; 0 gives the same bytes a second later (libxlsxwriter
# writes "now" for 0, so tco writes 1970-01-01T00:00:01Z).
SOURCE_DATE_EPOCH=0 "$TCO" --root "$SRC" --scenario cluster32 --out "$T/z1.xlsx" >/dev/null 2>"$T/err" && ok || bad "SOURCE_DATE_EPOCH=0 refused: $(cat "$T/err")"
sleep 1.1
SOURCE_DATE_EPOCH=0 "$TCO" --root "$SRC" --scenario cluster32 --out "$T/z2.xlsx" >/dev/null 2>&1 && ok || bad "SOURCE_DATE_EPOCH=0 refused"
cmp -s "$T/z1.xlsx" "$T/z2.xlsx" && ok || bad "SOURCE_DATE_EPOCH=0 is not reproducible"
member "$T/z1.xlsx" docProps/core.xml 2>/dev/null | grep -q ">1970-01-01T00:00:01Z</dcterms:created>" && ok || bad "SOURCE_DATE_EPOCH=0: created is not 1970-01-01T00:00:01Z"
SOURCE_DATE_EPOCH=253402300799 "$TCO" --root "$SRC" --scenario cluster32 --out "$T/z3.xlsx" >/dev/null 2>&1 && ok || bad "SOURCE_DATE_EPOCH=253402300799 refused"
member "$T/z3.xlsx" docProps/core.xml 2>/dev/null | grep -q ">9999-12-31T23:59:59Z</dcterms:created>" && ok || bad "created is not 9999-12-31T23:59:59Z"

# Never replace something that is not a regular file.
mkfifo "$T/fifo.xlsx"
run 73 --root "$SRC" --scenario cluster32 --out "$T/fifo.xlsx"
expect_err "$T/fifo.xlsx: exists and is not a regular file; refusing to replace it"
[ -p "$T/fifo.xlsx" ] && ok || bad "the FIFO was replaced"
no_temp_left "$T"

# A replaced workbook keeps its permissions.
cp "$T/c.xlsx" "$T/mode.xlsx" && chmod 640 "$T/mode.xlsx"
run 0 --root "$SRC" --scenario cluster32 --out "$T/mode.xlsx"
[ "$(stat -c %a "$T/mode.xlsx")" = 640 ] && ok || bad "permissions not kept: $(stat -c %a "$T/mode.xlsx")"

# Input that is not a regular file, or not UTF-8.
run 66 --root "$SRC" --scenario /dev/zero
expect_err "/dev/zero: not a regular file"
run 66 --root "$SRC" --scenario "$SRC/scenarios/"
expect_err "not a regular file"
printf '\377\376[\000s\000]\000' >"$T/utf16.ini"
run 65 --root "$SRC" --scenario "$T/utf16.ini"
expect_err "$T/utf16.ini: the file is UTF-16; save it as UTF-8"

# Every sheet reference is quoted ('Calc'!$C$5).
run 0 --root "$MINI" --scenario good --out "$T/quoted.xlsx"
member "$T/quoted.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"cost\">'Calc'!\$C\$5</definedName>" && ok || bad "sheet name not quoted in defined names"

# --scenario all: every scenario, each to out/NAME.xlsx, progress on stderr, JSON as an array.
mkdir "$T/all"
(cd "$T/all" && "$TCO" --root "$SRC" --scenario all --format json >"$T/all.json" 2>"$T/all.err") && ok || bad "--scenario all failed: $(cat "$T/all.err")"
n_scen=$(grep -L -e '^\[compare\]' -e '^\[advise\]' "$SRC/scenarios"/*.ini | wc -l)
[ "$(ls "$T/all/out"/*.xlsx | wc -l)" -eq "$n_scen" ] && ok || bad "--scenario all wrote $(ls "$T/all/out" | wc -l) of $n_scen workbooks"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == int(sys.argv[2]), len(d)' "$T/all.json" "$n_scen" && ok || bad "--scenario all JSON is not an array of $n_scen"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); bad = [s["scenario"] for s in d if s["outputs"]["checks_ok"]["value"] != 1]; assert not bad, bad' "$T/all.json" && ok || bad "a scenario fails its master check"
grep -q "^tco: \[$n_scen/$n_scen\] team-ds4\$" "$T/all.err" && ok || bad "no progress line for the last scenario: $(tail -1 "$T/all.err")"
run 64 --root "$SRC" --scenario all --out "$T/x.xlsx"
expect_err "--scenario all writes out/NAME.xlsx for each scenario; --out is not allowed with it"
# A scenario file whose name cannot be a scenario name: --list marks it, --scenario all refuses
# it by name (65) and still runs the others; its path still works.
mkdir "$T/oddroot" "$T/oddrun"
cp -R "$MINI/." "$T/oddroot/"
cp "$MINI/scenarios/good.ini" "$T/oddroot/scenarios/my site.ini"
run 0 --root "$T/oddroot" --list
expect_out "my site          Three widgets for two years (not a scenario name: rename the file to letters, digits, '-' and '_', or give its path)"
(cd "$T/oddrun" && "$TCO" --root "$T/oddroot" --scenario all --format json >"$T/out" 2>"$T/err")
[ $? -eq 65 ] && ok || bad "--scenario all with 'my site.ini': exit not 65: $(cat "$T/err")"
expect_err "tco: $T/oddroot/scenarios/my site.ini: 'my site' cannot be a scenario name (at most 200 letters, digits, '-', '_'); rename the file, e.g. to my_site.ini"
grep -q "unknown option\|Try 'tco --help'\|--scenario 'my site'" "$T/err" && bad "--scenario all gave a usage error: $(cat "$T/err")" || ok
n_odd=$(ls "$MINI/scenarios"/*.ini | wc -l)
[ "$(ls "$T/oddrun/out"/*.xlsx | wc -l)" -eq "$n_odd" ] && ok || bad "--scenario all did not run the other $n_odd scenarios: $(ls "$T/oddrun/out")"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == int(sys.argv[2]) + 1 and d.count(None) == 1, d' "$T/out" "$n_odd" && ok || bad "--scenario all JSON lacks its null for 'my site'"
[ -e "$T/oddrun/out/my site.xlsx" ] && bad "a workbook was written for 'my site'" || ok
run 0 --root "$T/oddroot" --scenario "$T/oddroot/scenarios/my site.ini" --out "$T/oddrun/bypath.xlsx"
# The same names in comparisons: the message names the option typed, or the comparison file.
run 64 --root "$T/oddroot" --compare "my site,good" --out "$T/oddrun/c.xlsx"
expect_err "tco: --compare 'my site': expected a scenario name (at most 200 letters, digits, '-', '_') or a path to an .ini file"
printf '[compare]\nscenarios = good, my site\n' >"$T/oddroot/scenarios/cmp-odd.ini"
run 65 --root "$T/oddroot" --compare cmp-odd --out "$T/oddrun/c.xlsx"
expect_err "tco: $T/oddroot/scenarios/cmp-odd.ini [compare] scenarios: expected a scenario name (at most 200 letters, digits, '-', '_') or a path to an .ini file, found 'my site'"
grep -q -- "--scenario" "$T/err" && bad "a comparison's message names --scenario: $(cat "$T/err")" || ok

# Workbook formulas: CUMSUM is written as SUM from Year 1, a lone MAX of a column as a range.
run 0 --root "$SRC" --scenario cluster32 --out "$T/f.xlsx"
python3 - "$T/f.xlsx" <<'PY' && ok || bad "expected formula shapes not found in the workbook"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
xml = "".join(z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/"))
assert re.search(r"<f>SUM\(\$C(\d+):C\1\)</f>", xml) and re.search(r"<f>SUM\(\$C(\d+):F\1\)</f>", xml), "cumulative cash out from Year 0"
assert re.search(r"[A-Z]5/MAX\(\$([A-Z])\$5:\$\1\$14\)", xml) and "'Inputs'!L5/MAX('Inputs'!$L$5:$L$14)" in xml, "whole column"
assert 'IF(card_interconnect="dedicated",decode_eff_dedicated,decode_eff_pcie)' in xml, "text comparison"
PY

# Vendor quotes: the example file prices cluster32's cards at SG-55's 12,100 USD x 7.1 = 85,910 CNY.
run 0 --root "$SRC" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 --out "$T/q.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "quoted prices not applied as expected"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["outputs"]["card_price"]["value"] == 85910, d["outputs"]["card_price"]
assert d["inputs"]["tier_price"]["by_tier"]["D-M"] == 85910
assert d["outputs"]["card_capex"]["value"] == 32 * 85910
assert d["inputs"]["host_price"]["value"] == 185000
assert d["inputs"]["fx_usd"]["value"] == 7.1
assert "D-M: quote SG-55 from Lion City Tech (" in d["inputs"]["tier_price"]["source"]
PY
member "$T/q.xlsx" xl/workbook.xml | grep -q 'name="Quotes"' && ok || bad "no Quotes sheet"
run 64 --root "$SRC" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 30/11/2026
expect_err "--as-of: expected a date as YYYY-MM-DD, found '30/11/2026'"

# Text from a quote file never becomes a formula.
printf 'vendor,item,unit_price,currency,notes,quote_id\n"=HYPERLINK(""http://example.invalid"",""x"")",D-M,90000,CNY,+cmd|calc,@SUM(1)\n' >"$T/inject.csv"
run 0 --root "$SRC" --scenario cluster32 --quotes "$T/inject.csv" --as-of 2026-11-30 --out "$T/inject.xlsx"
python3 - "$T/inject.xlsx" <<'PY' && ok || bad "text from a quote file became a formula"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
sheets = "".join(z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/"))
strings = z.read("xl/sharedStrings.xml").decode()
formulas = re.findall(r"<f>([^<]*)</f>", sheets)
assert not any("HYPERLINK" in f or "cmd" in f or f.startswith("@") for f in formulas), formulas
assert '<t>=HYPERLINK("http://example.invalid","x")</t>' in strings and "<t>+cmd|calc</t>" in strings
PY

# A bad quote row stops the run: exit 65, file, line and column named, no workbook.
printf 'vendor,item,unit_price,currency\nA,D-M,"12,50",CNY\n' >"$T/badq.csv"
run 65 --root "$SRC" --scenario cluster32 --quotes "$T/badq.csv" --out "$T/badq.xlsx"
expect_err "$T/badq.csv:2: column 3 (unit_price): expected ',' only between groups of three digits"
[ -e "$T/badq.xlsx" ] && bad "workbook written despite a bad quote file" || ok

# Streaming: beyond the first 1,000 rows of an item only a new best is kept, and it still wins.
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("vendor,item,unit_price,currency,valid_until\n")
    for i in range(1500):
        f.write("Bulk %d,D-M,90000,CNY,2027-06-30\n" % i)
    f.write("Late expired,D-M,70000,CNY,2026-01-31\n")
    f.write("Late best,D-M,80000,CNY,2027-06-30\n")
' "$T/many.csv"
run 0 --root "$SRC" --scenario cluster32 --quotes "$T/many.csv" --as-of 2026-11-30 --out "$T/many.xlsx" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["outputs"]["card_price"]["value"] == 80000; assert "Late best" in d["inputs"]["tier_price"]["source"]' "$T/out" && ok || bad "the best quote after the listing cap was not chosen"

# Quotes from the dearest to the cheapest (every row the best so far): the cheapest still wins.
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("vendor,item,unit_price,currency,valid_until\n")
    for i in range(3000):
        f.write("Desc %d,D-M,%d,CNY,2027-06-30\n" % (i, 93000 - i))
' "$T/desc.csv"
run 0 --root "$SRC" --scenario cluster32 --quotes "$T/desc.csv" --as-of 2026-11-30 --out "$T/desc.xlsx" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["outputs"]["card_price"]["value"] == 90001, d["outputs"]["card_price"]' "$T/out" && ok || bad "the cheapest of descending quotes was not chosen"

# tco quotes check: every problem, a summary line, exit 65 when any.
run 0 --root "$SRC" quotes check "$SRC/pricing/example-quotes.csv"
expect_out "example-quotes.csv: 9 rows, 0 errors, 0 warnings"
printf 'vendor,item,unit_price,currency,colour\nA,D-M,abc,CNY,red\nB,D-M,500,XYZ,blue\nC,D-LL,1000,CNY,\n' >"$T/check.csv"
run 65 --root "$SRC" quotes check "$T/check.csv"
expect_err "$T/check.csv:1: column 5: unknown column 'colour' is ignored"
expect_err "$T/check.csv:2: column 3 (unit_price): expected a price such as 12500 or 12,500.00, found 'abc'"
expect_err "$T/check.csv:3: column 4 (currency): expected a currency code with a rate in"
expect_err "$T/check.csv:4: column 2 (item): unknown item 'D-LL' (did you mean 'D-L'?)"
expect_out "$T/check.csv: 3 rows, 3 errors, 1 warnings"

# --format csv: exact output (RFC 4180, CRLF), checked by hand: 3 x 10 = 30; 30 x 0.5 x year = 15, 30.
run 0 --root "$MINI" --scenario good --format csv --out "$T/csv.xlsx"
sed "s#$MINI/#ROOT/#g" "$T/out" >"$T/csv-rooted"
cmp -s "$T/csv-rooted" "$SRC/tests/fixtures/expected/mini-good.csv" && ok || bad "--format csv differs: $(diff "$T/csv-rooted" "$SRC/tests/fixtures/expected/mini-good.csv" | head -5)"
# Text that a spreadsheet would read as a formula gets an apostrophe in CSV.
printf '[scenario]\ntitle = =cmd|calc\ntemplate = mini\nthing = widget\nqty = 3\nyears = 2\n' >"$T/f.ini"
run 0 --root "$MINI" --scenario "$T/f.ini" --format csv --out "$T/f.xlsx"
head -2 "$T/out" | tail -1 | grep -q '^"f",' && ok || bad "csv scenario column"

# --set: what-if without editing files, exact output: price 12, rate 0.25 -> cost 36, running 9 and 18, total 63.
run 0 --root "$MINI" --scenario good --set site.rate=0.25 --set widget.price=12 --out "$T/set.xlsx"
sed "s#$T/set.xlsx#OUT#" "$T/out" | cmp -s - "$SRC/tests/fixtures/expected/mini-good-set.txt" && ok || bad "--set output differs: $(cat "$T/out")"
python3 - "$T/set.xlsx" <<'PY' && ok || bad "the Inputs sheet does not show the value before --set"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
ss = re.findall(r"<t[^>]*>([^<]*)</t>", z.read("xl/sharedStrings.xml").decode())
inputs = z.read("xl/worksheets/sheet2.xml").decode()
assert "Before --set" in ss and "--set site.rate=0.25 (was 0.5)" in ss, ss
assert re.search(r'<c r="I8"[^>]*><v>0.5</v></c>', inputs), "I8 (rate before) is not 0.5"
PY
run 65 --root "$MINI" --scenario good --set site.rate=2
expect_err "--set site.rate=2: expected a number >= 0 and <= 1 share/yr, found 2"
run 65 --root "$MINI" --scenario good --set site.rat=0.2
expect_err "--set site.rat=0.2: unknown key 'rat' (did you mean 'rate'?)"
run 64 --root "$MINI" --scenario good --set rate
expect_err "--set rate: expected SECTION.KEY=VALUE"

# --compare: one workbook, the Compare sheet first with live differences and a master check.
run 0 --root "$SRC" --compare team-70b-wb3,team-70b-dm2 --out "$T/cmp.xlsx"
python3 - "$T/cmp.xlsx" <<'PY' && ok || bad "the comparison workbook lacks its Compare sheet, differences or master check"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
wb = z.read("xl/workbook.xml").decode()
names = re.findall(r'<sheet name="([^"]+)"', wb)
assert names[0] == "Compare" and "A Summary" in names and "B Opex" in names, names
cmp = z.read("xl/worksheets/sheet1.xml").decode()
assert "<f>a_tco</f>" in cmp and "<f>b_tco</f>" in cmp, "option formulas"
assert re.search(r"<f>D\d+-C\d+</f>", cmp), "difference formula"
m = re.search(r"<f>AND\(a_checks_ok=1,b_checks_ok=1\)</f><v>([^<]*)</v>", cmp)
assert m and m.group(1) == "1", "master check"
assert 'name="a_card_price"' in wb and 'name="b_card_price"' in wb, "prefixed names"
PY
run 65 --root "$SRC" --compare solo
expect_err "scenarios/solo.ini [compare] scenarios: expected two or more scenario names, found no [compare] section"
run 64 --root "$SRC" --compare solo,
expect_err "--compare solo,: expected 2 to 26 scenarios, found 1"

# Review findings, kept fixed.
run 64 --root "$SRC" --compare solo,team --out "$T/"
expect_err "is a folder; give a file name such as $T/comparison.xlsx"
run 0 --root "$SRC" --scenario cluster32 --set scenario.card=D-L --format json --out "$T/dl.xlsx"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["outputs"]["card_price"]["value"] == 160000 and d["inputs"]["card_tier"]["value"] == "D-L", d["outputs"]["card_price"]' "$T/out" && ok || bad "--set scenario.card=D-L did not change the card"
run 0 --root "$SRC" --scenario cluster32 --set card.price=80000 --set card.price=70000 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 --format json --out "$T/s2.xlsx"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["outputs"]["card_price"]["value"] == 70000 and "D-M: --set card.price=70000" in d["inputs"]["tier_price"]["source"], d["inputs"]["tier_price"]' "$T/out" && ok || bad "the last --set must win over earlier ones and over quotes"
printf '[scenario]\ntitle = Five years\ntemplate = tco\ncard = D-M\nhost = dc8\ncards = 32\nyears = 5\nutilisation = 0.9\n' >"$T/y5.ini"
run 64 --root "$SRC" --compare "cluster32,$T/y5.ini" --out "$T/y.xlsx"
expect_err "--compare: the options must cover the same years (cluster32: 3, y5: 5)"
long=$(python3 -c 'print("训练集群" * 20)')
cp "$SRC/scenarios/cluster32.ini" "$T/$long.ini"
run 0 --root "$SRC" --scenario "$T/$long.ini" --out "$T/long.xlsx"
python3 -c '
import sys, zipfile, xml.dom.minidom
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    if n.endswith(".xml"):
        xml.dom.minidom.parseString(z.read(n))
' "$T/long.xlsx" && ok || bad "a long non-ASCII scenario name broke the workbook XML"

# Paths the workbook shows must be text it can hold: a control character in the scenario's
# path is refused when read (exit 65, nothing written); "_x0041_" in a name is kept as written.
ctl=$(printf 'a\001b')
cp "$MINI/scenarios/good.ini" "$T/$ctl.ini"
run 65 --root "$MINI" --scenario "$T/$ctl.ini" --out "$T/ctl.xlsx"
expect_err "the scenario's path, which the workbook shows, holds a control character"
[ ! -e "$T/ctl.xlsx" ] && ok || bad "a workbook was written for a refused path"
cp "$MINI/scenarios/good.ini" "$T/a_x0041_.ini"
run 0 --root "$MINI" --scenario "$T/a_x0041_.ini" --out "$T/esc.xlsx"
member "$T/esc.xlsx" xl/sharedStrings.xml | grep -qF 'scenario a_x005F_x0041_ (' && ok || bad "the scenario name was not escaped"

# --set text a workbook cannot hold is refused before anything is read (U+FFFF, a control character).
run 64 --root "$SRC" --scenario cluster32 --set "scenario.title=A$(printf '\357\277\277')" --out "$T/badset.xlsx"
expect_err "--set scenario.title=A...: a non-character at byte 17"
run 64 --root "$SRC" --scenario cluster32 --set "scenario.title=A$(printf '\001')" --out "$T/badset.xlsx"
expect_err "a control character at byte 17"
[ ! -e "$T/badset.xlsx" ] && ok || bad "a workbook was written for a refused --set"

# Messages that quote input never cut a character, and say the limit: a --set value of 255 emoji.
emoji255=$(python3 -c "print(chr(0x1F600) * 255)")
run 64 --root "$SRC" --scenario cluster32 --set "scenario.title=$emoji255" --out "$T/long.xlsx"
expect_err "too long; expected a section and a key of at most 127 bytes each and a value of at most 511 bytes"
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$T/err" && ok || bad "the --set message is not UTF-8"
# A non-character in a path is named as one.
cp "$MINI/scenarios/good.ini" "$T/a$(printf '\357\277\277').ini"
run 65 --root "$MINI" --scenario "$T/a$(printf '\357\277\277').ini" --out "$T/nc.xlsx"
expect_err "holds a code point that is not an XML character (U+FFFE, U+FFFF) at byte"
# --out NAME.xlsx/ is a folder by its slash: the message says to drop it.
run 64 --root "$SRC" --scenario cluster32 --out "$T/book.xlsx/"
expect_err "ends with '/', so it names a folder; for the workbook drop the '/': $T/book.xlsx"
# A U+FEFF past the start of an INI file (two files joined) is named, not quoted invisibly.
printf '[scenario]\ntemplate = mini\nthing = widget\nqty = 3\nyears = 2\n\357\273\277[site]\nrate = 0.5\n' >"$T/bom.ini"
run 65 --root "$MINI" --scenario "$T/bom.ini" --out "$T/bom.xlsx"
expect_err "bom.ini:6, column 1: U+FEFF (an invisible byte-order mark) is allowed only at the very start of the file"
# Too few file descriptors: tco's own message, first and alone, exit 73.
prlimit --nofile=6:6 "$TCO" --root "$SRC" --scenario cluster32 --out "$T/fd.xlsx" >/dev/null 2>"$T/err"
echo $? >"$T/rc"
[ "$(cat "$T/rc")" = 73 ] && head -n 1 "$T/err" | grep -q '^tco: ' && [ "$(wc -l <"$T/err")" -eq 1 ] && ok ||
    bad "ulimit -n 6: exit $(cat "$T/rc"), stderr: $(cat "$T/err")"

# A good mini workbook recalculates (the per-year `year` reference and totals).
run 0 --root "$MINI" --scenario good --out "$T/mini.xlsx"
expect_out "75  CNY"

# Every shipped INI file passes the line checks (none continues a line, quotes are closed, ...):
# whatever the model then says about it, no message names one of its lines.
for f in "$SRC"/scenarios/*.ini "$SRC"/pricing/*.ini "$SRC"/templates/*.ini "$SRC"/tests/fixtures/roots/*/*/*.ini; do
    "$TCO" --root "$MINI" --scenario "$f" --out "$T/shipped.xlsx" >/dev/null 2>"$T/err"
    case "$(head -n 1 "$T/err")" in
    "tco: $f:"[0-9]*) bad "shipped $f fails the INI line checks: $(cat "$T/err")" ;;
    *) ok ;;
    esac
done

# INI files at the limits are answered in seconds: about 940,000 keys in 8 MiB (the 250,000-key
# limit refuses it), and 250,000 keys at the limit (read, then refused as no scenario).
python3 - "$T/k940k.ini" "$T/k250k.ini" <<'PY'
import sys
def write(path, keys, per, size):
    lines = []
    for i in range(keys):
        if i % per == 0:
            lines.append("[s%d]" % (i // per))
        lines.append("k%x=" % i)
    body = sum(len(l) + 1 for l in lines)
    width, extra = divmod(size - body, keys)
    with open(path, "w") as f:
        i = 0
        for l in lines:
            if l.startswith("k"):
                l += "1" * (width + (i < extra))
                i += 1
            f.write(l + "\n")
write(sys.argv[1], 940000, 1000, 8 * 1024 * 1024)
write(sys.argv[2], 250000, 10, 8 * 1024 * 1024)
PY
[ "$(wc -c <"$T/k940k.ini")" -eq 8388608 ] && ok || bad "k940k.ini is not 8 MiB"
start=$(date +%s)
run 65 --root "$MINI" --scenario "$T/k940k.ini" --out "$T/k.xlsx"
expect_err "k940k.ini:250252: more than 250000 keys; that is the limit for one file (split it)"
run 65 --root "$MINI" --scenario "$T/k250k.ini" --out "$T/k.xlsx"
expect_err "k250k.ini: expected a [scenario] section, found none"
took=$(($(date +%s) - start))
# Generous for sanitizer builds; an unsanitized build takes about a second for both.
[ "$took" -le 60 ] && ok || bad "the two 8 MiB INI files took $took s"

# A large model within the limits runs in linear time: 30,000 more template lines, each using the one
# before (names found by hash, defined names given to libxlsxwriter in an order it inserts at once), and
# 19,000 scenario sections each read by an input (49,214 template sections of the 50,000 allowed): 2 s,
# 147 s when these were quadratic (and 200 s under ASan while the items grew one realloc at a time).
mkdir -p "$T/bigmodel"
cp -R "$SRC/pricing" "$SRC/templates" "$SRC/scenarios" "$T/bigmodel/"
python3 - "$T/bigmodel" <<'PY'
import sys
r = sys.argv[1] + "/"
with open(r + "templates/tco.ini", "a") as f:
    f.write("\n[line.c_0]\nsheet = Sizing\nlabel = L\nunit = CNY\nformula = 1\n")
    f.write("".join("[line.c_%d]\nsheet = Sizing\nlabel = L\nunit = CNY\nformula = c_%d+1\n" % (i, i - 1)
                    for i in range(1, 30000)))
    f.write("".join("[input.x_%d]\nlabel = X\nunit = CNY\nfrom = s_%d.v\n" % (i, i) for i in range(19000)))
with open(r + "scenarios/cluster32.ini", "a") as f:
    f.write("".join("\n[s_%d]\nv = %d\n" % (i, i) for i in range(19000)))
PY
start=$(date +%s)
run 0 --root "$T/bigmodel" --scenario cluster32 --out "$T/big.xlsx"
took=$(($(date +%s) - start))
# Generous for sanitizer builds; an unsanitized build takes about 2 s.
[ "$took" -le 60 ] && ok || bad "30,000 template lines and 19,000 scenario sections took $took s"

# ---- Issue 10 §2, §3, §7: "never" and "n.a." are not 0; one feasibility gate ----
# team: renting costs less than running (cloud 7 CNY/GPU-hour x 2 cards x 8,760 h x 0.6 = 73,584 CNY/yr
# against opex 87,160 CNY/yr), so owning never pays back: JSON null with a reason, CSV empty with a reason.
run 0 --root "$SRC" --scenario team --out "$T/team.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "team JSON: never is not null with a reason"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
b = o["break_even_months"]
assert b["value"] is None and b["reason"].startswith("never"), b
assert o["payback_months"]["value"] is None
assert isinstance(o["tokens_per_s"]["value"], float)
PY
run 0 --root "$SRC" --scenario team --out "$T/team.xlsx" --format csv
expect_out '"team","output","break_even_months","",,"months","","never: renting costs less than running the cards","Months until owning beats renting",'
expect_out 'scenario,kind,name,period,value,unit,text,note,label,source,low,high,dist'
# The workbook caches the text, and the cell is a formula (no pasted value).
member "$T/team.xlsx" xl/worksheets/sheet1.xml | grep -q '<f>break_even_months</f><v>never: renting costs less than running the cards</v>' \
    && ok || bad "Summary does not cache break-even as the text never"

# team-ds4: payback after 123 months, past the 36-month period: flagged, the months kept beside it.
run 0 --root "$SRC" --scenario team-ds4 --out "$T/ds4.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "team-ds4 break-even beyond the period not flagged"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
assert o["break_even_months"]["value"] is None and o["break_even_months"]["reason"].startswith("beyond the period")
assert o["payback_months"]["value"] > 36
PY
# cluster32 pays back inside its 36 months: a number.
run 0 --root "$SRC" --scenario cluster32 --out "$T/c32.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "cluster32 break-even is not a number within the period"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
assert 0 < o["break_even_months"]["value"] <= 36
assert o["check_feasible"]["value"] == 1 and o["checks_ok"]["value"] == 1
PY

# The Compare sheet: B - A of two values that are not numbers is "n.a.", live (ISNUMBER).
run 0 --root "$SRC" --compare team,team-ds4 --out "$T/cmp.xlsx"
member "$T/cmp.xlsx" xl/worksheets/sheet1.xml | grep -q 'ISNUMBER(D[0-9]*),ISNUMBER(C[0-9]*)),D[0-9]*-C[0-9]*,"n.a.")</f><v>n.a.</v>' \
    && ok || bad "Compare sheet: B - A of never and beyond-the-period is not n.a."

# 700B at 4 bits on two 48 GB W-B: one replica is 350 GB of weights + 2x60x8x128x2048x8x2 B = 4.03 GB
# of KV cache = 354.03 GB, 354.03 / 48 = 7.4 -> 8 cards, a ws4 host holds 4. Not feasible: no throughput,
# no cost per token, the master check fails, a warning says why, and the exit code stays 0.
run 0 --root "$SRC" --scenario team --set workload.params_b=700 --out "$T/t700.xlsx" --format json
expect_err "tco: warning: team: serving is not feasible: one replica needs 8.00 cards (354.03 GB at 48.00 GB a card), and may span 1 host(s) of 4 cards"
expect_err "4 replicas need 1,416.11 GB, the 2 cards hold 0 replica(s) (96.00 GB of card memory)"
[ -s "$T/t700.xlsx" ] && ok || bad "no workbook for an infeasible configuration"
python3 - "$T/out" <<'PY' && ok || bad "700B on team: throughput or cost per token still priced"
import json, sys
d = json.load(open(sys.argv[1]))
o = d["outputs"]
for k in ("tokens_per_s", "cost_per_million_tokens"):
    assert o[k]["value"] is None and o[k]["reason"].startswith("n.a."), (k, o[k])
assert o["check_feasible"]["value"] == 0 and o["checks_ok"]["value"] == 0
assert [w["check"] for w in d["warnings"]] == ["check_replica_in_host", "check_replicas_fit"], d["warnings"]
PY
run 0 --root "$SRC" --scenario team --set workload.params_b=700 --out "$T/t700.xlsx"
expect_out "  Throughput, all replicas and streams"
expect_out " n.a.: serving is not feasible (see the checks)"

# 16x D-S with 70B FP16, 16 streams of 2K context: 140 GB + 2x80x8x128x2048x16x2 B = 10.74 GB = 150.74 GB
# per replica; team-ds4 sets 4 cards per replica (one dc4 host), 4 x 32 GB = 128 GB: not feasible.
run 0 --root "$SRC" --scenario team-ds4 --set scenario.cards=16 --set workload.params_b=70 \
    --set workload.bytes_per_param=2 --set workload.layers=80 --set workload.streams=16 --out "$T/ds16.xlsx" --format json
expect_err "serving is not feasible: one replica needs 150.74 GB, its 4.00 card(s) hold 128.00 GB"
python3 - "$T/out" <<'PY' && ok || bad "16x D-S 70B FP16 still priced"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
assert o["tokens_per_s"]["value"] is None and o["fits_inference"]["value"] == 0
PY
# Left to choose its own layout, the replica needs ROUNDUP(150.74 / 32) = 5 cards, more than a host's 4.
run 0 --root "$SRC" --scenario team-ds4 --set scenario.cards=16 --set workload.params_b=70 \
    --set workload.bytes_per_param=2 --set workload.layers=80 --set workload.streams=16 \
    --set workload.cards_per_replica=0 --out "$T/ds16.xlsx"
expect_err "one replica needs 5.00 cards (150.74 GB at 32.00 GB a card), and may span 1 host(s) of 4 cards"
# ... and allowed to span two hosts, it fits: 16 cards / 5 = 3 replicas >= 1, throughput is priced again.
run 0 --root "$SRC" --scenario team-ds4 --set scenario.cards=16 --set workload.params_b=70 \
    --set workload.bytes_per_param=2 --set workload.layers=80 --set workload.streams=16 \
    --set workload.cards_per_replica=0 --set workload.replica_hosts=2 --out "$T/ds16.xlsx" --format json
if [ -s "$T/err" ]; then bad "a replica over two hosts still warns: $(cat "$T/err")"; else ok; fi

# A stated target is part of the gate: team reaches 605.47 tokens/s (4 replicas x 8 streams x
# 0.5 card x 1,200 GB/s / 19.03 GB x 0.6), so a target of 1,000 tokens/s is missed.
run 0 --root "$SRC" --scenario team --set workload.target_tokens_per_s=1000 --out "$T/tt.xlsx" --format json
expect_err "serving misses its target: 605.47 tokens/s in all against a target of 1,000.00"
expect_err_lines 1
python3 - "$T/out" <<'PY' && ok || bad "a missed target still gets a cost per token"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
assert o["cost_per_million_tokens"]["value"] is None and o["checks_ok"]["value"] == 0
PY
# ... and per stream: 605.47 / (4 replicas x 8 streams) = 18.92 tokens/s against the seed's 20 (seed §5.2).
run 0 --root "$SRC" --scenario team --set workload.target_stream_tokens_per_s=20 --out "$T/tt.xlsx"
expect_err "serving misses its target: 18.92 tokens/s per stream against a target of 20.00"
expect_err_lines 1
# A deadline is part of the training gate: cluster32 takes 12.66 days, so 10 days is missed.
run 0 --root "$SRC" --scenario cluster32 --set workload.train_deadline_days=10 --out "$T/dl.xlsx" --format json
expect_err "training misses its deadline: one run takes 12.66 days, the deadline is 10.00 days"
python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))["outputs"]; assert o["train_days"]["value"] is None and o["train_run_cost"]["value"] is None and o["checks_ok"]["value"] == 0, o["train_days"]' "$T/out" && ok || bad "a missed deadline still gets a training time"

# Cards already owned: --set card.price=0 prices the D-M row of the tier table at 0, so card capex
# (32 x 95,000 = 3,040,000 CNY) is 0; the non-card share has no card capex to divide by, so it says
# n.a., and no cell of the workbook is an error.
run 0 --root "$SRC" --scenario cluster32 --set card.price=0 --out "$T/owned.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "--set card.price=0: a figure is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
o = d["outputs"]
assert o["card_price"]["value"] == 0 and o["card_capex"]["value"] == 0, o["card_capex"]
assert o["non_card_share"]["value"] is None and o["non_card_share"]["reason"].startswith("n.a."), o["non_card_share"]
assert o["check_no_errors"]["value"] == 1 and o["checks_ok"]["value"] == 1
PY
if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/owned.xlsx" >"$T/rc" 2>&1; then ok; else bad "card.price=0 workbook: $(tail -3 "$T/rc")"; fi

# Labels and sources quote the numbers of their own row: cluster32's KV cache per token is
# 2 x 32 layers x 8 heads x 128 x 2 B = 131,072 B = 128 KiB, and nothing beside it says the seed's
# 30B example's 240 KiB (worked examples live in docs/model.md).
run 0 --root "$SRC" --scenario cluster32 --out "$T/src.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "a source quotes another example's figure"
import json, re, sys
d = json.load(open(sys.argv[1]))["outputs"]
assert d["kv_per_token_kib"]["value"] == 128, d["kv_per_token_kib"]
PY
member "$T/src.xlsx" xl/sharedStrings.xml | grep -q "240 KiB" && bad "the workbook still says 240 KiB beside 128" || ok

# Lookups, a text line, "n.a." and a warning in the mini lookup model (worked in its template):
# large is row 2 of small, large, medium; size 4 > budget 3, so no fit, a warning, per_unit n.a.
MINI="$SRC/tests/fixtures/roots/mini"
run 0 --root "$MINI" --scenario lookup --out "$T/lk.xlsx" --format json
expect_err "tco: warning: lookup: the pick's size 4.00 is over the budget 3.00"
expect_err_lines 1
python3 - "$T/out" <<'PY' && ok || bad "lookup model: wrong values"
import json, sys
d = json.load(open(sys.argv[1]))
o = d["outputs"]
assert o["pick_row"]["value"] == 2 and o["pick_size"]["value"] == 4, o["pick_row"]
assert o["pick_kind"]["value"] == "fancy" and "reason" not in o["pick_kind"], o["pick_kind"]
assert o["per_unit"]["value"] is None and o["per_unit"]["reason"] == "n.a.: over budget", o["per_unit"]
assert o["fits"]["value"] == 0 and o["check_no_errors"]["value"] == 1
assert d["warnings"] == [{"check": "fits", "message": "the pick's size 4.00 is over the budget 3.00"}], d["warnings"]
assert "tier" not in d["inputs"] and "error_cells" not in d["outputs"]
PY
# medium: row 3, size 2 fits: per_unit = 100 / 2 = 50, nothing to warn about.
run 0 --root "$MINI" --scenario lookup --set scenario.pick=MEDIUM --out "$T/lk2.xlsx" --format json
if [ -s "$T/err" ]; then bad "a fitting pick still warns: $(cat "$T/err")"; else ok; fi
python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))["outputs"]; assert o["pick_row"]["value"] == 3 and o["per_unit"]["value"] == 50, o' "$T/out" && ok || bad "pick=medium: expected row 3 and 50 per unit"
# warning_if: with warn_on = 0 the failed fit is not warned about.
run 0 --root "$MINI" --scenario lookup --set scenario.warn_on=0 --out "$T/lk3.xlsx"
if [ -s "$T/err" ]; then bad "warning_if = warn_on (0) still warns: $(cat "$T/err")"; else ok; fi
run 65 --root "$MINI" --scenario lookup --set scenario.pick=huge --out "$T/lk4.xlsx"
expect_err "expected one of small, large, medium, found 'huge'"
# The pick's drop-down lists the tier codes; past 255 bytes of codes it is the tier table's first column.
member "$T/lk.xlsx" xl/worksheets/sheet2.xml | grep -q '<dataValidation type="list"[^>]*><formula1>"small,large,medium"</formula1>' \
    && ok || bad "the pick's drop-down does not list the tiers: $(member "$T/lk.xlsx" xl/worksheets/sheet2.xml | grep -o '<dataValidation .*</dataValidation>' | head -c 400)"
mkdir "$T/manytiers"
cp -R "$MINI/pricing" "$MINI/templates" "$MINI/scenarios" "$T/manytiers/"
python3 -c 'import sys; open(sys.argv[1], "a").write("".join("\n[tier_with_a_long_code_%02d]\nsize = %d\nkind = plain\n" % (i, i + 1) for i in range(30)))' "$T/manytiers/pricing/tiers.ini"
# 30 codes of 24 characters pass 255 bytes: the typed code is checked against the table's first column.
run 0 --root "$T/manytiers" --scenario lookup --out "$T/many.xlsx"
member "$T/many.xlsx" xl/worksheets/sheet2.xml | grep -q '<dataValidation type="custom"[^>]*><formula1>ISNUMBER(MATCH(C5,\$J\$5:\$J\$37,0))</formula1>' \
    && ok || bad "33 long tier codes: the drop-down is not the tier column: $(member "$T/many.xlsx" xl/worksheets/sheet2.xml | grep -o '<dataValidation .*</dataValidation>' | head -c 400)"

# Review findings (issue 10), kept fixed.
# Tier codes equal in any script's case cannot both be looked up by MATCH: refused by name.
mkdir "$T/unicase"
cp -R "$MINI/pricing" "$MINI/templates" "$MINI/scenarios" "$T/unicase/"
printf '\n[\303\2111]\nsize = 1\nkind = plain\n\n[\303\2511]\nsize = 2\nkind = plain\n' >>"$T/unicase/pricing/tiers.ini"
run 65 --root "$T/unicase" --scenario lookup --out "$T/uc.xlsx"
expect_err "differ only in case; a lookup of the tier code (MATCH, as the workbook does) cannot tell them apart"
[ -e "$T/uc.xlsx" ] && bad "a workbook was written for tiers that differ only in case" || ok
# A pick matches its tier in any script's case, as MATCH does: large written LARGE.
run 0 --root "$MINI" --scenario lookup --set scenario.pick=LARGE --out "$T/lk5.xlsx" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["inputs"]["pick"]["value"] == "large" and d["outputs"]["pick_row"]["value"] == 2' "$T/out" && ok || bad "pick LARGE is not the large row"
# A --set value is trimmed like a value in a file.
run 0 --root "$SRC" --scenario cluster32 --set 'scenario.card= D-L ' --out "$T/trim.xlsx" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["inputs"]["card_tier"]["value"] == "D-L"' "$T/out" && ok || bad "--set 'scenario.card= D-L ' is not D-L"
# A bad --set of a tier row names the --set, not a section the scenario file does not have.
run 65 --root "$SRC" --scenario team --set card.price=-1 --out "$T/neg.xlsx"
expect_err "tco: --set card.price=-1: expected a number >= 0 CNY/card, found -1"
# Every divisor is bounded above zero at its input: the error names the --set, not a formula.
for a in card.memory_gb=0 D-L.bandwidth_gbps=0 D-L.board_power_w=0 card.interconnect_gbps=0 workload.params_b=0 \
         workload.bytes_per_param=0 workload.params_b=1e-300 workload.mfu=0; do
    run 65 --root "$SRC" --scenario team --set "$a" --out "$T/zero.xlsx"
    expect_err "tco: --set $a: expected a number >= "
done
# A warning quotes a text item whole (here 40 two-byte characters), and the JSON stays valid UTF-8.
mkdir "$T/wtext"
cp -R "$MINI/pricing" "$MINI/templates" "$MINI/scenarios" "$T/wtext/"
python3 - "$T/wtext/templates/lookup.ini" <<'PY'
import sys
p = sys.argv[1]
s = open(p, encoding="utf-8").read()
s = s.replace("warning = the pick's size {pick_size} is over the budget {budget}", "warning = see {why}")
s += '\n[line.why]\nsheet = Calc\nlabel = Why\nunit = text\nformula = IF(fits = 1, 0, "xx' + "\u00e9" * 40 + '")\n'
open(p, "w", encoding="utf-8").write(s)
PY
run 0 --root "$T/wtext" --scenario lookup --out "$T/wt.xlsx" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); assert d["warnings"][0]["message"] == "see xx" + "\u00e9" * 40, d["warnings"]' "$T/out" && ok || bad "a warning cut its text"

# ---- Issue 11 §1, §2: one time line Year 0 to Year N, payment milestones, VAT, resale ----
# cluster32: all 5,449,050 CNY of capex paid on delivery in Year 0, opex 722,053.896 CNY in Years 1-3.
# VAT paid: 13% of capex in Year 0 = 708,376.5; each operating year 13% of electricity 327,313.896
# (42,550.80648) + 6% of support 214,740 (12,884.4) = 55,435.20648; all recovered by a general taxpayer.
run 0 --root "$SRC" --scenario cluster32 --out "$T/cf.xlsx" --format json
cp "$T/out" "$T/cf.json"
python3 - "$T/cf.json" <<'PY' && ok || bad "cluster32 cash flow: wrong figures"
import json, math, sys
d = json.load(open(sys.argv[1]))
cf = d["cash_flow"]
near = lambda a, b: math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-6)
assert cf["periods"] == ["Year 0", "Year 1", "Year 2", "Year 3"] == d["periods"], cf["periods"]
for k in ("capex", "opex", "vat_paid", "vat_recovered", "resale", "net", "discounted"):
    assert len(cf[k]) == d["years"] + 1, k
assert cf["capex"] == [5449050, 0, 0, 0] and cf["opex"][0] == 0 and near(cf["opex"][1], 722053.896), cf
assert near(cf["vat_paid"][0], 5449050 * 0.13) and near(cf["vat_paid"][1], 327313.896 * 0.13 + 214740 * 0.06), cf["vat_paid"]
assert cf["vat_recovered"] == cf["vat_paid"] and cf["resale"] == [0, 0, 0, 0]
assert near(sum(cf["net"]), d["tco"]) and near(d["tco"], 7615211.688), (sum(cf["net"]), d["tco"])
assert near(sum(cf["discounted"]), d["outputs"]["npv_cost"]["value"])
assert near(d["outputs"]["npv_cost"]["value"], 5449050 + 722053.896 * (1 / 1.08 + 1 / 1.08 ** 2 + 1 / 1.08 ** 3))
# The other VAT basis: the same TCO with the 874,682.11944 CNY of VAT as a cost.
assert near(d["outputs"]["tco_other_vat_basis"]["value"], 7615211.688 + 708376.5 + 3 * 55435.20648)
assert d["outputs"]["check_cash_flow"]["value"] == 1 and d["outputs"]["checks_ok"]["value"] == 1
PY
if python3 "$SRC/tests/recalc.py" json "$T/cf.xlsx" "$T/cf.json" >"$T/rj" 2>&1; then ok; else bad "cash flow JSON vs workbook: $(tail -3 "$T/rj")"; fi
member "$T/cf.xlsx" xl/sharedStrings.xml | grep -q "Capex paid: accelerator cards" && ok || bad "no capex rows by category on Cash flow"
# A buyer who cannot recover VAT: the TCO rises by 13% of capex plus the VAT on opex, 874,682.11944 CNY.
run 0 --root "$SRC" --scenario cluster32 --set tax.vat_deductible=no --out "$T/nv.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "VAT not deductible: wrong TCO"
import json, math, sys
d = json.load(open(sys.argv[1]))
assert math.isclose(d["tco"], 7615211.688 + 5449050 * 0.13 + 3 * (327313.896 * 0.13 + 214740 * 0.06), rel_tol=1e-12)
assert math.isclose(d["outputs"]["tco_other_vat_basis"]["value"], 7615211.688, rel_tol=1e-12)
assert d["cash_flow"]["vat_recovered"] == [0, 0, 0, 0] and math.isclose(sum(d["cash_flow"]["net"]), d["tco"], rel_tol=1e-12)
PY
# Milestones: 30% deposit in Year 0, 60% on delivery in Year 1, 10% on acceptance in Year 2.
run 0 --root "$SRC" --scenario cluster32 --set finance.deposit_share=0.3 --set finance.delivery_share=0.6 \
    --set finance.delivery_year=1 --set finance.acceptance_share=0.1 --set finance.acceptance_year=2 --out "$T/ms.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "payment milestones: wrong cash flow"
import json, math, sys
d = json.load(open(sys.argv[1]))
cf = d["cash_flow"]
near = lambda a, b: math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-6)
assert near(cf["capex"][0], 1634715) and near(cf["capex"][1], 3269430) and near(cf["capex"][2], 544905) and cf["capex"][3] == 0
assert near(d["tco"], 7615211.688)  # the same cost, paid later
opex = 722053.896
npv = 1634715 + (3269430 + opex) / 1.08 + (544905 + opex) / 1.08 ** 2 + opex / 1.08 ** 3
assert near(d["outputs"]["npv_cost"]["value"], npv), (d["outputs"]["npv_cost"]["value"], npv)
PY
# Shares that pay only 90% of the capex within the period fail the cash-flow check, with a warning.
run 0 --root "$SRC" --scenario cluster32 --set finance.deposit_share=0.3 --set finance.delivery_share=0.6 --out "$T/ms2.xlsx"
expect_err "the payment milestones pay 4,904,145 of 5,449,050 CNY of capex within the period"
# Shares adding up to 130% fail their own check and say so.
run 0 --root "$SRC" --scenario cluster32 --set finance.deposit_share=0.3 --out "$T/ms3.xlsx" --format json
expect_err "the payment milestone shares add up to 130.0%, not 100%"
python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))["outputs"]; assert o["check_milestones"]["value"] == 0 and o["checks_ok"]["value"] == 0' "$T/out" && ok || bad "milestones of 130% pass the checks"
# Mid-period discounting: Year N's opex is discounted N - 0.5 years; Year 0 stays undiscounted.
run 0 --root "$SRC" --scenario cluster32 --set finance.discount_timing=mid --out "$T/mid.xlsx" --format json
python3 -c 'import json, math, sys; d = json.load(open(sys.argv[1])); o = 722053.896; assert math.isclose(d["outputs"]["npv_cost"]["value"], 5449050 + o * (1.08 ** -0.5 + 1.08 ** -1.5 + 1.08 ** -2.5), rel_tol=1e-12)' "$T/out" && ok || bad "mid-period discounting: wrong NPV"
# Resale of 10% of capex at the end of Year 3 lowers the TCO by 544,905 CNY.
run 0 --root "$SRC" --scenario cluster32 --set finance.resale_share=0.1 --out "$T/rs.xlsx" --format json
python3 -c 'import json, math, sys; d = json.load(open(sys.argv[1])); assert d["cash_flow"]["resale"] == [0, 0, 0, 544905] and math.isclose(d["tco"], 7615211.688 - 544905, rel_tol=1e-12) and d["outputs"]["checks_ok"]["value"] == 1' "$T/out" && ok || bad "resale: wrong TCO"
# Cost of capital in the unit costs (issue 11 section 4), hand-checked on cluster32.
# capex_total = 5,449,050 CNY, opex_total = 2,166,161.688 CNY over 3 years (722,053.896 a year),
# GPU-hours used per year = 32 cards x 8,760 h x 0.9 = 252,288.
# CRF at r = 8% over the 5-year book life: 0.08 x 1.08^5 / (1.08^5 - 1) = 0.117546246144 / 0.4693280768
#   = 0.250456454566836.
# capital_charge_per_year = 5,449,050 x 0.250456454566836 = 1,364,749.74375742 CNY.
# cost_per_gpu_hour_with_capital = (1,364,749.74375742 + 2,166,161.688 / 3) / (32 x 8760 x 0.9)
#   = 2,086,803.63975742 / 252,288 = 8.27151366595883 CNY.
# That is lower than the simple tco_per_gpu_hour, 7,615,211.688 / (3 x 252,288) = 10.06 CNY: the simple
# rate writes the whole capex off over the 3-year analysis period undiscounted (1/3 = 33.3% of capex a
# year), the capital charge spreads it over the 5-year book life at 8% (25.05% a year). The opex part
# (722,053.896 / 252,288 = 2.86 CNY) is the same in both.
# One training run: 1,093,750 s / 3,600 = 303.819444 h x 32 cards x 8.27151366595883 = 80,417.4939746 CNY,
# the arithmetic of train_run_cost (97,820.45 at 10.06 CNY) at the capital-charged rate.
run 0 --root "$SRC" --scenario cluster32 --out "$T/cap.xlsx" --format json
python3 - "$T/out" <<'PY2' && ok || bad "cluster32: capital-charge figures differ from the hand arithmetic"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
v = lambda k: o[k]["value"]
near = lambda a, b: abs(a - b) <= 1e-9 * abs(b)
assert v("capex_total") == 5449050 and near(v("opex_total"), 2166161.688), (v("capex_total"), v("opex_total"))
crf = 0.08 * 1.08 ** 5 / (1.08 ** 5 - 1)
assert near(crf, 0.250456454566836) and near(v("capital_recovery_factor"), crf), v("capital_recovery_factor")
assert near(v("capital_charge_per_year"), 5449050 * crf) and near(v("capital_charge_per_year"), 1364749.74375742), v("capital_charge_per_year")
rate = (5449050 * crf + 2166161.688 / 3) / (32 * 8760 * 0.9)
assert near(v("cost_per_gpu_hour_with_capital"), rate) and near(rate, 8.27151366595883), v("cost_per_gpu_hour_with_capital")
assert v("cost_per_gpu_hour_with_capital") < v("tco_per_gpu_hour"), "5 years at 8% should charge less than 3 years undiscounted"
assert near(v("train_run_cost_with_capital"), 1093750 / 3600 * 32 * rate) and near(v("train_run_cost_with_capital"), 80417.4939746), v("train_run_cost_with_capital")
# Tokens: the annual cost over the million tokens served a year, tokens_per_s x 3,600 x 8,760 x 0.9 / 1e6.
assert near(v("cost_per_million_tokens_with_capital"), (5449050 * crf + 2166161.688 / 3) / (v("tokens_per_s") * 3600 * 8760 * 0.9 / 1e6))
PY2
# The terminal summary shows the capital-charged rate and the annual charge, and the run cost with capital.
run 0 --root "$SRC" --scenario cluster32 --out "$T/cap.xlsx"
expect_out "Cost per GPU-hour used with capital charged"
expect_out "Capital charge per year (capex annualised)"
expect_out "Cost of one training run with capital charged"
# At a discount rate of 0 the CRF is 1 / L = 1/5 = 0.2 (IF guards the 0/0): the charge is the straight-line
# depreciation, 5,449,050 / 5 = 1,089,810 CNY a year, and the rate (1,089,810 + 722,053.896) / 252,288
#   = 1,811,863.896 / 252,288 = 7.18172840563166 CNY.
run 0 --root "$SRC" --scenario cluster32 --set finance.discount_rate=0 --out "$T/cap0.xlsx" --format json
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 at discount rate 0: CRF is not 1/5"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
v = lambda k: o[k]["value"]
near = lambda a, b: abs(a - b) <= 1e-9 * abs(b)
assert near(v("capital_recovery_factor"), 0.2), v("capital_recovery_factor")
assert near(v("capital_charge_per_year"), 1089810), v("capital_charge_per_year")
assert near(v("cost_per_gpu_hour_with_capital"), (1089810 + 2166161.688 / 3) / 252288), v("cost_per_gpu_hour_with_capital")
assert near(v("cost_per_gpu_hour_with_capital"), 7.18172840563166), v("cost_per_gpu_hour_with_capital")
PY2
# No GPU-hours used: the rate and what uses it are n.a. with a reason, not a division by zero.
run 0 --root "$SRC" --scenario cluster32 --set scenario.utilisation=0 --out "$T/capu.xlsx" --format json
python3 - "$T/out" <<'PY2' && ok || bad "utilisation 0: the capital-charged figures are not n.a."
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
assert o["cost_per_gpu_hour_with_capital"]["value"] is None and o["cost_per_gpu_hour_with_capital"]["reason"] == "n.a.: no GPU-hours used"
assert o["train_run_cost_with_capital"]["reason"] == "n.a.: no training time or no GPU-hour rate"
assert o["cost_per_million_tokens_with_capital"]["reason"] == "n.a.: no tokens served"
PY2

# ---- Issue 11 §10: no run replaces another's workbook ----
mkdir "$T/names"
(cd "$T/names" && "$TCO" --root "$SRC" --scenario cluster32 >/dev/null 2>&1) && ok || bad "plain run failed"
cp "$T/names/out/cluster32.xlsx" "$T/names/plain.xlsx"
(cd "$T/names" && "$TCO" --root "$SRC" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 >"$T/out" 2>&1) && ok || bad "quotes run failed"
expect_out "Workbook: out/cluster32-quotes.xlsx"
(cd "$T/names" && "$TCO" --root "$SRC" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 --set facility.pue=1.2 >"$T/out" 2>&1) && ok || bad "quotes what-if failed"
expect_out "Workbook: out/cluster32-quotes-whatif.xlsx"
(cd "$T/names" && "$TCO" --root "$SRC" --compare team,team-ds4 --set facility.pue=1.2 >"$T/out" 2>&1) && ok || bad "compare what-if failed"
expect_out "Workbook: out/team-vs-team-ds4-whatif.xlsx"
cmp -s "$T/names/plain.xlsx" "$T/names/out/cluster32.xlsx" && ok || bad "a quotes or what-if run replaced out/cluster32.xlsx"
# The Summary says what went in: the quote file and the as-of date.
member "$T/names/out/cluster32-quotes.xlsx" xl/sharedStrings.xml | grep -qF "Priced from vendor quotes valid on 2026-11-30: 6 used (Quotes sheet), from $SRC/pricing/example-quotes.csv." \
    && ok || bad "the Summary does not name the quote file and date"

# ---- Issue 11 §1: IRR of owning against renting, and the discounted payback ----
# cluster32: renting 252,288 GPU-hours a year at 16 CNY = 4,036,608 CNY against 722,053.896 CNY of opex
# saves 3,314,554.104 CNY a year after 5,449,050 CNY in Year 0. The IRR r solves
# -5,449,050 + 3,314,554.104 x (1/(1+r) + 1/(1+r)^2 + 1/(1+r)^3) = 0. Discounted at 8%, the saving
# is -2,380,018.42 after Year 1 and +461,677.48 after Year 2: payback 12 x (1 + (2,841,695.91 -
# 461,677.48) / 2,841,695.91) = 22.05 months, beside the simple 19.73.
run 0 --root "$SRC" --scenario cluster32 --out "$T/irr.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "cluster32: wrong IRR or discounted payback"
import json, math, sys
o = json.load(open(sys.argv[1]))["outputs"]
r = o["irr_own_vs_rent"]["value"]
s = 4036608 - 722053.896
assert math.isclose(s, 3314554.104, rel_tol=1e-12)
assert abs(-5449050 + s * sum((1 + r) ** -k for k in (1, 2, 3))) < 1e-6, r
ds2 = s / 1.08 ** 2
cum2 = -5449050 + s / 1.08 + ds2
assert math.isclose(o["discounted_payback_months"]["value"], 12 * (1 + (ds2 - cum2) / ds2), rel_tol=1e-12)
assert abs(o["discounted_payback_months"]["value"] - 22.05) < 0.005
PY
# team: renting costs less every year, so there is no IRR and no payback.
run 0 --root "$SRC" --scenario team --out "$T/irr2.xlsx" --format json
python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))["outputs"]; assert o["irr_own_vs_rent"]["value"] is None and o["irr_own_vs_rent"]["reason"].startswith("n.a.") and o["discounted_payback_months"]["reason"] == "never within the period", o["irr_own_vs_rent"]' "$T/out" && ok || bad "team: an IRR or payback where owning never repays"

# ---- Issue 11 §2: import duty, part of the cost and of the VAT base ----
# 10% on D-M cards and 5% on hosts: card capex 32 x 95,000 x 1.1 = 3,344,000; hosts 4 x 200,000 x 1.05 =
# 840,000; the TCO rises by 344,000 of capex and 5% support on it for 3 years (51,600) = 395,600 CNY;
# the import VAT (13%) is paid on the duty too: 344,000 x 0.13 = 44,720 more in Year 0, recovered.
run 0 --root "$SRC" --scenario cluster32 --set D-M.import_duty=0.1 --set host.import_duty=0.05 --out "$T/duty.xlsx" --format json
python3 - "$T/out" <<'PY' && ok || bad "import duty: wrong figures"
import json, math, sys
d = json.load(open(sys.argv[1]))
o = d["outputs"]
assert o["card_capex"]["value"] == 3344000 and o["host_capex"]["value"] == 840000
assert math.isclose(d["tco"], 7615211.688 + 395600, rel_tol=1e-12)
assert math.isclose(d["cash_flow"]["vat_paid"][0], (5449050 + 344000) * 0.13, rel_tol=1e-12)
PY
# ---- Issue 11 §3: depreciation methods, salvage, the schedule past the period, the P&L view ----
# cluster32: capex C = 5,449,050, book life L = 5, period N = 3, salvage 5%: salvage value
# 0.05 x C = 272,452.5, depreciable base 0.95 x C = 5,176,597.5.
# Straight line (the default): 5,176,597.5 / 5 = 1,035,319.5 a year in Years 1-3 (Year 0 none);
#   book value after 3 years C - 3 x 1,035,319.5 = 2,343,091.5; 2 x 1,035,319.5 = 2,070,639 to come.
# P&L: 1,035,319.5 + opex 722,053.896 = 1,757,373.396 a year; the cash TCO stays 7,615,211.688.
run 0 --root "$SRC" --scenario cluster32 --format json --out "$T/dsl.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 straight-line depreciation with 5% salvage"
import json, sys
j = json.load(open(sys.argv[1]))
o = j["outputs"]
v = lambda k: o[k]["value"]
y = lambda k: o[k]["by_year"]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
assert j["inputs"]["depreciation_method"]["value"] == "straight_line"
assert j["inputs"]["salvage_rate"]["value"] == 0.05
assert near(v("depreciable_base"), 5176597.5) and near(v("salvage_value"), 272452.5)
# The Depreciation sheet runs Year 0 to Year 5, the end of the book life, past the period's Year 3.
assert len(y("depreciation")) == 6 and all(near(a, b) for a, b in zip(y("depreciation"), [0] + [1035319.5] * 5)), y("depreciation")
assert near(y("book_value")[5], 272452.5) and near(o["depreciation"]["total"], 5176597.5)
assert [round(x, 6) for x in y("depreciation_in_period")] == [0, 1035319.5, 1035319.5, 1035319.5]
assert near(v("residual_value"), 5449050 - 3 * 1035319.5) and near(v("residual_value"), 2343091.5)
assert near(y("book_value")[3], 2343091.5) and near(y("book_value")[0], 5449050)
assert near(v("depreciation_after_period"), 2 * 1035319.5)
assert near(v("book_value_end_of_life"), 272452.5)
assert v("book_life_note") == "runs past the period"
assert near(y("annual_cost_charged")[1], 1757373.396) and y("annual_cost_charged")[0] == 0
assert near(v("tco"), 7615211.688)  # depreciation never enters the cash TCO
PY2
# A book life of 8 years: 5,176,597.5 / 8 = 647,074.6875 a year in Years 1-8, nine columns on the
# Depreciation sheet; after Year 3, 5 x 647,074.6875 = 3,235,373.4375 to come; the schedule ends on
# the salvage, 272,452.5, and the workbook recalculates to the same.
run 0 --root "$SRC" --scenario cluster32 --set finance.book_life_years=8 --format json --out "$T/dl8.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 straight line over an 8-year book life"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
d = o["depreciation"]["by_year"]
assert len(d) == 9 and d[0] == 0 and all(near(x, 647074.6875) for x in d[1:]), d
assert near(o["depreciation_after_period"]["value"], 3235373.4375)
assert near(o["book_value"]["by_year"][8], 272452.5) and o["check_depreciation"]["value"] == 1
assert len(o["annual_cost_charged"]["by_year"]) == 4
PY2
member "$T/dl8.xlsx" xl/workbook.xml | grep -qF '<definedName name="depreciation_total">'"'Depreciation'"'!$L$' && ok || bad "the Depreciation sheet's Total is not after Year 8 (column L)"
if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/dl8.xlsx" >"$T/rc" 2>&1; then ok; else bad "8-year book life workbook: $(tail -3 "$T/rc")"; fi
# Sum of the years' digits: 1 + 2 + 3 + 4 + 5 = 15: 5,176,597.5 x 5/15 = 1,725,532.5, x 4/15 = 1,380,426,
# x 3/15 = 1,035,319.5; book value C - 12/15 x base = 5,449,050 - 4,141,278 = 1,307,772; to come
# (2 + 1)/15 x base = 1,035,319.5.
run 0 --root "$SRC" --scenario cluster32 --set finance.depreciation_method=sum_of_years --format json --out "$T/dsy.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 sum-of-the-years'-digits depreciation"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
v = lambda k: o[k]["value"]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
base = 5449050 * 0.95
d = o["depreciation"]["by_year"]
assert near(d[1], base * 5 / 15) and near(d[2], base * 4 / 15) and near(d[3], base * 3 / 15), d
assert near(d[1], 1725532.5) and near(d[2], 1380426) and near(d[3], 1035319.5), d
assert near(v("residual_value"), 1307772) and near(v("depreciation_after_period"), 1035319.5)
assert near(v("book_value_end_of_life"), 272452.5) and near(v("tco"), 7615211.688)
PY2
# Double declining balance, rate 2/5 = 40% of the opening book value:
#   Year 1 0.4 x 5,449,050 = 2,179,620 (book value 3,269,430), Year 2 0.4 x 3,269,430 = 1,307,772
#   (1,961,658), Year 3 0.4 x 1,961,658 = 784,663.2 (1,176,994.8 = residual_value).
#   Year 4: straight line over the 2 years left (1,176,994.8 - 272,452.5) / 2 = 452,271.15 is less
#   than 0.4 x 1,176,994.8 = 470,797.92: no switch, 470,797.92 (706,196.88). Year 5: (706,196.88
#   - 272,452.5) / 1 = 433,744.38 beats 0.4 x 706,196.88 = 282,478.752: switch, ends on the salvage.
#   After the period: 470,797.92 + 433,744.38 = 904,542.3 = 1,176,994.8 - 272,452.5.
run 0 --root "$SRC" --scenario cluster32 --set finance.depreciation_method=declining_balance --format json --out "$T/ddb.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 double declining balance"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
v = lambda k: o[k]["value"]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
d = o["depreciation"]["by_year"]
assert near(d[1], 2179620) and near(d[2], 1307772) and near(d[3], 784663.2), d
# The Depreciation sheet runs to the end of the 5-year book life, past Year 3: Years 4 and 5 as above.
assert len(d) == 6 and near(d[4], 470797.92) and near(d[5], 433744.38), d
assert o["ddb_switch"]["by_year"] == [0, 0, 0, 0, 0, 1]
assert near(o["book_value"]["by_year"][3], 1176994.8) and near(o["book_value"]["by_year"][5], 272452.5)
assert len(o["depreciation_in_period"]["by_year"]) == 4 and near(o["depreciation_in_period"]["total"], 4272055.2)
assert near(v("residual_value"), 1176994.8) and near(v("depreciation_after_period"), 904542.3)
assert near(v("book_value_end_of_life"), 272452.5) and near(v("tco"), 7615211.688)
assert v("check_depreciation") == 1
PY2
if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/ddb.xlsx" >"$T/rc" 2>&1; then ok; else bad "DDB workbook: $(tail -3 "$T/rc")"; fi
# The same over 5 years, the analysis period as long as the book life: Years 4 and 5 = 470,797.92 and
# 433,744.38 (switch flag 1 in Year 5 only), the book value ends on 272,452.5, nothing after.
run 0 --root "$SRC" --scenario cluster32 --set finance.depreciation_method=declining_balance --set scenario.years=5 --format json --out "$T/ddb5.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 DDB over 5 years"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
v = lambda k: o[k]["value"]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
d = o["depreciation"]["by_year"]
assert near(d[4], 470797.92) and near(d[5], 433744.38), d
assert o["ddb_switch"]["by_year"] == [0, 0, 0, 0, 0, 1]
assert near(o["depreciation"]["total"], 5176597.5) and near(o["book_value"]["by_year"][5], 272452.5)
assert near(v("residual_value"), 272452.5) and abs(v("depreciation_after_period")) < 1e-6
assert v("book_life_note") == "ends within the period"
PY2
# Salvage 0: straight line 5,449,050 / 5 = 1,089,810 a year, book value after 3 years
# 5,449,050 x 2/5 = 2,179,620, end of the book life 0.
run 0 --root "$SRC" --scenario cluster32 --set finance.salvage_rate=0 --format json --out "$T/ds0.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 straight line, salvage 0"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
v = lambda k: o[k]["value"]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
assert near(o["depreciation"]["by_year"][2], 1089810) and near(v("residual_value"), 2179620)
assert near(v("depreciation_after_period"), 2179620) and abs(v("book_value_end_of_life")) < 1e-6
PY2
# DDB, salvage 0, over 5 years: Years 1-3 as above; Year 4 the straight line 1,176,994.8 / 2 =
# 588,497.4 beats 0.4 x 1,176,994.8 = 470,797.92: switch in Year 4, 588,497.4 in Years 4 and 5,
# book value 0 at the end (the switch charge is set in Year 4 only).
run 0 --root "$SRC" --scenario cluster32 --set finance.depreciation_method=declining_balance --set finance.salvage_rate=0 --set scenario.years=5 --format json --out "$T/ddb50.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 DDB with the switch in Year 4, salvage 0"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
d = o["depreciation"]["by_year"]
assert near(d[1], 2179620) and near(d[3], 784663.2) and near(d[4], 588497.4) and near(d[5], 588497.4), d
assert o["ddb_switch"]["by_year"] == [0, 0, 0, 0, 1, 1]
assert near(o["ddb_switch_charge"]["by_year"][4], 588497.4) and o["ddb_switch_charge"]["by_year"][5] == 0
assert abs(o["residual_value"]["value"]) < 1e-6 and near(o["depreciation"]["total"], 5449050)
PY2
if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/ddb50.xlsx" >"$T/rc" 2>&1; then ok; else bad "DDB switch workbook: $(tail -3 "$T/rc")"; fi
# DDB at an exact tie: salvage 0, L = 6, rate 1/3: Year 4 opens at 5,449,050 x (2/3)^3 = 1,614,533.33,
# whose declining charge 1/3 x 1,614,533.33 = 538,177.78 equals the straight line over the 3 years
# left: the switch falls in Year 4 in tco and in Gnumeric alike (the charges are the same either way).
run 0 --root "$SRC" --scenario cluster32 --set finance.depreciation_method=declining_balance --set finance.salvage_rate=0 --set finance.book_life_years=6 --format json --out "$T/ddb6.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "DDB tie at L = 6"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
assert o["ddb_switch"]["by_year"] == [0, 0, 0, 0, 1, 1, 1], o["ddb_switch"]["by_year"]
d = o["depreciation"]["by_year"]
assert all(abs(x - 5449050 * (2 / 3) ** 3 / 3) < 1e-6 for x in d[4:]), d
PY2
if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/ddb6.xlsx" >"$T/rc" 2>&1; then ok; else bad "DDB tie workbook: $(tail -3 "$T/rc")"; fi
# VAT not deductible: the P&L adds the opex VAT, 327,313.896 x 13% + 214,740 x 6% = 55,435.20648
# a year: 1,757,373.396 + 55,435.20648 = 1,812,808.60248; depreciation is unchanged.
run 0 --root "$SRC" --scenario cluster32 --set tax.vat_deductible=no --format json --out "$T/dvat.xlsx"
python3 - "$T/out" <<'PY2' && ok || bad "cluster32 P&L with VAT not deductible"
import json, sys
o = json.load(open(sys.argv[1]))["outputs"]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
assert near(o["opex_vat_charged"]["by_year"][1], 327313.896 * 0.13 + 214740 * 0.06)
assert near(o["annual_cost_charged"]["by_year"][3], 1812808.60248)
assert near(o["depreciation"]["by_year"][1], 1035319.5)
PY2
# A method that is not one of the three is refused.
run 65 --root "$SRC" --scenario cluster32 --set finance.depreciation_method=units_of_production --out "$T/dbad.xlsx"
expect_err "expected one of straight_line, declining_balance, sum_of_years"
# ---- Issue 11 §6: a reporting currency ----
# cluster32 in USD: every money figure is the CNY run's over fx.ini's 7.1 CNY per USD, so
#   tco  7,615,211.688 CNY / 7.1 = 1,072,565.026 USD, and 1,072,565.026 x 7.1 = 7,615,211.688 (to 1e-9).
run 0 --root "$SRC" --scenario cluster32 --format json --out "$T/cny.xlsx"
cp "$T/out" "$T/cny.json"
run 0 --root "$SRC" --scenario cluster32 --currency usd --format json --out "$T/usd.xlsx"
cp "$T/out" "$T/usd.json"
python3 - "$T/cny.json" "$T/usd.json" <<'PY2' && ok || bad "the USD run is not the CNY run over 7.1"
import json, math, sys
c, u = (json.load(open(p)) for p in sys.argv[1:3])
assert c["currency"] == "CNY" and u["currency"] == "USD", (c["currency"], u["currency"])
assert c["tco"] == 7615211.688, c["tco"]
assert math.isclose(u["tco"] * 7.1, c["tco"], rel_tol=1e-9), u["tco"]
assert math.isclose(u["tco"], 1072565.026478873, rel_tol=1e-12), u["tco"]
assert u["inputs"]["fx_report"]["value"] == 7.1 and u["inputs"]["currency"]["value"] == "USD"
assert math.isclose(u["inputs"]["electricity_price"]["value"], 0.7 / 7.1, rel_tol=1e-15) and u["inputs"]["electricity_price"]["unit"] == "USD/kWh"
assert u["outputs"]["tco_per_gpu_hour"]["unit"] == "USD/GPU-hour" and u["outputs"]["opex"]["unit"] == "USD/yr"
for k in ("capex_total", "opex_total", "npv_cost", "capital_charge_per_year"):
    assert math.isclose(u["outputs"][k]["value"] * 7.1, c["outputs"][k]["value"], rel_tol=1e-9), k
for k in ("non_card_share", "break_even_months", "it_peak_kw", "checks_ok"):  # not money: unchanged
    assert math.isclose(u["outputs"][k]["value"], c["outputs"][k]["value"], rel_tol=1e-9), k
assert u["outputs"]["checks_ok"]["value"] == 1
PY2
if python3 "$SRC/tests/recalc.py" json "$T/usd.xlsx" "$T/usd.json" >"$T/rj" 2>&1; then ok; else bad "USD JSON vs workbook: $(cat "$T/rj")"; fi
# Every money format carries the code; a money input is a live formula over fx_report.
member "$T/usd.xlsx" xl/styles.xml | grep -qF 'formatCode="#,##0 &quot;USD&quot;"' && ok || bad "no USD money format"
member "$T/usd.xlsx" xl/styles.xml | grep -qF 'CNY' && bad "a CNY format in the USD workbook" || ok
member "$T/usd.xlsx" xl/worksheets/sheet2.xml | grep -qF '<f>0.7/fx_report</f>' && ok || bad "electricity_price is not =0.7/fx_report"
run 0 --root "$SRC" --scenario cluster32 --currency USD --out "$T/usd.xlsx"
expect_out "Total cost of ownership over 3 years, costs in USD"
expect_out "1,072,565  USD"
expect_out "USD/GPU-hour"
run 0 --root "$SRC" --scenario cluster32 --currency USD --format csv --out "$T/usd.xlsx"
expect_out '"tco","",1072565.026478873,"USD",'
# [finance] currency in a scenario does the same; --set values stay CNY (80,000 CNY = 11,267.61 USD).
(cat "$SRC/scenarios/cluster32.ini"; printf '\n[finance]\ncurrency = USD\n') >"$T/c32usd.ini"
run 0 --root "$SRC" --scenario "$T/c32usd.ini" --format json --out "$T/usd2.xlsx" --set card.price=80000
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["currency"] == "USD" and abs(d["outputs"]["card_price"]["value"] - 80000 / 7.1) < 1e-9, d["outputs"]["card_price"]' "$T/out" \
    && ok || bad "[finance] currency = USD with --set card.price=80000 is not 80,000 / 7.1 USD"
# --set fx.usd without quotes sets the reporting currency's rate.
run 0 --root "$SRC" --scenario cluster32 --currency USD --set fx.usd=7.2 --format json --out "$T/usd3.xlsx"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["inputs"]["fx_report"]["value"] == 7.2 and "--set fx.usd=7.2 (was 7.1)" in d["inputs"]["fx_report"]["source"] and abs(d["tco"] - 7615211.688 / 7.2) < 1e-6, d["tco"]' "$T/out" \
    && ok || bad "--currency USD --set fx.usd=7.2: fx_report is not 7.2"
# Errors: a bad option is a usage error (64), a bad file value bad data (65); nothing is written.
for a in US 12A XYZ; do
    run 64 --root "$SRC" --scenario cluster32 --currency "$a" --out "$T/nocur.xlsx"
done
expect_err "--currency XYZ: no exchange rate for it in "
run 65 --root "$SRC" --scenario cluster32 --set finance.currency=ABC --out "$T/nocur.xlsx"
expect_err "--set finance.currency=ABC (was CNY): no exchange rate for currency ABC in "
(cat "$SRC/scenarios/cluster32.ini"; printf '\n[finance]\ncurrency = dollars\n') >"$T/c32bad.ini"
run 65 --root "$SRC" --scenario "$T/c32bad.ini" --out "$T/nocur.xlsx"
expect_err "c32bad.ini [finance] currency (scenario override of the catalog): expected a currency code of three letters"
[ -e "$T/nocur.xlsx" ] && bad "a refused currency run wrote a workbook" || ok
# A --currency run does not replace the plain run's workbook: out/NAME-usd.xlsx.
(cd "$T/names" && "$TCO" --root "$SRC" --scenario cluster32 --currency USD >"$T/out" 2>&1) && ok || bad "USD run failed"
expect_out "Workbook: out/cluster32-usd.xlsx"
cmp -s "$T/names/plain.xlsx" "$T/names/out/cluster32.xlsx" && ok || bad "a --currency run replaced out/cluster32.xlsx"

# ---- Issue 11 §8: a --set in a comparison names its option where the options differ ----
# 3x W-B against 2x D-M: a bare card.price would price both the W-B and the D-M at 80,000: refused.
run 64 --root "$SRC" --compare compare-team70b --set card.price=80000 --out "$T/cs.xlsx"
expect_err "--set card.price=80000: the options name different card entries, so it would set each of them alike; name the option: team-70b-wb3 (W-B): --set team-70b-wb3:card.price=80000; team-70b-dm2 (D-M): --set team-70b-dm2:card.price=80000"
[ -e "$T/cs.xlsx" ] && bad "a refused --set still wrote a workbook" || ok
run 0 --root "$SRC" --compare compare-team70b --set team-70b-dm2:card.price=80000 --out "$T/cs.xlsx" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); p = {x["scenario"]: x["outputs"]["card_price"]["value"] for x in d}; assert p == {"team-70b-wb3": 45000, "team-70b-dm2": 80000}, p' "$T/out" && ok || bad "team-70b-dm2:card.price=80000 did not price only the D-M"
# A site input is the same for every option: a bare --set applies to each.
run 0 --root "$SRC" --compare compare-team70b --set facility.pue=1.2 --out "$T/cs2.xlsx" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [x["inputs"]["pue"]["value"] for x in d] == [1.2, 1.2]' "$T/out" && ok || bad "a bare facility.pue did not reach every option"
# Options that buy the same card take a bare card.price alike.
run 0 --root "$SRC" --compare cluster8,cluster16 --set card.price=80000 --out "$T/cs3.xlsx"
run 64 --root "$SRC" --compare compare-team70b --set nosuch:card.price=1 --out "$T/cs4.xlsx"
expect_err "--set nosuch:card.price=1: no option 'nosuch' in this comparison (options: team-70b-wb3, team-70b-dm2)"
run 64 --root "$SRC" --scenario team --set other:card.price=1 --out "$T/cs5.xlsx"
expect_err "--set other:card.price=1: 'other' is not this run's scenario (team)"
run 0 --root "$SRC" --scenario team --set team:card.price=40000 --out "$T/cs6.xlsx" --format json
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["outputs"]["card_price"]["value"] == 40000' "$T/out" && ok || bad "team:card.price on its own scenario"

# One shared block: the site and finance inputs both options hold alike are one cell on the Shared inputs
# sheet (sheet2), which each option's Inputs cell refers to ('A Inputs', sheet4, holds =electricity_price).
member "$T/cs2.xlsx" xl/workbook.xml | grep -qF "<sheet name=\"Shared inputs\"" && ok || bad "no Shared inputs sheet in a comparison"
member "$T/cs2.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"electricity_price\">'Shared inputs'!" && ok || bad "electricity_price is not one shared cell"
member "$T/cs2.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"pue\">'Shared inputs'!" && ok || bad "a bare --set of a site input left it per option"
member "$T/cs2.xlsx" xl/worksheets/sheet4.xml | grep -qF "<f>electricity_price</f><v>0.7</v>" && ok || bad "option A's electricity price does not refer to the shared cell"
member "$T/cs2.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"card_tier\">" && bad "an option's own input (the card tier) was shared" || ok
# An input one option changes is that option's own again: no shared cell, each option an input of its own.
run 0 --root "$SRC" --compare compare-team70b --set team-70b-dm2:facility.electricity_price=0.9 --out "$T/cs7.xlsx"
member "$T/cs7.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"electricity_price\">" && bad "an input the options hold differently is still shared" || ok
member "$T/cs7.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"b_electricity_price\">'B Inputs'!" && ok || bad "option B's own electricity price is not on its Inputs sheet"
member "$T/cs7.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"discount_rate\">'Shared inputs'!" && ok || bad "the inputs still alike stopped being shared"

# Two facts that agree by chance stay apart: site A states its own tariff (0.7, its own bill), site B
# takes the catalog's seed figure (0.7): no shared electricity_price; the alike pue still is shared.
mkdir -p "$T/sites/scenarios" && cp -r "$SRC/pricing" "$SRC/templates" "$T/sites/"
cp "$SRC/scenarios/team.ini" "$T/sites/scenarios/siteb.ini"
sed 's/^\[facility\]$/[facility]\nelectricity_price = 0.7\nelectricity_price_source = our own bill, 2026/' "$SRC/scenarios/team.ini" >"$T/sites/scenarios/sitea.ini"
run 0 --root "$T/sites" --compare sitea,siteb --out "$T/sites/ab.xlsx"
member "$T/sites/ab.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"electricity_price\">" && bad "a stated tariff and the catalog's figure were merged into one cell" || ok
member "$T/sites/ab.xlsx" xl/workbook.xml | grep -qF "<definedName name=\"pue\">'Shared inputs'!" && ok || bad "the alike pue is no longer shared"
# An exchange rate is one for the whole run: a NAME: prefix is refused.
run 64 --root "$SRC" --compare compare-team70b --set team-70b-dm2:fx.usd=7.5 --no-workbook
expect_err "--set team-70b-dm2:fx.usd=7.5: an exchange rate is one for every option of the run; give it without 'team-70b-dm2:' (--set fx.usd=7.5)"
# The default out/ is never a planted link.
mkdir "$T/lnk" "$T/lnk-victim" && ln -s "$T/lnk-victim" "$T/lnk/out"
(cd "$T/lnk" && "$TCO" --root "$SRC" --scenario team >"$T/out" 2>"$T/err"); rc=$?
[ "$rc" -eq 73 ] && grep -qF "out: is a symbolic link" "$T/err" && [ -z "$(ls -A "$T/lnk-victim")" ] && ok || bad "a planted out link was followed: $rc $(cat "$T/err")"

# A budget that would run past four-digit years is refused; so is a NAME: prefix nowhere to go.
run 65 --root "$SRC" --scenario cluster32 --set finance.start=9999-12 --no-workbook
expect_err "the budget's 36 months from 9999-12 would run past 9998-12"
# --scenario all --format csv: the header once, even when the first scenario fails.
mkdir -p "$T/allcsv/scenarios" && cp -r "$SRC/pricing" "$SRC/templates" "$T/allcsv/"
cp "$SRC/scenarios/team.ini" "$T/allcsv/scenarios/b.ini" && printf '[scenario]\ncards = x\n' >"$T/allcsv/scenarios/a.ini"
"$TCO" --root "$T/allcsv" --scenario all --format csv --no-workbook >"$T/allcsv.csv" 2>/dev/null
[ "$(head -c 9 "$T/allcsv.csv")" = "scenario," ] && ok || bad "--scenario all --format csv lost its header: $(head -1 "$T/allcsv.csv")"

# Options before quotes check that it cannot use are refused, not silently dropped.
run 64 --root "$SRC" --set facility.pue=2 quotes check "$SRC/pricing/example-quotes.csv"
expect_err "quotes check reads quote files only: tco [--root DIR] quotes check FILE.csv... [--format table|json]"
run 64 --root "$SRC" --quotes nosuch.csv quotes check "$SRC/pricing/example-quotes.csv"

# tco init keeps a private catalog file private: a 0600 site.ini is copied as 0600, a 0644 one as 0644.
mkdir -p "$T/privroot/scenarios" && cp -r "$SRC/pricing" "$SRC/templates" "$T/privroot/" && cp "$SRC/scenarios/team.ini" "$T/privroot/scenarios/"
chmod 600 "$T/privroot/pricing/site.ini" && chmod 644 "$T/privroot/pricing/cards.ini"
(umask 022 && "$TCO" init "$T/privcopy" --root "$T/privroot" --scenario team >"$T/out" 2>"$T/err") && ok || bad "init privroot: $(cat "$T/err")"
[ "$(stat -c %a "$T/privcopy/pricing/site.ini")" = 600 ] && [ "$(stat -c %a "$T/privcopy/pricing/cards.ini")" = 644 ] && ok ||
    bad "tco init changed the files' privacy: site.ini $(stat -c %a "$T/privcopy/pricing/site.ini"), cards.ini $(stat -c %a "$T/privcopy/pricing/cards.ini")"

# A run whose workbook fails leaves no out/ of its own making behind (one that was there stays).
mkdir "$T/failout" && (cd "$T/failout" && "$TCO" --root "$SRC/tests/fixtures/roots/mini" --scenario "$SRC/tests/fixtures/bad/scenarios/cmp_chain.ini" >/dev/null 2>&1)
[ -z "$(ls -A "$T/failout")" ] && ok || bad "a failed write left $(ls -A "$T/failout")"
mkdir "$T/failout/out" && (cd "$T/failout" && "$TCO" --root "$SRC/tests/fixtures/roots/mini" --scenario "$SRC/tests/fixtures/bad/scenarios/cmp_chain.ini" >/dev/null 2>&1)
[ -d "$T/failout/out" ] && ok || bad "a failed write removed an out/ it did not make"

# ---- Issue 11 §5: the monthly budget ----
# cluster32 from 2027-01: 36 months. Month 1 pays the 5,449,050 CNY of Year 0 and a twelfth of Year 1's
# opex, 722,053.896 / 12 = 60,171.158; the VAT paid is recovered in the same month; the months add up
# to the net cash out and the TCO, 7,615,211.688.
run 0 --root "$SRC" --scenario cluster32 --out "$T/bud.xlsx" --format json
cp "$T/out" "$T/bud.json"
python3 - "$T/bud.json" <<'PY' && ok || bad "cluster32 budget: wrong figures"
import json, math, sys
d = json.load(open(sys.argv[1]))
b = d["budget"]
near = lambda a, c: math.isclose(a, c, rel_tol=1e-12, abs_tol=1e-6)
assert b["months"][0] == "2027-01" and b["months"][-1] == "2029-12" and len(b["months"]) == 36
for k in ("capex", "electricity", "colocation", "staffing", "support", "vat_paid", "vat_recovered", "resale", "cash_out"):
    assert len(b[k]) == 36, k
assert b["capex"][0] == 5449050 and sum(b["capex"][1:]) == 0
assert near(b["cash_out"][0], 5449050 + 722053.896 / 12) and near(b["cash_out"][1], 722053.896 / 12)
assert near(b["electricity"][12], 327313.896 / 12) and near(b["vat_paid"][0], 5449050 * 0.13 + (327313.896 * 0.13 + 214740 * 0.06) / 12)
assert near(b["total"], d["tco"]) and near(sum(b["cash_out"]), d["tco"])
assert d["outputs"]["check_budget"]["value"] == 1
PY
member "$T/bud.xlsx" xl/workbook.xml | grep -q '<sheet name="Budget"' && ok || bad "no Budget sheet"
member "$T/bud.xlsx" xl/sharedStrings.xml | grep -q "<t>FY2029</t>" && ok || bad "no fiscal-year subtotal FY2029"
# A fiscal year from April and a budget from July 2027: FY2027 (July to March) to FY2030 (April to June).
run 0 --root "$SRC" --scenario cluster32 --set finance.fiscal_year_start_month=4 --set finance.start=2027-07 --out "$T/bud4.xlsx" --format json
python3 -c 'import json, sys; b = json.load(open(sys.argv[1]))["budget"]; assert b["months"][0] == "2027-07" and b["months"][-1] == "2030-06"' "$T/out" && ok || bad "budget from 2027-07: wrong months"
member "$T/bud4.xlsx" xl/sharedStrings.xml | grep -q "<t>FY2030</t>" && ok || bad "no FY2030 subtotal for an April fiscal year"
if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/bud4.xlsx" >"$T/rc" 2>&1; then ok; else bad "budget workbook: $(tail -3 "$T/rc")"; fi
# Payment milestones in their months: 30% deposit in Year 0 (the Budget's Month 1, 2027-01), 60% on
# delivery in Month 4 of Year 1 (2027-04), 10% on acceptance in Month 7 of Year 2 (2028-07):
# 5,449,050 x 0.3 = 1,634,715, x 0.6 = 3,269,430, x 0.1 = 544,905; the budget still ties to the cash flow.
run 0 --root "$SRC" --scenario cluster32 --set finance.deposit_share=0.3 --set finance.delivery_share=0.6 --set finance.acceptance_share=0.1 --set finance.delivery_year=1 --set finance.delivery_month=4 --set finance.acceptance_year=2 --set finance.acceptance_month=7 --out "$T/bud6.xlsx" --format json
python3 - "$T/out" <<'PY2' && ok || bad "milestones in their budget months"
import json, sys
d = json.load(open(sys.argv[1]))
b = d["budget"]
paid = {b["months"][i]: v for i, v in enumerate(b["capex"]) if v}
assert paid == {"2027-01": 1634715, "2027-04": 3269430, "2028-07": 544905}, paid
assert d["cash_flow"]["capex"] == [1634715, 3269430, 544905, 0]
assert d["outputs"]["check_budget"]["value"] == 1 and abs(b["total"] - d["tco"]) < 1e-6
PY2
if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/bud6.xlsx" >"$T/rc" 2>&1; then ok; else bad "milestone budget workbook: $(tail -3 "$T/rc")"; fi
run 65 --root "$SRC" --scenario cluster32 --set finance.delivery_month=13 --out "$T/bud7.xlsx"
expect_err "--set finance.delivery_month=13: expected a whole number >= 1 and <= 12"
run 65 --root "$SRC" --scenario cluster32 --set finance.start=2027-13 --out "$T/bud5.xlsx"
expect_err "--set finance.start=2027-13 (was 2027-01): expected the first month as YYYY-MM (e.g. 2027-01), found '2027-13'"
# Issue 11 §7: conventions and each input's status.  Inputs: Input | Unit | Value | Low | High | Status | Name | Source.
run 0 --root "$SRC" --scenario cluster32 --out "$T/st.xlsx"
run 0 --root "$SRC" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 --out "$T/stq.xlsx"
run 0 --root "$SRC" --scenario cluster32 --set facility.pue=1.2 --set facility.electricity_price=0.65 --set "facility.electricity_price_source=measured: meter, 2026" --out "$T/sts.xlsx"
python3 - "$T/st.xlsx" "$T/stq.xlsx" "$T/sts.xlsx" <<'PY' && ok || bad "input status or conventions not as expected"
import re, sys, zipfile
def book(path):
    z = zipfile.ZipFile(path)
    ss = [re.sub(r"<[^>]+>", "", x) for x in re.findall(r"<si>(.*?)</si>", z.read("xl/sharedStrings.xml").decode(), re.S)]
    names = re.findall(r'<sheet name="([^"]+)"', z.read("xl/workbook.xml").decode())
    def cells(n):
        out = {}
        for m in re.finditer(r'<c r="([A-Z]+)(\d+)"([^>]*?)(?:/>|>(.*?)</c>)', z.read(f"xl/worksheets/sheet{n}.xml").decode(), re.S):
            col, row, attr, body = m.groups()
            v = re.search(r"<v>(.*?)</v>", body or ""); f = re.search(r"<f>(.*?)</f>", body or "")
            val = v.group(1) if v else None
            if 't="s"' in attr and val is not None:
                val = ss[int(val)]
            out[col + row] = (val, f.group(1) if f else None)
        return out
    return names, cells
def status(cells, name):  # the Status cell (column F) of the input named NAME (column G)
    for ref, (v, _) in cells.items():
        if ref[0] == "G" and v == name:
            return cells.get("F" + ref[1:], (None,))[0]
    raise AssertionError("no input " + name)
names, cells = book(sys.argv[1])
inputs = cells(2)
assert inputs["F4"][0] == "Status" and inputs["G4"][0] == "Name" and inputs["H4"][0] == "Source / basis", inputs["F4"]
assert status(inputs, "electricity_price") == "seed figure", status(inputs, "electricity_price")
assert status(inputs, "host_price") == "illustrative" and status(inputs, "switch_price") == "illustrative"
assert status(inputs, "card_count") == "stated"
legend = [v for ref, (v, _) in inputs.items() if ref[0] == "F"]
assert all(s in legend for s in ("quote", "measured", "seed figure", "stated", "what-if", "illustrative")), "legend"
# The tier table's price status: every card price illustrative without quotes.
tier = [v for ref, (v, _) in inputs.items() if v and v.startswith("Status: ")]
assert tier == ["Status: Price"], tier
# Conventions, the last sheet: the VAT basis a live formula over vat_deductible, the other facts.
assert names[-1] == "Conventions" and names[:2] == ["Summary", "Inputs"], names
conv = cells(len(names))
rows = {v: r[1:] for r, (v, _) in conv.items() if r[0] == "A" and v}
r = rows["VAT deductible (input VAT recovered)"]
assert conv["B" + r] == ("yes", "vat_deductible"), conv["B" + r]
assert "Prices in the catalog and the template exclude VAT" in conv["C" + r][0]
assert conv["B" + rows["Discounting timing"]] == ("end", "discount_timing")
assert conv["B" + rows["Depreciation method"]] == ("straight_line", "depreciation_method")
assert conv["B" + rows["Currency of every money figure"]] == ("CNY", "currency")
assert "GB = 1e9 bytes" in conv["C" + rows["Units"]][0] and "Costs are positive" in conv["C" + rows["Sign convention"]][0]
# Summary: all of cluster32's capex rests on illustrative prices: 5,449,050 CNY, 100%.
summary = cells(1)
lab = {v: r[1:] for r, (v, _) in summary.items() if r[0] == "A" and v}
r = lab["Capex on illustrative prices"]
assert float(summary["C" + r][0]) == 5449050 and summary["D" + r] == ("1", "IF(capex_total=0,0,C%s/capex_total)" % r), summary["D" + r]
assert "Capex on quoted prices" not in lab
# With quotes: the host and the D-M row are quotes; capex on quotes = cards + hosts.
names, cells = book(sys.argv[2])
inputs = cells(2)
assert status(inputs, "host_price") == "quote" and status(inputs, "electricity_price") == "seed figure"
summary = cells(1)
lab = {v: r[1:] for r, (v, _) in summary.items() if r[0] == "A" and v}
r = lab["Capex on quoted prices"]
f = summary["C" + r][1]
assert f.startswith("card_capex+host_capex"), f
assert "card_price: quote" in summary["E" + r][0] and "host_price: quote" in summary["E" + r][0], summary["E" + r]
# --set: a what-if; a --set basis starting "measured" makes a measured input.
names, cells = book(sys.argv[3])
inputs = cells(2)
assert status(inputs, "pue") == "what-if" and status(inputs, "electricity_price") == "measured", (status(inputs, "pue"), status(inputs, "electricity_price"))
PY
for f in st stq sts; do
    if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/$f.xlsx" >"$T/rc" 2>&1; then ok; else bad "$f workbook: $(tail -3 "$T/rc")"; fi
done
[ -f "$SRC/docs/sources.md" ] && grep -q "§4.3" "$SRC/docs/sources.md" && ok || bad "docs/sources.md missing or lacks §4.3"
# Issue 11 §9, print: every sheet landscape A4, fitted to one page wide or at a scale of 75% or more (11 pt
# x 0.75 = 8.25 pt; a sheet too wide for that prints at 80% with its label columns repeated), the Charts
# sheet with row breaks between charts, left-aligned headers indented (no "ValueName" run-together).
run 0 --root "$SRC" --scenario cluster32 --as-of 2026-11-30 --quotes "$SRC/pricing/example-quotes.csv" --out "$T/print.xlsx" --force
python3 - "$T/print.xlsx" <<'PY' && ok || bad "print settings (see above)"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
wb = z.read("xl/workbook.xml").decode()
names = re.findall(r'<sheet name="([^"]+)" sheetId="\d+" r:id="rId(\d+)"', wb)
problems = []
for name, rid in names:
    x = z.read("xl/worksheets/sheet%s.xml" % rid).decode()
    setup = re.search(r"<pageSetup [^>]*>", x).group(0)
    if 'orientation="landscape"' not in setup or 'paperSize="9"' not in setup:
        problems.append("%s: not A4 landscape: %s" % (name, setup))
    scale = re.search(r'scale="(\d+)"', setup)
    fit = 'fitToPage="1"' in x
    if not fit and (scale is None or int(scale.group(1)) < 75):
        problems.append("%s: prints below 75%%: %s" % (name, setup))
    if fit and 'fitToHeight="0"' not in setup:
        problems.append("%s: fitted to one page high too: %s" % (name, setup))
    if not fit and int(scale.group(1)) == 80 and "_xlnm.Print_Titles\" localSheetId=\"%d\">%s!$" % (int(rid) - 1, name) not in wb \
            and "'%s'!$" % name not in wb:
        problems.append("%s: printed wider than a page without repeated columns" % name)
    if name == "Charts" and not re.search(r'<rowBreaks count="[1-9]', x):
        problems.append("Charts: no row breaks between charts")
    if name == "Inputs" and not re.search(r'<colBreaks count="1"', x):
        problems.append("Inputs: the tier table does not start its own page")
styles = z.read("xl/styles.xml").decode()
if 'indent="1"' not in styles:
    problems.append("no indented header format")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY

# ---- Issue 12 §6: --no-workbook (the summary alone; no file, no out/) ----
# Each run in an empty folder: nothing appears in it, and the summary is the one the same run with a
# workbook prints, less the workbook's name (table: its "Workbook:" line; JSON: "workbook" is null;
# CSV names none, so the same bytes).
nw_pair() { # nw_pair LABEL ARGS...: runs ARGS with a workbook in $T/nwa and with --no-workbook in $T/nwb
    label=$1
    shift
    rm -rf "$T/nwa" "$T/nwb"
    mkdir "$T/nwa" "$T/nwb"
    (cd "$T/nwa" && "$TCO" --root "$SRC" "$@" >"$T/nwa.out" 2>"$T/nwa.err") || bad "$label: the run with a workbook failed: $(cat "$T/nwa.err")"
    (cd "$T/nwb" && "$TCO" --root "$SRC" "$@" --no-workbook >"$T/nwb.out" 2>"$T/nwb.err") && ok || bad "$label --no-workbook failed: $(cat "$T/nwb.err")"
    [ -z "$(ls -A "$T/nwb")" ] && ok || bad "$label --no-workbook wrote: $(ls -AR "$T/nwb")"
    [ -n "$(ls -A "$T/nwa/out" 2>/dev/null)" ] && ok || bad "$label: the run with a workbook wrote none"
    cmp -s "$T/nwa.err" "$T/nwb.err" && ok || bad "$label: standard error differs with --no-workbook"
}
nw_pair "table" --scenario cluster32
grep -v '^Workbook: out/cluster32.xlsx$' "$T/nwa.out" | sed '$d' >"$T/nwa.cut"
cmp -s "$T/nwa.cut" "$T/nwb.out" && ok || bad "table: --no-workbook summary differs: $(diff "$T/nwa.cut" "$T/nwb.out" | head -5)"
grep -q 'Workbook' "$T/nwb.out" && bad "--no-workbook: the table names a workbook" || ok
nw_pair "json" --scenario cluster32 --format json
sed 's#"workbook": "out/cluster32.xlsx"#"workbook": null#' "$T/nwa.out" | cmp -s - "$T/nwb.out" && ok || bad "json: --no-workbook summary differs"
grep -q '"workbook": null,' "$T/nwb.out" && ok || bad "json: --no-workbook does not say \"workbook\": null"
nw_pair "csv" --scenario cluster32 --format csv
cmp -s "$T/nwa.out" "$T/nwb.out" && ok || bad "csv: --no-workbook changes the CSV"
nw_pair "compare json" --compare compare-team70b --format json
sed 's#"workbook": "out/compare-team70b.xlsx"#"workbook": null#' "$T/nwa.out" | cmp -s - "$T/nwb.out" && ok || bad "compare json: --no-workbook summary differs"
nw_pair "compare csv" --compare compare-team70b --format csv
cmp -s "$T/nwa.out" "$T/nwb.out" && ok || bad "compare csv: --no-workbook changes the CSV"
nw_pair "all csv" --scenario all --format csv
cmp -s "$T/nwa.out" "$T/nwb.out" && ok || bad "--scenario all csv: --no-workbook changes the CSV"
nw_pair "quotes" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 --format csv
cmp -s "$T/nwa.out" "$T/nwb.out" && ok || bad "--quotes csv: --no-workbook changes the CSV"
# The workbook of an earlier run is left as it was.
mkdir -p "$T/nwc/out"
printf 'keep' >"$T/nwc/out/cluster32.xlsx"
(cd "$T/nwc" && "$TCO" --root "$SRC" --scenario cluster32 --no-workbook >/dev/null 2>&1) && ok || bad "--no-workbook beside an old workbook failed"
[ "$(cat "$T/nwc/out/cluster32.xlsx")" = keep ] && [ "$(ls -A "$T/nwc/out")" = cluster32.xlsx ] && ok || bad "--no-workbook touched out/: $(ls -A "$T/nwc/out")"
# With --out it is a usage error, and nothing is written.
run 64 --root "$SRC" --scenario cluster32 --no-workbook --out "$T/nw.xlsx"
expect_err "--no-workbook writes no file, and --out $T/nw.xlsx names the workbook to write; give one of them"
[ -e "$T/nw.xlsx" ] && bad "--no-workbook --out wrote a file" || ok
# Bad input is still an error with its code.
run 66 --root "$SRC" --scenario no-such --no-workbook

# ---- issue 12: where tco finds its data, and tco init (engine/read/root.c, engine/apps/init.c) ----
# json_tco FILE: the "tco" figure of a --format json summary.
json_tco() { python3 -c 'import json, sys; print(repr(json.load(open(sys.argv[1]))["tco"]))' "$1" 2>/dev/null; }
"$TCO" --root "$SRC" --scenario cluster32 --format json --out "$T/i12-ref.xlsx" >"$T/i12-ref.json" 2>/dev/null
REF_TCO=$(json_tco "$T/i12-ref.json")
[ "$REF_TCO" = 7615211.688 ] && ok || bad "checkout cluster32 tco: '$REF_TCO'"

# From a folder without data, the binary in its build tree uses the checkout it was built from,
# and writes out/ in the current folder.
mkdir "$T/i12-plain"
(cd "$T/i12-plain" && env -u TCO_ROOT "$TCO" --list >"$T/out" 2>"$T/err") && ok || bad "--list from a plain folder: $(cat "$T/err")"
expect_out "cluster32        Training cluster: 32x D-M"
(cd "$T/i12-plain" && env -u TCO_ROOT "$TCO" --scenario cluster32 >"$T/out" 2>"$T/err") && ok || bad "run from a plain folder: $(cat "$T/err")"
expect_out "Workbook: out/cluster32.xlsx"
[ -s "$T/i12-plain/out/cluster32.xlsx" ] && ok || bad "no out/cluster32.xlsx in the current folder"
# TCO_ROOT comes before the build tree, and must hold the data.
(cd "$T/i12-plain" && TCO_ROOT="$MINI" "$TCO" --list >"$T/out" 2>"$T/err") && ok || bad "TCO_ROOT=mini --list: $(cat "$T/err")"
expect_out "good "
if grep -q cluster32 "$T/out"; then bad "TCO_ROOT ignored: $(cat "$T/out")"; else ok; fi
(cd "$T/i12-plain" && TCO_ROOT="$T/i12-plain" "$TCO" --list >"$T/out" 2>"$T/err")
[ $? -eq 66 ] && ok || bad "TCO_ROOT without data: expected exit 66"
expect_err "TCO_ROOT=$T/i12-plain: expected a folder holding pricing/ and templates/ (or unset it)"
# --root too must hold the data (also for quotes check, which read the checkout before).
run 66 --root "$T/i12-plain" quotes check "$SRC/pricing/example-quotes.csv"
expect_err "--root $T/i12-plain: expected a folder holding pricing/ and templates/"

# tco init DIR: the default scenario cluster32, copies of the catalog and template, a README.
run 0 init "$T/i12-w"
expect_out "Made $T/i12-w: scenarios/cluster32.ini, pricing/ (8 files), templates/ (1 file), README.md"
expect_out "Run it: cd $T/i12-w && $TCO --scenario cluster32"
for f in pricing/cards.ini pricing/site.ini pricing/hosts.ini pricing/fx.ini pricing/example-quotes.csv templates/tco.ini; do
    cmp -s "$SRC/$f" "$T/i12-w/$f" && ok || bad "init: $f is not a copy of the catalog's"
done
cmp -s "$SRC/scenarios/cluster32.ini" "$T/i12-w/scenarios/cluster32.ini" && ok || bad "init: no copy of cluster32.ini"
[ "$(cd "$T/i12-w" && ls -A | tr '\n' ' ')" = "README.md pricing scenarios templates " ] && ok ||
    bad "init made: $(ls -A "$T/i12-w")"
[ "$(ls "$T/i12-w/scenarios")" = cluster32.ini ] && ok || bad "init scenarios/: $(ls "$T/i12-w/scenarios")"
# The README's run line, verbatim, in the folder: the checkout's figures, the workbook in out/ there.
line=$(sed -n 5p "$T/i12-w/README.md")
[ "$line" = "    $TCO --scenario cluster32" ] && ok || bad "README line 5: '$line'"
(cd "$T/i12-w" && sh -c "$line" >"$T/out" 2>"$T/err") && ok || bad "README command failed: $(cat "$T/err")"
expect_out "Total cost of ownership over the analysis period           7,615,212  CNY"
expect_out "Workbook: out/cluster32.xlsx"
[ -s "$T/i12-w/out/cluster32.xlsx" ] && ok || bad "no out/cluster32.xlsx in the init folder"
# The folder is found as the current folder: it lists its one scenario.
(cd "$T/i12-w" && "$TCO" --list >"$T/out" 2>"$T/err") && ok || bad "--list in the init folder"
[ "$(cut -d' ' -f1 "$T/out")" = cluster32 ] && ok || bad "--list in the init folder: $(cat "$T/out")"
# An explicit TCO_ROOT comes before the current folder (a folder anyone may have filled with a catalog).
(cd "$T/i12-w" && TCO_ROOT="$MINI" "$TCO" --list >"$T/out" 2>"$T/err") && ok || bad "--list with TCO_ROOT"
[ "$(cut -d' ' -f1 "$T/out" | head -1)" = good ] && ok || bad "TCO_ROOT did not beat the current folder: $(cat "$T/out")"
# --root DIR from elsewhere gives the same TCO as the shipped scenario.
(cd "$T/i12-plain" && "$TCO" --root "$T/i12-w" --scenario cluster32 --format json --out "$T/i12-w.xlsx" >"$T/i12-w.json" 2>"$T/err") &&
    ok || bad "--root init folder: $(cat "$T/err")"
[ "$(json_tco "$T/i12-w.json")" = "$REF_TCO" ] && ok || bad "init folder tco $(json_tco "$T/i12-w.json") != $REF_TCO"
# The copies are the user's: an edited electricity price in pricing/site.ini gives what --set gives
# on the checkout, and the checkout's catalog is as it was.
sed 's/^electricity_price = 0.7$/electricity_price = 0.85/' "$T/i12-w/pricing/site.ini" >"$T/site.ini" &&
    cat "$T/site.ini" >"$T/i12-w/pricing/site.ini"
"$TCO" --root "$T/i12-w" --scenario cluster32 --format json --out "$T/i12-e.xlsx" >"$T/i12-e.json" 2>/dev/null
"$TCO" --root "$SRC" --scenario cluster32 --set facility.electricity_price=0.85 --format json --out "$T/i12-s.xlsx" >"$T/i12-s.json" 2>/dev/null
e_tco=$(json_tco "$T/i12-e.json")
[ -n "$e_tco" ] && [ "$e_tco" = "$(json_tco "$T/i12-s.json")" ] && [ "$e_tco" != "$REF_TCO" ] && ok ||
    bad "edited site.ini: tco $e_tco, --set gives $(json_tco "$T/i12-s.json")"
grep -q '^electricity_price = 0.7$' "$SRC/pricing/site.ini" && ok || bad "the checkout's site.ini changed"

# --scenario NAME (before or after DIR), a path, and an existing empty folder.
mkdir "$T/i12-empty"
run 0 init --scenario team "$T/i12-empty"
[ -f "$T/i12-empty/scenarios/team.ini" ] && [ -f "$T/i12-empty/README.md" ] && ok || bad "init into an empty folder"
run 0 init "$T/i12-p" --scenario "$SRC/scenarios/solo.ini"
cmp -s "$SRC/scenarios/solo.ini" "$T/i12-p/scenarios/solo.ini" && ok || bad "init --scenario PATH"
expect_out "Run it: cd $T/i12-p && $TCO --scenario solo"
# A name with a space and a quote is quoted for the shell in the run line.
run 0 init "$T/i12 it's"
expect_out "Run it: cd '$T/i12 it'\''s' && $TCO --scenario cluster32"

# Refusals: each exits with its code, says why, and leaves things as they were.
mkdir "$T/i12-full" && echo keep >"$T/i12-full/notes.txt"
run 73 init "$T/i12-full"
expect_err "$T/i12-full: exists and is not empty; tco init replaces nothing: give a new or empty folder"
[ "$(ls -A "$T/i12-full")" = notes.txt ] && [ "$(cat "$T/i12-full/notes.txt")" = keep ] && ok || bad "init touched a full folder"
mkdir "$T/i12-target" && ln -s "$T/i12-target" "$T/i12-link"
run 73 init "$T/i12-link"
expect_err "$T/i12-link: is a symbolic link; tco init follows none: give a new folder"
[ -z "$(ls -A "$T/i12-target")" ] && ok || bad "init wrote through a link: $(ls -A "$T/i12-target")"
ln -s "$T/i12-nowhere" "$T/i12-dangling"
run 73 init "$T/i12-dangling"
[ ! -e "$T/i12-nowhere" ] && ok || bad "init created a dangling link's target"
: >"$T/i12-file"
run 73 init "$T/i12-file"
expect_err "$T/i12-file: exists and is not a folder"
run 73 init "$T/i12-none/sub"
expect_err "$T/i12-none/sub: cannot create the folder: its parent $T/i12-none: No such file or directory"
[ ! -e "$T/i12-none" ] && ok || bad "init made the parent"
# Never inside the catalog copied from (a copy of the mini root, fingerprinted).
cp -R "$MINI" "$T/i12-root"
fp() { (cd "$T/i12-root" && find . -type f -exec cksum {} + | sort); }
fp >"$T/i12-fp-before"
run 73 init --root "$T/i12-root" "$T/i12-root/pricing/mine" --scenario good
expect_err "$T/i12-root/pricing/mine: lies in the catalog folder $T/i12-root/pricing, which tco init never writes"
run 0 init "$T/i12-m" --root "$T/i12-root" --scenario good
"$TCO" --root "$T/i12-m" --scenario good --format json --out "$T/i12-m.xlsx" >"$T/i12-m.json" 2>/dev/null
"$TCO" --root "$MINI" --scenario good --format json --out "$T/i12-mr.xlsx" >"$T/i12-mr.json" 2>/dev/null
[ -n "$(json_tco "$T/i12-m.json")" ] && [ "$(json_tco "$T/i12-m.json")" = "$(json_tco "$T/i12-mr.json")" ] && ok ||
    bad "init from the mini root: tco $(json_tco "$T/i12-m.json") against $(json_tco "$T/i12-mr.json")"
fp >"$T/i12-fp-after"
cmp -s "$T/i12-fp-before" "$T/i12-fp-after" && ok || bad "init changed the catalog it copied from"
# A comparison, an unknown scenario, and usage errors.
run 64 init "$T/i12-c" --scenario compare-team70b
expect_err "init --scenario compare-team70b: is a comparison; tco init copies one scenario"
run 66 init "$T/i12-c" --scenario nosuch
expect_err "no such scenario 'nosuch'; available: cluster16"
run 64 init
expect_err "init: expected the folder to make: tco init DIR [--scenario NAME] [--root DIR]"
run 64 init "$T/i12-c" "$T/i12-d"
expect_err "init: unexpected argument '$T/i12-d' (one folder only)"
run 64 init "$T/i12-c" --out x.xlsx
expect_err "init: unknown option '--out'"
run 64 --scenario team init "$T/i12-c"
expect_err "init takes its options after it: tco init DIR [--scenario NAME] [--root DIR]"
[ ! -e "$T/i12-c" ] && [ ! -e "$T/i12-d" ] && ok || bad "a refused init left a folder"
# A failure after the copying began removes everything made, and keeps an empty folder empty.
mkfifo "$T/i12-fifo.ini"
run 66 init "$T/i12-f" --scenario "$T/i12-fifo.ini"
expect_err "$T/i12-fifo.ini: not a regular file"
[ ! -e "$T/i12-f" ] && ok || bad "a failed init left $(ls -AR "$T/i12-f")"
mkdir "$T/i12-e2"
run 65 init "$T/i12-e2" --root "$MINI" --scenario "$SRC/tests/fixtures/bad/scenarios/key_typo.ini"
expect_err "$T/i12-e2: the copied scenario does not load, so nothing is kept: $T/i12-e2/scenarios/key_typo.ini [site] rat: unknown key (did you mean 'rate'?)"
[ -d "$T/i12-e2" ] && [ -z "$(ls -A "$T/i12-e2")" ] && ok || bad "a failed init did not empty $T/i12-e2: $(ls -AR "$T/i12-e2")"

# ---- tco advise (issue 13): questions in scenarios/, the command's usage and errors ----------------
# --list marks the four questions; --scenario, --compare and tco init refuse one (64); --scenario all
# leaves them out (above: n_scen counts no [advise] file).
run 0 --root "$SRC" --list
expect_out "train-7b         Training: a 7B full fine-tune of 100B tokens within 90 days, at most 32 cards (question: tco advise train-7b)"
[ "$(grep -c '(question: tco advise ' "$T/out")" -eq 4 ] && ok || bad "--list marks $(grep -c question "$T/out") questions, expected 4"
run 64 --root "$SRC" --scenario solo-dev --out "$T/question.xlsx"
expect_err "scenarios/solo-dev.ini is a question ([advise] section), not a scenario: run it with tco advise solo-dev"
[ ! -e "$T/question.xlsx" ] && ok || bad "--scenario of a question wrote a workbook"
run 64 --root "$SRC" --compare solo,solo-dev --no-workbook
expect_err "scenarios/solo-dev.ini is a question ([advise] section), not a scenario: run it with tco advise solo-dev"
run 64 init "$T/q-init" --scenario team-70b
expect_err "init --scenario team-70b: is a question for tco advise"
# tco advise writes its workbook out/advise-NAME.xlsx and nothing else, prints the table naming it, exits 0;
# with --set, out/advise-NAME-whatif.xlsx; with --no-workbook nothing (no out/ either).
mkdir "$T/q-run"
(cd "$T/q-run" && "$TCO" advise team-70b --root "$SRC" >"$T/out" 2>"$T/err") && ok || bad "advise team-70b: $(cat "$T/err")"
[ "$(cd "$T/q-run" && find . | sort | tr '\n' ' ')" = ". ./out ./out/advise-team-70b.xlsx " ] && ok ||
    bad "advise wrote $(cd "$T/q-run" && find . | sort | tr '\n' ' ')"
expect_out "   1  2x D-M in dc4, owned"
expect_out "Best: 2x D-M in dc4, owned is 3.3% cheaper per million tokens than 2x D-M rented (cloud)"
expect_out "Workbook: out/advise-team-70b.xlsx"
[ -s "$T/err" ] && bad "advise printed on stderr: $(cat "$T/err")" || ok
member "$T/q-run/out/advise-team-70b.xlsx" xl/workbook.xml | grep -q '<sheet name="Rank" sheetId="1"' && ok ||
    bad "the advice workbook does not open on its Rank sheet"
(cd "$T/q-run" && "$TCO" advise team-70b --root "$SRC" --set facility.electricity_price=1 --format json >"$T/out" 2>"$T/err") &&
    ok || bad "advise team-70b --set: $(cat "$T/err")"
expect_out '"workbook": "out/advise-team-70b-whatif.xlsx"'
[ -f "$T/q-run/out/advise-team-70b-whatif.xlsx" ] && ok || bad "advise --set wrote no out/advise-team-70b-whatif.xlsx"
mkdir "$T/q-none"
(cd "$T/q-none" && "$TCO" advise team-70b --root "$SRC" --no-workbook --format json >"$T/out" 2>"$T/err") && ok ||
    bad "advise --no-workbook: $(cat "$T/err")"
[ -z "$(ls -A "$T/q-none")" ] && ok || bad "advise --no-workbook wrote $(ls -A "$T/q-none")"
expect_out '"workbook": null'
run 0 advise solo-dev --root "$SRC" --out "$T/advice.xlsx"
expect_out "Workbook: $T/advice.xlsx"
[ -f "$T/advice.xlsx" ] && ok || bad "advise --out wrote no $T/advice.xlsx"
run 0 --help
expect_out "tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook]"
# Usage and question errors, each naming the place.
run 64 advise
expect_err "advise: expected one question: tco advise NAME (tco --list shows the questions)"
run 64 advise solo-dev team-70b --root "$SRC"
expect_err "advise: expected one question"
run 64 advise solo-dev --root "$SRC" --format csv
expect_err "advise --format: expected table or json, found 'csv'"
run 64 advise solo-dev --root "$SRC" --out x.csv
expect_err "--out x.csv: expected a file name ending in .xlsx"
run 64 advise solo-dev --root "$SRC" --out x.xlsx --no-workbook
expect_err "--no-workbook writes no file, and --out x.xlsx names the workbook to write"
run 64 advise solo-dev --root "$SRC" --outt x.xlsx
expect_err "advise: unknown option '--outt'"
# --quotes and --currency are refused, saying why and what to run instead; nothing is written.
(cd "$T/q-none" && "$TCO" advise solo-dev --root "$SRC" --quotes "$SRC/pricing/example-quotes.csv" >"$T/out" 2>"$T/err")
rc=$?; [ "$rc" -eq 64 ] && ok || bad "advise --quotes: exit $rc, expected 64"
expect_err "tco advise prices every candidate from the catalog (a quote is chosen for the quantity bought"
(cd "$T/q-none" && "$TCO" advise solo-dev --root "$SRC" --currency USD >"$T/out" 2>"$T/err")
rc=$?; [ "$rc" -eq 64 ] && ok || bad "advise --currency: exit $rc, expected 64"
expect_err "advise --currency USD: tco advise reports in CNY, the catalog's currency"
[ -z "$(ls -A "$T/q-none")" ] && ok || bad "a refused advise wrote $(ls -A "$T/q-none")"
run 64 --root "$SRC" advise solo-dev
expect_err "advise takes its options after it: tco advise NAME"
run 64 advise team --root "$SRC"
expect_err "scenarios/team.ini: not a question for tco advise (no [advise] section); run a scenario with tco --scenario team"
run 66 advise nope --root "$SRC"
expect_err "no such scenario 'nope'"
run 64 advise solo-dev --root "$SRC" --set scenario.host=dc8
expect_err "--set scenario.host=dc8: tco advise chooses [scenario] host for each candidate"
run 64 advise solo-dev --root "$SRC" --set fx.usd=7.2
expect_err "--set fx.usd=7.2: tco advise reads no quotes and reports in CNY, so it takes no exchange rate"
run 64 advise solo-dev --root "$SRC" --set advise.hsts=ws4
expect_err "--set advise.hsts=ws4: no [advise] key 'hsts' (did you mean 'hosts'?)"
run 65 advise solo-dev --root "$SRC" --set advise.hosts=ws5
expect_err "--set advise.hosts=ws5: no entry 'ws5' in $SRC/pricing/hosts.ini; expected one of: dc8, tower-consumer, tower-workstation, ws4, dc4"
run 65 advise solo-dev --root "$SRC" --set advise.facility_modes=owned,rented
expect_err "--set advise.facility_modes=owned,rented: 'rented' is not a facility mode (input facility_mode: 'rented' is not one of its values)"
run 65 advise solo-dev --root "$SRC" --set advise.allow_cloud=maybe
expect_err "--set advise.allow_cloud=maybe: expected yes or no, found 'maybe'"
run 65 advise solo-dev --root "$SRC" --set constraints.max_hosts=0
expect_err "scenarios/solo-dev.ini [constraints]: tco advise needs a bound on the card count: give max_cards or max_hosts"
run 65 advise train-7b --root "$SRC" --set constraints.max_cards=100000 --set constraints.max_hosts=0
expect_err "the search would evaluate up to 11000000 candidates, more than the 100000 tco advise takes"
run 65 advise solo-dev --root "$SRC" --set constraints.max_capexx=1
expect_err "--set constraints.max_capexx=1: unknown key 'max_capexx' (did you mean 'max_capex'?)"
# A question file with a typo in [advise], and one whose template lacks a line the advisor reads.
mkdir -p "$T/qroot/scenarios"
cp -R "$SRC/pricing" "$SRC/templates" "$T/qroot/"
sed 's/^allow_cloud = no$/alow_cloud = no/' "$SRC/scenarios/solo-dev.ini" >"$T/qroot/scenarios/typo.ini"
run 65 advise typo --root "$T/qroot"
expect_err "scenarios/typo.ini [advise] alow_cloud: unknown key (did you mean 'allow_cloud'?)"
cp "$SRC/scenarios/solo-dev.ini" "$T/qroot/scenarios/solo-dev.ini"
python3 - "$T/qroot/templates/tco.ini" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("label = Cost per unit of work:", "label = Cost per unit of work (renamed):").replace("[line.cost_per_unit]", "[line.unit_cost]")
open(p, "w").write(s)
PY
run 65 advise solo-dev --root "$T/qroot"
expect_err "tco advise reads the single value 'cost_per_unit', which the template does not define (docs/advise.md)"

# ---- Issue 14 §1: ranges on inputs (KEY_range = LOW, HIGH; KEY_dist; KEY_range_source) ----
# --set gives a range like a value; each bad range names the --set argument and what was expected.
run 0 --root "$SRC" --scenario cluster32 --set facility.pue_range=1.2,1.6 --set facility.pue_dist=PERT --set "facility.pue_range_source=measured: two halls, 2026" --format json --no-workbook
python3 - "$T/out" <<'PY' && ok || bad "--set facility.pue_range: JSON range not as given"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["inputs"]["pue"]["range"]
assert r == {"low": 1.2, "high": 1.6, "dist": "pert", "basis": "measured: two halls, 2026", "set": "facility.pue"}, r
assert d["inputs"]["card_count"]["range"] is None
PY
for pair in \
    "facility.pue_range=1.2|--set facility.pue_range=1.2: expected LOW, HIGH (two numbers in ratio separated by a comma, e.g. 1.2, 1.6), found '1.2'" \
    "facility.pue_range=1.4,1.6|--set facility.pue_range=1.4,1.6: expected LOW <= value <= HIGH, found the value 1.3 below the range 1.4 to 1.6 (pue ratio)" \
    "facility.pue_range=0.9,1.6|--set facility.pue_range=0.9,1.6: LOW: expected a number >= 1 and <= 5 ratio, found 0.9" \
    "facility.pue_range=1.2,6|--set facility.pue_range=1.2,6: HIGH: expected a number >= 1 and <= 5 ratio, found 6" \
    "facility.pue_range=1.6,1.2|--set facility.pue_range=1.6,1.2: expected LOW <= HIGH, found LOW 1.6 above HIGH 1.2" \
    "facility.pue_range=1.2,1e999|--set facility.pue_range=1.2,1e999: HIGH: expected a number in ratio" \
    "facility.hours_per_year_dist=normal|--set facility.hours_per_year_dist=normal: a distribution needs a range beside the value: expected hours_per_year_range = LOW, HIGH" \
    "facility.pue_rnage=1.2,1.6|--set facility.pue_rnage=1.2,1.6: unknown key 'pue_rnage' (did you mean 'pue_range'?)" \
    "scenario.years_range=2,4|--set scenario.years_range=2,4: input years fixes the workbook's shape (structural) and takes no range" \
    "scenario.card_range=1,2|--set scenario.card_range=1,2: input card_tier" \
    "scenario.cards_range=30.5,33|--set scenario.cards_range=30.5,33: LOW: expected a whole number >= 1 cards, found 30.5" \
    "card.price_range=80000,90000|--set card.price_range=80000,90000: expected LOW <= value <= HIGH, found the value 95000 above the range 80000 to 90000 (tier_price CNY/card)"; do
    arg=${pair%%|*}
    rm -f "$T/rg.xlsx"
    run 65 --root "$SRC" --scenario cluster32 --set "$arg" --out "$T/rg.xlsx"
    expect_err "${pair#*|}"
    [ ! -e "$T/rg.xlsx" ] && ok || bad "--set $arg: a workbook was written"
done
rm -f "$T/rg.xlsx"
run 65 --root "$SRC" --scenario cluster32 --set facility.pue_range=0.1,1.6 --set facility.pue_dist=gauss --out "$T/rg.xlsx"
expect_err "--set facility.pue_dist=gauss: expected triangular, uniform, pert, normal or lognormal, found 'gauss'"
# A --set value takes no range the files give for another value: --set card.price=80000 leaves D-M without one.
run 0 --root "$SRC" --scenario cluster32 --set card.price=80000 --set D-M.price_range=70000,90000 --set C90.price_range=20000,24000 --format json --no-workbook
python3 - "$T/out" <<'PY' && ok || bad "per-tier --set ranges not as given"
import json, sys
r = json.load(open(sys.argv[1]))["inputs"]["tier_price"]["range_by_tier"]
assert r["D-M"] == {"low": 70000, "high": 90000, "dist": "triangular", "basis": None, "set": "card.price"}, r
assert r["C90"]["set"] == "C90.price" and r["C90"]["low"] == 20000, r
PY
# Quotes: a quoted price drops the catalog's range; a --set range must hold the quote (for 32 cards,
# SG-55's USD 12,100 x 7.1 = 85,910 CNY for D-M).
run 0 --root "$SRC" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 --set D-M.price_range=85000,100000 --format json --no-workbook
python3 - "$T/out" <<'PY' && ok || bad "a --set range on a quoted price"
import json, sys
d = json.load(open(sys.argv[1]))["inputs"]["tier_price"]
assert d["by_tier"]["D-M"] == 85910 and d["range_by_tier"]["D-M"]["low"] == 85000, d["range_by_tier"]
PY
run 0 --root "$SRC" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 --format json --no-workbook
python3 - "$T/out" <<'PY' && ok || bad "a quoted price keeps the catalog's range"
import json, sys
d = json.load(open(sys.argv[1]))["inputs"]
assert "D-M" not in d["tier_price"]["range_by_tier"] and d["tier_price"]["range_by_tier"]["D-L"]["low"] == 112000
assert d["host_price"]["range"] is None and d["host_price"]["value"] != 200000, d["host_price"]  # quoted too
PY
rm -f "$T/rg.xlsx"
run 65 --root "$SRC" --scenario cluster32 --quotes "$SRC/pricing/example-quotes.csv" --as-of 2026-11-30 --set D-M.price_range=90000,100000 --out "$T/rg.xlsx"
expect_err "--set D-M.price_range=90000,100000: expected LOW <= value <= HIGH, found the quoted price 85910 for D-M of tier_price outside the range 90000 to 100000: correct the range or the quote"
[ ! -e "$T/rg.xlsx" ] && ok || bad "a quote outside a --set range: a workbook was written"
# A range in a catalog file is checked like one in a scenario, and named by its file.
mkdir -p "$T/rgroot"
cp -R "$SRC/pricing" "$SRC/templates" "$SRC/scenarios" "$T/rgroot/"
sed -i 's/^pue = 1.3$/pue = 1.3\npue_range = 1.35, 1.6/' "$T/rgroot/pricing/site.ini"
sed -i '/^pue_range = 1.2, 1.6$/d' "$T/rgroot/pricing/site.ini"
run 65 --root "$T/rgroot" --scenario cluster32 --out "$T/rg.xlsx"
expect_err "pricing/site.ini [facility] pue_range: expected LOW <= value <= HIGH, found the value 1.3 below the range 1.35 to 1.6 (pue ratio)"
# The catalog may hold keys no template reads, but no range that belongs to nothing, misspelt or not.
cp "$SRC/pricing/site.ini" "$SRC/pricing/hosts.ini" "$T/rgroot/pricing/"
sed -i 's/^pue_range = 1.2, 1.6$/pue_rnage = 1.2, 1.6/; /^pue_range_source/d' "$T/rgroot/pricing/site.ini"
run 65 --root "$T/rgroot" --scenario cluster32 --out "$T/rg.xlsx"
expect_err "pricing/site.ini [facility] pue_rnage: unknown key (did you mean 'pue_range'?)"
cp "$SRC/pricing/site.ini" "$T/rgroot/pricing/"
sed -i 's/^rack_units = 8$/rack_units = 8\nrack_unit_range = 8, 9/' "$T/rgroot/pricing/hosts.ini"
run 65 --root "$T/rgroot" --scenario cluster32 --out "$T/rg.xlsx"
expect_err "pricing/hosts.ini [dc8] rack_unit_range: no input reads [dc8] rack_unit, so this range belongs to no value (did you mean 'rack_units_range'?)"
[ ! -e "$T/rg.xlsx" ] && ok || bad "a stray catalog range: a workbook was written"
# The Inputs sheet: Low and High beside the value, formatted like it (pue 0.00), the range's distribution
# and basis after the source; a per-tier row's range in Low and High columns after the tier table's
# status column, with a note below; in USD a money range is live over fx_report, as its value.
run 0 --root "$SRC" --scenario cluster32 --set facility.pue_range=1.2,1.6 --set "facility.pue_range_source=illustrative: halls of 2026" --set D-M.price_range=70000,120000 --out "$T/rgw.xlsx"
run 0 --root "$SRC" --scenario cluster32 --currency USD --set facility.electricity_price_range=0.5,1 --set D-M.price_range=71000,142000 --out "$T/rgu.xlsx"
python3 - "$SRC/tests" "$T/rgw.xlsx" "$T/rgu.xlsx" <<'PY' && ok || bad "Low and High on the Inputs sheet"
import re, sys, zipfile
sys.path.insert(0, sys.argv[1])
import recalc
book, names = recalc.read_cells(sys.argv[2])
inp = book["Inputs"]
assert (inp["D4"][2], inp["E4"][2], inp["F4"][2], inp["H4"][2]) == ("Low", "High", "Status", "Source / basis"), inp["D4"]
row = next(r[1:] for r, c in inp.items() if r[0] == "G" and c[2] == "pue")
assert (inp["C" + row][2], inp["D" + row][2], inp["E" + row][2]) == ("1.3", "1.2", "1.6"), (inp["C" + row], inp["D" + row])
assert inp["H" + row][2].endswith(". Range, triangular (--set facility.pue_range=1.2,1.6): illustrative: halls of 2026"), inp["H" + row]
card = next(r[1:] for r, c in inp.items() if r[0] == "G" and c[2] == "card_count")
assert "D" + card not in inp and "E" + card not in inp, "a value without a range has empty Low and High"
util = next(r[1:] for r, c in inp.items() if r[0] == "G" and c[2] == "utilisation")
assert (inp["D" + util][2], inp["E" + util][2]) == ("0.5", "0.9"), "cluster32's utilisation 0.5 to 0.9 (seed §4.3)"
assert inp["H" + util][2].endswith(". Range, triangular: seed §4.3: storage that cannot feed the cards drops utilisation from 90% to 50%")
z = zipfile.ZipFile(sys.argv[2])
styles = z.read("xl/styles.xml").decode()
x = z.read("xl/worksheets/sheet2.xml").decode()
def fmt(ref):  # the number format code of a cell
    s = int(re.search(r'<c r="%s" s="(\d+)"' % ref, x).group(1))
    xf = re.findall(r"<xf [^>]*>", re.search(r"<cellXfs[^>]*>(.*?)</cellXfs>", styles, re.S).group(1))[s]
    nid = re.search(r'numFmtId="(\d+)"', xf).group(1)
    return dict(re.findall(r'<numFmt numFmtId="(\d+)" formatCode="([^"]*)"', styles)).get(nid, nid)
assert fmt("D" + row) == fmt("C" + row) == "0.00", (fmt("D" + row), fmt("C" + row))
heads = {c[2]: r for r, c in inp.items() if r.endswith("4") and c[2]}
lo, hi = heads["Low: Price (CNY/card)"], heads["High: Price (CNY/card)"]
dm = next(r[1:] for r, c in inp.items() if r[0] == "J" and c[2] == "D-M")
assert inp[lo[:-1] + dm][2] == "70000" and inp[hi[:-1] + dm][2] == "120000", (inp[lo[:-1] + dm], inp[hi[:-1] + dm])
c90 = next(r[1:] for r, c in inp.items() if r[0] == "J" and c[2] == "C90")
assert (inp[lo[:-1] + c90][2], inp[hi[:-1] + c90][2]) == ("18000", "24000"), "C90: 3x to 4x the C70's 6,000 (seed §2)"
note = next(c[2] for c in inp.values() if c[2] and c[2].startswith("Low and High of Price (tier_price)"))
assert note.startswith("Low and High of Price (tier_price), the 90% interval of each ranged row: C30, C60, C70, triangular: "
                       "illustrative: +/-30% around") and "; C90, triangular: seed §2: a C90 costs 3-4x a C70" in note and \
    "; D-M, triangular (--set D-M.price_range=70000,120000); D-L, triangular: illustrative" in note, note
book, names = recalc.read_cells(sys.argv[3])
inp = book["Inputs"]
row = next(r[1:] for r, c in inp.items() if r[0] == "G" and c[2] == "electricity_price")
assert inp["D" + row][0] == "0.5/fx_report" and inp["E" + row][0] == "1/fx_report", (inp["D" + row], inp["E" + row])
assert inp["E" + row][2] == "%.16G" % (1 / 7.1), inp["E" + row]  # cached as libxlsxwriter writes it
PY
for f in rgw rgu; do
    if python3 "$SRC/tests/recalc.py" check --app gnumeric "$T/$f.xlsx" >"$T/rc" 2>&1; then ok; else bad "ranges workbook $f: $(tail -3 "$T/rc")"; fi
done
# ---- tco diff: the budget bridge (issue 14 section 5; tests/bridge_test.py has the figures) ----
run 0 --root "$SRC" --scenario cluster32 --format json --no-workbook
cp "$T/out" "$T/old.json"
run 0 --root "$SRC" --scenario cluster32 --format json --no-workbook --set facility.pue=1.2
cp "$T/out" "$T/new.json"
# PUE 1.3 -> 1.2: 41.06 kW x 0.1 x 8,760 h x 3 yr x 0.7 CNY/kWh = 75,533.976 CNY less electricity.
run 0 diff "$T/old.json" "$T/new.json" --root "$SRC"
expect_out "1.3  1.2  -75,534    7,539,678"
expect_out "1 step; the deltas add up exactly to NEW - OLD"
if [ -s "$T/err" ]; then bad "tco diff: stderr not empty: $(cat "$T/err")"; else ok; fi
run 0 diff "$T/old.json" "$T/new.json" --root "$SRC" --format json
expect_out '"set": "facility.pue", "from": 1.3, "to": 1.2'
expect_out '"other": []'
run 64 --root "$SRC" diff "$T/old.json" "$T/new.json"
expect_err "diff takes its options after it: tco diff OLD.json NEW.json"
run 64 diff "$T/old.json" --root "$SRC"
expect_err "diff: expected two JSON summaries: tco diff OLD.json NEW.json"
run 64 diff "$T/old.json" "$T/new.json" --order size --root "$SRC"
expect_err "diff --order: expected effect (largest first) or file, found 'size'"
run 64 diff "$T/old.json" "$T/new.json" --format csv --root "$SRC"
expect_err "diff --format: expected table or json, found 'csv'"
run 66 diff "$T/old.json" "$T/nothere.json" --root "$SRC"
expect_err "$T/nothere.json: cannot open: No such file or directory"
# A bridge that cannot be computed writes no workbook.
run 65 diff "$T/old.json" "$T/err" --root "$SRC" --out "$T/never.xlsx"
[ ! -e "$T/never.xlsx" ] && ok || bad "a failed tco diff left $T/never.xlsx"
run 0 diff "$T/old.json" "$T/new.json" --root "$SRC" --out "$T/bridge.xlsx"
expect_out "Workbook: $T/bridge.xlsx"
member "$T/bridge.xlsx" xl/workbook.xml | grep -q 'name="Bridge"' && ok || bad "no Bridge sheet in $T/bridge.xlsx"
no_temp_left "$T"
# ---- Review fixes (issues 13 and 14) ----
# An advice whose Rank sheet lists one option writes its workbook (an input without a source, fx_report,
# crashed the Shared inputs sheet).
run 0 advise solo-dev --root "$SRC" --set advise.tiers=C30 --out "$T/one.xlsx"
member "$T/one.xlsx" xl/workbook.xml | grep -q 'name="Rank"' && ok || bad "no Rank sheet in $T/one.xlsx"
# tco diff refuses a FIFO at once (opening one would wait for a writer).
mkfifo "$T/fifo.json"
if timeout 10 "$TCO" diff "$T/fifo.json" "$T/old.json" --root "$SRC" >"$T/out" 2>"$T/err"; then
    bad "tco diff accepted a FIFO"
else
    expect_err "$T/fifo.json: not a regular file"
fi
rm -f "$T/fifo.json"
# A long run refuses a target it cannot write before its draws, not after.
mkdir -p "$T/mc/out/cluster32.xlsx"
(cd "$T/mc" && "$TCO" --root "$SRC" --scenario cluster32 --monte-carlo 5000000 >"$T/out" 2>"$T/err"; echo $? >"$T/rc")
[ "$(cat "$T/rc")" = 73 ] && ok || bad "--monte-carlo with a folder at its target: exit $(cat "$T/rc")"
expect_err "out/cluster32.xlsx: exists and is not a regular file; refusing to replace it"
# A basis alone is not a misspelt key: say what it needs.
run 65 --root "$SRC" --scenario cluster32 --no-workbook --set facility.pue_source=x
expect_err "--set facility.pue_source=x: a basis describes the value it is given with: give --set facility.pue=VALUE too"
# One draw has no sample deviation: null, not 0.
run 0 --root "$SRC" --scenario cluster32 --monte-carlo 1 --no-workbook --format json
expect_out '"stdev": null'

# ---- --list alone; seeds every JSON reader holds exactly ----
# --list takes --root alone: anything else would be dropped without a word.
for extra in "--seed 3" "--scenario cluster32" "--format json" "--monte-carlo 10" "--no-workbook"; do
    # shellcheck disable=SC2086 # an option and its value
    run 64 --root "$SRC" --list $extra
    expect_err "--list prints the scenarios and questions of the root: it takes --root alone"
done
# A seed is printed in the JSON: at most 2^53 - 1 = 9007199254740991, the largest whole number a double
# (jq, JavaScript) holds exactly; that one is printed as given, one more is refused.
run 0 --root "$SRC" --scenario cluster32 --no-workbook --monte-carlo 10 --seed 9007199254740991 --format json
expect_out '"seed": 9007199254740991'
run 64 --root "$SRC" --scenario cluster32 --no-workbook --monte-carlo 10 --seed 9007199254740992
expect_err "--seed: expected a whole number from 0 to 9007199254740991, found '9007199254740992'"

# ---- A run in another currency: money inputs by their CNY value (given), the rate a bridge step ----
# In a USD run's JSON each money input's value is USD, its given the CNY its --set key takes: setting every
# money input and tier row to its given (and fx.usd to fx_report) with --set reproduces the run's TCO; a
# money input set to its USD value instead (host.price=28169.01...) is read as CNY and gives another TCO.
run 0 --root "$SRC" --scenario cluster32 --currency USD --set fx.usd=7.4 --set host.price=210000 --no-workbook --format json
cp "$T/out" "$T/usd74.json"
python3 - "$T/usd74.json" >"$T/sets" <<'PY3' && ok || bad "no --set list from $T/usd74.json"
import json, sys
d = json.load(open(sys.argv[1]))
sets = []
for name, e in d["inputs"].items():
    if "given" in e:
        sets.append("%s=%r" % (e["set"], e["given"]))
    for tier, g in e.get("given_by_tier", {}).items():
        if e["set_by_tier"][tier]:
            sets.append("%s=%r" % (e["set_by_tier"][tier], g))
sets.append("%s=%r" % (d["inputs"]["fx_report"]["set"], d["inputs"]["fx_report"]["value"]))
assert "host.price=210000" in sets and "D-M.price=95000" in sets and "fx.usd=7.4" in sets and len(sets) > 30, sets
print("\n".join("--set\n" + s for s in sets))
PY3
# shellcheck disable=SC2046 # one word per line: --set, then KEY=VALUE
run 0 --root "$SRC" --scenario cluster32 --currency USD --no-workbook --format json $(cat "$T/sets")
python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); assert "%.16G" % a["tco"] == "%.16G" % b["tco"], (a["tco"], b["tco"])' "$T/usd74.json" "$T/out" \
    && ok || bad "--set SET=given for every money input does not reproduce the USD run's TCO"
run 0 --root "$SRC" --scenario cluster32 --currency USD --set fx.usd=7.4 --no-workbook --format json \
    --set "host.price=$(python3 -c 'import json, sys; print(repr(json.load(open(sys.argv[1]))["inputs"]["host_price"]["value"]))' "$T/usd74.json")"
python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); assert a["tco"] - b["tco"] > 10000, (a["tco"], b["tco"])' "$T/usd74.json" "$T/out" \
    && ok || bad "--set host.price=<its USD value> is not read as CNY"
# The bridge of two USD runs: a new rate and a new host price are two steps; the price in CNY, as --set takes
# it (200,000 -> 210,000 CNY: 4 hosts x 10,000 CNY x 1.15 with support = 46,000 CNY, over the rate of 7.4
# in force after the larger rate step = 6,216.22 USD).
run 0 --root "$SRC" --scenario cluster32 --currency USD --no-workbook --format json
cp "$T/out" "$T/usd71.json"
run 0 diff "$T/usd71.json" "$T/usd74.json" --root "$SRC"
expect_out "2 steps; the deltas add up exactly to NEW - OLD"
grep -Eq '^fx_report +7\.1 +7\.4 ' "$T/out" && ok || bad "no fx_report step 7.1 -> 7.4: $(cat "$T/out")"
grep -Eq '^host_price +200,000 +210,000 +\+6,216 ' "$T/out" && ok || bad "no host_price step in CNY: $(cat "$T/out")"

# ---- tco diff, hand-edited files (tests/bridge_test.py has the rest): units, refusals in --set's terms ----
# The USD bridge's table gives the unit of From and To (the host price in CNY, as --set takes it).
run 0 diff "$T/usd71.json" "$T/usd74.json" --root "$SRC"
grep -Eq '^host_price +200,000 +210,000 +\+6,216 +[0-9,]+  CNY/host$' "$T/out" && ok || bad "no CNY unit on the host_price step: $(cat "$T/out")"
expect_out "From and To in their Unit, as --set takes them (money in CNY); Delta and Running TCO in USD."
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["inputs"]["electricity_price"]["given"] = -1; json.dump(d, open(sys.argv[2], "w"))' \
    "$T/usd74.json" "$T/neg.json"
run 65 diff "$T/usd71.json" "$T/neg.json" --root "$SRC"
expect_err "neg.json: inputs.electricity_price: expected a number >= 0 CNY/kWh, found -1"
[ -s "$T/out" ] && bad "a refused bridge printed: $(cat "$T/out")" || ok
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["currency"] = 5; json.dump(d, open(sys.argv[2], "w"))' \
    "$T/usd74.json" "$T/c5.json"
run 65 diff "$T/c5.json" "$T/usd71.json" --root "$SRC"
expect_err "c5.json: \"currency\" is not a text"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
