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
#include <internal/rc_check.h>

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
 * every dso__get() returns another pointer to the same DSO.  Without, the
 * pointer is the DSO, and every sample compares a few: no call for that.
 */
#ifdef REFCNT_CHECKING
unsigned long fa_dso__id(const struct dso *dso);
#else
static inline unsigned long fa_dso__id(const struct dso *dso)
{
	return (unsigned long)dso;
}
#endif

/*
 * The maps every sample looks up (instances, windows, unit sets): open
 * addressing, probed linearly, the key beside the value, so that a lookup
 * costs one cache miss instead of libbpf hashmap's entry, key and callback.
 * A NULL value is a free slot.  For keys that are hashes of the values
 * (unit sets), the values are compared too (fa_keymap__find_eq()).
 */
struct fa_keymap_slot {
	u64	 key;
	void	*value;
};

struct fa_keymap {
	struct fa_keymap_slot	*slots;
	size_t			 nr;
	size_t			 mask;	/* slots - 1, a power of two */
};

typedef bool (*fa_keymap_eq_fn)(const void *value, const void *ctx);

/* The first slot in use from @slot on, or NULL */
static inline struct fa_keymap_slot *fa_keymap__next(const struct fa_keymap *m,
						     struct fa_keymap_slot *slot)
{
	for (; m->slots && slot <= m->slots + m->mask; slot++) {
		if (slot->value)
			return slot;
	}
	return NULL;
}

#define fa_keymap__for_each(m, slot)					\
	for ((slot) = fa_keymap__next(m, (m)->slots); (slot);		\
	     (slot) = fa_keymap__next(m, (slot) + 1))

int fa_keymap__init(struct fa_keymap *m);
void fa_keymap__exit(struct fa_keymap *m);
void fa_keymap__free_values(struct fa_keymap *m);
void *fa_keymap__find(const struct fa_keymap *m, u64 key);
void *fa_keymap__find_eq(const struct fa_keymap *m, u64 key, fa_keymap_eq_fn eq, const void *ctx);
int fa_keymap__add(struct fa_keymap *m, u64 key, void *value);
void *fa_keymap__findnew(struct fa_keymap *m, u64 key, size_t size);
int fa_keymap__filter(struct fa_keymap *m, bool (*keep)(void *value, void *ctx), void *ctx);

static inline size_t fa_keymap__size(const struct fa_keymap *m)
{
	return m->nr;
}

struct hashmap *fa_u64_map__new(void);
struct hashmap *fa_dso_map__new(void);
void *fa_u64_map__findnew(struct hashmap *map, u64 key, size_t size);
void fa_map__free_values(struct hashmap *map);
int fa_u64__cmp(const void *a, const void *b);

#endif /* __PERF_AFFINITY_KEY_H */
