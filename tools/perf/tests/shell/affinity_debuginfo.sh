#!/bin/bash
# perf affinity report opens the debug info of a DSO once
# SPDX-License-Identifier: GPL-2.0
#
# perf affinity keeps the debug info, instructions and functions it looked
# up in maps keyed by DSO.  With REFCNT_CHECKING (the sanitizer build) every
# reference to a DSO is another pointer: keyed by pointer, the maps missed,
# and the report opened the debug info of perf again for every function it
# read for the code context, for minutes.
#
# And it reads a type where data-type profiling found it (its DIE), not by
# searching every compilation unit for its name: on a vmlinux, thousands.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

if ! perf check feature -q dwarf_getlocations; then
	echo "[Skip] perf built without DWARF location support"
	cleanup
	exit 2
fi

if ! perf affinity record --sw -o "${perfdata}" -- \
		perf test -w lockshare 300 > /dev/null 2>&1; then
	echo "[Fail] perf affinity record"
	cleanup
	exit 1
fi

# once for each cache of it and each change of DSO in the order of the
# samples: a few times, where it was once for every function
perf affinity report -i "${perfdata}" -vv --stdio > /dev/null 2> "${result}"
most=$(grep 'Open Debuginfo file' "${result}" | sort | uniq -c | sort -rn | head -1)
if [ "$(echo "${most}" | awk '{ print $1 + 0 }')" -gt 10 ]; then
	echo "[Fail] debug info opened more than 10 times: ${most}"
	err=1
fi

if ! grep -q "struct lockshare_rq from its DIE at" "${result}"; then
	echo "[Fail] struct lockshare_rq not read from its DIE"
	err=1
fi
# int, pointers, enums: no record, and no search of every unit for one
if grep "no DWARF type" "${result}"; then
	echo "[Fail] searched every compilation unit for types data-type profiling found"
	err=1
fi

cleanup
exit ${err}
