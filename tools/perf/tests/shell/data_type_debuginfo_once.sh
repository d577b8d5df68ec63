#!/bin/bash
# perf data-type profiling opens the debug info of a DSO once
# SPDX-License-Identifier: GPL-2.0
#
# Data-type profiling keeps the debug info of the last DSO it looked in.
# It compared DSO pointers to know whether the next sample is in the same
# DSO, but with REFCNT_CHECKING (the sanitizer build) every reference to a
# DSO is another pointer: it opened the debug info again for every sample.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)

cleanup() {
	rm -f "${perfdata}" "${perfdata}.old" "${result}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

if ! perf check feature -q dwarf_getlocations; then
	echo "[Skip] perf built without DWARF location support"
	cleanup
	exit 2
fi

if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- \
		perf test -w lockshare 300 > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

# only perf's own samples: one DSO, looked up again and again
perf report -i "${perfdata}" -v -s type --dsos perf --stdio > /dev/null 2> "${result}"
most=$(grep 'Open Debuginfo file' "${result}" | sort | uniq -c | sort -rn | head -1)
if [ "$(echo "${most}" | awk '{ print $1 + 0 }')" -gt 2 ]; then
	echo "[Fail] debug info opened more than twice: ${most}"
	err=1
fi

cleanup
exit ${err}
