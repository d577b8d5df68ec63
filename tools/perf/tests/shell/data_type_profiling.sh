#!/bin/bash
# perf data-type profiling of a lock/reader workload
# SPDX-License-Identifier: GPL-2.0
#
# 'perf report -s type,typeoff' and 'perf annotate --data-type' disassemble
# every sampled function, including ld.so's; resolving their call targets
# used to free the DSO's map and crash perf.  The debug info must be that of
# the binary recorded, even when the file has been replaced since.  Pointers
# that the compiler describes as a register plus an offset (container_of()
# of a list node) point to the container.  The members of a C++ base class
# are members of the classes derived from it.
#
# Which instruction a cpu-clock sample lands on depends on the CPU's skid:
# the lock's xchg gets none on some machines.  Checks of exact fields use
# PEBS-shaped samples at every memory instruction of the workload ('perf
# bench affinity synth'); checks of live recordings only ask for what every
# run has, a typed access among the many the loops make.

set -e

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

# report_typeoff NAME: 'perf report -s type,typeoff' of ${perfdata} into
# ${result}, failing NAME if perf fails.
report_typeoff() {
	local rc=0

	perf report -i "${perfdata}" -s type,typeoff --stdio > "${result}" 2>&1 || rc=$?
	if [ ${rc} -ne 0 ]; then
		echo "[Fail] perf report -s type,typeoff of $1 exited with ${rc}"
		tail -5 "${result}"
		err=1
		return 1
	fi
}

echo "Record a lock/reader workload"
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- \
		perf test -w lockshare 1000 > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s type,typeoff of a recording"
if report_typeoff "a recording" &&
   ! grep -q "struct lockshare_rq +0[x0-9a-f]* ([a-z_]*)" "${result}"; then
	echo "[Fail] no sample of the workload attributed to a lockshare_rq field"
	err=1
fi

echo "perf report -s type,typeoff of samples at every memory instruction"
if ! perf bench affinity 2>&1 | grep -q "synth:"; then
	echo "[Skip] no 'perf bench affinity synth' to write the samples"
elif ! perf bench affinity synth -n 2000 -o "${perfdata}" > /dev/null 2>&1; then
	echo "[Fail] perf bench affinity synth"
	err=1
elif report_typeoff "synthesized samples"; then
	for field in lock nr_running clock load_avg nr_switches; do
		if ! grep -q "struct lockshare_rq +0[x0-9a-f]* (${field})" "${result}"; then
			echo "[Fail] no samples attributed to lockshare_rq.${field}"
			err=1
		fi
	done
fi

echo "perf annotate --data-type"
rc=0
perf annotate -i "${perfdata}" --data-type=lockshare_rq --stdio > "${result}" 2>&1 || rc=$?
if [ ${rc} -ne 0 ]; then
	echo "[Fail] perf annotate --data-type exited with ${rc}"
	tail -5 "${result}"
	err=1
elif ! grep -q "nr_running" "${result}"; then
	echo "[Fail] perf annotate --data-type does not show lockshare_rq.nr_running"
	err=1
fi

echo "perf report -s type,typeoff after the binary was replaced"
# a copy of perf is the workload; the build ID cache keeps what was recorded
cp "$(command -v perf)" "${bindir}/perf"
if ! perf --buildid-dir "${bindir}/debug" record -e cpu-clock -c 100000 -o "${perfdata}" -- \
		"${bindir}/perf" test -w lockshare 1000 > /dev/null 2>&1; then
	echo "[Fail] perf record of a copy of perf"
	err=1
elif ! command -v cc > /dev/null; then
	echo "[Skip] no C compiler to replace the binary with"
else
	echo 'int main(void) { return 0; }' | cc -g -x c - -o "${bindir}/perf"
	perf --buildid-dir "${bindir}/debug" report -i "${perfdata}" -s type,typeoff \
		--stdio > "${result}" 2>&1 || true
	if ! grep -q "struct lockshare_rq +0[x0-9a-f]* ([a-z_]*)" "${result}"; then
		echo "[Fail] the debug info of the replaced binary was used"
		err=1
	fi
fi

