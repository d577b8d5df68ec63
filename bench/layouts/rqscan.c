// SPDX-License-Identifier: GPL-2.0
/*
 * A balancer scanning many instances of a large struct, as in perf test -w
 * rqscan: five fields of each instance are read, on five different cache
 * lines as the struct is written.  The struct comes from the header named
 * by -DLAYOUT (layout_apply.py).
 *
 *   rqscan [passes]    prints the seconds the scans took
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include LAYOUT

#define NR_RQS		65536
#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))

static __attribute__((noinline)) unsigned long rq_balance(const struct runq *rq, int nr)
{
	unsigned long busiest = 0;

	for (int i = 0; i < nr; i++, rq++) {
		unsigned long load = READ_ONCE(rq->nr_running) * READ_ONCE(rq->cpu_capacity);

		if (READ_ONCE(rq->curr) != READ_ONCE(rq->idle) && !READ_ONCE(rq->ttwu_pending) &&
		    load > busiest)
			busiest = load;
	}
	return busiest;
}

int main(int argc, char **argv)
{
	struct runq *rqs = calloc(NR_RQS, sizeof(*rqs));
	int passes = argc > 1 ? atoi(argv[1]) : 2000;
	struct timespec start, end;
	unsigned long sum = 0;

	if (!rqs)
		return 1;
	for (int i = 0; i < NR_RQS; i++) {
		rqs[i].nr_running = i % 3;
		rqs[i].cpu_capacity = 1024;
		rqs[i].curr = &rqs[i];
		rqs[i].idle = i % 5 ? NULL : &rqs[i];
		rqs[i].ttwu_pending = !(i % 7);
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int p = 0; p < passes; p++)
		sum += rq_balance(rqs, NR_RQS);
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	free(rqs);
	return sum == 1;
}
