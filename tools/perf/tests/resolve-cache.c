// SPDX-License-Identifier: GPL-2.0
/*
 * The cache of machine__resolve(): the hot instructions of a few threads
 * are resolved once each, whichever of them share an index of the cache.
 */
#include <inttypes.h>
#include <linux/compiler.h>
#include "debug.h"
#include "machine.h"
#include "resolve-cache.h"
#include "sample.h"
#include "tests.h"
#include "thread.h"

#define NR_THREADS	2
#define NR_IPS		32
#define ROUNDS		100

/*
 * Resolve NR_IPS instructions two bytes apart of each thread, @rounds
 * times (in a cache of 256 single slots, 23 indexes of the 256 are shared
 * by two of these); false if one resolved wrong
 */
static bool resolve_rounds(struct resolve_cache *r, struct machine *machine, int rounds)
{
	for (int round = 0; round < rounds; round++) {
		for (int t = 0; t < NR_THREADS; t++) {
			for (int i = 0; i < NR_IPS; i++) {
				struct perf_sample sample = {
					.ip = 0x401000 + 2 * i, .pid = 4242, .tid = 4242 + t,
					.cpumode = PERF_RECORD_MISC_USER, .cpu = t,
				};
				struct addr_location *al = resolve_cache__resolve(r, machine,
										  &sample);

				if (!al || !al->thread || thread__tid(al->thread) != 4242 + t ||
				    al->cpu != t)
					return false;
			}
		}
	}
	return true;
}

static int test__resolve_cache(struct test_suite *test __maybe_unused,
			       int subtest __maybe_unused)
{
	struct resolve_cache r;
	struct machines machines;
	struct machine *machine;
	int ret = TEST_FAIL;

	machines__init(&machines);
	machine = machines__find(&machines, HOST_KERNEL_ID);
	if (!machine || resolve_cache__init(&r))
		goto out_exit;
	if (!resolve_rounds(&r, machine, ROUNDS)) {
		pr_debug("a sample resolved to the wrong thread or CPU\n");
		goto out_cache;
	}
	pr_debug("%" PRIu64 " hits, %" PRIu64 " misses\n", r.hits, r.misses);
	/* the samples of perf bench affinity synth: one in eight missed */
	if (r.misses != NR_THREADS * NR_IPS ||
	    r.hits != (ROUNDS - 1) * NR_THREADS * NR_IPS) {
		pr_debug("expected every instruction of every thread resolved once\n");
		goto out_cache;
	}
	/* a flush (maps changed) resolves each again, once */
	resolve_cache__flush(&r);
	if (!resolve_rounds(&r, machine, 2) || r.misses != 2 * NR_THREADS * NR_IPS) {
		pr_debug("%" PRIu64 " misses after a flush\n", r.misses);
		goto out_cache;
	}
	ret = TEST_OK;
out_cache:
	resolve_cache__exit(&r);
out_exit:
	machines__exit(&machines);
	return ret;
}

static struct test_case tests__resolve_cache[] = {
	TEST_CASE("Each hot instruction of each thread is resolved once", resolve_cache),
	{	.name = NULL, }
};

struct test_suite suite__resolve_cache = {
	.desc = "machine__resolve() cache",
	.test_cases = tests__resolve_cache,
};
