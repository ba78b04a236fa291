#!/bin/sh
# Fetch the tree-sitter core and the grammars pinned in grammars.lock with
# `npm pack`, verify each tarball's sha256 and unpack the sources it names
# (a grammar's generated src/, the core's vendor/tree-sitter/lib) under
# OUTDIR/<name>/src, or OUTDIR/<name>/lib for the core.
# Usage: fetch.sh LOCKFILE OUTDIR
set -eu
lock=$1
out=$2
mkdir -p "$out/tarballs"

grep -v '^[[:space:]]*#' "$lock" | grep -v '^[[:space:]]*$' | while read -r name spec sha from; do
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
    if [ ! -d "$out/unpack-$name/package/$from" ]; then
        echo "alloclint: $spec has no $from/ (grammars/grammars.lock)" >&2
        exit 1
    fi
    if [ "$from" = src ]; then
        cp -R "$out/unpack-$name/package/src" "$dest/src"
    else
        cp -R "$out/unpack-$name/package/$from" "$dest/lib"
    fi
    rm -rf "$out/unpack-$name"
    if [ "$from" = src ] && ! grep -q '^#define LANGUAGE_VERSION 1[345]$' "$dest/src/parser.c"; then
        echo "alloclint: $spec is not built for tree-sitter ABI 13-15 (the pinned core cannot load it)" >&2
        exit 1
    fi
    echo "$sha" > "$dest/.verified"
    echo "alloclint: grammar $spec verified ($sha)"
done

