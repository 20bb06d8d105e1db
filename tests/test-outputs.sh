#!/bin/sh
# SPDX-License-Identifier: MIT
# test-outputs: every writing tool (cggen, cgrecode, cgmerge, cgdiff -o,
# cgconvert to and from folded stacks, libcgwprof through CGWPROF_OUT)
# against every kind of output path: a symlink, a device, a FIFO with a
# reader, an existing 0640 file, a 250-byte name, "-", a full file
# system, a read-only folder, and a kill in the middle of the write.
# Each case checks what is at the path afterwards and that no temporary
# file is left beside it.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
CGCONVERT=${CGCONVERT:-./tools/cgconvert}
SUBJECT=${CGW_PROF_SUBJECT:-./tests/prof-subject}
cases=0
exec=""
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
CGGEN=$(abs "$CGGEN") CGRECODE=$(abs "$CGRECODE") CGMERGE=$(abs "$CGMERGE")
CGDIFF=$(abs "$CGDIFF") CGCONVERT=$(abs "$CGCONVERT") SUBJECT=$(abs "$SUBJECT")
CGVERIFY=$(abs "$CGVERIFY")

# The inputs: a small profile, its folded stacks, and a large profile for
# the cases that need the write to take a while or to fill a disk.
$CGGEN --seed 7 --size 20K -o "$tmp/in.out" || fail "cggen in.out"
$CGCONVERT --to folded "$tmp/in.out" -o "$tmp/in.folded" || fail "cgconvert in.folded"
$CGGEN --seed 8 --size 4M -o "$tmp/big.out" || fail "cggen big.out"

tools="cggen cgrecode cgmerge cgdiff to-folded from-folded libcgwprof"

# run_tool TOOL OUT [BIG]: TOOL writes its output to OUT (from the large
# input when BIG is given); its exit status.  With $exec set to exec (in
# a subshell), the tools but libcgwprof's subject replace the shell.
run_tool() {
    in=$tmp/in.out
    [ $# -gt 2 ] && in=$tmp/big.out
    case $1 in
    cggen) if [ $# -gt 2 ]; then $exec $CGGEN --seed 8 --size 4M -o "$2"; else $exec $CGGEN --seed 7 --size 20K -o "$2"; fi ;;
    cgrecode) $exec $CGRECODE "$in" -o "$2" ;;
    cgmerge) $exec $CGMERGE "$in" "$in" -o "$2" ;;
    cgdiff) # the report goes to stderr when the profile goes to stdout
        if [ "$2" = - ]; then $exec $CGDIFF -o - "$in" "$in" 2>"$tmp/report"
        else $exec $CGDIFF -o "$2" "$in" "$in" >"$tmp/report"; fi ;;
    to-folded) $exec $CGCONVERT --to folded "$in" -o "$2" ;;
    from-folded) $CGCONVERT --from folded "$tmp/in.folded" -o "$2" ;;
    libcgwprof) # the program's own output goes where the profile goes for "-"
        if [ "$2" = - ]; then CGWPROF_OUT=- "$SUBJECT" graph
        else CGWPROF_OUT=$2 "$SUBJECT" graph >/dev/null; fi ;;
    esac
}

# looks_written TOOL FILE: FILE holds TOOL's whole output.
looks_written() {
    case $1 in
    to-folded) grep -q ' [0-9][0-9]*$' "$2" ;;
    *) head -n 1 "$2" | grep -q '^# callgrind format' && grep -q '^totals: ' "$2" ;;
    esac
}

