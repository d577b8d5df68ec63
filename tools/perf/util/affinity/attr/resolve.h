/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine__resolve() of the samples of a report, cached: a recording's
 * samples come from a few hot instructions of a few threads, and resolving
 * each one again (the thread, its map and symbol, each referenced and put
 * again) was a quarter of the report of 10 M samples.  The cache holds a
 * reference to what it resolved; an event that changes threads or maps
 * must flush it first.
 */
#ifndef __PERF_AFFINITY_RESOLVE_H
#define __PERF_AFFINITY_RESOLVE_H

#include <linux/types.h>
#include "../../addr_location.h"

struct machine;
struct perf_sample;

#define FA_RESOLVE_BITS		8
#define FA_RESOLVE_SLOTS	(1 << FA_RESOLVE_BITS)

struct fa_resolve_slot {
	struct addr_location	 al;
	struct machine		*machine;
	u64			 ip;
	u32			 pid, tid;
	u8			 cpumode;
	bool			 valid;
};

struct fa_resolver {
	struct fa_resolve_slot	*slots;
	u64			 hits;
	u64			 misses;
};

int fa_resolver__init(struct fa_resolver *r);
void fa_resolver__exit(struct fa_resolver *r);
void fa_resolver__flush(struct fa_resolver *r);
struct addr_location *fa_resolver__resolve(struct fa_resolver *r, struct machine *machine,
					   struct perf_sample *sample);

#endif /* __PERF_AFFINITY_RESOLVE_H */
