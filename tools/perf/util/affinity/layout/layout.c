// SPDX-License-Identifier: GPL-2.0
/* The recorded layout of a struct, and the suggested one (see layout.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "classify.h"
#include "cluster.h"
#include "../fields/fields.h"
#include "layout.h"

static int fa_layout__alloc(struct fa_layout *l, int nr_units, u32 line_size)
{
	memset(l, 0, sizeof(*l));
	l->nr_units = nr_units;
	l->line_size = line_size;
	l->offset = calloc(nr_units + 1, sizeof(*l->offset));
	l->order = calloc(nr_units + 1, sizeof(*l->order));
	l->line_start = calloc(nr_units + 1, sizeof(*l->line_start));
	if (!l->offset || !l->order || !l->line_start) {
		fa_layout__exit(l);
		return -ENOMEM;
	}
	return 0;
}

void fa_layout__exit(struct fa_layout *l)
{
	zfree(&l->offset);
	zfree(&l->order);
	zfree(&l->line_start);
}

int fa_layout__copy(struct fa_layout *dst, const struct fa_layout *src)
{
	if (fa_layout__alloc(dst, src->nr_units, src->line_size))
		return -ENOMEM;
	memcpy(dst->offset, src->offset, src->nr_units * sizeof(*src->offset));
	memcpy(dst->order, src->order, src->nr_units * sizeof(*src->order));
	memcpy(dst->line_start, src->line_start, src->nr_units * sizeof(*src->line_start));
	dst->size = src->size;
	dst->align = src->align;
	return 0;
}

static const u32 *sort_offsets;

static int unit_offset_cmp(const void *a, const void *b)
{
	u32 oa = sort_offsets[*(const int *)a], ob = sort_offsets[*(const int *)b];

	if (oa != ob)
		return oa < ob ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static void fa_layout__sort(struct fa_layout *l)
{
	for (int u = 0; u < l->nr_units; u++)
		l->order[u] = u;
	sort_offsets = l->offset;
	qsort(l->order, l->nr_units, sizeof(int), unit_offset_cmp);
}

/* The layout the struct has */
int fa_layout__current(struct fa_layout *l, const struct fa_struct *st, u32 line_size)
{
	if (fa_layout__alloc(l, st->nr_units, line_size))
		return -ENOMEM;
	for (int u = 0; u < st->nr_units; u++)
		l->offset[u] = st->units[u].offset;
	l->size = st->size;
	l->align = st->align;
	fa_layout__sort(l);
	return 0;
}

u32 fa_layout__field_offset(const struct fa_layout *l, const struct fa_struct *st, int field)
{
	const struct fa_field *f = &st->fields[field];

	return l->offset[f->unit] + f->offset - st->units[f->unit].offset;
}

int fa_layout__line(const struct fa_layout *l, const struct fa_struct *st, int field)
{
	return fa_layout__field_offset(l, st, field) / l->line_size;
}

bool fa_layout__same(const struct fa_layout *a, const struct fa_layout *b)
{
	return a->nr_units == b->nr_units &&
	       !memcmp(a->offset, b->offset, a->nr_units * sizeof(*a->offset));
}

static bool fa_layout__same_line(const struct fa_layout *l, int u, int v)
{
	return l->offset[u] / l->line_size == l->offset[v] / l->line_size;
}

/**
 * fa_layout__conflict_apart - Whether two units that conflict (a unit
 * written by one owner, one another accesses: fa_classes__conflict())
 * share a cache line in @a and do not in @b
 */
bool fa_layout__conflict_apart(const struct fa_layout *a, const struct fa_layout *b,
			       const struct fa_classes *c)
{
	for (int k = 0; k < a->nr_units; k++) {
		int u = a->order[k];

		for (int i = k + 1; i < a->nr_units; i++) {
			int v = a->order[i];

			if (!fa_layout__same_line(a, u, v))
				break;
			if (!fa_layout__same_line(b, u, v) && fa_classes__conflict(c, u, v))
				return true;
		}
	}
	return false;
}

void fa_layout_walk__init(struct fa_layout_walk *w, const struct fa_layout *l,
			  const struct fa_struct *st)
{
	memset(w, 0, sizeof(*w));
	w->l = l;
	w->st = st;
	w->field = -1;
	w->bit_unit_offset = -1;
}

