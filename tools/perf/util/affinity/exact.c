// SPDX-License-Identifier: GPL-2.0
/* The watchpoint hits of a field and the roles they give (see exact.h). */
#include <stdlib.h>
#include <linux/bitmap.h>
#include <linux/zalloc.h>
#include "classify.h"
#include "exact.h"

struct fa_exact *fa_exact__new(int nr_owners)
{
	struct fa_exact *ex = zalloc(sizeof(*ex));

	if (!ex)
		return NULL;
	ex->owner_accesses = calloc(nr_owners, sizeof(*ex->owner_accesses));
	ex->owner_writes = calloc(nr_owners, sizeof(*ex->owner_writes));
	if (!ex->owner_accesses || !ex->owner_writes) {
		fa_exact__delete(ex);
		return NULL;
	}
	ex->last_owner = -1;
	ex->dirty_owner = -1;
	return ex;
}

void fa_exact__delete(struct fa_exact *ex)
{
	if (!ex)
		return;
	zfree(&ex->owner_accesses);
	zfree(&ex->owner_writes);
	free(ex);
}

/* A hit standing for @period accesses of @owner, a store or not */
void fa_exact__add(struct fa_exact *ex, int owner, bool store, u64 period)
{
	/* the bytes move when another owner wrote them last, or to be written */
	if ((ex->dirty_owner >= 0 && ex->dirty_owner != owner) ||
	    (store && ex->last_owner >= 0 && ex->last_owner != owner))
		ex->transfers++;
	if (ex->dirty_owner != owner)
		ex->dirty_owner = -1;
	if (store) {
		ex->dirty_owner = owner;
		ex->owner_writes[owner] += period;
		ex->writes += period;
	}
	ex->owner_accesses[owner] += period;
	ex->accesses += period;
	ex->last_owner = owner;
	ex->hits++;
	if (period > ex->period)
		ex->period = period;
}

/* Enough hits to say who reads and writes the field, as samples would be */
bool fa_exact__enough(const struct fa_exact *ex)
{
	return ex && ex->hits >= FA_MIN_SAMPLES;
}

/* Its readers and writers: the owners with a share of its accesses (exact.h) */
void fa_exact__roles(const struct fa_exact *ex, int nr_owners, unsigned long *readers,
		     unsigned long *writers)
{
	bitmap_zero(readers, nr_owners);
	bitmap_zero(writers, nr_owners);
	for (int o = 0; o < nr_owners; o++) {
		if (ex->owner_accesses[o] && ex->owner_accesses[o] >= ex->accesses * FA_COLD_SHARE)
			__set_bit(o, readers);
		if (ex->owner_writes[o] && ex->owner_writes[o] >= ex->accesses * FA_WRITE_SHARE)
			__set_bit(o, writers);
	}
}
