// SPDX-License-Identifier: GPL-2.0
/*
 * The sets of units the cost of any layout is computed from: the units
 * each window touched in one instance, each access and the units other
 * owners wrote before it, the units each sampled function touches.  Each
 * set is kept once, with how often it was seen.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include "../decode/key.h"
#include "type-int.h"
#include "../../hashmap.h"

static size_t fa_set__hash(long key, void *ctx __maybe_unused)
{
	const struct fa_set *set = (const struct fa_set *)key;
	size_t h = set->nr * 131 + set->nr_w;

	for (int i = 0; i < set->nr + set->nr_w; i++)
		h = h * 31 + set->units[i];
	return h;
}

static bool fa_set__equal(long a, long b, void *ctx __maybe_unused)
{
	const struct fa_set *sa = (const struct fa_set *)a, *sb = (const struct fa_set *)b;

	return sa->nr == sb->nr && sa->nr_w == sb->nr_w &&
	       !memcmp(sa->units, sb->units, (sa->nr + sa->nr_w) * sizeof(u16));
}

static struct hashmap *fa_set_map__new(void)
{
	struct hashmap *map = hashmap__new(fa_set__hash, fa_set__equal, NULL);

	return IS_ERR(map) ? NULL : map;
}

int fa_cost_sets__init(struct fa_cost_sets *cs)
{
	cs->windows = fa_set_map__new();
	cs->moves = fa_set_map__new();
	cs->visits = fa_set_map__new();
	return cs->windows && cs->moves && cs->visits ? 0 : -ENOMEM;
}

void fa_cost_sets__exit(struct fa_cost_sets *cs)
{
	fa_map__free_values(cs->windows);
	fa_map__free_values(cs->visits);
	fa_map__free_values(cs->moves);
}

/* Insertion sort: a set has a few units, qsort() costs more than sorting them */
static void fa_units__sort(u16 *units, int nr)
{
	for (int i = 1; i < nr; i++) {
		u16 u = units[i];
		int j;

		for (j = i; j > 0 && units[j - 1] > u; j--)
			units[j] = units[j - 1];
		units[j] = u;
	}
}

/* Count the set of @nr units (and @nr_w written before) in @map, in @group (boot.h) */
void fa_cost_sets__record(struct fa_cost_sets *cs, struct hashmap *map, u16 *units, int nr,
			  int nr_w, int group, double count, double weight)
{
	/* the key on the stack: most sets were seen before, only new ones are allocated */
	u64 buf[DIV_ROUND_UP(sizeof(struct fa_set) + FA_SET_MAX_UNITS * sizeof(u16), sizeof(u64))];
	struct fa_set *key = (struct fa_set *)buf, *set;
	size_t size = sizeof(*key) + (nr + nr_w) * sizeof(u16);

	fa_units__sort(units, nr);
	fa_units__sort(units + nr, nr_w);
	key->nr = nr;
	key->nr_w = nr_w;
	memcpy(key->units, units, (nr + nr_w) * sizeof(u16));
	if (hashmap__find(map, key, &set)) {
		set->count += count;
		set->group[group] += count;
		set->weight += weight;
		return;
	}
	if (hashmap__size(map) >= FA_MAX_SETS) {
		cs->dropped++;
		return;
	}
	set = malloc(size);
	if (!set) {
		cs->dropped++;
		return;
	}
	memcpy(set, key, size);
	memset(set->group, 0, sizeof(set->group));
	set->group[group] = count;
	set->count = count;
	set->weight = weight;
	if (hashmap__add(map, set, set)) {
		cs->dropped++;
		free(set);
	}
}
