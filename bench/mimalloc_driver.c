// SPDX-License-Identifier: GPL-2.0
/*
 * A 2-thread malloc/free driver of mimalloc, for perf affinity's attribution
 * on real optimized code (bench/README.md): each thread allocates blocks of
 * 16-128 bytes, frees half of them itself and hands the other half to the
 * other thread through a ring, so that frees cross threads
 * (mi_free_block_delayed_mt's compare-and-swap on the page's xthread_free).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <mimalloc.h>
#define RING 4096
static void *_Atomic ring[2][RING];
static long iters;
static void *worker(void *arg)
{
	long id = (long)arg;
	void *local[64];
	for (long i = 0; i < iters; i++) {
		for (int k = 0; k < 64; k++)
			local[k] = mi_malloc(16 + (k % 8) * 16);
		for (int k = 0; k < 64; k += 2)
			mi_free(local[k]);
		for (int k = 1; k < 64; k += 2) {
			void *old = atomic_exchange(&ring[id][(i * 32 + k / 2) % RING], local[k]);
			if (old)
				mi_free(old);	/* freed by the thread that did not allocate it */
		}
		/* take the other thread's blocks */
		for (int k = 0; k < 32; k++) {
			void *p = atomic_exchange(&ring[!id][(i * 32 + k) % RING], NULL);
			if (p)
				mi_free(p);
		}
	}
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t t[2];
	iters = argc > 1 ? atol(argv[1]) : 200000;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
