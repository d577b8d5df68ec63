#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run this project's 'perf test' suites and shell tests with build/perf and
# print one result line per test case, then 'N passed, N failed, N skipped'.
# Exits non-zero if any test failed or none ran.
set -u
mk=$(dirname "$0")
. "$mk/env.sh"

# Descriptions (substrings, as 'perf test' matches them) of the project's
# tests.  Every perf affinity test is described "perf affinity ...".
TESTS="${TESTS:-perf test runs every case|Disassembler call/jump targets|Disassembler fuses|perf data-type profiling|corrupt perf.data|perf session releases|perf report -D names|JSON writer|machine__resolve() cache|perf affinity}"

log="$BUILD/test.log"
cd "$TREE/tools/perf" || exit 1	# so that perf test finds ./tests/shell
# $PERF's directory first, as 'perf': build/obj or build/obj-asan
PATH="$(dirname "$(readlink -f "$PERF")"):$PATH"
export PATH
if [ "${SANITIZE:-}" = 1 ]; then
	. "$TOP/mk/sanitize-env.sh"
fi

set -f
IFS='|'
# shellcheck disable=SC2086
perf test -v $TESTS > "$log" 2>&1	# -v: the output of a failure that a rerun does not repeat
unset IFS
set +f

# "  69: desc : Ok", " 70.2: desc : FAILED!", " 71: desc : Skip (reason)"
results=$(grep -E '^ *[0-9]+(\.[0-9]+)?: .* ?: (Ok|FAILED!|Skip.*)$' "$log")
[ -n "$results" ] && echo "$results"
passed=$(echo "$results" | grep -c ': Ok$')
failed=$(echo "$results" | grep -c ': FAILED!$')
skipped=$(echo "$results" | grep -c ': Skip')

# what each failed test printed in this run, from its start to its result
for t in $(echo "$results" | sed -n 's/^ *\([0-9.]*\): .*: FAILED!$/\1/p'); do
	echo "---- perf test -v ${t} ----"
	awk -v t="$t" '
		/^--- start ---$/ { n = 0 }
		{ buf[n++] = $0 }
		$1 == t ":" && / : FAILED!$/ { for (i = 0; i < n; i++) print buf[i]; exit }' \
		"$log" | tail -40
done

# perf test runs only the executable scripts of tests/shell: one that is not
# would pass unseen (affinity_layout.sh and affinity_tables.sh did)
for f in "$TOP"/tools/perf/tests/shell/*.sh; do
	if [ ! -x "$f" ]; then
		echo "FAILED: tests/shell/$(basename "$f") is not executable: perf test does not run it"
		failed=$((failed + 1))
	fi
done

# util/affinity's stages in one direction: no include or call back up, no
# circle (mk/check-layers.py), from the sources and the objects just built
layers="$BUILD/layers.log"
if python3 "$TOP/mk/check-layers.py" --objs "$(dirname "$(readlink -f "$PERF")")/util/affinity" \
	"$TOP" > "$layers" 2>&1; then
	echo "  layers: util/affinity's stages in one direction (mk/check-layers.py) : Ok"
	passed=$((passed + 1))
else
	echo "FAILED: util/affinity's stages: an include, a call or a circle runs back up"
	cat "$layers"
	failed=$((failed + 1))
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
