#!/bin/bash
# perf affinity reports lines threads share in untyped heap arrays of scalars
# SPDX-License-Identifier: GPL-2.0
#
# perf test -w counters: per-thread int counters in a calloc()ed array,
# incremented atomically, indexed by thread through a global pointer: no
# struct, no variable of the array's type.  The report lists the line
# under "Shared Data Cache Lines" (what perf c2c shows as contended), names
# each thread's element of the array, and advises padding the per-thread
# stride to the line, predicting no transfers left, surely (the interval
# of the saving, as for a type's edits).  With the stride padded
# ('padded') no line of the array is listed.  Before, such a recording was
# "no access attributed to a struct field" and nothing else.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

if [ "$(uname -m)" != x86_64 ] || ! command -v python3 > /dev/null; then
	affinity__skip "needs software address sampling (x86-64) and python3"
fi

# report MODE...: record counters so, the stdio report in ${result}, JSON in
# .json, the array's address in .addr
report() {
	perf affinity record -o "${perfdata}" -- perf test -w counters 1000 addr "$@" \
		> "${result}.addr" 2> /dev/null &&
	perf affinity report -i "${perfdata}" --stdio > "${result}" 2>&1 &&
	perf affinity report -i "${perfdata}" --json - > "${result}.json" 2> /dev/null
}

# lines_of ADVICE: the JSON's data lines of the counts array, as
# "advice transfers transfers_apart nr_owners what..."
lines_of() {
	python3 -c '
import json, sys
counts = int(open(sys.argv[2]).read().split()[1], 16)
for l in json.load(open(sys.argv[1]))["data_lines"]:
    if l["addr"] <= counts < l["addr"] + 64 or counts <= l["addr"] < counts + 64 * 16:
        print(l["advice"] if l["sure"] else "unsure", l["transfers"], l["transfers_apart"],
              l["nr_owners"], " ".join(o["what"] for o in l["owners"]))' \
		"${result}.json" "${result}.addr"
}

echo "counters: two threads' ints in one line"
# on a loaded machine the two threads may not overlap in a second (no
# transfer at all, with either build): one more recording then
if report && ! grep -q '^  Shared Data Cache Lines' "${result}"; then
	echo "no line shared in this recording (the threads did not overlap?): once more"
	report
fi
if [ ! -s "${result}.json" ]; then
	fail "perf affinity record/report of counters: $(head -1 "${result}")"
else
	sed -n '/^  line /,/predicted/p' "${result}" | head -8
	grep -q '^  Shared Data Cache Lines' "${result}" || fail "no shared data lines section"
	grep -Eq '^      thread [0-9]+: int element \[0\], bytes' "${result}" &&
	grep -Eq '^      thread [0-9]+: int element \[1\], bytes' "${result}" ||
		fail "the threads' elements [0] and [1] are not named"
	grep -q "^    Advice: give each thread's int elements a cache line of their own: pad the per-thread stride to 64 bytes (16 elements)" \
		"${result}" || fail "no padded stride advised"
	read -r advice xfers apart owners what < <(lines_of)
	echo "JSON: ${advice:-no line} ${xfers} -> ${apart} transfers, ${owners} owners: ${what}"
	[ "${advice}" = elements ] && [ "${owners}" = 2 ] && [ "${apart}" = 0 ] &&
		[ "${xfers:-0}" -gt 0 ] ||
		fail "JSON: the array's line is not 'elements', 2 owners, N -> 0 transfers"
	grep -Eq "^      predicted transfers ${xfers} -> 0 \(-100.0%, 95% interval" "${result}" ||
		fail "stdio's predicted transfers are not the JSON's (${xfers} -> 0)"
fi

echo "counters padded: nothing shared"
if report padded; then
	left=$(lines_of)
	[ -z "${left}" ] || fail "a line of the padded array is listed: ${left}"
elif ! grep -q 'no access attributed to a struct field' "${result}"; then
	# nothing shared and no struct: that error is right
	fail "perf affinity record/report of counters padded: $(head -1 "${result}")"
fi

cleanup
exit ${err}
