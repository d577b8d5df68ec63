// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread event counters, a size_t a thread in a calloc()ed array, the
 * main thread's first; the main thread also sums every slot every 64
 * counts, as perf test -w slotsum.  Element thread * STRIDE is the
 * thread's (-DSTRIDE, 1 by default: both slots on one line); -DHAND_FIX
 * gives each thread a 64-byte aligned struct instead, the fix by hand.
 *
 *   slotsum [iterations]    prints the seconds the threads took
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef STRIDE
#define STRIDE		1
#endif
#define NR_THREADS	2

#ifdef HAND_FIX
struct counter {
	size_t	n;
} __attribute__((aligned(64)));
static struct counter *counts;
#define COUNT(t)	counts[t].n
#else
static size_t *counts;
#define COUNT(t)	counts[(t) * STRIDE]
#endif

static unsigned long iterations = 200000000;

static __attribute__((noinline)) void count(long t)
{
	COUNT(t)++;
}

static __attribute__((noinline)) size_t total(void)
{
	size_t sum = 0;

	for (long t = 0; t < NR_THREADS; t++)
		sum += *(volatile size_t *)&COUNT(t);
	return sum;
}

static void *worker(void *arg)
{
	for (unsigned long n = 0; n < iterations; n++)
		count((long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	size_t sum = 0;
	pthread_t th;

#ifdef HAND_FIX
	counts = aligned_alloc(64, NR_THREADS * sizeof(*counts));
	if (counts)
		memset(counts, 0, NR_THREADS * sizeof(*counts));
#else
	counts = calloc(NR_THREADS * STRIDE, sizeof(*counts));
#endif
	if (!counts)
		return 1;
	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (pthread_create(&th, NULL, worker, (void *)1L)) {
		perror("pthread_create");
		return 1;
	}
	for (unsigned long n = 0; n < iterations; n++) {
		count(0);
		if ((n & 63) == 63)
			sum += total();
	}
	pthread_join(th, NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%zu %.6f\n", sum & 1, (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	free(counts);
	return 0;
}
