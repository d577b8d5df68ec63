// SPDX-License-Identifier: GPL-2.0
/* Hash maps keyed by a u64 or a DSO location stored in their values. */
#include <errno.h>
#include <stdlib.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/zalloc.h>
#include "key.h"
#include "../../dso.h"
#include "../../hashmap.h"

static size_t u64_key__hash(long key, void *ctx __maybe_unused)
{
	return (size_t)(*(const u64 *)key * 0x9E3779B97F4A7C15ULL >> 16);
}

static bool u64_key__equal(long a, long b, void *ctx __maybe_unused)
{
	return *(const u64 *)a == *(const u64 *)b;
}

#ifdef REFCNT_CHECKING
unsigned long fa_dso__id(const struct dso *dso)
{
	return dso ? (unsigned long)RC_CHK_ACCESS(dso) : 0;
}
#endif

static size_t dso_key__hash(long key, void *ctx __maybe_unused)
{
	const struct fa_dso_key *k = (const struct fa_dso_key *)key;

	return (fa_dso__id(k->dso) >> 4) ^ (size_t)(k->offset * 0x9E3779B97F4A7C15ULL);
}

static bool dso_key__equal(long a, long b, void *ctx __maybe_unused)
{
	const struct fa_dso_key *ka = (const struct fa_dso_key *)a;
	const struct fa_dso_key *kb = (const struct fa_dso_key *)b;

	return fa_dso__id(ka->dso) == fa_dso__id(kb->dso) && ka->offset == kb->offset;
}

static struct hashmap *fa_map__new(hashmap_hash_fn hash, hashmap_equal_fn equal)
{
	struct hashmap *map = hashmap__new(hash, equal, NULL);

	return IS_ERR(map) ? NULL : map;
}

/* A map of values that start with a u64 key; NULL when out of memory */
struct hashmap *fa_u64_map__new(void)
{
	return fa_map__new(u64_key__hash, u64_key__equal);
}

/* A map of values that start with a struct fa_dso_key */
struct hashmap *fa_dso_map__new(void)
{
	return fa_map__new(dso_key__hash, dso_key__equal);
}

/* The value with @key, or a new zeroed one of @size bytes with @key set */
void *fa_u64_map__findnew(struct hashmap *map, u64 key, size_t size)
{
	void *v;

	if (hashmap__find(map, &key, &v))
		return v;
	v = zalloc(size);
	if (!v)
		return NULL;
	*(u64 *)v = key;
	if (hashmap__add(map, v, v)) {
		free(v);
		return NULL;
	}
	return v;
}

#define FA_KEYMAP_MIN	16

static size_t fa_keymap__home(const struct fa_keymap *m, u64 key)
{
	return (size_t)(key * 0x9E3779B97F4A7C15ULL >> 32) & m->mask;
}

int fa_keymap__init(struct fa_keymap *m)
{
	m->nr = 0;
	m->mask = FA_KEYMAP_MIN - 1;
	m->slots = calloc(FA_KEYMAP_MIN, sizeof(*m->slots));
	return m->slots ? 0 : -ENOMEM;
}

/* The slots only: the values are the caller's */
void fa_keymap__exit(struct fa_keymap *m)
{
	zfree(&m->slots);
	m->nr = 0;
}

/* free() every value, then the slots */
void fa_keymap__free_values(struct fa_keymap *m)
{
	struct fa_keymap_slot *slot;

	fa_keymap__for_each(m, slot)
		free(slot->value);
	fa_keymap__exit(m);
}

/* The value of @key that @eq (if any) accepts, or NULL */
void *fa_keymap__find_eq(const struct fa_keymap *m, u64 key, fa_keymap_eq_fn eq, const void *ctx)
{
	for (size_t k = fa_keymap__home(m, key); m->slots[k].value; k = (k + 1) & m->mask) {
		if (m->slots[k].key == key && (!eq || eq(m->slots[k].value, ctx)))
			return m->slots[k].value;
	}
	return NULL;
}

void *fa_keymap__find(const struct fa_keymap *m, u64 key)
{
	return fa_keymap__find_eq(m, key, NULL, NULL);
}

static void fa_keymap__put(struct fa_keymap *m, u64 key, void *value)
{
	size_t k = fa_keymap__home(m, key);

	while (m->slots[k].value)
		k = (k + 1) & m->mask;
	m->slots[k] = (struct fa_keymap_slot){ .key = key, .value = value, };
	m->nr++;
}

/* Twice the slots, or as many, with the values @keep keeps */
static int fa_keymap__rehash(struct fa_keymap *m, size_t slots,
			     bool (*keep)(void *value, void *ctx), void *ctx)
{
	struct fa_keymap_slot *old = m->slots;
	size_t old_slots = m->mask + 1;

	m->slots = calloc(slots, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		return -ENOMEM;
	}
	m->mask = slots - 1;
	m->nr = 0;
	for (size_t k = 0; k < old_slots; k++) {
		if (old[k].value && (!keep || keep(old[k].value, ctx)))
			fa_keymap__put(m, old[k].key, old[k].value);
	}
	free(old);
	return 0;
}

/* Add @value (not NULL) with @key; several values may have the same key */
int fa_keymap__add(struct fa_keymap *m, u64 key, void *value)
{
	/* at most half full: the probes stay short */
	if ((m->nr + 1) * 2 > m->mask + 1 && fa_keymap__rehash(m, 2 * (m->mask + 1), NULL, NULL))
		return -ENOMEM;
	fa_keymap__put(m, key, value);
	return 0;
}

/* The value with @key, or a new zeroed one of @size bytes starting with @key */
void *fa_keymap__findnew(struct fa_keymap *m, u64 key, size_t size)
{
	void *v = fa_keymap__find(m, key);

	if (v)
		return v;
	v = zalloc(size);
	if (!v)
		return NULL;
	*(u64 *)v = key;
	if (fa_keymap__add(m, key, v)) {
		free(v);
		return NULL;
	}
	return v;
}

/*
 * Keep the values @keep says to keep, the caller has the others: one pass
 * that builds the map anew, as linear probing cannot just empty a slot.
 */
int fa_keymap__filter(struct fa_keymap *m, bool (*keep)(void *value, void *ctx), void *ctx)
{
	return fa_keymap__rehash(m, m->mask + 1, keep, ctx);
}

/* free() every value (the keys are in them), then the map; NULL is fine */
void fa_map__free_values(struct hashmap *map)
{
	struct hashmap_entry *cur;
	size_t bkt;

	if (!map)
		return;
	hashmap__for_each_entry(map, cur, bkt)
		free(cur->pvalue);
	hashmap__free(map);
}

/* qsort() and bsearch() order of u64s */
int fa_u64__cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}
