/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread data in the shapes programs written elsewhere give it, for
 * perf affinity: each is false sharing that a program of our own did not
 * show until a user's did.
 *
 * vecsum: per-thread counters in one array, an 8-byte slot a thread, the
 *   main thread's first; the main thread also sums every slot with 16-byte
 *   vector loads.  The fix sets the slots a line apart ('padded').
 *
 * threadstats: a 24-byte struct a thread in a calloc()ed array reached through
 *   a global pointer; 24 does not divide a line, so no index stride of
 *   whole elements is 64 bytes.  The fix aligns the struct to a line
 *   ('padded': a 64-byte aligned struct, allocated so).
 *
 * slotsum: a malloc()ed size_t a thread, each thread increments its own,
 *   the main thread sums them all.  The fix pads the stride to a line
 *   ('padded': index by thread x 8, allocation and sum to match).
 *
 * interleave: a heap int array of many lines behind a global pointer,
 *   allocated on a line, thread t of NR_WEAVE updating every NR_WEAVE-th
 *   element from t: every line written by every thread.  The fix gives
 *   each thread a block of its own ('padded': thread t updates elements
 *   [t * n / NR_WEAVE, ...), whole lines)).
 *
 *   perf test -w vecsum|threadstats|slotsum|interleave [<msecs> [padded]]
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <emmintrin.h>
#include <linux/compiler.h>
#include <linux/zalloc.h>
#include "../tests.h"
#include "pin.h"

#define NR_SHAPE_THREADS	2
#define NR_WEAVE		4
#define NR_WEAVE_INTS		4096
#define LINE			64

static int done;
static unsigned long shape_sink;

static bool shape_padded(int argc, const char **argv)
{
	return argc > 1 && !strcmp(argv[1], "padded");
}

static int shape_msecs(int argc, const char **argv)
{
	return argc > 0 ? atoi(argv[0]) : 1000;
}

/* run fn(i) on threads 1..nr-1 and main(nr) here, then stop them */
static int shape_run(int nr, void *(*fn)(void *), unsigned long (*main_fn)(int), int msecs)
{
	pthread_t th[NR_WEAVE];
	struct timespec t0, t;
	unsigned long sum = 0;
	long i, n = 0;

	WRITE_ONCE(done, 0);
	for (i = 1; i < nr; i++) {
		if (pthread_create(&th[n], NULL, fn, (void *)i) == 0)
			workload__pin(th[n++], i);
	}
	workload__pin(pthread_self(), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sum += main_fn(nr);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < msecs);
	WRITE_ONCE(done, 1);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	/* the main thread's result, written once: not beside 'done' all along */
	WRITE_ONCE(shape_sink, sum);
	return n == nr - 1 ? 0 : -1;
}

/* vecsum */
static unsigned long *nallocs;
static long nallocs_stride;

static noinline void vecsum_count(long thread)
{
	nallocs[thread * nallocs_stride]++;
}

static noinline unsigned long vecsum_total(void)
{
	unsigned long out[2], sum = 0;

	if (nallocs_stride == 1) {
		/* volatile: 16-byte loads, as a vectorized sum makes them */
		__m128i v = _mm_setzero_si128();

		for (int i = 0; i < NR_SHAPE_THREADS; i += 2)
			v = _mm_add_epi64(v, *(volatile __m128i *)&nallocs[i]);
		_mm_storeu_si128((__m128i *)out, v);
		return out[0] + out[1];
	}
	for (int i = 0; i < NR_SHAPE_THREADS; i++)
		sum += READ_ONCE(nallocs[i * nallocs_stride]);
	return sum;
}

static noinline void *vecsum_worker(void *arg)
{
	while (!READ_ONCE(done))
		vecsum_count((long)arg);
	return NULL;
}

static unsigned long vecsum_main(int nr __maybe_unused)
{
	for (int i = 0; i < 64; i++)
		vecsum_count(0);
	return vecsum_total();
}

static int vecsum(int argc, const char **argv)
{
	int msecs = shape_msecs(argc, argv), ret;

	nallocs_stride = shape_padded(argc, argv) ? LINE / sizeof(*nallocs) : 1;
	nallocs = aligned_alloc(LINE, NR_SHAPE_THREADS * nallocs_stride * sizeof(*nallocs));
	if (msecs <= 0 || !nallocs)
		return -1;
	memset(nallocs, 0, NR_SHAPE_THREADS * nallocs_stride * sizeof(*nallocs));
	ret = shape_run(NR_SHAPE_THREADS, vecsum_worker, vecsum_main, msecs);
	zfree(&nallocs);
	return ret;
}

