#!/bin/bash
# perf affinity check and diff of a member move that a heap object at 16 mod 64 undoes
# SPDX-License-Identifier: GPL-2.0
#
# A struct with an atomic counter that one thread increments beside members
# another thread reads, one instance from the heap, 16 bytes past a cache
# line as malloc() may place it.  Moving the counter to the end of the
# struct separates it from the readers only in an instance that starts a
# line: in this one the readers' bytes and the counter still share one.
#
# - the report advises the move and the aligned allocation, with the
#   replay's numbers (the instance where it was), not the move alone;
# - check of a build with the move alone does not hold ('instances'), of
#   the build with the struct aligned and allocated so holds;
# - diff of a recording of the move alone shows the transfers unchanged
#   (never -100% above false sharing that grows), of the fix gone.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin
out="${tmpdir}/out"

if [ "$(uname -m)" != x86_64 ] || ! command -v cc > /dev/null; then
	affinity__skip "needs software address sampling (x86-64) and cc"
fi

# the program: MOVED puts the counter last, FIXED also aligns the struct
cat > "${tmpdir}/svc.c" <<'PROG'
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct service {
	char name[16];
#ifndef MOVED
	atomic_int admitted;
#endif
	int limit;
	int burst;
	int window;
	double rate;
	double weight;
	long flags;
	long quota;
#ifdef MOVED
	atomic_int admitted;
#endif
}
#ifdef FIXED
__attribute__((aligned(64)))
#endif
;

static volatile int done;

static void *admit(void *arg)
{
	struct service *s = arg;

	while (!done)
		atomic_fetch_add(&s->admitted, 1);
	return NULL;
}

static void *evaluate(void *arg)
{
	struct service *s = arg;
	double sum = 0;

	while (!done)
		sum += *(volatile double *)&s->rate * *(volatile int *)&s->limit +
		       *(volatile double *)&s->weight + *(volatile long *)&s->quota;
	return (void *)(long)sum;
}

int main(int argc, char **argv)
{
	int ms = argc > 1 ? atoi(argv[1]) : 1500;
	/* 16 bytes past a line, as malloc() may place it; aligned when FIXED */
	char *mem = aligned_alloc(64, 4096);
#ifdef FIXED
	struct service *s = (struct service *)mem;
#else
	struct service *s = (struct service *)(mem + 16);
#endif
	pthread_t a, b;

	memset(mem, 0, 4096);
	s->limit = 10;
	s->rate = 1.5;
	s->weight = 2;
	s->quota = 3;
	pthread_create(&a, NULL, admit, s);
	pthread_create(&b, NULL, evaluate, s);
	usleep(ms * 1000);
	done = 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
PROG
for v in orig:"" moved:-DMOVED fixed:"-DMOVED -DFIXED"; do
	# shellcheck disable=SC2086
	if ! cc -g -O2 -pthread -include "${tmpdir}/pin.h" ${v#*:} -o "${tmpdir}/${v%%:*}" "${tmpdir}/svc.c"; then
		fail "cc svc.c ${v#*:}"
		cleanup
		exit 1
	fi
done

# rec NAME: record build NAME into NAME.data
rec() {
	perf affinity record -o "${tmpdir}/$1.data" -- "${tmpdir}/$1" > /dev/null 2>&1 ||
		fail "perf affinity record -- $1"
}

rec orig
echo "the advice: the move, and an aligned allocation"
perf affinity report -i "${tmpdir}/orig.data" --stdio -T service > "${out}" 2>&1
grep -A3 '^  Advice' "${out}"
grep -q '^    1. move admitted to the end' "${out}" || fail "the move not advised"
grep -q '^    and allocate the instances at 64 byte boundaries' "${out}" ||
	fail "the move advised without the aligned allocation that makes it work"
grep -q '^  unsure' "${out}" && fail "unsure: the alignment the replay confirms not advised"

echo "check: the move alone does not hold, the move and the alignment do"
rc=0
perf affinity check -i "${tmpdir}/orig.data" -T service "${tmpdir}/moved" > "${out}" 2>&1 || rc=$?
grep 'recorded instances' "${out}"
[ "${rc}" = 1 ] && grep -q 'the layout does NOT hold' "${out}" &&
	grep -q 'the recorded instances, where they were (1 of 1 not at the start of a cache line), still move lines' "${out}" ||
	fail "check of the move alone: exit ${rc}, $(head -1 "${out}")"
rc=0
perf affinity check -i "${tmpdir}/orig.data" -T service "${tmpdir}/fixed" > "${out}" 2>&1 || rc=$?
[ "${rc}" = 0 ] && grep -q 'the layout holds' "${out}" ||
	fail "check of the fix: exit ${rc}, $(head -2 "${out}")"

echo "diff: the move alone changes nothing, the fix removes the transfers"
rec moved
rec fixed
# xfers OLD NEW: the change column of the transfers row of their diff
xfers() {
	perf affinity diff "${tmpdir}/$1.data" "${tmpdir}/$2.data" -T service 2> /dev/null |
		sed -n 's/^  transfers per 1k accesses *[0-9.]* *[0-9.]* *\([-+0-9.]*%\) *\(.*\)/\1 \2/p'
}
moved=$(xfers orig moved)
fixed=$(xfers orig fixed)
echo "  transfers per 1k accesses, the move alone: ${moved}; the fix: ${fixed}"
case "${moved}" in
-100.0%*|"") fail "diff says the move alone removed the transfers: ${moved}" ;;
esac
case "${fixed}" in
-100.0%*|-9[0-9].*%*) ;;
*) fail "diff says the fix did not remove the transfers: ${fixed}" ;;
esac

cleanup
exit ${err}
