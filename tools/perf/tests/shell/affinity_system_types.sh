#!/bin/bash
# perf affinity report leaves system libraries' types out unless asked
# SPDX-License-Identifier: GPL-2.0
#
# A program that reads a memory stream with fgetc(): the struct types the
# samples give are libc's own (FILE and its lock), accessed by libc's code
# only, whose layouts the user cannot change.  The report leaves them out
# and counts their accesses; --system-types and -T report them.  A type a
# system header declares is the library's even when the program's own
# code reads it: main's struct timespec on its stack.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

command -v gcc > /dev/null || affinity__skip "no gcc"
cat > "${tmpdir}/io.c" << 'PROG'
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(void)
{
	static char buf[1 << 16];
	struct timespec t0, t;
	long n = 0;

	memset(buf, 'x', sizeof(buf));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		FILE *f = fmemopen(buf, sizeof(buf), "r");

		while (fgetc(f) != EOF)
			n++;
		fclose(f);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 300000000L);
	return n == 42;
}
PROG
gcc -O2 -g -o "${tmpdir}/io" "${tmpdir}/io.c" || affinity__skip "gcc failed"
perf affinity record -o "${perfdata}" -- "${tmpdir}/io" > /dev/null 2>&1 ||
	fail "perf affinity record"

# the struct table's types, one a line
types() {
	awk '/^# Struct/ { s = 1; next } s && /^#/ { next } s && /^ *$/ { exit }
	     s { sub(/^ +/, ""); sub(/  .*/, ""); print }' "${result}"
}

perf affinity report -i "${perfdata}" --stdio > "${result}" 2>&1 || fail "report"
echo "default: $(types | tr '\n' ' ')"
[ -z "$(types)" ] || fail "system libraries' types reported: $(types | tr '\n' ' ')"
cp "${result}" "${tmpdir}/default"

perf affinity report -i "${perfdata}" --stdio --system-types > "${result}" 2>&1 ||
	fail "report --system-types"
system=$(types | tr '\n' ' ')
echo "--system-types: ${system:-no type}"
if [ -z "${system}" ] && [ "${err}" = 0 ]; then
	affinity__skip "no type of libc's code attributed: no debug info for libc?"
fi

grep -q "system libraries' types, left out: *[1-9]" "${tmpdir}/default" ||
	fail "the summary does not count the accesses left out"
grep -q "^No struct type is left: --system-types" "${tmpdir}/default" ||
	fail "no word of --system-types"

first=$(echo "${system}" | awk '{ print $1 }')
perf affinity report -i "${perfdata}" --stdio -T "${first}" > "${result}" 2>&1 ||
	fail "report -T ${first}"
types | grep -q -x -F "${first}" || fail "-T ${first}: not reported"

# libc's struct timespec, read by main's own loop
cat > "${tmpdir}/clock.c" << 'PROG'
#include <time.h>

int main(void)
{
	struct timespec t0, t;
	long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (long i = 0; i < 100000; i++)
			n += __atomic_load_n(&t0.tv_nsec, __ATOMIC_RELAXED) ^ i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 300000000L);
	return n == 42;
}
PROG
gcc -O2 -g -o "${tmpdir}/clock" "${tmpdir}/clock.c" || fail "gcc clock.c"
perf affinity record -o "${tmpdir}/clock.data" -- "${tmpdir}/clock" > /dev/null 2>&1 ||
	fail "perf affinity record of clock"
perf affinity report -i "${tmpdir}/clock.data" --stdio > "${result}" 2>&1
types | grep -q -x 'struct timespec' && fail "libc's struct timespec reported by default"
perf affinity report -i "${tmpdir}/clock.data" --stdio --system-types > "${result}" 2>&1
types | grep -q -x 'struct timespec' || fail "--system-types: no struct timespec"

perf affinity report -i "${perfdata}" --json - > "${result}" 2>&1 || fail "--json -"
affinity__valid report "${result}" || fail "--json: not as its schema says"
python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["header"]["attribution"]
print("JSON: system", a["system"], "in", a["system_types"], "types")
sys.exit(0 if a["system"] > 0 and a["system_types"] > 0 else 1)' "${result}" ||
	fail "JSON attribution: no system accesses counted"

cleanup
exit "${err}"
