#!/usr/bin/env python3
"""Measures alloclint on the history of a repository (a bare mirror).

Finds the commits in which engineers changed a zero fill by hand:

  removal   `x = torch.zeros(...)` (zeros, zeros_like, new_zeros, full, ones)
            became `torch.empty(...)`, or a `x.zero_()` / `x.fill_(0)` line
            was dropped; in C++, `torch::zeros` became `torch::empty`.
  addback   the reverse: zeros put back where `empty` was.

For each removal site alloclint runs on the parent commit's file (the
whole parent tree is materialised, so the repo index sees every callee)
and the site is *found* when AL101/AL102/AL103 reports that line and
*proved* when the finding carries a safe fix. For each addback site it
runs on the commit's own file: a safe fix there would have turned the
needed zeros back into `empty`, the one unforgivable outcome.

Each site gets a mechanism (how the buffer is written after its
allocation, read from the parent file by a plain heuristic independent of
alloclint) and whether that writer is defined in the repository.

Usage: bench/history.py GIT_DIR WORKDIR ALLOCLINT [--json OUT] [--limit N]
Prints a Markdown table; with --json, every site and its verdict.
No code of the repository is written anywhere but WORKDIR.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

FACTORY = re.compile(r'\b(?:torch|at)(?:\.|::)(zeros|zeros_like|full|full_like|ones|ones_like)\s*\(|'
                     r'\.(new_zeros|new_full|new_ones)\s*\(|\b(zeros|zeros_like)\s*\(')
EMPTY = re.compile(r'\b(?:torch|at)(?:\.|::)(empty|empty_like)\s*\(|\.new_empty\s*\(|\bempty(_like)?\s*\(')
FILL = re.compile(r'^\s*([\w.\[\]]+)\.(zero_\(\)|fill_\(\s*0(\.0)?\s*\))\s*(#.*)?$')
TARGET = re.compile(r'^\s*(?:auto\s+|at::Tensor\s+|torch::Tensor\s+)?([A-Za-z_][\w.]*(?:\[[^\]]*\])?)\s*(?::[^=]+)?=\s*(?!=)')
SOURCE_EXT = ('.py', '.cu', '.cuh', '.cpp', '.cc', '.h', '.hpp')


def git(git_dir, *args, text=True):
    r = subprocess.run(['git', '--git-dir', git_dir, *args], capture_output=True, text=text,
                       errors='replace' if text else None)
    return r.stdout


def target_of(line):
    m = TARGET.match(line)
    return m.group(1) if m else None


def parse_log(git_dir, limit):
    """Commits with removed/added lines per file and the new line numbers."""
    out = git(git_dir, 'log', '--format=@@C %H %P', '-p', '-U0', '--no-renames', '--first-parent',
              '-G', r'(zeros|empty|fill_|zero_)', '--', *[f'*{e}' for e in SOURCE_EXT])
    commits, cur, f = [], None, None
    old_no = new_no = 0
    for line in out.split('\n'):
        if line.startswith('@@C '):
            parts = line[4:].split()
            cur = {'sha': parts[0], 'parent': parts[1] if len(parts) > 1 else None, 'files': {}}
            commits.append(cur)
            f = None
            if limit and len(commits) > limit:
                break
            continue
        if cur is None:
            continue
        if line.startswith('+++ '):
            f = line[6:] if line.startswith('+++ b/') else None
            if f is not None:
                cur['files'].setdefault(f, [])
            continue
        if line.startswith('--- ') or f is None:
            continue
        if line.startswith('@@ '):
            m = re.match(r'@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@', line)
            old_no, new_no = int(m.group(1)), int(m.group(2))
            cur['files'][f].append({'rm': [], 'add': []})
            continue
        if not cur['files'][f]:
            continue
        hunk = cur['files'][f][-1]
        if line.startswith('-'):
            hunk['rm'].append((old_no, line[1:]))
            old_no += 1
        elif line.startswith('+'):
            hunk['add'].append((new_no, line[1:]))
            new_no += 1
    return [c for c in commits if c['parent']]


def sites_of(commits):
    """Removal and addback sites: (kind, commit, file, old line, new line, text)."""
    removal, addback = [], []
    for c in commits:
        for f, hunks in c['files'].items():
            for h in hunks:
                adds = {target_of(t): (n, t) for n, t in h['add'] if target_of(t)}
                rms = {target_of(t): (n, t) for n, t in h['rm'] if target_of(t)}
                for n, t in h['rm']:
                    tg = target_of(t)
                    if FACTORY.search(t) and tg in adds and EMPTY.search(adds[tg][1]):
                        removal.append({'how': 'zeros->empty', 'sha': c['sha'], 'parent': c['parent'],
                                        'file': f, 'old': n, 'new': adds[tg][0], 'text': t.strip()})
                    elif FILL.match(t) and len(h['rm']) == 1 and not h['add']:
                        removal.append({'how': 'fill dropped', 'sha': c['sha'], 'parent': c['parent'],
                                        'file': f, 'old': n, 'new': None, 'text': t.strip()})
                for n, t in h['add']:
                    tg = target_of(t)
                    if FACTORY.search(t) and tg in rms and EMPTY.search(rms[tg][1]):
                        addback.append({'how': 'empty->zeros', 'sha': c['sha'], 'parent': c['parent'],
                                        'file': f, 'old': rms[tg][0], 'new': n, 'text': t.strip()})
                    elif FILL.match(t) and len(h['add']) == 1 and not h['rm']:
                        addback.append({'how': 'fill added', 'sha': c['sha'], 'parent': c['parent'],
                                        'file': f, 'old': None, 'new': n, 'text': t.strip()})
    return removal, addback


class Tree:
    """A git work tree of the mirror kept at one commit, as users have
    their checkout: a clone sharing the mirror's objects, its `.git`, the
    project's `.gitignore` and configuration files in place, so alloclint
    finds the project root, its sub-packages and its settings as it does
    for them. Sparse: the mirror lacks some large binary files (images),
    and only sources and configuration are checked out."""

    SPARSE = ['*.py', '*.pyi', '*.cu', '*.cuh', '*.cpp', '*.cc', '*.c', '*.h', '*.hpp',
              '*.toml', '*.cfg', '*.ini', '*.ipynb', '.gitignore', '.pre-commit-config.yaml']

    def __init__(self, git_dir, path):
        self.git_dir, self.path, self.rev = git_dir, path, None

    def _git(self, *args):
        return subprocess.run(['git', '-C', self.path, *args], capture_output=True, text=True,
                              errors='replace')

    def goto(self, rev):
        if self.rev == rev:
            return
        if self.rev is None:
            shutil.rmtree(self.path, ignore_errors=True)
            subprocess.run(['git', 'clone', '-q', '--shared', '--no-checkout',
                            os.path.abspath(self.git_dir), self.path], check=True)
            self._git('sparse-checkout', 'set', '--no-cone', *self.SPARSE)
        # The mirror's missing blobs lie outside the sparse patterns; git
        # still names them while it checks the index, so the commit the
        # work tree reached is what is checked, not the exit status.
        self._git('checkout', '-q', '--detach', '-f', rev)
        head = self._git('rev-parse', 'HEAD').stdout.strip()
        if head != git(self.git_dir, 'rev-parse', rev).strip():
            raise RuntimeError(f'work tree did not reach {rev}')
        self.rev = rev


def callee_before(text, q):
    """The callee of the call whose `(` is at q: (name, is a launch)."""
    k = q - 1
    while k >= 0 and text[k] in ' \t\n':
        k -= 1
    launch = False
    if k >= 0 and text[k] == ']':
        depth = 0
        while k >= 0:
            depth += text[k] == ']'
            depth -= text[k] == '['
            k -= 1
            if depth == 0:
                break
        launch = True
    end = k + 1
    while k >= 0 and (text[k].isalnum() or text[k] in '_.:'):
        k -= 1
    return text[k + 1:end], launch


def mechanism(lines, row, name):
    """How the buffer made on line `row` is written next, by a plain read."""
    if name is None:
        return 'other', None
    depth, i = 0, row
    while i <= len(lines):  # past the allocation statement
        t = lines[i - 1]
        depth += t.count('(') + t.count('[') + t.count('{') - t.count(')') - t.count(']') - t.count('}')
        i += 1
        if depth <= 0:
            break
    text = '\n'.join(lines[i - 1:i + 80])
    word = re.compile(r'(?<![\w.])' + re.escape(name.split('[')[0]) + r'\b')
    m = word.search(text)
    if not m:
        return 'other', None
    p, after = m.start(), text[m.end():m.end() + 80]
    if re.match(r'\s*(\[[^\]]*\])?\s*\.(copy_|fill_|zero_|normal_|uniform_)\(', after) or \
            re.match(r'\s*\[[^\]]*\]\s*=[^=]', after):
        return 'direct write', None
    # The innermost call holding the use.
    depth, q = 0, p - 1
    while q >= 0:
        c = text[q]
        if c in ')]}':
            depth += 1
        elif c in '([{':
            if depth == 0:
                break
            depth -= 1
        q -= 1
    if q < 0 or text[q] != '(':
        return 'other', None
    callee, launch = callee_before(text, q)
    if re.search(r'<<<', text[max(0, q - 200):q]):
        return 'cuda launch', None
    last = callee.split('.')[-1].split('::')[-1]
    if launch:
        return 'triton launch', last
    if callee.startswith('torch.ops.') or callee.startswith('ops.'):
        return 'custom op', last
    if re.search(r'\bout\s*=\s*$', text[q:p]):
        return 'out= of an op', last
    return ('call', last) if last else ('other', None)


def defined_in_repo(root, name, cache={}):
    """Whether `name` is defined (def, __global__/host function) under root."""
    if not name:
        return False
    key = (root, name)
    if key not in cache:
        pat = rf'(def {name}\b|\b{name}\s*\([^;{{)]*\)\s*\{{|void {name}\b)'
        r = subprocess.run(['grep', '-rIlE', '--include=*.py', '--include=*.cu', '--include=*.cpp',
                            '--include=*.cuh', '-m1', pat, root], capture_output=True, text=True)
        cache[key] = bool(r.stdout.strip())
    return cache[key]


def first_parent_order(git_dir):
    """Commit -> its position on the first-parent line, oldest first."""
    return {sha: i for i, sha in enumerate(reversed(git(git_dir, 'rev-list', '--first-parent', 'HEAD').split()))}


def run_alloclint(alloclint, tree, path, select='AL101,AL102,AL103'):
    r = subprocess.run([alloclint, 'check', '--select', select, '--output-format',
                        'json', '--exit-zero', path],
                       cwd=tree, capture_output=True, text=True)
    try:
        return json.loads(r.stdout or '[]')
    except json.JSONDecodeError:
        return []


# Names of kernel libraries, as they appear in callees and explain's steps.
LIBRARY = re.compile(r'(flashinfer|aiter|sgl_kernel|deep_?gemm|cutlass|trtllm|torch_npu|npu_|'
                     r'vllm_flash_attn|flash_attn|flash_mla|libraries\.toml|moe_align_block_size)')


def destination(alloclint, tree, path, row):
    """Where the buffer on `row` goes, read from `alloclint explain`: a
    library kernel, a registered (custom) op, a Triton kernel of the repo,
    or something else; and explain's verdict."""
    r = subprocess.run([alloclint, 'explain', f'{path}:{row}', '--output-format', 'json'],
                       cwd=tree, capture_output=True, text=True)
    try:
        cands = json.loads(r.stdout)['candidates']
    except (json.JSONDecodeError, KeyError, TypeError):
        return 'other', None
    for c in cands:
        if c['verdict'] == 'reported':
            continue
        text = ' '.join([c['summary']] + [s['text'] for s in c['steps']])
        # The most specific first: a Triton kernel's or an op's name may
        # hold a library's.
        if 'Triton kernel' in text or re.search(r'\w\[[^\]`]*\]\(', text):
            return 'repo Triton kernel', c['verdict']
        if 'custom op' in text or 'torch.ops.' in text or re.search(r'\bops\.\w+\(', text):
            return 'registered op', c['verdict']
        if LIBRARY.search(text):
            return 'library kernel', c['verdict']
        return 'other', c['verdict']
    return 'other', None


