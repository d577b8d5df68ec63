#!/bin/bash
# perf affinity field labelled access tracepoints (uprobe)
# SPDX-License-Identifier: GPL-2.0
#
# A uprobe on lockshare_read() whose string arguments name the struct and
# the field (string literals of the perf binary, fetched at their file
# offsets) and whose pointer argument is the instance is a field labelled
# access tracepoint: report must turn its samples into accesses to
# lockshare_rq.nr_running of the object the workload prints.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
group=perf_affinity_$$
perfdata="${tmpdir}/perf.data"
addrs="${tmpdir}/addrs"
result="${tmpdir}/result"
tracefs=/sys/kernel/tracing
# a fresh machine may have tracefs unmounted: root can mount it
if [ ! -d "${tracefs}/events" ] && [ "$(id -u)" = 0 ] && grep -qw tracefs /proc/filesystems; then
	mount -t tracefs nodev "${tracefs}" 2> /dev/null
fi
[ -d "${tracefs}/events" ] || tracefs=/sys/kernel/debug/tracing

cleanup() {
	echo "-:${group}/lockshare_read" >> "${tracefs}/uprobe_events" 2> /dev/null
	rm -rf "${tmpdir}"
	trap - EXIT TERM INT
}

[ "$(id -u)" = 0 ] || affinity__skip "uprobes need root"
[ -w "${tracefs}/uprobe_events" ] || affinity__skip "no uprobe_events in tracefs"
perf check feature -q libtraceevent || affinity__skip "perf built without libtraceevent"
command -v python3 > /dev/null || affinity__skip "no python3"
perf_bin=$(readlink -f "$(command -v perf)")

# Let perf probe find the file offset of lockshare_read, then define the
# probe with the arguments perf probe has no syntax for.
perf probe -q -x "${perf_bin}" -a "${group}_tmp=lockshare_read" 2> /dev/null ||
	affinity__skip "perf probe cannot place a uprobe on lockshare_read"
location=$(grep "${group}_tmp" "${tracefs}/uprobe_events" | awk '{ print $2 }')
perf probe -q -d "probe_perf:${group}_tmp" > /dev/null 2>&1
[ -n "${location}" ] || affinity__skip "no uprobe location for lockshare_read"
# uprobes fetch strings from user memory: point them at the literals
offsets=$(python3 -c "import sys
d = open(sys.argv[1], 'rb').read()
print(*(hex(d.find(b'\\0' + s + b'\\0') + 1) for s in (b'lockshare_rq', b'nr_running')))" \
	"${perf_bin}") || affinity__skip "no python3"
read -r type_off field_off <<< "${offsets}"
[ "${type_off}" != 0x0 ] && [ "${field_off}" != 0x0 ] || affinity__skip "no name strings in ${perf_bin}"
echo "p:${group}/lockshare_read ${location} type=@+${type_off}:string" \
	"field=@+${field_off}:string ptr=%di:x64 op=\\0:u8" >> "${tracefs}/uprobe_events" ||
	affinity__skip "cannot define the uprobe"

perf affinity record --tracepoint "${group}:lockshare_read" -o "${perfdata}" -- \
	perf test -w lockshare 200 addr > "${addrs}" 2> "${result}" ||
	{ echo "[Fail] record exited with $?"; cat "${result}"; err=1; }
base=$(awk 'NR == 1 { print $2 }' "${addrs}")

perf affinity report -i "${perfdata}" --stats > "${result}" 2>&1
grep -q 'Samples, field labelled tracepoints *: *[1-9]' "${result}" ||
	{ echo "[Fail] no field labelled tracepoint samples"; err=1; }
grep -q 'tracepoint without access fields' "${result}" &&
	{ echo "[Fail] tracepoint samples not understood"; err=1; }

# stderr apart: the uprobe rate may make perf warn of lost chunks
perf affinity report -i "${perfdata}" --dump-raw-accesses -x ';' > "${result}" 2> /dev/null
nr=$(grep -c ";tp;.*lockshare_rq\.nr_running\[${base}\]" "${result}")
wrong=$(grep ';tp;' "${result}" | grep -v -c "lockshare_rq\.nr_running\[${base}\]")
echo "${nr} accesses to lockshare_rq.nr_running of ${base}, ${wrong} other"
[ "${nr}" -gt 0 ] && [ "${wrong}" -eq 0 ] || err=1

cleanup
exit $err
