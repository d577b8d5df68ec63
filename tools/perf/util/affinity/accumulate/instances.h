/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the instances of the attributed struct types are, by cache line:
 * an access whose instruction gave no type (a pointer derived from the
 * address of a field, an atomic through a helper, code without debug
 * info) is to a field of the instance its address falls in, when other
 * accesses identified that instance.
 */
#ifndef __PERF_AFFINITY_INSTANCES_H
#define __PERF_AFFINITY_INSTANCES_H

#include <linux/types.h>
#include "../decode/key.h"

#define FA_INST_MAP_MAX		(1 << 18)	/* cache lines of instances kept: 16 MB of them */

/**
 * struct fa_inst_map - The instances seen, by the cache lines they span
 * @lines: (address space, line) -> struct fa_inst_line
 * @dropped: Instances not added: the map was full
 * @max_size: The size of the largest instance added
 */
struct fa_inst_map {
	struct fa_keymap	 lines;
	u64		 dropped;
	u32		 max_size;
};

int fa_inst_map__init(struct fa_inst_map *m);
void fa_inst_map__exit(struct fa_inst_map *m);
void fa_inst_map__add(struct fa_inst_map *m, u32 space, u64 base, u32 size, const void *type);
const void *fa_inst_map__find(struct fa_inst_map *m, u32 space, u64 addr, u64 *base);
const void *fa_inst_map__find_outer(struct fa_inst_map *m, u32 space, u64 addr,
				    const void *skip, u64 *base, u32 *size);

#endif /* __PERF_AFFINITY_INSTANCES_H */
