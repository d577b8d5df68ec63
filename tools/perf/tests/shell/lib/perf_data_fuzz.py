#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutate perf.data files and run a perf report command on each copy.

A perf.data file is untrusted input: users send them to each other.  This
takes good recordings (seeds), damages them where the reader looks (the
file header, the attributes and their ids, the feature section table and
the feature sections, the data section and the size fields of its event
headers) with bit flips, byte overwrites with interesting values, zeroed,
deleted, inserted and duplicated ranges and truncation, runs the report on
each copy with a timeout and sorts the runs into clean exits, error exits,
crashes (a signal, or a sanitizer's or glibc's report) and hangs.  Every
crashing or hanging input is kept with its report, grouped by the top
frames of its stack.

The same --seed, seeds and -n give the same inputs: input N is made by a
random generator seeded with "SEED:N".

  perf_data_fuzz.py --perf perf --record-seeds DIR -n 300 -j 2 -o OUT
  perf_data_fuzz.py --perf perf --seeds DIR -n 100000 -j 2 -o OUT \\
          --rerun-perf build/perf-asan --rerun-fraction 0.05
  perf_data_fuzz.py --perf perf --seeds DIR --replay 1234 -o OUT

It fuzzes 'perf report' by default; a tool of its own passes the report
command (--cmd), the code a crash is to be blamed on (--ours) and the
seeds to record to main() as presets.

