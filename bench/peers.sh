# Sourced by the bench scripts (with $here and $root set): checks what a
# measurement needs and installs the peer, ast-grep, pinned, from npm
# under bench/.cache. Sets alloclint, cache and sg.
ASTGREP_VERSION=0.39.0
alloclint="$root/build/alloclint"
[ -x "$alloclint" ] || { echo "bench: build alloclint first (cmake --build build)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null 2>&1 || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 2; }
cache="$here/.cache"
sg="$cache/node_modules/.bin/ast-grep"
if [ ! -x "$sg" ]; then
    mkdir -p "$cache"
    printf '{"name": "alloclint-bench", "private": true}\n' >"$cache/package.json"
    (cd "$cache" && npm install --silent "@ast-grep/cli@$ASTGREP_VERSION" >/dev/null)
fi
