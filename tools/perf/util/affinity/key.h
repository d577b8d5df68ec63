/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hash map keys of perf affinity.  libbpf's hashmap keys are longs, too small
 * for u64 keys on 32-bit, so the key lives at the start of the value and the
 * map hashes through a pointer to it.
 */
#ifndef __PERF_AFFINITY_KEY_H
#define __PERF_AFFINITY_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct dso;
struct hashmap;

/* A location in a DSO: instructions, functions, data symbols */
struct fa_dso_key {
	struct dso	*dso;
	u64		 offset;
};

/*
 * Every sample looks up its instruction, function, window, instance...:
 * a small direct mapped cache of the values last found in front of a map
 * answers most of them with one compare.  The values must outlive it.
 */
#define FA_CACHE_SIZE	64	/* a power of two */

static inline size_t fa_cache__slot(u64 key)
{
	return key * 0x9E3779B97F4A7C15ULL >> 58 & (FA_CACHE_SIZE - 1);
}

/*
 * One DSO however it is referenced: with REFCNT_CHECKING (sanitizer builds)
 * every dso__get() returns another pointer to the same DSO.
 */
unsigned long fa_dso__id(const struct dso *dso);

struct hashmap *fa_u64_map__new(void);
struct hashmap *fa_dso_map__new(void);
void *fa_u64_map__findnew(struct hashmap *map, u64 key, size_t size);
void fa_map__free_values(struct hashmap *map);
int fa_u64__cmp(const void *a, const void *b);

#endif /* __PERF_AFFINITY_KEY_H */
