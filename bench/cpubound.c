// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU-bound workload with a fixed amount of work: walk an array of
 * structs that fits in L2, read and update fields.  Prints the seconds its
 * work took, so that profiling overhead is measured without perf's own
 * start-up and tear-down.
 *
 *   cpubound [<iterations in millions>]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct item {
	long	key;
	long	count;
	double	weight;
	int	flags;
	int	next;
};

#define NR_ITEMS 4096

static struct item items[NR_ITEMS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long iters = (argc > 1 ? atol(argv[1]) : 1200) * 1000000L;
	double start, sum = 0;
	int i = 0;

	for (int j = 0; j < NR_ITEMS; j++) {
		items[j].key = j;
		items[j].weight = j * 0.5;
		items[j].next = (j * 2654435761u) % NR_ITEMS;
	}
	start = now();
	for (long n = 0; n < iters; n++) {
		struct item *it = &items[i];

		it->count++;
		sum += it->weight * (it->key & 7);
		if (it->flags & 1)
			sum -= 1;
		i = it->next;
	}
	printf("%.6f %g\n", now() - start, sum);
	return 0;
}
