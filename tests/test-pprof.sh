#!/bin/sh
# SPDX-License-Identifier: MIT
# test-pprof: pprof profiles made now by a real pprof writer (Go's
# runtime/pprof, tests/pprof/subject.go) converted to Callgrind: every
# sample type an event, totals equal to the sums of the samples as Go's
# own pprof tool reads them, every output strictly valid, read back by
# libcgw's reader and callgrind_annotate (when present) with the same
# totals.  Skips (77) without go, or with a libcgw built without
# protobuf-c.  And back (--to pprof), read by go tool pprof.
set -u
CGCONVERT=${CGCONVERT:-./tools/cgconvert}
CGVERIFY=${CGVERIFY:-./tools/cgverify}
SRC=${CGW_SRCDIR:-.}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
totals() { "$CGVERIFY" --json "$1" | sed 's/.*"totals":\[\([0-9,]*\)\].*/\1/'; }

command -v go >/dev/null 2>&1 || { echo "no go (golang-go): skipped"; exit 77; }
printf '\n' >"$tmp/empty.pb"
if ! "$CGCONVERT" --from pprof "$tmp/empty.pb" -o "$tmp/x" 2>"$tmp/err"; then
    grep -q 'without protobuf-c' "$tmp/err" && { echo "built without protobuf-c: skipped"; exit 77; }
fi

# Go's build cache and paths in the test's folder: no network, no $HOME
export GOCACHE="$tmp/gocache" GOPATH="$tmp/gopath" GO111MODULE=off GOFLAGS= GOTOOLCHAIN=local
cp "$SRC/tests/pprof/subject.go" "$tmp/main.go"
(cd "$tmp" && go build -o subject main.go) || fail "go build failed"
"$tmp/subject" "$tmp/cpu.pb.gz" "$tmp/heap.pb.gz" || fail "the Go subject failed"

