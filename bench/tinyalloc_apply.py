#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Time perf affinity's merge and split advice on tinyalloc, applied by hand.

    python3 bench/tinyalloc_apply.py [-d DIR] [-r ROUNDS] [-n OPS] [--perf PERF]

tools/perf/tests/workloads/tinyalloc.c models an allocator's fast path
(see its header).  perf affinity should advise two changes for it: to merge
the parallel thread-local arrays tiny_head[] and tiny_count[] into one array
of struct tiny_cache, and to split struct tiny_slab_meta into a hot array
(freelist, used, capacity) and a cold one.  The workload has both layouts
behind -DTINY_MERGE and -DTINY_SPLIT.  This script:

  1. builds it standalone (gcc -O2 -g -pthread -DTINY_STANDALONE) four
     times: orig, merge, split and both;
  2. builds the four with -DTINY_COUNT_LINES too and runs them: the mean
     number of distinct cache lines of the caches an alloc or free touches,
     and of the slab array a scan touches, counted by the program itself
     (deterministic: no perf, no sampling);
  3. times the four, 'tinyalloc ops=OPS' (OPS allocations and frees in
     each of its two threads), ROUNDS rounds whose order rotates, and
     prints the median CPU time (user + sys) and wall time of each and the
     median over the rounds of time(variant) / time(orig) within a round.

With --perf PERF it first records the workload as the perf test runs it
('PERF test -w tinyalloc 1500', and with 'control') and checks that the
report advises the merge and the split the builds apply, with the lines
it predicts, and neither for the control.

Exits 1 if merge or split is not faster than orig (a median ratio not below
1.0) or does not touch fewer lines (merge: per operation, split: per scan),
or with --perf if the report does not advise them, or advises on the control.

CPU time rather than wall time: this is meant for small shared machines
(2 vCPUs), where a vCPU taken away for a while stretches the wall time of a
two-thread run but not its CPU time.  Each run does the same work.

The sizes (SIZES below) are not the perf test's: with its 64 classes and
8192 slabs everything fits in L1 and L2 and the layouts differ by a few
percent at most.  Here:

  - 16384 classes (TINY_CLASSES), of which 1024 are in use (TINY_USED),
    scattered over the array as a program's few sizes are over a size
    class table.  Each class in use costs a line of tiny_head[] and another
    of tiny_count[]: 2048 lines, 128 KiB, against an L1 of 48 KiB; merged,
    1024 lines.  With all 16384 classes in use, at random, merging does not
    pay: struct tiny_cache is 16 bytes a class against 8 + 4, the whole
    array is what is hot, it is a third larger and misses as often.
  - 131072 slabs (TINY_SLABS), 65536 a thread: 2 MiB of struct
    tiny_slab_meta a thread, the size of its L2 (which it shares with the
    objects and the rest), that the refills scan round and round; the hot
    array is 1 MiB.
  - a refill scans 128 slabs (TINY_SCAN, 64 in the perf test), so that the
    scan takes a fair part of the time.

OPS is such that a run takes about half a second on a 2 GHz-class CPU.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "tools", "perf", "tests", "workloads", "tinyalloc.c")

SIZES = ["-DTINY_CLASSES=16384", "-DTINY_USED=1024", "-DTINY_SLABS=131072", "-DTINY_SCAN=128"]
OPS = 24000000
LINE_OPS = 1000000

# name, defines
VARIANTS = [
    ("orig", []),
    ("merge", ["-DTINY_MERGE"]),
    ("split", ["-DTINY_SPLIT"]),
    ("both", ["-DTINY_MERGE", "-DTINY_SPLIT"]),
]


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def build(defines, out):
    sh(["gcc", "-O2", "-g", "-pthread", "-DTINY_STANDALONE"] + SIZES + defines +
       [SRC, "-o", out])


def count_lines(prog):
    """Lines per alloc/free and per scan, and the slabs a scan visits."""
    out = sh([prog, "ops=%d" % LINE_OPS]).stdout
    op = re.search(r"^lines per op ([\d.]+)$", out, re.M)
    scan = re.search(r"^lines per scan of (\d+) slabs ([\d.]+)$", out, re.M)
    if not op or not scan:
        raise RuntimeError("%s printed no line counts:\n%s" % (prog, out))
    return float(op.group(1)), float(scan.group(2)), int(scan.group(1))


def time_run(prog, ops):
    """CPU (user + sys) and wall seconds of one run"""
    start = time.perf_counter()
    p = subprocess.Popen([prog, "ops=%d" % ops])
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    if status:
        raise RuntimeError("%s ops=%d failed (status %#x)" % (prog, ops, status))
    return ru.ru_utime + ru.ru_stime, wall


