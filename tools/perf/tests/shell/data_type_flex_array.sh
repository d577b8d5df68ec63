#!/bin/bash
# perf data-type profiling of flexible and zero-length array members
# SPDX-License-Identifier: GPL-2.0
#
# The elements of a flexible array member (or of a zero-length array) at
# the end of a struct follow the struct: an access past the struct's size
# through a pointer to it is to that member, not a bad offset.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)

cleanup() {
	rm -f "${perfdata}" "${perfdata}.old" "${result}"
	rm -rf "${bindir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

if ! perf check feature -q dwarf_getlocations; then
	echo "[Skip] perf built without DWARF location support"
	cleanup
	exit 2
fi
if ! command -v cc > /dev/null; then
	echo "[Skip] no C compiler"
	cleanup
	exit 2
fi

# Every access of the loops is past the end of its struct.
cat > "${bindir}/flex.c" <<'PROG'
#include <stdlib.h>
#include <time.h>
struct flex { long n; long data[]; };
struct zero { long n; long data[0]; };

__attribute__((noinline)) void flex_work(volatile struct flex *s)
{
	for (long i = 0; i < 100000; i++)
		s->data[5] += s->data[40];
}

__attribute__((noinline)) void zero_work(volatile struct zero *s)
{
	for (long i = 0; i < 100000; i++)
		s->data[3] += s->data[20];
}

int main(void)
{
	struct flex *f = calloc(1, sizeof(*f) + 64 * sizeof(long));
	struct zero *z = calloc(1, sizeof(*z) + 64 * sizeof(long));
	time_t end = time(NULL) + 1;

	while (time(NULL) <= end) {
		flex_work(f);
		zero_work(z);
	}
	return 0;
}
PROG
if ! cc -g -O2 -o "${bindir}/flex" "${bindir}/flex.c"; then
	echo "[Fail] cc"
	cleanup
	exit 1
fi
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- "${bindir}/flex" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s type,typeoff"
perf report -i "${perfdata}" -s type,typeoff --stdio > "${result}" 2>&1
for type in flex zero; do
	if ! grep -q "struct ${type} +0x[0-9a-f]* (data)" "${result}"; then
		echo "[Fail] no access attributed to ${type}.data"
		grep -v '^#' "${result}" | grep -v '^$' | head -5
		err=1
	fi
done

cleanup
exit $err
