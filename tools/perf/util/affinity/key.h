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

struct hashmap *fa_u64_map__new(void);
struct hashmap *fa_dso_map__new(void);
void *fa_u64_map__findnew(struct hashmap *map, u64 key, size_t size);
void fa_map__free_values(struct hashmap *map);

#endif /* __PERF_AFFINITY_KEY_H */
