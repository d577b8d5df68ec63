#!/bin/bash
# perf affinity report output is pinned on synthesized samples
# SPDX-License-Identifier: GPL-2.0
#
# The stdio report (with --emit-c) and the JSON of a synthesized perf.data
# (perf bench affinity synth: the same samples every run, whatever the
# machine and the build of perf that wrote them) must be byte for byte
# the files in lib/, so that a change of the code that is not meant to
# change the output does not.  A change that is meant to must update them,
# in the same commit:
#
#   AFFINITY_GOLDEN_UPDATE=1 perf test 'output is pinned'
#
# The perf version in the JSON header is not compared, nor where the
# shared data lines of perf's own variables are: they move with every
# build of perf and every run (ASLR).

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
golden="${shelldir}/lib/affinity_golden"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

[ "$(uname -m)" = x86_64 ] || affinity__skip "perf bench affinity synth decodes x86-64 code only"

# compare NAME: the report in ${result} against ${golden}.NAME
compare() {
	sed -i -e 's/^\(    "perf_version": \).*/\1"",/' \
		-e '/^  line 0x[0-9a-f]*  [a-z_]*+0x[0-9a-f]*  perf+0x/s/0x[0-9a-f]*/0x?/g' \
		-e '/^      "map": "perf",$/,/^      "pid": /s/: [0-9][0-9]*,$/: 0,/' "${result}"
	if [ -n "${AFFINITY_GOLDEN_UPDATE}" ]; then
		cp "${result}" "${golden}.$1"
		echo "updated ${golden}.$1"
	elif ! diff -u "${golden}.$1" "${result}" > "${result}.diff"; then
		fail "the report differs from ${golden}.$1:"
		head -40 "${result}.diff"
	fi
	rm -f "${result}.diff"
}

if ! perf bench affinity synth -n 100000 -s 3 -o "${perfdata}" > /dev/null 2>&1; then
	fail "perf bench affinity synth"
	cleanup
	exit 1
fi

echo "stdio, with the suggested layouts as C"
if perf affinity report -i "${perfdata}" --stdio --emit-c > "${result}" 2>&1; then
	compare stdio
else
	fail "perf affinity report --stdio: $(head -1 "${result}")"
fi

echo "JSON"
if perf affinity report -i "${perfdata}" --json - > "${result}" 2>&1; then
	compare json
else
	fail "perf affinity report --json -: $(head -1 "${result}")"
fi

# the worker threads (on by default with 2+ CPUs, for a file this small not) must not change a byte
if [ -z "${AFFINITY_GOLDEN_UPDATE}" ]; then
	echo "stdio and JSON without the worker thread, and on one CPU"
	if perf affinity report -i "${perfdata}" --stdio --emit-c --no-worker > "${result}" 2>&1; then
		compare stdio
	else
		fail "perf affinity report --no-worker: $(head -1 "${result}")"
	fi
	if perf affinity report -i "${perfdata}" --json - --no-worker > "${result}" 2>&1; then
		compare json
	else
		fail "perf affinity report --json - --no-worker: $(head -1 "${result}")"
	fi
	if taskset -c 0 perf affinity report -i "${perfdata}" --stdio --emit-c > "${result}" 2>&1; then
		compare stdio
	else
		fail "taskset -c 0 perf affinity report: $(head -1 "${result}")"
	fi
	# the types sharded over 1, 2, 3 worker threads: the same bytes
	for n in 2 3 4; do
		echo "stdio and JSON with --threads ${n}"
		if perf affinity report -i "${perfdata}" --stdio --emit-c --threads ${n} \
				> "${result}" 2>&1; then
			compare stdio
		else
			fail "perf affinity report --threads ${n}: $(head -1 "${result}")"
		fi
		if perf affinity report -i "${perfdata}" --json - --threads ${n} > "${result}" 2>&1; then
			compare json
		else
			fail "perf affinity report --json - --threads ${n}: $(head -1 "${result}")"
		fi
	done
	perf affinity report -i "${perfdata}" --stdio --threads 0 > "${result}" 2>&1 &&
		fail "--threads 0 is taken"
	grep -q "^  Error: --threads 0: 1 to 17, the main thread and its workers$\|^--threads 0: 1 to 17" \
		"${result}" || fail "--threads 0 is not a one-line error: $(head -1 "${result}")"
fi

cleanup
exit $err
