#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf affinity on a real kernel, beside the upstream ground truth.

Reads the reports 'make kernel-record' leaves in build/kernel/guest
(rq.64.json, rq.128.json, tcp_sock.json) and prints two tables:

struct rq: what the watchpoints saw of each watched member (hits, share,
  writes, readers and writers by CPU, class), summed up in the groups of
  the upstream reorder of struct rq (tip 89951fc1f820, "sched: Reorder some
  fields in struct rq": the fleet's profile gave __lock ~50 %, the fields
  pick_next_task_fair() reads ~39 %, the clock ~8 %), then the report's
  false sharing and advice at 64 and 128 byte cache lines.

perf bench futex hash, sched messaging, epoll wait: each struct type the
  report advises on, what and why, beside what upstream did where it did.

struct tcp_sock: the report's class of each member sampled against its
  label in Documentation/networking/net_cachelines/tcp_sock.rst
  (read_mostly or read_write, on TX or RX): agreement in percent.

  kernel_truth.py --dir build/kernel/guest --doc build/kernel/tcp_sock.rst
"""
import argparse
import json
import os
import sys

# the groups of the upstream reorder, by the members mk/guest/record.sh watches
RQ_GROUPS = (
    ("lock", ("__lock",)),
    ("read without the lock (pick next, balance)",
     ("nr_running", "ttwu_pending", "{donor|curr}", "cpu_capacity")),
    ("clock", ("clock", "clock_task")),
    ("rest", ("nr_switches",)),
)
WRITTEN = ("write-hot", "shared-written")


def top(name):
    """The top-level member a leaf belongs to ('rx_opt.rcv_tsval': rx_opt)"""
    depth = 0
    for i, c in enumerate(name):
        depth += c == "{"
        depth -= c == "}"
        if c == "." and not depth:
            return name[:i]
    return name


def load(path):
    try:
        with open(path) as f:
            return json.load(f)["types"][0]
    except (OSError, ValueError, KeyError, IndexError) as e:
        sys.exit(f"kernel_truth.py: {path}: {e}")


def cpus(bits):
    return ",".join(str(c) for c in bits) or "-"


def rq_members(t):
    """Watched members: hits, writes, readers, writers, class"""
    m = {}
    for f in t["fields"]:
        w = f.get("watched")
        if not f.get("leaf") or not w:
            continue
        e = m.setdefault(top(f["name"]), {"hits": 0, "writes": 0, "readers": set(),
                                          "writers": set(), "class": f["class"]})
        e["hits"] += w["accesses"]
        e["writes"] += w["writes"]
        e["readers"] |= set(f["readers"])
        e["writers"] |= set(f["writers"])
    return m


def advice(t):
    a = t.get("advice") or {}
    if a.get("insufficient"):
        c = a.get("candidate") or {}
        what = "; ".join(e["text"] for e in c.get("edits", [])) or c.get("kind", "?")
        why = f", the replay says {-c['replay_gain']:+.1f}%" \
            if c.get("replay_gain") is not None else ""
        return f"none, the evidence is insufficient (candidate: {what}," \
               f" model {-c.get('gain', 0):+.1f}%{why})"
    edits = [e["text"] for e in a.get("edits", [])]
    if t.get("changed") and t.get("aligned_instances"):
        edits.append(f"align the instances to the line (by {t.get('align_by')})")
    if not edits and a.get("kind") not in (None, "none", "edit"):
        edits.append(a["kind"])
    return "; ".join(edits) if edits else "none"


def rq_table(d):
    t = load(os.path.join(d, "rq.64.json"))
    m = rq_members(t)
    total = sum(e["hits"] for e in m.values()) or 1
    print("struct rq: what the watchpoints saw (4 CPUs' runqueues, 8 members each)")
    print(f"  {'member':<16} {'hits':>8} {'share':>7} {'writes':>8}  {'readers':<8}"
          f" {'writers':<8} class")
    for name, e in sorted(m.items(), key=lambda x: -x[1]["hits"]):
        print(f"  {name:<16} {e['hits']:>8} {100 * e['hits'] / total:>6.1f}% {e['writes']:>8}"
              f"  {cpus(sorted(e['readers'])):<8} {cpus(sorted(e['writers'])):<8}"
              f" {e['class']}")
    print("  groups of the upstream reorder (its fleet: lock ~50 %, pick next ~39 %,"
          " clock ~8 %):")
    for group, names in RQ_GROUPS:
        hits = sum(m[n]["hits"] for n in names if n in m)
        print(f"    {group:<44} {100 * hits / total:5.1f}%  ({', '.join(names)})")
    wl = t.get("watched_lines") or {}
    print(f"  watched lines: {wl.get('transfers', 0)} transfers,"
          f" {wl.get('false_sharing', 0)} of them between different members")
    name = {f["index"]: top(f["name"]) for f in t["fields"]}
    for p in wl.get("pairs", [])[:4]:
        print(f"    {name[p['from']]} -> {name[p['to']]}: {p['transfers']}")
    for size in (64, 128):
        ts = load(os.path.join(d, f"rq.{size}.json"))
        name = {f["index"]: f["name"] for f in ts["fields"]}
        fs = [f"{name[p['writer']]} -> {name[p['reader']]}"
              for p in ts.get("false_sharing", [])][:4]
        print(f"  {size:>3}-byte lines: false sharing {', '.join(fs) or 'none sampled'};"
              f" advice: {advice(ts)}")
        whatif(ts)


def memory(m):
    """'+0 B (per_cpu x4)'"""
    if not m:
        return "-"
    return f"{m['total']:+d} B ({m['home']} x{m['copies']})"


def whatif(t):
    """The advice and the upstream reorder (the first --try), side by side"""
    w = t.get("watched_lines") or {}
    tries = t.get("tries") or []
    if not tries:
        return
    rep = w.get("replayed") or {}
    c = t.get("cost") or {}
    print(f"       {'layout':<9} {'memory':>20} {'model':>8} {'replay':>8}"
          f" {'watched transfers':>18} {'between members':>16}")
    print(f"       {'current':<9} {'-':>20} {'-':>8} {'-':>8}"
          f" {w.get('transfers', 0):>18} {w.get('false_sharing', 0):>16}")
    if t.get("changed"):
        lo, hi = c.get("replay_gain_interval") or (0, 0)
        print(f"       {'advice':<9} {memory(t.get('memory')):>20} {-c.get('gain', 0):>+7.1f}%"
              f" {-(lo + hi) / 2:>+7.1f}% {rep.get('transfers', '-'):>18}"
              f" {rep.get('false_sharing', '-'):>16}")
    tr = tries[0]
    print(f"       {'upstream':<9} {memory(tr.get('memory')):>20} {-tr['gain']:>+7.1f}%"
          f" {-tr['replay_gain']:>+7.1f}% {tr['watched_transfers']:>18}"
          f" {tr.get('watched_false_sharing', '-'):>16}")


# What upstream did to a struct the benchmarks' reports advise on
UPSTREAM = {
    "struct file": "e249056c91a2 'fs: place f_ref to 3rd cache line in struct file to"
                   " resolve false sharing' (6.15): the count to the third line, size kept",
    "struct futex_hash_bucket": "cacheline aligned since 2.6 (____cacheline_aligned_in_smp):"
                                " a bucket is a line",
    "struct rq": "tip 89951fc1f820 (above)",
}


def field_line(t, name, layout):
    idx = [f["index"] for f in t["fields"] if f["name"] == name or top(f["name"]) == name]
    for m in t.get(layout, {}).get("members", []):
        if m["field"] in idx:
            return m["line"]
    return None


def bench_table(d):
    """Per perf bench recording: each struct type advised, what and why"""
    for f, what in (("futex", "perf bench futex hash"), ("msg", "perf bench sched messaging"),
                    ("epoll", "perf bench epoll wait")):
        path = os.path.join(d, f"{f}.json")
        if not os.path.exists(path):
            print(f"{what}: no {path}")
            continue
        with open(path) as fp:
            types = json.load(fp)["types"]
        print(f"{what}: {len(types)} struct types reported")
        for t in types:
            named = t["name"] in UPSTREAM
            if not t.get("changed") and not named:
                continue
            c = t.get("cost") or {}
            lo, hi = c.get("replay_gain_interval") or (0, 0)
            fs = len(t.get("false_sharing") or [])
            print(f"  {t['name']:<26} {t['accesses']:>6} accesses, {fs} false sharing pairs;"
                  f" advice: {advice(t)}")
            if t.get("changed"):
                print(f"  {'':<26} model {-c.get('gain', 0):+.1f}%, replay {-hi:+.1f}%"
                      f" to {-lo:+.1f}%, memory {memory(t.get('memory'))}")
            if named:
                print(f"  {'':<26} upstream: {UPSTREAM[t['name']]}")
            if t["name"] == "struct file":
                print(f"  {'':<26} f_count on line {field_line(t, 'f_count', 'current')},"
                      f" advised on line {field_line(t, 'f_count', 'suggested')},"
                      f" size {t['current']['size']} -> {t['suggested']['size']}")


def doc_labels(path):
    """member: 'read-mostly' or 'written', from the net_cachelines table"""
    labels = {}
    with open(path) as f:
        lines = f.read().splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("Type ")), None)
    if head is None:
        sys.exit(f"kernel_truth.py: {path}: no table header")
    h = lines[head]
    cols = [h.index(c) for c in ("Name", "fastpath_tx_access", "fastpath_rx_access",
                                 "Comments")]
    for line in lines[head + 1:]:
        if not line.strip() or line.startswith(".."):
            continue
        name = line[cols[0]:cols[1]].strip()
        tx = line[cols[1]:cols[2]].strip()
        rx = line[cols[2]:cols[3]].strip()
        if "read_write" in (tx, rx):
            labels[name] = "written"
        elif "read_mostly" in (tx, rx):
            labels[name] = "read-mostly"
    return labels


def tcp_table(d, doc):
    t = load(os.path.join(d, "tcp_sock.json"))
    labels = doc_labels(doc)
    seen = {}
    for f in t["fields"]:
        if not f.get("leaf") or f["class"] == "cold" or f["depth"] and \
           top(f["name"]) == "inet_conn":
            continue
        n = top(f["name"])
        if n not in labels:
            continue
        e = seen.setdefault(n, {"cls": "read-mostly", "samples": 0, "code": True})
        if f["class"] in WRITTEN:
            e["cls"] = "written"
        e["samples"] += f["loads"] + f["stores"] + f["rmws"]
        e["code"] &= f["by_code"]
    print("struct tcp_sock: the report's classes against"
          " Documentation/networking/net_cachelines/tcp_sock.rst")
    print(f"  {'member':<24} {'samples':>7}  {'report':<12} {'document':<12}")
    agree = {True: [0, 0], False: [0, 0]}
    for n, e in sorted(seen.items(), key=lambda x: -x[1]["samples"]):
        ok = e["cls"] == labels[n]
        agree[e["code"]][0] += ok
        agree[e["code"]][1] += 1
        print(f"  {n:<24} {e['samples']:>7}  {e['cls'] + (' (code)' if e['code'] else ''):<19}"
              f" {labels[n]:<12} {'' if ok else 'differs'}")
    for code, what in ((False, "sampled themselves"), (True, "classed by their code")):
        a, n = agree[code]
        if n:
            print(f"  agreement, members {what}: {a}/{n} = {100 * a / n:.0f}%")
    a = agree[False][0] + agree[True][0]
    n = agree[False][1] + agree[True][1]
    print(f"  agreement, all {n} members the document labels and the report classes:"
          f" {100 * a / max(n, 1):.0f}%; the document labels {len(labels)}")
    print(f"  advice: {advice(t)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True, help="build/kernel/guest")
    ap.add_argument("--doc", required=True, help="tcp_sock.rst")
    args = ap.parse_args()
    rq_table(args.dir)
    print()
    bench_table(args.dir)
    print()
    if os.path.exists(args.doc):
        tcp_table(args.dir, args.doc)
    else:
        print(f"struct tcp_sock: no {args.doc} to compare with")


if __name__ == "__main__":
    main()
