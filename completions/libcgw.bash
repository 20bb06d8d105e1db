# SPDX-License-Identifier: MIT
# bash completion for libcgw's tools: cgverify, cggen, cgrecode, cgmerge,
# cgdiff, cgconvert, cgannotate, cgreport and cgwprof.  make install puts
# this file in bash-completion's folder as cgverify and links the other tools' names
# to it.  The options are each tool's --help options (tests/test-
# completion.sh checks that none is missing): keep them in step.

# _cgw_values PREV TOOL: the values of option PREV of TOOL, or "" for a
# free value
# ("-" for a file name, "!" when PREV takes no value).
_cgw_values()
{
    case $1 in
    -o) echo - ;;
    --positions) echo "line instr instr,line" ;;
    --from) echo "folded pprof" ;;
    --to) echo "folded pprof" ;;
    --show-percs|--auto|--inclusive) echo "yes no" ;;
    --tree) echo "none caller calling both" ;;
    --units) echo "exact human" ;;
    -I|--include) echo - ;;
    --for) case $2 in
        *cgverify) echo "kcachegrind callgrind_annotate gprof2dot speedscope" ;;
        *) echo "callgrind_annotate" ;;
        esac ;;
    --seed|--size|--functions|--files|--objects|--events|--calls-per-fn|--parts|\
    --fail-above|--top|--mod-filename|--mod-funcname|--event|--show|--sort|--threshold|\
    --pprof-limit|\
    --context) echo "" ;;
    *) echo "!" ;;
    esac
}

_cgw_tools()
{
    local cur prev opts values i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
    # "--for=x" arrives as "--for" "=" "x" where COMP_WORDBREAKS has "="
    if [ "$cur" = "=" ]; then
        prev=${COMP_WORDS[COMP_CWORD-1]}; cur=
    elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 1 ]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    case $1 in
    */cgverify|cgverify)
        opts="--for= --strict --all -v --quiet -q --json --roundtrip --jobs= -j --help -h
              --version" ;;
    */cggen|cggen)
        opts="--seed --size --functions --files --objects --events --positions
              --calls-per-fn --inline --jumps --parts --compact -o --help -h --version" ;;
    */cgrecode|cgrecode)
        opts="--compact --positions --jumps --for= --force --quiet -o --help -h --version" ;;
    */cgmerge|cgmerge)
        opts="--keep-parts --mod-filename --mod-funcname --positions --compact --force --quiet -o
              --help -h --version" ;;
    */cgdiff|cgdiff)
        opts="--fail-above --top --mod-filename --mod-funcname --force --quiet -o --html --help -h
              --version" ;;
    */cgannotate|cgannotate)
        opts="--show= --sort= --threshold= --show-percs= --auto= --context= --inclusive= --tree=
              --units=
              --include= -I --quiet --help -h --version" ;;
    */cgconvert|cgconvert)
        opts="--from --to --event --force --qualify-names --pprof-limit= --quiet -o --help -h
              --version" ;;
    */cgreport|cgreport)
        opts="--top --threshold --quiet -o --help -h --version" ;;
    */cgwprof|cgwprof)
        # after the program, complete its own words
        for ((i = 1; i < COMP_CWORD; i++)); do
            case ${COMP_WORDS[i]} in
            -o) ((i++)) ;;
            --) ((i++)); break ;;
            -*) ;;
            *) break ;;
            esac
        done
        if [ "$i" -lt "$COMP_CWORD" ]; then
            if declare -F _command_offset >/dev/null; then
                _command_offset "$i"
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
            return
        fi
        if [ "$i" -ge "$COMP_CWORD" ] && [ "$prev" != -o ] && [[ $cur != -* ]]; then
            COMPREPLY=($(compgen -c -- "$cur"))
            return
        fi
        opts="-o --fold-threads --help -h --version --" ;;
    *) return ;;
    esac
    values=$(_cgw_values "$prev" "$1")
    case $values in
    "!") ;;
    -) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    "") return ;;
    *) COMPREPLY=($(compgen -W "$values" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        [[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _cgw_tools -o filenames cgverify cggen cgrecode cgmerge cgdiff cgconvert cgannotate \
    cgreport cgwprof
