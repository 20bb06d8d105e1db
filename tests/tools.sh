# SPDX-License-Identifier: MIT
# tools.sh - sourced by the shell tests of the tools: the tools of the
# build folder (each overridable from the environment), a scratch folder
# removed at exit, fail() and the checks every tool's test makes.
set -u
CGVERIFY=${CGVERIFY:-./tools/cgverify}
CGGEN=${CGGEN:-./tools/cggen}
CGRECODE=${CGRECODE:-./tools/cgrecode}
CGMERGE=${CGMERGE:-./tools/cgmerge}
CGDIFF=${CGDIFF:-./tools/cgdiff}
CGCONVERT=${CGCONVERT:-./tools/cgconvert}
CGREPORT=${CGREPORT:-./tools/cgreport}
CGANNOTATE=${CGANNOTATE:-./tools/cgannotate}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# sanitized BIN: whether BIN is built with AddressSanitizer, whose shadow
# memory no `ulimit -v` leaves room for (a memory limit is then left out)
sanitized() { grep -q __asan_init "$1" 2>/dev/null; }
# strictly_valid FILE [ARG...]: cgverify --strict ARG... FILE passes, or
# fails only on flame-total: speedscope's flame graph cannot show a call
# graph whose function is a root and a callee too, or whose cycle no root
# reaches (cggen's graphs; stacks with recursion written as a profile),
# however it is written, and these tests check the writing
strictly_valid() {
    f=$1
    shift
    "$CGVERIFY" --strict -q "$@" "$f" >/dev/null 2>&1 && return 0
    "$CGVERIFY" --for=kcachegrind,callgrind_annotate,gprof2dot -q "$@" "$f" || return 1
    "$CGVERIFY" --for=speedscope --json "$f" | tr -d ' \n' |
        grep -q '"errors":0,.*"readers":{"speedscope":{"opens_right":false,"findings":\["flame-total"\]}}'
}
# usage_error NAME TOOL ARG...: TOOL must refuse ARG... as every tool
# does: exit 2, nothing on stdout, "NAME: MESSAGE" and "Try 'NAME --help'
# for more information." on stderr, nothing more.
usage_error() {
    name=$1; tool=$2; shift 2
    "$tool" "$@" >"$tmp/usage.out" 2>"$tmp/usage.err"; rc=$?
    [ $rc -eq 2 ] || fail "$name $*: exit $rc"
    [ -s "$tmp/usage.out" ] && fail "$name $*: wrote to stdout"
    head -n 1 "$tmp/usage.err" | grep -q "^$name: [^ ]" || fail "$name $*: first line $(head -n 1 "$tmp/usage.err")"
    sed -n 2p "$tmp/usage.err" | grep -q "^Try '$name --help' for more information\.$" ||
        fail "$name $*: no pointer to --help after the message"
    [ "$(wc -l <"$tmp/usage.err")" -eq 2 ] || fail "$name $*: more than two lines: $(cat "$tmp/usage.err")"
}
# exits N WHAT PATTERN TOOL ARG...: TOOL ARG... exits with status N and
# says what grep's PATTERN matches on stderr (left in $tmp/err); its
# stdout is thrown away.  WHAT names the case when it fails.
exits() {
    ex_n=$1; ex_what=$2; ex_pat=$3; shift 3
    "$@" >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq "$ex_n" ] || fail "$ex_what: exit $rc"
    grep -q -e "$ex_pat" "$tmp/err" || fail "$ex_what: message $(cat "$tmp/err")"
}
# refused TOOL ARGS...: TOOL exits 2 with a message on each ARGS, a
# string of arguments split at blanks ("" for none).
refused() {
    t=$1; shift
    for bad in "$@"; do
        # shellcheck disable=SC2086
        "$t" $bad >/dev/null 2>"$tmp/err"; rc=$?
        [ $rc -eq 2 ] || fail "'$bad': exit $rc"
        [ -s "$tmp/err" ] || fail "'$bad': no message"
    done
}
# help_fits NAME TOOL: TOOL --help starts "usage: NAME" and fits in 80
# columns.
help_fits() {
    "$2" --help | grep -q "^usage: $1" || fail "--help"
    "$2" --help | awk 'length > 80 { exit 1 }' || fail "--help wider than 80 columns"
}
# in_tmp TOOL ARG...: TOOL run in $tmp (for file names such as "-x").
in_tmp() {
    t=$1; shift
    case $t in /*) ;; *) t=$PWD/$t ;; esac
    (cd "$tmp" && "$t" "$@")
}
# twice FILE: the T/F/C lines of FILE (tests/cgnorm's, kcgdump's) with
# every number doubled, sorted: what a merge of the file with itself reads
twice() {
    awk -F'\t' 'BEGIN { OFS = "\t" }
        { n = split($NF, c, ","); s = ""
          for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") sprintf("%.0f", 2 * c[i])
          $NF = s; if ($1 == "C") $(NF - 1) = sprintf("%.0f", 2 * $(NF - 1)); print }' "$1" |
        LC_ALL=C sort
}