/* The unused bits of the bitfield storage unit that ends, if any */
u32 fa_layout_walk__end_bits(struct fa_layout_walk *w)
{
	u32 bits = w->bit_unit_size * 8, unused = bits - min(w->bit_end, bits);

	if (w->bit_unit_offset < 0)
		unused = 0;
	w->bit_unit_offset = -1;
	w->bit_end = 0;
	return unused;
}

/* The next field in offset order: the fields of the units, units by offset */
static bool fa_layout_walk__advance(struct fa_layout_walk *w)
{
	const struct fa_layout *l = w->l;
	const struct fa_struct *st = w->st;

	if (w->field >= 0) {
		const struct fa_unit *unit = &st->units[l->order[w->k]];

		if (w->field + 1 < unit->field + unit->nr_fields) {
			w->field++;
			w->first = false;
			return true;
		}
		w->k++;
	}
	for (; w->k < l->nr_units; w->k++) {
		if (st->units[l->order[w->k]].nr_fields) {
			w->field = st->units[l->order[w->k]].field;
			w->first = true;
			return true;
		}
	}
	return false;
}

/**
 * fa_layout_walk__next - Go to the next member and say the holes before it
 *
 * Return: false after the last member; fa_layout_walk__end_bits() then
 * gives the bit hole at the end, l->size - @end the padding.
 */
bool fa_layout_walk__next(struct fa_layout_walk *w)
{
	const struct fa_field *f;

	if (!fa_layout_walk__advance(w))
		return false;
	f = &w->st->fields[w->field];
	w->unit = w->l->order[w->k];
	w->offset = fa_layout__field_offset(w->l, w->st, w->field);
	w->same_bit_unit = f->kind == FA_FIELD_BITFIELD && w->bit_unit_offset == (int)w->offset &&
			   w->bit_unit_size == f->size;
	w->bit_hole = w->same_bit_unit ? 0 : fa_layout_walk__end_bits(w);
	w->hole = !w->same_bit_unit && w->offset > w->end ? w->offset - w->end : 0;
	w->combined = !w->same_bit_unit && f->kind == FA_FIELD_BITFIELD && w->offset < w->end;
	if (f->kind == FA_FIELD_BITFIELD) {
		w->bit_unit_offset = w->offset;
		w->bit_unit_size = f->size;
		w->bit_end = max(w->bit_end, (u32)f->bit_offset + f->bit_size);
	}
	/* a bitfield's storage unit is taken whole; its unused bits are a bit hole */
	w->end = max(w->end, w->offset + f->size);
	return true;
}

/* A cache line (or a run of them, for units bigger than a line) of units */
struct fa_bin {
	int	*units;
	int	 nr;
	u32	 cap;
};

static bool fa_bin__can_take(const struct fa_bin *b, const struct fa_struct *st,
			     const struct fa_classes *c, const int *units, int nr)
{
	int all[b->nr + nr];

	for (int i = 0; i < b->nr; i++) {
		for (int j = 0; j < nr; j++) {
			if (fa_classes__conflict(c, b->units[i], units[j]))
				return false;
		}
	}
	memcpy(all, b->units, b->nr * sizeof(int));
	memcpy(all + b->nr, units, nr * sizeof(int));
	return fa_units__packed_size(st, all, b->nr + nr) <= b->cap;
}

static int fa_bin__add(struct fa_bin *b, const int *units, int nr)
{
	int *p = realloc(b->units, (b->nr + nr) * sizeof(int));

	if (!p)
		return -ENOMEM;
	memcpy(p + b->nr, units, nr * sizeof(int));
	b->units = p;
	b->nr += nr;
	return 0;
}

struct fa_packer {
	const struct fa_struct	*st;
	const struct fa_classes	*c;
	u32			 line_size;
	struct fa_bin		*bins;
	int			 nr_bins;
	int			*rest;		/* cold units that fit no hole */
	int			 nr_rest;
};

