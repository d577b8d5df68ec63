#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Apply perf affinity's --emit-c suggestion and time it against a hand fix.

    python3 bench/layout_apply.py [-d DIR] [-r ROUNDS] [-w NAME...]
                                  [--placement P] PERF

For every workload below (a small program in bench/layouts/ whose struct
comes from a header named by -DLAYOUT):

  1. build it with its layout as written (-O2 -g);
  2. record it with 'perf affinity record' and ask
     'perf affinity report --stdio -T TYPE --emit-c' for a layout;
  3. write the suggested struct, as printed, to a header and build the
     program with it (and with -DALIGNED_ALLOC where the advice is an
     aligned allocation, which the program then makes); build it with the
     known fix (a header written by hand, or the allocation) too;
  4. time the three builds, ROUNDS rounds whose order rotates, and print
     the medians and the speedups over the original.

For a C++ class (CXX_WORKLOADS): the data members the report's 'As C++:'
block prints, put in place of the class's own (between '// members' and
'// end of members' of its source), built with g++ -std=c++17 -Werror,
against the fix by hand (-DHAND_FIX).

And for the lines threads share outside any struct (STRIDE_WORKLOADS): the
per-thread stride the report's "Shared Data Cache Lines" advises to pad,
applied as the program takes it (-DSTRIDE), against the fix by hand; and
for an array threads interleave (BLOCK_WORKLOADS), the block per thread
it advises (-DBLOCKS).

The suggestion should reach 95% of the hand fix's speedup, or lay the
struct out as the hand fix does (the same fields on each cache line, the
same size and alignment: on a loaded machine the timings of two such
builds differ by noise only); on a control (a variant with nothing to
fix) it should suggest nothing, and is not timed.  Exits 1 if a workload
misses either.

--placement P reports with 'perf affinity report --placement P' (one:
as an Intel timer places samples, later: as an AMD one): the advice
applied must reach the hand fix whichever CPU recorded.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LAYOUTS = os.path.join(HERE, "layouts")

# name, source, the type as C names it, layout as written, known fix,
# program arguments to record, to time; control: True when there is nothing
# to fix; the known fix's -D options (an aligned allocation)
WORKLOADS = [
    ("slots", "slots.c", "struct slot_stats", "slots.h", "slots-fix.h",
     ["50000000"], ["200000000"], False, []),
    ("slots-ro", "slots.c", "struct slot_stats", "slots.h", None,
     ["50000000", "ro"], None, True, []),
    ("rqscan", "rqscan.c", "struct runq", "rqscan.h", "rqscan-fix.h",
     ["300"], ["200"], False, []),
    ("lockmig", "lockmig.c", "struct lockshare_rq", "lockmig.h", "lockmig-fix.h",
     ["100000000"], ["50000000"], False, []),
    ("roles", "roles.c", "role_buf", "roles.h", "roles-fix.h",
     ["300000000"], ["1000000000"], False, []),
    ("heap", "heap.c", "struct heap_stats", "heap.h", "heap.h",
     ["100000000"], ["200000000"], False, ["-DALIGNED_ALLOC"]),
    ("svc", "svc.c", "struct service", "svc.h", "svc-fix.h",
     ["100000000"], ["200000000"], False, ["-DALIGNED_ALLOC"]),
    ("wstats", "wstats.c", "struct wstats", "wstats.h", "wstats-fix.h",
     ["50000000"], ["100000000"], False, ["-DALIGNED_ALLOC"]),
]

# Lines threads share outside any struct (perf affinity report's "Shared
# Data Cache Lines"): name, source, the function whose slots share a line,
# program arguments to record, to time.  The advice, a per-thread stride
# padded to the line, is applied as -DSTRIDE=<elements per line>; the
# known fix (-DHAND_FIX) is a 64-byte aligned struct per thread.
STRIDE_WORKLOADS = [
    ("counters", "counters.c", "worker", ["30000000"], ["50000000"]),
    ("vecsum", "vecsum.c", "count", ["100000000"], ["200000000"]),
    ("slotsum", "slotsum.c", "count", ["100000000"], ["200000000"]),
]

# An array threads interleave, one finding of the report ('data_arrays'):
# name, source, program arguments to record, to time.  The advice, a block
# of the array per thread, is applied as -DBLOCKS, which is also the
# program's own fix: the timing shows what following it gains.
BLOCK_WORKLOADS = [
    ("weave", "weave.c", ["1000000"], ["200000"]),
]

