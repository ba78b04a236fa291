#!/usr/bin/env python3
"""Measures alloclint on the hand-made rewrites of issue 13 in a
repository's history (a bare mirror): the commits in which engineers

  pad       replaced a zero-padded prefix sum (`torch.cat([zeros(1), x])`,
            `F.pad(x, (1, 0))`, `torch.tensor([0])`) with a write into
            `buf[1:]` or an `out=` buffer                     (AL201, AL203)
  inplace   turned `x = x + y`, `x = x.clamp(...)`, `x = torch.add(x, ..)`,
            `x = x.masked_fill(...)` into the in-place method or `x += y`
            (AL401; not inside a Triton kernel, where nothing is
            allocated)
  np-pad    the NumPy twin of pad in host code: `np.pad(np.cumsum(..), (1, 0))`
            or `np.concatenate([[0], np.cumsum(..)])` into `out=buf[1:]`
                                                                      (AL201)
  fill-loop replaced `for i in range(..): buf[i].zero_()` (or fill_), or
            `for idx in t: buf[idx].zero_()`, with one fill of a slice or
            an index (`buf[t] = 0`)                                  (AL303)
  cat-parts replaced `torch.cat([torch.cos(x), torch.sin(x)], d)` (parts
            that are ops of one name) with ops writing slices of one
            output through `out=`                                    (AL204)
  list-stack replaced a list appended in a loop and stacked after it with
            a preallocated result                                   (AL205)
  hoist     moved an allocation (`torch.empty/zeros/ones/full(_like)`)
            out of the loop it was made in                          (AL301)

and the reverse of each (an in-place method or a `[1:]` write turned back
into the out-of-place form): there alloclint runs on the commit's own
file, and a safe fix would undo what an engineer had to put back.

For each site alloclint runs (all rules, AL401 included) on the parent
commit's file with the whole parent tree materialised, so the repo index
sees every file: *found* when the rule reports within the changed
statement, *proved* when that finding carries a safe fix.

Usage: bench/history_patterns.py GIT_DIR WORKDIR ALLOCLINT [--json OUT]
Prints a Markdown table. No code of the repository is written anywhere
but WORKDIR.
"""
import argparse
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from history import Tree, first_parent_order, git, run_alloclint  # noqa: E402

RULES = {'pad': ('AL201', 'AL203'), 'np-pad': ('AL201',), 'inplace': ('AL401',), 'fill-loop': ('AL303',),
         'cat-parts': ('AL204',), 'list-stack': ('AL205',), 'hoist': ('AL301',)}
APPEND = re.compile(r'^\s*(\w+)\.append\(')
STACK_OF = r'torch\.(stack|cat|concat)\(\s*{name}\b'
PREALLOC = re.compile(r'torch\.(empty|zeros)\(')
ALLOC = re.compile(r'^(\s+)(\w+)\s*=\s*torch\.(empty|zeros|ones|full|empty_like|zeros_like|ones_like)\(')

PAD_OLD = re.compile(r'(torch\.(cat|concat)\s*\(|\bF\.pad\s*\(|functional\.pad\s*\()')
NP_PAD_OLD = re.compile(r'\b(np|numpy)\.(pad|concatenate)\s*\(.*cumsum')
# `buf[1:...]` / `out=buf[1:` / `buf[:1].zero_()`: the buffer's last name.
BUFFER_NAME = re.compile(r'(\w+)\s*\[\s*(?:1\s*:|:\s*1\s*\]\s*\.zero_)')
# `x = <pad>` or `x[...].copy_(<pad>` / `x.copy_(<pad>`: the buffer padded into.
PAD_TARGET = re.compile(r'^\s*([\w.]+)\s*(?:\[[^\]]*\])?\s*(?:=|\.copy_\()')
# Methods and functions with an in-place twin (`x.add_`, `x.clamp_`, ...).
TWINNED = ('add|sub|mul|div|clamp|clamp_min|clamp_max|masked_fill|masked_scatter|minimum|maximum|'
           'pow|exp|sigmoid|tanh|relu|neg|abs|sqrt|rsqrt|log|floor|round|scatter|scatter_add|'
           'index_fill|index_add|index_copy|copy|fill|zero|lerp|addcmul|addcdiv|reciprocal|silu|gelu|'
           't|transpose|unsqueeze|squeeze|where|bitwise_and|'
           'bitwise_or|logical_and|logical_or')
INPLACE_OLD = re.compile(r'^\s*([A-Za-z_]\w*)\s*=\s*(?:\1\s*(?:[-+*/]|//|\*\*)\s*\S|\S.*?\s[-+*]\s*\1\s*$|'
                         r'\1\.(?:%s)\(|(?:torch|F)\.(?:%s)\(\s*\1\s*[,)])' % (TWINNED, TWINNED))
