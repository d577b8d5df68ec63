#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fuzz 'perf affinity check -i report.json' with mutated saved reports.

A saved report is untrusted input as a perf.data is.  Each case mutates
the seed report either as text (bytes changed, cut, deleted, brackets and
escapes put in) or as a document (values replaced by null, negative,
huge, fractional, strings, containers; members deleted), runs check on it
against BINARY, and counts as a finding a sanitizer error, a death by a
signal, or a leak in perf affinity's own code.  Findings are kept as
OUT/case-N.json.

  affinity_json_fuzz.py --perf build/perf-asan SEED.json BINARY [-n 400] [-s 1]
"""
import argparse
import copy
import json
import os
import random
import subprocess
import sys

WEIRD = [None, -1, 0, 1e300, -1e300, 2**40, "x", "", [], {}, True, 65535, 65536, 3.5]
TOKENS = [b'[', b']', b'{', b'}', b'"', b'\\', b'\\u', b',', b'-', b'e9999']


def paths(o, p=()):
    yield p
    if isinstance(o, dict):
        for k, v in o.items():
            yield from paths(v, p + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from paths(v, p + (i,))


def mutate_doc(rnd, doc, all_paths):
    d = copy.deepcopy(doc)
    for _ in range(rnd.randint(1, 4)):
        p = rnd.choice(all_paths)
        if not p:
            continue
        cur = d
        try:
            for k in p[:-1]:
                cur = cur[k]
            if rnd.random() < 0.3 and isinstance(cur, dict):
                del cur[p[-1]]
            else:
                cur[p[-1]] = rnd.choice(WEIRD)
        except (KeyError, IndexError, TypeError):
            pass
    return json.dumps(d).encode()


def mutate_text(rnd, text):
    t = bytearray(text)
    for _ in range(rnd.randint(1, 8)):
        i = rnd.randrange(len(t))
        op = rnd.random()
        if op < 0.4:
            t[i] = rnd.randrange(256)
        elif op < 0.7:
            del t[i:i + rnd.randint(1, 20)]
        else:
            t[i:i] = rnd.choice(TOKENS)
    if rnd.random() < 0.1:
        t = t[:rnd.randrange(len(t))]
    return bytes(t)


def finding(r):
    err = r.stderr
    if b'LeakSanitizer' in err:
        return b'util/affinity/' in err
    return (b'ERROR: AddressSanitizer' in err or b'runtime error' in err or
            r.returncode < 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--perf', required=True)
    ap.add_argument('seed')
    ap.add_argument('binary')
    ap.add_argument('-n', type=int, default=400, help='cases')
    ap.add_argument('-s', type=int, default=1, help='random seed')
    ap.add_argument('-o', default='/tmp/affinity-json-fuzz', help='findings go here')
    args = ap.parse_args()

    text = open(args.seed, 'rb').read()
    doc = json.loads(text)
    all_paths = list(paths(doc))
    rnd = random.Random(args.s)
    env = dict(os.environ,
               ASAN_OPTIONS='abort_on_error=1:detect_leaks=1:allocator_may_return_null=1',
               UBSAN_OPTIONS='abort_on_error=1:halt_on_error=1:print_stacktrace=1')
    os.makedirs(args.o, exist_ok=True)
    case = os.path.join(args.o, 'case.json')
    codes, found = {}, 0
    for k in range(args.n):
        data = mutate_doc(rnd, doc, all_paths) if k % 2 else mutate_text(rnd, text)
        with open(case, 'wb') as f:
            f.write(data)
        r = subprocess.run([args.perf, 'affinity', 'check', '-i', case, args.binary],
                           capture_output=True, env=env, timeout=120)
        codes[r.returncode] = codes.get(r.returncode, 0) + 1
        if finding(r):
            found += 1
            kept = os.path.join(args.o, 'case-%d.json' % k)
            os.replace(case, kept)
            print('%s: exit %d\n%s' % (kept, r.returncode,
                                       r.stderr.decode(errors='replace')[-2000:]))
    print('%d cases, exit statuses %s, %d findings' %
          (args.n, dict(sorted(codes.items())), found))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
