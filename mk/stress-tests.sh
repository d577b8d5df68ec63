#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the test suite N times (default 20) with the perf already built and
# report every test that failed at least once, with how often.  Exits
# non-zero if any did.  The log of each run that failed is kept in
# $BUILD/stress/.
#
#   make stress RUNS=20     or     sh mk/stress-tests.sh 20
set -u
mk=$(dirname "$0")
. "$mk/env.sh"

runs=${1:-${RUNS:-20}}
case "$runs" in
''|*[!0-9]*|0) echo "usage: $0 [RUNS]  (RUNS > 0)" >&2; exit 1 ;;
esac

TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
TREE=${TREE:-$BUILD/linux}
PERF=${PERF:-$BUILD/perf}
export TOP BUILD TREE PERF
if [ ! -x "$PERF" ]; then
	echo "no $PERF: run 'make' first" >&2
	exit 1
fi

out="$BUILD/stress"
rm -rf "$out"
mkdir -p "$out"
: > "$out/results"
bad_runs=0
start=$(date +%s)
i=1
while [ "$i" -le "$runs" ]; do
	if sh "$TOP/mk/run-tests.sh" > "$out/run.log" 2>&1; then
		status=ok
	else
		status=FAILED
		bad_runs=$((bad_runs + 1))
		cp "$out/run.log" "$out/run-$i.log"
	fi
	# one line per test case and run: "<number>: <description> : <result>"
	grep -E '^ *[0-9]+(\.[0-9]+)?: .* ?: (Ok|FAILED!|Skip.*)$' "$out/run.log" \
		>> "$out/results"
	echo "run $i/$runs: $status ($(tail -1 "$out/run.log"))"
	i=$((i + 1))
done

echo "---- $runs runs in $(( $(date +%s) - start )) s, $bad_runs with a failure ----"
failed=$(grep ': FAILED!$' "$out/results" | sed 's/ *: FAILED!$//' | sort | uniq -c)
if [ -n "$failed" ]; then
	echo "tests that failed at least once (times, test):"
	echo "$failed"
	echo "logs: $out/run-*.log"
	exit 1
fi
echo "no test failed in $runs runs"
