#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Overhead of perf affinity software address sampling on a CPU-bound workload.

Runs bench/cpubound unprofiled and under 'perf affinity record --sw' at
several sample periods, alternating them in every round so that a noisy
machine affects all alike, and prints the median run time of each and its
ratio to the unprofiled median.  'work' is the workload's own timing of its
loop (the sampling overhead); 'wall' includes perf's start-up and writing
perf.data.

usage: sw_overhead.py PERF [ROUNDS] [PERIODS_NS...]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def build_workload(tmp):
    exe = os.path.join(tmp, 'cpubound')
    subprocess.run(['gcc', '-O2', '-g', '-o', exe, os.path.join(HERE, 'cpubound.c')],
                   check=True)
    return exe


def run(cmd):
    t0 = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return float(out.split()[0]), time.monotonic() - t0


def main():
    perf = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    periods = [int(p) for p in sys.argv[3:]] or [250000, 500000, 1000000, 2000000]
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_workload(tmp)
        data = os.path.join(tmp, 'perf.data')
        configs = [('unprofiled', [exe])]
        for p in periods:
            configs.append((f'--sw-period {p}',
                            [perf, 'affinity', 'record', '-q', '--sw', '--sw-period', str(p),
                             '-o', data, '--', exe]))
        runs = {name: ([], []) for name, _ in configs}
        run([exe])                              # warm up caches and the CPU
        for r in range(rounds):
            for name, cmd in configs:
                work, wall = run(cmd)
                runs[name][0].append(work)
                runs[name][1].append(wall)
            print(f'round {r + 1}/{rounds} done', file=sys.stderr)
        base_work = statistics.median(runs['unprofiled'][0])
        base_wall = statistics.median(runs['unprofiled'][1])
        print(f'{"configuration":<24} {"work (s)":>9} {"ratio":>7} {"wall (s)":>9} {"ratio":>7}')
        for name, _ in configs:
            work = statistics.median(runs[name][0])
            wall = statistics.median(runs[name][1])
            print(f'{name:<24} {work:9.3f} {work / base_work:7.3f} {wall:9.3f} '
                  f'{wall / base_wall:7.3f}')
        print(f'medians of {rounds} rounds; {os.cpu_count()} CPUs')


if __name__ == '__main__':
    main()
