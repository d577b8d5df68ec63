// SPDX-License-Identifier: GPL-2.0
/* Cache lines shared by instances of a type (see lines.h). */
#include <errno.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "../fields/fields.h"
#include "../decode/key.h"
#include "lines.h"
#include "../accumulate/type.h"
#include "../../hashmap.h"

struct fa_sl_entry {
	u64			key;		/* line number */
	struct fa_shared_line	sl;
	u32			inst[FA_SL_INSTS];	/* replay instance indexes */
};

static void fa_sl_entry__add(struct fa_sl_entry *e, const struct fa_type *t,
			     const struct fa_event *ev)
{
	struct fa_shared_line *sl = &e->sl;
	u32 owner = t->cfg.by_thread ? ev->tid : ev->cpu;
	int i;

	if (ev->op & (FA_OP_STORE | FA_EV_CODE_STORE))
		sl->writes++;
	else
		sl->loads++;
	for (i = 0; i < sl->nr_owners && i < FA_SL_OWNERS && sl->owners[i] != owner; i++)
		;
	if (i == sl->nr_owners) {
		if (i < FA_SL_OWNERS)
			sl->owners[i] = owner;
		sl->nr_owners++;
	}
	for (i = 0; i < sl->nr_insts && i < FA_SL_INSTS && e->inst[i] != ev->instance; i++)
		;
	if (i == sl->nr_insts) {
		if (i < FA_SL_INSTS) {
			e->inst[i] = ev->instance;
			sl->base[i] = t->replay.bases[ev->instance];
		}
		sl->nr_insts++;
	}
	if (i < FA_SL_INSTS && ev->field < 64)
		sl->fields[i] |= 1ULL << ev->field;
}

static int fa_shared_line__cmp(const void *a, const void *b)
{
	const struct fa_shared_line *x = a, *y = b;
	u64 nx = x->loads + x->writes, ny = y->loads + y->writes;

	return nx > ny ? -1 : nx < ny;
}

/*
 * Name the instances of a line by their index in an array when all the
 * type's instances are whole struct sizes apart: the slots of one array.
 */
static void fa_shared_lines__index(const struct fa_type *t, struct fa_shared_line *sl, int nr)
{
	u64 first = ~0ULL, size = t->st->size;
	bool array = size > 0;

	for (u32 i = 0; i < t->replay.nr_bases; i++)
		first = min(first, t->replay.bases[i]);
	for (u32 i = 0; array && i < t->replay.nr_bases; i++)
		array = (t->replay.bases[i] - first) % size == 0;
	for (int k = 0; k < nr; k++) {
		for (int i = 0; i < sl[k].nr_insts && i < FA_SL_INSTS; i++)
			sl[k].index[i] = array ? (s64)((sl[k].base[i] - first) / size) : -1;
	}
}

/**
 * fa_shared_lines__find - The lines of several instances, owners and a writer
 * @lines: Set to them, most accessed first (free() it)
 *
 * Return: how many, or -ENOMEM.
 */
int fa_shared_lines__find(const struct fa_type *t, struct fa_shared_line **lines)
{
	const struct fa_replay *rp = &t->replay;
	size_t n = min(rp->nr, rp->max), nr = 0;
	struct hashmap *map = fa_u64_map__new();
	struct fa_sl_entry *cache[FA_CACHE_SIZE] = { NULL, };
	struct hashmap_entry *cur;
	size_t bkt;

	*lines = NULL;
	if (!map)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct fa_event *ev = &rp->events[i];
		u64 line = (rp->bases[ev->instance] + t->st->fields[ev->field].offset) /
			   t->cfg.line_size;
		struct fa_sl_entry **slot = &cache[fa_cache__slot(line)], *e = *slot;

		if (!e || e->key != line) {
			e = fa_u64_map__findnew(map, line, sizeof(*e));
			if (!e) {
				fa_map__free_values(map);
				return -ENOMEM;
			}
			*slot = e;
		}
		fa_sl_entry__add(e, t, ev);
	}
	*lines = calloc(hashmap__size(map) + 1, sizeof(**lines));
	if (!*lines) {
		fa_map__free_values(map);
		return -ENOMEM;
	}
	hashmap__for_each_entry(map, cur, bkt) {
		struct fa_sl_entry *e = cur->pvalue;

		if (e->sl.nr_insts < 2 || e->sl.nr_owners < 2 || !e->sl.writes)
			continue;
		e->sl.addr = e->key * t->cfg.line_size;
		(*lines)[nr++] = e->sl;
	}
	fa_map__free_values(map);
	qsort(*lines, nr, sizeof(**lines), fa_shared_line__cmp);
	fa_shared_lines__index(t, *lines, nr);
	return nr;
}
