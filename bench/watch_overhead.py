#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Overhead of perf affinity record --watch against sampling alone.

Two fixed-work workloads, each run unprofiled, under 'perf affinity record'
(software address sampling at its default period) and under 'record
--watch' on a field at the default watch period, the configurations
alternating in every round: bench/cpubound.c (one thread, an array of
structs; the watch is on one element's counter, hit once every 4096
iterations) and bench/layouts/roles.c (the perf c2c talk's false sharing
program; the watch is on the lock word the lock thread writes all the
time, then on a field the timed reader thread reads every iteration), at
the default duty cycle (5% of every 100 ms armed), 1% and 20%; and
'--watch auto' (sampling at 4 kHz to learn the line, for 500 ms, up to
2 s where no line two threads share is seen: cpubound has one thread).
The times are the workloads' own timing of their work; medians and ratios
to the unprofiled median are printed.

usage: watch_overhead.py PERF [ROUNDS]
"""
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# None: the default duty cycle; every access traps at 100: far too slow here
DUTIES = [None, 1, 20]


def build(tmp):
    cpubound = os.path.join(tmp, 'cpubound')
    roles = os.path.join(tmp, 'roles')
    subprocess.run(['gcc', '-O2', '-g', '-o', cpubound, os.path.join(HERE, 'cpubound.c')],
                   check=True)
    subprocess.run(['gcc', '-O2', '-g', '-pthread', '-DLAYOUT="roles.h"',
                    '-I', os.path.join(HERE, 'layouts'), '-o', roles,
                    os.path.join(HERE, 'layouts', 'roles.c')], check=True)
    return cpubound, roles


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return float(out.split()[0])


def main():
    perf = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as tmp:
        cpubound, roles = build(tmp)
        data = os.path.join(tmp, 'perf.data')
        rec = [perf, 'affinity', 'record', '-q', '-o', data]
        workloads = [
            ('cpubound', [cpubound, '600'], ['items+8/8', 'auto']),
            ('roles', [roles, '2000000000'], ['buf.lock0', 'buf.reader1', 'auto']),
        ]
        for name, cmd, watches in workloads:
            configs = [('unprofiled', cmd), ('sampling', rec + ['--'] + cmd)]
            for w in watches:
                # auto: learning, then the default duty on what it learned
                for duty in DUTIES if w != 'auto' else [None]:
                    opt = ['--watch-duty', str(duty)] if duty else []
                    configs.append((f'--watch {w} ' + (f'--watch-duty {duty}' if duty else '(5%)'),
                                    rec + ['--watch', w] + opt + ['--'] + cmd))
            runs = {c: [] for c, _ in configs}
            run(cmd)
            for r in range(rounds):
                for c, argv in configs:
                    runs[c].append(run(argv))
                print(f'{name}: round {r + 1}/{rounds} done', file=sys.stderr)
            base = statistics.median(runs['unprofiled'])
            print(f'{name}')
            print(f'  {"configuration":<44} {"work (s)":>9} {"ratio":>7}')
            for c, _ in configs:
                m = statistics.median(runs[c])
                print(f'  {c:<44} {m:9.3f} {m / base:7.3f}')
        print(f'medians of {rounds} rounds; {os.cpu_count()} CPUs')


if __name__ == '__main__':
    main()
