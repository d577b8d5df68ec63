#!/bin/bash
# perf affinity software address sampling decodes exact field addresses
# SPDX-License-Identifier: GPL-2.0
#
# Record the lockshare and refshare workloads with software address sampling
# and compare the decoded data addresses with the truth: the object and
# function addresses the workloads print and the displacements objdump shows
# for their struct accesses (lib/affinity_decode_check.py).

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
addrs="${tmpdir}/addrs"
accesses="${tmpdir}/accesses"

[ "$(uname -m)" = x86_64 ] || affinity__skip "software address sampling decodes x86-64 code only"
command -v objdump > /dev/null || affinity__skip "no objdump for the truth"
command -v python3 > /dev/null || affinity__skip "no python3"
perf_bin=$(readlink -f "$(command -v perf)")

check_workload() {
	echo "Workload $1"
	if ! perf affinity record --sw -o "${perfdata}" -- \
			perf test -w "$1" 1000 addr > "${addrs}" 2> /dev/null; then
		echo "[Fail] perf affinity record -- perf test -w $1"
		return 1
	fi
	if ! perf affinity report -i "${perfdata}" --dump-raw-accesses -x ';' \
			> "${accesses}" 2> /dev/null; then
		echo "[Fail] perf affinity report --dump-raw-accesses"
		return 1
	fi
	python3 "${shelldir}/lib/affinity_decode_check.py" "${addrs}" "${accesses}" "${perf_bin}"
}

check_workload lockshare || err=1
check_workload refshare || err=1

cleanup
exit $err