# -T for a typedef'd struct: the report names it by its tag or its typedef,
# as the variable or the pointer the code uses does
TYPES = {"role_buf": "struct _role_buf,role_buf"}

# The advice of an aligned allocation, alone or with an edit ("and
# allocate ..."): applied as the program takes it
ALLOC_ADVICE = "allocate the instances at 64 byte boundaries"
ALLOC_DEFS = ["-DALIGNED_ALLOC"]


# name, source, the class as -T takes it, program arguments to record, to time
CXX_WORKLOADS = [
    ("admission", "admission.cc", "svc::Admission", ["30000000"], ["100000000"]),
    ("meter", "meter.cc", "lf::Meter<long int>", ["30000000"], ["100000000"]),
]


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def build(src, header, out, defs=()):
    sh(["gcc", "-O2", "-g", "-pthread", '-DLAYOUT="%s"' % header] + list(defs) +
       [os.path.join(LAYOUTS, src), "-o", out])


# a member's name: before its array size, attributes and the semicolon
MEMBER = re.compile(r"(\w+)(?:\[\d+\])?(?:\s+__attribute__\(\(.*?\)\))?;")


def members(text):
    return MEMBER.findall(text)


def check_applies(c, orig_h):
    """The suggestion has the fields of the original, each once."""
    return sorted(members(c)) == sorted(members(open(os.path.join(LAYOUTS, orig_h)).read()))


def suggestion(report):
    """The struct of the report's 'As C:' block, or None: keep the layout."""
    m = re.search(r"^  As C:\n\n((?:typedef )?struct .*?^}[^\n]*;\n)", report, re.S | re.M)
    return m.group(1) if m else None


def lines_of(header, typ, fields, d):
    """Size, alignment and the fields of each 64-byte line of struct TYPE."""
    src = os.path.join(d, "lines.c")
    with open(src, "w") as f:
        f.write('#include <stdio.h>\n#include <stddef.h>\n#include "%s"\n' % header)
        f.write("int main(void)\n{\n")
        f.write('\tprintf("%%zu %%zu\\n", sizeof(%s), _Alignof(%s));\n'
                % (typ, typ))
        for name in fields:
            f.write('\tprintf("%s %%zu\\n", offsetof(%s, %s) / 64);\n'
                    % (name, typ, name))
        f.write("\treturn 0;\n}\n")
    sh(["gcc", "-o", src[:-2], src])
    out = sh([src[:-2]]).stdout.split("\n")
    size, align = out[0].split()
    groups = {}
    for row in out[1:]:
        if row:
            name, line = row.split()
            groups.setdefault(line, set()).add(name)
    return int(size), int(align), sorted(sorted(g) for g in groups.values())


def same_lines(fix_h, sug_h, typ, fields, d):
    """Does the suggestion put the same fields together, on as many lines?"""
    return lines_of(fix_h, typ, fields, d) == lines_of(sug_h, typ, fields, d)


def time_run(prog, args):
    out = sh([prog] + args).stdout
    return float(out.split()[-1])


def stride_advice(report, func):
    """The index step the advice pads the stride with, or None"""
    for l in report["data_lines"]:
        owners = [o for o in l["owners"]
                  if func in (o.get("function"), o.get("store_function"))]
        if len(owners) < 2 or l["advice"] not in ("stride", "elements") or not l["sure"]:
            continue
        return l["step"]
    return None


def time_builds(builds, time_args, rounds):
    """The median seconds of every build, the builds in rotating order"""
    times = {b: [] for b, _ in builds}
    for r in range(rounds):
        for k in range(len(builds)):
            b, prog = builds[(r + k) % len(builds)]
            times[b].append(time_run(prog, time_args))
    return {b: statistics.median(t) for b, t in times.items()}


def speedups(name, med):
    """Print the medians and speedups; how much of the hand fix's the suggestion reached"""
    fix_x = med["original"] / med["hand fix"]
    sug_x = med["original"] / med["suggested"]
    reached = (sug_x - 1) / (fix_x - 1) if fix_x > 1 else float("nan")
    print("%-10s original %.3f s, hand fix %.3f s (%.2fx), suggested %.3f s (%.2fx): "
          "%.0f%% of the hand fix's speedup" %
          (name, med["original"], med["hand fix"], fix_x, med["suggested"], sug_x,
           100 * reached))
    return reached