Exit status: 0 when no run crashed or hung, 1 when some did, 2 on bad use.
"""

import argparse
import hashlib
import json
import os
import random
import re
import shlex
import signal
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HEADER_SIZE = 104		# struct perf_file_header
FEAT_BITS = 256
FEATURES = ["reserved", "tracing_data", "build_id", "hostname", "osrelease",
            "version", "arch", "nrcpus", "cpudesc", "cpuid", "total_mem",
            "cmdline", "event_desc", "cpu_topology", "numa_topology",
            "branch_stack", "pmu_mappings", "group_desc", "auxtrace", "stat",
            "cache", "sample_time", "mem_topology", "clockid", "dir_format",
            "bpf_prog_info", "bpf_btf", "compressed", "cpu_pmu_caps",
            "clock_data", "hybrid_topology", "pmu_caps"]

DEFAULT_CMD = "report -i {input} --stdio"

# The seeds --record-seeds records: a name, and perf arguments ({perf}: the
# perf fuzzed, {out}: the seed's path)
DEFAULT_SEEDS = [
    ("thloop", ["record", "-e", "cpu-clock", "-c", "100000", "-o", "{out}", "--",
                "{perf}", "test", "-w", "thloop", "1"]),
    ("noploop-g", ["record", "-g", "-e", "cpu-clock", "-c", "100000", "-o", "{out}", "--",
                   "{perf}", "test", "-w", "noploop", "1"]),
]

# What a crash leaves on stderr when it is not a plain signal
CRASH_PATTERNS = [
    ("asan", re.compile(r"ERROR: AddressSanitizer: ([\w-]+)")),
    ("lsan", re.compile(r"ERROR: LeakSanitizer")),
    ("ubsan", re.compile(r"runtime error: (.*)")),
    ("stack-smashing", re.compile(r"\*\*\* stack smashing detected")),
    ("glibc", re.compile(r"^(?:malloc|free|realloc|double free|corrupted)[^\n]*",
                         re.M)),
]
FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (\S+)(?: (\S+))?", re.M)
# Frames of the sanitizer runtime and libc, not where the bug is
NOISE_FRAME = re.compile(r"^(__interceptor_|__asan|__ubsan|__sanitizer|printf_common|"
                         r"StrstrCheck|"
                         r"__libc_|__GI_|_start$|raise$|abort$|"
                         r"mem(cpy|move|set|cmp)$|str\w+$|__memcpy|__memmove)")


def le(fmt, buf, off):
    return struct.unpack_from("<" + fmt, buf, off)


class Layout:
    """Where the parts of a perf.data file are, from its header."""

    def __init__(self, buf):
        self.regions = []	# (name, offset, length)
        self.event_sizes = []	# offsets of the size fields of event headers
        self.size = len(buf)
        if len(buf) < HEADER_SIZE or buf[:8] != b"PERFILE2":
            self.regions.append(("file", 0, len(buf)))
            return
        self.add("header", 0, HEADER_SIZE)
        _, _, attr_size, a_off, a_size, d_off, d_size = le("8sQQQQQQ", buf, 0)
        self.add("attrs", a_off, a_size)
        if 16 < attr_size <= a_size:
            end = min(a_off + a_size, len(buf))
            for off in range(a_off, end - attr_size + 1, attr_size)[:64]:
                ids_off, ids_size = le("QQ", buf, off + attr_size - 16)
                self.add("ids", ids_off, ids_size)
        self.add("data", d_off, d_size)
        feats = int.from_bytes(buf[72:104], "little")
        tab = d_off + d_size
        nr = 0
        for bit in range(FEAT_BITS):
            if not feats & (1 << bit):
                continue
            if tab + 16 * (nr + 1) > len(buf) or tab < HEADER_SIZE:
                break
            f_off, f_size = le("QQ", buf, tab + 16 * nr)
            name = FEATURES[bit] if bit < len(FEATURES) else str(bit)
            self.add("feat:" + name, f_off, f_size)
            nr += 1
        self.add("feat-table", tab, 16 * nr)
        end = min(d_off + d_size, len(buf))
        pos = d_off
        while pos + 8 <= end and len(self.event_sizes) < 1000000:
            self.event_sizes.append(pos + 6)
            size = le("H", buf, pos + 6)[0]
            if size < 8:
                break
            pos += size

    def add(self, name, off, length):
        if 0 <= off < self.size and length > 0:
            self.regions.append((name, off, min(length, self.size - off)))


# PERF_SAMPLE_* bits of the u64 fields at the start of a PERF_RECORD_SAMPLE,
# in their order; TID and CPU are two u32 each
SAMPLE_ORDER = [16, 0, 1, 2, 3, 6, 9, 7]	# IDENTIFIER, IP, TID, TIME, ADDR, ID, ...


def sample_fields(buf, bit):
    """Offsets in @buf of the field PERF_SAMPLE_* @bit of every sample.

    Only for files of one event, where every sample has the same layout;
    an empty list when that is not so or the samples lack the field.
    """
    attr_size, a_off, a_size, d_off, d_size = le("QQQQQ", buf, 16)
    sample_type = le("Q", buf, a_off + 24)[0]
    if a_size != attr_size or not sample_type & (1 << bit):
        return []
    before = SAMPLE_ORDER[:SAMPLE_ORDER.index(bit)]
    field = 8 + 8 * sum(1 for b in before if sample_type & (1 << b))
    found, pos = [], d_off
    while pos + 8 <= min(d_off + d_size, len(buf)):
        kind, _, size = le("IHH", buf, pos)
        if size < 8:
            return []
        if kind == 9:		# PERF_RECORD_SAMPLE
            found.append(pos + field)
        pos += size
    return found


def interesting(rng, width, buf, region):
    top = (1 << (8 * width)) - 1
    _, off, length = region
    return rng.choice([0, 1, 8, 16, 64, 104, 4096, top, top >> 1, (top >> 1) + 1,
                       top - 7, len(buf), len(buf) + 1, len(buf) - 1,
                       len(buf) * 2, length, off + length, 1 << 31, 1 << 32,
                       rng.randrange(len(buf) + 1), rng.randrange(top + 1)]) & top


class Mutator:
    """One damaged copy of a seed; what was done is kept in self.log."""

    WEIGHTS = [("header", 15), ("attrs", 6), ("ids", 4), ("feat-table", 10),
               ("feat:", 25), ("data", 25), ("event-size", 15)]

    def __init__(self, rng, seed_buf):
        self.rng = rng
        self.buf = bytearray(seed_buf)
        self.log = []

    def pick_region(self, layout):
        names, weights = zip(*self.WEIGHTS)
        want = self.rng.choices(names, weights)[0]
        if want == "event-size" and layout.event_sizes:
            return want, None
        regions = [r for r in layout.regions if r[0].startswith(want)]
        return "range", self.rng.choice(regions or layout.regions)

    def range_in(self, region, most=256):
        _, off, length = region
        n = self.rng.randint(1, max(1, min(most, length)))
        start = off + self.rng.randrange(max(1, length - n + 1))
        return start, min(n, len(self.buf) - start)

    def event_size(self, layout):
        pos = self.rng.choice(layout.event_sizes)
        old = le("H", self.buf, pos)[0]
        r = self.rng.random()
        if r < 0.7:
            new = self.rng.choice([0, 1, 4, 7, 8, 9, old - 8, old + 8, old * 2,
                                   old - 1, 0xffff, self.rng.randrange(0x10000)])
            struct.pack_into("<H", self.buf, pos, new & 0xffff)
            self.log.append(f"event size at {pos:#x}: {old} -> {new & 0xffff}")
        else:	# the type (and misc) of the same event header
            new = self.rng.choice([0, 9, 10, 68, 73, 81, 82, 0xffff,
                                   self.rng.randrange(100)])
            struct.pack_into("<I", self.buf, pos - 6, new)
            self.log.append(f"event type at {pos - 6:#x}: -> {new}")

    def mutate_range(self, region):
        rng, buf = self.rng, self.buf
        name, off, length = region
        op = rng.choices(["flip", "byte", "value", "zero", "dup", "copy",
                          "delete", "insert", "truncate"],
                         [20, 10, 25, 10, 8, 7, 7, 5, 8])[0]
        where = f"{name}[{off:#x}+{length:#x}]"
        if op == "flip":
            for _ in range(rng.randint(1, 4)):
                pos = off + rng.randrange(length)
                buf[pos] ^= 1 << rng.randrange(8)
                self.log.append(f"flip {where} at {pos:#x}")
        elif op == "byte":
            for _ in range(rng.randint(1, 4)):
                pos = off + rng.randrange(length)
                buf[pos] = rng.randrange(256)
                self.log.append(f"byte {where} at {pos:#x} = {buf[pos]:#x}")
        elif op == "value":
            width = rng.choice([w for w in (1, 2, 4, 8) if w <= length] or [1])
            pos = off + rng.randrange(0, length - width + 1, width)
            val = interesting(rng, width, buf, region)
            buf[pos:pos + width] = val.to_bytes(width, "little")
            self.log.append(f"value {where} at {pos:#x} u{width * 8} = {val:#x}")
        elif op == "zero":
            start, n = self.range_in(region)
            buf[start:start + n] = bytes(n)
            self.log.append(f"zero {where} {start:#x}+{n:#x}")
        elif op == "dup":	# a range again, right after itself or elsewhere
            start, n = self.range_in(region)
            to = rng.choice([start + n, off + rng.randrange(length + 1)])
            buf[to:to] = buf[start:start + n]
            self.log.append(f"dup {where} {start:#x}+{n:#x} inserted at {to:#x}")
        elif op == "copy":
            start, n = self.range_in(region)
            to = rng.randrange(len(buf))
            buf[to:to + n] = buf[start:start + n]
            self.log.append(f"copy {where} {start:#x}+{n:#x} over {to:#x}")
        elif op == "delete":
            start, n = self.range_in(region)
            del buf[start:start + n]
            self.log.append(f"delete {where} {start:#x}+{n:#x}")
        elif op == "insert":
            pos = off + rng.randrange(length + 1)
            n = rng.randint(1, 64)
            buf[pos:pos] = rng.randbytes(n)
            self.log.append(f"insert {where} {n} random bytes at {pos:#x}")
        else:
            pos = off + rng.randrange(length + 1)
            del buf[pos:]
            self.log.append(f"truncate {where} at {pos:#x}")

    def run(self):
        for _ in range(self.rng.choices([1, 2, 3, 4], [50, 30, 12, 8])[0]):
            layout = Layout(self.buf)
            if not layout.regions or not self.buf:
                break
            kind, region = self.pick_region(layout)
            if kind == "event-size":
                self.event_size(layout)
            else:
                self.mutate_range(region)
        return bytes(self.buf)


def make_input(seeds, seed, index):
    rng = random.Random(f"{seed}:{index}")
    name, buf, _ = rng.choices(seeds, [w for _, _, w in seeds])[0]
    m = Mutator(rng, buf)
    return name, m.run(), m.log


def classify(rc, err):
    """(class, kind): clean / error / crash / hang, and what crashed."""
    if rc is None:
        return "hang", "timeout"
    for kind, pat in CRASH_PATTERNS:
        m = pat.search(err)
        if m:
            return "crash", kind + (":" + m.group(1).split()[0] if m.groups() else "")
    if rc < 0:
        return "crash", signal.Signals(-rc).name
    if rc >= 128 + 1 and rc - 128 in signal.valid_signals():
        return "crash", signal.Signals(rc - 128).name
    return ("clean", "") if rc == 0 else ("error", "")


def stack_key(kind, err, nframes=3):
    """The crash kind and the top frames of the stack that are not noise."""
    frames = []
    for func, where in FRAME.findall(err):
        if NOISE_FRAME.match(func) or "libasan" in where or "libubsan" in where:
            continue
        frames.append(func)
        if len(frames) == nframes:
            break
    return kind + " " + " < ".join(frames or ["?"])


def is_ours(err, ours):
    """Is the top frame that is not the sanitizers' or libc's one @ours matches?"""
    if not ours:
        return False
    for func, where in FRAME.findall(err):
        if NOISE_FRAME.match(func) or not where or where.startswith("("):
            continue
        return bool(re.search(ours, f"{func} {where}"))
    return False


class Runner:
    def __init__(self, args, env):
        self.args = args
        self.env = env
        self.lock = threading.Lock()
        self.counts = {"clean": 0, "error": 0, "crash": 0, "hang": 0}
        self.crashes = {}	# stack key -> [index, ...]
        self.ours = {}		# stack key -> the top frame is the code --ours names
        self.errors = {}	# first stderr line -> count
        self.rerun = {"runs": 0, "clean": 0, "error": 0, "crash": 0, "hang": 0}
        self.done = 0
        self.start = time.time()

    def execute(self, perf, path, index):
        tmp = os.path.join(self.args.output, "tmp")
        subst = {"input": path, "json": f"{tmp}/{index}.json",
                 "svg": f"{tmp}/{index}.svg"}
        cmd = [perf] + [w.format(**subst) for w in shlex.split(self.args.cmd)]
        try:
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 env=self.env, start_new_session=True)
        except OSError as e:
            sys.exit(f"perf_data_fuzz: {cmd[0]}: {e}")
        try:
            _, err = p.communicate(timeout=self.args.timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            # SIGABRT first: a sanitizer build (handle_abort=1) prints the stack
            os.killpg(p.pid, signal.SIGABRT)
            try:
                _, err = p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                _, err = p.communicate()
            rc = None
        for f in ("json", "svg"):
            if os.path.exists(subst[f]):
                os.unlink(subst[f])
        return cmd, rc, err.decode("utf-8", "replace")[-65536:]

    def keep(self, cls, kind, index, data, cmd, err, log, seed_name):
        key = stack_key(kind if cls == "crash" else "hang", err)
        sig = hashlib.sha1(key.encode()).hexdigest()[:10]
        with self.lock:
            first = key not in self.crashes
            self.crashes.setdefault(key, []).append(index)
            self.ours.setdefault(key, is_ours(err, self.args.ours))
            nr = len(self.crashes[key])
        if nr > self.args.keep_per_stack:
            return
        d = os.path.join(self.args.output, cls + "es" if cls == "crash" else "hangs", sig)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"{index}.data"), "wb") as f:
            f.write(data)
        with open(os.path.join(d, f"{index}.txt"), "w") as f:
            f.write(f"stack: {key}\nin the code --ours names: {is_ours(err, self.args.ours)}\n"
                    f"seed file: {seed_name}, input {index} of --seed {self.args.seed}\n"
                    f"mutations:\n  " + "\n  ".join(log) + "\n"
                    f"command: {shlex.join(cmd)}\n\n{err}")
        if first:
            print(f"new {cls}: {key} (input {index}, {d})", flush=True)

    def one(self, seeds, index):
        seed_name, data, log = make_input(seeds, self.args.seed, index)
        path = os.path.join(self.args.output, "tmp", f"{index}.data")
        with open(path, "wb") as f:
            f.write(data)
        cmd, rc, err = self.execute(self.args.perf, path, index)
        cls, kind = classify(rc, err)
        rerun = self.args.rerun_perf and (
            cls != "clean" or random.Random(f"rerun:{index}").random() < self.args.rerun_fraction)
        if rerun:
            cmd2, rc2, err2 = self.execute(self.args.rerun_perf, path, index)
            cls2, kind2 = classify(rc2, err2)
            with self.lock:
                self.rerun["runs"] += 1
                self.rerun[cls2] += 1
            if cls2 in ("crash", "hang") and cls not in ("crash", "hang"):
                cls, kind, cmd, err = cls2, kind2, cmd2, err2
            elif cls in ("crash", "hang") and cls2 == cls:
                kind, err, cmd = kind2, err2, cmd2	# the sanitizer's stack
        if cls in ("crash", "hang"):
            self.keep(cls, kind, index, data, cmd, err, log, seed_name)
        elif cls == "error":
            first = (err.strip().splitlines() or ["(nothing on stderr)"])[0][:100]
            first = re.sub(r"/\S+", "PATH", first)
            with self.lock:
                self.errors[first] = self.errors.get(first, 0) + 1
        os.unlink(path)
        with self.lock:
            self.counts[cls] += 1
            self.done += 1
            if self.args.progress and self.done % self.args.progress == 0:
                rate = self.done / (time.time() - self.start)
                print(f"{self.done} inputs, {rate:.1f}/s: " +
                      ", ".join(f"{k} {v}" for k, v in self.counts.items()), flush=True)

    def summary(self):
        return {"inputs": self.done, "seconds": round(time.time() - self.start, 1),
                "seed": self.args.seed, "command": self.args.cmd,
                "perf": self.args.perf, "counts": self.counts,
                "rerun": self.rerun if self.args.rerun_perf else None,
                "crash_stacks": {k: {"count": len(v), "inputs": v[:20],
                                     "ours": self.ours[k]}
                                 for k, v in sorted(self.crashes.items())},
                "error_first_lines": dict(sorted(self.errors.items(),
                                                 key=lambda kv: -kv[1])[:40])}


def record_seeds(perf, d, env, runs):
    """Small real recordings, each of @runs: (name, perf arguments)."""
    os.makedirs(d, exist_ok=True)
    for name, argv in runs:
        r = [a.format(perf=perf, out=os.path.join(d, name + ".data")) for a in argv]
        p = subprocess.run([perf] + r, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env=env)
        if p.returncode:
            sys.exit(f"perf_data_fuzz: {shlex.join(r)} failed:\n"
                     + p.stderr.decode(errors="replace")[-2000:])


def load_seeds(d, weights):
    """(name, content, weight) of the seeds named in @weights, or all."""
    seeds = []
    for name in sorted(os.listdir(d)):
        base = name[:-5]
        if name.endswith(".data") and (not weights or base in weights):
            with open(os.path.join(d, name), "rb") as f:
                seeds.append((name, f.read(), weights.get(base, 1) if weights else 1))
    return seeds


def parse_weights(arg):
    """"synth=8,lockshare" -> {"synth": 8, "lockshare": 1}"""
    if not arg:
        return None
    return {k: float(v or 1) for k, _, v in (w.partition("=") for w in arg.split(","))}


def main(presets=None):
    """@presets: a tool's "cmd", "ours" and "seeds" (as DEFAULT_SEEDS)"""
    presets = presets or {}
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--perf", default="perf", help="the perf to fuzz")
    ap.add_argument("--cmd", default=presets.get("cmd", DEFAULT_CMD),
                    help="perf arguments; {input}, {json} and {svg} are replaced")
    ap.add_argument("--ours", metavar="REGEX", default=presets.get("ours"),
                    help="a crash whose top frame ('function file:line') matches "
                    "is the code under test's, not perf's")
    ap.add_argument("--seeds", help="directory of seed *.data files")
    ap.add_argument("--record-seeds", metavar="DIR",
                    help="record the seeds into DIR first (with --perf)")
    ap.add_argument("--only", metavar="NAME[=WEIGHT],...",
                    help="use only these seeds (file names without .data), "
                    "chosen in proportion to their weights (default 1)")
    ap.add_argument("-o", "--output", required=True, help="result directory")
    ap.add_argument("-n", "--inputs", type=int, default=1000)
    ap.add_argument("--first", type=int, default=0, help="index of the first input")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("-s", "--seed", default="1")
    ap.add_argument("-t", "--timeout", type=float, default=30)
    ap.add_argument("--rerun-perf",
                    help="run every non-clean input, and --rerun-fraction of the "
                    "clean ones, again with this perf (a sanitizer build)")
    ap.add_argument("--rerun-fraction", type=float, default=0.0)
    ap.add_argument("--keep-per-stack", type=int, default=20)
    ap.add_argument("--progress", type=int, default=0, help="print counts every N inputs")
    ap.add_argument("--replay", type=int, metavar="N",
                    help="only write input N to OUTPUT/N.data and print its mutations")
    args = ap.parse_args()

    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS",
                   "abort_on_error=1:detect_leaks=0:allocator_may_return_null=1")
    env.setdefault("UBSAN_OPTIONS", "abort_on_error=1:halt_on_error=1:print_stacktrace=1")
    # the stack of a hang, when the timeout sends SIGABRT to a sanitizer build
    if "handle_abort" not in env["ASAN_OPTIONS"]:
        env["ASAN_OPTIONS"] += ":handle_abort=1"
    env["PAGER"] = "cat"
    seed_dir = args.record_seeds or args.seeds
    if not seed_dir:
        ap.error("--seeds or --record-seeds is needed")
    if args.record_seeds:
        record_seeds(args.perf, args.record_seeds, env, presets.get("seeds", DEFAULT_SEEDS))
    seeds = load_seeds(seed_dir, parse_weights(args.only))
    if not seeds:
        ap.error(f"no seed *.data files in {seed_dir}")
    os.makedirs(os.path.join(args.output, "tmp"), exist_ok=True)

    if args.replay is not None:
        name, data, log = make_input(seeds, args.seed, args.replay)
        path = os.path.join(args.output, f"{args.replay}.data")
        with open(path, "wb") as f:
            f.write(data)
        print(f"{path}: from {name}\n  " + "\n  ".join(log))
        return 0

    runner = Runner(args, env)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for f in [pool.submit(runner.one, seeds, i)
                  for i in range(args.first, args.first + args.inputs)]:
            f.result()
    summary = runner.summary()
    with open(os.path.join(args.output, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    c = summary["counts"]
    print(f"{runner.done} inputs in {summary['seconds']} s: {c['clean']} clean exits, "
          f"{c['error']} error exits, {c['crash']} crashes, {c['hang']} hangs")
    if args.rerun_perf:
        r = runner.rerun
        print(f"rerun with {args.rerun_perf}: {r['runs']} inputs: {r['clean']} clean, "
              f"{r['error']} error, {r['crash']} crashes, {r['hang']} hangs")
    for key, idx in sorted(runner.crashes.items()):
        where = "ours" if runner.ours[key] else "perf"
        print(f"  {len(idx)} x {key} (e.g. input {idx[0]}; {where})")
    try:
        os.rmdir(os.path.join(args.output, "tmp"))
    except OSError:
        pass
    return 1 if c["crash"] or c["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
