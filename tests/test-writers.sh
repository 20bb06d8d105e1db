#!/bin/sh
# SPDX-License-Identifier: MIT
# test-writers: the real writers of Callgrind files, run now on a small
# workload (tests/writers/subject.*, tests/pprof/subject.go: recursion, a
# callback, a few hundred calls, a second thread where the language has
# threads): valgrind's callgrind with several option sets and cachegrind,
# Xdebug, ruby-prof, yappi, cProfile through pyprof2calltree, and go tool
# pprof -callgrind.  On every file they write: cgverify exits 0 or 1
# and prints at most 6 lines (and at most 5 errors), and the reader
# reads it (tests/cgnorm); cgrecode, portable and compact,
# reads the same (and so does KCachegrind's loader, when there is one);
# cgmerge of it with itself is twice it; cgdiff of it with itself finds
# no change, and its -o output is valid; cgconvert --to pprof and back
# keeps every total, --to folded (once an event) and back each event's;
# its gzip reads the same.
# A writer that is missing is skipped with a line saying so; the test
# skips (77) when none is there.  A file with a failed check is copied to
# $CGW_WRITERS_KEEP when that names a folder.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
CGNORM=${CGNORM:-./tests/cgnorm}
CGCONVERT=${CGCONVERT:-./tools/cgconvert}
SRC=${CGW_SRCDIR:-.}
CGW_KCGDUMP_OPTIONAL="the recoded files are not read with it" . "$SRC/tests/kcgdump.sh"

# writer: why its files read otherwise in KCachegrind than in libcgw
# (tests/test-oracles.sh): the recode is then held to what libcgw reads
known_kcg() {
    case $1 in
    yappi*) echo "yappi defines every name first and writes the blocks after; KCachegrind puts every function in the file of the last fl= (dialect-yappi.out in tests/test-oracles.sh)" ;;
    esac
}

# writer: why a call in its files may cost more than the whole part
# (call-above-total), which no other writer's file may
known_above() {
    case $1 in
    ruby-prof*) echo "ruby-prof's calls count the time a thread waits (Thread#value) that no cost line has: Thread::value self 88, its call 562 in one run" ;;
    esac
}

failed=0 files=0 writers=0
# bad MESSAGE: a check of the file being checked failed
bad() {
    echo "FAIL: $what: $*"
    failed=$((failed + 1))
    if [ -n "${CGW_WRITERS_KEEP:-}" ] && [ -d "$CGW_WRITERS_KEEP" ]; then
        cp "$file" "$CGW_WRITERS_KEEP/$(echo "$what" | tr -c 'A-Za-z0-9_.=-' _)"
    fi
}
# run CHECK CMD...: CMD's exit in $rc, its stderr in $tmp/err; an exit
# over 2 (a crash, a signal) is a failure of CHECK
run() {
    check=$1; shift
    "$@" 2>"$tmp/err"; rc=$?
    [ $rc -le 2 ] && return 0
    bad "$check: exit $rc (crashed): $(head -c 300 "$tmp/err")"
    return 1
}
# norm FILE OUT [original]: what libcgw reads from FILE, or 1; the
# reader's error allowed only in an original that cgverify found errors in
norm() {
    "$CGNORM" "$1" >"$2" 2>/dev/null; nrc=$?
    { [ $nrc -eq 0 ] || { [ $nrc -eq 1 ] && [ -n "${3:-}" ] && [ -n "$force" ]; }; } &&
        grep -q '^T	' "$2"
}
# kcg FILE OUT: what KCachegrind's loader reads from FILE, alone in a
# folder (it loads every file whose name starts with FILE's as a part)
kcg() {
    rm -rf "$tmp/kcg" && mkdir "$tmp/kcg" && cp "$1" "$tmp/kcg/profile" &&
        KCGNORM=1 "$kcgdump" "$tmp/kcg/profile" 2>/dev/null | grep '^[TFC]	' >"$2"
}
first() { sed -n 's/^T	\([^,]*\).*/\1/p' "$1"; }