# 'perf affinity report --placement' of every report (main())
PLACEMENT = []


def record_json(perf, d, src, rec_args):
    """Build SRC as written, record it, its JSON report (kept in D); the build's path"""
    orig = os.path.join(d, "orig")
    build(src, "none", orig)
    data = os.path.join(d, "perf.data")
    sh([perf, "affinity", "record", "-o", data, "--", orig] + rec_args)
    out = sh([perf, "affinity", "report", "-i", data, "--json", "-"] + PLACEMENT).stdout
    with open(os.path.join(d, "report.json"), "w") as f:
        f.write(out)
    return orig, json.loads(out)


def apply_stride(perf, d, name, src, func, rec_args, time_args, rounds):
    """Record, apply the padded stride the report advises, time it against the fix"""
    orig, report = record_json(perf, d, src, rec_args)
    per_line = stride_advice(report, func)
    if per_line is None:
        print("%-10s no padded stride advised for %s" % (name, func))
        return False
    print("%-10s advice: pad the stride, %d elements per line" % (name, per_line))
    builds = [("original", orig),
              ("hand fix", os.path.join(d, "fix")),
              ("suggested", os.path.join(d, "suggested"))]
    build(src, "none", builds[1][1], ["-DHAND_FIX"])
    build(src, "none", builds[2][1], ["-DSTRIDE=%d" % per_line])
    return speedups(name, time_builds(builds, time_args, rounds)) >= 0.95


def apply_blocks(perf, d, name, src, rec_args, time_args, rounds):
    """Record, apply the block per thread the report advises for an interleaved array"""
    orig, report = record_json(perf, d, src, rec_args)
    arrays = [a for a in report["data_arrays"] if a["advice"] == "blocks" and a["sure"]]
    if not arrays:
        print("%-10s no block per thread advised" % name)
        return False
    print("%-10s advice: a block per thread of the %d lines of %s, interleaved by %d" %
          (name, arrays[0]["lines"], arrays[0]["type"], arrays[0]["interleaved"]))
    builds = [("original", orig),
              ("hand fix", os.path.join(d, "fix")),
              ("suggested", os.path.join(d, "suggested"))]
    build(src, "none", builds[1][1], ["-DBLOCKS"])
    build(src, "none", builds[2][1], ["-DBLOCKS"])
    print("%-10s the suggestion is the hand fix (-DBLOCKS): its timing is the noise" % name)
    speedups(name, time_builds(builds, time_args, rounds))
    return True


def build_cxx(src, out, defs=()):
    sh(["g++", "-std=c++17", "-O2", "-g", "-pthread", "-Wall", "-Werror"] + list(defs) +
       [src, "-o", out])


def cxx_members(report):
    """The member lines of the report's 'As C++:' block, or None"""
    m = re.search(r"^  As C\+\+:\n\n(?:template[^\n]*\n)?[^\n]*\{\n(.*?)^\};\n", report,
                  re.S | re.M)
    return m.group(1) if m else None


