// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread statistics in an array, as in perf test -w slotshare: each of
 * two threads adds to its own slot for a fixed number of iterations.  The
 * struct comes from the header named by -DLAYOUT, so that the layout a
 * report suggests can be compiled in unchanged (layout_apply.py).
 *
 *   slots [iterations] [ro]    prints the seconds the threads took
 *
 * With 'ro' the threads only read their slots (the control).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include LAYOUT

#define NR_SLOTS	2
#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

/* the array starts a line: the slots share one unless the layout says not */
static struct slot_stats slots[NR_SLOTS] __attribute__((aligned(64)));
static unsigned long iterations = 200000000;
static unsigned long sink;
static int read_only;

static __attribute__((noinline)) void slot_account(struct slot_stats *st, unsigned long bytes)
{
	WRITE_ONCE(st->ops, st->ops + 1);
	WRITE_ONCE(st->bytes, st->bytes + bytes);
}

static __attribute__((noinline)) unsigned long slot_read(const struct slot_stats *st)
{
	return READ_ONCE(st->ops) + READ_ONCE(st->bytes);
}

static void *worker(void *arg)
{
	struct slot_stats *st = arg;
	unsigned long sum = 0;

	for (unsigned long n = 1; n <= iterations; n++) {
		if (read_only)
			sum += slot_read(st);
		else
			slot_account(st, n & 1023);
	}
	__atomic_fetch_add(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	pthread_t th[NR_SLOTS];

	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	read_only = argc > 2 && !strcmp(argv[2], "ro");
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int i = 0; i < NR_SLOTS; i++) {
		if (pthread_create(&th[i], NULL, worker, &slots[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	for (int i = 0; i < NR_SLOTS; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	return sink == 1;
}
