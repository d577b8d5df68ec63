#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check 'perf affinity report --json' and '--heatmap' of the lockshare workload.

usage: affinity_json_check.py SCHEMA JSON SVG

JSON must validate against SCHEMA (tests/shell/lib/affinity_schema.json),
name struct lockshare_rq with its lock written and a false sharing pair
between the lock and a field read on another CPU, have every field index
in range and layouts whose offsets agree with the sizes.  SVG must be XML
whose lockshare_rq matrix shows the fields the JSON reports, in layout
order, with the co-access cells of the JSON and the cache line boundaries.
"""
import json
import sys
import xml.etree.ElementTree as ET

import jsonschema

TYPE = "struct lockshare_rq"
SVG = "{http://www.w3.org/2000/svg}"
errors = []


def fail(msg):
    """Note a failed check; every check runs."""
    errors.append(msg)
    print(f"[Fail] {msg}")


def check_indices(t):
    """Every field index of a type refers to one of its fields."""
    n = len(t["fields"])
    refs = [("fields[].index", f["index"]) for f in t["fields"]]
    refs += [("fields[].parent", f["parent"]) for f in t["fields"] if f["parent"] is not None]
    refs += [("fields[].bitfield.group", f["bitfield"]["group"])
             for f in t["fields"] if f["bitfield"]]
    for i, j, _ in t["coaccess"]["cells"]:
        refs += [("coaccess", i), ("coaccess", j)]
        if i >= j:
            fail(f"{t['name']}: co-access cell [{i}, {j}] not i < j")
    for p in t["false_sharing"]:
        refs += [("false_sharing", p["writer"]), ("false_sharing", p["reader"])]
    for c in t["clusters"]:
        refs += [("clusters", f) for f in c["fields"]]
    for name in ("current", "suggested"):
        refs += [(name, m["field"]) for m in t[name]["members"]]
    for k, f in enumerate(t["fields"]):
        if f["index"] != k:
            fail(f"{t['name']}: fields[{k}] has index {f['index']}")
    for where, i in refs:
        if not 0 <= i < n:
            fail(f"{t['name']}: {where} refers to field {i} of {n}")


def member_bits(f, m):
    """The bits of the struct a member takes: a bitfield only its own, as
    the compiler puts other members in the unused bytes of its storage unit
    (pahole: 'Bitfield combined with next fields')."""
    if f["bitfield"]:
        start = m["offset"] * 8 + f["bitfield"]["bit_offset"]
        return start, start + f["bitfield"]["bit_size"]
    return m["offset"] * 8, (m["offset"] + m["size"]) * 8


def check_layout(t, name, line_size):
    """Every top-level field once, in offset order, inside the struct, no
    two taking the same bit, the holes and the padding free."""
    lay = t[name]
    fields = t["fields"]
    taken = bytearray(lay["size"] * 8)
    members = [m for m in lay["members"] if 0 <= m["field"] < len(fields)]
    top = sorted(f["index"] for f in fields
                 if f["depth"] == 0 and f["kind"] != "bitgroup")
    if sorted(m["field"] for m in members) != top:
        fail(f"{t['name']} {name}: members are not the top-level fields")
    if [m["offset"] for m in members] != sorted(m["offset"] for m in members):
        fail(f"{t['name']} {name}: members not in offset order")
    for m in members:
        f = fields[m["field"]]
        what = f"{t['name']} {name}: {f['name']} at {m['offset']}"
        start, end = member_bits(f, m)
        if m["size"] != f["size"]:
            fail(f"{what}: size {m['size']}, the field has {f['size']}")
        if m["line"] != m["offset"] // line_size:
            fail(f"{what}: line {m['line']}")
        if end > len(taken) or (m["offset"] + m["size"]) > lay["size"] > 0:
            fail(f"{what}: ends after the size {lay['size']}")
            continue
        if any(taken[start:end]):
            fail(f"{what}: overlaps another member")
        taken[start:end] = b"\1" * (end - start)
    free = [(h["offset"], h["size"]) for h in lay["holes"]]
    free.append((lay["size"] - lay["padding"], lay["padding"]))
    for off, size in free:
        if off < 0 or any(taken[off * 8:(off + size) * 8]):
            fail(f"{t['name']} {name}: hole or padding of {size} at {off} is taken")
    units = {m["offset"] for m in members if fields[m["field"]]["bitfield"]}
    for h in lay["bit_holes"]:
        if h["offset"] not in units:
            fail(f"{t['name']} {name}: bit hole at {h['offset']}, no bitfield unit there")
    if lay["cachelines"] != -(-lay["size"] // line_size):
        fail(f"{t['name']} {name}: {lay['cachelines']} cache lines for {lay['size']} bytes")


def check_lockshare(t):
    """The lock is written; it falsely shares its line with what CPU 1 reads."""
    by_name = {f["name"]: f for f in t["fields"]}
    lock = by_name.get("lock")
    if not lock or not lock["leaf"]:
        fail("no lock field")
        return
    if lock["stores"] == 0 or lock["class"] not in ("write-hot", "shared-written"):
        fail(f"lock: {lock['stores']} stores, class {lock['class']}, not written")
    pairs = [p for p in t["false_sharing"] if p["writer"] == lock["index"] and
             t["fields"][p["reader"]]["name"] in ("clock", "flags", "load_avg", "util_avg")]
    if not pairs:
        fail("no false sharing pair of the lock and a field the reader reads")
    elif not all(p["separated"] for p in pairs):
        fail("the suggestion does not separate the lock from its readers")
    if not t["changed"] or t["cost"]["gain"] <= 0:
        fail(f"no better layout suggested (gain {t['cost']['gain']})")


def svg_types(svg):
    """The <g class="type"> groups of the heatmap, by their title."""
    types = {}
    for g in svg.iter(SVG + "g"):
        if g.get("class") != "type":
            continue
        title = next((x for x in g.iter(SVG + "text") if x.get("class") == "type-title"), None)
        if title is not None:
            types[title.text.split(":")[0]] = g
    return types


def check_panel(t, panel, layout, line_size):
    """Rows named as the fields the report shows, in layout order; the cells
    of the JSON; a boundary wherever the cache line changes."""
    fields = t["fields"]
    shown = [f for f in fields if f["leaf"] and f["reported"]]
    member_off = {m["field"]: m["offset"] for m in t[layout]["members"]}

    def offset(f):
        # leaves inside a nested struct or a bitgroup move with their unit
        top = f
        while top["parent"] is not None:
            top = fields[top["parent"]]
        if top["kind"] == "bitgroup":
            top = next(x for x in fields if x["bitfield"] and x["bitfield"]["group"] == f["index"])
        return member_off[top["index"]] + f["offset"] - top["offset"]

    shown.sort(key=lambda f: (offset(f), f["index"]))
    labels = [x for x in panel.iter(SVG + "text") if x.get("class") == "row-label"]
    names = [x.text for x in labels]
    if names != [f["name"] for f in shown]:
        fail(f"{layout} heatmap rows {names}, the report shows {[f['name'] for f in shown]}")
    idx = {f["index"] for f in shown}
    want = set()
    for i, j, _ in t["coaccess"]["cells"]:
        if i in idx and j in idx:
            want |= {(i, j), (j, i)}
    cells = [r for r in panel.iter(SVG + "rect") if r.get("class") == "cell"]
    got = {(int(r.get("data-i")), int(r.get("data-j"))) for r in cells}
    if got != want or len(cells) != len(want):
        fail(f"{layout} heatmap: {len(cells)} cells, the JSON has {len(want)}")
    for r in cells:
        title = r.find(SVG + "title")
        if title is None or " x " not in title.text or "%)" not in title.text:
            fail(f"{layout} heatmap: cell without a 'a x b: weight (pct%)' title")
            break
    lines = len({offset(f) // line_size for f in shown})
    bounds = [p for p in panel.iter(SVG + "path") if p.get("class") == "line-boundary"]
    if len(bounds) != lines - 1:
        fail(f"{layout} heatmap: {len(bounds)} line boundaries for {lines} lines")
    if not [x for x in panel.iter(SVG + "text") if x.get("class") == "line-label"]:
        fail(f"{layout} heatmap: no cache line labels")
    return lines


def check_heatmap(path, doc):
    """The heatmap parses and agrees with the JSON."""
    try:
        svg = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail(f"heatmap is no XML: {e}")
        return
    types = svg_types(svg)
    if set(types) != {t["name"] for t in doc["types"]}:
        fail(f"heatmap types {sorted(types)}, JSON types {[t['name'] for t in doc['types']]}")
    t = next((t for t in doc["types"] if t["name"] == TYPE), None)
    if not t or TYPE not in types:
        return
    panels = [g for g in types[TYPE].iter(SVG + "g") if g.get("class") == "panel"]
    if len(panels) != (2 if t["changed"] else 1):
        fail(f"heatmap: {len(panels)} panels of {TYPE}")
        return
    line_size = doc["header"]["cacheline"]["size"]
    if check_panel(t, panels[0], "current", line_size) < 2:
        fail(f"heatmap: the shown fields of {TYPE} are on one cache line")
    if t["changed"]:
        check_panel(t, panels[1], "suggested", line_size)


def main():
    """Check the JSON, then the heatmap."""
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        doc = json.load(f)
    try:
        jsonschema.Draft202012Validator(schema).validate(doc)
    except jsonschema.ValidationError as e:
        fail(f"JSON does not match the schema: {e.message} at {list(e.absolute_path)}")
        return 1
    line_size = doc["header"]["cacheline"]["size"]
    for t in doc["types"]:
        check_indices(t)
        check_layout(t, "current", line_size)
        check_layout(t, "suggested", line_size)
    t = next((t for t in doc["types"] if t["name"] == TYPE), None)
    if t:
        check_lockshare(t)
    else:
        fail(f"no {TYPE} in {[t['name'] for t in doc['types']]}")
    check_heatmap(sys.argv[3], doc)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
