#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two layouts of one struct in pahole's format: the members of the
outermost struct (an anonymous union or struct as one member) must have the
same offsets and sizes, bitfields the same bit offsets, and the struct the
same size and cache lines.

    affinity_pahole_cmp.py PAHOLE_OUTPUT OTHER_OUTPUT

Exits 1 and prints the first difference if they differ."""
import re
import sys

# "/*   128   512 */" or "/*   128: 3  1 */" at the end of a member line
POS = re.compile(r"/\*\s*(\d+)(?::\s*(\d+))?\s+(\d+)\s*\*/\s*$")
SIZE = re.compile(r"/\* size: (\d+), cachelines: (\d+), members: \d+ \*/")


# perf affinity's name of an anonymous member: "{...}" type, "{a|b}" name
OURS = re.compile(r"\{\.\.\.\}|\{[^{}]*\|[^{}]*\}|\{\?\}")


def members(path):
    """[(offset, bit offset, size, name)] of the outermost struct, and its size"""
    out, depth, size = [], 0, None
    for line in open(path):
        text = OURS.sub("{anon}", line.strip()).replace("{anon}", "ANON")
        pos = POS.search(text)
        if text.startswith("}"):
            depth -= 1
            if depth == 1 and pos:
                out.append((int(pos.group(1)), int(pos.group(2) or 0), int(pos.group(3)),
                            "{anon}"))
            continue
        m = SIZE.search(text)
        if m and depth == 1:
            size = (int(m.group(1)), int(m.group(2)))
        if pos and depth == 1 and "{" not in text:
            name = text.split("/*")[0].strip().rstrip(";").split()[-1]
            out.append((int(pos.group(1)), int(pos.group(2) or 0), int(pos.group(3)),
                        "{anon}" if "ANON" in name else name))
        depth += text.count("{") - text.count("}")
    return out, size


def name_of(m):
    return m[3].split("[")[0].split(":")[0].lstrip("*(")


def main():
    (a, size_a), (b, size_b) = members(sys.argv[1]), members(sys.argv[2])
    if size_a != size_b:
        print("size, cachelines: %s against %s" % (size_a, size_b))
        return 1
    if len(a) != len(b):
        print("%d members against %d" % (len(a), len(b)))
    for x, y in zip(a, b):
        if x[:3] != y[:3] or (x[3] != "{anon}" and name_of(x) != name_of(y)):
            print("member %s at %d:%d size %d against %s at %d:%d size %d" %
                  (x[3], x[0], x[1], x[2], y[3], y[0], y[1], y[2]))
            return 1
    if len(a) != len(b):
        return 1
    print("%d members, size %d, %d cachelines: the same" % (len(a), size_a[0], size_a[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