def advice(perf, d, control):
    """The merge and split advice of perf affinity report on tinyalloc"""
    data = os.path.join(d, "control.data" if control else "tinyalloc.data")
    sh([perf, "affinity", "record", "-o", data, "--", perf, "test", "-w", "tinyalloc",
        "1500"] + (["control"] if control else []))
    rep = sh([perf, "affinity", "report", "-i", data, "--stdio"]).stdout
    merge = re.search(r"^  Advice: merge (\w+) and (\w+) into .*\n.*\n"
                      r"  predicted: ([-+\d.]+)% \(lines per visit ([\d.]+) -> ([\d.]+)", rep, re.M)
    split = re.search(r"^  Advice: split it .*\n    hot : (.*) \(\d+ bytes\)\n.*\n"
                      r"  predicted: ([-+\d.]+)% .*lines per 64 instances scanned ([\d.]+) -> ([\d.]+)",
                      rep, re.M)
    return merge, split


def check_advice(perf, d):
    merge, split = advice(perf, d, False)
    ok = True
    if merge and {merge.group(1), merge.group(2)} == {"tiny_head", "tiny_count"}:
        print("advised: merge tiny_head and tiny_count, predicted %s%%, lines per visit %s -> %s" %
              (merge.group(3), merge.group(4), merge.group(5)))
    else:
        print("the merge of tiny_head and tiny_count is NOT advised")
        ok = False
    if split and split.group(1) == "freelist, used, capacity":
        print("advised: split struct tiny_slab_meta (hot: %s), predicted %s%%, "
              "lines per 64 slabs scanned %s -> %s" % split.groups())
    else:
        print("the split of struct tiny_slab_meta into freelist, used, capacity and the rest "
              "is NOT advised")
        ok = False
    merge, split = advice(perf, d, True)
    print("control: %s" % ("no advice" if not merge and not split else "ADVICE GIVEN"))
    return ok and not merge and not split


def run(d, rounds, ops):
    progs = {}
    for name, defines in VARIANTS:
        progs[name] = os.path.join(d, name)
        build(defines, progs[name])
        build(defines + ["-DTINY_COUNT_LINES"], progs[name] + "-lines")
    lines = {name: count_lines(progs[name] + "-lines") for name, _ in VARIANTS}
    scan_len = lines["orig"][2]

    names = [name for name, _ in VARIANTS]
    cpu = {name: [] for name in names}
    wall = {name: [] for name in names}
    ratio = {name: [] for name in names}
    for r in range(rounds):
        this = {}
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            this[name], w = time_run(progs[name], ops)
            cpu[name].append(this[name])
            wall[name].append(w)
        for name in names:
            ratio[name].append(this[name] / this["orig"])

    print("tinyalloc %s ops=%d, %d rounds" % (" ".join(SIZES), ops, rounds))
    print("%-6s %8s %8s %8s %13s %18s" % ("", "cpu s", "wall s", "/orig", "lines per op",
                                           "lines per scan/%d" % scan_len))
    med = {}
    for name in names:
        med[name] = statistics.median(ratio[name])
        print("%-6s %8.3f %8.3f %8.3f %13.2f %18.2f" %
              (name, statistics.median(cpu[name]), statistics.median(wall[name]), med[name],
               lines[name][0], lines[name][1]))
    print("lines per alloc/free: orig %.2f merge %.2f" % (lines["orig"][0], lines["merge"][0]))
    print("lines per scan of %d slabs: orig %.0f split %.0f" %
          (scan_len, lines["orig"][1], lines["split"][1]))

    ok = True
    for name, faster, fewer, what in (
            ("merge", med["merge"] < 1.0, lines["merge"][0] < lines["orig"][0], "per op"),
            ("split", med["split"] < 1.0, lines["split"][1] < lines["orig"][1], "per scan")):
        if not faster:
            print("%s is NOT faster than orig (%.3f)" % (name, med[name]))
        if not fewer:
            print("%s does NOT touch fewer lines %s" % (name, what))
        ok &= faster and fewer
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-d", "--dir", help="build directory (default: a temporary one)")
    ap.add_argument("-r", "--rounds", type=int, default=5)
    ap.add_argument("-n", "--ops", type=int, default=OPS,
                    help="allocations per thread and run (default %(default)d)")
    ap.add_argument("--perf", help="also check the advice of this perf on the perf test")
    args = ap.parse_args()
    if args.rounds < 1 or args.ops < 1:
        ap.error("ROUNDS and OPS must be positive")
    with tempfile.TemporaryDirectory(prefix="tinyalloc-") as tmp:
        d = tmp
        if args.dir:
            os.makedirs(args.dir, exist_ok=True)
            d = os.path.abspath(args.dir)
        ok = check_advice(args.perf, d) if args.perf else True
        ok = run(d, args.rounds, args.ops) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
