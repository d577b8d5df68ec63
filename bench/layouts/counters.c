// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread event counters, incremented atomically, in an allocated array
 * of int, as in perf test -w counters: element thread * STRIDE is the
 * thread's (-DSTRIDE, 1 by default: the counters of two threads share a
 * line).  -DHAND_FIX gives
 * each thread a 64-byte aligned struct of its counter instead, the fix
 * written by hand.
 *
 *   counters [iterations]    prints the seconds the threads took
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef STRIDE
#define STRIDE		1
#endif
#define NR_THREADS	2

#ifdef HAND_FIX
struct counter {
	int	count;
} __attribute__((aligned(64)));
static struct counter *counts;
#define COUNT(t)	counts[t].count
#else
static int *counts;
#define COUNT(t)	counts[(t) * STRIDE]
#endif

static unsigned long iterations = 200000000;

static void *worker(void *arg)
{
	long t = (long)arg;

	for (unsigned long n = 0; n < iterations; n++)
		__atomic_fetch_add(&COUNT(t), 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	pthread_t th[NR_THREADS];

#ifdef HAND_FIX
	counts = aligned_alloc(64, NR_THREADS * sizeof(*counts));
#else
	counts = calloc(NR_THREADS * STRIDE, sizeof(*counts));
#endif
	if (!counts)
		return 1;
	for (long t = 0; t < NR_THREADS; t++)
		COUNT(t) = 0;
	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (long t = 0; t < NR_THREADS; t++) {
		if (pthread_create(&th[t], NULL, worker, (void *)t)) {
			perror("pthread_create");
			return 1;
		}
	}
	for (long t = 0; t < NR_THREADS; t++)
		pthread_join(th[t], NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	free(counts);
	return 0;
}
