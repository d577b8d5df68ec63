#!/bin/bash
# corrupt perf.data: group descriptions of a billion groups
# SPDX-License-Identifier: GPL-2.0
#
# The number of groups of the GROUP_DESC feature was taken as it was: for
# a damaged one perf allocated 16 bytes a group, failed to read the first
# and freed the names of every group, a billion of them: close to a minute
# of a report that takes a second.  Now a count the section cannot hold is
# an error, and only the names read are freed: a damaged section size can
# hold a billion groups too.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# the header alone takes a fraction of a second
for size in 4 $((1 << 40)); do
	# a GROUP_DESC feature (bit 17) of that size, of a count of 0x40000000
	corrupt_data__add_feature 17 ${size} 0x40000000 ||
		corrupt_data__skip "the recording has group descriptions already"
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
