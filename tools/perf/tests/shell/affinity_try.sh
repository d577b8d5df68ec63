#!/bin/bash
# perf affinity report --try: what-if, in the advice's own words
# SPDX-License-Identifier: GPL-2.0
#
# A reviewer pastes the advice into --try, or writes another layout in
# its words: each is scored as the advice is and compared in one table
# with the recorded layout and the advice.  The advice pasted scores
# exactly as the advice; a line of its own for the lock costs more bytes
# than the move, priced where the instances live; the lock put back
# beside its readers saves nothing.  The JSON has the same
# and is valid.  A member the struct has not, or words it does not know,
# are a one-line error and a non-zero exit.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

if [ "$(uname -m)" != x86_64 ] || [ "$(nproc)" -lt 2 ]; then
	affinity__skip "needs software address sampling (x86-64) and two CPUs"
fi
if ! perf affinity record -o "${perfdata}" -- perf test -w lockshare 1000 > /dev/null 2>&1; then
	fail "perf affinity record"
	cleanup
	exit 1
fi

rq='struct lockshare_rq'
perf affinity report -i "${perfdata}" --stdio -T lockshare_rq > "${result}" 2>&1 ||
	fail "report: exit $?"
# the advice's edits, '1. move lock to the end', joined as --try takes them
advice=$(awk '/^  Advice: the smallest edit/ { a = 1; next }
	      a && /^    [0-9]+\. / { sub(/^    [0-9]+\. /, ""); s = s (s ? "; " : "") $0; next }
	      a { exit } END { print s }' "${result}")
echo "advice: ${advice}"
[ -n "${advice}" ] || affinity__skip "no edit advised for ${rq} in this recording"

# row NAME: the table's row of the layout NAME, its first column dropped
row() {
	awk -v n="$1" '/^  What-if/ { w = 1 } w && index($0, "    " n " ") == 1 {
		sub("^    " n " +", ""); print; exit }' "${result}"
}

echo "--try the advice, a line of its own for the lock, and the lock back first"
perf affinity report -i "${perfdata}" --stdio -T lockshare_rq --try "${advice}" \
	--try 'give lock a cache line of its own' --try "${advice}; move lock to the start" \
	> "${result}" 2>&1 || fail "--try: exit $?"
sed -n '/^  What-if/,/^    Memory:/p' "${result}"
[ -n "$(row current)" ] && [ -n "$(row advice)" ] || fail "no table of the layouts"
[ "$(row advice)" = "$(row 'try 1')" ] ||
	fail "the advice pasted does not score as the advice: '$(row 'try 1')' / '$(row advice)'"
grep -q "^    try 1: ${advice}$" "${result}" || fail "the first try's words are not listed"
grep -q '^    try 2: give lock a cache line of its own$' "${result}" ||
	fail "the second try's words are not listed"
# the model's saving of the layout NAME, in percent: -93.1% -> 93.1
saving() {
	row "$1" | awk '{ s = $3; sub("%", "", s); print -s }'
}
echo "saving: advice $(saving advice), the lock back $(saving 'try 3')"
awk -v a="$(saving advice)" -v b="$(saving 'try 3')" 'BEGIN { exit !(b < a - 10) }' ||
	fail "the lock back beside its readers saves as much as the advice"
row 'try 3' | awk '{ print $3 }' | grep -q '^[-+]0\.0%$' ||
	fail "the lock back where it was is not the recorded layout: $(row 'try 3')"
mem() {
	row "$1" | awk '{ print $2 + 0 }'
}
[ "$(mem 'try 2')" -gt "$(mem 'try 1')" ] ||
	fail "a line of its own costs no more memory than the move: $(mem 'try 2') / $(mem 'try 1')"

echo "--json with --try"
perf affinity report -i "${perfdata}" -T lockshare_rq --json "${tmpdir}/t.json" \
	--try "${advice}" --try 'give lock a cache line of its own' > /dev/null 2>&1 ||
	fail "--json --try: exit $?"
affinity__valid report "${tmpdir}/t.json" || fail "the JSON is not valid"
python3 - "${tmpdir}/t.json" "${advice}" <<'PY' || fail "the JSON's tries are not the table's"
import json, sys
t = [t for t in json.load(open(sys.argv[1]))["types"] if t["name"] == "struct lockshare_rq"][0]
tries = t["tries"]
assert [x["text"] for x in tries] == [sys.argv[2], "give lock a cache line of its own"], tries
assert abs(tries[0]["gain"] - t["cost"]["gain"]) < 1e-6, (tries[0]["gain"], t["cost"]["gain"])
assert tries[0]["layout"]["size"] == t["suggested"]["size"]
assert tries[1]["memory"]["total"] > tries[0]["memory"]["total"]
assert tries[0]["memory"] == t["memory"], (tries[0]["memory"], t["memory"])
PY

echo "what --try does not take"
for bad in 'move lockx to the end' 'frob lock' 'swap lock and' 'align the struct to 48'; do
	if perf affinity report -i "${perfdata}" --stdio --try "${bad}" > "${result}" 2>&1; then
		fail "--try '${bad}': exit 0"
	fi
	head -1 "${result}"
	head -1 "${result}" | grep -q "^--try '${bad}': " ||
		fail "--try '${bad}': $(head -1 "${result}")"
	grep -q 'Struct Table' "${result}" && fail "--try '${bad}': a report all the same"
done
perf affinity report -i "${perfdata}" --stdio --try 'move lockx to the end' 2>&1 | head -1 |
	grep -q "no member 'lockx' in struct lockshare_rq" || fail "the unknown member not named"

cleanup
exit ${err}
