// SPDX-License-Identifier: GPL-2.0
/* Hash maps keyed by a u64 or a DSO location stored in their values. */
#include <stdlib.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/zalloc.h>
#include "key.h"
#include "../dso.h"
#include "../hashmap.h"

static size_t u64_key__hash(long key, void *ctx __maybe_unused)
{
	return (size_t)(*(const u64 *)key * 0x9E3779B97F4A7C15ULL >> 16);
}

static bool u64_key__equal(long a, long b, void *ctx __maybe_unused)
{
	return *(const u64 *)a == *(const u64 *)b;
}

unsigned long fa_dso__id(const struct dso *dso)
{
	return dso ? (unsigned long)RC_CHK_ACCESS(dso) : 0;
}

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
