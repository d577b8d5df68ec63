/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine__resolve() of the samples of a report, cached: a recording's
 * samples come from a few hot instructions of a few threads, and resolving
 * each one again (the thread, its map and symbol, each referenced and put
 * again) was a quarter of the report of 10 M samples.  The cache holds a
 * reference to what it resolved; an event that changes threads or maps
 * must flush it first.
 */
#ifndef __PERF_RESOLVE_CACHE_H
#define __PERF_RESOLVE_CACHE_H

#include <linux/types.h>
#include "addr_location.h"

struct machine;
struct perf_sample;

/*
 * Sets of two slots: two hot keys of one index would otherwise evict each
 * other at every sample (one in eight samples of perf bench affinity
 * synth's 32 instructions and threads missed the cache of 256 slots).
 */
#define RESOLVE_CACHE_BITS		8
#define RESOLVE_CACHE_WAYS		2
#define RESOLVE_CACHE_SLOTS	(RESOLVE_CACHE_WAYS << RESOLVE_CACHE_BITS)

struct resolve_cache_slot {
	struct addr_location	 al;
	struct machine		*machine;
	u64			 ip;
	u32			 pid, tid;
	u8			 cpumode;
	bool			 valid;
};

struct resolve_cache {
	struct resolve_cache_slot	*slots;
	u8				*evict;		/* per set: the way to evict next */
	u64			 hits;
	u64			 misses;
};

int resolve_cache__init(struct resolve_cache *r);
void resolve_cache__exit(struct resolve_cache *r);
void resolve_cache__flush(struct resolve_cache *r);
struct addr_location *resolve_cache__resolve(struct resolve_cache *r, struct machine *machine,
					     struct perf_sample *sample);

#endif /* __PERF_RESOLVE_CACHE_H */
