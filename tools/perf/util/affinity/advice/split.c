// SPDX-License-Identifier: GPL-2.0
/* Hot/cold splitting of a small struct that lives in arrays (see split.h). */
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "cost.h"
#include "../fields/fields.h"
#include "../decode/key.h"
#include "../layout/keep.h"
#include "../layout/layout.h"
#include "split.h"

static const char * const fa_split_why_keys[] = {
	[FA_SPLIT_NOT_CONSIDERED]	= "not_considered",
	[FA_SPLIT_ADVISED]		= "advised",
	[FA_SPLIT_KEEP]			= "keep",
	[FA_SPLIT_NO_GAIN]		= "no_gain",
};

const char *fa_split_why__key(int why)
{
	return why >= 0 && why < (int)ARRAY_SIZE(fa_split_why_keys) ? fa_split_why_keys[why] : "";
}

/*
 * The units of one part at the offsets a compiler gives them, in the order
 * of the recorded layout: into @off, and its size
 */
static u32 fa_split__part(const struct fa_struct *st, const struct fa_layout *cur,
			  const bool *hot, bool want, u32 *off)
{
	u32 end = 0, align = 1;

	for (int k = 0; k < cur->nr_units; k++) {
		const struct fa_unit *un = &st->units[cur->order[k]];

		if (hot[cur->order[k]] != want)
			continue;
		end = roundup(end, un->align);
		off[cur->order[k]] = end;
		end += un->size;
		align = max(align, un->align);
	}
	return roundup(end, align);
}

/* The model's cost of a visit, times the bytes it brings in against the struct's now */
static double fa_split__cost(const struct fa_cost *c, double bytes, u32 size)
{
	return c->total * bytes / size;
}

/* The split with hot units @hot: its cost, into @s if lower than @s's */
static void fa_split__try(struct fa_split *s, const struct fa_split_in *in, bool *hot)
{
	const struct fa_layout *cur = in->cur;
	int n = cur->nr_units;
	u32 off[n + 1], line_of[n + 1], size[2];
	struct fa_cost c;
	double share, bytes, cost;

	size[0] = fa_split__part(in->st, cur, hot, true, off);
	size[1] = fa_split__part(in->st, cur, hot, false, off);
	/* the cold array is elsewhere: never on a line of the hot one */
	for (int u = 0; u < n; u++)
		line_of[u] = off[u] / cur->line_size + (hot[u] ? 0 : n + 1);
	fa_cost_model__eval_lines(in->m, line_of, &c);
	for (int u = 0; u < n; u++)
		hot[u] = !hot[u];
	share = fa_cost_model__share_any(in->m, hot);
	for (int u = 0; u < n; u++)
		hot[u] = !hot[u];
	bytes = size[0] + share * size[1];
	cost = fa_split__cost(&c, bytes, cur->size);
	if (cost >= s->split.cost)
		return;
	memcpy(s->hot, hot, n * sizeof(*hot));
	s->hot_size = size[0];
	s->cold_size = size[1];
	s->cold_share = share;
	s->split.lines = c.lines_per_window;
	s->split.bytes = bytes;
	s->split.cost = cost;
}

/* FA_SPLIT_IN_ARRAY of the gaps between the instances are whole struct sizes */
static bool fa_split__in_arrays(const struct fa_split_in *in)
{
	u64 *bases = malloc((in->nr_bases + 1) * sizeof(*bases)), gaps = 0, whole = 0;

	if (!bases)
		return false;
	memcpy(bases, in->bases, in->nr_bases * sizeof(*bases));
	qsort(bases, in->nr_bases, sizeof(*bases), fa_u64__cmp);
	for (u32 i = 1; i < in->nr_bases; i++) {
		if (bases[i] == bases[i - 1])
			continue;
		gaps++;
		whole += (bases[i] - bases[i - 1]) % in->st->size == 0;
	}
	free(bases);
	return gaps && whole >= FA_SPLIT_IN_ARRAY * gaps;
}

/* An array of one element or none at the end: the header of variable length data */
static bool fa_struct__trailing_array(const struct fa_struct *st, const struct fa_layout *cur)
{
	const struct fa_field *f = &st->fields[st->units[cur->order[cur->nr_units - 1]].field];

	return f->kind == FA_FIELD_ARRAY && (!strcmp(f->suffix, "[1]") || !strcmp(f->suffix, "[0]"));
}

