#!/bin/sh
# libclang at run time, with the release binary: found on the system, found
# in the libclang Python package installed beside alloclint (pip's layout:
# PREFIX/bin/alloclint, PREFIX/lib/pythonX.Y/site-packages/clang/native),
# absent (hidden in a private mount namespace), and broken (a library that
# is no libclang, a file that is no library). Without a usable libclang the
# C++ file is left unchecked with one warning naming what to install, the
# Python findings are reported and decide the exit status; nothing crashes.
# Usage: libclang.sh ALLOCLINT SOURCE_DIR
set -u
alloclint=$(realpath "$1")
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "libclang: $*" >&2; fail=1; }
unset ALLOCLINT_LIBCLANG

system=""
for f in /usr/lib/x86_64-linux-gnu/libclang-*.so.1 /usr/lib/llvm-*/lib/libclang.so.1; do
    [ -e "$f" ] && { system=$(realpath "$f"); break; }
done
[ -n "$system" ] || { echo "no system libclang: skipped"; exit 77; }

mkdir "$work/proj"
cp "$src/tests/rules/AL102/extension.cu" "$work/proj/"
cat > "$work/proj/model.py" <<'PY'
import torch


def gather(src, idx):
    out = torch.zeros(idx.numel(), src.shape[1])
    out.copy_(src[idx])
    return out
PY
run() { # env... : check the project, concise; stdout to out.txt, stderr to err.txt, status to rc
    (cd "$work/proj" && env "$@" "$alloclint" check --no-cache --output-format concise . \
        >"$work/out.txt" 2>"$work/err.txt")
    rc=$?
}

# 1. The system's libclang: both files checked.
run
grep -q "extension.cu:.*AL102" "$work/out.txt" || { say "the system's libclang did not check the C++ file:"; cat "$work/err.txt" >&2; }
grep -q "model.py:.*AL101" "$work/out.txt" || say "no AL101 in model.py"
"$alloclint" version | grep -q "^libclang: .* (the system)$" || say "version: $("$alloclint" version | tail -n 1)"

# 2. The libclang Python package beside alloclint.
mkdir -p "$work/env/bin" "$work/env/lib/python3.11/site-packages/clang/native"
cp "$alloclint" "$work/env/bin/alloclint"
ln -s "$system" "$work/env/lib/python3.11/site-packages/clang/native/libclang.so"
"$work/env/bin/alloclint" version | grep -q "^libclang: $work/env/bin/../lib/python3.11/site-packages/clang/native/libclang.so (the libclang Python package)$" ||
    say "the Python package's libclang was not taken: $("$work/env/bin/alloclint" version | tail -n 1)"
(cd "$work/proj" && "$work/env/bin/alloclint" check --no-cache --output-format concise . >"$work/pkg.txt" 2>&1)
grep -q "extension.cu:.*AL102" "$work/pkg.txt" || say "the Python package's libclang did not check the C++ file"

# 3. Broken: ALLOCLINT_LIBCLANG names a library without libclang's API, or
# no library at all. One warning, Python findings, exit 1 (findings).
for bad in "$(realpath /lib/x86_64-linux-gnu/libm.so.6)" "$work/proj/model.py"; do
    run ALLOCLINT_LIBCLANG="$bad"
    [ "$rc" -eq 1 ] || say "ALLOCLINT_LIBCLANG=$bad: exit $rc, not 1"
    grep -q "model.py:.*AL101" "$work/out.txt" || say "ALLOCLINT_LIBCLANG=$bad: the Python findings are missing"
    grep -q "AL102" "$work/out.txt" && say "ALLOCLINT_LIBCLANG=$bad: the C++ file was checked"
    [ "$(wc -l <"$work/err.txt")" -eq 1 ] || { say "ALLOCLINT_LIBCLANG=$bad: not one line on stderr:"; cat "$work/err.txt" >&2; }
    grep -q "^alloclint: warning: 1 C++/CUDA file not checked: libclang could not be loaded: .*$bad" "$work/err.txt" ||
        { say "ALLOCLINT_LIBCLANG=$bad: the warning does not name it:"; cat "$work/err.txt" >&2; }
done

# 4. None at all: every libclang file hidden (an empty file mounted over
# it) in a private mount namespace; needs root and unshare.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    cat > "$work/hidden.sh" <<SH
set -e
for f in /usr/lib/x86_64-linux-gnu/libclang-*.so.* /usr/lib/llvm-*/lib/libclang*.so*; do
    [ -f "\$f" ] && [ ! -L "\$f" ] && mount --bind /dev/null "\$f"
done
cd "$work/proj"
"$alloclint" check --no-cache --output-format concise . >"$work/out.txt" 2>"$work/err.txt" && echo 0 >"$work/rc" || echo \$? >"$work/rc"
"$alloclint" version >"$work/version.txt"
printf 'import torch\n\nx = torch.empty(3)\n' > "$work/proj/model.py"
"$alloclint" check --no-cache --output-format concise . >/dev/null 2>"$work/err2.txt" && echo 0 >"$work/rc2" || echo \$? >"$work/rc2"
SH
    unshare -m sh "$work/hidden.sh" || say "the hidden-libclang run failed to start"
    [ "$(cat "$work/rc")" = 1 ] || say "without libclang: exit $(cat "$work/rc"), not 1 (a Python finding)"
    grep -q "model.py:.*AL101" "$work/out.txt" || say "without libclang: the Python findings are missing"
    [ "$(wc -l <"$work/err.txt")" -eq 1 ] || { say "without libclang: not one line on stderr:"; cat "$work/err.txt" >&2; }
    grep -q "^alloclint: warning: 1 C++/CUDA file not checked: libclang was not found .*pip install libclang" "$work/err.txt" ||
        { say "without libclang: the warning does not say what to install:"; cat "$work/err.txt" >&2; }
    grep -q "^libclang: none: libclang was not found" "$work/version.txt" || say "without libclang: version says $(tail -n 1 "$work/version.txt")"
    [ "$(cat "$work/rc2")" = 0 ] || say "without libclang, no Python finding: exit $(cat "$work/rc2"), not 0"
else
    echo "libclang: no mount namespace here; the absent-libclang case is left to scripts/oldroot.sh"
fi
exit $fail