OP_METHOD = {'+': 'add', '-': 'sub', '*': 'mul', '/': 'div'}


OPEN_ASSIGN = re.compile(r'^(\s*[A-Za-z_]\w*\s*=\s*)\(\s*$')


def logical_lines(lines):
    """The hunk's lines with `x = (` continued on the lines after it (of
    consecutive numbers, up to the closing parenthesis, or to the hunk's
    end when that line is unchanged) joined into one line `x = ...`: a
    long `x = (x + y)` is the same site."""
    out, i = [], 0
    while i < len(lines):
        no, t = lines[i]
        m = OPEN_ASSIGN.match(t)
        if m:
            depth, parts, j = 1, [], i + 1
            while j < len(lines) and lines[j][0] == lines[j - 1][0] + 1 and depth > 0:
                u = lines[j][1]
                depth += u.count('(') - u.count(')')
                parts.append(u.strip())
                j += 1
            # With -U0 an unchanged `)` line may close it outside the hunk.
            if depth in (0, 1) and parts:
                inner = ' '.join(parts)
                if depth == 0:
                    inner = inner[:inner.rfind(')')].strip()
                out.append((no, m.group(1) + inner))
                i = j
                continue
        out.append((no, t))
        i += 1
    return out


def loop_counter(lines, row, name):
    """Whether `name` is bound, in the function around line `row`, as the
    index of `enumerate(...)` or the target of `range(...)`: an int, which
    has no in-place form (`x += 1` rebinds it)."""
    n = re.escape(name)
    counter = re.compile(r'^\s*(?:async\s+)?for\s+(?:\(?\s*%s\s*,.*\bin\s+enumerate\(|%s\s+in\s+range\()'
                         % (n, n))
    for i in range(row - 1, -1, -1):
        t = lines[i]
        if counter.match(t):
            return True
        if re.match(r'^\s*(?:async\s+)?def\s', t):
            return False
    return False


def inplace_form_of(line, name):
    """Any in-place update of `name` (issue 43 widens the miner from the
    same operation to any in-place form): `x op= ...`, `x.meth_(...)`,
    `torch.meth_(x, ...)`. The out-of-place line itself must be gone from
    the other side, which `sites` checks: a moved line is no site."""
    n = re.escape(name)
    return (r'^\s*(?:%s\s*(?:[-+*/&|^]|//|\*\*)=\s*\S|%s\.[a-z]\w*_\(|'
            r'torch\.[a-z]\w*_\(\s*%s\s*[,)])' % (n, n, n))


# A decorator that makes the function below a Triton kernel: its values
# are registers, not tensors, and `x = x * y` there allocates nothing.
TRITON_DECORATOR = re.compile(r'^\s*@(triton\.jit|tl\.jit|triton\.autotune|triton\.heuristics|jit)\b')


def in_loop(lines, row):
    """Whether line `row` (1-based) lies in the body of a `for` or
    `while` loop of its function."""
    text = lines[row - 1]
    indent = len(text) - len(text.lstrip())
    for i in range(row - 2, -1, -1):
        t = lines[i]
        if not t.strip() or t.lstrip().startswith((')', ']', '}', '#')):
            continue
        ind = len(t) - len(t.lstrip())
        if ind < indent:
            if t.lstrip().startswith(('for ', 'while ', 'async for ')):
                return True
            if t.lstrip().startswith(('def ', 'class ', 'async def ')):
                return False
            indent = ind
    return False


def in_triton_kernel(lines, row):
    """Whether line `row` (1-based) lies in a function decorated as a
    Triton kernel: the nearest `def` above it with less indentation."""
    text = lines[row - 1]
    indent = len(text) - len(text.lstrip())
    for i in range(row - 2, -1, -1):
        t = lines[i]
        if not t.strip() or t.lstrip().startswith((')', ']', '}', '#')):
            continue  # blank, a comment, or the close of a signature or call
        ind = len(t) - len(t.lstrip())
        if ind < indent and t.lstrip().startswith('def '):
            # its decorators, which may span lines
            j = i - 1
            while j >= 0:
                u = lines[j]
                uind = len(u) - len(u.lstrip())
                if TRITON_DECORATOR.match(u):
                    return True
                if u.strip() and uind <= ind and not u.lstrip().startswith(('@', ')', ']', '}')):
                    return False
                j -= 1
            return False
        if ind < indent:
            indent = ind
    return False
