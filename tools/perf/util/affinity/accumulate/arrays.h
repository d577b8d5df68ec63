/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Array variables of a scalar type, thread-local or global: an access to
 * head[cls] is to element cls of the array head.  What was seen of each
 * array: the accesses to every element, and the functions that access it,
 * with the register their code indexes it by, for the merge advice
 * (merge.h).
 */
#ifndef __PERF_AFFINITY_ARRAYS_H
#define __PERF_AFFINITY_ARRAYS_H

#include <stdbool.h>
#include <linux/types.h>

struct fa_array_info;

#define FA_ARRAY_FUNCS		8	/* functions remembered per array */
#define FA_ARRAY_COUNTS		4096	/* elements counted one by one, then several per counter */
#define FA_ARRAY_NO_INDEX	(-1)	/* the index register is not known */

/**
 * struct fa_array_func - A function that accesses an array
 * @func: The function's fa_func id
 * @sym: Its name
 * @weight: Its samples: the visits it stands for
 * @accesses: Sampled accesses of it to the array
 * @index: The register its code indexes the array by, FA_ARRAY_NO_INDEX
 */
struct fa_array_func {
	u32		 func;
	const char	*sym;
	u64		 weight;
	u64		 accesses;
	int		 index;
};

/**
 * struct fa_array - An array variable and the accesses to its elements
 * @start: Of element 0: the offset from the thread pointer (thread-local),
 *         or the address (global, in the address space it was first seen in)
 * @counts: Accesses by element, @per_count elements per counter
 */
struct fa_array {
	char			*name;
	char			*elem_type;
	u32			 elem_size;
	u32			 elem_align;
	u32			 nr_elems;
	bool			 tls;
	s64			 start;
	u64			 loads;
	u64			 stores;
	u64			 accesses;
	u64			*counts;
	u32			 nr_counts;
	u32			 per_count;
	int			 nr_funcs;
	struct fa_array_func	 funcs[FA_ARRAY_FUNCS];
};

struct fa_arrays {
	struct fa_array	**arrays;
	int		  nr;
};

struct fa_array *fa_arrays__new(struct fa_arrays *as, struct fa_array_info *ai, bool tls,
				s64 start);
void fa_arrays__exit(struct fa_arrays *as);
void fa_array__access(struct fa_array *arr, u32 index, u8 op);
int fa_array__access_bytes(struct fa_array *arr, u32 off, u16 size, u8 op);
void fa_array__func(struct fa_array *arr, u32 func, const char *sym, u64 weight, int index,
		    bool sampled);
const struct fa_array_func *fa_array__find_func(const struct fa_array *arr, u32 func);
u64 fa_array__count(const struct fa_array *arr, u32 index);
s64 fa_array__line(const struct fa_array *arr, u32 index, u32 line_size);

#endif /* __PERF_AFFINITY_ARRAYS_H */
