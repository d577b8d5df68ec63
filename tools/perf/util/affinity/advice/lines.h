/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cache lines that hold several instances of a type (array slots,
 * neighbouring heap objects) accessed by several owners, one of them
 * writing: what perf c2c shows as a contended line, named by type,
 * instance and field.  Found in the replay sample of the type, so bounded
 * whatever the number of samples.
 */
#ifndef __PERF_AFFINITY_LINES_H
#define __PERF_AFFINITY_LINES_H

#include <linux/types.h>

struct fa_type;

#define FA_SL_INSTS	4	/* instances named per line */
#define FA_SL_OWNERS	4	/* owners named per line */

/**
 * struct fa_shared_line - A real cache line of several instances
 * @addr: Its address
 * @loads: Sampled accesses that do not write
 * @writes: Sampled stores, and accesses by code that stores the field
 * @nr_insts: Instances seen on it (the first FA_SL_INSTS named)
 * @base: Their base addresses
 * @index: Their array indexes, -1 when the instances are not an array's
 * @fields: Fields accessed per instance (bit f for leaf field f < 64)
 * @nr_owners: Owners seen (the first FA_SL_OWNERS named)
 * @owners: Thread IDs, or CPUs (fa_config::by_thread)
 */
struct fa_shared_line {
	u64	addr;
	u64	loads;
	u64	writes;
	int	nr_insts;
	u64	base[FA_SL_INSTS];
	s64	index[FA_SL_INSTS];
	u64	fields[FA_SL_INSTS];
	int	nr_owners;
	u32	owners[FA_SL_OWNERS];
};

int fa_shared_lines__find(const struct fa_type *t, struct fa_shared_line **lines);

#endif /* __PERF_AFFINITY_LINES_H */
