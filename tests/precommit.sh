#!/bin/sh
# The pre-commit hooks for real: Debian's pre-commit in a scratch git
# repository. A commit with an AL101 case is blocked; the fix hook rewrites
# the file (and reports failure, as a fixing hook must); the commit then
# passes. Hook definitions come from this checkout (try-repo uses the
# working tree as it is) and from a real .pre-commit-config.yaml.
# Usage: precommit.sh ALLOCLINT_BINARY SOURCE_DIR   (exit 77: no pre-commit)
set -u
bin=$(cd "$(dirname "$1")" && pwd)
src=$(cd "$2" && pwd)
command -v pre-commit >/dev/null 2>&1 || { echo "pre-commit not installed: skipped"; exit 77; }
command -v git >/dev/null 2>&1 || { echo "git not installed: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH="$bin:$PATH" PRE_COMMIT_HOME="$work/cache" HOME="$work"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
fail=0
say() { echo "precommit: $*" >&2; fail=1; }

mkdir "$work/repo" && cd "$work/repo" && git init -q .
cp "$src/tests/precommit_model.py" model.py
git add model.py

# The hook definitions of this checkout, as a user's try-repo sees them.
pre-commit try-repo "$src" alloclint --files model.py >try1.txt 2>&1 && say "check hook passed an AL101 case"
grep -q "AL101" try1.txt || { say "check hook output lacks AL101:"; cat try1.txt >&2; }
pre-commit try-repo "$src" alloclint-fix --files model.py >try2.txt 2>&1 && say "fix hook passed while fixing"
grep -q "torch.empty(idx.numel()" model.py || { say "fix hook did not rewrite the file:"; cat try2.txt >&2; }
pre-commit try-repo "$src" alloclint --files model.py >try3.txt 2>&1 || { say "check hook failed after the fix:"; cat try3.txt >&2; }
git checkout -q model.py 2>/dev/null || git restore model.py

# A real commit, with the hooks installed from a config naming a commit
# of this repository (the committed hook definitions).
rev=$(git -C "$src" rev-parse HEAD 2>/dev/null)
if [ -n "$rev" ] && git -C "$src" cat-file -e "$rev:.pre-commit-hooks.yaml" 2>/dev/null; then
    cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $src
    rev: $rev
    hooks:
      - id: alloclint
YAML
    git add .pre-commit-config.yaml
    pre-commit install >install.txt 2>&1 || { say "pre-commit install failed:"; cat install.txt >&2; }
    git commit -q -m "add a model" >commit1.txt 2>&1 && say "the commit with an AL101 case was not blocked"
    grep -q "AL101" commit1.txt || { say "blocked commit does not name AL101:"; cat commit1.txt >&2; }
    alloclint check --fix -q model.py >/dev/null
    git add model.py
    git commit -q -m "add a model" >commit2.txt 2>&1 || { say "the fixed commit was blocked:"; cat commit2.txt >&2; }
fi
exit $fail