def verdict(findings, row, span=3):
    """The best finding on the allocation's statement (rows row..row+span)."""
    best = None
    for f in findings:
        if row <= f['location']['row'] <= row + span:
            tier = (f.get('fix') or {}).get('applicability', 'none')
            if best is None or tier == 'safe':
                best = (f['code'], tier, f['message'])
    return best


def kernel_changed(git_dir, sha):
    """Whether the commit also changes a C++/CUDA source file."""
    files = git(git_dir, 'show', '--name-only', '--format=', sha).split('\n')
    return any(f.endswith(('.cu', '.cuh', '.cpp', '.cc', '.c', '.h', '.hpp')) for f in files)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('git_dir')
    ap.add_argument('workdir')
    ap.add_argument('alloclint')
    ap.add_argument('--json')
    ap.add_argument('--limit', type=int, default=0, help='newest N commits only')
    a = ap.parse_args()
    alloclint = os.path.abspath(a.alloclint)
    removal, addback = sites_of(parse_log(a.git_dir, a.limit))
    tree = Tree(a.git_dir, os.path.abspath(a.workdir))
    results = []
    # Parents for removals, the commits themselves for addbacks; oldest first
    # keeps the diffs between successive trees small.
    jobs = [(s['parent'], s, 'removal') for s in removal] + [(s['sha'], s, 'addback') for s in addback]
    order = first_parent_order(a.git_dir)
    jobs.sort(key=lambda j: order.get(j[0], -1))
    cache = {}
    for rev, s, kind in jobs:
        tree.goto(rev)
        path = s['file']
        full = os.path.join(tree.path, path)
        if not os.path.exists(full):
            continue
        if (rev, path) not in cache:
            cache[(rev, path)] = run_alloclint(alloclint, tree.path, path)
        findings = cache[(rev, path)]
        row = s['old'] if kind == 'removal' else s['new']
        with open(full, encoding='utf-8', errors='replace') as fh:
            lines = fh.read().split('\n')
        name = target_of(s['text'])
        if s['how'] in ('fill dropped', 'fill added'):
            mech, callee = 'fill', None
        else:
            mech, callee = mechanism(lines, row, name)
        if path.endswith(SOURCE_EXT[1:]):
            mech = 'C++: ' + mech
        in_repo = mech in ('direct write', 'fill', 'C++: direct write') or \
            (callee is not None and defined_in_repo(tree.path, callee)) or 'cuda launch' in mech
        v = verdict(findings, row, 0 if s['how'].startswith('fill') else 3)
        dest, why = destination(alloclint, tree.path, path, row)
        results.append({**s, 'kind': kind, 'mechanism': mech, 'callee': callee, 'writer_in_repo': in_repo,
                        'kernel_changed': kernel_changed(a.git_dir, s['sha']),
                        'found': v is not None, 'safe': v is not None and v[1] == 'safe',
                        'finding': v, 'destination': dest, 'explained': why})
    # A removal made together with a kernel change may rely on the new
    # kernel: at the parent the zeros were needed. Checked again in the
    # commit's own tree with the file as it was before the commit, which
    # is what a user sees who changes the kernel first and runs alloclint.
    in_commit = {}
    for r in sorted((r for r in results if r['kind'] == 'removal' and r['kernel_changed']),
                    key=lambda r: order.get(r['sha'], -1)):
        key = (r['sha'], r['file'])
        if key not in in_commit:
            tree.goto(r['sha'])
            full = os.path.join(tree.path, r['file'])
            before = git(a.git_dir, 'show', f"{r['parent']}:{r['file']}", text=False)
            after = None
            if os.path.exists(full):
                with open(full, 'rb') as fh:
                    after = fh.read()
            with open(full, 'wb') as fh:
                fh.write(before)
            in_commit[key] = run_alloclint(alloclint, tree.path, r['file'])
            if after is None:
                os.remove(full)
            else:
                with open(full, 'wb') as fh:
                    fh.write(after)
        v = verdict(in_commit[key], r['old'], 0 if r['how'].startswith('fill') else 3)
        r['found_in_commit'] = v is not None
        r['safe_in_commit'] = v is not None and v[1] == 'safe'
    table = collections.OrderedDict()
    for r in results:
        key = (r['kind'], r['mechanism'] + (' (writer in repo)' if r['writer_in_repo'] else ''))
        t = table.setdefault(key, [0, 0, 0])
        t[0] += 1
        t[1] += r['found']
        t[2] += r['safe']
    print(f"history of {a.git_dir}: {len(removal)} removal sites, {len(addback)} addback sites")
    print('| kind | mechanism | sites | found | safe fix |')
    print('|---|---|---|---|---|')
    for (kind, mech), (n, found, safe) in sorted(table.items()):
        print(f'| {kind} | {mech} | {n} | {found} | {safe} |')
    # Where the buffer goes, as `alloclint explain` reads it in the tree.
    print()
    print('| kind | destination | sites | found | safe fix |')
    print('|---|---|---|---|---|')
    dests = collections.OrderedDict()
    for r in results:
        d = dests.setdefault((r['kind'], r['destination']), [0, 0, 0])
        d[0] += 1
        d[1] += r['found']
        d[2] += r['safe']
    for (kind, dest), (n, found, safe) in sorted(dests.items()):
        print(f'| {kind} | {dest} | {n} | {found} | {safe} |')
    for kind in ('removal', 'addback'):
        rs = [r for r in results if r['kind'] == kind and r['destination'] != 'other']
        print(f"{kind} to a library kernel, a registered op or a repo Triton kernel: {len(rs)} sites, "
              f"found {sum(r['found'] for r in rs)}, safe {sum(r['safe'] for r in rs)}")
    # A removal made together with a change to C++/CUDA sources may rely
    # on that change (a kernel that now writes what the zeros covered):
    # at the parent the zeros may have been needed.
    rs = [r for r in results if r['kind'] == 'removal' and r['destination'] != 'other']
    same = [r for r in rs if r['kernel_changed']]
    rest = [r for r in rs if not r['kernel_changed']]
    print(f"removal to a library kernel, a registered op or a repo Triton kernel, in a commit that "
          f"also changes C++/CUDA sources: {len(same)} sites, found {sum(r['found'] for r in same)}; "
          f"the others: {len(rest)} sites, found {sum(r['found'] for r in rest)}, "
          f"safe {sum(r['safe'] for r in rest)}")
    for kind in ('removal', 'addback'):
        rs = [r for r in results if r['kind'] == kind]
        inrepo = [r for r in rs if r['writer_in_repo']]
        print(f"{kind}: {len(rs)} sites, found {sum(r['found'] for r in rs)}, safe {sum(r['safe'] for r in rs)}; "
              f"writer in repo: {len(inrepo)}, found {sum(r['found'] for r in inrepo)}, "
              f"safe {sum(r['safe'] for r in inrepo)}")
    if a.json:
        with open(a.json, 'w') as fh:
            json.dump(results, fh, indent=1)


if __name__ == '__main__':
    sys.exit(main())
