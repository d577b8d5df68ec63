/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hot/cold splitting of a small struct that lives in arrays (Chilimbi et
 * al., PLDI '99; StructSlim, CGO '16): the members nearly every visit
 * touches go to one struct, the rest to another, in two parallel arrays.
 * The struct lives in arrays when FA_SPLIT_IN_ARRAY of the gaps between
 * the instances seen, in address order, are whole struct sizes; a struct
 * that ends in an array of one element (a header of variable length data,
 * as a flexible array member) does not.
 *
 * The instances of a struct no larger than a cache line share lines with
 * their neighbours: a visit brings in, besides the lines it touches, the
 * bytes of its instance, which its neighbours' visits would otherwise
 * bring in.  Split, a visit brings in the hot part, and the cold part too
 * when it touches a cold member, on a line of its own.  The cost is the
 * one a reorder is judged by (edit.h), the cost model's (lines per visit
 * or window, transfers) times the footprint:
 *
 *   cost = model(split) * (size_hot + cold_share * size_cold) / size
 *
 * against the model's cost of the layout otherwise advised, times its size
 * over the size now.  Hot and cold members touched in the same visits cost
 * a line more each than the bytes save.  A split changes the code of every
 * access to a cold member, so it is advised only when its cost,
 * FA_SPLIT_COST more, is still the lowest.  A larger struct gets a reorder
 * instead: a visit then brings in only the lines its members are on.  A
 * struct aligned to a cache line is not split: its instances have a line
 * each so that threads on neighbours do not share one.
 */
#ifndef __PERF_AFFINITY_SPLIT_H
#define __PERF_AFFINITY_SPLIT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

struct fa_cost_model;
struct fa_keep;
struct fa_layout;
struct fa_struct;

#define FA_SPLIT_COST		0.2	/* a split is a larger edit than a reorder */
#define FA_SPLIT_MIN_INST	16	/* instances seen: the struct lives in arrays */
#define FA_SPLIT_IN_ARRAY	0.9	/* of the gaps between instances, whole struct sizes */

enum fa_split_why {
	FA_SPLIT_NOT_CONSIDERED,	/* too few instances, too large, or no cold member */
	FA_SPLIT_ADVISED,
	FA_SPLIT_KEEP,			/* --keep, --keep-order or an embedded base */
	FA_SPLIT_NO_GAIN,		/* not cheaper by FA_SPLIT_COST */
};

/* What a visit costs an array of the struct */
struct fa_split_cost {
	double	 lines;		/* lines per visit (window) */
	double	 bytes;		/* bytes of the array per visit */
	double	 cost;		/* as split.h weighs the two */
};

/**
 * struct fa_split - The best split of a struct, advised or not
 * @why: enum fa_split_why
 * @hot: By unit: in the hot part
 * @hot_size: Of the hot struct
 * @cold_size: Of the cold struct
 * @cold_share: Of the visits (windows), those touching a cold member
 * @now: The cost of the current layout
 * @unsplit: Of the layout advised otherwise
 * @split: Of the split
 */
struct fa_split {
	int			 why;
	bool			*hot;
	int			 nr_hot;
	u32			 hot_size;
	u32			 cold_size;
	double			 cold_share;
	struct fa_split_cost	 now;
	struct fa_split_cost	 unsplit;
	struct fa_split_cost	 split;
};

struct fa_split_in {
	const struct fa_struct		*st;
	const struct fa_layout		*cur;
	const struct fa_layout		*best;	/* advised without a split */
	const struct fa_cost_model	*m;
	const struct fa_keep		*keep;
	u64				 nr_instances;
	const u64			*bases;		/* of instances seen (the replay's) */
	u32				 nr_bases;
};

int fa_split__consider(struct fa_split *s, const struct fa_split_in *in);
void fa_split__exit(struct fa_split *s);
const char *fa_split_why__key(int why);
size_t fa_split__fprintf_c(const struct fa_split *s, const struct fa_struct *st,
			   const struct fa_layout *cur, FILE *fp);

#endif /* __PERF_AFFINITY_SPLIT_H */
