#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Latency and peak RSS of perf affinity report on real recordings.

    python3 bench/report_latency.py [-r ROUNDS] [-b BASE] [-d DIR] PERF [NAME=FILE[,VMLINUX] ...]

The recordings, unless given:

    lockshare, refshare   make demo's recordings of perf's own workloads
                          (perf itself: a -O2 program with large DWARF),
                          recorded into DIR when they are not there
    synth-15k             15,000 PEBS-shaped samples at the struct rq
                          instructions of the vmlinux of make kernel-fetch
                          ('perf bench affinity kernel-synth'), into DIR
    guest-tcp, guest-rq   make kernel-record's recordings of a Debian 6.12
                          kernel in a guest, reported against its vmlinux
                          (each skipped when build/kernel has none)

In every round, in an order that rotates from round to round, on each
file (-k VMLINUX for the kernel ones):

    perf affinity report --stdio -i F
    perf report --stdio -i F
    perf report --stdio -s type,typeoff -i F

with stdout to /dev/null; the wall time and peak RSS (wait4()) of each.
Prints the medians and the median of the per-round ratios of perf
affinity report to perf report -s type,typeoff.  With -b BASE (the build
before a change) 'BASE affinity report' runs in every round too, and its
stdout must be byte for byte that of PERF's.

The targets of the speed work (#35): make demo's lockshare report in 1 s
or less, a 15 k-sample kernel recording in 3 s or less, and no report
above 500 MB of peak RSS.
"""
import argparse
import os
import statistics
import subprocess
import sys

from report_throughput import run

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def record_demo(perf, path, workload):
    """Record workload as make demo does, if path is not there yet."""
    if os.path.exists(path):
        return
    print("recording %s" % path, file=sys.stderr)
    subprocess.run([perf, "affinity", "record", "-o", path, "--", perf, "test", "-w",
                    workload, "2000"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def default_files(perf, outdir):
    """(name, perf.data, vmlinux or None) of the default recordings."""
    files = []
    os.makedirs(outdir, exist_ok=True)
    for w in ("lockshare", "refshare"):
        path = os.path.join(outdir, w + ".data")
        record_demo(perf, path, w)
        files.append((w, path, None))
    kdir = os.path.join(TOP, "build", "kernel")
    vmlinux = os.path.join(kdir, "vmlinux")
    if os.path.exists(vmlinux):
        path = os.path.join(outdir, "kernel-synth.data")
        if not os.path.exists(path):
            print("synthesizing %s" % path, file=sys.stderr)
            subprocess.run([perf, "bench", "affinity", "kernel-synth", "-k", vmlinux, "-o",
                            path, "-c", "4", "-n", "15000"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        files.append(("synth-15k", path, vmlinux))
    for name in ("tcp", "rq"):
        path = os.path.join(kdir, "guest", name + ".data")
        if os.path.exists(path) and os.path.exists(vmlinux):
            files.append(("guest-" + name, path, vmlinux))
        else:
            print("no %s (make kernel-record): skipped" % path, file=sys.stderr)
    return files


def samples(perf, path):
    """The number of samples in path, from perf report --stats."""
    out = subprocess.run([perf, "report", "--stats", "-i", path], capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if line.strip().startswith("SAMPLE events:"):
            return int(line.split()[2])
    return 0


def commands(perf, base, path, vmlinux):
    """The named commands timed on one file."""
    k = ["-k", vmlinux] if vmlinux else []
    cmds = [("affinity", [perf, "affinity", "report", "--stdio", "-i", path] + k),
            ("report", [perf, "report", "--stdio", "-i", path] + k),
            ("type", [perf, "report", "--stdio", "-s", "type,typeoff", "-i", path] + k)]
    if base:
        cmds.append(("base", [base, "affinity", "report", "--stdio", "-i", path] + k))
    return cmds


def same(perf, base, path, vmlinux):
    """base's affinity report prints what perf's does."""
    k = ["-k", vmlinux] if vmlinux else []
    outs = [subprocess.run([p, "affinity", "report", "--stdio", "-i", path] + k,
                           capture_output=True).stdout for p in (perf, base)]
    return outs[0] == outs[1]


def bench(perf, base, name, path, vmlinux, rounds):
    """Print the medians of the commands on one file."""
    cmds = commands(perf, base, path, vmlinux)
    times = {n: [] for n, _ in cmds}
    rss = {n: [] for n, _ in cmds}
    ratios = []
    for r in range(rounds):
        order = cmds[r % len(cmds):] + cmds[:r % len(cmds)]
        this = {}
        for n, cmd in order:
            wall, kib, _ = run(cmd)
            times[n].append(wall)
            rss[n].append(kib)
            this[n] = wall
        ratios.append(this["affinity"] / this["type"])
    print("%-10s %7d samples" % (name, samples(perf, path)))
    for n, _ in cmds:
        print("  %-9s %8.2f s %8.0f MB" % (n, statistics.median(times[n]),
                                           statistics.median(rss[n]) / 1024))
    print("  affinity / type: %.2fx (median of %d rounds)" % (statistics.median(ratios),
                                                              rounds))
    if base:
        print("  affinity / base: %.2fx, output %s" %
              (statistics.median(times["affinity"]) / statistics.median(times["base"]),
               "the same" if same(perf, base, path, vmlinux) else "DIFFERENT"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-r", "--rounds", type=int, default=5)
    ap.add_argument("-b", "--base", help="the perf before a change")
    ap.add_argument("-d", "--dir", default="/tmp/affinity-latency",
                    help="where the demo recordings are made")
    ap.add_argument("perf")
    ap.add_argument("files", nargs="*", help="NAME=perf.data[,vmlinux]")
    args = ap.parse_args()
    perf = os.path.abspath(args.perf)
    base = os.path.abspath(args.base) if args.base else None
    files = []
    for spec in args.files:
        name, _, rest = spec.partition("=")
        path, _, vmlinux = rest.partition(",")
        if not path or not os.path.exists(path):
            sys.exit("%s: no such perf.data" % spec)
        files.append((name, path, vmlinux or None))
    if not files:
        files = default_files(perf, args.dir)
    for name, path, vmlinux in files:
        bench(perf, base, name, path, vmlinux, args.rounds)


if __name__ == "__main__":
    main()
