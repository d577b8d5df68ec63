// SPDX-License-Identifier: GPL-2.0
/*
 * A service's admission counter, incremented atomically by one thread,
 * beside the read-mostly policy another thread evaluates: one instance
 * from the heap, 16 bytes past a cache line as malloc() may return it,
 * unless built with -DALIGNED_ALLOC.  A member move alone leaves the
 * counter on the readers' line in that instance.  The struct comes from
 * the header named by -DLAYOUT.
 *
 *   svc [iterations]    prints the seconds the threads took
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include LAYOUT

#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))

static unsigned long iterations = 100000000;
static volatile int admitting;

static void *admit(void *arg)
{
	struct service *s = arg;

	for (unsigned long n = 0; n < iterations; n++)
		__atomic_fetch_add(&s->admitted, 1, __ATOMIC_RELAXED);
	admitting = 0;
	return NULL;
}

static void *evaluate(void *arg)
{
	struct service *s = arg;
	double sum = 0;

	while (READ_ONCE(admitting))
		sum += READ_ONCE(s->rate) * READ_ONCE(s->limit) + READ_ONCE(s->weight) +
		       READ_ONCE(s->quota);
	return (void *)(long)sum;
}

int main(int argc, char **argv)
{
	char *mem = aligned_alloc(64, 4096);
	struct timespec start, end;
	struct service *s;
	pthread_t a, b;

	if (!mem)
		return 1;
	memset(mem, 0, 4096);
#ifdef ALIGNED_ALLOC
	s = (void *)mem;
#else
	s = (void *)(mem + 16);
#endif
	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	s->limit = 10;
	s->rate = 1.5;
	s->weight = 2;
	s->quota = 3;
	admitting = 1;
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (pthread_create(&b, NULL, evaluate, s) || pthread_create(&a, NULL, admit, s)) {
		perror("pthread_create");
		return 1;
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	free(mem);
	return 0;
}
