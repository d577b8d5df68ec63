#!/bin/bash
# perf affinity report: a struct on a thread's stack is priced as a variable
# SPDX-License-Identifier: GPL-2.0
#
# A job on its owner thread's stack: the owner counts in it, another thread
# reads two members through a pointer.  A thread's stack is anonymous
# memory, which the maps cannot tell from the heap: the accesses near the
# owner's stack pointer tell it.  Its memory price is the bytes it grows by
# (a variable), not a malloc() chunk, in the text and the JSON.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin

if [ "$(uname -m)" != x86_64 ] || [ "$(nproc)" -lt 2 ] || ! command -v cc > /dev/null; then
	affinity__skip "needs software address sampling (x86-64), two CPUs and cc"
fi

cat > "${tmpdir}/stackjob.c" <<'PROG'
#include <pthread.h>
#include <stdio.h>
#include <time.h>

struct stackjob {
	long lock;
	long state;
	long reader1;
	long reader2;
	long cold[5];
};

static struct stackjob *volatile shared;
static volatile int stop;

static void *reader(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!stop) {
		struct stackjob *j = shared;

		sum += j->reader1 + j->reader2;
	}
	return (void *)sum;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *owner(void *arg)
{
	struct stackjob job = { 0 };
	double end = now() + *(double *)arg;
	pthread_t t;

	shared = &job;
	pthread_create(&t, NULL, reader, NULL);
	while (now() < end) {
		for (int i = 0; i < 100000; i++)
			__atomic_fetch_add(&job.lock, 1, __ATOMIC_RELAXED);
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("%ld\n", job.lock);
	return NULL;
}

int main(void)
{
	double secs = 1.0;
	pthread_t t;

	pthread_create(&t, NULL, owner, &secs);
	pthread_join(t, NULL);
	return 0;
}
PROG
cc -O2 -g -pthread -include "${tmpdir}/pin.h" -o "${tmpdir}/stackjob" "${tmpdir}/stackjob.c" || affinity__skip "cc failed"
perf affinity record -o "${tmpdir}/perf.data" -- "${tmpdir}/stackjob" > /dev/null 2>&1 ||
	{ fail "record"; cleanup; exit 1; }
perf affinity report -i "${tmpdir}/perf.data" -T stackjob --stdio > "${tmpdir}/report" 2>&1 ||
	fail "report: exit $?"
perf affinity report -i "${tmpdir}/perf.data" -T stackjob --json - > "${tmpdir}/json" 2>&1 ||
	fail "report --json: exit $?"
grep -q "struct stackjob: 72 bytes" "${tmpdir}/report" || fail "no struct stackjob"
python3 - "${tmpdir}/json" <<'PY' || fail "struct stackjob is not priced as a variable"
import json, sys
t = [t for t in json.load(open(sys.argv[1]))["types"] if t["name"] == "struct stackjob"][0]
m = t["memory"]
print("memory:", m)
sys.exit(m["home"] != "variables" or m["copies"] != 1 or
	 m["total"] != m["alloc"] - m["alloc_current"] or m["alloc_current"] != 72)
PY
if grep -q "^  memory where" "${tmpdir}/report"; then
	grep "^  memory where" "${tmpdir}/report"
	grep -q "^  memory where the instances live (variables or stacks): 72 -> " \
		"${tmpdir}/report" || fail "the advice does not price the job as a variable"
fi
if grep -q "^  Advice: align the struct" "${tmpdir}/report"; then
	grep -q "its instances are on stacks, where the type's alignment aligns them" \
		"${tmpdir}/report" || fail "the alignment advice does not say the stacks align it"
fi
cleanup
exit ${err}
