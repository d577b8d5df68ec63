#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf affinity check and diff as a CI gate, over N recordings.

    python3 bench/check_gate.py [-n N] [-d DIR] PERF

Builds bench/layouts/lockmig.c twice (-O2 -g): with its known fix
(lockmig-fix.h, the good build) and as written (lockmig.h: the lock back
on its readers' line, the regression).  Records each N times, then:

  check  every recording of the good build against the good binary
         (a false alarm unless exit 0) and against the regressed binary
         (a detection if exit 1);
  diff   pairs of recordings of the good build (should say 'no
         measurable change' for the cost) and regressed -> good pairs
         (the fix: the cost should drop outside the noise); and of all
         rows with an interval (lines, transfers, cost, field shares,
         falsely shared pairs) of the good pairs, how many were called
         measurable: about 5% by chance at a 95% level.

Targets (#32): <= 1 false alarm and >= N-1 detections; >= N-1 pairs of
one binary without a measurable change, >= N-1 fixes measured as such.
Exits 1 when one is missed.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAYOUTS = os.path.join(HERE, "layouts")
ARGS = ["100000000"]


def run(cmd):
    return subprocess.run(cmd, text=True, capture_output=True)


def build(out, header):
    r = run(["cc", "-O2", "-g", "-pthread", "-DLAYOUT=\"%s\"" %
             os.path.join(LAYOUTS, header), "-o", out,
             os.path.join(LAYOUTS, "lockmig.c")])
    if r.returncode:
        sys.exit("build %s: %s" % (header, r.stderr))


def record(perf, prog, out):
    r = run([perf, "affinity", "record", "-o", out, "--", prog] + ARGS)
    if r.returncode:
        sys.exit("record %s: %s" % (prog, r.stderr[-300:]))


def diff_type(perf, old, new, js):
    """The diff of struct lockshare_rq, as JSON, or None"""
    r = run([perf, "affinity", "diff", old, new, "--json", js])
    if r.returncode:
        return None
    with open(js) as f:
        d = json.load(f)
    for t in d.get("types", []):
        if t.get("type") == "struct lockshare_rq":
            return t
    return None


def cost_change(t):
    """The diff's cost change: (measurable, change), or None"""
    if not t or not t.get("cost_change"):
        return None
    c = t["cost_change"]
    return c["measurable"], c["change"]


def rows_measurable(t):
    """Of the rows of a diff with an interval, how many are measurable"""
    changes = [t.get(k) for k in ("lines_change", "xfers_change", "hitm_change",
                                  "cost_change")]
    changes += [f.get("share_change") for f in t.get("fields", [])]
    rows = [c["measurable"] for c in changes if c]
    rows += [p["measurable"] for p in t.get("false_sharing", []) if "measurable" in p]
    return sum(rows), len(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("perf")
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("-d", help="directory for the builds and recordings")
    a = ap.parse_args()
    perf = os.path.abspath(a.perf)
    d = a.d or tempfile.mkdtemp(prefix="affinity-gate.")
    os.makedirs(d, exist_ok=True)
    good, bad = os.path.join(d, "good"), os.path.join(d, "bad")
    build(good, "lockmig-fix.h")
    build(bad, "lockmig.h")

    checks = {"good": collections.Counter(), "bad": collections.Counter()}
    recs = {"good": [], "bad": []}
    for i in range(a.n):
        for which, prog in (("good", good), ("bad", bad)):
            data = os.path.join(d, "%s.%d.data" % (which, i))
            record(perf, prog, data)
            recs[which].append(data)
        for which, prog in (("good", good), ("bad", bad)):
            rc = run([perf, "affinity", "check", "-i", recs["good"][-1],
                      prog]).returncode
            checks[which][rc] += 1
        print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    js = os.path.join(d, "diff.json")
    same = collections.Counter()
    fixed = collections.Counter()
    rows = [0, 0]
    for i in range(a.n):
        t = diff_type(perf, recs["good"][i], recs["good"][(i + 1) % a.n], js)
        c = cost_change(t)
        same["error" if c is None else "measurable" if c[0] else "no change"] += 1
        if t:
            rows = [x + y for x, y in zip(rows, rows_measurable(t))]
        c = cost_change(diff_type(perf, recs["bad"][i], recs["good"][i], js))
        fixed["error" if c is None else "drop" if c[0] and c[1] < 0 else
              "no drop"] += 1

    fa = a.n - checks["good"][0]
    det = checks["bad"][1]
    print("check, %d recordings of the good build:" % a.n)
    print("  good binary:      %s  (false alarms: %d)" % (dict(checks["good"]), fa))
    print("  regressed binary: %s  (detections: %d)" % (dict(checks["bad"]), det))
    print("diff of the cost:")
    print("  good -> good (one binary): %s" % dict(same))
    print("  regressed -> good (the fix): %s" % dict(fixed))
    print("diff, every row with an interval, good -> good: %d of %d measurable (%.1f%%)" %
          (rows[0], rows[1], 100.0 * rows[0] / max(rows[1], 1)))
    ok = fa <= 1 and det >= a.n - 1 and same["no change"] >= a.n - 1 and \
        fixed["drop"] >= a.n - 1
    print("targets met" if ok else "targets MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
