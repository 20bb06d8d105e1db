# SPDX-License-Identifier: MIT
# tools.sh - sourced by the shell tests of the tools: the tools of the
# build folder (each overridable from the environment), a scratch folder
# removed at exit, and fail().
set -u
CGVERIFY=${CGVERIFY:-./tools/cgverify}
CGGEN=${CGGEN:-./tools/cggen}
CGRECODE=${CGRECODE:-./tools/cgrecode}
CGMERGE=${CGMERGE:-./tools/cgmerge}
CGDIFF=${CGDIFF:-./tools/cgdiff}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
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
