// SPDX-License-Identifier: GPL-2.0
/*
 * The perf c2c talk's program, as in perf test -w roleshare: a lock thread
 * and a reader thread run one function, whose argument picks the role, on
 * a global struct whose lock shares a cache line with the fields the
 * reader reads.  The struct, a typedef as that program declares it, comes
 * from the header named by -DLAYOUT (layout_apply.py).
 *
 *   roles [iterations]    prints the seconds the reader took
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include LAYOUT

#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))

static role_buf buf;
static unsigned long iterations = 100000000;
static int done;

/* One function, both roles */
static __attribute__((noinline)) unsigned long role_loop(role_buf *b, int locker)
{
	unsigned long sum = 0;

	if (locker) {
		while (!READ_ONCE(done)) {
			while (__atomic_exchange_n(&b->lock0, 1, __ATOMIC_ACQUIRE))
				;
			b->held++;
			__atomic_store_n(&b->lock0, 0, __ATOMIC_RELEASE);
		}
		return 0;
	}
	for (unsigned long n = 0; n < iterations; n++)
		sum += READ_ONCE(b->reader1) + READ_ONCE(b->reader2);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	return sum;
}

static void *thread(void *arg)
{
	return (void *)role_loop(&buf, arg != NULL);
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	pthread_t th[2];

	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (pthread_create(&th[0], NULL, thread, (void *)1) ||
	    pthread_create(&th[1], NULL, thread, NULL)) {
		perror("pthread_create");
		return 1;
	}
	pthread_join(th[1], NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	pthread_join(th[0], NULL);
	printf("%.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	return 0;
}
