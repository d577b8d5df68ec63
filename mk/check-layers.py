#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The stages of tools/perf/util/affinity, in one direction.

  mk/check-layers.py [--objs DIR] [TREE]

A sample goes through the folders of util/affinity as stages, each using
only its own and earlier ones:

  decode      samples to memory accesses (the instruction's operands)
  fields      struct layouts from DWARF (fa_struct, the pahole format)
  watch       where the variables to watch are (record --watch)
  accumulate  the accumulators: per type (counts, windows, transfers, the
              replay sample, the matrix, the groups for the intervals), the
              owners, the instances, the arrays of scalars
  attr        an access to a type, field and instance, added to the
              accumulators it holds (the session, the data lines, the
              accesses waiting for their instance)
  layout      what the analysis decides: classes, clusters, layouts, kept
  advice      members, the cost model, the edits, split, merge, --try
  output      the report: tables, stdio, JSON, heatmap, TUI
  check       check and diff of layouts and recordings, printed as the
              report prints

The checks, each of which fails the run:

  - a file including a header of a later stage (an include "running back
    up"), counted by file;
  - a circle of headers including each other;
  - with --objs (the build's objects of util/affinity): a file using a
    function of a later stage (a call back up, declared where it should
    not be), and a circle of files each using a function of the next (nm),
    but those in KNOWN, which are listed until they are gone.

Prints the folders, files, includes running back up and the circles.
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

STAGES = ['decode', 'fields', 'watch', 'accumulate', 'attr', 'layout', 'advice', 'output',
          'check']
# circles of files by the functions they use, still to be broken
KNOWN = []

INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def sources(tree):
    top = os.path.join(tree, 'tools/perf/util/affinity')
    files = sorted(glob.glob(os.path.join(top, '*', '*.[ch]')))
    return top, [os.path.relpath(f, top) for f in files]


def includes(top, rel):
    """the util/affinity headers @rel includes, relative to util/affinity"""
    out = []
    with open(os.path.join(top, rel)) as f:
        for inc in INCLUDE.findall(f.read()):
            path = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
            if not path.startswith('..') and os.path.exists(os.path.join(top, path)):
                out.append(path)
    return out


def rank(rel):
    folder = rel.split('/')[0]
    if folder not in STAGES:
        sys.exit('check-layers: %s is in no stage: add its folder to STAGES' % rel)
    return STAGES.index(folder)


def circles(graph):
    """the strongly connected components of more than one node (Tarjan)"""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def symbols(obj):
    defined, used = set(), set()
    out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TDBR':
            defined.add(f[2])
        elif len(f) == 2 and f[0] == 'U':
            used.add(f[1])
    return defined, used


def call_graph(objs, sources):
    """file -> the files whose functions it uses, from the objects of @sources"""
    files = {}
    for o in sorted(glob.glob(os.path.join(objs, '*', '*.o'))):
        rel = os.path.relpath(o, objs)[:-2]
        # not an object left from a source that moved
        if rel + '.c' in sources:
            files[rel] = symbols(o)
    owner = {s: f for f, (d, _) in files.items() for s in d}
    return {f: {owner[s] for s in u if s in owner and owner[s] != f}
            for f, (_, u) in files.items()}


def main():
    ap = argparse.ArgumentParser(description='util/affinity: stages in one direction')
    ap.add_argument('--objs', help="the build's objects of util/affinity (nm)")
    ap.add_argument('tree', nargs='?', default=os.path.join(os.path.dirname(__file__), '..'))
    args = ap.parse_args()

    top, files = sources(args.tree)
    if not files:
        sys.exit('check-layers: no tools/perf/util/affinity/ under %s' % args.tree)
    graph = {f: set(includes(top, f)) for f in files}
    back = [(f, h) for f in files for h in sorted(graph[f]) if rank(h) > rank(f)]
    header_circles = circles(graph)
    print('util/affinity: %d folders, %d files, stages %s' %
          (len({f.split('/')[0] for f in files}), len(files), ' -> '.join(STAGES)))
    for f, h in back:
        print('  back up: %s includes %s' % (f, h))
    for c in header_circles:
        print('  circle of headers: %s' % ' '.join(sorted(c)))
    print('includes running back up: %d, circles of headers: %d' %
          (len(back), len(header_circles)))
    bad = bool(back or header_circles)
    if args.objs:
        cg = call_graph(args.objs, set(files))
        up = [(f, g) for f in sorted(cg) for g in sorted(cg[f]) if rank(g) > rank(f)]
        for f, g in up:
            print('  call back up: %s uses functions of %s' % (f, g))
        print('calls running back up: %d' % len(up))
        calls = circles(cg)
        new = [c for c in calls if c not in KNOWN]
        for c in calls:
            print('  circle of files by their functions%s: %s' %
                  ('' if c in new else ' (known)', ' '.join(sorted(c))))
        print('circles of files by their functions: %d (%d known)' %
              (len(calls), len(calls) - len(new)))
        bad |= bool(new or up)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
