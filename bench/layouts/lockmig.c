// SPDX-License-Identifier: GPL-2.0
/*
 * The lock/reader false sharing of perf test -w lockshare, with threads
 * that migrate: the writer takes the lock and counts switches under it a
 * fixed number of times while the reader reads the fields the lock
 * guards; every 5 ms the two threads swap CPUs, so both CPUs write the
 * lock, but one thread does.  The struct comes from the header named by
 * -DLAYOUT (layout_apply.py).
 *
 *   lockmig [switches]    prints the seconds the writer took
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include LAYOUT

#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

static struct lockshare_rq rq __attribute__((aligned(64)));
static unsigned long switches = 100000000;
static int done;
static unsigned long sink;

static __attribute__((noinline)) void lockmig_switch(struct lockshare_rq *r)
{
	while (__atomic_exchange_n(&r->lock, 1, __ATOMIC_ACQUIRE))
		while (READ_ONCE(r->lock))
			;
	WRITE_ONCE(r->nr_switches, r->nr_switches + 1);
	__atomic_store_n(&r->lock, 0, __ATOMIC_RELEASE);
}

static __attribute__((noinline)) unsigned long lockmig_read(const struct lockshare_rq *r)
{
	unsigned long v;

	v = READ_ONCE(r->nr_running) + READ_ONCE(r->clock);
	v += READ_ONCE(r->load_avg) + READ_ONCE(r->util_avg);
	return v + READ_ONCE(r->flags);
}

static void *writer(void *arg)
{
	for (unsigned long n = 0; n < switches; n++)
		lockmig_switch(arg);
	WRITE_ONCE(done, 1);
	return NULL;
}

static void *reader(void *arg)
{
	unsigned long sum = 0;

	while (!READ_ONCE(done))
		sum += lockmig_read(arg);
	__atomic_fetch_add(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

/* Put thread @th on CPU @cpu alone; a machine of one CPU does not migrate */
static void pin(pthread_t th, int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	pthread_setaffinity_np(th, sizeof(one), &one);
}

int main(int argc, char **argv)
{
	struct timespec start, end, tick = { .tv_nsec = 5000000L };
	pthread_t th[2];
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;

	if (argc > 1)
		switches = strtoul(argv[1], NULL, 0);
	rq.clock = 1;
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (pthread_create(&th[0], NULL, writer, &rq) ||
	    pthread_create(&th[1], NULL, reader, &rq)) {
		perror("pthread_create");
		return 1;
	}
	for (int round = 0; !READ_ONCE(done); round++) {
		pin(th[0], round % ncpus);
		pin(th[1], (round + 1) % ncpus);
		nanosleep(&tick, NULL);
	}
	pthread_join(th[0], NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	pthread_join(th[1], NULL);
	printf("%.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	return sink == 1;
}
