/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constrained agglomerative clustering of the hot units of a struct:
 * start with every hot unit alone and repeatedly merge the two clusters
 * with the highest average affinity (sum of the pairwise weights over
 * the product of their sizes) while
 *   - the merged cluster still fits in one cache line, and
 *   - no unit of one may not share a line with a unit of the other
 *     (fa_classes__conflict()).
 *
 * Average linkage: a single strong pair does not chain two groups into one
 * (single linkage would), and one weak pair does not keep them apart
 * (complete linkage would).
 */
#ifndef __PERF_AFFINITY_CLUSTER_H
#define __PERF_AFFINITY_CLUSTER_H

#include <linux/types.h>

struct fa_classes;
struct fa_matrix;
struct fa_struct;

struct fa_cluster {
	int	 nr;
	int	*units;
	u32	 size;		/* packed size */
	double	 weight;	/* sum of the units' weights */
	double	 affinity;	/* sum of the weights between its units */
};

struct fa_clusters {
	int			 nr;
	struct fa_cluster	*clusters;	/* hottest first */
	int			*of_unit;	/* cluster of each unit, -1 for cold units */
};

int fa_units__affinity(const struct fa_struct *st, const struct fa_matrix *fields,
		       struct fa_matrix *units);
u32 fa_units__packed_size(const struct fa_struct *st, const int *units, int nr);
int fa_clusters__build(struct fa_clusters *cl, const struct fa_struct *st,
		       const struct fa_classes *c, const struct fa_matrix *affinity,
		       u32 line_size);
void fa_clusters__exit(struct fa_clusters *cl);

#endif /* __PERF_AFFINITY_CLUSTER_H */