/*
 * Only a small struct in arrays, whose members can all move; not one its
 * programmer aligned to a cache line: each instance has a line of its own
 * so that threads working on neighbours do not share one (MPMCQueue's
 * slots), which packing the hot parts would undo
 */
static bool fa_split__applies(const struct fa_split_in *in)
{
	const struct fa_struct *st = in->st;

	if (in->nr_instances < FA_SPLIT_MIN_INST || st->size > in->cur->line_size ||
	    st->align >= in->cur->line_size ||
	    !st->size || st->packed || st->nr_units < 2 ||
	    fa_struct__trailing_array(st, in->cur))
		return false;
	for (int u = 0; u < st->nr_units; u++) {
		if (st->units[u].flex)
			return false;
	}
	return fa_split__in_arrays(in);
}

/*
 * The parts split at every share of the visits a unit is touched in: the
 * units touched at least that often are hot
 */
static void fa_split__search(struct fa_split *s, const struct fa_split_in *in, const double *share)
{
	int n = in->cur->nr_units;
	bool hot[n + 1];

	for (int t = 0; t < n; t++) {
		int nr_hot = 0;

		if (share[t] <= 0)
			continue;
		for (int u = 0; u < n; u++) {
			hot[u] = share[u] >= share[t];
			nr_hot += hot[u];
		}
		if (nr_hot < n)
			fa_split__try(s, in, hot);
	}
}

/**
 * fa_split__consider - The best split of a struct and whether to advise it
 * @in: The struct, its layouts and the cost model of its accesses
 */
int fa_split__consider(struct fa_split *s, const struct fa_split_in *in)
{
	int n = in->cur->nr_units;
	u32 size = in->cur->size;
	struct fa_cost c[2];
	double share[n + 1];

	memset(s, 0, sizeof(*s));
	if (!fa_split__applies(in))
		return 0;
	s->hot = calloc(n + 1, sizeof(*s->hot));
	if (!s->hot)
		return -ENOMEM;
	fa_cost_model__eval(in->m, in->cur, &c[0]);
	fa_cost_model__eval(in->m, in->best, &c[1]);
	s->now.lines = c[0].lines_per_window;
	s->unsplit.lines = c[1].lines_per_window;
	s->now.bytes = size;
	s->unsplit.bytes = in->best->size;
	s->now.cost = fa_split__cost(&c[0], s->now.bytes, size);
	s->unsplit.cost = fa_split__cost(&c[1], s->unsplit.bytes, size);
	s->split.cost = DBL_MAX;
	fa_cost_model__shares(in->m, n, share);
	fa_split__search(s, in, share);
	if (s->split.cost == DBL_MAX) {
		zfree(&s->hot);
		return 0;
	}
	for (int u = 0; u < n; u++)
		s->nr_hot += s->hot[u];
	if (s->split.cost * (1 + FA_SPLIT_COST) >= min(s->now.cost, s->unsplit.cost))
		s->why = FA_SPLIT_NO_GAIN;
	else if (in->keep && (in->keep->nr_pins || in->keep->nr_ranges))
		s->why = FA_SPLIT_KEEP;
	else
		s->why = FA_SPLIT_ADVISED;
	return 0;
}

void fa_split__exit(struct fa_split *s)
{
	zfree(&s->hot);
}

/* "struct foo" -> "struct foo_hot"; a typedef name T -> "struct T_hot" */
static size_t fa_split__fprintf_part(const struct fa_split *s, const struct fa_struct *st,
				     const struct fa_layout *cur, bool hot, FILE *fp)
{
	const char *name = fa_struct__bare_name(st);
	size_t printed = fprintf(fp, "struct %s_%s {\n", name, hot ? "hot" : "cold");
	struct fa_layout_walk w;

	fa_layout_walk__init(&w, cur, st);
	while (fa_layout_walk__next(&w)) {
		if (s->hot[w.unit] != hot)
			continue;
		printed += fa_field__fprintf_c(&st->fields[w.field], fp);
		printed += fprintf(fp, ";\n");
	}
	return printed + fprintf(fp, "};\t/* %u bytes */\n", hot ? s->hot_size : s->cold_size);
}

/* The two structs of the split, as C, the members in their recorded order */
size_t fa_split__fprintf_c(const struct fa_split *s, const struct fa_struct *st,
			   const struct fa_layout *cur, FILE *fp)
{
	return fa_split__fprintf_part(s, st, cur, true, fp) +
	       fa_split__fprintf_part(s, st, cur, false, fp);
}