# no_temp DIR: no temporary file of the path sink is left in DIR.
no_temp() {
    set -- "$1"/.cgw-* "$1"/*.cgwprof-signal-*
    for f; do [ -e "$f" ] && fail "temporary file left: $f"; done
    return 0
}

fresh() { rm -rf "$tmp/d"; mkdir "$tmp/d"; }

# refused TOOL OUT CASE WHY: TOOL fails to write OUT and says WHY (a
# regular expression) on stderr; a tool exits 2, a program that
# libcgwprof profiles keeps its own exit status.
refused() {
    run_tool $1 "$2" 2>"$tmp/err"
    rc=$?
    if [ $1 = libcgwprof ]; then
        grep -q "^libcgwprof: .*$4" "$tmp/err" || fail "$1 $3: $(cat "$tmp/err")"
    else
        [ $rc -eq 2 ] || fail "$1 $3: exit $rc"
        grep -q "$4" "$tmp/err" || fail "$1 $3: $(cat "$tmp/err")"
    fi
}

for t in $tools; do
    # a symlink: followed, the file it names replaced, the link kept
    fresh
    echo old >"$tmp/d/real"
    ln -s real "$tmp/d/link"
    run_tool $t "$tmp/d/link" || fail "$t symlink: exit $?"
    [ -L "$tmp/d/link" ] || fail "$t symlink: the link was replaced"
    looks_written $t "$tmp/d/real" || fail "$t symlink: the linked file not written"
    no_temp "$tmp/d"

    # a device: written through, still the device
    run_tool $t /dev/null || fail "$t /dev/null: exit $?"
    [ -c /dev/null ] || fail "$t replaced /dev/null"
    refused $t /dev/full /dev/full 'No space left'


    # a FIFO with a reader: the reader gets the output, the FIFO stays
    fresh
    mkfifo "$tmp/d/fifo"
    cat "$tmp/d/fifo" >"$tmp/d/got" &
    reader=$!
    run_tool $t "$tmp/d/fifo" || fail "$t FIFO: exit $?"
    wait $reader
    [ -p "$tmp/d/fifo" ] || fail "$t FIFO: replaced by a file"
    looks_written $t "$tmp/d/got" || fail "$t FIFO: the reader got $(wc -c <"$tmp/d/got") bytes"
    no_temp "$tmp/d"

    # an existing 0640 file keeps its mode; a new one gets 0666 & ~umask
    fresh
    echo old >"$tmp/d/kept"
    chmod 0640 "$tmp/d/kept"
    run_tool $t "$tmp/d/kept" || fail "$t 0640: exit $?"
    [ "$(stat -c %a "$tmp/d/kept")" = 640 ] || fail "$t 0640: mode $(stat -c %a "$tmp/d/kept")"
    (umask 022 && run_tool $t "$tmp/d/new") || fail "$t new: exit $?"
    [ "$(stat -c %a "$tmp/d/new")" = 644 ] || fail "$t new file: mode $(stat -c %a "$tmp/d/new")"
    looks_written $t "$tmp/d/kept" || fail "$t 0640: not written"

    # a legal 250-byte name
    long=$(printf '%0250d' 0 | tr 0 n)
    run_tool $t "$tmp/d/$long" || fail "$t 250-byte name: exit $?"
    looks_written $t "$tmp/d/$long" || fail "$t 250-byte name: not written"
    no_temp "$tmp/d"
    cases=$((cases + 6))
done

# "-": standard output, no file named "-" (libcgwprof's standard output
# is the program's own: the profile comes after what the program wrote)
for t in cggen cgrecode cgmerge cgdiff to-folded from-folded libcgwprof; do
    fresh
    (cd "$tmp/d" && run_tool $t - >"$tmp/stdout") || fail "$t -o -: exit $?"
    [ -e "$tmp/d/-" ] && fail "$t -o -: wrote a file named -"
    if [ $t = libcgwprof ]; then
        sed -n '/^# callgrind format/,$p' "$tmp/stdout" >"$tmp/profile"
        looks_written $t "$tmp/profile" || fail "$t CGWPROF_OUT=-: no profile on stdout"
        "$CGVERIFY" -q "$tmp/profile" || fail "$t CGWPROF_OUT=-: not a valid profile"
    elif [ $t = cgdiff ]; then
        grep -q '^# callgrind format' "$tmp/stdout" || fail "$t -o -: no profile on stdout"
        grep -q '^Ir: ' "$tmp/report" || fail "$t -o -: no report on stderr"
    else
        looks_written $t "$tmp/stdout" || fail "$t -o -: nothing on stdout"
    fi
    cases=$((cases + 1))
done

# libcgwprof's profile on a fatal signal goes to standard output too
CGWPROF_OUT=- "$SUBJECT" signal term >"$tmp/stdout" 2>/dev/null
sed -n '/^# callgrind format/,$p' "$tmp/stdout" >"$tmp/profile"
looks_written libcgwprof "$tmp/profile" || fail "libcgwprof CGWPROF_OUT=- on SIGTERM: no profile"
"$CGVERIFY" -q "$tmp/profile" || fail "libcgwprof CGWPROF_OUT=- on SIGTERM: not a valid profile"
cases=$((cases + 1))

# a full file system and a read-only folder: the old file stays, no
# temporary file, exit 2 (root mounts small tmpfs file systems for both;
# otherwise a read-only folder is a folder without write permission)
mounted=""
if [ "$(id -u)" = 0 ] && mkdir "$tmp/full" "$tmp/ro" &&
    mount -t tmpfs -o size=256k tmpfs "$tmp/full" 2>/dev/null; then
    mounted="$tmp/full"
    if mount -t tmpfs -o size=64k tmpfs "$tmp/ro" 2>/dev/null; then
        mounted="$mounted $tmp/ro"
    fi
    trap 'for m in $mounted; do umount "$m"; done; rm -rf "$tmp"' EXIT
fi
if [ -n "$mounted" ]; then
    echo old >"$tmp/full/p"
    dd if=/dev/zero of="$tmp/full/filler" bs=4096 2>/dev/null
    for t in $tools; do
        refused $t "$tmp/full/p" "full file system" 'No space left'
        [ "$(cat "$tmp/full/p")" = old ] || fail "$t full: the old file changed"
        no_temp "$tmp/full"
        cases=$((cases + 1))
    done
    echo old >"$tmp/ro/p"
    mount -o remount,ro "$tmp/ro" || fail "remount read-only"
    rodir=$tmp/ro
else
    echo "full file system: skipped (it takes root and a tmpfs mount)"
    mkdir -p "$tmp/ro" && echo old >"$tmp/ro/p" && chmod 0555 "$tmp/ro"
    rodir=$tmp/ro
fi
if [ "$(id -u)" != 0 ] || [ -n "$mounted" ]; then
    for t in $tools; do
        refused $t "$rodir/p" "read-only folder" 'Read-only file system\|Permission denied'
        [ "$(cat "$rodir/p")" = old ] || fail "$t read-only folder: the old file changed"
        no_temp "$rodir"
        cases=$((cases + 1))
    done
else
    echo "read-only folder: skipped (root without a tmpfs mount writes any folder)"
fi

# killed in the middle: SIGKILL (nothing can clean up: with O_TMPFILE
# nothing is left), SIGTERM, SIGINT and SIGHUP (the tools remove a named
# temporary file); the target is the old file or the whole new one
for t in cggen cgrecode cgmerge cgdiff to-folded; do
    for sig in KILL TERM INT HUP; do
        fresh
        echo old >"$tmp/d/p"
        # the tool in place of the background shell (the libtool
        # wrapper execs it too), so that the wait below lasts until the
        # tool has cleaned up and ended, not only until its shell has
        (exec=exec; run_tool $t "$tmp/d/p" big 2>/dev/null) &
        pid=$!
        sleep 0.05
        kill -$sig $pid 2>/dev/null
        wait $pid
        no_temp "$tmp/d"
        [ "$(cat "$tmp/d/p")" = old ] || looks_written $t "$tmp/d/p" ||
            fail "$t killed by SIG$sig: the file is neither the old nor a whole new one"
        cases=$((cases + 1))
    done
done
echo "$cases cases: symlink, device, FIFO, 0640, 250-byte name, -, full, read-only, killed"
