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

printf '\n' >"$tmp/empty.pb"
if ! "$CGCONVERT" --from pprof "$tmp/empty.pb" -o "$tmp/x" 2>"$tmp/err"; then
    grep -q 'without protobuf-c' "$tmp/err" && { echo "built without protobuf-c: skipped"; exit 77; }
fi

# pprof bombs (issue 54): gzip-compressed protobuf that inflates to N
# MiB, of zeros (an unknown bytes field) or of 3-byte strings (which
# protobuf-c makes 14 bytes of memory a byte), made by python3 from one
# deflate block repeated (a full flush between blocks makes them alike),
# refused within the memory limit (256 MiB by default, --pprof-limit),
# under ulimit -v, with ERANGE's exit 1; and when the limit is raised
# past what ulimit -v leaves, out of memory (exit 2), never "damaged".
bomb() { # KIND MIB OUT
    python3 - "$@" <<'PY'
import struct, sys, zlib
kind, mib, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def varint(v):
    b = bytearray()
    while True:
        b.append((v & 0x7f) | (0x80 if v > 0x7f else 0)); v >>= 7
        if not v: return bytes(b)
if kind == 'zeros':
    head, block = bytes([0x32, 0]) + varint(99 << 3 | 2) + varint(mib << 20), bytes(1 << 20)
else:
    rec = bytes([0x32, 3]) + b'abc'
    head, block = bytes([0x32, 0]), rec * ((1 << 20) // len(rec))
z = zlib.compressobj(9, zlib.DEFLATED, -15)
first = z.compress(head) + z.flush(zlib.Z_FULL_FLUSH)
one = z.compress(block) + z.flush(zlib.Z_FULL_FLUSH)
assert z.compress(block) + z.flush(zlib.Z_FULL_FLUSH) == one
crc = zlib.crc32(head)
for _ in range(mib):
    crc = zlib.crc32(block, crc)
with open(out, 'wb') as f:
    f.write(b'\x1f\x8b\x08\0\0\0\0\0\0\xff' + first + one * mib + z.flush())
    f.write(struct.pack('<II', crc, (len(head) + mib * len(block)) & 0xffffffff))
PY
}
refused() { # WANT-EXIT WANT-TEXT ULIMIT-KB ARGS...
    want=$1 text=$2 kb=$3
    shift 3
    if grep -q __asan_init "$CGCONVERT" 2>/dev/null; then
        # ASan's shadow memory needs more than any ulimit -v here: the
        # budget's refusals without it, and no out-of-memory case
        [ "$want" -eq 2 ] && { echo "under ASan: $* not run (no ulimit -v)"; return 0; }
        kb=unlimited
    fi
    (ulimit -v "$kb" && exec "$CGCONVERT" --quiet --from pprof "$@" -o "$tmp/bomb.out") \
        2>"$tmp/err"
    rc=$?
    [ $rc -eq "$want" ] || fail "$*: exit $rc, want $want: $(cat "$tmp/err")"
    grep -q "$text" "$tmp/err" || fail "$*: no \"$text\" in: $(cat "$tmp/err")"
    grep -q "not of its field's type\|damaged" "$tmp/err" && fail "$*: said as damage: $(cat "$tmp/err")"
    echo "refused: $*: $(cat "$tmp/err")"
}
if command -v python3 >/dev/null 2>&1 && python3 -c 'import zlib' 2>/dev/null; then
    bomb zeros 300 "$tmp/zeros.pb.gz" && bomb strings 8 "$tmp/strings.pb.gz" ||
        fail "python3 could not make the bombs"
    # 300 MiB of zeros in 300 KB: stopped at 256 MiB inflated
    refused 1 'inflates to more than 256 MiB, the limit.*--pprof-limit=SIZE raise' 786432 \
        "$tmp/zeros.pb.gz"
    refused 1 'inflates to more than 64 MiB' 786432 --pprof-limit=64M "$tmp/zeros.pb.gz"
    # 8 MiB of strings: 120 MiB to decode, past a limit of 32 MiB
    refused 1 'would take more than 32 MiB, the limit of memory' 786432 --pprof-limit=32M \
        "$tmp/strings.pb.gz"
    # the limit raised past what the process may take: out of memory
    refused 2 'out of memory' 131072 --pprof-limit=1G "$tmp/strings.pb.gz"
    usage_rc=0
    "$CGCONVERT" --from pprof --pprof-limit=lots "$tmp/empty.pb" -o "$tmp/x" 2>/dev/null ||
        usage_rc=$?
    [ $usage_rc -eq 2 ] || fail "--pprof-limit=lots: exit $usage_rc, want 2"
else
    echo "no python3 with zlib: no pprof bomb made"
fi

command -v go >/dev/null 2>&1 || { echo "no go (golang-go): skipped"; exit 77; }

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
