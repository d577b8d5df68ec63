#!/bin/bash
# perf affinity attributes thread-local variables
# SPDX-License-Identifier: GPL-2.0
#
# An allocator's per-thread fast path: an array of slab metadata structs,
# freelist heads and counts, all __thread, used by 2 threads.  Accesses
# relative to %fs are to a thread-local variable of the executable: the
# struct array's elements are instances of struct slab_meta with their
# fields, each thread's its own, and nearly all the %fs: accesses of the
# program find their variable.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

[ "$(uname -m)" = x86_64 ] || affinity__skip "thread-local variables are x86-64 only"
command -v cc > /dev/null || affinity__skip "no C compiler"

cat > "${tmpdir}/tls.c" <<'PROG'
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct slab_meta {
	void		*freelist;
	unsigned short	 used;
	unsigned short	 capacity;
	unsigned char	 class_idx;
	unsigned char	 carved;
	unsigned short	 owner_tid_low;
};

static __thread struct slab_meta slabs[32];
static __thread void *head[8];
static __thread unsigned int count[8];
static __thread char pool[8][4096];

__attribute__((noinline)) static void *tls_alloc(unsigned int cls)
{
	struct slab_meta *m = &slabs[cls];
	void *p = head[cls];

	if (p) {
		head[cls] = *(void **)p;
		count[cls]--;
	} else {
		p = m->freelist;
	}
	m->used++;
	return p;
}

__attribute__((noinline)) static void tls_free(unsigned int cls, void *p)
{
	*(void **)p = head[cls];
	head[cls] = p;
	count[cls]++;
	slabs[cls].used--;
}

static void *worker(void *arg)
{
	time_t end = time(NULL) + 1;

	(void)arg;
	for (unsigned int c = 0; c < 8; c++) {
		slabs[c].freelist = pool[c];
		slabs[c].capacity = 64;
	}
	for (unsigned long i = 0; time(NULL) <= end; i++) {
		unsigned int cls = i & 7;
		void *p = tls_alloc(cls);

		if (p)
			tls_free(cls, p);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
PROG
cc -g -O2 -pthread -include "${tmpdir}/pin.h" -o "${tmpdir}/tls" "${tmpdir}/tls.c" || affinity__skip "cc failed"

if ! perf affinity record -o "${perfdata}" -- "${tmpdir}/tls" > /dev/null 2>&1; then
	fail "perf affinity record"
	cleanup
	exit 1
fi

echo "--stats: the %fs: accesses find their variables"
perf affinity report -i "${perfdata}" --stats > "${result}" 2>&1 || fail "--stats"
tls=$(awk '/Thread-local \(%fs:\) accesses/ { print $NF + 0 }' "${result}")
found=$(awk '/to a variable of the executable/ { print $NF + 0 }' "${result}")
by_tls=$(awk '/by a thread-local variable/ { print $NF + 0 }' "${result}")
echo "${found:-0} of ${tls:-0} thread-local accesses found their variable, ${by_tls:-0} to fields"
[ "${tls:-0}" -gt 100 ] || fail "too few thread-local accesses: ${tls:-0}"
[ $(( ${found:-0} * 100 )) -ge $(( ${tls:-0} * 95 )) ] ||
	fail "${found:-0} of ${tls:-0} thread-local accesses found their variable"
[ "${by_tls:-0}" -gt 0 ] || fail "no access attributed to struct slab_meta by its variable"

echo "the report: struct slab_meta, one instance per thread and element"
perf affinity report -i "${perfdata}" --stdio -T slab_meta > "${result}" 2>&1 ||
	fail "perf affinity report -T slab_meta"
grep -q "^  struct slab_meta: 16 bytes, [0-9]* accesses, [0-9]* instances" "${result}" ||
	fail "no report of struct slab_meta with several instances"
grep -q "^  used  *8  *2 " "${result}" || fail "slab_meta.used not attributed"

cleanup
exit $err
