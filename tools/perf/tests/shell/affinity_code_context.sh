#!/bin/bash
# perf affinity report reads the whole code of large functions
# SPDX-License-Identifier: GPL-2.0
#
# The code context gives a sampled function the fields its memory
# operands access, found by reading its code.  A field accessed 6 kB into
# a function (after a sled of nops) must be among them: the code was read
# up to 4 kB only, so the field was silently missing from the function's
# fields.  Whatever CPU the samples land on, the function's loop is
# sampled and its code read; the field past the sled is found by the code
# alone, which every run does the same way.  A function longer than the
# 64 kB read is cut, and --stats says so.  The stores of main before the
# loop its samples are in (a struct on its stack set once, then read by
# main's loop and a thread) make main no writer of the members: they were
# 'shared-written (code)', and parted from what they were read with.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin

if [ "$(uname -m)" != x86_64 ] || ! command -v cc > /dev/null; then
	affinity__skip "needs software address sampling (x86-64) and a C compiler"
fi

cat > "${tmpdir}/big.c" <<'EOC'
#include <stdlib.h>

struct ctx_big {
	long	head;
	long	cold[7];
	long	tail;
};

#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))

/* head in a loop, then SLED bytes of nops, then tail once */
static __attribute__((noinline)) long ctx_walk(struct ctx_big *p)
{
	long v = 0;

	for (int i = 0; i < 2000; i++)
		v += READ_ONCE(p->head);
	asm volatile(".fill " SLED ", 1, 0x90");
	return v + READ_ONCE(p->tail);
}

int main(int argc, char **argv)
{
	struct ctx_big *p = calloc(1, sizeof(*p));
	long n = argc > 1 ? atol(argv[1]) : 200000, v = 0;

	for (long i = 0; p && i < n; i++)
		v += ctx_walk(p);
	return v == 1;
}
EOC
if ! cc -O2 -g -DSLED='"6144"' -o "${tmpdir}/big" "${tmpdir}/big.c" ||
   ! cc -O2 -g -DSLED='"70000"' -o "${tmpdir}/huge" "${tmpdir}/big.c"; then
	fail "cc big.c"
	cleanup
	exit 1
fi

echo "a field 6 kB into a function: one of its fields"
if ! perf affinity record -o "${tmpdir}/perf.data" -- "${tmpdir}/big" > /dev/null 2>&1; then
	fail "perf affinity record"
elif ! perf affinity report -i "${tmpdir}/perf.data" --stdio --method code -T ctx_big \
		--percent-limit 0 > "${tmpdir}/report" 2>&1; then
	fail "no access to struct ctx_big attributed: $(head -1 "${tmpdir}/report")"
else
	grep -q "^  head " "${tmpdir}/report" || fail "ctx_walk's loop on head not attributed"
	# never sampled itself: only the code 6 kB into ctx_walk says it is accessed
	grep -q "^  tail .*(code)" "${tmpdir}/report" ||
		fail "tail, 6 kB into ctx_walk, is not one of its fields: $(grep '^  tail ' "${tmpdir}/report")"
	grep -Eq "^    head +tail " "${tmpdir}/report" ||
		fail "head and tail, accessed by the same function, are not a pair"
fi

echo "a function of 70 kB: cut, and counted"
if ! perf affinity record -o "${tmpdir}/perf.data" -- "${tmpdir}/huge" 50000 > /dev/null 2>&1; then
	fail "perf affinity record"
elif ! perf affinity report -i "${tmpdir}/perf.data" --stats > "${tmpdir}/report" 2>&1; then
	fail "perf affinity report --stats: $(head -1 "${tmpdir}/report")"
elif ! grep -Eq "^  Functions cut at 64 KiB +: +1$" "${tmpdir}/report"; then
	fail "the 70 kB function is not counted as cut: $(grep -i cut "${tmpdir}/report")"
fi

echo "a struct main sets once before its loop: its stores there make no writer"
cat > "${tmpdir}/ctor.c" <<'EOC'
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* main sets cap and slots once, then both threads only read them */
struct ring2 {
	long cap;
	long *slots;
	_Atomic long head;
	_Atomic long tail;
};

#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))

static _Atomic int stop;

static void *consume(void *arg)
{
	struct ring2 *r = arg;
	long sum = 0;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		long t = atomic_fetch_add_explicit(&r->tail, 1, memory_order_relaxed);

		sum += READ_ONCE(r->slots)[t % READ_ONCE(r->cap)];
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	struct ring2 r;
	long n = argc > 1 ? atol(argv[1]) : 50000000;
	pthread_t th;

	r.cap = 64;
	r.slots = calloc(64, sizeof(long));
	atomic_init(&r.head, 0);
	atomic_init(&r.tail, 0);
	pthread_create(&th, NULL, consume, &r);
	for (long i = 0; i < n; i++) {
		long h = atomic_fetch_add_explicit(&r.head, 1, memory_order_relaxed);

		READ_ONCE(r.slots)[h % READ_ONCE(r.cap)] = i;
	}
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	return 0;
}
EOC
if ! cc -O2 -g -pthread -include "${tmpdir}/pin.h" -o "${tmpdir}/ctor" "${tmpdir}/ctor.c"; then
	fail "cc ctor.c"
elif ! perf affinity record -o "${tmpdir}/ctor.data" -- "${tmpdir}/ctor" > /dev/null 2>&1; then
	fail "perf affinity record of ctor"
else
	perf affinity report -i "${tmpdir}/ctor.data" --stdio -T ring2 > "${tmpdir}/report" 2>&1
	grep -E '^  (cap|slots) ' "${tmpdir}/report"
	for f in cap slots; do
		grep -Eq "^  ${f} +[0-9]+ +8 +0 +[1-9][0-9]* +0 +0 .* - +read-mostly$" \
			"${tmpdir}/report" || fail "${f}, set once before main's loop, is written by it"
	done
fi

cleanup
exit $err
