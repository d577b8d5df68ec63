#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Report throughput and peak RSS: perf affinity vs perf c2c vs perf mem.

    python3 bench/report_throughput.py [-d DIR] [-r ROUNDS] [-b BASE] PERF [SAMPLES...]

Writes one perf.data per sample count (default 1 M, 10 M and 30 M) with
'perf bench affinity synth' (PEBS-shaped memory samples with HITMs at the
struct accesses of perf's own false sharing workloads), checks that perf
affinity attributes them to struct fields, then runs in every round, in
an order that rotates from round to round:

    perf affinity report --stdio --threads 2 -i F
    perf affinity report --stdio --threads 1 -i F
    perf c2c report --stdio -i F
    perf mem report --stdio -i F

with stdout to /dev/null, measuring the wall time, the CPU time (user and
system, of all threads) and the peak RSS of each (wait4()).  Prints the
medians and, for each round, the ratios to perf c2c report measured in
that round, whose medians are the ratio columns.  perf affinity report
--threads 2 accumulates the struct types in a second thread (--threads 1:
in the one that reads); perf c2c and perf mem use one.  The report must
be byte for byte the same with 1, 2 and 3 threads.

With -b BASE, another build of perf (the one before a change), 'BASE
affinity report' runs in every round too, as "base", and its stdout must
be byte for byte that of PERF's, on every file: a change meant to make
the report faster or smaller must not change what it says.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

TOOLS = [
    ("affinity --threads 2", ["affinity", "report", "--stdio", "--threads", "2"]),
    ("affinity --threads 1", ["affinity", "report", "--stdio", "--threads", "1"]),
    ("c2c", ["c2c", "report", "--stdio"]),
    ("mem", ["mem", "report", "--stdio"]),
]


def run(cmd):
    """Wall seconds, peak RSS (KiB) and CPU seconds of cmd, stdout discarded."""
    start = time.monotonic()
    with open(os.devnull, "w") as null:
        proc = subprocess.Popen(cmd, stdout=null, stderr=subprocess.PIPE)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), proc.returncode,
                                          err.decode(errors="replace")[-2000:]))
    return wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def synth(perf, n, path):
    # the samples name perf's own binary by build ID: a file older than perf is stale
    if os.path.exists(path) and \
            os.path.getmtime(path) > os.path.getmtime(os.path.realpath(perf)):
        return
    out = subprocess.run([perf, "bench", "affinity", "synth", "-n", str(n), "-o", path],
                         check=True, capture_output=True, text=True).stdout
    print(out.strip().splitlines()[-1], file=sys.stderr)


def attributed(perf, path):
    """Accesses and those attributed to a struct field, from --stats."""
    out = subprocess.run([perf, "affinity", "report", "--stdio", "--stats", "-i", path],
                         check=True, capture_output=True, text=True).stdout
    acc = re.search(r"^\s*Accesses\s*:\s*(\d+)", out, re.M)
    res = re.search(r"Attributed to a struct field\s*:\s*(\d+)", out)
    return int(acc.group(1)) if acc else 0, int(res.group(1)) if res else 0


def report(perf, path, extra=()):
    return subprocess.run([perf, "affinity", "report", "--stdio", "-i", path] + list(extra),
                          check=True, capture_output=True).stdout


def same(perf, base, path):
    """The reports of the two perfs must be byte for byte the same."""
    outs = [report(p, path) for p in (perf, base)]
    if outs[0] != outs[1]:
        sys.exit("%s and %s report %s differently" % (perf, base, path))
    print("# %s: the same report from both perfs (%d bytes)" % (path, len(outs[0])))


def same_alone(perf, path):
    """The report must be the same with 1, 2 and 3 threads."""
    one = report(perf, path, ["--threads", "1"])
    for n in ("2", "3"):
        if report(perf, path, ["--threads", n]) != one:
            sys.exit("%s reports %s differently with --threads %s" % (perf, path, n))
    print("# %s: the same report with 1, 2 and 3 threads" % path)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("perf")
    ap.add_argument("samples", nargs="*", type=int, default=[1000000, 10000000, 30000000])
    ap.add_argument("-b", "--base", help="another perf, whose report must say the same")
    ap.add_argument("-r", "--rounds", type=int, default=5)
    ap.add_argument("-d", "--dir", default="/tmp/perf-affinity-bench")
    args = ap.parse_args()
    perf = os.path.abspath(args.perf)
    os.makedirs(args.dir, exist_ok=True)
    tools = TOOLS
    if args.base:
        tools = TOOLS + [("base", [os.path.abspath(args.base)] + TOOLS[0][1])]

    files = {}
    for n in args.samples:
        files[n] = os.path.join(args.dir, "synth-%d.data" % n)
        synth(perf, n, files[n])
        acc, res = attributed(perf, files[n])
        print("# %s: %d accesses, %d attributed to struct fields (%.1f%%)" %
              (files[n], acc, res, 100.0 * res / acc if acc else 0))
        if not res or res < acc // 2:
            sys.exit("perf affinity attributes too little of %s: no benchmark" % files[n])
        same_alone(perf, files[n])
        if args.base:
            same(perf, args.base, files[n])

    wall = {(n, t): [] for n in args.samples for t, _ in tools}
    rss = {(n, t): [] for n in args.samples for t, _ in tools}
    cpu = {(n, t): [] for n in args.samples for t, _ in tools}
    ratio_t = {(n, t): [] for n in args.samples for t, _ in tools}
    ratio_m = {(n, t): [] for n in args.samples for t, _ in tools}
    for r in range(args.rounds):
        for n in args.samples:
            order = tools[r % len(tools):] + tools[:r % len(tools)]
            this = {}
            for name, cmd in order:
                argv = cmd if name == "base" else [perf] + cmd
                this[name] = run(argv + ["-i", files[n]])
                wall[n, name].append(this[name][0])
                rss[n, name].append(this[name][1])
                cpu[n, name].append(this[name][2])
            for name, _ in tools:
                ratio_t[n, name].append(this["c2c"][0] / this[name][0])
                ratio_m[n, name].append(this[name][1] / this["c2c"][1])
            print("# round %d, %d samples: %s" % (r + 1, n, ", ".join(
                "%s %.2f s %.0f MB" % (t, this[t][0], this[t][1] / 1024) for t, _ in tools)),
                file=sys.stderr)

    med = statistics.median
    print("\n%d rounds, medians; ratios are to perf c2c report in the same round\n" %
          args.rounds)
    print("| samples | report                    | wall (s) | CPU (s) | samples/s "
          "| throughput vs c2c | peak RSS (MB) | RSS vs c2c |")
    print("|--------:|---------------------------|---------:|--------:|----------:"
          "|------------------:|--------------:|-----------:|")
    for n in args.samples:
        for name, _ in tools:
            w = med(wall[n, name])
            print("| %7s | perf %-20s | %8.2f | %7.2f | %9.0f | %17.2fx | %13.0f | %10.2fx |" %
                  ("%dM" % (n // 1000000) if n % 1000000 == 0 else str(n), name, w,
                   med(cpu[n, name]), n / w, med(ratio_t[n, name]), med(rss[n, name]) / 1024,
                   med(ratio_m[n, name])))


if __name__ == "__main__":
    main()
