#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cgannotate: cgannotate's report against callgrind_annotate's, line
# for line, with the same options, on profiles Callgrind makes now (of
# tests/subject: default, --dump-instr=yes, --cache-sim=yes) and on
# tests/data files that callgrind_annotate reads right; then the two
# places where cgannotate is right and callgrind_annotate is not
# (several parts, calls=0), with the numbers man/cgannotate.1 gives.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
CGANNOTATE=${CGANNOTATE:-./tools/cgannotate}
if [ -z "${CALLGRIND_ANNOTATE:-}" ]; then
    echo "SKIP: no callgrind_annotate to compare with"
    exit 77
fi
help_fits cgannotate "$CGANNOTATE"
usage_error cgannotate "$CGANNOTATE" --tree=up x.out
usage_error cgannotate "$CGANNOTATE" --threshold=101 x.out

# The canonical form of a report: callgrind_annotate prints the annotated
# source files and the calls of equal costs in its hash's order (it
# differs from run to run); cgannotate by name.  Both are put in the
# order of their text, nothing else is changed.
canon() {
    perl -e '
undef $/; my $t = <STDIN>;
my ($head, @secs) = split /(?=^-{80}\n-- (?:Auto|User)-annotated source: )/m, $t;
my $tail = "";
if (@secs) {
    $tail = $1 if $secs[-1] =~ s/(^-{80}\n(?:The following files[^\n]*|[^\n]*\n-{80}\n[^\n]* events annotated)\n.*)\z//ms;
    @secs = sort @secs;
}
my (@out, @run); my $key = "";
for (split /^/m, join("", $head, @secs, $tail)) {
    if (/^(.*?) (<|>  |=>) /) {
        if ("$1 $2" ne $key) { push @out, sort @run; @run = (); }
        $key = "$1 $2"; push @run, $_;
    } else { push @out, sort @run; @run = (); $key = ""; push @out, $_; }
}
print @out, sort @run;'
}

same=0
# compare NAME FILE OPTION...: both tools' reports of FILE must be the same
compare() {
    name=$1; f=$2; shift 2
    "$CALLGRIND_ANNOTATE" "$@" "$f" 2>/dev/null | canon >"$tmp/want" || fail "$name $*: callgrind_annotate"
    "$CGANNOTATE" "$@" "$f" 2>"$tmp/err" | canon >"$tmp/got" || fail "$name $*: exit $?, $(cat "$tmp/err")"
    [ -s "$tmp/want" ] || fail "$name $*: callgrind_annotate printed nothing"
    if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
        head -n 40 "$tmp/diff"
        fail "$name $*: the reports differ"
    fi
    same=$((same + 1))
}
# every option set on FILE (the two events of --sort and --show: the
# file's first two, the other way round for --show)
compare_all() {
    events=$(sed -n 's/^events: *//p' "$2" | head -n 1)
    set -- "$1" "$2" $events
    e1=$3; e2=${4:-$3}
    compare "$1" "$2"
    compare "$1" "$2" --inclusive=yes
    compare "$1" "$2" --tree=caller
    compare "$1" "$2" --threshold=100
    compare "$1" "$2" --sort="$e1,$e2" --show="$e2,$e1"
}

# profiles of tests/subject made now, in a folder of their own (the
# report strips the current folder from file names)
made=0
if [ -n "${VALGRIND:-}" ] && [ -x "${CGW_BUILDDIR:-.}/tests/subject" ] &&
    "$VALGRIND" -q --tool=callgrind --callgrind-out-file="$tmp/probe.out" \
        "${CGW_BUILDDIR:-.}/tests/subject" >/dev/null 2>&1; then
    made=1
