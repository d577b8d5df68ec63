#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check decoded data addresses against the truth.

usage: affinity_decode_check.py ADDRS ACCESSES PERF_BINARY

ADDRS is what 'perf test -w <workload> <msecs> addr' printed: the object's
base and size, its fields and the functions that access it.  ACCESSES is
'perf affinity report --dump-raw-accesses -x ;'.  The truth for every
struct access of those functions is its displacement from the struct
pointer (%rdi, or %rdx holding a copy of it) as objdump disassembles it.

Every sample at such an instruction counts, decoded or dropped; at least
95% must decode to base + displacement with the field's size.
"""
import re
import subprocess
import sys

MIN_SAMPLES = 50
MIN_RATIO = 0.95
MEM_OPERAND = re.compile(r'(?<![\w:])(-?0x[0-9a-f]+)?\(%r(di|dx)\)')


def read_addrs(path):
    base, fields, funcs = None, {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'field':
                fields[int(w[3])] = (w[1], int(w[4]))
            elif w[0] == 'func':
                funcs[w[1]] = int(w[2], 16)
            elif len(w) == 3:
                base = int(w[1], 16)
    return base, fields, funcs


def truth_of(perf, funcs):
    """Runtime IP -> displacement, for the struct accesses of funcs."""
    truth = {}
    for func, runtime in funcs.items():
        out = subprocess.run(['objdump', '-d', '--no-show-raw-insn',
                              '--disassemble=' + func, perf],
                             capture_output=True, text=True, check=True).stdout
        start = None
        for line in out.splitlines():
            m = re.match(r'^([0-9a-f]+) <(.*)>:$', line)
            if m:
                start = int(m.group(1), 16) if m.group(2) == func else None
                continue
            m = re.match(r'^\s+([0-9a-f]+):\t(.*)$', line)
            if not m or start is None or '%fs:' in m.group(2):
                continue
            op = MEM_OPERAND.search(m.group(2))
            if op:
                truth[runtime + int(m.group(1), 16) - start] = int(op.group(1) or '0', 16)
    return truth


def main():
    base, fields, funcs = read_addrs(sys.argv[1])
    truth = truth_of(sys.argv[3], funcs)
    total = good = 0
    with open(sys.argv[2]) as f:
        for line in f:
            if line.startswith('#'):
                continue
            col = line.rstrip('\n').split(';')
            ip, addr, size, op = int(col[4], 16), int(col[5], 16), int(col[6]), col[7]
            if ip not in truth:
                continue
            total += 1
            want = base + truth[ip]
            want_size = fields.get(truth[ip], (None, size))[1]
            if op != 'drop' and addr == want and size == want_size:
                good += 1
            else:
                print(f'  ip {ip:#x}: {op} {addr:#x} size {size}, want {want:#x} size {want_size}')
    ratio = good / total if total else 0
    print(f'{good} of {total} samples at {len(truth)} struct access instructions '
          f'decode to the right field address ({ratio:.1%})')
    return 0 if total >= MIN_SAMPLES and ratio >= MIN_RATIO else 1


if __name__ == '__main__':
    sys.exit(main())
