// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread allocation counters, an 8-byte slot a thread in an allocated
 * array, the main thread's first; the main thread also sums every slot
 * with a 16-byte vector load every 64 counts, as perf test -w vecsum.
 * Element thread * STRIDE is the thread's (-DSTRIDE, 1 by default: both
 * slots on one line); -DHAND_FIX gives each thread a 64-byte aligned
 * struct instead, the fix written by hand.
 *
 *   vecsum [iterations]    prints the seconds the threads took
 */
#include <emmintrin.h>
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
	unsigned long	n;
} __attribute__((aligned(64)));
static struct counter *nallocs;
#define COUNT(t)	nallocs[t].n
#define SIZE		(NR_THREADS * sizeof(*nallocs))
#else
static unsigned long *nallocs;
#define COUNT(t)	nallocs[(t) * STRIDE]
#define SIZE		(NR_THREADS * STRIDE * sizeof(*nallocs))
#endif

static unsigned long iterations = 200000000;

static __attribute__((noinline)) void count(long t)
{
	COUNT(t)++;
}

static __attribute__((noinline)) unsigned long total(void)
{
#if STRIDE == 1 && !defined(HAND_FIX)
	/* volatile: one 16-byte load, as a vectorized sum makes it */
	__m128i sum = *(volatile __m128i *)nallocs;
	unsigned long out[2];

	_mm_storeu_si128((__m128i *)out, sum);
	return out[0] + out[1];
#else
	unsigned long sum = 0;

	for (long t = 0; t < NR_THREADS; t++)
		sum += *(volatile unsigned long *)&COUNT(t);
	return sum;
#endif
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
	unsigned long sum = 0;
	pthread_t th;

	nallocs = aligned_alloc(64, SIZE);
	if (!nallocs)
		return 1;
	memset(nallocs, 0, SIZE);
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
	printf("%lu %.6f\n", sum & 1, (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	free(nallocs);
	return 0;
}
