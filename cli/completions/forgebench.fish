# fish completion for forgebench, printed by `forgebench completion fish`.
# Save it as ~/.config/fish/completions/forgebench.fish, or load it in the
# running shell with: forgebench completion fish | source. The packages
# install it as /usr/share/fish/vendor_completions.d/forgebench.fish.
#
# forgebench answers itself: run with COMP_LINE set to the command line up
# to the cursor, it prints one candidate a line, "value" or
# "value<TAB>description", in the order to show them.

function __forgebench_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -lx COMP_LINE "$tokens $current"
    set -lx COMP_POINT
    set -l out ($tokens[1] 2>/dev/null)
    if test (count $out) -eq 0
        __fish_complete_path $current
        return
    end
    # forgebench completed the text after the last =; fish wants the token.
    set -l prefix (string match -r -- '^.*=' $current)
    for o in $out
        printf '%s%s\n' "$prefix" $o
    end
end

complete -c forgebench -f -k -a '(__forgebench_complete)'
