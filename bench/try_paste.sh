#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The advice pasted into --try scores as the advice: record each bundled
# workload, take the numbered edits of every type advised an edit, run
# 'report --try' with them, and compare the table's 'advice' and 'try 1'
# rows.  Usage: bench/try_paste.sh PERF WORKLOAD...
set -u
perf=$1
shift
dir=$(mktemp -d /tmp/try_paste.XXXXX)
trap 'rm -rf "$dir"' EXIT
bad=0
for w in "$@"; do
	if ! "$perf" affinity record -o "$dir/$w.data" -- "$perf" test -w "$w" 1500 \
			> /dev/null 2>&1; then
		echo "$w: record failed"
		bad=1
		continue
	fi
	"$perf" affinity report -i "$dir/$w.data" --stdio > "$dir/$w.txt" 2>&1
	awk '/^  [^ ].*: [0-9]+ bytes, [0-9]+ accesses/ {
		t = $0; sub(/^  /, "", t); sub(/: [0-9]+ bytes.*/, "", t) }
	     /^  Advice: the smallest edit/ { a = 1; s = ""; next }
	     a && /^    [0-9]+\. / { sub(/^    [0-9]+\. /, ""); s = s (s ? "; " : "") $0; next }
	     a { print t "\t" s; a = 0 }' "$dir/$w.txt" > "$dir/$w.adv"
	while IFS=$'\t' read -r t s; do
		"$perf" affinity report -i "$dir/$w.data" --stdio -T "$t" --try "$s" \
			> "$dir/$w.try" 2>&1
		row() {
			awk -v n="$1" '/What-if/ { w = 1 } w && index($0, "    " n " ") == 1 {
				sub("^    " n " +", ""); print; exit }' "$dir/$w.try"
		}
		adv=$(row advice)
		try=$(row 'try 1')
		if [ -n "$adv" ] && [ "$adv" = "$try" ]; then
			echo "$w: $t: '$s': the same row: $adv"
		else
			echo "$w: $t: '$s': DIFFERENT: '$adv' / '$try'"
			bad=1
		fi
	done < "$dir/$w.adv"
done
exit $bad