# `for i in range(..):` or `for idx in t:` (an index tensor or list)
LOOP_HEAD = re.compile(r'^\s*for\s+(\w+)\s+in\s+\S')
LOOP_FILL = r'\[\s*{var}\s*\]\s*\.(zero_|fill_)\('
SLICE_FILL = re.compile(r'\[[^\]]*:[^\]]*\]\s*\.(zero_|fill_)\(|\[[^\]]+\]\s*=\s*(0|0\.0|False)\s*$')
# torch.cat([torch.op(x), ...]) / ([x.op(), ...]) / ([-x, ...]): x
CAT_PARTS = re.compile(r'torch\.(?:cat|concat|concatenate)\s*\(\s*[\[(]\s*'
                       r'(?:torch\.\w+\(\s*(\w+)\s*\)|(\w+)\.\w+\(\s*\)|-(\w+)\b)')
OUT_WRITE = r'\b\w+\(\s*{name}\s*,[^\n]*\bout\s*='


def hunks(git_dir):
    """(sha, parent, file, [(old_no, text)], [(new_no, text)]) per hunk."""
    out = git(git_dir, 'log', '--format=@@C %H %P', '-p', '-U0', '--no-renames', '--first-parent',
              '-G', r'(cumsum|\.pad\(|_\(|range\(|out=|\.append\(|torch\.(empty|zeros|ones|full))',
              '--', '*.py')
    sha = parent = path = None
    old_no = new_no = 0
    cur = None
    for line in out.split('\n'):
        if line.startswith('@@C '):
            parts = line.split()
            sha, parent = parts[1], (parts[2] if len(parts) > 2 else None)
            continue
        if line.startswith('+++ '):
            path = line[6:] if line.startswith('+++ b/') else None
            continue
        if line.startswith('--- '):
            continue
        m = re.match(r'^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@', line)
        if m:
            if cur:
                yield cur
            old_no, new_no = int(m.group(1)), int(m.group(2))
            cur = (sha, parent, path, [], [])
            continue
        if cur is None or path is None or not parent:
            continue
        if line.startswith('-'):
            cur[3].append((old_no, line[1:]))
            old_no += 1
        elif line.startswith('+'):
            cur[4].append((new_no, line[1:]))
            new_no += 1
    if cur:
        yield cur


