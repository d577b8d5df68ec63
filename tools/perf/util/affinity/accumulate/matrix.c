// SPDX-License-Identifier: GPL-2.0
/* Sparse field x field weight matrix (see matrix.h). */
#include <errno.h>
#include <stdlib.h>
#include <linux/compiler.h>
#include <linux/zalloc.h>
#include "matrix.h"

#define FA_MATRIX_MIN	64

static size_t fa_cell__slot(const struct fa_matrix *m, u32 i, u32 j)
{
	return (size_t)((((u64)i << 32 | j) * 0x9E3779B97F4A7C15ULL) >> 32) & m->mask;
}

int fa_matrix__init(struct fa_matrix *m)
{
	m->total = 0;
	m->nr = 0;
	m->n = 0;
	m->dense = NULL;
	m->mask = FA_MATRIX_MIN - 1;
	m->cells = calloc(FA_MATRIX_MIN, sizeof(*m->cells));
	return m->cells ? 0 : -ENOMEM;
}

/* A matrix of the @n fields of a type: an array when that is small */
int fa_matrix__init_n(struct fa_matrix *m, u32 n)
{
	if (!n || n > FA_MATRIX_DENSE)
		return fa_matrix__init(m);
	m->total = 0;
	m->nr = 0;
	m->n = n;
	m->cells = NULL;
	m->mask = 0;
	m->dense = calloc((size_t)n * n, sizeof(*m->dense));
	return m->dense ? 0 : -ENOMEM;
}

void fa_matrix__exit(struct fa_matrix *m)
{
	zfree(&m->cells);
	zfree(&m->dense);
	m->nr = 0;
}

/* The slot of (i, j), or the free one where it would go */
static struct fa_cell *fa_matrix__slot(const struct fa_matrix *m, u32 i, u32 j)
{
	size_t k = fa_cell__slot(m, i, j);

	while (m->cells[k].w != 0 && (m->cells[k].i != i || m->cells[k].j != j))
		k = (k + 1) & m->mask;
	return &m->cells[k];
}

/* Twice the slots when half are used */
static int fa_matrix__grow(struct fa_matrix *m)
{
	struct fa_cell *old = m->cells;
	size_t slots = m->mask + 1;

	m->cells = calloc(slots * 2, sizeof(*m->cells));
	if (!m->cells) {
		m->cells = old;
		return -ENOMEM;
	}
	m->mask = slots * 2 - 1;
	for (size_t k = 0; k < slots; k++) {
		if (old[k].w != 0)
			*fa_matrix__slot(m, old[k].i, old[k].j) = old[k];
	}
	free(old);
	return 0;
}

/* fa_matrix__add() of a matrix that is no array */
int fa_matrix__add_sparse(struct fa_matrix *m, u32 i, u32 j, double w)
{
	struct fa_cell *c;

	m->total += w;
	c = fa_matrix__slot(m, i, j);
	if (c->w != 0) {
		c->w += w;
		return 0;
	}
	if ((m->nr + 1) * 2 > m->mask + 1) {
		if (fa_matrix__grow(m))
			return -ENOMEM;
		c = fa_matrix__slot(m, i, j);
	}
	c->i = i;
	c->j = j;
	c->w = w;
	m->nr++;
	return 0;
}

double fa_matrix__get(const struct fa_matrix *m, u32 i, u32 j)
{
	if (m->dense)
		return i < m->n && j < m->n ? m->dense[(size_t)i * m->n + j] : 0;
	return m->cells ? fa_matrix__slot(m, i, j)->w : 0;
}

double fa_matrix__get_sym(const struct fa_matrix *m, u32 i, u32 j)
{
	return fa_matrix__get(m, i, j) + (i != j ? fa_matrix__get(m, j, i) : 0);
}

size_t fa_matrix__nr_cells(const struct fa_matrix *m)
{
	return m->nr;
}

static int fa_cell__cmp_weight(const void *a, const void *b)
{
	const struct fa_cell *ca = a, *cb = b;

	if (ca->w != cb->w)
		return ca->w > cb->w ? -1 : 1;
	if (ca->i != cb->i)
		return ca->i < cb->i ? -1 : 1;
	return ca->j < cb->j ? -1 : ca->j > cb->j;
}

/**
 * fa_matrix__cells - The cells, heaviest first
 * @cells: Result, a malloc()ed array the caller frees
 *
 * Return: the number of cells, or -ENOMEM.
 */
int fa_matrix__cells(const struct fa_matrix *m, struct fa_cell **cells)
{
	size_t n = 0;

	*cells = calloc(m->nr + 1, sizeof(**cells));
	if (!*cells)
		return -ENOMEM;
	for (size_t k = 0; m->cells && k <= m->mask; k++) {
		if (m->cells[k].w != 0)
			(*cells)[n++] = m->cells[k];
	}
	for (size_t k = 0; m->dense && k < (size_t)m->n * m->n; k++) {
		if (m->dense[k] != 0)
			(*cells)[n++] = (struct fa_cell){ k / m->n, k % m->n, m->dense[k], };
	}
	qsort(*cells, n, sizeof(**cells), fa_cell__cmp_weight);
	return n;
}
