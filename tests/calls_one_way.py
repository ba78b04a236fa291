#!/usr/bin/env python3
"""No two files of src/ call each other, directly or around a circle.

Reads the object files of the core library (nm -P): a file calls another
when it uses a function (a text symbol) that the other alone defines. The
files' call graph must have no circle of two files or more; a circle is
printed with, for each step, the functions that tie it. Data symbols are
not calls: a table of function pointers filled by a file above (the
languages table, al_index_upcall, al_fresh_objects) is how a mutual
recursion turns back without a circle of files.

Usage: tests/calls_one_way.py OBJECT_DIR
       tests/calls_one_way.py --self-test OBJECT_DIR   (passes when the check
       finds the circle it adds to the graph: two files made to call each
       other)
"""
import os
import subprocess
import sys


def read_objects(root):
    defined, used = {}, {}
    for dirpath, _, names in os.walk(root):
        for n in sorted(names):
            if not n.endswith('.o'):
                continue
            path = os.path.join(dirpath, n)
            unit = os.path.relpath(path, root)
            unit = unit[:-len('.o')]
            out = subprocess.run(['nm', '-P', path], capture_output=True, text=True,
                                 check=True).stdout
            uses = used.setdefault(unit, set())
            for line in out.splitlines():
                parts = line.split()
                if len(parts) < 2:
                    continue
                sym, kind = parts[0], parts[1]
                if kind == 'T':
                    defined.setdefault(sym, set()).add(unit)
                elif kind == 'U':
                    uses.add(sym)
    return defined, used


def call_graph(defined, used):
    edges = {}
    for unit, syms in used.items():
        for s in syms:
            owners = defined.get(s, set())
            if len(owners) == 1:
                (owner,) = owners
                if owner != unit:
                    edges.setdefault(unit, {}).setdefault(owner, set()).add(s)
    return edges


def circles(units, edges):
    """Strongly connected components of more than one unit (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for u in sorted(units):
        if u not in index:
            visit(u)
    return out


def report(found, edges):
    for comp in found:
        print('calls_one_way: a circle of %d files:' % len(comp), file=sys.stderr)
        members = set(comp)
        for a in comp:
            for b, syms in sorted(edges.get(a, {}).items()):
                if b in members:
                    print('  %s -> %s: %s' % (a, b, ', '.join(sorted(syms)[:6])), file=sys.stderr)


def main(argv):
    self_test = len(argv) > 1 and argv[1] == '--self-test'
    args = argv[2:] if self_test else argv[1:]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    defined, used = read_objects(args[0])
    if not used:
        print('calls_one_way: no object files under %s' % args[0], file=sys.stderr)
        return 2
    edges = call_graph(defined, used)
    if self_test:
        # Make the first file that calls another be called back by it.
        for a in sorted(edges):
            b = sorted(edges[a])[0]
            edges.setdefault(b, {}).setdefault(a, set()).add('(added by the self-test)')
            break
        found = circles(used.keys(), edges)
        if not found:
            print('calls_one_way: the self-test added a circle and it was not found',
                  file=sys.stderr)
            return 1
        return 0
    found = circles(used.keys(), edges)
    report(found, edges)
    if found:
        return 1
    n = sum(len(v) for v in edges.values())
    print('calls_one_way: %d files, %d calls between files, no circle' % (len(used), n))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