def sites(git_dir):
    found = []
    for sha, parent, path, old, new in hunks(git_dir):
        if not path or not parent:
            continue
        old_text = '\n'.join(t for _, t in old)
        new_text = '\n'.join(t for _, t in new)
        # pad: a padded prefix sum out, a [1:] / out= write into the same
        # buffer in (and the reverse: such a write turned back into padding)
        for src, dst, kind in ((old, new, 'removal'), (new, old, 'reverse')):
            dst_text = '\n'.join(t for _, t in dst)
            written = set(BUFFER_NAME.findall(dst_text))
            for i, (no, t) in enumerate(src):
                # the target may end the line before: `x = (` / `x.copy_(`
                target = PAD_TARGET.match(t) or (i > 0 and PAD_TARGET.match(src[i - 1][1]))
                pattern = 'np-pad' if NP_PAD_OLD.search(t) else 'pad' if PAD_OLD.search(t) else None
                if (pattern and target and target.group(1).split('.')[-1] in written and
                        not BUFFER_NAME.search('\n'.join(x for _, x in src))):
                    found.append(dict(pattern=pattern, kind=kind, sha=sha, parent=parent, file=path,
                                      row=no, text=t.strip()))
                    break
        # inplace, both ways
        for src, dst, kind in ((old, new, 'removal'), (new, old, 'reverse')):
            for no, t in logical_lines(src):
                m = INPLACE_OLD.match(t)
                if not m:
                    continue
                name = m.group(1)
                pat = re.compile(inplace_form_of(t, name))
                if any(pat.match(t2) for _, t2 in dst) and \
                        t.strip() not in {t2.strip() for _, t2 in dst}:
                    found.append(dict(pattern='inplace', kind=kind, sha=sha, parent=parent, file=path,
                                      row=no, text=t.strip()))
        # cat-parts, both ways: the cat out, ops writing with out= in
        for src, dst, kind in ((old, new, 'removal'), (new, old, 'reverse')):
            dst_text = '\n'.join(t for _, t in dst)
            for no, t in src:
                m = CAT_PARTS.search(t)
                name = m and (m.group(1) or m.group(2) or m.group(3))
                if name and re.search(OUT_WRITE.format(name=re.escape(name)), dst_text):
                    found.append(dict(pattern='cat-parts', kind=kind, sha=sha, parent=parent, file=path,
                                      row=no, text=t.strip()))
                    break
        # list-stack: a list appended in a loop and stacked out, a
        # preallocated result in (AL205); one site per hunk
        for no, t in old:
            m = APPEND.match(t)
            if m and re.search(STACK_OF.format(name=re.escape(m.group(1))), old_text) and \
                    not re.search(r'\b%s\.append\(' % re.escape(m.group(1)), new_text) and \
                    PREALLOC.search(new_text):
                found.append(dict(pattern='list-stack', kind='removal', sha=sha, parent=parent, file=path,
                                  row=no, text=t.strip()))
                break
        # hoist: an allocation out at one indentation, the same in at a
        # shallower one (AL301; kept only when the old line was in a loop)
        for no, t in old:
            m = ALLOC.match(t)
            if not m:
                continue
            for no2, t2 in new:
                m2 = re.match(r'^(\s*)%s\s*=\s*torch\.%s\(' % (re.escape(m.group(2)), m.group(3)), t2)
                if m2 and len(m2.group(1)) < len(m.group(1)):
                    found.append(dict(pattern='hoist', kind='removal', sha=sha, parent=parent, file=path,
                                      row=no, text=t.strip()))
                    break
        # fill-loop: the loop out, a slice fill in
        for i, (no, t) in enumerate(old):
            m = LOOP_HEAD.match(t)
            if m and i + 1 < len(old) and re.search(LOOP_FILL.format(var=re.escape(m.group(1))), old[i + 1][1]) \
                    and SLICE_FILL.search(new_text):
                found.append(dict(pattern='fill-loop', kind='removal', sha=sha, parent=parent, file=path,
                                  row=old[i + 1][0], text=old[i + 1][1].strip()))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('git_dir')
    ap.add_argument('workdir')
    ap.add_argument('alloclint')
    ap.add_argument('--json')
    a = ap.parse_args()
    alloclint = os.path.abspath(a.alloclint)
    ss = sites(a.git_dir)
    tree = Tree(a.git_dir, os.path.abspath(a.workdir))
    order = first_parent_order(a.git_dir)
    # Removals are judged on the parent, reverses on the commit itself.
    jobs = [((s['parent'] if s['kind'] == 'removal' else s['sha']), s) for s in ss]
    jobs.sort(key=lambda j: order.get(j[0], -1))
    cache, results = {}, []
    for rev, s in jobs:
        tree.goto(rev)
        if not os.path.exists(os.path.join(tree.path, s['file'])):
            continue
        if s['pattern'] in ('inplace', 'hoist'):
            with open(os.path.join(tree.path, s['file']), encoding='utf-8', errors='replace') as fh:
                lines = fh.read().split('\n')
            if s['pattern'] == 'inplace' and in_triton_kernel(lines, s['row']):
                continue
            if s['pattern'] == 'inplace' and loop_counter(lines, s['row'], INPLACE_OLD.match(s['text']).group(1)):
                continue
            if s['pattern'] == 'hoist' and not in_loop(lines, s['row']):
                continue
        if (rev, s['file']) not in cache:
            cache[(rev, s['file'])] = run_alloclint(alloclint, tree.path, s['file'], 'ALL')
        codes = RULES[s['pattern']]
        if s['pattern'] == 'list-stack':
            # reported at the stack, which may lie outside the hunk: by the list's name
            name = APPEND.match(s['text']).group(1) if APPEND.match(s['text']) else s['text']
            hits = [f for f in cache[(rev, s['file'])]
                    if f['code'] in codes and f'`{name}`' in f['message']]
        else:
            hits = [f for f in cache[(rev, s['file'])]
                    if f['code'] in codes and s['row'] - 3 <= f['location']['row'] <= s['row'] + 1]
        safe = [f for f in hits if (f.get('fix') or {}).get('applicability') == 'safe']
        unsafe = [f for f in hits if (f.get('fix') or {}).get('applicability') == 'unsafe']
        results.append({**s, 'found': bool(hits), 'safe': bool(safe), 'unsafe': bool(unsafe) and not safe,
                        'finding': (hits[0]['code'], hits[0]['message']) if hits else None})
    table = collections.OrderedDict()
    for r in results:
        t = table.setdefault((r['pattern'], r['kind']), [0, 0, 0, 0])
        t[0] += 1
        t[1] += r['found']
        t[2] += r['safe']
        t[3] += r['unsafe']
    print(f"history of {a.git_dir}: {len(results)} sites")
    print('| pattern | kind | sites | found | safe fix | unsafe fix only |')
    print('|---|---|---|---|---|---|')
    for (p, k), (n, f, s, u) in sorted(table.items()):
        print(f'| {p} | {k} | {n} | {f} | {s} | {u} |')
    if a.json:
        with open(a.json, 'w') as fh:
            json.dump(results, fh, indent=1)


if __name__ == '__main__':
    main()
