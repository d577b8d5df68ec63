// SPDX-License-Identifier: GPL-2.0
/*
 * Accesses that wait for the instance at their address to be identified:
 * a ring of at most FA_PENDING_MAX, taken out when an instance covering
 * them is found, or failed, oldest first, when the ring is full or the
 * recording ends.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/zalloc.h>
#include "pending.h"
#include "../../map.h"

static struct fa_pending_access *fa_pending__at(struct fa_pending *p, u32 i)
{
	return &p->ring[(p->head + i) % FA_PENDING_MAX];
}

/**
 * fa_pending__push - Let an access wait for its instance
 * @evicted: Filled with the oldest access when the ring was full
 *
 * Return: 1 if @evicted was filled, 0 if not, -ENOMEM.
 */
int fa_pending__push(struct fa_pending *p, const struct fa_access *acc, struct fa_func *func,
		     u32 space, int reason, struct fa_pending_access *evicted)
{
	struct fa_pending_access *pa;
	int full;

	if (p->nr == FA_PENDING_MAX)
		fa_pending__compact(p);
	full = p->nr == FA_PENDING_MAX;
	if (!p->ring) {
		p->ring = calloc(FA_PENDING_MAX, sizeof(*p->ring));
		if (!p->ring)
			return -ENOMEM;
	}
	if (full)
		fa_pending__pop(p, evicted);
	pa = fa_pending__at(p, p->nr++);
	pa->acc = *acc;
	pa->origin = *acc->origin;
	/* the sample's thread is not kept: only its ids are used */
	pa->origin.thread = NULL;
	pa->origin.map = map__get(acc->origin->map);
	pa->acc.origin = &pa->origin;
	pa->func = func;
	pa->space = space;
	pa->reason = reason;
	pa->taken = false;
	return full;
}

/* Take the oldest waiting access out into @out, which then owns its map reference */
bool fa_pending__pop(struct fa_pending *p, struct fa_pending_access *out)
{
	fa_pending__compact(p);
	if (!p->nr)
		return false;
	*out = *fa_pending__at(p, 0);
	out->acc.origin = &out->origin;
	p->head = (p->head + 1) % FA_PENDING_MAX;
	p->nr--;
	return true;
}

/**
 * fa_pending__take - Take out the next waiting access in [@start, @end) of @space
 * @from: Where to look from, 0 at first: updated for the next call
 *
 * Its room is closed by the next fa_pending__compact(), in one pass for
 * all taken: the others keep their order.
 */
bool fa_pending__take(struct fa_pending *p, u32 space, u64 start, u64 end, u32 *from,
		      struct fa_pending_access *out)
{
	for (u32 i = *from; i < p->nr; i++) {
		struct fa_pending_access *pa = fa_pending__at(p, i);

		if (pa->taken || pa->space != space || pa->acc.addr < start ||
		    pa->acc.addr >= end)
			continue;
		*out = *pa;
		out->acc.origin = &out->origin;
		pa->taken = true;
		p->nr_taken++;
		*from = i + 1;
		return true;
	}
	return false;
}

/* Close the room of the accesses taken out, if any: one pass for all */
void fa_pending__compact(struct fa_pending *p)
{
	u32 n = 0;

	if (!p->nr_taken)
		return;
	for (u32 i = 0; i < p->nr; i++) {
		struct fa_pending_access *pa = fa_pending__at(p, i);

		if (pa->taken)
			continue;
		if (n != i) {
			struct fa_pending_access *to = fa_pending__at(p, n);

			*to = *pa;
			to->acc.origin = &to->origin;
		}
		n++;
	}
	p->nr = n;
	p->nr_taken = 0;
}

void fa_pending_access__exit(struct fa_pending_access *pa)
{
	map__zput(pa->origin.map);
}

void fa_pending__exit(struct fa_pending *p)
{
	struct fa_pending_access pa;

	while (fa_pending__pop(p, &pa))
		fa_pending_access__exit(&pa);
	zfree(&p->ring);
	p->head = 0;
}
