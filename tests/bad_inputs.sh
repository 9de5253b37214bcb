#!/bin/sh
# bad_inputs.sh - every bad input in tests/fixtures/bad/ through the tco command:
# the expected exit code, the expected message fragment on stderr, and no
# workbook written.  Scenarios carry "; expect: EXIT fragment" on their first
# line (loaded with the mini root's templates and catalog); quote files are
# listed in quotes/EXPECT and checked with `tco quotes check`.
# Usage: bad_inputs.sh TCO_BINARY SOURCE_DIR
set -u
TCO=$1
SRC=$2
BAD="$SRC/tests/fixtures/bad"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
for f in "$BAD"/scenarios/*.ini; do
    line=$(head -n 1 "$f")
    want=$(printf '%s' "$line" | sed -n 's/^; expect: \([0-9]*\) .*/\1/p')
    frag=$(printf '%s' "$line" | sed -n 's/^; expect: [0-9]* //p')
    "$TCO" --root "$SRC/tests/fixtures/roots/mini" --scenario "$f" --out "$T/out.xlsx" >"$T/stdout" 2>"$T/stderr"
    got=$?
    if [ "$got" = "$want" ] && grep -qF -- "$frag" "$T/stderr" && [ ! -e "$T/out.xlsx" ] && [ ! -s "$T/stdout" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $(basename "$f"): exit $got (expected $want), stderr: $(cat "$T/stderr")"
    fi
done
grep -v '^#' "$BAD/quotes/EXPECT" | while IFS= read -r entry; do
    file=${entry%%: *}
    frag=${entry#*: }
    "$TCO" --root "$SRC" quotes check "$BAD/quotes/$file" >"$T/stdout" 2>"$T/stderr"
    got=$?
    if [ "$got" = 65 ] && grep -qF -- "$frag" "$T/stderr"; then
        echo pass >>"$T/results"
    else
        echo fail >>"$T/results"
        echo "FAIL: quotes/$file: exit $got (expected 65), stderr: $(cat "$T/stderr")"
    fi
done
pass=$((pass + $(grep -c pass "$T/results" 2>/dev/null || true)))
fail=$((fail + $(grep -c fail "$T/results" 2>/dev/null || true)))
[ "$(ls "$BAD"/quotes/*.csv | wc -l)" -eq "$(grep -vc '^#' "$BAD/quotes/EXPECT")" ] || { echo "FAIL: quotes/EXPECT does not list every CSV"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -ge 40 ]
