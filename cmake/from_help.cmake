# Generates the man page and the bash completion from `alloclint --help`,
# so that neither can drift from the options the binary takes.
# Usage: cmake -DBIN=alloclint -DMAN=alloclint.1 -DBASH=alloclint.bash
#              -DVERSION=x.y.z -P from_help.cmake
execute_process(COMMAND "${BIN}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "alloclint --help failed")
endif()

# Man page: the help text verbatim under NAME/SYNOPSIS, troff-escaped.
string(REPLACE "\\" "\\e" body "${help}")
string(REGEX REPLACE "\n\\." "\n\\\\&." body "${body}")
string(REGEX REPLACE "\n'" "\n\\\\&'" body "${body}")
file(WRITE "${MAN}.tmp"
".TH ALLOCLINT 1 \"\" \"alloclint ${VERSION}\" \"User Commands\"
.SH NAME
alloclint \\- find PyTorch memory work that buys nothing, and fix it
.SH DESCRIPTION
.nf
${body}.fi
.SH SEE ALSO
Each rule's page: \\fBalloclint rule CODE\\fR; the list: \\fBalloclint rule --all\\fR.
")
file(RENAME "${MAN}.tmp" "${MAN}")

# Bash completion: every long option the help text names.
string(REGEX MATCHALL "--[a-z][a-z-]*" opts "${help}")
list(REMOVE_DUPLICATES opts)
list(JOIN opts " " optlist)
file(WRITE "${BASH}.tmp"
"# bash completion for alloclint (generated from alloclint --help)
_alloclint() {
    local cur prev
    cur=\"\${COMP_WORDS[COMP_CWORD]}\"
    prev=\"\${COMP_WORDS[COMP_CWORD-1]}\"
    if [ \"\$COMP_CWORD\" -eq 1 ]; then
        COMPREPLY=( \$(compgen -W \"check rule explain verify server version --help --version\" -- \"\$cur\") )
        return
    fi
    case \"\$prev\" in
        --output-format) COMPREPLY=( \$(compgen -W \"text concise json json-lines github sarif\" -- \"\$cur\") ); return ;;
        --select|--ignore|--extend-select) COMPREPLY=( \$(compgen -W \"ALL \$(alloclint rule --all 2>/dev/null | awk 'NR>1{print \$1}')\" -- \"\$cur\") ); return ;;
        -o|--output-file) COMPREPLY=( \$(compgen -f -- \"\$cur\") ); return ;;
    esac
    if [ \"\${COMP_WORDS[1]}\" = rule ]; then
        COMPREPLY=( \$(compgen -W \"--all \$(alloclint rule --all 2>/dev/null | awk 'NR>1{print \$1}')\" -- \"\$cur\") )
        return
    fi
    if [[ \"\$cur\" == -* ]]; then
        COMPREPLY=( \$(compgen -W \"${optlist}\" -- \"\$cur\") )
    else
        COMPREPLY=( \$(compgen -f -- \"\$cur\") )
    fi
}
complete -o filenames -F _alloclint alloclint
")
file(RENAME "${BASH}.tmp" "${BASH}")