/* First fit: into the first line that has room and no conflict, else a new one. */
static int fa_packer__place(struct fa_packer *p, const int *units, int nr, bool may_open)
{
	struct fa_bin *b;

	for (int i = 0; i < p->nr_bins; i++) {
		if (fa_bin__can_take(&p->bins[i], p->st, p->c, units, nr))
			return fa_bin__add(&p->bins[i], units, nr);
	}
	if (!may_open)
		return 1;
	b = &p->bins[p->nr_bins++];
	b->cap = roundup(max(fa_units__packed_size(p->st, units, nr), 1U), p->line_size);
	return fa_bin__add(b, units, nr);
}

static const struct fa_struct *cold_st;

static int cold_size_cmp(const void *a, const void *b)
{
	u32 sa = cold_st->units[*(const int *)a].size, sb = cold_st->units[*(const int *)b].size;

	if (sa != sb)
		return sa > sb ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Cold units fill holes, largest first; the others go last, in declaration order. */
static int fa_packer__cold(struct fa_packer *p, const struct fa_clusters *cl)
{
	int cold[p->st->nr_units + 1], nr = 0;

	for (int u = 0; u < p->st->nr_units; u++) {
		if (cl->of_unit[u] < 0 && !p->st->units[u].flex)
			cold[nr++] = u;
	}
	cold_st = p->st;
	qsort(cold, nr, sizeof(int), cold_size_cmp);
	for (int i = 0; i < nr; i++) {
		int err = fa_packer__place(p, &cold[i], 1, /*may_open=*/false);

		if (err < 0)
			return err;
		if (err)
			p->rest[p->nr_rest++] = cold[i];
	}
	qsort(p->rest, p->nr_rest, sizeof(int), int_cmp);
	return 0;
}

static const struct fa_struct *bin_st;

static int bin_unit_cmp(const void *a, const void *b)
{
	const struct fa_unit *ua = &bin_st->units[*(const int *)a];
	const struct fa_unit *ub = &bin_st->units[*(const int *)b];

	/* largest alignment first leaves the fewest holes */
	if (ua->align != ub->align)
		return ua->align > ub->align ? -1 : 1;
	return 0;
}

static u32 fa_layout__place(struct fa_layout *l, const struct fa_struct *st, int u, u32 off)
{
	off = roundup(off, st->units[u].align);
	l->offset[u] = off;
	return off + st->units[u].size;
}

/* Offsets: every line of units from a line boundary, then the cold rest. */
static void fa_packer__offsets(struct fa_packer *p, struct fa_layout *l)
{
	const struct fa_struct *st = p->st;
	u32 off = 0, align = st->align;

	for (int i = 0; i < p->nr_bins; i++) {
		struct fa_bin *b = &p->bins[i];
		u32 start = roundup(off, p->line_size);

		bin_st = st;
		/* stable: qsort is not, so sort by alignment within equal runs by hand */
		for (int k = 1; k < b->nr; k++) {
			for (int j = k; j > 0 && bin_unit_cmp(&b->units[j - 1], &b->units[j]) > 0;
			     j--) {
				int tmp = b->units[j];

				b->units[j] = b->units[j - 1];
				b->units[j - 1] = tmp;
			}
		}
		if (i && start != off)
			l->line_start[b->units[0]] = true;
		off = start;
		for (int k = 0; k < b->nr; k++)
			off = fa_layout__place(l, st, b->units[k], off);
	}
	for (int i = 0; i < p->nr_rest; i++)
		off = fa_layout__place(l, st, p->rest[i], off);
	for (int u = 0; u < st->nr_units; u++) {
		align = max(align, st->units[u].align);
		if (st->units[u].flex)
			off = fa_layout__place(l, st, u, off);
	}
	/* the lines only exist where the struct starts on one */
	if (p->nr_bins > 1)
		align = max(align, p->line_size);
	l->align = align;
	l->size = roundup(off, align);
}

/**
 * fa_layout__from_groups - The layout with every group of units in lines of its own
 * @group: The group of every unit, 0 to @nr_groups - 1
 *
 * For evaluating other layouts than the suggested one (benchmarks, exact
 * search): groups in order, units of a group by decreasing alignment.
 */
int fa_layout__from_groups(struct fa_layout *l, const struct fa_struct *st, const int *group,
			   int nr_groups, u32 line_size)
{
	struct fa_packer p = {
		.st = st, .line_size = line_size, .nr_bins = nr_groups,
		.bins = calloc(nr_groups + 1, sizeof(*p.bins)),
	};
	int err = -ENOMEM;

	if (!p.bins || fa_layout__alloc(l, st->nr_units, line_size))
		goto out;
	for (int u = 0; u < st->nr_units; u++) {
		if (group[u] < 0 || group[u] >= nr_groups) {
			err = -EINVAL;
			goto out;
		}
		if (fa_bin__add(&p.bins[group[u]], &u, 1))
			goto out;
	}
	fa_packer__offsets(&p, l);
	fa_layout__sort(l);
	err = 0;
out:
	for (int i = 0; p.bins && i < nr_groups; i++)
		free(p.bins[i].units);
	free(p.bins);
	if (err)
		fa_layout__exit(l);
	return err;
}

/**
 * fa_layout__from_offsets - The layout with the units at @offset (by unit)
 */
int fa_layout__from_offsets(struct fa_layout *l, const struct fa_struct *st, const u32 *offset,
			    u32 line_size)
{
	u32 end = 0;

	if (fa_layout__alloc(l, st->nr_units, line_size))
		return -ENOMEM;
	for (int u = 0; u < st->nr_units; u++) {
		l->offset[u] = offset[u];
		end = max(end, offset[u] + st->units[u].size);
	}
	l->align = st->align;
	l->size = roundup(end, st->align);
	fa_layout__sort(l);
	return 0;
}

/**
 * fa_layout__set_order - Lay the units out in @order, as a compiler would
 * @line_start: By unit, may be NULL: it starts a cache line (an aligned
 *              member), which aligns the struct to the line too
 *
 * Each unit at the next offset its alignment allows, as in the C the
 * report prints for the layout.  @l has room for the units of @st.
 */
void fa_layout__set_order(struct fa_layout *l, const struct fa_struct *st, const int *order,
			  const bool *line_start)
{
	u32 off = 0, align = st->align;

	for (int k = 0; k < st->nr_units; k++) {
		int u = order[k];

		align = max(align, st->units[u].align);
		l->line_start[u] = line_start && line_start[u] && k;
		if (l->line_start[u]) {
			off = roundup(off, l->line_size);
			align = max(align, l->line_size);
		}
		off = fa_layout__place(l, st, u, off);
		l->order[k] = u;
	}
	l->align = align;
	l->size = roundup(off, align);
}

/* A new layout of the units in @order (see fa_layout__set_order()) */
int fa_layout__from_order(struct fa_layout *l, const struct fa_struct *st, const int *order,
			  const bool *line_start, u32 line_size)
{
	if (fa_layout__alloc(l, st->nr_units, line_size))
		return -ENOMEM;
	fa_layout__set_order(l, st, order, line_start);
	return 0;
}

/**
 * fa_layout__suggest - Lay the clusters out in cache lines
 *
 * Hottest clusters first; a cluster goes into the first line that has room
 * and holds no unit it conflicts with, else into a new line; units of a line
 * by decreasing alignment; cold units into the holes, the rest last.  When
 * more than one line is used the struct is aligned to the cache line size.
 */
int fa_layout__suggest(struct fa_layout *l, const struct fa_struct *st,
		       const struct fa_classes *c, const struct fa_clusters *cl, u32 line_size)
{
	struct fa_packer p = {
		.st = st, .c = c, .line_size = line_size,
		.bins = calloc(st->nr_units + 1, sizeof(*p.bins)),
		.rest = calloc(st->nr_units + 1, sizeof(int)),
	};
	int err = -ENOMEM;

	if (!p.bins || !p.rest || fa_layout__alloc(l, st->nr_units, line_size))
		goto out;
	for (int k = 0; k < cl->nr; k++) {
		err = fa_packer__place(&p, cl->clusters[k].units, cl->clusters[k].nr, true);
		if (err)
			goto out;
	}
	err = fa_packer__cold(&p, cl);
	if (err)
		goto out;
	fa_packer__offsets(&p, l);
	fa_layout__sort(l);
out:
	for (int i = 0; p.bins && i < p.nr_bins; i++)
		free(p.bins[i].units);
	free(p.bins);
	free(p.rest);
	if (err)
		fa_layout__exit(l);
	return err;
}