# check_typeoff PROG LOCATION FIELDS WHAT: build PROG.c (or PROG.cc, as C++)
# with -O2 -g, skip if its debug info has no LOCATION (when one is given),
# record it and check that 'perf report -s type,typeoff' has one of FIELDS
# (an extended regex).
check_typeoff() {
	local cc=cc lang=C src="${bindir}/$1.c"

	if [ -f "${bindir}/$1.cc" ]; then
		cc=c++
		lang=C++
		src="${bindir}/$1.cc"
	fi
	if ! command -v ${cc} > /dev/null || ! ${cc} -g -O2 -o "${bindir}/$1" "${src}"; then
		echo "[Skip] no ${lang} compiler"
	elif [ -n "$2" ] &&
	     ! readelf --debug-dump=loc "${bindir}/$1" 2>/dev/null | grep -q "$2"; then
		echo "[Skip] the compiler does not describe the pointers as expected: $2"
	elif ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- "${bindir}/$1" \
			> /dev/null 2>&1; then
		echo "[Fail] perf record of $1"
		err=1
	else
		perf report -i "${perfdata}" -s type,typeoff --stdio > "${result}" 2>&1 || true
		if ! grep -qE "$3" "${result}"; then
			echo "[Fail] $4: no '$3' in perf report -s type,typeoff"
			grep -v '^#' "${result}" | head -5
			err=1
		fi
	fi
}

echo "perf report -s type,typeoff of container_of() pointers"
cat > "${bindir}/walk.c" <<'PROG'
#include <stdlib.h>
#include <time.h>
struct list_head { struct list_head *next, *prev; };
struct item { long key; long hits; char name[16]; struct list_head node; long value; };
#define container_of(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))
static struct list_head head = { &head, &head };

__attribute__((noinline)) long walk(struct list_head *h)
{
	long sum = 0;

	for (struct list_head *p = h->next; p != h; p = p->next) {
		struct item *it = container_of(p, struct item, node);

		sum += it->key + it->value;
		it->hits++;
	}
	return sum;
}

int main(void)
{
	time_t end = time(NULL) + 1;
	long sum = 0;

	for (int i = 0; i < 256; i++) {
		struct item *it = calloc(1, sizeof(*it));

		it->key = i;
		it->node.next = head.next;
		it->node.prev = &head;
		head.next->prev = &it->node;
		head.next = &it->node;
	}
	while (time(NULL) <= end)
		sum += walk(&head);
	return sum == 42;
}
PROG
# Every access of the loop but p->next is to the item, at a negative offset
# from the node: key at -0x20, hits at -0x18, value at +0x10.
check_typeoff walk 'DW_OP_breg.*DW_OP_stack_value' \
	"struct item \+(0|0x8|0x30) \((key|hits|value)\)" "the item of a list node"

echo "perf report -s type,typeoff of rb-tree nodes used as their container"
# The loop keeps only the node pointer: no variable says the struct it is
# in where key is read, only 'first' does, before the loop.
cat > "${bindir}/tree.c" <<'PROG'
#include <stdlib.h>
#include <time.h>
struct node { struct node *left, *right; };
struct item { long key; long hits; char name[16]; struct node rb; long value; };
#define container_of(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))
static struct node *root;

static inline long node_key(const struct node *n)
{
	return container_of(n, struct item, rb)->key;
}

__attribute__((noinline)) long lookup(long key)
{
	struct node *n = root;
	struct item *first = container_of(n, struct item, rb);
	long sum = first->value;

	while (n) {
		if (key < node_key(n))
			n = n->left;
		else if (key > node_key(n))
			n = n->right;
		else
			return sum + container_of(n, struct item, rb)->hits++;
	}
	return sum;
}

static struct node *insert(struct node *n, struct item *it)
{
	if (!n)
		return &it->rb;
	if (it->key < node_key(n))
		n->left = insert(n->left, it);
	else
		n->right = insert(n->right, it);
	return n;
}

int main(void)
{
	time_t end = time(NULL) + 1;
	long sum = 0;

	for (int i = 0; i < 1024; i++) {
		struct item *it = calloc(1, sizeof(*it));

		it->key = (i * 7919) % 1024;
		it->value = i;
		root = insert(root, it);
	}
	while (time(NULL) <= end)
		for (long k = 0; k < 1024; k++)
			sum += lookup(k);
	return sum == 42;
}
PROG
# The loop reads key and writes hits through the node pointer.
check_typeoff tree 'DW_OP_breg.*-32; DW_OP_stack_value' \
	"struct item \+(0|0x8) \((key|hits)\)" "the item of an rb-tree node"

echo "perf report -s type,typeoff of the base class of a C++ class"
cat > "${bindir}/derived.cc" <<'PROG'
#include <time.h>
struct base { long refs; long seq; };
struct derived : base { static int count; int x; long y; };
int derived::count;
derived *volatile dp;

int main(void)
{
	time_t end = time(NULL) + 1;

	dp = new derived();
	while (time(NULL) <= end) {
		for (long i = 0; i < 100000; i++) {
			derived *p = dp;

			p->refs += i;
			p->y += p->refs;
		}
	}
	return dp->x;
}
PROG
# refs is the base class's, at offset 0 of the derived class
check_typeoff derived '' "struct derived \+0 \(refs\)" "a member of a base class"

cleanup
exit $err
