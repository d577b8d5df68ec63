#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare 'perf affinity layout' with pahole on structs of a binary taken
at random: how many print byte for byte the same, and the first differences.

  bench/pahole_cmp_all.py --perf build/perf build/kernel/vmlinux -n 3000
"""
import argparse
import difflib
import random
import re
import subprocess
import sys


def blocks_of(text):
    """struct name -> its block, the first of a name (pahole prints all)"""
    out = {}
    for blk in re.split(r'(?m)^(?=struct \w+ \{$)', text):
        m = re.match(r'struct (\w+) \{\n', blk)
        if not m:
            continue
        end = blk.find('\n}')
        nl = blk.find('\n', end + 1)
        out.setdefault(m.group(1), blk[:nl + 1] if nl > 0 else blk)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('binary')
    ap.add_argument('--perf', default='perf')
    ap.add_argument('-n', type=int, default=1000, help='structs to compare')
    ap.add_argument('-s', '--seed', type=int, default=4)
    ap.add_argument('--show', type=int, default=10, help='differences to print')
    args = ap.parse_args()

    theirs = blocks_of(subprocess.run(['pahole', args.binary], capture_output=True,
                                      text=True, check=True).stdout)
    names = sorted(theirs)
    random.seed(args.seed)
    sample = random.sample(names, min(args.n, len(names)))
    ours = blocks_of(subprocess.run([args.perf, 'affinity', 'layout', args.binary] + sample,
                                    capture_output=True, text=True).stdout)
    bad = [n for n in sample if theirs[n].strip() != ours.get(n, '').strip()]
    print(f'{len(sample) - len(bad)} of {len(sample)} structs print as pahole prints them')
    for n in bad[:args.show]:
        diff = [line for line in difflib.unified_diff(theirs[n].strip().split('\n'),
                                                       ours.get(n, '').strip().split('\n'),
                                                       lineterm='', n=0)
                if line[:1] in '+-' and line[:3] not in ('+++', '---')]
        print(f'struct {n}:\n    ' + '\n    '.join(diff[:6]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