fi
if [ $made -eq 1 ]; then
    n=0
    for opts in "" "--dump-instr=yes" "--cache-sim=yes"; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        "$VALGRIND" --tool=callgrind $opts --callgrind-out-file="$tmp/real$n.out" \
            "${CGW_BUILDDIR:-.}/tests/subject" >/dev/null 2>&1 || fail "valgrind $opts"
        compare "callgrind $opts" "$tmp/real$n.out"
        compare "callgrind $opts" "$tmp/real$n.out" --inclusive=yes
        compare "callgrind $opts" "$tmp/real$n.out" --tree=caller
        compare "callgrind $opts" "$tmp/real$n.out" --tree=both --auto=no
        compare "callgrind $opts" "$tmp/real$n.out" --threshold=100
        compare "callgrind $opts" "$tmp/real$n.out" --context=2
    done
    compare "callgrind --cache-sim=yes" "$tmp/real3.out" --sort=D1mr,Ir --show=Ir,D1mr
    compare "callgrind --cache-sim=yes" "$tmp/real3.out" --sort=Dr:50,Ir:90
else
    echo "note: valgrind did not run tests/subject (none, or an ASan build's): no profile made now"
fi

# files of tests/data that callgrind_annotate reads right (the others
# have several parts, explicit zero costs or a dialect it misreads)
for f in rich-compact spec-compression spec-extended spec-simple spec-subposition \
    spec-subposition-absolute; do
    compare_all "$f" "$CGW_TEST_DATA/$f.out"
done
# --threshold=80 where big and mid reach exactly 80 of 100: both tools
# stop there (at or past the threshold), small is not shown
printf '%s\n' 'version: 1' 'creator: test' 'cmd: at' 'positions: line' 'events: Ir' \
    'summary: 100' 'fl=a.c' 'fn=big' '1 50' 'fn=mid' '2 30' 'fn=small' '3 20' 'totals: 100' >"$tmp/at.out"
compare "threshold reached exactly" "$tmp/at.out" --threshold=80 --auto=no
"$CGANNOTATE" --threshold=80 --auto=no "$tmp/at.out" >"$tmp/at.txt" || fail "--threshold=80: exit $?"
grep -q 'a\.c:mid$' "$tmp/at.txt" || fail "--threshold=80: mid (reaching 80%) is not shown"
! grep -q 'a\.c:small$' "$tmp/at.txt" || fail "--threshold=80: small is shown past the threshold"
echo "$same reports the same as callgrind_annotate's"

# the line of FILE's report (by TOOL) that ends with WHAT: its numbers
nums() {
    "$1" --auto=no "$2" 2>/dev/null | grep -e "$3\$" | sed 's/ ([ 0-9.]*%)//g; s/,//g' |
        awk '{ s = ""; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) s = s (s ? " " : "") $i; print s }'
}
# several parts: cgannotate sums every part's totals, callgrind_annotate
# shows the last part's (its functions are summed over all the parts)
printf '%s\n' 'version: 1' 'creator: test' 'pid: 7' 'cmd: parts' 'part: 1' 'positions: line' \
    'events: Ir Dr' 'summary: 10 1' 'fl=a.c' 'fn=main' '1 10 1' 'totals: 10 1' \
    'part: 2' 'positions: line' 'events: Ir Dr' 'summary: 20 2' 'fl=a.c' 'fn=main' '2 20 2' 'totals: 20 2' \
    'part: 3' 'positions: line' 'events: Ir Dr' 'summary: 30 3' 'fl=a.c' 'fn=main' '3 30 3' 'totals: 30 3' >"$tmp/parts.out"
[ "$(nums "$CGANNOTATE" "$tmp/parts.out" 'PROGRAM TOTALS')" = "60 6" ] ||
    fail "parts: totals $(nums "$CGANNOTATE" "$tmp/parts.out" 'PROGRAM TOTALS'), want 60 6"
[ "$(nums "$CALLGRIND_ANNOTATE" "$tmp/parts.out" 'PROGRAM TOTALS')" = "30 3" ] ||
    fail "parts: callgrind_annotate's totals are no longer the last part's"
