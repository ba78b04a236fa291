#!/bin/sh
# Fetch what deps.lock pins from Debian's archive with apt (a private apt
# configuration under OUTDIR: the machine's own sources and state are not
# touched), check every file's sha256, and unpack: source packages to
# OUTDIR/src/<package> with Debian's patches applied, binary packages into
# OUTDIR/sysroot. Nothing is fetched again while OUTDIR/.verified holds the
# lock's hash.
# Usage: fetch.sh LOCKFILE OUTDIR
# ALLOCLINT_DEBIAN_MIRROR overrides the archive (default: the machine's
# first Debian source, else http://deb.debian.org/debian).
set -eu
lock=$1
out=$2
say() { echo "alloclint deps: $*" >&2; }

lockhash=$(sha256sum "$lock" | cut -d' ' -f1)
if [ -f "$out/.verified" ] && [ "$(cat "$out/.verified")" = "$lockhash" ]; then
    exit 0
fi
for tool in apt-get dpkg-source dpkg-deb sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || { say "$tool is not installed (sh scripts/setup.sh installs it)"; exit 1; }
done

mirror=${ALLOCLINT_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
             grep -E '^[[:space:]]*(URIs:|deb )' | grep -o 'https\?://[^ ]*' |
             grep -v security | head -n 1 || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { say "$keyring is missing (apt-get install debian-archive-keyring)"; exit 1; }

rm -rf "$out/apt" "$out/src" "$out/sysroot" "$out/.verified"
mkdir -p "$out/apt/lists/partial" "$out/apt/cache/archives/partial" "$out/files" "$out/src" "$out/sysroot"
: > "$out/apt/status"
grep -v '^[[:space:]]*#' "$lock" | awk 'NF { print $2 }' | sort -u | while read -r suite; do
    echo "deb [signed-by=$keyring] $mirror $suite main"
    echo "deb-src [signed-by=$keyring] $mirror $suite main"
done > "$out/apt/sources.list"
apt() {
    apt-get -q -o Dir::Etc::SourceList="$out/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
        -o Dir::State::Lists="$out/apt/lists" -o Dir::State::Status="$out/apt/status" \
        -o Dir::Cache="$out/apt/cache" -o APT::Architecture=amd64 -o APT::Sandbox::User=root "$@"
}
if ! apt update >"$out/apt/update.log" 2>&1; then
    say "apt-get update against $mirror failed:"; cat "$out/apt/update.log" >&2; exit 1
fi

# One download per package, then every pinned file's hash.
grep -v '^[[:space:]]*#' "$lock" | awk 'NF { print $1, $3, $4 }' | sort -u | while read -r kind pkg version; do
    case $kind in
        src) verb="source --download-only" ;;
        deb) verb=download ;;
        *) say "unknown kind '$kind' in $lock"; exit 1 ;;
    esac
    # shellcheck disable=SC2086
    if ! (cd "$out/files" && apt $verb "$pkg=$version" >"$out/apt/get-$pkg.log" 2>&1); then
        say "could not fetch $kind $pkg $version from $mirror:"
        tail -n 5 "$out/apt/get-$pkg.log" >&2
        say "if Debian no longer serves that version, pin the one it serves in $lock (name, version, file, sha256)"
        exit 1
    fi
done
grep -v '^[[:space:]]*#' "$lock" | awk 'NF { print $1, $3, $5, $6 }' | while read -r kind pkg file sha; do
    got=$(sha256sum "$out/files/$file" 2>/dev/null | cut -d' ' -f1 || true)
    if [ "$got" != "$sha" ]; then
        say "sha256 mismatch for $file ($pkg)"
        say "  expected $sha ($lock)"
        say "  got      ${got:-nothing: the file is missing}"
        exit 1
    fi
done

# Unpack: sources with Debian's patches, binaries into the sysroot.
grep -v '^[[:space:]]*#' "$lock" | awk 'NF { print $1, $3, $5 }' | while read -r kind pkg file; do
    case $kind:$file in
        src:*.dsc)
            (cd "$out/files" && dpkg-source --no-check -x "$file" "$out/src/$pkg" >"$out/apt/unpack-$pkg.log" 2>&1) ||
                { say "dpkg-source -x $file failed:"; cat "$out/apt/unpack-$pkg.log" >&2; exit 1; } ;;
        deb:*) dpkg-deb -x "$out/files/$file" "$out/sysroot" ;;
    esac
done
# A sysroot's absolute links point into the machine; make them relative to
# the sysroot, and drop the links to shared libraries whose runtime package
# is not unpacked (zlib's, http-parser's), so that only their static
# archives can be linked.
find "$out/sysroot" -type l | while read -r link; do
    target=$(readlink "$link")
    case $target in
        /*) rm "$link"
            ln -s "$(realpath -m --relative-to="$(dirname "$link")" "$out/sysroot$target")" "$link" ;;
    esac
    [ -e "$link" ] || rm "$link"
done
echo "$lockhash" > "$out/.verified"
say "$(grep -cv '^[[:space:]]*#\|^[[:space:]]*$' "$lock") files verified from $mirror"
