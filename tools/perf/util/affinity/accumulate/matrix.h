/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sparse matrix of weights between fields: only the pairs that were seen
 * take memory.  Ordered (i, j) cells; symmetric users add both ways or use
 * fa_matrix__get_sym().
 *
 * Every access adds to several cells: an open addressing hash table of the
 * cells themselves, probed linearly, keeps that to one cache miss; the
 * matrices of types of up to FA_MATRIX_DENSE fields are plain arrays.
 */
#ifndef __PERF_AFFINITY_MATRIX_H
#define __PERF_AFFINITY_MATRIX_H

#include <errno.h>
#include <stddef.h>
#include <linux/types.h>

struct fa_cell {
	u32	i;
	u32	j;
	double	w;
};

#define FA_MATRIX_DENSE	64

struct fa_matrix {
	struct fa_cell	*cells;		/* w == 0: a free slot */
	double		*dense;		/* or n x n weights */
	u32		 n;
	size_t		 nr;
	size_t		 mask;		/* slots - 1, a power of two */
	double		 total;
};

int fa_matrix__init(struct fa_matrix *m);
int fa_matrix__init_n(struct fa_matrix *m, u32 n);
void fa_matrix__exit(struct fa_matrix *m);
int fa_matrix__add_sparse(struct fa_matrix *m, u32 i, u32 j, double w);

/* Add @w > 0 to cell (@i, @j); inline, as every access adds to several */
static inline int fa_matrix__add(struct fa_matrix *m, u32 i, u32 j, double w)
{
	double *d;

	if (w <= 0)
		return 0;
	if (!m->dense)
		return fa_matrix__add_sparse(m, i, j, w);
	if (i >= m->n || j >= m->n)
		return -EINVAL;
	d = &m->dense[(size_t)i * m->n + j];
	m->total += w;
	m->nr += *d == 0;
	*d += w;
	return 0;
}

double fa_matrix__get(const struct fa_matrix *m, u32 i, u32 j);
double fa_matrix__get_sym(const struct fa_matrix *m, u32 i, u32 j);
size_t fa_matrix__nr_cells(const struct fa_matrix *m);
int fa_matrix__cells(const struct fa_matrix *m, struct fa_cell **cells);

#endif /* __PERF_AFFINITY_MATRIX_H */
