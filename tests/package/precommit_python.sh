#!/bin/sh
# The pre-commit hooks that install alloclint themselves (language: python):
# Debian's pre-commit, in a scratch git repository, with the hook repository
# made from pre-commit-hooks/ and the wheel served from a local folder, no
# package index. A commit with an AL101 case is blocked, the fix hook
# rewrites the file and stops the commit, the fixed file passes; the
# alloclint that ran is the wheel's, from pre-commit's own environment.
# Usage: precommit_python.sh WHEEL_DIR SOURCE_DIR   (exit 77: no pre-commit)
set -u
wheels=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
command -v pre-commit >/dev/null 2>&1 || { echo "pre-commit not installed: skipped"; exit 77; }
ls "$wheels"/alloclint-*.whl >/dev/null 2>&1 || { echo "no alloclint wheel in $wheels" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# No alloclint on PATH: the hooks must bring their own.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin PRE_COMMIT_HOME="$work/cache" HOME="$work"
export PIP_NO_INDEX=1 PIP_FIND_LINKS="$wheels" PIP_DISABLE_PIP_VERSION_CHECK=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
fail=0
say() { echo "precommit_python: $*" >&2; fail=1; }

# The hook repository, as it is published: pre-commit-hooks/ at its root.
cp -R "$src/pre-commit-hooks" "$work/hooks"
git -C "$work/hooks" init -q . && git -C "$work/hooks" add -A && git -C "$work/hooks" commit -q -m hooks
rev=$(git -C "$work/hooks" rev-parse HEAD)

mkdir "$work/repo" && cd "$work/repo" && git init -q .
cp "$src/tests/precommit_model.py" model.py
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hooks
    rev: $rev
    hooks:
      - id: alloclint
YAML
git add model.py .pre-commit-config.yaml
pre-commit install >install.txt 2>&1 || { say "pre-commit install failed:"; cat install.txt >&2; }
git commit -q -m "add a model" >commit1.txt 2>&1 && say "the commit with an AL101 case was not blocked"
grep -q "AL101" commit1.txt || { say "the blocked commit does not name AL101:"; cat commit1.txt >&2; }

# The environment pre-commit made holds the wheel's alloclint.
bin=$(find "$work/cache" -path '*/bin/alloclint' -type f | head -n 1)
[ -n "$bin" ] || say "no alloclint in pre-commit's environment"
if [ -n "$bin" ]; then
    "$bin" --version | grep -qx "alloclint $(cat "$src/VERSION")" || say "the hook's alloclint is not version $(cat "$src/VERSION")"
    pip_=$(dirname "$bin")/pip
    "$pip_" show alloclint 2>/dev/null | grep -q "^Version: $(cat "$src/VERSION")$" || say "pip does not list alloclint $(cat "$src/VERSION") in the hooks' environment"
fi

# The fix hook: rewrites the file, and the commit stops (a file changed).
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hooks
    rev: $rev
    hooks:
      - id: alloclint-fix
YAML
git add .pre-commit-config.yaml
git commit -q -m "add a model" >commit2.txt 2>&1 && say "the fix hook let the commit through while fixing"
grep -q "torch.empty(idx.numel()" model.py || { say "the fix hook did not rewrite the file:"; cat commit2.txt >&2; }
git add model.py
git commit -q -m "add a model" >commit3.txt 2>&1 || { say "the fixed file was blocked:"; cat commit3.txt >&2; }
git log --oneline | grep -q "add a model" || say "nothing was committed"
exit $fail