for p in cpu heap; do
    "$CGCONVERT" --from pprof "$tmp/$p.pb.gz" -o "$tmp/$p.out" || fail "$p: exit $?"
    "$CGVERIFY" --strict -q "$tmp/$p.out" || fail "$p: the profile is not strictly valid"
    # go tool pprof -raw: "Samples:", the sample types, then "V1 V2 ...: LOCATIONS"
    want=$(go tool pprof -raw "$tmp/$p.pb.gz" 2>/dev/null | awk '
        /^Samples:/ { on = 1; next }
        /^Locations/ { on = 0 }
        on && /^ *[0-9]+( +[0-9]+)*:/ {
            sub(/:.*/, ""); for (i = 1; i <= NF; i++) s[i] += $i; n = NF }
        END { for (i = 1; i <= n; i++) printf "%s%.0f", (i > 1 ? "," : ""), s[i]; print "" }')
    [ -n "$want" ] || fail "$p: go tool pprof -raw gave no samples"
    got=$(totals "$tmp/$p.out")
    [ "$got" = "$want" ] || fail "$p: totals $got, go tool pprof says $want"
    if [ -n "${CALLGRIND_ANNOTATE:-}" ]; then
        first=${want%%,*}
        "$CALLGRIND_ANNOTATE" "$tmp/$p.out" >"$tmp/ann" 2>&1 || fail "$p: callgrind_annotate failed"
        ann=$(sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$tmp/ann" | tr -d ,)
        [ "$ann" = "$first" ] || fail "$p: callgrind_annotate's first total $ann, want $first"
    fi
    echo "$p: $(sed -n 's/^events: //p' "$tmp/$p.out"): $got"
done
grep -q '^events: samples cpu_nanoseconds$' "$tmp/cpu.out" || fail "the CPU profile's events"
grep -q '^events: alloc_objects alloc_space_bytes inuse_objects inuse_space_bytes$' \
    "$tmp/heap.out" || fail "the heap profile's events"
grep -q 'fn=.* main\.recurse$' "$tmp/cpu.out" || fail "main.recurse is not in the CPU profile"
grep -q '^calls=0' "$tmp/cpu.out" "$tmp/heap.out" && fail "calls=0 written"

# recursion kept: the edge main.recurse -> main.recurse carries the
# samples of the stacks that pass through it, each stack once, as go tool
# pprof -raw lists them (locations leaf first, inlined frames in a
# location's later lines)
want=$(go tool pprof -raw "$tmp/cpu.pb.gz" 2>/dev/null | awk '
    /^Samples:/ { mode = 1; next }
    /^Locations/ { mode = 2; next }
    /^Mappings/ { mode = 3; next }
    mode == 1 && /^ *[0-9]+( +[0-9]+)*:/ {
        n++; split($0, p, ":"); split(p[1], v, " "); val[n] = v[1]; locs[n] = p[2]; next }
    mode == 2 && /^ *[0-9]+: / { cur = $1; sub(":", "", cur); fns[cur] = $4; next }
    mode == 2 && NF > 0 { fns[cur] = fns[cur] " " $1 }
    END { for (i = 1; i <= n; i++) {
              m = split(locs[i], L, " "); st = ""
              for (j = 1; j <= m; j++) st = st " " fns[L[j]]
              k = split(st, F, " "); hit = 0
              for (j = 1; j < k; j++) if (F[j] == "main.recurse" && F[j + 1] == "main.recurse") hit = 1
              if (hit) s += val[i] }
          printf "%.0f\n", s }')
got=$("${CGNORM:-./tests/cgnorm}" "$tmp/cpu.out" |
    awk -F'\t' '$1 == "C" && $4 == "main.recurse" && $8 == "main.recurse" { split($NF, c, ","); s += c[1] }
        END { printf "%.0f\n", s }')
[ "$want" -gt 0 ] || fail "no stack of the Go subject passes main.recurse -> main.recurse"
[ "$got" = "$want" ] || fail "main.recurse -> main.recurse carries $got samples, go tool pprof's stacks $want"
echo "recursion: main.recurse -> main.recurse carries the $got samples of the stacks through it"

# and back: --to pprof (every event, or the one asked for), read by go
# tool pprof and by cgconvert again with the same totals
raw_totals() {
    go tool pprof -raw "$1" 2>/dev/null | awk '
        /^Samples:/ { on = 1; next }
        /^Locations/ { on = 0 }
        on && /^ *[0-9]+( +[0-9]+)*:/ {
            sub(/:.*/, ""); for (i = 1; i <= NF; i++) s[i] += $i; n = NF }
        END { for (i = 1; i <= n; i++) printf "%s%.0f", (i > 1 ? "," : ""), s[i]; print "" }'
}
for ev in "" cpu_nanoseconds; do
    "$CGCONVERT" --to pprof ${ev:+--event $ev} "$tmp/cpu.out" -o "$tmp/back.pb.gz" ||
        fail "to pprof $ev: exit $?"
    want=$(totals "$tmp/cpu.out")
    [ -n "$ev" ] && want=${want#*,}
    got=$(raw_totals "$tmp/back.pb.gz")
    [ "$got" = "$want" ] || fail "to pprof $ev: go tool pprof reads $got, want $want"
    "$CGCONVERT" --from pprof "$tmp/back.pb.gz" -o "$tmp/back.out" || fail "back: exit $?"
    "$CGVERIFY" --strict -q "$tmp/back.out" || fail "back: not strictly valid"
    [ "$(totals "$tmp/back.out")" = "$want" ] || fail "back: totals $(totals "$tmp/back.out")"
done
echo "to pprof and back: the totals kept"

# both at once add up; stdin; a gzip stream cut short is an error
"$CGCONVERT" --from pprof "$tmp/cpu.pb.gz" - <"$tmp/cpu.pb.gz" -o "$tmp/twice.out" ||
    fail "two inputs: exit $?"
c=$(totals "$tmp/cpu.out")
[ "$(totals "$tmp/twice.out")" = "$((${c%,*} * 2)),$((${c#*,} * 2))" ] || fail "two inputs do not add up"
head -c 100 "$tmp/cpu.pb.gz" >"$tmp/cut.pb.gz"
"$CGCONVERT" --from pprof "$tmp/cut.pb.gz" -o "$tmp/cut.out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "a truncated profile: exit $rc"
grep -q 'cut.pb.gz: a truncated or damaged gzip stream' "$tmp/err" ||
    fail "a truncated profile: $(cat "$tmp/err")"
[ -e "$tmp/cut.out" ] && fail "a refused conversion left an output file"
"$CGCONVERT" --from pprof --event x "$tmp/cpu.pb.gz" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "--event with pprof: exit $rc"
echo "pprof profiles of Go's runtime/pprof converted with their totals"
