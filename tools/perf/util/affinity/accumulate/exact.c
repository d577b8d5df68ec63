// SPDX-License-Identifier: GPL-2.0
/* The watchpoint hits of a field, and of a type's watched lines (see exact.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "exact.h"
#include "../decode/key.h"

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

struct fa_exact_lines *fa_exact_lines__new(int nr_fields)
{
	struct fa_exact_lines *xl = zalloc(sizeof(*xl));

	if (!xl)
		return NULL;
	xl->slot = malloc(nr_fields * sizeof(*xl->slot));
	xl->lines = fa_u64_map__new();
	if (!xl->slot || !xl->lines) {
		fa_exact_lines__delete(xl);
		return NULL;
	}
	memset(xl->slot, -1, nr_fields * sizeof(*xl->slot));
	return xl;
}

void fa_exact_lines__delete(struct fa_exact_lines *xl)
{
	if (!xl)
		return;
	fa_map__free_values(xl->lines);
	zfree(&xl->slot);
	zfree(&xl->hits);
	free(xl);
}

/* The watched line of index @line in @lines, or NULL */
struct fa_exact_line *fa_exact_line__find(struct hashmap *lines, u64 line)
{
	struct fa_exact_line *l = fa_u64_map__findnew(lines, line, sizeof(*l));

	if (l && !l->seen) {
		fa_holder__init(&l->holder);
		l->seen = true;
	}
	return l;
}

/*
 * Hit @h on line @l: the field the line moved from, as fa_holder__access()
 * says, or -1.  Hits more than FA_EXACT_GAP_NS apart are of different
 * slices armed: what moved the line between them was not seen.
 */
int fa_exact_line__hit(struct fa_exact_line *l, const struct fa_exact_hit *h)
{
	if (l->holder.last_owner >= 0 && h->time > l->time + FA_EXACT_GAP_NS)
		fa_holder__init(&l->holder);
	l->time = h->time;
	return fa_holder__access(&l->holder, h->owner, h->field, h->store);
}

/* The row of @field in the pair counts, a new one if there is room, or -1 */
static int fa_exact_lines__slot(struct fa_exact_lines *xl, int field)
{
	if (xl->slot[field] < 0 && xl->nr_slots < FA_EXACT_FIELDS)
		xl->slot[field] = xl->nr_slots++;
	return xl->slot[field];
}

/* Keep @h to replay other layouts: the first FA_EXACT_HITS */
static int fa_exact_lines__keep(struct fa_exact_lines *xl, const struct fa_exact_hit *h)
{
	if (xl->nr_hits == FA_EXACT_HITS) {
		xl->hits_left++;
		return 0;
	}
	if (xl->nr_hits == xl->alloc_hits) {
		size_t alloc = xl->alloc_hits ? xl->alloc_hits * 2 : 1024;
		struct fa_exact_hit *hits = realloc(xl->hits, alloc * sizeof(*hits));

		if (!hits)
			return -ENOMEM;
		xl->hits = hits;
		xl->alloc_hits = alloc;
	}
	xl->hits[xl->nr_hits++] = *h;
	return 0;
}

/* Hit @h on the line of index @line: a transfer from the field it moved from */
int fa_exact_lines__add(struct fa_exact_lines *xl, const struct fa_exact_hit *h, u64 line)
{
	struct fa_exact_line *l = fa_exact_line__find(xl->lines, line);
	int from;

	if (!l)
		return -ENOMEM;
	fa_exact_lines__slot(xl, h->field);
	from = fa_exact_line__hit(l, h);
	if (from >= 0) {
		int i = fa_exact_lines__slot(xl, from), j = fa_exact_lines__slot(xl, h->field);

		xl->transfers++;
		xl->false_sharing += from != h->field;
		if (i >= 0 && j >= 0)
			xl->pairs[i][j]++;
	}
	return fa_exact_lines__keep(xl, h);
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
