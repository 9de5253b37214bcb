#!/bin/sh
# tests/corpus.sh TCO ROOT DIR - run the shipped corpus and keep every output in DIR.
#
# For a change meant to preserve behaviour (a refactor): run it with the binary
# built from the last commit before the change and with the one built from the
# result, into two folders, then compare them:
#
#   sh tests/corpus.sh /tmp/before/tco . /tmp/corpus-before
#   sh tests/corpus.sh build/tco . /tmp/corpus-after
#   diff -r /tmp/corpus-before /tmp/corpus-after && echo identical
#
# Run both from the same checkout folder (ROOT): workbooks and JSON hold the project's path (a
# source's "pricing/site.ini" is shown under it), and a longer path even wraps a row differently.
# To compare a checkout elsewhere (a git worktree) with a corpus made in ROOT, bind-mount it there
# in a private mount namespace: unshare -m sh -c 'mount --bind WORKTREE ROOT && cd ROOT && ...'.
#
# Each run is one numbered folder holding the command line (cmd), its exit code
# (rc), stdout, stderr and every file it wrote (workbooks, saved scenarios).
# The runs: every shipped scenario in table, JSON and CSV with its workbook;
# every comparison; every advise question (table and JSON, with the workbook);
# quotes (the example file, and quotes check); USD; sensitivity and Monte Carlo;
# tco diff between two summaries (table, JSON, workbook); tco init; --list.
# Quote validity is judged on a fixed date so that the corpus does not age.
set -u
if [ $# -ne 3 ]; then
    echo "usage: sh tests/corpus.sh TCO ROOT DIR" >&2
    exit 64
fi
tco=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2" && pwd)
out=$3
mkdir -p "$out"
out=$(cd "$out" && pwd)
n=0
# run ARGS...: one run in its own folder; the working folder is the run's, so a default
# out/NAME.xlsx lands inside it.
run() {
    n=$((n + 1))
    d=$(printf '%s/%03d' "$out" "$n")
    rm -rf "$d"
    mkdir -p "$d/files"
    printf '%s\n' "$*" >"$d/cmd"
    if [ "$1" = quotes ]; then
        set -- "$@"                     # quotes check takes no --root: TCO_ROOT below
    else
        set -- "$@" --root "$root"
    fi
    (cd "$d/files" && TCO_ROOT="$root" "$tco" "$@" >"$d/stdout" 2>"$d/stderr"; echo $? >"$d/rc")
    # The paths of this machine's folders are not part of the behaviour.
    find "$d" -type f \( -name stdout -o -name stderr -o -name '*.md' -o -name '*.ini' \) \
        -exec sed -i "s#$tco#TCO#g; s#$d/files#FILES#g; s#$root#ROOT#g" {} +
}
run --list
scenarios=""
questions=""
for f in "$root"/scenarios/*.ini; do
    s=$(basename "$f" .ini)
    case "$s" in
    compare-*) ;;
    *)
        if grep -q '^\[advise\]' "$f"; then
            questions="$questions $s"
        else
            scenarios="$scenarios $s"
        fi
        ;;
    esac
done
for s in $scenarios; do
    run --scenario "$s"
    run --scenario "$s" --format json --no-workbook
    run --scenario "$s" --format csv --no-workbook
done
run --scenario all --format json
for f in "$root"/scenarios/compare-*.ini; do
    c=$(basename "$f" .ini)
    run --compare "$c"
    run --compare "$c" --format json --no-workbook
    run --compare "$c" --format csv --no-workbook
done
run --compare team-70b-dm2,team-70b-wb3 --set team-70b-dm2:facility.pue=1.3
for q in $questions; do
    run advise "$q"
    run advise "$q" --format json --no-workbook
done
run advise team-70b --set advise.facility_modes=owned --format json --no-workbook
q="$root/pricing/example-quotes.csv"
run --scenario cluster32 --quotes "$q" --as-of 2026-11-30
run --scenario cluster32 --quotes "$q" --as-of 2026-11-30 --format json --no-workbook
run --scenario cluster32 --quotes "$q" --as-of 2027-06-30 --format json --no-workbook
run --scenario team-70b-dm2 --quotes "$q" --as-of 2026-11-30 --format csv --no-workbook
run quotes check "$q"
run quotes check "$q" --format json
run --scenario cluster32 --currency USD
run --scenario cluster32 --currency USD --format json --no-workbook
run --scenario team-70b-dm2 --currency EUR --format csv --no-workbook
run --scenario cluster32 --set facility.pue=1.2 --set card.price=80000
run --scenario cluster32 --sensitivity
run --scenario cluster32 --sensitivity --format json --no-workbook
run --scenario cluster32 --monte-carlo 2000 --seed 7
run --scenario cluster32 --monte-carlo 500 --format json --no-workbook
run --scenario team-70b-dm2 --monte-carlo 300 --seed 3 --no-workbook
# tco diff: two summaries written by the corpus itself.
s=$out/inputs
mkdir -p "$s"
"$tco" --root "$root" --scenario cluster32 --format json --no-workbook >"$s/old.json" 2>/dev/null
"$tco" --root "$root" --scenario cluster32 --set facility.pue=1.3 --set card.price=80000 \
    --set scenario.cards=40 --format json --no-workbook >"$s/new.json" 2>/dev/null
"$tco" --root "$root" --scenario cluster32 --currency USD --format json --no-workbook >"$s/usd.json" 2>/dev/null
# Named from the run's folder, so that two corpora hold the same names.
run diff ../../inputs/old.json ../../inputs/new.json --out bridge.xlsx
run diff ../../inputs/old.json ../../inputs/new.json --format json --order file
run diff ../../inputs/old.json ../../inputs/usd.json
run init work --scenario team-70b-dm2
echo "corpus: $n runs in $out"