# check WHAT FILE: every check on FILE, which WHAT (writer and options) wrote
check() {
    what=$1 file=$2 c=$tmp/c
    files=$((files + 1))
    rm -rf "$c" && mkdir "$c" || exit 99
    run cgverify "$CGVERIFY" -q "$file" >"$c/verify" || return
    [ $rc -le 1 ] || { bad "cgverify: exit $rc: $(head -c 300 "$tmp/err")"; return; }
    # a file with errors (a writer's defect) is read with the errors
    # repaired; the tools then want --force
    force=""
    [ $rc -eq 1 ] && force=--force &&
        echo "$what: invalid ($(sed -n 's/.* error: .*\[\([a-z-]*\)\]$/\1/p' "$c/verify" |
            sort | uniq -c | awk '{ printf "%s%s x%d", s, $2, $1; s = ", " }')), checked with --force"
    norm "$file" "$c/orig" original || { bad "cgnorm: the reader does not read it (exit $nrc)"; return; }
    # a call costs at most the whole part: a real writer's file gives no
    # call-above-total, even where Callgrind's calls on a cycle carry more
    if "$CGVERIFY" --all "$file" 2>&1 | grep '\[call-above-total\]' >"$c/above"; then
        why=$(known_above "$what")
        if [ -n "$why" ]; then
            echo "$what: known: call-above-total: $why"
        else
            bad "cgverify: $(head -n 2 "$c/above")"
        fi
    fi

    # by default cgverify says a real writer's file in at most 6 lines
    # (issue 51, item 4): a writer's defect the first error of each kind,
    # a line a reader that misreads a warning, one counting the warnings
    # every reader takes, the summary; --all lists every diagnostic
    "$CGVERIFY" "$file" >"$c/default" 2>&1
    "$CGVERIFY" --all "$file" >"$c/all" 2>&1
    lines=$(wc -l <"$c/default") all=$(wc -l <"$c/all")
    echo "$what: cgverify prints $lines lines ($all with --all)"
    [ "$lines" -le 6 ] || bad "cgverify prints $lines lines, more than 6: $(head -c 900 "$c/default")"
    [ "$lines" -le "$all" ] || bad "cgverify prints $lines lines, --all $all"

    why=$(known_kcg "$what")
    if [ -n "$kcgdump" ]; then
        kcg "$file" "$c/kcg" || bad "kcgdump does not read it"
        [ -n "$why" ] && cmp -s "$c/kcg" "$c/orig" &&
            bad "listed as read otherwise by KCachegrind, but reads the same"
    fi
    for mode in "" --compact; do
        m="cgrecode${mode:+ $mode}"
        run "$m" "$CGRECODE" $mode "$file" -o "$c/re" || continue
        [ $rc -eq 0 ] || { bad "$m: exit $rc: $(head -c 300 "$tmp/err")"; continue; }
        norm "$c/re" "$c/got" || { bad "$m: the reader does not read the output"; continue; }
        cmp -s "$c/orig" "$c/got" ||
            bad "$m changed what libcgw reads (< original, > recoded): $(diff "$c/orig" "$c/got" | head -8)"
        [ -n "$kcgdump" ] && [ -s "$c/kcg" ] || continue
        kcg "$c/re" "$c/kcgre" || { bad "$m: kcgdump does not read the output"; continue; }
        if [ -n "$why" ]; then
            cmp -s "$c/orig" "$c/kcgre" ||
                bad "$m: KCachegrind reads the output otherwise than libcgw the original: $(diff "$c/orig" "$c/kcgre" | head -8)"
        else
            cmp -s "$c/kcg" "$c/kcgre" ||
                bad "$m: KCachegrind reads the output otherwise than the original (< original, > recoded): $(diff "$c/kcg" "$c/kcgre" | head -8)"
        fi
    done
    [ -n "$kcgdump" ] && [ -n "$why" ] && echo "$what: known: $why"

    run cgmerge "$CGMERGE" $force "$file" "$file" -o "$c/merged" &&
        if [ $rc -ne 0 ]; then
            bad "cgmerge with itself: exit $rc: $(head -c 300 "$tmp/err")"
        elif ! norm "$c/merged" "$c/got"; then
            bad "cgmerge with itself: the reader does not read the output"
        else
            twice "$c/orig" >"$c/want2"
            LC_ALL=C sort "$c/got" | cmp -s - "$c/want2" ||
                bad "cgmerge with itself is not twice it: $(LC_ALL=C sort "$c/got" | diff "$c/want2" - | head -8)"
        fi
    run cgdiff "$CGDIFF" $force --fail-above 0 "$file" "$file" >"$c/diff" &&
        [ $rc -ne 0 ] && bad "cgdiff with itself: exit $rc: $(head -c 300 "$c/diff" "$tmp/err")"
    run "cgdiff -o" "$CGDIFF" $force "$file" "$file" -o "$c/d" >/dev/null &&
        if [ $rc -ne 0 ]; then
            bad "cgdiff -o with itself: exit $rc: $(head -c 300 "$tmp/err")"
        else
            "$CGVERIFY" -q "$c/d" >/dev/null 2>"$tmp/err" ||
                bad "cgdiff -o with itself wrote an invalid profile: $(head -c 300 "$tmp/err")"
        fi

    total=$(first "$c/orig")
    for to in folded pprof; do
        run "cgconvert --to $to" "$CGCONVERT" --to $to $force "$file" -o "$c/x.$to" || continue
        if [ $rc -ne 0 ]; then
            [ -s "$tmp/err" ] || { bad "cgconvert --to $to: exit $rc and no message"; continue; }
            echo "$what: cgconvert --to $to refuses it: $(head -n 1 "$tmp/err")"
            continue
        fi
        run "cgconvert --from $to" "$CGCONVERT" --from $to "$c/x.$to" -o "$c/back" || continue
        if [ $rc -ne 0 ]; then
            if grep -q 'without protobuf-c' "$tmp/err"; then
                echo "$what: built without protobuf-c: no pprof"
            else
                bad "cgconvert --from $to of its --to $to output: exit $rc: $(head -c 300 "$tmp/err")"
            fi
            continue
        fi
        norm "$c/back" "$c/got" || { bad "cgconvert --to $to and back: the reader does not read it"; continue; }
        if [ $to = pprof ]; then # every event a sample type: every total kept
            [ "$(grep '^T	' "$c/got")" = "$(grep '^T	' "$c/orig")" ] ||
                bad "cgconvert --to pprof and back: totals $(grep '^T	' "$c/got"), the original's $(grep '^T	' "$c/orig")"
        else
            [ "$(first "$c/got")" = "$total" ] ||
                bad "cgconvert --to $to and back: total $(first "$c/got"), the original's first event $total"
        fi
    done
    # folded stacks hold one event: every other event there and back too
    k=1
    for ev in $(sed -n '/^events: */{s///p;q;}' "$file" | tr -d '\r'); do
        k=$((k + 1))
        [ $k -gt 2 ] || continue
        want=$(sed -n 's/^T	//p' "$c/orig" | cut -d, -f$((k - 1)))
        "$CGCONVERT" --to folded --event "$ev" $force "$file" -o "$c/x.ev" 2>"$tmp/err" &&
            "$CGCONVERT" --from folded "$c/x.ev" -o "$c/back" 2>>"$tmp/err" &&
            norm "$c/back" "$c/got" ||
            { bad "cgconvert --to folded --event $ev and back: $(head -c 300 "$tmp/err")"; continue; }
        [ "$(first "$c/got")" = "$want" ] ||
            bad "cgconvert --to folded --event $ev and back: total $(first "$c/got"), the original's $want"
    done

    if [ "${CGW_HAVE_ZLIB:-yes}" = yes ]; then
        gzip -c "$file" >"$c/gz" || exit 99
        norm "$c/gz" "$c/got" original || { bad "gzip: the reader does not read the gzip of it"; return; }
        cmp -s "$c/orig" "$c/got" || bad "gzip: the reader reads its gzip otherwise: $(diff "$c/orig" "$c/got" | head -8)"
    fi
    echo "$what: $(grep -c '^F' "$c/orig") functions, $(grep -c '^C' "$c/orig") calls, total $total: checked"
}

