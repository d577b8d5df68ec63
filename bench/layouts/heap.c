// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread counters of a cache line's size in an allocated array, as in
 * perf test -w heapslots: the array starts 48 bytes past a line, as
 * malloc() may return it, unless built with -DALIGNED_ALLOC (an aligned
 * allocation).  The struct comes from the header named by -DLAYOUT.
 *
 *   heap [iterations]    prints the seconds the threads took
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include LAYOUT

#define NR_SLOTS	2
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

static unsigned long iterations = 100000000;

static __attribute__((noinline)) void heap_account(struct heap_stats *st, unsigned long bytes)
{
	WRITE_ONCE(st->ops, st->ops + 1);
	WRITE_ONCE(st->bytes, st->bytes + bytes);
	if (!(bytes & 255))
		WRITE_ONCE(st->errors, st->errors + 1);
	WRITE_ONCE(st->last, bytes);
}

static void *worker(void *arg)
{
	for (unsigned long n = 1; n <= iterations; n++)
		heap_account(arg, n & 1023);
	return NULL;
}

int main(int argc, char **argv)
{
	size_t size = (NR_SLOTS + 1) * sizeof(struct heap_stats);
	char *mem = aligned_alloc(64, (size + 63) & ~63UL);
	struct timespec start, end;
	struct heap_stats *st;
	pthread_t th[NR_SLOTS];

	if (!mem)
		return 1;
	memset(mem, 0, size);
#ifdef ALIGNED_ALLOC
	st = (void *)mem;
#else
	st = (void *)(mem + 48);
#endif
	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int i = 0; i < NR_SLOTS; i++) {
		if (pthread_create(&th[i], NULL, worker, &st[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	for (int i = 0; i < NR_SLOTS; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	free(mem);
	return 0;
}
