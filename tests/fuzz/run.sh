#!/bin/sh
# tests/fuzz/run.sh SECONDS BUILD_DIR SOURCE_DIR [HARNESS...]
# Run each libFuzzer harness for SECONDS with seed corpora from tests/fixtures
# (and scenarios/, pricing/; tco diff's JSON summaries from tests/fuzz/diff/; advise questions: the shipped
# ones of scenarios/ and tests/fixtures/questions/).  New inputs go to a scratch corpus; a crash leaves
# crash-* files in the current folder and the script fails.
set -eu
secs=$1
build=$2
src=$3
shift 3
harnesses=${*:-formula scenario quotes workbook diff question}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/formula" "$work/scenario" "$work/quotes" "$work/workbook" "$work/diff" "$work/question" \
    "$work/seed-formula" "$work/seed-question"
# The questions tco ships (a scenario file with [advise]), so the seeds are never older than the files.
for q in "$src"/scenarios/*.ini; do
    if grep -q '^\[advise\]' "$q"; then cp "$q" "$work/seed-question/"; fi
done
# One file per formula of the fixture cases.
i=0
grep -h '^formula:' "$src"/tests/fixtures/formulas/*.test | sed 's/^formula: *//' | while IFS= read -r f; do
    i=$((i + 1))
    printf '%s' "$f" >"$work/seed-formula/f$i"
done
for line in $(grep -h '^formula = ' "$src"/templates/*.ini | sed 's/^formula = //' | tr ' ' '_' | head -200); do
    i=$((i + 1))
    printf '%s' "$line" | tr '_' ' ' >"$work/seed-formula/t$i"
done
for h in $harnesses; do
    case $h in
    formula) seeds="$work/seed-formula" ;;
    scenario) seeds="$src/scenarios $src/tests/fixtures/roots/mini/scenarios $src/tests/fixtures/bad/scenarios" ;;
    quotes) seeds="$src/tests/fixtures/quotes $src/tests/fixtures/bad/quotes" ;;
    # Scenarios for the mini root first (they load), then the others for their shapes.
    workbook) seeds="$src/tests/fixtures/roots/mini/scenarios $src/scenarios $src/tests/fixtures/bad/scenarios" ;;
    # NEW.json against the fixed OLD (a whole summary, 128 KB, and a small one of six inputs).
    diff) seeds="$src/tests/fuzz/diff" ;;
    # The shipped questions (copied above) and the test questions.
    question) seeds="$work/seed-question $src/tests/fixtures/questions" ;;
    esac
    maxlen=4096
    if [ "$h" = diff ]; then maxlen=262144; fi
    dict=""
    [ -f "$src/tests/fuzz/$h.dict" ] && dict="-dict=$src/tests/fuzz/$h.dict"
    echo "== fuzz_$h for ${secs}s"
    # shellcheck disable=SC2086
    "$build/fuzz_$h" $dict -max_total_time="$secs" -max_len="$maxlen" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "$work/$h" $seeds 2>"$work/$h.log" || { tail -40 "$work/$h.log"; exit 1; }
    grep -E "^stat::number_of_executed_units|^stat::new_units_added|Done [0-9]+ runs" "$work/$h.log" || true
done
echo "fuzzing: no crash"
