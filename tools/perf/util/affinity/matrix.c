// SPDX-License-Identifier: GPL-2.0
/* Sparse field x field weight matrix (see matrix.h). */
#include <errno.h>
#include <stdlib.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/zalloc.h>
#include "matrix.h"
#include "../hashmap.h"

/* The cell is the key: hashmap keys are longs, too small for (i, j) on 32-bit. */
static size_t fa_cell__hash(long key, void *ctx __maybe_unused)
{
	const struct fa_cell *c = (const struct fa_cell *)key;

	return (size_t)(((u64)c->i << 32 | c->j) * 0x9E3779B97F4A7C15ULL >> 16);
}

static bool fa_cell__equal(long a, long b, void *ctx __maybe_unused)
{
	const struct fa_cell *ca = (const struct fa_cell *)a;
	const struct fa_cell *cb = (const struct fa_cell *)b;

	return ca->i == cb->i && ca->j == cb->j;
}

int fa_matrix__init(struct fa_matrix *m)
{
	m->total = 0;
	m->map = hashmap__new(fa_cell__hash, fa_cell__equal, NULL);
	if (IS_ERR(m->map)) {
		int err = PTR_ERR(m->map);

		m->map = NULL;
		return err;
	}
	return 0;
}

void fa_matrix__exit(struct fa_matrix *m)
{
	struct hashmap_entry *cur;
	size_t bkt;

	if (!m->map)
		return;
	hashmap__for_each_entry(m->map, cur, bkt)
		free(cur->pvalue);
	hashmap__free(m->map);
	m->map = NULL;
}

int fa_matrix__add(struct fa_matrix *m, u32 i, u32 j, double w)
{
	struct fa_cell key = { .i = i, .j = j, }, *c;

	m->total += w;
	if (hashmap__find(m->map, &key, &c)) {
		c->w += w;
		return 0;
	}
	c = malloc(sizeof(*c));
	if (!c)
		return -ENOMEM;
	*c = key;
	c->w = w;
	if (hashmap__add(m->map, c, c)) {
		free(c);
		return -ENOMEM;
	}
	return 0;
}

double fa_matrix__get(const struct fa_matrix *m, u32 i, u32 j)
{
	struct fa_cell key = { .i = i, .j = j, }, *c;

	return hashmap__find(m->map, &key, &c) ? c->w : 0;
}

double fa_matrix__get_sym(const struct fa_matrix *m, u32 i, u32 j)
{
	return fa_matrix__get(m, i, j) + (i != j ? fa_matrix__get(m, j, i) : 0);
}

size_t fa_matrix__nr_cells(const struct fa_matrix *m)
{
	return m->map ? hashmap__size(m->map) : 0;
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
	struct hashmap_entry *cur;
	size_t bkt, n = 0;

	*cells = calloc(fa_matrix__nr_cells(m) + 1, sizeof(**cells));
	if (!*cells)
		return -ENOMEM;
	if (m->map) {
		hashmap__for_each_entry(m->map, cur, bkt)
			(*cells)[n++] = *(struct fa_cell *)cur->pvalue;
	}
	qsort(*cells, n, sizeof(**cells), fa_cell__cmp_weight);
	return n;
}
