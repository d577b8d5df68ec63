// SPDX-License-Identifier: GPL-2.0
/* The watchpoint hits of a field and the roles they give (see exact.h). */
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/zalloc.h>
#include "classify.h"
#include "exact.h"

static void fa_holder__init(struct fa_holder *h)
{
	*h = (struct fa_holder){ .last_owner = -1, .last_field = -1, .dirty_owner = -1,
				 .dirty_field = -1, };
}

/*
 * An access to @field of the bytes by @owner: the field they moved from,
 * or -1 if they did not move.  They move when another owner wrote them
 * last, or to be written after another owner's access.
 */
static int fa_holder__access(struct fa_holder *h, int owner, int field, bool store)
{
	int from = -1;

	if (h->dirty_owner >= 0 && h->dirty_owner != owner)
		from = h->dirty_field;
	else if (store && h->last_owner >= 0 && h->last_owner != owner)
		from = h->last_field;
	if (h->dirty_owner != owner)
		h->dirty_owner = -1;
	if (store) {
		h->dirty_owner = owner;
		h->dirty_field = field;
	}
	h->last_owner = owner;
	h->last_field = field;
	return from;
}

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
	fa_holder__init(&ex->holder);
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
	/* one field: the field a transfer comes from is that one, 0 */
	if (fa_holder__access(&ex->holder, owner, 0, store) >= 0)
		ex->transfers++;
	if (store) {
		ex->owner_writes[owner] += period;
		ex->writes += period;
	}
	ex->owner_accesses[owner] += period;
	ex->accesses += period;
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
		/* stores are a share of its own accesses, and not a few of all */
		if (ex->owner_writes[o] &&
		    ex->owner_writes[o] >= ex->owner_accesses[o] * FA_WRITE_SHARE &&
		    ex->owner_writes[o] >= ex->accesses * FA_COLD_SHARE)
			__set_bit(o, writers);
	}
}

struct fa_exact_lines *fa_exact_lines__new(int nr_fields)
{
	struct fa_exact_lines *xl = zalloc(sizeof(*xl));

	if (!xl)
		return NULL;
	xl->slot = malloc(nr_fields * sizeof(*xl->slot));
	if (!xl->slot) {
		free(xl);
		return NULL;
	}
	memset(xl->slot, -1, nr_fields * sizeof(*xl->slot));
	return xl;
}

void fa_exact_lines__delete(struct fa_exact_lines *xl)
{
	if (!xl)
		return;
	zfree(&xl->slot);
	free(xl);
}

/* The line at @addr, a new one if there is room, or NULL */
static struct fa_exact_line *fa_exact_lines__find(struct fa_exact_lines *xl, u64 addr)
{
	struct fa_exact_line *l;

	for (int i = 0; i < xl->nr; i++) {
		if (xl->lines[i].addr == addr)
			return &xl->lines[i];
	}
	if (xl->nr == FA_EXACT_LINES)
		return NULL;
	l = &xl->lines[xl->nr++];
	l->addr = addr;
	fa_holder__init(&l->holder);
	return l;
}

/* The row of @field in the pair counts, a new one if there is room, or -1 */
static int fa_exact_lines__slot(struct fa_exact_lines *xl, int field)
{
	if (xl->slot[field] < 0 && xl->nr_slots < FA_EXACT_FIELDS)
		xl->slot[field] = xl->nr_slots++;
	return xl->slot[field];
}

/*
 * A hit of @field by @owner on the line at @line: a transfer as
 * fa_holder__access() says, from the field the last holder accessed.
 * Hits more than FA_EXACT_GAP_NS apart are of different slices armed:
 * what moved the line between them was not seen.
 */
void fa_exact_lines__add(struct fa_exact_lines *xl, u64 line, u64 time, int owner, int field,
			 bool store)
{
	struct fa_exact_line *l = fa_exact_lines__find(xl, line);
	int from;

	fa_exact_lines__slot(xl, field);
	if (!l)
		return;
	if (l->holder.last_owner >= 0 && time > l->time + FA_EXACT_GAP_NS)
		fa_holder__init(&l->holder);
	from = fa_holder__access(&l->holder, owner, field, store);
	if (from >= 0) {
		int i = fa_exact_lines__slot(xl, from), j = fa_exact_lines__slot(xl, field);

		xl->transfers++;
		xl->false_sharing += from != field;
		if (i >= 0 && j >= 0)
			xl->pairs[i][j]++;
	}
	l->time = time;
}

/**
 * fa_exact_lines__top - The pairs of different fields the most transfers
 * went between, most first (ties: by field index)
 * @nr_fields: Of the type
 * @pairs: Room for @max of them
 *
 * Return: how many are in @pairs.
 */
int fa_exact_lines__top(const struct fa_exact_lines *xl, int nr_fields,
			struct fa_exact_pair *pairs, int max)
{
	int n = 0;

	for (int from = 0; xl && from < nr_fields; from++) {
		for (int to = 0; to < nr_fields; to++) {
			struct fa_exact_pair p = { .from = from, .to = to, };
			int k;

			if (from == to || !fa_exact_lines__pair(xl, from, to, &p.transfers) ||
			    !p.transfers)
				continue;
			/* insert, keeping the @max most */
			k = min(n, max - 1);
			for (; k > 0 && pairs[k - 1].transfers < p.transfers; k--)
				pairs[k] = pairs[k - 1];
			if (k < max) {
				pairs[k] = p;
				n = min(n + 1, max);
			}
		}
	}
	return n;
}

/* Whether the hits saw fields @from and @to: then the transfers from one to the other */
bool fa_exact_lines__pair(const struct fa_exact_lines *xl, int from, int to, u64 *transfers)
{
	if (!xl || xl->slot[from] < 0 || xl->slot[to] < 0)
		return false;
	*transfers = xl->pairs[xl->slot[from]][xl->slot[to]];
	return true;
}
