#!/bin/bash
# perf data-type profiling of the elements of a std::vector
# SPDX-License-Identifier: GPL-2.0
#
# A std::vector's pointer to its elements, _M_start, is at offset 0 of the
# vector, behind an empty base class (std::allocator) at that offset too:
# the member found at offset 0 was the empty base, no pointer, and the
# elements' accesses were untyped.  An indexed element is reached by adding
# _M_start, loaded from memory, to the scaled index ('shl $0x4,%rdi; add
# slots(%rip),%rdi'): an add from memory was tracked for per-cpu bases
# only.  Uprobes on the two stores sample them exactly.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)
probes=""

cleanup() {
	[ -n "${probes}" ] && perf probe -q -d 'probe_slots:*' > /dev/null 2>&1
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

skip() {
	echo "[Skip] $1"
	cleanup
	exit 2
}

perf check feature -q dwarf_getlocations || skip "perf built without DWARF location support"
command -v c++ > /dev/null || skip "no C++ compiler"

cat > "${bindir}/slots.cc" <<'PROG'
#include <vector>

struct Slot { long hits; long misses; };
static std::vector<Slot> slots(2);

__attribute__((noinline)) void first()
{
	slots[0].misses++;
}

__attribute__((noinline)) void hit(int i)
{
	slots[i].hits++;
}

int main()
{
	for (int i = 0; i < 10000; i++) {
		first();
		hit(i & 1);
	}
	return 0;
}
PROG
c++ -std=c++17 -g -O2 -o "${bindir}/slots" "${bindir}/slots.cc" || {
	echo "[Fail] c++"
	cleanup
	exit 1
}

# store_in FUNC: the offset of the store to an element in FUNC
store_in() {
	objdump -d --no-show-raw-insn "${bindir}/slots" |
		awk -v f="<$1>:" '$2 == f { s = 1; next } s && /^$/ { exit }
			s && /addq +\$0x1,/ { sub(":", "", $1); print $1; exit }'
}
first=$(store_in _Z5firstv)
hit=$(store_in _Z3hiti)
[ -n "${first}" ] && [ -n "${hit}" ] || skip "the compiler stores to the elements otherwise"
objdump -d --no-show-raw-insn "${bindir}/slots" | grep -A4 '<_Z3hiti>:' | grep -q 'add .*(%rip),' ||
	skip "the compiler indexes the vector otherwise"
probes=1
perf probe -q -x "${bindir}/slots" -a "first_store=0x${first}" -a "hit_store=0x${hit}" \
	> /dev/null 2>&1 || skip "no uprobes"
if ! perf record -e probe_slots:first_store -e probe_slots:hit_store -o "${perfdata}" \
		-- "${bindir}/slots" > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,type of the stores to the elements"
perf report -i "${perfdata}" -s sym,type --stdio > "${result}" 2>&1
grep 'first\|hit' "${result}"
if ! grep -q 'first().* struct Slot$' "${result}"; then
	echo "[Fail] slots[0]: the element through _M_start, behind std::allocator, is not typed"
	err=1
fi
if ! grep -q 'hit(int).* struct Slot$' "${result}"; then
	echo "[Fail] slots[i]: the element at _M_start added to the index is not typed"
	err=1
fi

cleanup
exit $err
