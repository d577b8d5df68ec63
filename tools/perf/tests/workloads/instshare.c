/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads whose cost is not inside one struct instance, for perf affinity
 * and perf c2c:
 *
 * slotshare: per-thread statistics in an array, the slots of two threads in
 *   one cache line (the perf c2c talk's case, and the per-thread stats of
 *   many servers).  Each thread only ever writes its own slot; the line
 *   still moves between their CPUs on every write.  The fix is to align
 *   each slot to a cache line.  With 'ro' the threads only read their
 *   slots: nothing to fix (the control).
 *
 * rqscan: a load balancer scanning many instances of a large struct and
 *   reading five fields of each that sit on five different cache lines (the
 *   struct rq / idle_cpu() case).  One thread, no sharing: the cost is the
 *   lines touched per instance visited.  The fix is to group the five.
 *
 * heapslots: per-thread statistics of a cache line's size in a malloc()ed
 *   array whose start is 48 bytes past a line, as malloc() may place it:
 *   each thread's hot counters straddle a line with its neighbour's.  The
 *   type's size is right, the addresses are not: the fix is an aligned
 *   allocation, which 'aligned' makes (the control: nothing to fix).
 *
 * counters: per-thread event counters, incremented atomically, in a
 *   malloc()ed array of int, an element per thread, indexed by the
 *   thread's number through a global pointer ('counts'): no struct, no
 *   variable of the array's type, the elements of two threads in one
 *   line.  The fix pads the stride to the line: 'padded' indexes the array
 *   by thread * 16.
 *
 *   perf test -w slotshare [<msecs> [addr] [ro]]
 *   perf test -w heapslots [<msecs> [addr] [aligned]]
 *   perf test -w rqscan [<msecs> [addr]]
 *   perf test -w counters [<msecs> [addr] [padded]]
 *
 * 'addr' prints the addresses of the first instances and of the functions
 * that access them, the ground truth for tests.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/compiler.h>
#include <linux/zalloc.h>
#include "../tests.h"
#include "pin.h"

#define NR_SLOTS	2
#define NR_RQS		65536

struct slot_stats {
	unsigned long	ops;
	unsigned long	bytes;
};

/* The hot fields of the balancer each start a cache line of their own. */
struct runq {
	unsigned int	nr_running;
	char		cold0[60];
	unsigned long	cpu_capacity;
	char		cold1[120];
	void		*curr;
	char		cold2[120];
	void		*idle;
	char		cold3[120];
	int		ttwu_pending;
	char		cold4[132];
};

/* A thread's counters, a cache line of them */
struct heap_stats {
	unsigned long	ops;
	unsigned long	bytes;
	unsigned long	errors;
	unsigned long	last;
	unsigned long	cold[4];
};

/* the array starts a line, so that the slots share one in every build */
static struct slot_stats slots[NR_SLOTS] __aligned(64);
static int done;
static unsigned long sink;

static bool has_arg(int argc, const char **argv, const char *arg)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], arg))
			return true;
	}
	return false;
}

static int msecs_arg(int argc, const char **argv)
{
	return argc > 0 ? atoi(argv[0]) : 1000;
}

static void sleep_ms(int msecs)
{
	struct timespec ts = { .tv_sec = msecs / 1000, .tv_nsec = (msecs % 1000) * 1000000L, };

	nanosleep(&ts, NULL);
}

static noinline void slot_account(struct slot_stats *st, unsigned long bytes)
{
	WRITE_ONCE(st->ops, st->ops + 1);
	WRITE_ONCE(st->bytes, st->bytes + bytes);
}

static noinline unsigned long slot_read(const struct slot_stats *st)
{
	return READ_ONCE(st->ops) + READ_ONCE(st->bytes);
}

static noinline void *slot_worker(void *arg)
{
	struct slot_stats *st = arg;
	unsigned long n = 0;

	while (!READ_ONCE(done))
		slot_account(st, ++n & 1023);
	return NULL;
}

static noinline void *slot_reader(void *arg)
{
	struct slot_stats *st = arg;
	unsigned long sum = 0;

	while (!READ_ONCE(done))
		sum += slot_read(st);
	WRITE_ONCE(sink, sum);
	return NULL;
}

static int slotshare(int argc, const char **argv)
{
	int msecs = msecs_arg(argc, argv);
	bool ro = has_arg(argc, argv, "ro");
	pthread_t th[NR_SLOTS];
	int i, n = 0;

	if (msecs <= 0)
		return -1;
	if (has_arg(argc, argv, "addr")) {
		printf("slot_stats %p %zu\n", (void *)slots, sizeof(slots[0]));
		printf("func slot_account %p\n", slot_account);
		fflush(stdout);
	}
	for (i = 0; i < NR_SLOTS; i++) {
		if (pthread_create(&th[n], NULL, ro ? slot_reader : slot_worker, &slots[i]) == 0)
			workload__pin(th[n++], i);
	}
	sleep_ms(msecs);
	WRITE_ONCE(done, 1);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return n == NR_SLOTS ? 0 : -1;
}

