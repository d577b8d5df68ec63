// SPDX-License-Identifier: GPL-2.0
/* Constrained average linkage clustering of units (see cluster.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "classify.h"
#include "cluster.h"
#include "../fields/fields.h"
#include "../accumulate/matrix.h"

/* Sum the field x field weights per unit pair (u < v). */
int fa_units__affinity(const struct fa_struct *st, const struct fa_matrix *fields,
		       struct fa_matrix *units)
{
	struct fa_cell *cells;
	int n = fa_matrix__cells(fields, &cells);

	if (n < 0)
		return n;
	for (int k = 0; k < n; k++) {
		int u = st->fields[cells[k].i].unit, v = st->fields[cells[k].j].unit;

		if (u != v && fa_matrix__add(units, min(u, v), max(u, v), cells[k].w)) {
			free(cells);
			return -ENOMEM;
		}
	}
	free(cells);
	return 0;
}

static const struct fa_struct *align_st;

static int unit_align_cmp(const void *a, const void *b)
{
	const struct fa_unit *ua = &align_st->units[*(const int *)a];
	const struct fa_unit *ub = &align_st->units[*(const int *)b];

	if (ua->align != ub->align)
		return ua->align > ub->align ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* Size of @units laid out from offset 0, largest alignment first. */
u32 fa_units__packed_size(const struct fa_struct *st, const int *units, int nr)
{
	int sorted[nr ?: 1];
	u32 off = 0;

	memcpy(sorted, units, nr * sizeof(int));
	align_st = st;
	qsort(sorted, nr, sizeof(int), unit_align_cmp);
	for (int i = 0; i < nr; i++) {
		const struct fa_unit *u = &st->units[sorted[i]];

		off = roundup(off, u->align) + u->size;
	}
	return off;
}

struct fa_merge {
	double	avg;
	int	a, b;
	u32	ver_a, ver_b;
};

struct fa_heap {
	struct fa_merge	*m;
	int		 nr, alloc;
};

static int fa_heap__push(struct fa_heap *h, struct fa_merge m)
{
	int i;

	if (h->nr == h->alloc) {
		int alloc = h->alloc ? h->alloc * 2 : 64;
		struct fa_merge *p = realloc(h->m, alloc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->m = p;
		h->alloc = alloc;
	}
	for (i = h->nr++; i > 0 && h->m[(i - 1) / 2].avg < m.avg; i = (i - 1) / 2)
		h->m[i] = h->m[(i - 1) / 2];
	h->m[i] = m;
	return 0;
}

static struct fa_merge fa_heap__pop(struct fa_heap *h)
{
	struct fa_merge top = h->m[0], last = h->m[--h->nr];
	int i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= h->nr)
			break;
		if (c + 1 < h->nr && h->m[c + 1].avg > h->m[c].avg)
			c++;
		if (h->m[c].avg <= last.avg)
			break;
		h->m[i] = h->m[c];
		i = c;
	}
	if (h->nr)
		h->m[i] = last;
	return top;
}

/* Working state: clusters by slot, and their summed weights to other clusters */
struct fa_agglo {
	const struct fa_struct	*st;
	const struct fa_classes	*classes;
	u32			 line_size;
	int			 nr;		/* slots: one per unit */
	struct fa_cluster	*cl;
	u32			*version;
	bool			*alive;
	struct fa_matrix	 links;		/* slot x slot (a < b) summed weights */
	struct fa_heap		 heap;
};

static double fa_agglo__link(struct fa_agglo *g, int a, int b)
{
	return fa_matrix__get(&g->links, min(a, b), max(a, b));
}

static int fa_agglo__push(struct fa_agglo *g, int a, int b)
{
	double w = fa_agglo__link(g, a, b);
	struct fa_merge m = {
		.avg = w / ((double)g->cl[a].nr * g->cl[b].nr),
		.a = a, .b = b, .ver_a = g->version[a], .ver_b = g->version[b],
	};

	return w > 0 ? fa_heap__push(&g->heap, m) : 0;
}

static bool fa_agglo__can_merge(struct fa_agglo *g, int a, int b)
{
	int units[g->cl[a].nr + g->cl[b].nr];

	for (int i = 0; i < g->cl[a].nr; i++) {
		for (int j = 0; j < g->cl[b].nr; j++) {
			if (fa_classes__conflict(g->classes, g->cl[a].units[i], g->cl[b].units[j]))
				return false;
		}
	}
	memcpy(units, g->cl[a].units, g->cl[a].nr * sizeof(int));
	memcpy(units + g->cl[a].nr, g->cl[b].units, g->cl[b].nr * sizeof(int));
	return fa_units__packed_size(g->st, units, g->cl[a].nr + g->cl[b].nr) <= g->line_size;
}

/* Merge b into a; a's links become the sums of both. */
static int fa_agglo__merge(struct fa_agglo *g, int a, int b)
{
	struct fa_cluster *ca = &g->cl[a], *cb = &g->cl[b];
	int *units = realloc(ca->units, (ca->nr + cb->nr) * sizeof(int));

	if (!units)
		return -ENOMEM;
	ca->affinity += cb->affinity + fa_agglo__link(g, a, b);
	memcpy(units + ca->nr, cb->units, cb->nr * sizeof(int));
	ca->units = units;
	ca->nr += cb->nr;
	ca->weight += cb->weight;
	ca->size = fa_units__packed_size(g->st, ca->units, ca->nr);
	zfree(&cb->units);
	cb->nr = 0;
	g->alive[b] = false;
	g->version[a]++;
	for (int k = 0; k < g->nr; k++) {
		double w;

		if (!g->alive[k] || k == a)
			continue;
		w = fa_agglo__link(g, b, k);
		if (w > 0 && fa_matrix__add(&g->links, min(a, k), max(a, k), w))
			return -ENOMEM;
		if (fa_agglo__link(g, a, k) > 0 && fa_agglo__push(g, a, k))
			return -ENOMEM;
	}
	return 0;
}