[ "$(nums "$CGANNOTATE" "$tmp/parts.out" 'a.c:main')" = "60 6" ] || fail "parts: main"
"$CGANNOTATE" --auto=no "$tmp/parts.out" | grep -q '^60 (100.0%) 6 (100.0%)  a.c:main$' ||
    fail "parts: main is not 100% of the sums"
# calls=0 (a call still running at a dump): its inclusive cost is the
# callee's, not the caller's self cost as callgrind_annotate takes it
printf '%s\n' 'version: 1' 'creator: test' 'cmd: zero' 'positions: line' 'events: Ir' \
    'summary: 105' 'fl=a.c' 'fn=main' '1 5' 'cfn=worker' 'calls=0 1' '2 100' \
    'fn=worker' '1 100' 'totals: 105' >"$tmp/zero.out"
[ "$(nums "$CGANNOTATE" "$tmp/zero.out" 'a.c:main')" = "5" ] ||
    fail "calls=0: main $(nums "$CGANNOTATE" "$tmp/zero.out" 'a.c:main'), want 5"
[ "$(nums "$CALLGRIND_ANNOTATE" "$tmp/zero.out" 'a.c:main')" = "105" ] ||
    fail "calls=0: callgrind_annotate no longer adds the call to main's self cost"
[ "$(nums "$CGANNOTATE" "$tmp/zero.out" 'a.c:worker')" = "100" ] || fail "calls=0: worker"
"$CGANNOTATE" --inclusive=yes --auto=no "$tmp/zero.out" | grep -q '^105 (100.0%)  a.c:main$' ||
    fail "calls=0: main's inclusive cost is not 105"
"$CGANNOTATE" --tree=calling --auto=no "$tmp/zero.out" | grep -q '^100 (95.24%)  >   a.c:worker (0x)' ||
    fail "calls=0: the call is not in main's callees"

# --units=human: a time event (cgw.cprofile's ns) in ns, us, ms, s, as
# cgw_format_seconds() gives them; the default and Ir stay counts
printf '%s\n' 'version: 1' 'creator: test' 'positions: line' 'events: ns Ir' \
    'fl=a.c' 'fn=main' '1 105735525 7' '2 950 1' 'fn=idle' '3 2999950000 1' >"$tmp/ns.out"
"$CGANNOTATE" --units=human --auto=no "$tmp/ns.out" >"$tmp/ns.txt" || fail "--units=human: exit $?"
grep -q '^3.106 s (100.0%) 9 (100.0%)  PROGRAM TOTALS' "$tmp/ns.txt" ||
    fail "--units=human: totals $(grep TOTALS "$tmp/ns.txt")"
grep -q '^105.7 ms ( 3.40%) 8 (88.89%)  a.c:main$' "$tmp/ns.txt" ||
    fail "--units=human: main $(grep main "$tmp/ns.txt")"
grep -q '^ 3.000 s (96.60%) 1 (11.11%)  a.c:idle$' "$tmp/ns.txt" || fail "--units=human: idle $(grep idle "$tmp/ns.txt")"
"$CGANNOTATE" --auto=no "$tmp/ns.out" | grep -q '^3,105,686,475 (100.0%) 9 (100.0%)  PROGRAM TOTALS' ||
    fail "the default is not the exact counts"
[ "$("$CGANNOTATE" --units=exact --auto=no "$tmp/ns.out" | cksum)" = \
    "$("$CGANNOTATE" --auto=no "$tmp/ns.out" | cksum)" ] || fail "--units=exact is not the default"
exits 2 "bad --units" "bad --units" "$CGANNOTATE" --units=seconds "$tmp/ns.out"

# no input here and none named: usage error; a missing file: exit 2
exits 2 "missing file" "No such file" "$CGANNOTATE" "$tmp/none.out"
exits 1 "unknown event" "is not in the input" "$CGANNOTATE" --show=XX "$tmp/zero.out"
exit 0
