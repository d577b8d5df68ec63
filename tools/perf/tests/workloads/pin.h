/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sharing workloads run each thread on a CPU of its own where there
 * are enough: a busy machine may otherwise run them all on one CPU, where
 * no cache line moves and a test sees no sharing.
 */
#ifndef __PERF_TESTS_WORKLOADS_PIN_H
#define __PERF_TESTS_WORKLOADS_PIN_H

#include <pthread.h>
#include <sched.h>

/* The @idx-th CPU, round robin, of those the caller may run on; -1 if one */
static inline int workload__cpu(int idx)
{
	cpu_set_t allowed;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) || CPU_COUNT(&allowed) < 2)
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, &allowed) && n++ == idx % CPU_COUNT(&allowed))
			return cpu;
	}
	return -1;
}

/* Run thread @th on workload__cpu(@idx), from a thread not pinned yet */
static inline void workload__pin(pthread_t th, int idx)
{
	int cpu = workload__cpu(idx);
	cpu_set_t one;

	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	pthread_setaffinity_np(th, sizeof(one), &one);
}

#endif /* __PERF_TESTS_WORKLOADS_PIN_H */
