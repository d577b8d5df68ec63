#!/bin/bash
# perf report -D names the sampled registers of the recording's arch
# SPDX-License-Identifier: GPL-2.0
#
# The dump of a sample names its registers after the arch of the machine
# that recorded (perf_env__arch()), found only when dumping: not for every
# sample delivered.  A cpu-clock recording with --user-regs=ax,sp must dump
# AX and SP by name, and as many of them as samples.

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.dump_regs.XXXXX)
perfdata="${tmpdir}/perf.data"

cleanup() {
	rm -rf "${tmpdir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

if [ "$(uname -m)" != x86_64 ]; then
	echo "[Skip] the register names checked are x86-64's"
	cleanup
	exit 2
fi

if ! perf record -q -e cpu-clock -c 100000 --user-regs=ax,sp -o "${perfdata}" \
	-- perf test -w noploop 1 > /dev/null 2>&1; then
	echo "[Skip] perf record -e cpu-clock --user-regs failed"
	cleanup
	exit 2
fi

perf report -D -i "${perfdata}" > "${tmpdir}/dump" 2> /dev/null
samples=$(grep -c 'PERF_RECORD_SAMPLE' "${tmpdir}/dump")
regs=$(grep -c '^\.\.\. user regs: mask 0x81 ABI 64-bit' "${tmpdir}/dump")
ax=$(grep -c '^\.\.\.\. AX ' "${tmpdir}/dump")
sp=$(grep -c '^\.\.\.\. SP ' "${tmpdir}/dump")
echo "${samples} samples, ${regs} register dumps, AX ${ax}, SP ${sp}"
if [ "${samples}" -lt 1 ] || [ "${regs}" -ne "${samples}" ] ||
   [ "${ax}" -ne "${samples}" ] || [ "${sp}" -ne "${samples}" ]; then
	echo "[Fail] every sample's registers named AX and SP"
	grep -m 3 -A 3 'user regs' "${tmpdir}/dump"
	err=1
fi

cleanup
exit $err
