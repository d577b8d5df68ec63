#!/bin/bash
# perf data-type profiling of pointers loaded from an array
# SPDX-License-Identifier: GPL-2.0
#
# A pointer loaded from an array of pointers, a member of a struct, is an
# element of the array: the access through it is to the struct it points
# to, not past the end of the array's type.

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

# heap->direct[i]->used: no variable holds the loaded pointer, only the
# instruction tracking knows its type
cat > "${bindir}/arr.c" <<'PROG'
#include <stdlib.h>
#include <time.h>
struct page { void *free; long pad[3]; unsigned short used; long more[6]; };
struct heap { long hdr[29]; struct page *direct[129]; };
struct heap *the_heap;

static inline struct page *heap_page(struct heap *h, size_t size)
{
	return h->direct[(size + 7) >> 3];
}

/*
 * Several accesses through the loaded pointer, so that samples land on
 * some, and no variable that holds it (its type would come from there)
 */
__attribute__((noinline)) void page_use(size_t size)
{
	heap_page(the_heap, size)->used++;
	heap_page(the_heap, size)->pad[0]++;
	heap_page(the_heap, size)->more[3]++;
}

int main(void)
{
	time_t end = time(NULL) + 1;

	the_heap = calloc(1, sizeof(*the_heap));
	for (int i = 0; i < 129; i++)
		the_heap->direct[i] = calloc(1, sizeof(struct page));
	for (size_t i = 0; time(NULL) <= end; i++) {
		page_use(i & 1023);
	}
	return 0;
}
PROG
if ! cc -g -O2 -o "${bindir}/arr" "${bindir}/arr.c"; then
	echo "[Fail] cc"
	cleanup
	exit 1
fi
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- "${bindir}/arr" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,type,typeoff"
perf report -i "${perfdata}" -s sym,type,typeoff --stdio > "${result}" 2>&1
for func in page_use; do
	if ! grep -q "${func} .*struct page +0x[0-9a-f]* (" "${result}"; then
		echo "[Fail] no access of ${func} is to a field of struct page"
		grep "${func}" "${result}" | head -5
		err=1
	fi
done

cleanup
exit $err
