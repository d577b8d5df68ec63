#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""realign.py OLD NEW: after a rename that made lines longer, re-indent the
continuation lines of NEW that OLD aligned to an open parenthesis or to the
right-hand side of an assignment, and break lines wider than 100 columns.
NEW is rewritten in place.  OLD and NEW have the same number of lines."""
import re
import sys

TAB = 8
WIDTH = 100
OPS = (' && ', ' || ', ' ? ', ' : ', ' != ', ' == ', ' <= ', ' >= ', ' < ', ' > ')


def col_of(s, i, c=0):
    for ch in s[:i]:
        c = (c // TAB + 1) * TAB if ch == '\t' else c + 1
    return c


def width(s):
    return col_of(s, len(s))


def indent(col):
    return '\t' * (col // TAB) + ' ' * (col % TAB)


def lead(s):
    return re.match(r'[ \t]*', s).end()


def scan(segments):
    """Over text segments (each from column 0 of its own line), the columns
    after each '(' still open at the end, the parentheses closed that none
    of the segments opened, the column after the first '= ' outside them,
    and the break points: (segment, index, column of the innermost '(',
    depth)"""
    stack, closed, assign, pts = [], 0, None, []
    for k, text in enumerate(segments):
        in_str = None
        i = 0
        while i < len(text):
            ch = text[i]
            if in_str:
                if ch == '\\':
                    i += 2
                    continue
                if ch == in_str:
                    in_str = None
            elif ch in '"\'':
                in_str = ch
            elif text[i:i + 2] in ('/*', '//'):
                break
            elif ch == '(':
                stack.append(col_of(text, i + 1))
            elif ch == ')':
                if stack:
                    stack.pop()
                else:
                    closed += 1
            elif ch == '=' and assign is None and not stack and \
                    text[i - 1:i] not in tuple('=!<>+-*/|&^%') and text[i + 1:i + 2] == ' ':
                assign = col_of(text, i + 2)
            elif ch == ',' and text[i + 1:i + 2] == ' ':
                pts.append((k, i + 1, stack[-1] if stack else None, len(stack)))
            else:
                for op in OPS:
                    if text.startswith(op, i):
                        pts.append((k, i + len(op) - 1, stack[-1] if stack else None,
                                    len(stack)))
                        break
            i += 1
    return stack, closed, assign, pts


def break_long(line, cont):
    """@line in pieces of at most WIDTH columns; @cont: the line continues a
    statement (a piece outside parentheses aligns with it)"""
    if width(line) <= WIDTH:
        return [line]
    base = col_of(line, lead(line))
    best = None
    for _, idx, col, depth in scan([line])[3]:
        rest = line[idx:].strip()
        if width(line[:idx].rstrip()) > WIDTH or not rest:
            continue
        # the outermost break that fits: after a comma or a logical operator
        # rather than a comparison, not before a short tail; the last of those
        op = line[idx - 2:idx + 1].strip()
        kind = 2 if op in ('!=', '==', '<=', '>=', '<', '>') else 1 if op in ('?', ':') else 0
        key = (depth, kind, len(rest) < 16, -idx)
        if best is None or key < best[2]:
            best = (idx, col, key)
    if best is None:
        return [line]
    idx, col, _ = best
    if col is None and line.lstrip().startswith('return '):
        col = base + len('return ')
    elif col is None:
        col = base if cont else base + TAB
    return [line[:idx].rstrip()] + break_long(indent(col) + line[idx:].lstrip(), True)


def ends_statement(s):
    s = s.rstrip()
    return not s or s.endswith((';', '{', '}', '*/')) or s.lstrip().startswith('#')


def realign(old, new):
    out = []
    ctx = []		# (old column, new column) a continuation may align to
    broken = False	# the last line was broken: its last piece may take the next
    for i, (o, n) in enumerate(zip(old, new)):
        if ctx and o.strip():
            ocol = col_of(o, lead(o))
            for oc, nc in reversed(ctx):
                if oc == ocol:
                    n = indent(nc) + n[lead(n):]
                    break
        ost, oclosed, oassign, _ = scan([o])
        cont = bool(ctx) or (i > 0 and old[i - 1].rstrip().endswith(
            (',', '&&', '||', '?', '=', '+', '-', '*', '/', '(', '|', '&')))
        if broken and n.strip() and col_of(n, lead(n)) == col_of(out[-1], lead(out[-1])) and \
                width(out[-1] + ' ' + n.strip()) <= WIDTH:
            head = out[-1] + ' '
            out[-1] = head + n.strip()
            # the columns of the joined text, as if it started at head's end
            nst, _, nassign, _ = scan([indent(width(head)) + n.strip()])
            broken = False
        else:
            pieces = break_long(n, cont) if n != o else [n]
            out.extend(pieces)
            nst, _, nassign, _ = scan(pieces)
            broken = len(pieces) > 1 and not ends_statement(n)
        for _ in range(min(oclosed, len(ctx))):
            ctx.pop()
        if len(ost) == len(nst):
            ctx.extend(zip(ost, nst))
        if oassign is not None and nassign is not None and not ost:
            ctx.append((oassign, nassign))
        if ends_statement(o):
            ctx = []
    return out


def main():
    old = open(sys.argv[1]).read().split('\n')
    new = open(sys.argv[2]).read().split('\n')
    if len(old) != len(new):
        sys.exit('realign: %s and %s differ in lines' % tuple(sys.argv[1:3]))
    open(sys.argv[2], 'w').write('\n'.join(realign(old, new)))


main()
