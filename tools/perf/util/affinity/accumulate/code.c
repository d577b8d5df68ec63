// SPDX-License-Identifier: GPL-2.0
/*
 * What the sampled code says of a struct type (the code context method):
 * the fields each sampled function accesses and stores to, weighed with
 * its samples, and the functions the sampled accesses were made by.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "../fields/fields.h"
#include "../decode/key.h"
#include "type-int.h"
#include "../../hashmap.h"

int fa_code_ctx__init(struct fa_code_ctx *code)
{
	code->sites = fa_u64_map__new();
	if (!code->sites || fa_matrix__init(&code->co))
		return -ENOMEM;
	return 0;
}

void fa_code_ctx__exit(struct fa_code_ctx *code, int nr_fields)
{
	for (int i = 0; code->stats && i < nr_fields; i++) {
		zfree(&code->stats[i].readers);
		zfree(&code->stats[i].writers);
	}
	zfree(&code->stats);
	fa_matrix__exit(&code->co);
	zfree(&code->stores);
	fa_map__free_values(code->sites);
	fa_map__free_values(code->by_func);
}

/* The accumulation ends: the stores are looked up from now on */
void fa_code_ctx__flush(struct fa_code_ctx *code)
{
	/* qsort() and bsearch() of NULL are undefined, even of no elements */
	if (code->nr_stores)
		qsort(code->stores, code->nr_stores, sizeof(*code->stores), fa_u64__cmp);
}

static u64 fa_code_store__key(u32 func, int field)
{
	return (u64)func << 32 | (u32)field;
}

/*
 * Code context: a sampled function accesses @fields of the type, as often
 * as it was sampled (@by_group: by group of the bootstrap): a visit.  Sparse samples seldom catch two accesses of one visit;
 * the code says which lines every call of it touches.
 */
int fa_type__add_code_visit(struct fa_type *t, const int *fields, int nr, const u32 *by_group,
			    double weight)
{
	u16 units[FA_SET_MAX_UNITS];
	int n = 0;

	for (int k = 0; k < nr && n < FA_MAX_WINDOW; k++) {
		u16 unit = t->st->fields[fields[k]].unit;
		int i;

		for (i = 0; i < n && units[i] != unit; i++)
			;
		if (i == n)
			units[n++] = unit;
	}
	if (!n)
		return 0;
	for (int g = 0; g < FA_BOOT_GROUPS; g++) {
		if (!by_group[g])
			continue;
		/* the weight goes with the first group: only the counts are resampled */
		fa_cost_sets__record(&t->sets, t->sets.visits, units, n, 0, g, by_group[g], weight);
		weight = 0;
		t->sets.nr_visits += by_group[g];
		t->sets.visits_by_group.g[g] += by_group[g];
	}
	return 0;
}

/* Code context: function @func stores to @field (each pair once) */
int fa_type__add_code_store(struct fa_type *t, u32 func, int field)
{
	size_t n = t->code.nr_stores;

	if (!(n & (n - 1))) {		/* 0, 1, 2, 4...: full */
		u64 *stores = realloc(t->code.stores, (n ? 2 * n : 1) * sizeof(*stores));

		if (!stores)
			return -ENOMEM;
		t->code.stores = stores;
	}
	t->code.stores[t->code.nr_stores++] = fa_code_store__key(func, field);
	return 0;
}

/*
 * Does the sampled function @func store to @field?  Then its sampled
 * accesses to it stand for read-modify-writes: time based samples land
 * on the load that stalls, seldom on the store after it.
 */
bool fa_type__code_stores(const struct fa_type *t, u32 func, int field)
{
	u64 key = fa_code_store__key(func, field);

	return func && t->code.nr_stores &&
	       bsearch(&key, t->code.stores, t->code.nr_stores, sizeof(key), fa_u64__cmp);
}