/* threadstats */
struct wstats {
	unsigned long	ops;
	unsigned long	bytes;
	unsigned long	last;
};

struct wstats_padded {
	unsigned long	ops;
	unsigned long	bytes;
	unsigned long	last;
} __aligned(LINE);

static struct wstats *wstats;
static struct wstats_padded *wstats_padded;

static noinline void wstats_account(long thread, unsigned long bytes)
{
	struct wstats *st = &wstats[thread];

	st->ops++;
	st->bytes += bytes;
	st->last = bytes;
}

static noinline void wstats_account_padded(long thread, unsigned long bytes)
{
	struct wstats_padded *st = &wstats_padded[thread];

	st->ops++;
	st->bytes += bytes;
	st->last = bytes;
}

static noinline void *wstats_worker(void *arg)
{
	unsigned long n = 0;

	while (!READ_ONCE(done)) {
		if (wstats)
			wstats_account((long)arg, ++n & 1023);
		else
			wstats_account_padded((long)arg, ++n & 1023);
	}
	return NULL;
}

static unsigned long wstats_main(int nr __maybe_unused)
{
	for (int i = 0; i < 256; i++) {
		if (wstats)
			wstats_account(0, i);
		else
			wstats_account_padded(0, i);
	}
	return 0;
}

static int threadstats(int argc, const char **argv)
{
	int msecs = shape_msecs(argc, argv), ret;

	if (shape_padded(argc, argv)) {
		wstats_padded = aligned_alloc(LINE, NR_SHAPE_THREADS * sizeof(*wstats_padded));
		if (wstats_padded)
			memset(wstats_padded, 0, NR_SHAPE_THREADS * sizeof(*wstats_padded));
	} else {
		wstats = calloc(NR_SHAPE_THREADS, sizeof(*wstats));
	}
	if (msecs <= 0 || (!wstats && !wstats_padded))
		return -1;
	ret = shape_run(NR_SHAPE_THREADS, wstats_worker, wstats_main, msecs);
	zfree(&wstats);
	zfree(&wstats_padded);
	return ret;
}

/* slotsum */
static size_t *counts;
static long counts_stride;

static noinline void slotsum_count(long thread)
{
	counts[thread * counts_stride]++;
}

static noinline void *slotsum_worker(void *arg)
{
	while (!READ_ONCE(done))
		slotsum_count((long)arg);
	return NULL;
}

static unsigned long slotsum_main(int nr)
{
	size_t sum = 0;

	for (int i = 0; i < 64; i++)
		slotsum_count(0);
	for (int i = 0; i < nr; i++)
		sum += READ_ONCE(counts[i * counts_stride]);
	return sum;
}

static int slotsum(int argc, const char **argv)
{
	int msecs = shape_msecs(argc, argv), ret;

	counts_stride = shape_padded(argc, argv) ? LINE / sizeof(*counts) : 1;
	counts = calloc(NR_SHAPE_THREADS * counts_stride, sizeof(*counts));
	if (msecs <= 0 || !counts)
		return -1;
	ret = shape_run(NR_SHAPE_THREADS, slotsum_worker, slotsum_main, msecs);
	zfree(&counts);
	return ret;
}

/* interleave */
static int *weave;
static bool weave_blocks;

static noinline void weave_pass(long thread)
{
	long i, step = NR_WEAVE, from = thread, to = NR_WEAVE_INTS;

	if (weave_blocks) {
		step = 1;
		from = thread * (NR_WEAVE_INTS / NR_WEAVE);
		to = from + NR_WEAVE_INTS / NR_WEAVE;
	}
	for (i = from; i < to; i += step)
		weave[i] += 1;
}

static noinline void *weave_worker(void *arg)
{
	while (!READ_ONCE(done))
		weave_pass((long)arg);
	return NULL;
}

static unsigned long weave_main(int nr __maybe_unused)
{
	weave_pass(0);
	return 0;
}

static int interleave(int argc, const char **argv)
{
	int msecs = shape_msecs(argc, argv), ret;

	weave_blocks = shape_padded(argc, argv);
	/* on a line: the blocks of the fix then share none */
	weave = aligned_alloc(LINE, NR_WEAVE_INTS * sizeof(*weave));
	if (msecs <= 0 || !weave)
		return -1;
	memset(weave, 0, NR_WEAVE_INTS * sizeof(*weave));
	ret = shape_run(NR_WEAVE, weave_worker, weave_main, msecs);
	zfree(&weave);
	return ret;
}

DEFINE_WORKLOAD(vecsum);
DEFINE_WORKLOAD(threadstats);
DEFINE_WORKLOAD(slotsum);
DEFINE_WORKLOAD(interleave);
