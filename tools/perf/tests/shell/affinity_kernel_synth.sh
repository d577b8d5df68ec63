#!/bin/bash
# perf affinity report on kernel samples of struct rq
# SPDX-License-Identifier: GPL-2.0
#
# PEBS-shaped samples of the scheduler of a real vmlinux (perf bench
# affinity kernel-synth: the owner takes its rq's lock and updates its
# clocks, the others read its nr_running, curr, idle, ttwu_pending and
# capacity to balance, and take its lock to wake tasks up) go through the
# kernel path of perf affinity report -k: the kernel MMAP and build ID,
# data-type profiling of the vmlinux's instructions (%gs: relative ones
# too), the lock taken through &rq->__lock counted in the rq it is in.
# Needs a vmlinux with DWARF: AFFINITY_VMLINUX, or the one 'make
# kernel-demo' fetches into build/kernel.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

vmlinux=${AFFINITY_VMLINUX:-${shelldir}/../../../../../kernel/vmlinux}
[ -r "${vmlinux}" ] || affinity__skip "no vmlinux with DWARF: run 'make kernel-demo', or set AFFINITY_VMLINUX"

data="${tmpdir}/perf.data"
if ! perf bench affinity kernel-synth -k "${vmlinux}" -o "${data}" -c 4 -n 100000 --truth \
		> "${tmpdir}/truth" 2> "${tmpdir}/synth.err"; then
	cat "${tmpdir}/synth.err"
	fail "perf bench affinity kernel-synth"
	cleanup
	exit $err
fi

report() {
	perf affinity report -i "${data}" -k "${vmlinux}" --stdio "$@" 2> "${tmpdir}/err"
}

# every sample attributed, by the instruction or the rq it is in
report --stats > "${tmpdir}/stats" || fail "report --stats"
python3 - "${tmpdir}/stats" <<'EOF' || fail "fewer than 95% of the kernel accesses attributed"
import re, sys
text = open(sys.argv[1]).read()
def count(label):
    m = re.search(r"^\s*" + re.escape(label) + r"\s*:\s*(\d+)", text, re.M)
    return int(m.group(1)) if m else 0
acc = count("Accesses")
done = count("Attributed to a struct field")
kernel = count("in kernel mode")
print(f"attributed {done} of {acc} kernel accesses ({kernel} in kernel mode), "
      f"{count('in the instance it is embedded in')} in the rq their lock is in")
sys.exit(not (acc and kernel == acc and done >= 0.95 * acc))
EOF

# the report's fields are the offsets the samples hit, as many times
report --json "${tmpdir}/rq.json" > /dev/null || fail "report --json"
python3 - "${tmpdir}/truth" "${tmpdir}/rq.json" <<'EOF' || fail "the report's rq fields are not the samples'"
import json, sys
truth = {}
for line in open(sys.argv[1]):
    if line.startswith("0"):
        off, n = line.split()
        truth[int(off, 16)] = int(n)
rq = [t for t in json.load(open(sys.argv[2]))["types"] if t["name"] == "struct rq"][0]
got = {}
for f in rq["fields"]:
    n = f.get("loads", 0) + f.get("stores", 0) + f.get("rmws", 0)
    if f["leaf"] and n:
        got[f["offset"]] = n
# the first lock samples may come before any rq access identified the rq
lost = sum(truth.values()) - sum(got.values())
bad = [o for o in truth if o and got.get(o) != truth[o]]
print(f"{len(truth)} offsets, {sum(got.values())} of {sum(truth.values())} samples")
sys.exit(bool(bad or not 0 <= lost <= 8 or set(got) - set(truth)))
EOF

for size in 64 128; do
	report --cacheline-size ${size} > "${tmpdir}/report.${size}" || fail "report at ${size}"
	grep -q "^  struct rq " "${tmpdir}/report.${size}" || fail "${size}: no struct rq"
	# the owner's lock, written by every CPU, next to what the balancers read
	grep -Eq "__lock[^ ]* \(written on CPU 0-3\) -> nr_running \(read on CPU 0-3\)" \
		"${tmpdir}/report.${size}" || fail "${size}: __lock next to nr_running not flagged"
	grep -Eq "^    cache lines per window +[0-9.]+ +[0-9.]+" "${tmpdir}/report.${size}" ||
		fail "${size}: no lines per window"
	grep -Eq "__lock[^ ]* \(written on CPU 0-3\) -> nr_running .*, separated in the suggestion" \
		"${tmpdir}/report.${size}" || fail "${size}: the suggestion leaves __lock with nr_running"
done
# the per-CPU copies are paid once a possible CPU; a member moved in a kernel type: BTF
grep -Eq "^  memory where the instances live \(per-CPU copies\): .* for the 4 possible CPUs" \
	"${tmpdir}/report.64" || fail "64: no memory price over the 4 CPUs"
grep -Eq "^  note: [0-9]+ offsets change: BPF programs that read the members through BTF \(CO-RE\) relocate" \
	"${tmpdir}/report.64" || fail "64: no note for BPF programs"
# at 64 bytes the balancers' fields share the first line, the lock is not on it
python3 - "${tmpdir}/report.64" <<'EOF' || fail "64: the balancers' fields are not on one line without the lock"
import re, sys
text = open(sys.argv[1]).read()
sugg = text[text.index("Suggested layout"):]
sugg = sugg[:sugg.index("size:")]
off = {m.group(1): int(m.group(2)) for m in
       re.finditer(r"^\t\S.*?(\S+);\s+/\*\s+(\d+)\s+\d+ \*/", sugg, re.M)}
line = lambda f: off[f] // 64
hot = ["nr_running", "cpu_capacity", "misfit_task_load", "idle", "cpu"]
print("line of", {f: line(f) for f in hot + ["__lock"]})
sys.exit(len({line(f) for f in hot}) != 1 or line("__lock") == line("nr_running"))
EOF

# a header of 2 CPUs for samples of 4: kernel lines are owned by CPUs
python3 - "${data}" "${tmpdir}/2cpus.data" "${shelldir}/lib" <<'EOF'
import struct, sys
sys.path.insert(0, sys.argv[3])
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
where = [r[1] for r in Layout(buf).regions if r[0] == "feat:nrcpus"][0]
struct.pack_into("<I", buf, where, 2)
open(sys.argv[2], "wb").write(buf)
EOF
if perf affinity report -i "${tmpdir}/2cpus.data" -k "${vmlinux}" --stdio > /dev/null \
		2> "${tmpdir}/err" || ! grep -q "a sample of CPU [23], but the header says 2 CPUs" \
		"${tmpdir}/err"; then
	head -3 "${tmpdir}/err"
	fail "samples of CPUs past the header's count: no clear error"
fi

cleanup
exit $err
