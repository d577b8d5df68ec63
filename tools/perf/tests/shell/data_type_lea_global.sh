#!/bin/bash
# perf data-type profiling of a global array's address taken with lea
# SPDX-License-Identifier: GPL-2.0
#
# lea of a global variable's address makes the register a pointer to the
# variable: a pointer loaded through it from a global array of pointers is
# an element, and the access through that is to the struct it points to.

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

# pages[i]->used: no variable holds the loaded pointer, only the
# instruction tracking knows its type
cat > "${bindir}/lea.c" <<'PROG'
#include <stdlib.h>
#include <time.h>
struct page { void *free; long pad[3]; unsigned short used; long more[6]; };
struct page *pages[129];

/*
 * Several accesses through the loaded pointer, so that samples land on
 * some, and no variable that holds it (its type would come from there)
 */
__attribute__((noinline)) void global_use(size_t size)
{
	pages[(size + 7) >> 3]->used++;
	pages[(size + 7) >> 3]->pad[0]++;
	pages[(size + 7) >> 3]->more[3]++;
}

int main(void)
{
	time_t end = time(NULL) + 1;

	for (int i = 0; i < 129; i++)
		pages[i] = calloc(1, sizeof(struct page));
	for (size_t i = 0; time(NULL) <= end; i++) {
		global_use(i & 1023);
	}
	return 0;
}
PROG
if ! cc -g -O2 -o "${bindir}/lea" "${bindir}/lea.c"; then
	echo "[Fail] cc"
	cleanup
	exit 1
fi
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- "${bindir}/lea" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,type,typeoff"
perf report -i "${perfdata}" -s sym,type,typeoff --stdio > "${result}" 2>&1
for func in global_use; do
	if ! grep -q "${func} .*struct page +0x[0-9a-f]* (" "${result}"; then
		echo "[Fail] no access of ${func} is to a field of struct page"
		grep "${func}" "${result}" | head -5
		err=1
	fi
done

cleanup
exit $err
