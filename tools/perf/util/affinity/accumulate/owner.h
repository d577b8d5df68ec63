/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who holds a copy of a cache line and who writes it: in user space a
 * thread, in the kernel a CPU.  A thread that migrates between CPUs still
 * writes its own lines only; a layout cannot save the moves its
 * migrations cause, and two threads writing one field share it whatever
 * CPUs they ran on.  Threads get small indexes in the order they are
 * seen, so that sets of them are bitmaps as sets of CPUs are.
 */
#ifndef __PERF_AFFINITY_OWNER_H
#define __PERF_AFFINITY_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "../decode/key.h"

struct hashmap;

/* Threads told apart; later ones share the last index (fa_owners::folded) */
#define FA_MAX_THREADS	256

struct fa_owners {
	struct hashmap	*index;		/* rec << 32 | tid -> index */
	u64		 cache[FA_CACHE_SIZE];	/* rec << 32 | tid, most recent */
	u32		 cache_index[FA_CACHE_SIZE];
	u32		 tids[FA_MAX_THREADS];
	u8		 recs[FA_MAX_THREADS];	/* the recording of each thread */
	u32		 nr;
	u64		 folded;	/* threads past FA_MAX_THREADS - 1 */
	bool		 several;	/* of several recordings: tid@recording */
};

int fa_owners__init(struct fa_owners *o);
void fa_owners__exit(struct fa_owners *o);
int fa_owners__index(struct fa_owners *o, u8 rec, u32 tid);
int fa_owners__scnprintf(const struct fa_owners *o, const unsigned long *bits, int nbits,
			 char *buf, size_t size);

#endif /* __PERF_AFFINITY_OWNER_H */
