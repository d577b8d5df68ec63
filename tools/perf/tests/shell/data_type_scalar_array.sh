#!/bin/bash
# perf data-type profiling of bytes through a pointer to bytes
# SPDX-License-Identifier: GPL-2.0
#
# 'const unsigned char *p; p[1]' reads the second element of an array of
# bytes: data-type profiling types it 'unsigned char', as it types p[0],
# instead of calling offset 1 past the one-byte type.

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

# three loads at constant offsets from the parameter, nothing else
cat > "${bindir}/bytes.c" <<'PROG'
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) unsigned int bytes_use(const unsigned char *p)
{
	return p[1] * p[3] + p[5];
}

int main(void)
{
	unsigned char *buf = calloc(1, 1 << 16);
	time_t end = time(NULL) + 1;
	unsigned int s = 0;

	for (long i = 0; time(NULL) <= end; i++)
		s += bytes_use(buf + (i & 0xfff0));
	return s == 1;
}
PROG
if ! cc -g -O2 -o "${bindir}/bytes" "${bindir}/bytes.c"; then
	echo "[Fail] cc"
	cleanup
	exit 1
fi
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- "${bindir}/bytes" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,type"
perf report -i "${perfdata}" -s sym,type --stdio > "${result}" 2>&1
# samples land on each of the three loads, whatever the CPU's skid
if ! grep -q "bytes_use .*unsigned char" "${result}"; then
	echo "[Fail] no access of bytes_use typed unsigned char"
	grep "bytes_use" "${result}" | head -5
	err=1
fi

cleanup
exit $err
