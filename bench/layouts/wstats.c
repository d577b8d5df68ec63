// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread statistics, a 24-byte struct a thread in a calloc()ed array
 * behind a global pointer, as perf test -w threadstats: two threads'
 * structs share a line, and no index stride of whole 24-byte structs is
 * one line.  -DALIGNED_ALLOC allocates the array at a line boundary.  The
 * struct comes from the header named by -DLAYOUT.
 *
 *   wstats [iterations]    prints the seconds the threads took
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include LAYOUT

#define NR_THREADS	2

static struct wstats *wstats;
static unsigned long iterations = 100000000;

static __attribute__((noinline)) void account(long t, unsigned long bytes)
{
	struct wstats *st = &wstats[t];

	st->ops++;
	st->bytes += bytes;
	st->last = bytes;
}

static void *worker(void *arg)
{
	for (unsigned long n = 0; n < iterations; n++)
		account((long)arg, n & 1023);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	pthread_t th[NR_THREADS];

#ifdef ALIGNED_ALLOC
	wstats = aligned_alloc(64, NR_THREADS * sizeof(*wstats));
	if (wstats)
		memset(wstats, 0, NR_THREADS * sizeof(*wstats));
#else
	wstats = calloc(NR_THREADS, sizeof(*wstats));
#endif
	if (!wstats)
		return 1;
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
	free(wstats);
	return 0;
}