/* How busy the busiest run queue is: five fields of every one */
static noinline void heap_account(struct heap_stats *st, unsigned long bytes)
{
	WRITE_ONCE(st->ops, st->ops + 1);
	WRITE_ONCE(st->bytes, st->bytes + bytes);
	if (!(bytes & 255))
		WRITE_ONCE(st->errors, st->errors + 1);
	WRITE_ONCE(st->last, bytes);
}

static noinline void *heap_worker(void *arg)
{
	struct heap_stats *st = arg;
	unsigned long n = 0;

	while (!READ_ONCE(done))
		heap_account(st, ++n & 1023);
	return NULL;
}

static int heapslots(int argc, const char **argv)
{
	int msecs = msecs_arg(argc, argv);
	size_t size = (NR_SLOTS + 1) * sizeof(struct heap_stats);
	char *mem = aligned_alloc(64, size);
	struct heap_stats *st;
	pthread_t th[NR_SLOTS];
	int i, n = 0;

	if (msecs <= 0 || !mem) {
		free(mem);
		return -1;
	}
	memset(mem, 0, size);
	/* 48 bytes past a line, as malloc() may return it, or on one */
	st = (void *)(mem + (has_arg(argc, argv, "aligned") ? 0 : 48));
	if (has_arg(argc, argv, "addr")) {
		printf("heap_stats %p %zu\n", (void *)st, sizeof(*st));
		fflush(stdout);
	}
	for (i = 0; i < NR_SLOTS; i++) {
		if (pthread_create(&th[n], NULL, heap_worker, &st[i]) == 0)
			workload__pin(th[n++], i);
	}
	sleep_ms(msecs);
	WRITE_ONCE(done, 1);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	free(mem);
	return n == NR_SLOTS ? 0 : -1;
}

static noinline unsigned long rq_balance(const struct runq *rq, int nr)
{
	unsigned long busiest = 0;

	for (int i = 0; i < nr; i++, rq++) {
		unsigned long load = READ_ONCE(rq->nr_running) * READ_ONCE(rq->cpu_capacity);

		if (READ_ONCE(rq->curr) != READ_ONCE(rq->idle) && !READ_ONCE(rq->ttwu_pending) &&
		    load > busiest)
			busiest = load;
	}
	return busiest;
}

static int rqscan(int argc, const char **argv)
{
	int msecs = msecs_arg(argc, argv);
	struct runq *rqs = calloc(NR_RQS, sizeof(*rqs));
	struct timespec now, end;
	unsigned long sum = 0;

	if (!rqs || msecs <= 0) {
		free(rqs);
		return -1;
	}
	for (int i = 0; i < NR_RQS; i++) {
		rqs[i].nr_running = i % 3;
		rqs[i].cpu_capacity = 1024;
		rqs[i].curr = &rqs[i];
		rqs[i].idle = i % 5 ? NULL : &rqs[i];
		rqs[i].ttwu_pending = !(i % 7);
	}
	if (has_arg(argc, argv, "addr")) {
		printf("runq %p %zu\n", (void *)rqs, sizeof(*rqs));
		printf("func rq_balance %p\n", rq_balance);
		fflush(stdout);
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += msecs / 1000;
	end.tv_nsec += (msecs % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	do {
		sum += rq_balance(rqs, NR_RQS);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
		 (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	WRITE_ONCE(sink, sum);
	free(rqs);
	return 0;
}

static int *counts;
static int counts_stride;

static noinline void *counters_worker(void *arg)
{
	long idx = (long)arg * counts_stride;

	while (!READ_ONCE(done))
		__atomic_fetch_add(&counts[idx], 1, __ATOMIC_RELAXED);
	return NULL;
}

static int counters(int argc, const char **argv)
{
	int msecs = msecs_arg(argc, argv);
	pthread_t th[NR_SLOTS];
	long i, n = 0;

	counts_stride = has_arg(argc, argv, "padded") ? 64 / sizeof(int) : 1;
	counts = calloc(NR_SLOTS * counts_stride, sizeof(int));
	if (msecs <= 0 || !counts)
		return -1;
	if (has_arg(argc, argv, "addr")) {
		printf("counts %p %zu\n", (void *)counts, sizeof(int));
		fflush(stdout);
	}
	for (i = 0; i < NR_SLOTS; i++) {
		if (pthread_create(&th[n], NULL, counters_worker, (void *)i) == 0)
			workload__pin(th[n++], i);
	}
	sleep_ms(msecs);
	WRITE_ONCE(done, 1);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	zfree(&counts);
	return n == NR_SLOTS ? 0 : -1;
}

DEFINE_WORKLOAD(slotshare);
DEFINE_WORKLOAD(heapslots);
DEFINE_WORKLOAD(rqscan);
DEFINE_WORKLOAD(counters);
