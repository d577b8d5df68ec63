#!/bin/bash
# perf data-type profiling collects the global variables of a DSO once
# SPDX-License-Identifier: GPL-2.0
#
# The global variables of a DSO are collected into a tree the first time
# an access to a global is looked up.  The tree stays empty where none of
# them resolves to a symbol (a PIE's link-time addresses), and every later
# lookup walked all the compilation units again.

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

# the struct is a global of perf: its fields are accessed rip-relative
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- \
		perf test -w lockshare 300 global > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

perf report -i "${perfdata}" -v -s type,typeoff --stdio > /dev/null 2> "${result}"
if ! grep -q 'Collected .* global variables of .*perf$' "${result}"; then
	echo "[Fail] the global variables of perf were not looked for"
	# what was looked for instead, and how many samples there were
	grep 'Collected' "${result}"
	perf report -i "${perfdata}" --stats 2>&1 | grep -E 'SAMPLE|LOST'
	err=1
fi
most=$(grep 'Collected .* global variables' "${result}" | sort | uniq -c | sort -rn | head -1)
if [ "$(echo "${most}" | awk '{ print $1 + 0 }')" -gt 1 ]; then
	echo "[Fail] global variables collected more than once: ${most}"
	err=1
fi

cleanup
exit ${err}
