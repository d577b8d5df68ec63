/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory price of a layout: not the bytes the struct grows by, but
 * what that costs where its instances live.  A heap object takes its
 * allocator's size class (a malloc() chunk, a kmalloc cache), so 72 -> 80
 * bytes can cost nothing or a whole class more; a per-CPU variable is
 * paid once a possible CPU; a variable once.
 */
#ifndef __PERF_AFFINITY_MEMORY_H
#define __PERF_AFFINITY_MEMORY_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

struct fa_layout;
struct fa_type_entry;

/* Where the instances of a type live, as far as the recording tells */
enum fa_mem_home {
	FA_MEM_VARS,		/* variables (or TLS) of the type */
	FA_MEM_PER_CPU,		/* the per-CPU copies of a kernel variable */
	FA_MEM_MALLOC,		/* user space heap: glibc malloc() chunks */
	FA_MEM_KMALLOC,		/* kernel heap: kmalloc() size classes */
};

/**
 * struct fa_slab - A kmem_cache's slab of objects of one size (SLUB)
 * @order: Pages 2^order
 * @objects: Objects a slab holds
 * @per_object: Bytes a slab takes per object: its size over @objects
 */
struct fa_slab {
	u32	order;
	u32	objects;
	u64	per_object;
};

/**
 * struct fa_mem_price - What a layout of @then bytes costs over @now
 * @alloc_now: Bytes an instance takes where it lives, as recorded
 * @alloc_then: The same with the new layout
 * @copies: Instances paid for: seen, the per-CPU copies, or the elements
 *          of the array variable they are in (@array_var)
 * @total: (@alloc_then - @alloc_now) x @copies
 * @slab_now, @slab_then: Kernel heap objects in a kmem_cache of their own
 * @crosses: The new size crosses an allocation boundary: another kmalloc
 *           class, or another order of pages for a slab of its own
 */
struct fa_mem_price {
	enum fa_mem_home	 home;
	u32			 size_now;
	u32			 size_then;
	u64			 alloc_now;
	u64			 alloc_then;
	u64			 copies;
	const char		*array_var;
	s64			 total;
	struct fa_slab		 slab_now;
	struct fa_slab		 slab_then;
	bool			 crosses;
};

u64 fa_malloc__chunk(u64 size);
u64 fa_kmalloc__class(u64 size, u32 align);
void fa_slub__slab(struct fa_slab *s, u64 size, u32 align, u32 nr_cpus);
void fa_mem_price__init(struct fa_mem_price *p, const struct fa_type_entry *te,
			const struct fa_layout *now, const struct fa_layout *then);
size_t fa_mem_price__fprintf(const struct fa_mem_price *p, FILE *fp);
const char *fa_mem_home__key(enum fa_mem_home home);
const char *fa_mem_home__text(enum fa_mem_home home);

#endif /* __PERF_AFFINITY_MEMORY_H */
