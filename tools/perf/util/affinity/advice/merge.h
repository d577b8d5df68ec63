/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merging parallel arrays into one array of structs (data structure
 * splicing, Ye et al., MEMSYS '19): two arrays of as many elements, whose
 * elements of one index the same code accesses in one visit (head[cls] and
 * count[cls] of an allocator's per-thread cache), take two cache lines a
 * visit where one array of { head, count } takes one.
 *
 * The code says which functions access both at one index: the same index
 * register in both memory operands (thread-local arrays, whose operands
 * name them), or sampled accesses to both by one function.  A visit of
 * such a function touches the lines of both elements; merged, the lines of
 * one element of the new struct.  A visit of a function that touches one
 * array only touches one line either way, but the merged array is larger:
 * each visit is weighed by the bytes per element it brings in, as the
 * footprint of a reorder is (edit.h):
 *
 *   cost = sum over functions of samples * lines per visit * bytes per element
 *
 * A merge is advised when it saves FA_MIN_GAIN of that cost; each array
 * is in at most one merge, the one that saves most.
 */
#ifndef __PERF_AFFINITY_MERGE_H
#define __PERF_AFFINITY_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

struct fa_array;
struct fa_arrays;

#define FA_MERGE_FUNCS		4	/* functions named for a merge */

/**
 * struct fa_merge - Two arrays to merge
 * @arr: The two arrays, the one of the wider alignment first
 * @offset: Of the members in the merged struct
 * @size: Of the merged struct
 * @both: Samples of the functions that access both at one index
 * @one: Samples of the functions that access only one of them
 * @lines_now: Lines per visit of the functions that access both
 * @lines_merged: The same, merged
 * @cost_now: As merge.h weighs it
 * @cost_merged: The same, merged
 * @funcs: The functions that access both, the heaviest first
 */
struct fa_merge {
	const struct fa_array	*arr[2];
	u32			 offset[2];
	u32			 size;
	u64			 both;
	u64			 one[2];
	double			 lines_now;
	double			 lines_merged;
	double			 cost_now;
	double			 cost_merged;
	int			 nr_funcs;
	const char		*funcs[FA_MERGE_FUNCS];
};

int fa_merges__find(const struct fa_arrays *as, u32 line_size, struct fa_merge **merges);
int fa_merge__judge(struct fa_merge *m, const struct fa_array *a, const struct fa_array *b,
		    u32 line_size);
size_t fa_merge__fprintf_c(const struct fa_merge *m, FILE *fp);
int fa_merge__name(const struct fa_merge *m, char *buf, size_t size);

#endif /* __PERF_AFFINITY_MERGE_H */
