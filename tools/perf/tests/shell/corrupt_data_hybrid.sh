#!/bin/bash
# corrupt perf.data: a hybrid topology of a billion nodes
# SPDX-License-Identifier: GPL-2.0
#
# The number of nodes of the HYBRID_TOPOLOGY feature was taken as it was:
# for a damaged one perf allocated 16 bytes a node, failed to read the first
# node and freed the strings of every node, a billion of them: 17 seconds
# (minutes in a sanitizer build) of a report that takes one.  Now a count
# the section cannot hold is an error, and only the nodes read are freed:
# a damaged section size can hold a billion nodes too.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# the header alone takes a fraction of a second
for size in 4 $((1 << 40)); do
	# a HYBRID_TOPOLOGY feature (bit 30) of that size, of a count of 0x40000000
	corrupt_data__add_feature 30 ${size} 0x40000000 ||
		corrupt_data__skip "the recording has a hybrid topology already"
	rc=0
	timeout -s KILL 5 perf report -i "${bad}" --header-only > /dev/null 2> "${result}" ||
		rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] section of ${size} bytes: perf report --header-only crashed or took over 5 s (exit ${rc})"
		err=1
	fi
done

cleanup
exit ${err}
