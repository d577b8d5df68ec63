#!/bin/bash
# perf data-type profiling of an element of an array behind a pointer
# SPDX-License-Identifier: GPL-2.0
#
# 'slots[1].misses++' with slots a 'struct slot *' to a calloc()ed array
# accesses 0x20(%rax): past the end of the 24-byte struct the pointer
# points to.  Data-type profiling took that for a bad offset, so accesses
# to any element but the first by a constant index (a std::vector's too)
# had no type.  They are to the element's member at the offset modulo the
# struct's size; a list node is not so: past its end is the struct it is
# embedded in (container_of()), so its samples stay untyped.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)
probes=""

cleanup() {
	[ -n "${probes}" ] && perf probe -q -d 'probe_elements:*' > /dev/null 2>&1
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

[ "$(uname -m)" = x86_64 ] || skip "x86 instructions"
perf check feature -q dwarf_getlocations || skip "perf built without DWARF location support"
command -v cc > /dev/null || skip "no C compiler"

cat > "${bindir}/elements.c" <<'PROG'
#include <stdlib.h>

struct slot { long hits; long misses; long limit; };
struct node { struct node *next; long value; };

static struct slot *slots;
static struct node *nodes;

__attribute__((noinline)) void slot_miss(void) { slots[1].misses++; }
__attribute__((noinline)) void node_add(void) { nodes[1].value++; }

int main(void)
{
	slots = calloc(4, sizeof(*slots));
	nodes = calloc(4, sizeof(*nodes));
	for (int i = 0; slots && nodes && i < 10000; i++) {
		slot_miss();
		node_add();
	}
	return 0;
}
PROG
cc -g -O2 -o "${bindir}/elements" "${bindir}/elements.c" || {
	echo "[Fail] cc"
	cleanup
	exit 1
}

# store_in FUNC OFFSET: the address of FUNC's increment at OFFSET from a register
store_in() {
	objdump -d --no-show-raw-insn "${bindir}/elements" |
		awk -v f="<$1>:" -v o="$2" '$2 == f { s = 1; next } s && /^$/ { exit }
			s && index($0, "$0x1," o "(%") { sub(":", "", $1); print $1; exit }'
}
slot=$(store_in slot_miss 0x20)
node=$(store_in node_add 0x18)
[ -n "${slot}" ] && [ -n "${node}" ] || skip "the compiler increments the elements otherwise"
probes=1
perf probe -q -x "${bindir}/elements" -a "slot_store=0x${slot}" -a "node_store=0x${node}" \
	> /dev/null 2>&1 || skip "no uprobes"
if ! perf record -e probe_elements:slot_store -e probe_elements:node_store \
		-o "${perfdata}" -- "${bindir}/elements" > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,typeoff of the stores to the second elements"
perf report -i "${perfdata}" -s sym,typeoff --stdio > "${result}" 2>&1
grep '%' "${result}"
if ! grep -q 'slot_miss .*struct slot +0x8 (misses)$' "${result}"; then
	echo "[Fail] slots[1].misses is not typed as the element's member"
	err=1
fi
if grep -q 'node_add .*struct node' "${result}"; then
	echo "[Fail] past the end of a list node is taken for a next node"
	err=1
fi

cleanup
exit $err
