// SPDX-License-Identifier: GPL-2.0
/*
 * A heap int array of 16 KiB behind a global pointer, updated by four
 * threads, thread t every 4th element from t, as perf test -w interleave:
 * every line written by every thread.  -DBLOCKS gives thread t the block
 * [t * n / 4, (t + 1) * n / 4) instead, the program's fix (and the advice).
 *
 *   weave [passes]    prints the seconds the threads took
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NR_THREADS	4
#define NR_INTS		4096

static int *weave;
static unsigned long passes = 20000;

static __attribute__((noinline)) void pass(long t)
{
#ifdef BLOCKS
	long from = t * (NR_INTS / NR_THREADS), to = from + NR_INTS / NR_THREADS, step = 1;
#else
	long from = t, to = NR_INTS, step = NR_THREADS;
#endif

	for (long i = from; i < to; i += step)
		weave[i] += 1;
}

static void *worker(void *arg)
{
	for (unsigned long n = 0; n < passes; n++)
		pass((long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	pthread_t th[NR_THREADS];

	weave = calloc(NR_INTS, sizeof(*weave));
	if (!weave)
		return 1;
	if (argc > 1)
		passes = strtoul(argv[1], NULL, 0);
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
	free(weave);
	return 0;
}
