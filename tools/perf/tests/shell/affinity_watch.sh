#!/bin/bash
# perf affinity report of hardware watchpoint hits
# SPDX-License-Identifier: GPL-2.0
#
# perf test -w lockshare global: the lock and the field the reader reads
# in a static struct.  With ASLR off its address is the same every run:
# watch the lock (4 bytes) and clock (8 bytes) with data breakpoints
# ('perf record -e mem:ADDR/LEN:rw' and the registers).  A data breakpoint
# traps after the access: every hit must come out as the watched field,
# by the instruction before the IP, the lock only read-modify-written by
# the lock thread, clock only loaded by the reader.  Before, hits were
# decoded with the instruction at the IP (the next one), and a hit on the
# lock came out as another field.  Then one breakpoint on the lock is moved
# to clock as the workload runs ('perf record --control', 'watch'): the
# hits before are the lock's, those after clock's, each decoded at the
# address the breakpoint had when it hit.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"
regs=ax,bx,cx,dx,si,di,bp,sp,ip,r8,r9,r10,r11,r12,r13,r14,r15

if [ "$(uname -m)" != x86_64 ] || ! command -v setarch > /dev/null; then
	affinity__skip "needs x86-64 data breakpoints and setarch"
fi

addr_of() {
	sed -n "s/^field $1 \(0x[0-9a-f]*\) .*/\1/p" "${result}.addr"
}

setarch "$(uname -m)" -R perf test -w lockshare 10 addr global > "${result}.addr" 2>&1
lock=$(addr_of lock)
clock=$(addr_of clock)
[ -n "${lock}" ] && [ -n "${clock}" ] || affinity__skip "no addresses from the workload"

# perf record now and then dies of a SIGTRAP of a watchpoint firing as the
# workload exits: record again then
for try in 1 2 3; do
	setarch "$(uname -m)" -R perf record -e "mem:${lock}/4:rw" -e "mem:${clock}/8:rw" -c 10 \
		-d --sample-cpu --user-regs=${regs} -o "${perfdata}" -- \
		perf test -w lockshare 500 global > "${result}.record" 2>&1
	rc=$?
	[ ${rc} -lt 128 ] && break
	echo "perf record died of signal $((rc - 128)), again"
done
[ ${rc} = 0 ] || affinity__skip "no data breakpoints here: $(grep -m1 -i error "${result}.record")"

perf affinity report -i "${perfdata}" --dump-raw-accesses > "${result}" 2> /dev/null
perf affinity report -i "${perfdata}" --json - > "${result}.json" 2> /dev/null
# tid op field ('struct' is a word of its own), counted
awk '!/^#/ { print $4, $8, $NF }' "${result}" | sed 's/\[0x[0-9a-f]*\]$//' |
	sort | uniq -c | sort -rn > "${result}.counts"
cat "${result}.counts"
hits=$(awk '{ n += $1 } END { print n + 0 }' "${result}.counts")
[ "${hits}" -gt 0 ] || fail "no watchpoint hit decoded"
# every hit is one of the two watched fields, each by one thread and one op
awk '$4 != "lockshare_rq.lock" && $4 != "lockshare_rq.clock"' \
	"${result}.counts" | grep -q . && fail "hits on fields not watched"
for f in lock clock; do
	[ "$(awk -v f="lockshare_rq.$f" '$4 == f { print $2 }' "${result}.counts" |
		sort -u | wc -l)" = 1 ] || fail "$f hit by other than one thread"
done
awk '$4 == "lockshare_rq.lock" && $3 == "load"' "${result}.counts" | grep -q . &&
	fail "the lock loaded: the lock thread only takes and releases it"
awk '$4 == "lockshare_rq.clock" && $3 != "load"' "${result}.counts" | grep -q . &&
	fail "clock hit by something else than the reader's loads"
[ "$(awk '{ print $2 }' "${result}.counts" | sort -u | wc -l)" = 2 ] ||
	fail "the lock and clock not hit by two threads"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["header"]["decode"]
sys.exit(0 if d["watch"] == d["skid"] > 0 else 1)' "${result}.json" ||
	fail "JSON: the watchpoint hits are not all the instruction before the IP"

# one breakpoint, moved from the lock to clock 200 ms after perf record
# answers a ping: its loop runs, the workload too
mkfifo "${tmpdir}/ctl" "${tmpdir}/ack"
exec 9<> "${tmpdir}/ctl" 10<> "${tmpdir}/ack"
(echo ping >&9; read -r -t 30 _ <&10; sleep 0.2; echo "watch w0 ${clock}" >&9) &
setarch "$(uname -m)" -R perf record -e "mem:${lock}/4:rw/name=w0/" -c 10 --control fd:9,10 \
	-d --sample-cpu --user-regs=${regs} -o "${perfdata}" -- \
	perf test -w lockshare 600 global > "${result}.record" 2>&1 ||
	fail "perf record --control with 'watch': $(grep -m1 -i error "${result}.record")"
wait
exec 9>&- 10>&-
grep -q "failed" "${result}.record" && fail "'watch w0 ${clock}': $(grep -m1 failed "${result}.record")"
perf affinity report -i "${perfdata}" --dump-raw-accesses 2> /dev/null |
	awk '!/^#/ { print $NF }' | sed 's/\[0x[0-9a-f]*\]$//' | sort | uniq -c > "${result}.moved"
cat "${result}.moved"
grep -q " lockshare_rq.lock$" "${result}.moved" || fail "no hit of the lock before the move"
grep -q " lockshare_rq.clock$" "${result}.moved" || fail "no hit of clock after the move"
awk '$2 != "lockshare_rq.lock" && $2 != "lockshare_rq.clock"' "${result}.moved" | grep -q . &&
	fail "hits of the moved breakpoint on other fields"

cleanup
exit ${err}
