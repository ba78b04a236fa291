#!/bin/sh
# The floor plan of src/, checked: every source file belongs to a layer,
# includes only headers of the layers it may use (one way down), and stays
# under 1,000 lines. A new file must be given a layer here.
#
# Layers and what each may include (besides itself):
#   base      util source toml finding prefilter paths patch notebook version ignore
#   front     python/ cxx/                  -> base
#   output    fix diff report atomic        -> base            (below the rules)
#   analysis  analysis/                     -> base front
#   rules     rules/                        -> base front analysis
#   pipeline  lint suppress jobs            -> base front output analysis rules
#   app       cli check cachekey verify server config gitignore discover main no_certs
#                                          -> everything
set -u
src=${1:-$(cd "$(dirname "$0")/../src" && pwd)}
cd "$src" || exit 2

layer_of() {
    case $1 in
        util.* | source.* | toml.* | finding.* | prefilter.* | paths.* | patch.* | notebook.* | version.* | ignore.*) echo base ;;
        python/* | cxx/*) echo front ;;
        fix.* | diff.* | report.* | atomic.*) echo output ;;
        analysis/*) echo analysis ;;
        rules/*) echo rules ;;
        lint.* | suppress.* | jobs.* | cache.*) echo pipeline ;;
        cli.* | check.* | cachekey.* | verify.* | server.* | config.* | gitignore.* | discover.* | main.* | no_certs.*) echo app ;;
        *) echo none ;;
    esac
}

may_use() { # layer, used layer
    [ "$1" = "$2" ] && return 0
    case "$1:$2" in
        front:base | output:base | analysis:base | analysis:front) return 0 ;;
        rules:base | rules:front | rules:analysis) return 0 ;;
        pipeline:base | pipeline:front | pipeline:output | pipeline:analysis | pipeline:rules) return 0 ;;
        app:*) return 0 ;;
    esac
    return 1
}

fail=0
for f in $(find . -name '*.[ch]' | sed 's#^\./##' | sort); do
    layer=$(layer_of "$f")
    if [ "$layer" = none ]; then
        echo "layers: src/$f has no layer (add it to tests/layers.sh)" >&2
        fail=1
        continue
    fi
    lines=$(wc -l <"$f")
    if [ "$lines" -gt 1000 ]; then
        echo "layers: src/$f has $lines lines (at most 1,000: split it)" >&2
        fail=1
    fi
    dir=$(dirname "$f")
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        # Resolve relative to the including file, as the compiler does.
        target=$(realpath -m --relative-to=. "$dir/$inc")
        [ -f "$target" ] || target=$inc
        if [ ! -f "$target" ]; then
            echo "layers: src/$f includes \"$inc\", which is not in src/" >&2
            fail=1
            continue
        fi
        used=$(layer_of "$target")
        if ! may_use "$layer" "$used"; then
            echo "layers: src/$f ($layer) includes src/$target ($used): includes go one way down" >&2
            fail=1
        fi
    done
done
[ $fail -eq 0 ] && echo "layers: every file in its layer, every include down, none over 1,000 lines"
exit $fail
