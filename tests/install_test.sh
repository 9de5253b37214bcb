#!/bin/sh
# install_test.sh - an installed tco needs no checkout.
#
# Copies the source as a tarball would hold it (no build trees, no out/, no .git), configures
# it for the default prefix, builds it, installs it with `cmake --install --prefix` into a
# temporary prefix, and deletes the build and the copied source.  Then, from an unrelated
# folder (mktemp -d), the installed tco lists the scenarios and writes cluster32 with the TCO
# the checkout's tco computes, into out/ of that folder; TCO_ROOT and --root still override
# the installed data; a moved prefix still works; a lone binary says where it looked; the man
# page renders without warnings; `tco init` makes a folder that gives the same TCO.  Nothing
# changes the installed tree (a fingerprint of every file before and after).
#
# Usage: install_test.sh SOURCE_DIR CHECKOUT_TCO [CC [CMAKE]]
set -u
SRC=$(cd "$1" && pwd)
REF=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
CC_USE=${3:-cc}
CMAKE=${4:-cmake}
T=$(cd "$(mktemp -d)" && pwd -P)
W=$(cd "$(mktemp -d)" && pwd -P) # the unrelated folder the installed tco runs in
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T" "$W"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# tco_of JSON_FILE: the "tco" figure of a --format json summary.
tco_of() { python3 -c 'import json, sys; print(repr(json.load(open(sys.argv[1]))["tco"]))' "$1" 2>/dev/null; }
# same_tco A.json B.json WHAT
same_tco() {
    a=$(tco_of "$1") && b=$(tco_of "$2") && [ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "$3: tco ${a:-?} against ${b:-?}"
}

# 1. Build and install from a copy of the source, then remove the build and the copy.
mkdir "$T/src"
(cd "$SRC" && tar cf - --exclude=./.git --exclude=./build --exclude='./build-*' --exclude=./out .) | (cd "$T/src" && tar xf -)
if ! { CC="$CC_USE" "$CMAKE" -S "$T/src" -B "$T/build" -DBUILD_TESTING=OFF &&
    "$CMAKE" --build "$T/build" -j2 && "$CMAKE" --install "$T/build" --prefix "$T/prefix"; } >"$T/log" 2>&1; then
    cat "$T/log"
    echo "FAIL: configure, build or install"
    exit 1
fi
rm -rf "$T/build" "$T/src"
P=$T/prefix

# 2. Where things go (GNUInstallDirs): each installed data file is the checkout's.
for f in bin/tco share/man/man1/tco.1 share/tco/pricing/site.ini share/tco/pricing/cards.ini \
    share/tco/pricing/example-quotes.csv share/tco/templates/tco.ini share/tco/scenarios/cluster32.ini \
    share/tco/docs/cli.md share/tco/docs/model.md; do
    [ -f "$P/$f" ] && ok || bad "not installed: $f"
done
for d in pricing templates scenarios; do
    for f in "$SRC/$d"/*.ini; do
        cmp -s "$f" "$P/share/tco/$d/$(basename "$f")" && ok || bad "$P/share/tco/$d/$(basename "$f") is not $f"
    done
done
fingerprint() { (cd "$P" && find . -type f -exec cksum {} + | sort && find . | sort); }
fingerprint >"$T/before"
chmod -R a-w "$P" && chmod u+w "$P" # read-only data (the top folder stays movable, for step 6)

# 3. The checkout's figures, for comparison.
"$REF" --root "$SRC" --scenario cluster32 --format json --out "$T/ref.xlsx" >"$T/ref.json" 2>"$T/err" && ok ||
    bad "checkout run failed: $(cat "$T/err")"
"$REF" --root "$SRC" --scenario team --format json --out "$T/ref-team.xlsx" >"$T/ref-team.json" 2>"$T/err" && ok ||
    bad "checkout team run failed: $(cat "$T/err")"

# 4. From an unrelated folder.
cd "$W" || exit 1
"$P/bin/tco" --list >"$T/out" 2>"$T/err" && ok || bad "tco --list: exit $?: $(cat "$T/err")"
grep -q '^cluster32  *Training cluster: 32x D-M' "$T/out" && ok || bad "--list lacks cluster32: $(cat "$T/out")"
"$P/bin/tco" --scenario cluster32 --format json >"$T/inst.json" 2>"$T/err" && ok ||
    bad "tco --scenario cluster32: exit $?: $(cat "$T/err")"
same_tco "$T/inst.json" "$T/ref.json" "installed cluster32 against the checkout's"
[ -s "$W/out/cluster32.xlsx" ] && ok || bad "no out/cluster32.xlsx in the current folder"
[ "$(ls -A "$W")" = out ] && [ "$(ls -A "$W/out")" = cluster32.xlsx ] && ok ||
    bad "written besides out/cluster32.xlsx: $(ls -AR "$W")"
"$P/bin/tco" --scenario cluster32 >"$T/out" 2>"$T/err" && ok || bad "table run failed: $(cat "$T/err")"
grep -q '^Workbook: out/cluster32.xlsx$' "$T/out" && ok || bad "table run: $(tail -1 "$T/out")"
"$P/bin/tco" quotes check "$P/share/tco/pricing/example-quotes.csv" --as-of 2026-11-30 >"$T/out" 2>"$T/err" && ok ||
    bad "quotes check: $(cat "$T/err")"
# On 2026-11-30 one row (EU-7731, valid until 2026-10-31) has expired: a warning, no error.
grep -q ': 9 rows, 0 errors, 1 warning$' "$T/out" && ok || bad "quotes check: $(cat "$T/out")"

# 5. TCO_ROOT and --root still override the installed data (the mini root has the scenario 'good').
TCO_ROOT="$SRC/tests/fixtures/roots/mini" "$P/bin/tco" --list >"$T/out" 2>&1
grep -q '^good ' "$T/out" && ! grep -q cluster32 "$T/out" && ok || bad "TCO_ROOT not used: $(cat "$T/out")"
"$P/bin/tco" --root "$SRC/tests/fixtures/roots/mini" --list >"$T/out" 2>&1
grep -q '^good ' "$T/out" && ! grep -q cluster32 "$T/out" && ok || bad "--root not used: $(cat "$T/out")"
TCO_ROOT=/nonexistent "$P/bin/tco" --list >"$T/out" 2>"$T/err"
[ $? -eq 66 ] && grep -qF 'TCO_ROOT=/nonexistent: expected a folder holding pricing/ and templates/' "$T/err" && ok ||
    bad "a wrong TCO_ROOT: $(cat "$T/err")"

# 6. The prefix moved as a whole still works; the binary alone says where it looked.
mv "$P" "$T/moved" && P=$T/moved
"$P/bin/tco" --scenario cluster32 --format json --out "$T/moved.xlsx" >"$T/moved.json" 2>"$T/err" && ok ||
    bad "moved prefix: $(cat "$T/err")"
same_tco "$T/moved.json" "$T/ref.json" "moved prefix"
mkdir "$T/lone" && cp "$P/bin/tco" "$T/lone/tco"
"$T/lone/tco" --list >"$T/out" 2>"$T/err"
[ $? -eq 66 ] && ok || bad "a lone binary: expected exit 66"
grep -qF "looked in: \$TCO_ROOT (not set), the current folder ($W), the installed data beside $T/lone/tco ($T/lone/../share/tco)" "$T/err" &&
    ok || bad "a lone binary does not say where it looked: $(cat "$T/err")"

# 7. The man page renders, without a warning.
if command -v man >/dev/null; then
    MANWIDTH=80 man --warnings -l "$P/share/man/man1/tco.1" >"$T/man" 2>"$T/err" && ok || bad "man failed"
    [ -s "$T/err" ] && bad "man warns: $(cat "$T/err")" || ok
    grep -q '^ *init DIR \[--scenario NAME\] \[--root DIR\]' "$T/man" && grep -q -- '--compare A,B' "$T/man" && ok ||
        bad "the rendered man page lacks init or --compare"
else
    bad "man is not installed (sh .ci/install-deps --test installs man-db)"
fi

# 8. tco init: an editable folder, outside the installed data, giving the same TCO.
"$P/bin/tco" init mine --scenario team >"$T/out" 2>"$T/err" && ok || bad "tco init: $(cat "$T/err")"
grep -qF "Run it: cd mine && $P/bin/tco --scenario team" "$T/out" && ok || bad "tco init says: $(cat "$T/out")"
cmp -s mine/pricing/site.ini "$P/share/tco/pricing/site.ini" && cmp -s mine/scenarios/team.ini "$P/share/tco/scenarios/team.ini" &&
    ok || bad "mine/ does not hold copies of the installed files"
[ "$(stat -c %A mine/pricing/site.ini | cut -c3)" = w ] && ok || bad "the copy of site.ini is not writable: $(stat -c %A mine/pricing/site.ini)"
run_line=$(sed -n '5p' mine/README.md)
[ "$run_line" = "    $P/bin/tco --scenario team" ] && ok || bad "README line 5: '$run_line'"
(cd mine && sh -c "$run_line" >"$T/mine.txt" 2>"$T/err") && ok || bad "README command: $(cat "$T/err")"
grep -q '^Workbook: out/team.xlsx$' "$T/mine.txt" && [ -s mine/out/team.xlsx ] && ok || bad "no mine/out/team.xlsx"
(cd mine && "$P/bin/tco" --scenario team --format json --out "$T/mine.xlsx" >"$T/mine.json" 2>"$T/err") && ok ||
    bad "tco in mine/: $(cat "$T/err")"
same_tco "$T/mine.json" "$T/ref-team.json" "init folder team"
"$P/bin/tco" init "$P/share/tco/mine" >"$T/out" 2>"$T/err"
[ $? -eq 73 ] && grep -qF "lies in the installed data folder $P/share/tco" "$T/err" && ok ||
    bad "init inside the installed data: $(cat "$T/err")"
# However the root is found (--root, TCO_ROOT, the current folder), the installed data stays unwritten.
"$P/bin/tco" init "$P/share/tco/mine2" --root "$P/share/tco" >"$T/out" 2>"$T/err"
[ $? -eq 73 ] && grep -qF "lies in the installed data folder $P/share/tco" "$T/err" && ok ||
    bad "init inside the installed data with --root: $(cat "$T/err")"
TCO_ROOT="$P/share/tco" "$P/bin/tco" init "$P/share/tco/mine3" >"$T/out" 2>"$T/err"
[ $? -eq 73 ] && ok || bad "init inside the installed data with TCO_ROOT: $(cat "$T/err")"
(cd "$P/share/tco" && "$P/bin/tco" init mine4 >"$T/out" 2>"$T/err")
[ $? -eq 73 ] && ok || bad "init inside the installed data from its own folder: $(cat "$T/err")"
[ ! -e "$P/share/tco/mine2" ] && [ ! -e "$P/share/tco/mine3" ] && [ ! -e "$P/share/tco/mine4" ] && ok ||
    bad "tco init made a folder in the installed data: $(ls "$P/share/tco")"

# 9. Nothing changed the installed tree.
chmod -R u+w "$P"
mv "$P" "$T/prefix" && P=$T/prefix
fingerprint >"$T/after"
cmp -s "$T/before" "$T/after" && ok || bad "the installed tree changed: $(diff "$T/before" "$T/after")"

echo "install_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