/* Code context: @weight on every pair of the fields a piece of code accesses. */
int fa_type__add_code_fields(struct fa_type *t, const int *fields, int nr, double weight)
{
	struct fa_matrix *m = &t->code.co;

	for (int a = 0; a < nr; a++) {
		for (int b = a + 1; b < nr; b++) {
			if (fields[a] != fields[b] &&
			    fa_matrix__add(m, min(fields[a], fields[b]), max(fields[a], fields[b]),
					   weight))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Code context: @field is loaded or stored by code of @weight run on @cpus. */
int fa_type__add_code_access(struct fa_type *t, int field, bool store, double weight,
			     const unsigned long *cpus)
{
	struct fa_code_stats *cs;

	if (!t->code.stats) {
		t->code.stats = calloc(t->st->nr_fields, sizeof(*t->code.stats));
		if (!t->code.stats)
			return -ENOMEM;
	}
	cs = &t->code.stats[field];
	if (!cs->readers) {
		cs->readers = bitmap_zalloc(t->cfg.nr_owners);
		cs->writers = bitmap_zalloc(t->cfg.nr_owners);
		if (!cs->readers || !cs->writers)
			return -ENOMEM;
	}
	cs->weight += weight;
	if (store)
		cs->store_weight += weight;
	bitmap_or(store ? cs->writers : cs->readers, store ? cs->writers : cs->readers, cpus,
		  t->cfg.nr_owners);
	return 0;
}

/* Count an access to @field for the function @sym it was made in */
int fa_type__add_site(struct fa_type *t, int field, const char *sym, u8 op)
{
	u64 key = ((u64)field << 48) ^ (u64)(unsigned long)sym;
	struct fa_site **slot = &t->code.site_cache[fa_cache__slot(key)], *site = *slot;

	if (!site || site->key != key) {
		site = fa_u64_map__findnew(t->code.sites, key, sizeof(*site));
		if (!site)
			return -ENOMEM;
		*slot = site;
	}
	site->field = field;
	site->sym = sym;
	if (op & FA_OP_STORE)
		site->stores++;
	else
		site->loads++;
	return 0;
}

static int fa_site__cmp(const void *a, const void *b)
{
	const struct fa_site *sa = a, *sb = b;
	u64 na = sa->loads + sa->stores, nb = sb->loads + sb->stores;

	return na > nb ? -1 : na < nb;
}

static int fa_site__cmp_sym(const void *a, const void *b)
{
	const struct fa_site *sa = a, *sb = b;

	if (sa->sym != sb->sym)
		return (unsigned long)sa->sym < (unsigned long)sb->sym ? -1 : 1;
	return sa->field - sb->field;
}

/* Pairs of the sites of one function: the accesses each field had there */
static int fa_sites__add_pairs(const struct fa_site *s, int nr, struct fa_matrix *m)
{
	for (int a = 0; a < nr; a++) {
		for (int b = a + 1; b < nr; b++) {
			u64 na = s[a].loads + s[a].stores, nb = s[b].loads + s[b].stores;

			if (fa_matrix__add(m, s[a].field, s[b].field, min(na, nb)))
				return -ENOMEM;
		}
	}
	return 0;
}

/**
 * fa_type__sampled_pairs - Weigh each pair of fields with the sampled
 * accesses both had in the functions that accessed both (the fewer of the
 * two, per function): what the samples say of the pairs the code method
 * weighs alike, the fields of one function
 * @m: Initialized by the caller, i < j
 *
 * Return: 0 or -ENOMEM.
 */
int fa_type__sampled_pairs(const struct fa_type *t, struct fa_matrix *m)
{
	size_t nr = hashmap__size(t->code.sites), i = 0, first = 0;
	struct hashmap_entry *cur;
	struct fa_site *sites;
	size_t bkt;
	int err = 0;

	sites = calloc(nr + 1, sizeof(*sites));
	if (!sites)
		return -ENOMEM;
	hashmap__for_each_entry(t->code.sites, cur, bkt)
		sites[i++] = *(const struct fa_site *)cur->pvalue;
	qsort(sites, nr, sizeof(*sites), fa_site__cmp_sym);
	for (i = 1; i <= nr && !err; i++) {
		if (i < nr && sites[i].sym == sites[first].sym)
			continue;
		err = fa_sites__add_pairs(&sites[first], i - first, m);
		first = i;
	}
	free(sites);
	return err;
}

/* The fields the samples of one function accessed */
struct fa_func_fields {
	u64	key;		/* the function's name, as sampled */
	int	nr;
	int	fields[FA_MAX_WINDOW];
	bool	stored[FA_MAX_WINDOW];
};

/* The sites by function: made once, after the last sample */
static int fa_type__by_func(struct fa_type *t)
{
	struct hashmap_entry *cur;
	size_t bkt;

	t->code.by_func = fa_u64_map__new();
	if (!t->code.by_func)
		return -ENOMEM;
	hashmap__for_each_entry(t->code.sites, cur, bkt) {
		const struct fa_site *site = cur->pvalue;
		struct fa_func_fields *ff;

		ff = fa_u64_map__findnew(t->code.by_func, (u64)(unsigned long)site->sym,
					 sizeof(*ff));
		if (!ff)
			return -ENOMEM;
		if (ff->nr == FA_MAX_WINDOW)
			continue;
		ff->stored[ff->nr] = site->stores;
		ff->fields[ff->nr++] = site->field;
	}
	return 0;
}

/**
 * fa_type__sampled_fields - The fields the sampled accesses of function
 * @sym were to, and which it stored to: a visit of a function whose code
 * says nothing (data-type profiling found no type for its instructions)
 *
 * Return: how many, at most @max, or -ENOMEM.
 */
int fa_type__sampled_fields(struct fa_type *t, const char *sym, int *fields, bool *stored,
			    int max)
{
	u64 key = (u64)(unsigned long)sym;
	struct fa_func_fields *ff;
	int nr;

	if (!t->code.by_func && fa_type__by_func(t))
		return -ENOMEM;
	if (!hashmap__find(t->code.by_func, &key, &ff))
		return 0;
	nr = min(ff->nr, max);
	memcpy(fields, ff->fields, nr * sizeof(*fields));
	memcpy(stored, ff->stored, nr * sizeof(*stored));
	return nr;
}

/**
 * fa_type__sites - The functions accessing @field, most accesses first
 * @sites: Result, a malloc()ed array the caller frees
 *
 * Return: how many, or -ENOMEM.
 */
int fa_type__sites(const struct fa_type *t, int field, struct fa_site **sites)
{
	struct hashmap_entry *cur;
	size_t bkt;
	int n = 0;

	*sites = calloc(hashmap__size(t->code.sites) + 1, sizeof(**sites));
	if (!*sites)
		return -ENOMEM;
	hashmap__for_each_entry(t->code.sites, cur, bkt) {
		const struct fa_site *site = cur->pvalue;

		if (site->field == field)
			(*sites)[n++] = *site;
	}
	qsort(*sites, n, sizeof(**sites), fa_site__cmp);
	return n;
}
