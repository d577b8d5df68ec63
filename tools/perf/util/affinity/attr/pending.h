/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accesses that wait for their instance: an access its instruction could
 * not type ('lock addq $1,(%rdi)' through a long *) is attributed by the
 * address of an instance other accesses identified.  Where a sample lands
 * decides which access identifies it first, so such an access waits, up to
 * FA_PENDING_MAX of them, for an instance to be identified at its address.
 */
#ifndef __PERF_AFFINITY_PENDING_H
#define __PERF_AFFINITY_PENDING_H

#include <linux/types.h>
#include "../decode/access.h"

struct fa_func;

/*
 * Accesses that wait at most: the oldest fails when one more comes.  An
 * AMD timer seldom lands where the instance is identified (after a
 * 'lock addq' through a long *, almost never at the loads of the struct
 * around it): seconds of such samples may come first.
 */
#define FA_PENDING_MAX	8192

/**
 * struct fa_pending_access - An access waiting for its instance
 * @acc: The access, its @origin pointing to @origin
 * @origin: Its sample, holding a reference to its map
 * @func: The sampled function (code context), or NULL
 * @space: Its address space
 * @reason: Why it fails if no instance comes (enum fa_attr_fail)
 * @taken: Taken out, its room not yet closed (fa_pending__compact())
 */
struct fa_pending_access {
	struct fa_access	 acc;
	struct fa_origin	 origin;
	struct fa_func		*func;
	u32			 space;
	int			 reason;
	bool			 taken;
};

/* A ring of the waiting accesses, oldest first */
struct fa_pending {
	struct fa_pending_access	*ring;
	u32				 head;
	u32				 nr;
	u32				 nr_taken;	/* taken, their room not closed */
};

int fa_pending__push(struct fa_pending *p, const struct fa_access *acc, struct fa_func *func,
		     u32 space, int reason, struct fa_pending_access *evicted);
bool fa_pending__take(struct fa_pending *p, u32 space, u64 start, u64 end, u32 *from,
		      struct fa_pending_access *out);
void fa_pending__compact(struct fa_pending *p);
bool fa_pending__pop(struct fa_pending *p, struct fa_pending_access *out);
void fa_pending_access__exit(struct fa_pending_access *pa);
void fa_pending__exit(struct fa_pending *p);

#endif /* __PERF_AFFINITY_PENDING_H */