# missing WRITER WHY: the writer is not here
missing() { echo "$1: skipped: $2"; }
w=$tmp/w
mkdir "$w" || exit 99

# Valgrind: callgrind with each option set, cachegrind
VALGRIND=${VALGRIND:-$(command -v valgrind)}
if [ -z "$VALGRIND" ]; then
    missing valgrind "no valgrind"
else
    writers=$((writers + 1))
    subject=$w/subject-c
    if ! ${CC:-cc} -g -O0 -pthread -o "$subject" "$SRC/tests/writers/subject.c" 2>"$tmp/err"; then
        echo "valgrind: no C compiler (${CC:-cc}): tests/subject instead (no callback)"
        subject=${CGW_BUILDDIR:-.}/tests/subject
    fi
    # callgrind's own calls above the total: even'2 -> odd'2, on a cycle
    # (each calls= followed by its cost line, Ir second; then totals:)
    above() {
        awk '/^calls=/ { c = 1; next } c { if ($2 + 0 > max) max = $2 + 0; c = 0 }
            /^totals:/ { t = $2 } END { exit !(max > t) }' "$1"
    }
    n=0
    for opts in "" "--dump-instr=yes --collect-jumps=yes" "--dump-line=no --dump-instr=yes" \
        "--cache-sim=yes --branch-sim=yes" "--separate-threads=yes" \
        "--combine-dumps=yes --dump-every-bb=10000" "--compress-strings=no --compress-pos=no"; do
        n=$((n + 1))
        "$VALGRIND" -q --tool=callgrind $opts --callgrind-out-file="$w/callgrind-$n.out" \
            "$subject" >/dev/null 2>"$tmp/err" || fail "valgrind --tool=callgrind $opts: $(cat "$tmp/err")"
        for f in "$w/callgrind-$n.out"*; do
            [ -f "$f" ] || fail "valgrind --tool=callgrind $opts wrote no file"
            # --separate-threads=yes leaves the file named by
            # --callgrind-out-file empty beside one file a thread
            [ -s "$f" ] || [ "$f" != "$w/callgrind-$n.out" ] || continue
            thread=${f#"$w/callgrind-$n.out"}
            check "callgrind ${opts:-(defaults)}${thread:+, file $thread}" "$f"
            [ $n -ne 1 ] || [ "$subject" != "$w/subject-c" ] || above "$f" ||
                bad "no call above the total: no call on a cycle checked against it"
        done
    done
    for opts in "" "--cache-sim=yes --branch-sim=yes"; do
        n=$((n + 1))
        "$VALGRIND" -q --tool=cachegrind $opts --cachegrind-out-file="$w/cachegrind-$n.out" \
            "$subject" >/dev/null 2>"$tmp/err" || fail "valgrind --tool=cachegrind $opts: $(cat "$tmp/err")"
        check "cachegrind ${opts:-(defaults)}" "$w/cachegrind-$n.out"
    done
fi

# Xdebug 3: PHP's profiler, once, and twice into one file
# (xdebug.profiler_append=1: two profiles, each after a "==== NEW
# PROFILING FILE" line)
if ! command -v php >/dev/null 2>&1; then
    missing Xdebug "no php (php-cli)"
elif ! php -m 2>/dev/null | grep -qx Xdebug; then
    missing Xdebug "php has no Xdebug (php-xdebug)"
else
    writers=$((writers + 1))
    cp "$SRC/tests/writers/subject.php" "$w/subject.php"
    # XDEBUG_MODE and XDEBUG_CONFIG of the environment would win over -d
    for runs in 1 2; do
        for i in $(seq $runs); do
            XDEBUG_MODE=profile XDEBUG_CONFIG= php -d xdebug.mode=profile -d xdebug.start_with_request=yes -d xdebug.profiler_append=1 \
                -d xdebug.output_dir="$w" -d xdebug.profiler_output_name="xdebug-$runs.out" \
                "$w/subject.php" >/dev/null 2>"$tmp/err" || fail "php with Xdebug: $(cat "$tmp/err")"
        done
        [ -s "$w/xdebug-$runs.out" ] || fail "Xdebug wrote no xdebug-$runs.out"
        check "Xdebug profiler_append=1, $runs run(s)" "$w/xdebug-$runs.out"
    done
fi

# ruby-prof's CallTreePrinter: a file a thread, in a folder
if ! command -v ruby-prof >/dev/null 2>&1; then
    missing ruby-prof "no ruby-prof"
else
    writers=$((writers + 1))
    mkdir "$w/ruby-prof"
    cp "$SRC/tests/writers/subject.rb" "$w/subject.rb"
    ruby-prof -p call_tree -f "$w/ruby-prof" "$w/subject.rb" >/dev/null 2>"$tmp/err" ||
        fail "ruby-prof: $(cat "$tmp/err")"
    n=0
    for f in "$w/ruby-prof"/*; do
        [ -f "$f" ] || fail "ruby-prof wrote no file"
        n=$((n + 1))
        check "ruby-prof call_tree, file $n ($(basename "$f"))" "$f"
    done
    [ $n -ge 2 ] || echo "ruby-prof: one file, no second thread's"
fi

# Debian's python3 (where the python packages are), not another first
# on PATH
python=/usr/bin/python3
[ -x "$python" ] || python=python3
cp "$SRC/tests/writers/subject.py" "$w/subject.py"
if ! "$python" -c 'import yappi' 2>/dev/null; then
    missing yappi "no yappi for $python (python3-yappi)"
else
    writers=$((writers + 1))
    "$python" "$w/subject.py" "$w/yappi.out" >/dev/null 2>"$tmp/err" || fail "yappi: $(cat "$tmp/err")"
    check "yappi" "$w/yappi.out"
    "$python" "$w/subject.py" "$w/yappi-builtins.out" builtins >/dev/null 2>"$tmp/err" ||
        fail "yappi builtins=True: $(cat "$tmp/err")"
    check "yappi builtins=True" "$w/yappi-builtins.out"
fi
if ! command -v pyprof2calltree >/dev/null 2>&1; then
    missing pyprof2calltree "no pyprof2calltree"
else
    writers=$((writers + 1))
    "$python" -m cProfile -o "$w/subject.pstats" "$w/subject.py" >/dev/null 2>"$tmp/err" ||
        fail "cProfile: $(cat "$tmp/err")"
    pyprof2calltree -i "$w/subject.pstats" -o "$w/pyprof2calltree.out" >/dev/null 2>"$tmp/err" ||
        fail "pyprof2calltree: $(cat "$tmp/err")"
    check "pyprof2calltree (cProfile)" "$w/pyprof2calltree.out"
fi

# go tool pprof -callgrind on Go's own CPU and heap profiles
if ! command -v go >/dev/null 2>&1; then
    missing "go tool pprof" "no go (golang-go)"
else
    writers=$((writers + 1))
    # Go's build cache and paths in the test's folder: no network, no $HOME
    export GOCACHE="$tmp/gocache" GOPATH="$tmp/gopath" GO111MODULE=off GOFLAGS= GOTOOLCHAIN=local
    mkdir "$w/go" && cp "$SRC/tests/pprof/subject.go" "$w/go/main.go"
    (cd "$w/go" && go build -o subject main.go) 2>"$tmp/err" || fail "go build: $(cat "$tmp/err")"
    "$w/go/subject" "$w/go/cpu.pb.gz" "$w/go/heap.pb.gz" || fail "the Go subject failed"
    for p in cpu heap; do
        go tool pprof -callgrind -output="$w/pprof-$p.out" "$w/go/subject" "$w/go/$p.pb.gz" \
            >/dev/null 2>"$tmp/err" || fail "go tool pprof -callgrind ($p): $(cat "$tmp/err")"
        check "go tool pprof -callgrind, $p profile" "$w/pprof-$p.out"
    done
fi

[ $writers -gt 0 ] || { echo "no writer of Callgrind files here: skipped"; exit 77; }
echo "$writers writers, $files files, $failed failed checks"
[ $failed -eq 0 ]