static int fa_agglo__run(struct fa_agglo *g)
{
	while (g->heap.nr) {
		struct fa_merge m = fa_heap__pop(&g->heap);

		if (!g->alive[m.a] || !g->alive[m.b] || g->version[m.a] != m.ver_a ||
		    g->version[m.b] != m.ver_b)
			continue;	/* stale: a cluster changed since */
		/* clusters only grow: what cannot merge now never will */
		if (!fa_agglo__can_merge(g, m.a, m.b))
			continue;
		if (fa_agglo__merge(g, m.a, m.b))
			return -ENOMEM;
	}
	return 0;
}

static int fa_agglo__init(struct fa_agglo *g, const struct fa_struct *st,
			  const struct fa_classes *c, const struct fa_matrix *affinity,
			  u32 line_size)
{
	struct fa_cell *cells;
	int n;

	memset(g, 0, sizeof(*g));
	g->st = st;
	g->classes = c;
	g->line_size = line_size;
	g->nr = st->nr_units;
	g->cl = calloc(g->nr, sizeof(*g->cl));
	g->version = calloc(g->nr, sizeof(*g->version));
	g->alive = calloc(g->nr, sizeof(*g->alive));
	if (!g->cl || !g->version || !g->alive || fa_matrix__init(&g->links))
		return -ENOMEM;
	for (int u = 0; u < g->nr; u++) {
		if (c->units[u].cls == FA_CLASS_COLD || st->units[u].flex)
			continue;
		g->cl[u].units = malloc(sizeof(int));
		if (!g->cl[u].units)
			return -ENOMEM;
		g->cl[u].units[0] = u;
		g->cl[u].nr = 1;
		g->cl[u].size = st->units[u].size;
		g->cl[u].weight = c->units[u].weight;
		g->alive[u] = true;
	}
	n = fa_matrix__cells(affinity, &cells);
	if (n < 0)
		return n;
	for (int k = 0; k < n; k++) {
		if (!g->alive[cells[k].i] || !g->alive[cells[k].j] ||
		    fa_matrix__add(&g->links, cells[k].i, cells[k].j, cells[k].w))
			continue;
		if (fa_agglo__push(g, cells[k].i, cells[k].j)) {
			free(cells);
			return -ENOMEM;
		}
	}
	free(cells);
	return 0;
}

static void fa_agglo__exit(struct fa_agglo *g)
{
	for (int u = 0; g->cl && u < g->nr; u++)
		free(g->cl[u].units);
	zfree(&g->cl);
	zfree(&g->version);
	zfree(&g->alive);
	zfree(&g->heap.m);
	fa_matrix__exit(&g->links);
}

static int fa_cluster__cmp(const void *a, const void *b)
{
	const struct fa_cluster *ca = a, *cb = b;

	if (ca->weight != cb->weight)
		return ca->weight > cb->weight ? -1 : 1;
	return ca->units[0] - cb->units[0];
}

/**
 * fa_clusters__build - Cluster the hot units of @st by @affinity (unit x unit)
 *
 * Return: 0, with @cl's clusters hottest first; -ENOMEM.
 */
int fa_clusters__build(struct fa_clusters *cl, const struct fa_struct *st,
		       const struct fa_classes *c, const struct fa_matrix *affinity,
		       u32 line_size)
{
	struct fa_agglo g;
	int err;

	memset(cl, 0, sizeof(*cl));
	err = fa_agglo__init(&g, st, c, affinity, line_size);
	if (!err)
		err = fa_agglo__run(&g);
	cl->clusters = calloc(st->nr_units + 1, sizeof(*cl->clusters));
	cl->of_unit = malloc((st->nr_units + 1) * sizeof(int));
	if (err || !cl->clusters || !cl->of_unit) {
		fa_agglo__exit(&g);
		fa_clusters__exit(cl);
		return -ENOMEM;
	}
	for (int u = 0; u < g.nr; u++) {
		if (g.alive[u]) {
			cl->clusters[cl->nr++] = g.cl[u];
			g.cl[u].units = NULL;	/* moved */
		}
	}
	fa_agglo__exit(&g);
	qsort(cl->clusters, cl->nr, sizeof(*cl->clusters), fa_cluster__cmp);
	for (int u = 0; u < st->nr_units; u++)
		cl->of_unit[u] = -1;
	for (int k = 0; k < cl->nr; k++) {
		for (int i = 0; i < cl->clusters[k].nr; i++)
			cl->of_unit[cl->clusters[k].units[i]] = k;
	}
	return 0;
}

void fa_clusters__exit(struct fa_clusters *cl)
{
	for (int k = 0; cl->clusters && k < cl->nr; k++)
		free(cl->clusters[k].units);
	zfree(&cl->clusters);
	zfree(&cl->of_unit);
	cl->nr = 0;
}
