#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Record each bundled workload N times and tabulate the advice.

    python3 bench/stability.py [-n N] [-w NAME...] [-d DIR] [--keep]
                               [--placement P]... PERF

Every workload is recorded N times with default options
('perf affinity record -- perf test -w NAME ARGS'), each recording is
reported ('perf affinity report --json'), and the advice for every type
is reduced to a signature: the kind of advice and its edits (or 'none',
or 'insufficient evidence' with its leading candidate); so is the advice
for every shared data line outside a struct, by the functions that
access it.  The same binary
is then checked against each recording ('perf affinity check -i REC
PERF') and the exit codes are counted.

The target: for each workload and type, one confident signature in at
least N-1 of N recordings, or 'insufficient' in all; never two different
confident edits; 'check' of the unchanged binary with one verdict in at
least N-1 of N.  Exits 1 when a workload misses it.

With --placement (repeatable: recorded, one, later[:seed]), each
recording is reported and checked once per placement, as 'perf affinity
report --placement' re-places its samples (an Intel timer's one access,
an AMD timer's later landing), and tabulated per placement: the advice
must not depend on which CPU recorded.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

# name, arguments of 'perf test -w', the types whose advice counts
WORKLOADS = [
    ("lockshare", ["2000"]),
    ("refshare", ["2000"]),
    ("roleshare", ["2000"]),
    ("slotshare", ["2000"]),
    ("heapslots", ["2000"]),
    ("rqscan", ["2000"]),
    ("tinyalloc", ["1500"]),
    ("counters", ["2000"]),
    ("vecsum", ["2000"]),
    ("threadstats", ["2000"]),
    ("slotsum", ["2000"]),
    ("interleave", ["2000"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, text=True, capture_output=True, **kw)


def signature(t):
    """The advice for one type of the report's JSON, as a short string."""
    adv = t.get("advice") or {}
    kind = adv.get("kind", "none")
    edits = ";".join(e.get("text", "") for e in adv.get("edits", []))
    if adv.get("insufficient"):
        cand = adv.get("candidate") or {}
        return "insufficient (leading: %s %s)" % (cand.get("kind", "?"), ";".join(
            e.get("text", "") for e in cand.get("edits", [])))
    if t.get("aligned_instances"):
        return "align instances (%s)" % t.get("align_by")
    if kind in ("none",):
        return "none"
    if kind == "edit":
        return "edit: " + edits
    return kind + (": " + edits if edits else "")


def data_line_signatures(rep):
    """The data lines advised outside any struct, and the arrays of several
    lines (one finding each): (key, signature) each"""
    for a in rep.get("data_arrays", []):
        sig = "%s%s" % (a["advice"], " of %d" % a["interleaved"] if a["interleaved"] else "")
        yield "data array of " + a["type"], sig if a["sure"] else "insufficient (leading: %s)" % sig
    for l in rep.get("data_lines", []):
        if l["advice"] in ("none", "type") or l.get("array") is not None:
            continue
        # by the code that stores: which load a thread was first seen by varies
        funcs = sorted({o.get("store_function") or o.get("function", "?") for o in l["owners"]})
        key = "data line by " + ",".join(funcs)
        sig = "%s%s" % (l["advice"], " %d" % l["stride"] if "stride" in l else "")
        yield key, sig if l["sure"] else "insufficient (leading: %s)" % sig


def record(perf, name, args, out):
    r = run([perf, "affinity", "record", "-o", out, "--", perf, "test",
             "-w", name] + args)
    if r.returncode:
        sys.exit("%s: record failed: %s" % (name, r.stderr.strip()[-300:]))


def report(perf, data, js, place):
    r = run([perf, "affinity", "report", "-i", data, "--stdio", "--json", js,
             "--placement", place])
    if r.returncode:
        return None
    with open(js) as f:
        return json.load(f)


def tally(perf, data, js, place, advice, checks):
    """Report and check one recording so placed: count its signatures"""
    rep = report(perf, data, js, place)
    if rep is None:
        advice["(report failed)"]["error"] += 1
        return
    for t in rep.get("types", []):
        advice[t["name"]][signature(t)] += 1
    for key, sig in data_line_signatures(rep):
        advice[key][sig] += 1
    checks[run([perf, "affinity", "check", "-i", data, "--placement", place,
                perf]).returncode] += 1


def table(title, n, advice, checks):
    """Print one workload's signatures and check verdicts: True if unstable"""
    failed = False
    print("## %s (%d recordings)" % (title, n))
    for tname, sigs in sorted(advice.items()):
        confident = [s for s in sigs if s != "none" and
                     not s.startswith("insufficient")]
        top = sigs.most_common(1)[0][1]
        ok = len(confident) <= 1 and (top >= n - 1 or not confident)
        if sum(sigs.values()) < n - 1:
            continue	# a type seen in a few recordings only
        failed |= not ok
        print("  %-28s %s" % (tname, "ok" if ok else "UNSTABLE"))
        for s, c in sigs.most_common():
            print("      %3d  %s" % (c, s))
    top = checks.most_common(1)[0][1] if checks else 0
    ok = top >= n - 1
    failed |= not ok
    print("  check of the same binary: %s  %s" % (
        ", ".join("exit %d: %d" % kv for kv in sorted(checks.items())),
        "ok" if ok else "UNSTABLE"))
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("perf")
    ap.add_argument("-n", type=int, default=20, help="recordings per workload")
    ap.add_argument("-w", action="append", help="only these workloads")
    ap.add_argument("-d", help="directory for the recordings")
    ap.add_argument("--keep", action="store_true", help="keep the recordings")
    ap.add_argument("--placement", action="append",
                    help="report each recording so placed (default: recorded)")
    a = ap.parse_args()
    places = a.placement or ["recorded"]
    perf = os.path.abspath(a.perf)
    tmp = a.d or tempfile.mkdtemp(prefix="affinity-stability.")
    os.makedirs(tmp, exist_ok=True)
    failed = False

    for name, args in WORKLOADS:
        if a.w and name not in a.w:
            continue
        advice = {p: collections.defaultdict(collections.Counter) for p in places}
        checks = {p: collections.Counter() for p in places}
        for i in range(a.n):
            data = os.path.join(tmp, "%s.%d.data" % (name, i))
            js = data + ".json"
            record(perf, name, args, data)
            for p in places:
                tally(perf, data, js, p, advice[p], checks[p])
            if not a.keep:
                for f in (data, js):
                    if os.path.exists(f):
                        os.unlink(f)
            print(".", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        for p in places:
            title = name if len(places) == 1 else "%s, placement %s" % (name, p)
            failed |= table(title, a.n, advice[p], checks[p])
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
