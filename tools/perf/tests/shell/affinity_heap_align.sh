#!/bin/bash
# perf affinity advises an aligned allocation for misaligned heap instances
# SPDX-License-Identifier: GPL-2.0
#
# perf test -w heapslots: per-thread counters of a cache line's size in a
# malloc()ed array that starts 48 bytes past a line, so that each thread's
# hot counters share a line with its neighbour's.  Aligning the type would
# do nothing (malloc() does not align to it, and the size is right
# already): the advice is an aligned allocation, its reason names the
# transfers the replay saw, the same numbers as the cost lines.  With the
# array allocated aligned ('aligned') nothing is advised: advice already
# applied is not given again.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

if [ "$(uname -m)" != x86_64 ] || ! command -v python3 > /dev/null; then
	affinity__skip "needs software address sampling (x86-64) and python3"
fi

# report MODE...: record heapslots so, the stdio report in ${result}, JSON in .json
report() {
	perf affinity record -o "${perfdata}" -- perf test -w heapslots 1500 "$@" \
		> /dev/null 2>&1 &&
	perf affinity report -i "${perfdata}" --stdio -T heap_stats > "${result}" 2>&1 &&
	perf affinity report -i "${perfdata}" -T heap_stats --json - > "${result}.json" 2> /dev/null
}

echo "heapslots: the array 48 bytes past a line"
if ! report; then
	fail "perf affinity record/report of heapslots: $(head -1 "${result}")"
else
	grep -E '^  Advice|^  aligned to' "${result}"
	grep -q '^  Advice: allocate the instances at 64 byte boundaries (aligned_alloc()' \
		"${result}" || fail "no aligned allocation advised"
	grep -q '^  Advice: align the struct' "${result}" &&
		fail "the type's alignment advised, which malloc() ignores"
	# the reason's transfers are the replay's
	why=$(sed -n 's/^  aligned to .*share lines that other threads write (\([0-9.]*\) -> .*/\1/p' \
		"${result}")
	replay=$(sed -n 's/^    replay of the access stream.*transfers per 1k accesses \([0-9.]*\) -> .*/\1/p' \
		"${result}")
	echo "reason: ${why:-none} transfers per 1k accesses, replay: ${replay:-none}"
	[ -n "${why}" ] && [ "${why}" = "${replay}" ] &&
		awk -v x="${why}" 'BEGIN { exit !(x > 0) }' ||
		fail "the reason's transfers (${why:-none}) are not the replay's (${replay:-none})"
	python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["types"][0]
sys.exit(0 if t["aligned_instances"] and t["align_by"] == "allocation" else 1)' \
		"${result}.json" || fail "JSON: not aligned_instances by allocation"
fi

echo "heapslots aligned: nothing to do"
if ! report aligned; then
	fail "perf affinity record/report of heapslots aligned: $(head -1 "${result}")"
else
	grep -E '^  Advice' "${result}"
	grep -q '^  Advice: none' "${result}" || fail "advice where the instances are aligned"
fi

cleanup
exit ${err}
