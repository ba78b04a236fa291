#!/bin/sh
# Fetch the grammars pinned in grammars.lock with `npm pack`, verify each
# tarball's sha256 and unpack its generated sources under OUTDIR/<name>/.
# Usage: fetch.sh LOCKFILE OUTDIR
set -eu
lock=$1
out=$2
mkdir -p "$out/tarballs"

grep -v '^[[:space:]]*#' "$lock" | grep -v '^[[:space:]]*$' | while read -r name spec sha; do
    dest="$out/$name"
    if [ -f "$dest/.verified" ] && [ "$(cat "$dest/.verified")" = "$sha" ]; then
        continue
    fi
    tarball=""
    for f in "$out"/tarballs/*.tgz; do
        [ -f "$f" ] || continue
        if [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$sha" ]; then tarball=$f; fi
    done
    if [ -z "$tarball" ]; then
        if ! command -v npm >/dev/null 2>&1; then
            echo "alloclint: cannot fetch grammar $spec: npm is not installed (apt-get install npm)" >&2
            exit 1
        fi
        if ! packed=$(cd "$out/tarballs" && npm pack --silent "$spec" 2>npm-error.log | tail -n 1); then
            echo "alloclint: 'npm pack $spec' failed (is the npm registry reachable?):" >&2
            cat "$out/tarballs/npm-error.log" >&2
            exit 1
        fi
        tarball="$out/tarballs/$packed"
        if [ ! -f "$tarball" ]; then
            echo "alloclint: 'npm pack $spec' produced no tarball" >&2
            exit 1
        fi
    fi
    got=$(sha256sum "$tarball" | cut -d' ' -f1)
    if [ "$got" != "$sha" ]; then
        echo "alloclint: sha256 mismatch for $spec" >&2
        echo "  expected $sha (grammars/grammars.lock)" >&2
        echo "  got      $got ($tarball)" >&2
        rm -f "$tarball"
        exit 1
    fi
    rm -rf "$dest" "$out/unpack-$name"
    mkdir -p "$out/unpack-$name"
    tar -xzf "$tarball" -C "$out/unpack-$name"
    mkdir -p "$dest"
    cp -R "$out/unpack-$name/package/src" "$dest/src"
    rm -rf "$out/unpack-$name"
    if ! grep -q '^#define LANGUAGE_VERSION 1[34]$' "$dest/src/parser.c"; then
        echo "alloclint: $spec is not built for tree-sitter ABI 13-14 (Debian's libtree-sitter 0.20.7 cannot load it)" >&2
        exit 1
    fi
    echo "$sha" > "$dest/.verified"
    echo "alloclint: grammar $spec verified ($sha)"
done

