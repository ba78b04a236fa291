# Compares the concise findings (the first file) with the `expect:`
# annotations of the fixture files (the others):
#   # expect: <CODE> <tier>   (tier: safe, unsafe, or nofix)
#   # expect: <CODE> <tier>, <CODE> <tier>   (two findings on the line, in
#                                            column order)
#   # expect: none
# (`//` in C++). Every annotation must be met on its line, and every
# finding annotated. Prints the disagreements; exits 1 when there are any.
function clean(path) {
    sub(/^\.\//, "", path)
    return path
}
FILENAME == ARGV[1] {
    # name:row:col: CODE [mark] message
    split($0, parts, ":")
    key = clean(parts[1]) ":" parts[2]
    c = ""
    if (match($0, / AL[0-9]+ /)) c = substr($0, RSTART + 1, RLENGTH - 2)
    tier = "none"
    if (index($0, c " [*]")) tier = "safe"
    else if (index($0, c " [unsafe fix]")) tier = "unsafe"
    else if (c != "") tier = "nofix"
    if (key in got) got[key] = got[key] ", " c " " tier
    else got[key] = c " " tier
    next
}
{
    key = clean(FILENAME) ":" FNR
    if (match($0, /(#|\/\/) expect: [A-Z0-9]+ [a-z]+(, [A-Z0-9]+ [a-z]+)*/)) {
        w = substr($0, RSTART, RLENGTH)
        sub(/^(#|\/\/) expect: /, "", w)
        want[key] = w
    } else if (match($0, /(#|\/\/) expect: none/)) {
        want[key] = "none"
    }
}
END {
    bad = 0
    for (k in want) {
        g = (k in got) ? got[k] : "none"
        if (g != want[k]) { printf "%s: expected %s, got %s\n", k, want[k], g; bad = 1 }
    }
    for (k in got) if (!(k in want)) { printf "%s: reported (%s) but not annotated\n", k, got[k]; bad = 1 }
    exit bad
}
