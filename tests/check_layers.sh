#!/bin/sh
# tests/check_layers.sh ENGINE_DIR [OBJECT_DIR] - the house rule of engine/: floors, one way.
#
# engine/ holds one folder per floor, lowest first:
#   base  read  model  load  price  render  apps  cli
# A file may include a header of its own floor or of a floor below it, never
# one above (docs/house.md).  Within a floor, and between floors,
# no circle: the files' includes must have an order.
#
# With OBJECT_DIR (a build folder holding the engine's object files, e.g.
# build/CMakeFiles), the calls are checked the same way from `nm`: a function
# defined in one file and called from another is an edge between the files;
# a call that climbs a floor, or a circle of calls, fails.
#
# An include or call that climbs and is allowed has a line in ALLOWED below
# with its reason.  Exit 0 when the rule holds, 1 with each breach named.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh tests/check_layers.sh ENGINE_DIR [OBJECT_DIR]" >&2
    exit 64
fi
engine=$1
objects=${2:-}
floors="base read model load price render apps cli"

# "FROM TO" pairs (paths under engine/, without extension) that may climb, each with its reason.
ALLOWED=""

floor_of() { # FLOOR-NUMBER of engine-relative PATH ("model/bind.c" -> 2), or -1
    f=${1%%/*}
    i=0
    for x in $floors; do
        [ "$x" = "$f" ] && { echo $i; return; }
        i=$((i + 1))
    done
    echo -1
}

allowed() {
    printf '%s\n' "$ALLOWED" | grep -qx "$1 $2"
}

fail=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

# 1. Every engine file lives on a floor, and includes only its own floor or lower ones.
for path in $(cd "$engine" && find . -name '*.[ch]' | sed 's#^\./##' | sort); do
    from=$(floor_of "$path")
    if [ "$from" -lt 0 ]; then
        echo "check_layers: engine/$path is not in a floor folder ($floors)"
        fail=1
        continue
    fi
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$engine/$path"); do
        if [ ! -f "$engine/$inc" ]; then
            echo "check_layers: engine/$path includes \"$inc\", which is not engine/FLOOR/NAME.h"
            fail=1
            continue
        fi
        to=$(floor_of "$inc")
        a=${path%.*}
        b=${inc%.*}
        [ "$a" != "$b" ] && echo "$a $b" >>"$edges"
        if [ "$to" -gt "$from" ] && ! allowed "$a" "$b"; then
            echo "check_layers: engine/$path (floor ${path%%/*}) includes $inc, a floor above it (${inc%%/*})"
            fail=1
        fi
    done
done
# A circle of includes: tsort names the files on it.
if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
    echo "check_layers: a circle of includes, through:"
    grep -v 'input contains a loop' "$edges.err" | sed 's/^tsort: /  /' | sort -u
    fail=1
fi
rm -f "$edges.err"

# 2. Calls between the engine's files, from their object files.
if [ -n "$objects" ]; then
    : >"$edges"
    defs=$(mktemp)
    uses=$(mktemp)
    for o in $(find "$objects" -path '*engine/*' -name '*.o' | sort); do
        rel=$(printf '%s\n' "$o" | sed 's#.*/engine/##; s#\.c\.o$##; s#\.o$##')
        nm "$o" | awk -v f="$rel" '$2 ~ /^[TDBR]$/ { print $3, f }' >>"$defs"
        nm "$o" | awk -v f="$rel" '$1 == "U" { print $2, f }' >>"$uses"
    done
    if [ ! -s "$defs" ]; then
        echo "check_layers: no engine object files under $objects"
        fail=1
    fi
    # "caller callee" for each symbol one file defines and another uses.
    sort -k1,1 "$defs" >"$defs.s"
    sort -k1,1 "$uses" >"$uses.s"
    join "$uses.s" "$defs.s" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$edges"
    while read -r a b; do
        fa=$(floor_of "$a")
        fb=$(floor_of "$b")
        if [ "$fb" -gt "$fa" ] && ! allowed "$a" "$b"; then
            echo "check_layers: engine/$a calls into engine/$b, a floor above it:" \
                "$(join "$uses.s" "$defs.s" | awk -v a="$a" -v b="$b" '$2 == a && $3 == b { printf "%s ", $1 }')"
            fail=1
        fi
    done <"$edges"
    if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
        echo "check_layers: a circle of calls between files, through:"
        grep -v 'input contains a loop' "$edges.err" | sed 's/^tsort: /  /' | sort -u
        fail=1
    fi
    rm -f "$defs" "$uses" "$defs.s" "$uses.s" "$edges.err"
fi

if [ "$fail" -eq 0 ]; then
    echo "check_layers: engine/ keeps its floors ($floors)${objects:+, includes and calls}"
fi
exit "$fail"
