#!/bin/bash
# perf affinity record --vmlinux --watch: struct rq of a real kernel in a guest
# SPDX-License-Identifier: GPL-2.0
#
# Boots Debian's 6.12 kernel in QEMU (mk/guest-boot.sh, TCG where KVM does
# not work) with this perf and a scheduler stress, and records there with
# hardware watchpoints on three members of every CPU's struct rq
# (runqueues, a per-CPU variable), located through the vmlinux, KASLR
# and __per_cpu_offset[].  On the host, the report against the vmlinux
# must attribute the hits to those members and take their roles from
# them.  Sampling alone sees struct rq hardly ever: the scheduler touches
# it with interrupts off.  Needs 'make kernel-fetch' (QEMU, busybox, the
# kernel image and its vmlinux in build/kernel); skipped without.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

# the perf affinity tree: from build/linux/tools/perf, or from its tools/perf
for top in "${shelldir}/../../../../../.." "${shelldir}/../../../.." ""; do
	[ -r "${top}/mk/guest-boot.sh" ] && break
done
[ -n "${top}" ] || affinity__skip "not run from the perf affinity tree (no mk/guest-boot.sh)"
top=$(cd "${top}" && pwd)
kdir=${top}/build/kernel
[ -r "${kdir}/vmlinuz" ] && [ -r "${kdir}/vmlinux" ] ||
	affinity__skip "no kernel image and vmlinux in build/kernel: run 'make kernel-fetch'"
for tool in qemu-system-x86_64 busybox cpio gcc; do
	command -v ${tool} > /dev/null || affinity__skip "no ${tool}: run 'make kernel-fetch'"
done

cat > "${tmpdir}/record.sh" <<'EOF'
perf affinity record -a --vmlinux /vmlinux --watch-duty 50 \
	--watch runqueues.nr_running,runqueues.__lock,runqueues.clock \
	-o rq.data -- schedstress 4 > rq.record 2>&1
EOF
if ! PERF=$(command -v perf) BUILD="${top}/build" GUEST_TIMEOUT=400 \
     sh "${top}/mk/guest-boot.sh" "${kdir}" "${tmpdir}/record.sh" "${tmpdir}/out" \
     > "${tmpdir}/boot.log" 2>&1; then
	tail -20 "${tmpdir}/boot.log"
	fail "the guest did not record"
	cleanup
	exit ${err}
fi
out=${tmpdir}/out
grep -q "4 watchpoints rotate over the 12 ranges.*: runqueues.__lock x4, runqueues.nr_running x4" \
	"${out}/rq.record" ||
	fail "record --watch runqueues.x: not one range per CPU (4 CPUs, 3 members)"
[ "$(grep -c 'perf affinity: watching\|watchpoints rotate' "${out}/rq.record")" = 1 ] ||
	fail "record --vmlinux --watch: not one line for the 12 ranges: $(head -3 "${out}/rq.record")"

want=$(readelf -n "${kdir}/vmlinux" | sed -n 's/.*Build ID: //p')
got=$(perf buildid-list -i "${out}/rq.data" 2> /dev/null | awk '/\[kernel.kallsyms\]/ { print $1 }')
[ "${got}" = "${want}" ] || fail "the guest's kernel is not the vmlinux's: '${got}', '${want}'"

# one report, both outputs: against a vmlinux it takes some 20 s
perf affinity report -v -i "${out}/rq.data" -k "${kdir}/vmlinux" -T rq --stdio \
	--json "${tmpdir}/report.json" > "${tmpdir}/report" 2> "${tmpdir}/report.err" ||
	fail "report of the guest's recording: $(tail -1 "${tmpdir}/report.err")"
# once, though perf maps sections of the vmlinux apart as DSOs of their own
n=$(grep -c 'perf affinity: the debug info of .*vmlinux' "${tmpdir}/report.err")
[ "${n}" = 1 ] || fail "the vmlinux's debug info opened ${n} times for attribution"
affinity__valid report "${tmpdir}/report.json" || fail "--json: not as its schema says"
for f in nr_running clock; do
	grep -E -q "^  ${f} .*\(exact\)$" "${tmpdir}/report" ||
		fail "struct rq ${f}: its roles are not the watchpoints'"
done
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = d["types"][0]
hits = {f["name"].split(".")[0]: f["watched"]["hits"] for f in t["fields"]
	if f.get("leaf") and f.get("watched")}
print("struct rq hits", hits, "watched", d["header"]["attribution"]["watched"])
ok = t["name"] == "struct rq" and hits.get("nr_running", 0) >= 8 and hits.get("clock", 0) >= 8
if not ok:
	print("struct rq: nr_running and clock not attributed from watchpoint hits")
# no change is advised that the replay of the accesses says costs more
r = t["cost"]["replay"]
if t["advice"]["kind"] != "none" and r["current"]["accesses"] and \
   r["suggested"]["total"] > 1.01 * r["current"]["total"]:
	print("advice", t["advice"]["kind"], "that the replay contradicts:", r)
	ok = False
sys.exit(0 if ok else 1)' "${tmpdir}/report.json" || fail "struct rq: the report of the guest recording"

cleanup
exit ${err}
