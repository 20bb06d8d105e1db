#!/bin/sh
# SPDX-License-Identifier: MIT
# test-completion: completions/libcgw.bash offers every long option that
# each tool's --help names (--for= for "--for=x"), when completing "--"
# for that tool in bash; and the values of --positions, --from and
# --for.  Skipped without bash.
set -u
command -v bash >/dev/null 2>&1 || { echo "no bash: skipped"; exit 77; }
b=$CGW_BUILDDIR
exec bash -s "$CGW_SRCDIR/completions/libcgw.bash" "$b" <<'BASH'
set -u
. "$1" || exit 1
b=$2
status=0
# complete WORD... : COMPREPLY for the command line "WORD... <TAB>"
complete_line() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _cgw_tools "$1"
}
n=0
for tool in tools/cgverify tools/cggen tools/cgrecode tools/cgmerge tools/cgdiff \
    tools/cgconvert tools/cgannotate prof/cgwprof; do
    name=${tool##*/}
    help=$("$b/$tool" --help 2>&1) || { echo "$name --help failed"; status=1; continue; }
    opts=$(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z0-9-]*=\{0,1\}' | sort -u)
    [ -n "$opts" ] || { echo "$name --help names no long option"; status=1; continue; }
    complete_line "$name" --
    for opt in $opts; do
        n=$((n + 1))
        case " ${COMPREPLY[*]} " in
        *" $opt "*) ;;
        *) echo "$name: $opt is in --help but not in the completion"; status=1 ;;
        esac
    done
done
expect() {  # expect WANT WORD...: the completion of WORD... is WANT
    want=$1; shift
    complete_line "$@"
    got=${COMPREPLY[*]-}
    [ "$got" = "$want" ] || { echo "'$*': completed as '$got', not '$want'"; status=1; }
}
expect "line instr instr,line" cgmerge --positions ""
expect "instr instr,line" cggen --positions i
expect "folded pprof" cgconvert --from ""
expect "callgrind_annotate" cgrecode --for = ""
expect "kcachegrind callgrind_annotate gprof2dot speedscope" cgverify --for = ""
expect "--strict" cgverify --st
[ $status -eq 0 ] && echo "$n long options of 7 tools' --help, all completed"
exit $status
BASH