def apply_cxx(perf, d, name, src, typ, rec_args, time_args, rounds):
    """Record, put the suggested members in place of the class's, time it against the fix"""
    src = os.path.join(LAYOUTS, src)
    builds = [("original", os.path.join(d, "orig")),
              ("hand fix", os.path.join(d, "fix")),
              ("suggested", os.path.join(d, "suggested"))]
    build_cxx(src, builds[0][1])
    data = os.path.join(d, "perf.data")
    sh([perf, "affinity", "record", "-o", data, "--", builds[0][1]] + rec_args)
    report = sh([perf, "affinity", "report", "-i", data, "--stdio", "-T", typ,
                 "--emit-c"] + PLACEMENT).stdout
    with open(os.path.join(d, "report.txt"), "w") as f:
        f.write(report)
    block = cxx_members(report)
    text = open(src).read()
    m = re.search(r"^\t// members\n.*?^\t// end of members\n", text, re.S | re.M)
    if block is None or m is None:
        print("%-10s no C++ suggestion for %s" % (name, typ))
        return False
    sug = os.path.join(d, "suggested.cc")
    with open(sug, "w") as f:
        f.write(text[:m.start()] + block + text[m.end():])
    print("%-10s the suggested members:\n%s" % (name, block.rstrip()))
    build_cxx(src, builds[1][1], ["-DHAND_FIX"])
    build_cxx(sug, builds[2][1])
    return speedups(name, time_builds(builds, time_args, rounds)) >= 0.95


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("perf")
    ap.add_argument("-d", "--dir", default="build/bench-layout")
    ap.add_argument("-r", "--rounds", type=int, default=5)
    ap.add_argument("-w", "--workload", action="append",
                    help="only this workload (repeat for more)")
    ap.add_argument("--placement", help="report with this --placement")
    args = ap.parse_args()
    if args.placement:
        PLACEMENT[:] = ["--placement", args.placement]
    perf = os.path.abspath(args.perf)
    os.makedirs(args.dir, exist_ok=True)
    ok = True
    for name, src, typ, orig_h, fix_h, rec_args, time_args, control, fix_defs in WORKLOADS:
        if args.workload and name not in args.workload:
            continue
        d = os.path.join(os.path.abspath(args.dir), name)
        os.makedirs(d, exist_ok=True)
        orig = os.path.join(d, "orig")
        build(src, os.path.join(LAYOUTS, orig_h), orig)
        data = os.path.join(d, "perf.data")
        sh([perf, "affinity", "record", "-o", data, "--", orig] + rec_args)
        report = sh([perf, "affinity", "report", "-i", data, "--stdio", "-T",
                     TYPES.get(typ, typ),
                     "--emit-c"] + PLACEMENT).stdout
        with open(os.path.join(d, "report.txt"), "w") as f:
            f.write(report)
        c = suggestion(report)
        if control:
            print("%-10s control: %s" % (name, "no suggestion" if c is None else
                                       "SUGGESTED A CHANGE"))
            ok &= c is None
            continue
        if c is None:
            print("%-10s no suggestion (the known fix is in %s)" % (name, fix_h))
            ok = False
            continue
        if not check_applies(c, orig_h):
            print("%-10s the suggestion does not have the fields of %s" % (name, orig_h))
            ok = False
            continue
        sug_h = os.path.join(d, "suggested.h")
        with open(sug_h, "w") as f:
            f.write("/* perf affinity report --emit-c */\n" + c)
        builds = [("original", orig),
                  ("hand fix", os.path.join(d, "fix")),
                  ("suggested", os.path.join(d, "suggested"))]
        alloc = ALLOC_ADVICE in report
        build(src, os.path.join(LAYOUTS, fix_h), builds[1][1], fix_defs)
        build(src, sug_h, builds[2][1], ALLOC_DEFS if alloc else [])
        fields = [f for f in members(c) if f != typ]
        same = same_lines(os.path.join(LAYOUTS, fix_h), sug_h, typ, fields, d) and \
            (ALLOC_DEFS if alloc else []) == fix_defs
        print("%-10s the suggestion %s the hand fix's fields on each line, its size and "
              "alignment%s" % (name, "has" if same else "does NOT have",
                               ", and an aligned allocation" if alloc else ""))
        reached = speedups(name, time_builds(builds, time_args, args.rounds))
        ok &= reached >= 0.95 or same
    for name, src, typ, rec_args, time_args in CXX_WORKLOADS:
        if args.workload and name not in args.workload:
            continue
        d = os.path.join(os.path.abspath(args.dir), name)
        os.makedirs(d, exist_ok=True)
        ok &= apply_cxx(perf, d, name, src, typ, rec_args, time_args, args.rounds)
    for name, src, func, rec_args, time_args in STRIDE_WORKLOADS:
        if args.workload and name not in args.workload:
            continue
        d = os.path.join(os.path.abspath(args.dir), name)
        os.makedirs(d, exist_ok=True)
        ok &= apply_stride(perf, d, name, src, func, rec_args, time_args, args.rounds)
    for name, src, rec_args, time_args in BLOCK_WORKLOADS:
        if args.workload and name not in args.workload:
            continue
        d = os.path.join(os.path.abspath(args.dir), name)
        os.makedirs(d, exist_ok=True)
        ok &= apply_blocks(perf, d, name, src, rec_args, time_args, args.rounds)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
