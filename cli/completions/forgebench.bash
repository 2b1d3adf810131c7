# bash completion for forgebench                           -*- shell-script -*-
#
# Printed by `forgebench completion bash`. Load it in the running shell with
#   source <(forgebench completion bash)
# or save it as ~/.local/share/bash-completion/completions/forgebench (the
# packages install it as /usr/share/bash-completion/completions/forgebench).
#
# forgebench answers itself: run with COMP_LINE set to the command line up
# to the cursor, it prints one candidate a line, "value" or
# "value<TAB>description", in the order to show them.

_forgebench() {
    local line=${COMP_LINE:0:COMP_POINT}
    local prog=${COMP_WORDS[0]}
    [[ $prog == "~/"* ]] && prog=$HOME/${prog#"~/"}
    local IFS=$'\n'
    local -a out
    out=($(COMP_LINE=$line COMP_POINT= "$prog" 2>/dev/null))
    COMPREPLY=()
    ((${#out[@]})) || return 0 # -o default: file names

    # readline replaces the text after the last word-break character
    # (COMP_WORDBREAKS has = and :); forgebench completed the text after
    # the last blank and =. Candidates lose what lies between ("project:").
    local rl=${line##*["$COMP_WORDBREAKS"]}
    local last=${line##*[[:space:]]}
    last=${last##*=}
    local strip=${last%"$rl"}

    local o value width=0
    local -a values descs
    for o in "${out[@]}"; do
        value=${o%%$'\t'*}
        value=${value#"$strip"}
        values+=("$value")
        if [[ $o == *$'\t'* ]]; then descs+=("${o#*$'\t'}"); else descs+=(""); fi
        ((${#value} > width)) && width=${#value}
    done
    if ((${#values[@]} == 1)); then
        COMPREPLY=("${values[0]}")
        return 0
    fi
    # Several: show the descriptions beside the values (bash inserts the
    # longest common prefix, which lies within the values), in
    # forgebench's order (bash 4.4 and later).
    compopt -o nosort 2>/dev/null
    local i entry room=$((${COLUMNS:-80} - width - 6))
    for i in "${!values[@]}"; do
        if [[ -n ${descs[i]} ]]; then
            printf -v entry '%-*s  (%s)' "$width" "${values[i]}" "${descs[i]:0:room}"
            COMPREPLY+=("$entry")
        else
            COMPREPLY+=("${values[i]}")
        fi
    done
}
complete -o default -F _forgebench forgebench
