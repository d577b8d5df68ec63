#!/bin/bash
# perf affinity record with the memory events of a memory sampling PMU
# SPDX-License-Identifier: GPL-2.0
#
# Where a PMU has memory events (PEBS load latency, IBS, SPE, POWER),
# record uses them like perf c2c record: data addresses, data sources,
# weights and sample CPUs.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)

cleanup() {
	rm -f "${perfdata}" "${perfdata}.old" "${result}"
	trap - EXIT TERM INT
}
trap cleanup EXIT TERM INT

if ! perf affinity record -e list 2>&1 | grep -v -- '^--sw' | grep -q 'available'; then
	echo "[Skip] no PMU with memory events on this machine"
	cleanup
	exit 2
fi

perf affinity record -o "${perfdata}" -- perf test -w lockshare 500 > "${result}" 2>&1 ||
	{ echo "[Fail] record exited with $?"; err=1; }
grep -q 'using the memory events of the' "${result}" ||
	{ echo "[Fail] record does not say which source it uses"; err=1; }
perf evlist -v -i "${perfdata}" > "${result}" 2>&1
grep -q 'ADDR.*DATA_SRC\|DATA_SRC.*ADDR' "${result}" ||
	{ echo "[Fail] no data addresses and sources"; err=1; }
perf affinity report -i "${perfdata}" --stats > "${result}" 2>&1 ||
	{ echo "[Fail] report exited with $?"; err=1; }
grep -q 'Samples, memory sampling PMU *: *[1-9]' "${result}" ||
	{ echo "[Fail] no memory sampling PMU samples decoded"; err=1; }

cleanup
exit $err
