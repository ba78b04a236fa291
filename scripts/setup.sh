#!/bin/sh
# Installs what alloclint needs to build, test and package on Debian 12 (run
# as root; with sudo otherwise). Safe to run again: it installs only what is missing.
set -eu
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi

packages="build-essential cmake pkg-config git patch ca-certificates \
libcmocka-dev libcjson-dev libgit2-dev libxxhash-dev zlib1g-dev pre-commit \
libclang-14-dev libtorch-dev python3-torch neovim strace \
dpkg-dev debian-archive-keyring python3-build python3-wheel python3-installer python3-venv \
patchelf debootstrap"
# npm fetches the pinned tree-sitter core and grammars; keep an npm that is already installed
# (Debian's npm would pull in its own nodejs).
command -v npm >/dev/null 2>&1 || packages="$packages npm"

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "alloclint setup: installing$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
