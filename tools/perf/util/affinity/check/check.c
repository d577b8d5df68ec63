// SPDX-License-Identifier: GPL-2.0
/* A layout checked against a recording of its type's accesses (check.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../advice/analyze.h"
#include "check.h"
#include "../layout/classify.h"
#include "../layout/cluster.h"
#include "../fields/fields.h"
#include "../accumulate/type.h"

static int fa_check__add(struct fa_check *c, const struct fa_check_finding *f)
{
	if (c->nr_findings == c->alloc) {
		int alloc = c->alloc ? 2 * c->alloc : 8;
		void *p = realloc(c->findings, alloc * sizeof(*c->findings));

		if (!p)
			return -ENOMEM;
		c->findings = p;
		c->alloc = alloc;
	}
	c->findings[c->nr_findings] = *f;
	if (!f->line_size)
		c->findings[c->nr_findings].line_size = c->layout.line_size;
	c->nr_findings++;
	c->nr_failed += !f->note && !f->undecided;
	c->nr_undecided += f->undecided;
	return 0;
}

/* Units are matched by the names of their top-level members */
static void fa_check__map(struct fa_check *c)
{
	const struct fa_struct *old = c->t->st, *st = c->st;

	for (int u = 0; u < old->nr_units; u++)
		c->new_unit[u] = -1;
	for (int u = 0; u < st->nr_units; u++)
		c->old_unit[u] = -1;
	for (int j = 0; j < st->nr_fields; j++) {
		const struct fa_field *f = &st->fields[j];

		if (f->depth || f->kind == FA_FIELD_BITGROUP || c->old_unit[f->unit] >= 0)
			continue;
		for (int i = 0; i < old->nr_fields; i++) {
			const struct fa_field *o = &old->fields[i];

			if (o->depth || o->kind == FA_FIELD_BITGROUP || c->new_unit[o->unit] >= 0 ||
			    strcmp(o->name, f->name))
				continue;
			c->new_unit[o->unit] = f->unit;
			c->old_unit[f->unit] = o->unit;
			break;
		}
	}
}

/* The cache lines unit @u of @st is on in @l */
static void fa_unit__lines(const struct fa_layout *l, const struct fa_struct *st, int u,
			   u32 *first, u32 *last)
{
	u32 size = max(st->units[u].size, 1U);

	*first = l->offset[u] / l->line_size;
	*last = (l->offset[u] + size - 1) / l->line_size;
}

/* Mark the lines unit @u is on in @lines (of @nr_lines): how many were not yet */
static int fa_unit__mark_lines(const struct fa_layout *l, const struct fa_struct *st, int u,
			       bool *lines, u32 nr_lines)
{
	u32 first, last;
	int n = 0;

	fa_unit__lines(l, st, u, &first, &last);
	for (u32 line = first; line <= last && line < nr_lines; line++) {
		n += !lines[line];
		lines[line] = true;
	}
	return n;
}

/* Units @u and @v of @st share a cache line in @l */
static bool fa_layout__together(const struct fa_layout *l, const struct fa_struct *st, int u,
				int v)
{
	u32 uf, ul, vf, vl;

	fa_unit__lines(l, st, u, &uf, &ul);
	fa_unit__lines(l, st, v, &vf, &vl);
	return uf <= vl && vf <= ul;
}

bool fa_check__hot(const struct fa_check *c, int unit)
{
	int o = c->old_unit[unit];

	return o >= 0 && c->an->seen.classes.units[o].cls != FA_CLASS_COLD;
}

int fa_check__line_of(const struct fa_check *c, int unit)
{
	return c->layout.offset[unit] / c->layout.line_size;
}

/* A unit written on one CPU on a line with one accessed on another */
static int fa_check__shared_pair(struct fa_check *c, int a, int b)
{
	const struct fa_analysis *an = c->an;
	const struct fa_struct *old = c->t->st;
	int oa = c->old_unit[a], ob = c->old_unit[b];
	struct fa_check_finding f = { .kind = FA_CHECK_SHARED, };

	if (oa < 0 || ob < 0 || !fa_classes__conflict(&an->seen.classes, oa, ob))
		return 0;
	if (fa_layout__together(&an->advice.suggested, old, oa, ob)) {
		if (!an->candidate.insufficient ||
		    fa_layout__together(&an->candidate.layout, old, oa, ob))
			return 0;
		f.undecided = true;
	}
	f.unit = an->seen.classes.units[oa].writer ? a : b;
	f.other = f.unit == a ? b : a;
	f.line = max(fa_check__line_of(c, a), fa_check__line_of(c, b));
	f.as_recorded = fa_layout__together(&an->seen.current, old, oa, ob);
	return fa_check__add(c, &f);
}

/* By the written unit, then the other: a unit's pairs are said together */
static int fa_check_finding__cmp(const void *a, const void *b)
{
	const struct fa_check_finding *fa = a, *fb = b;

	if (fa->unit != fb->unit)
		return fa->unit - fb->unit;
	return fa->other - fb->other;
}

static int fa_check__shared(struct fa_check *c)
{
	const struct fa_layout *l = &c->layout;
	int err = 0;

	for (int i = 0; i < l->nr_units; i++) {
		int a = l->order[i];
		u32 first, last;

		fa_unit__lines(l, c->st, a, &first, &last);
		for (int k = i + 1; !err && k < l->nr_units; k++) {
			int b = l->order[k];

			if (l->offset[b] / l->line_size > last)
				break;
			err = fa_check__shared_pair(c, a, b);
		}
	}
	/* the first findings: nothing before them */
	if (c->nr_findings > 1)
		qsort(c->findings, c->nr_findings, sizeof(*c->findings), fa_check_finding__cmp);
	return err;
}

/*
 * The lines the units of a cluster (recorded units) are on in @l, of @st:
 * the recorded struct, or with @map the new one.  A C++ class held by value
 * counts by its first line: its own check judges its lines.
 */
static int fa_cluster__lines(const struct fa_cluster *k, const struct fa_layout *l,
			     const struct fa_struct *st, const int *map, bool *seen,
			     u32 *first_line)
{
	u32 nr_lines = DIV_ROUND_UP(l->size, l->line_size) + 1;
	int n = 0;

	memset(seen, 0, nr_lines * sizeof(*seen));
	*first_line = UINT_MAX;
	for (int i = 0; i < k->nr; i++) {
		int u = map ? map[k->units[i]] : k->units[i];

		if (u < 0)
			continue;
		*first_line = min(*first_line, l->offset[u] / l->line_size);
		if (st->fields[st->units[u].field].type_die) {
			n += !seen[l->offset[u] / l->line_size];
			seen[l->offset[u] / l->line_size] = true;
			continue;
		}
		n += fa_unit__mark_lines(l, st, u, seen, nr_lines);
	}
	return n;
}

/* @l at cache lines of @line_size: the offsets stay, the lines are others */
static struct fa_layout fa_layout__at(const struct fa_layout *l, u32 line_size)
{
	struct fa_layout at = *l;

	at.line_size = line_size;
	return at;
}

/* The clusters on more lines of @line_size than recorded and advised */
static int fa_check__spread(struct fa_check *c, u32 line_size)
{
	const struct fa_analysis *an = c->an;
	const struct fa_struct *old = c->t->st;
	struct fa_layout cur = fa_layout__at(&an->seen.current, line_size);
	struct fa_layout adv = fa_layout__at(&an->advice.suggested, line_size);
	struct fa_layout cand = fa_layout__at(&an->candidate.layout, line_size);
	struct fa_layout now = fa_layout__at(&c->layout, line_size);
	u32 recorded = max(an->seen.current.size, an->advice.suggested.size);
	u32 now_or_cand = max(an->candidate.insufficient ? an->candidate.layout.size : 0,
			      c->layout.size);
	bool *seen = calloc(max(recorded, now_or_cand) / line_size + 2, sizeof(*seen));
	int *units = calloc(old->nr_units + 1, sizeof(*units));
	int err = seen && units ? 0 : -ENOMEM;

	for (int k = 0; !err && k < an->advice.clusters.nr; k++) {
		const struct fa_cluster *cl = &an->advice.clusters.clusters[k];
		/* the units still there, in all three layouts */
		struct fa_cluster left = { .units = units, };
		struct fa_check_finding f = {
			.kind = FA_CHECK_SPREAD, .other = k, .line_size = line_size,
		};
		int rec, adv_lines, now_lines;
		u32 line;

		for (int i = 0; i < cl->nr; i++) {
			if (c->new_unit[cl->units[i]] >= 0)
				units[left.nr++] = cl->units[i];
		}
		rec = fa_cluster__lines(&left, &cur, old, NULL, seen, &line);
		adv_lines = fa_cluster__lines(&left, &adv, old, NULL, seen, &line);
		now_lines = fa_cluster__lines(&left, &now, c->st, c->new_unit, seen, &f.line);
		f.lines_allowed = max(rec, adv_lines);
		f.lines_now = now_lines;
		/* only a candidate the evidence is insufficient for has them on fewer */
		if (now_lines <= f.lines_allowed && an->candidate.insufficient) {
			f.lines_allowed = fa_cluster__lines(&left, &cand, old, NULL, seen, &line);
			f.undecided = true;
		}
		if (now_lines > f.lines_allowed)
			err = fa_check__add(c, &f);
	}
	free(units);
	free(seen);
	return err;
}

/* Unit @u of @st shares a line of @l with a unit of cluster @k (@map: by old unit) */
static bool fa_cluster__meets(const struct fa_cluster *k, const struct fa_layout *l,
			      const struct fa_struct *st, const int *map, int u)
{
	for (int i = 0; i < k->nr; i++) {
		int v = map ? map[k->units[i]] : k->units[i];

		if (v >= 0 && v != u && fa_layout__together(l, st, u, v))
			return true;
	}
	return false;
}

/* Unit @o (recorded) writes what cluster @k's units access, or the other way */
static bool fa_cluster__conflicts(const struct fa_cluster *k, const struct fa_classes *cls,
				  int o)
{
	for (int i = 0; i < k->nr; i++) {
		if (fa_classes__conflict(cls, o, k->units[i]))
			return true;
	}
	return false;
}

/* Hot unit @u (now) on a line of @line_size of cluster @k, where it was not */
static int fa_check__entered(struct fa_check *c, int k, int u, u32 line_size)
{
	const struct fa_analysis *an = c->an;
	const struct fa_cluster *cl = &an->advice.clusters.clusters[k];
	struct fa_layout cur = fa_layout__at(&an->seen.current, line_size);
	struct fa_layout adv = fa_layout__at(&an->advice.suggested, line_size);
	struct fa_layout now = fa_layout__at(&c->layout, line_size);
	int o = c->old_unit[u];
	struct fa_check_finding f = {
		.kind = FA_CHECK_GROUP, .unit = u, .other = k, .line_size = line_size,
		.line = c->layout.offset[u] / line_size,
	};

	if (!fa_cluster__meets(cl, &now, c->st, c->new_unit, u) ||
	    fa_cluster__meets(cl, &cur, c->t->st, NULL, o) ||
	    fa_cluster__meets(cl, &adv, c->t->st, NULL, o))
		return 0;
	f.note = !fa_cluster__conflicts(cl, &an->seen.classes, o);
	return fa_check__add(c, &f);
}

/*
 * The groups of units accessed together (the clusters), at the recorded
 * line size and at the prefetcher's pair: none spread, no hot unit joins
 */
static int fa_check__groups(struct fa_check *c)
{
	const struct fa_analysis *an = c->an;
	u32 sizes[2] = { c->layout.line_size, FA_CHECK_PAIR_LINE };
	int err = 0;

	for (int i = 0; !err && i < 2; i++) {
		if (i && sizes[1] <= sizes[0])
			break;
		err = fa_check__spread(c, sizes[i]);
		for (int k = 0; !err && k < an->advice.clusters.nr; k++) {
			if (an->advice.clusters.clusters[k].nr < 2)
				continue;
			for (int u = 0; !err && u < c->st->nr_units; u++) {
				int o = c->old_unit[u];

				if (fa_check__hot(c, u) && an->advice.clusters.of_unit[o] != k)
					err = fa_check__entered(c, k, u, sizes[i]);
			}
		}
	}
	return err;
}

/*
 * Bytes of holes on hot lines (@hot: by unit) of @l, a layout of @st;
 * @before: by unit, those just before it
 */
static u32 fa_layout__hot_holes(const struct fa_layout *l, const struct fa_struct *st,
				const bool *hot, bool *line_hot, u32 *before)
{
	u32 nr_lines = DIV_ROUND_UP(l->size, l->line_size), total = 0;
	struct fa_layout_walk w;

	memset(line_hot, 0, nr_lines * sizeof(*line_hot));
	for (int u = 0; u < l->nr_units; u++) {
		if (hot[u])
			fa_unit__mark_lines(l, st, u, line_hot, nr_lines);
	}
	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		u32 bytes = 0;

		if (!w.first || !w.hole)
			continue;
		for (u32 off = w.offset - w.hole; off < w.offset; off++)
			bytes += line_hot[off / l->line_size];
		before[w.unit] = bytes;
		total += bytes;
	}
	return total;
}

/*
 * New holes on hot lines: before the same unit, or any if the holes moved;
 * a new member next to one put it into the hot line
 */
static int fa_check__new_holes(struct fa_check *c, const u32 *was, const u32 *now, bool any)
{
	const struct fa_layout *l = &c->layout;
	int err = 0;

	for (int i = 0; !err && i < l->nr_units; i++) {
		int u = l->order[i], o = c->old_unit[u];
		struct fa_check_finding f = {
			.kind = FA_CHECK_HOLE, .unit = u, .bytes = now[u],
			.line = (l->offset[u] - 1) / l->line_size,
			.note = o >= 0 && (!i || c->old_unit[l->order[i - 1]] >= 0),
		};

		if (now[u] && (any || o < 0 || now[u] > was[o]))
			err = fa_check__add(c, &f);
	}
	return err;
}

static int fa_check__holes(struct fa_check *c)
{
	const struct fa_analysis *an = c->an;
	const struct fa_struct *old = c->t->st;
	int nr_old = old->nr_units, nr = c->st->nr_units, found = c->nr_findings, err = 0;
	u32 most = max(an->seen.current.size, c->layout.size) / c->layout.line_size + 1;
	bool *hot = calloc(nr_old + nr + most, sizeof(*hot));
	u32 *before = calloc(nr_old + nr, sizeof(*before));

	if (!hot || !before) {
		err = -ENOMEM;
		goto out;
	}
	for (int u = 0; u < nr_old; u++)
		hot[u] = an->seen.classes.units[u].cls != FA_CLASS_COLD;
	for (int u = 0; u < nr; u++)
		hot[nr_old + u] = fa_check__hot(c, u);
	c->hole_bytes_recorded = fa_layout__hot_holes(&an->seen.current, old, hot,
						      hot + nr_old + nr,
						before);
	c->hole_bytes_now = fa_layout__hot_holes(&c->layout, c->st, hot + nr_old,
						hot + nr_old + nr, before + nr_old);
	if (c->hole_bytes_now <= c->hole_bytes_recorded)
		goto out;
	err = fa_check__new_holes(c, before, before + nr_old, false);
	if (!err && c->nr_findings == found)
		err = fa_check__new_holes(c, before, before + nr_old, true);
out:
	free(before);
	free(hot);
	return err;
}

/* The lines of the recorded units, as recorded and now; removed ones apart */
static void fa_check__lines_of(const struct fa_check *c, u32 *was, u32 *now)
{
	const struct fa_layout *l = &c->layout, *cur = &c->an->seen.current;
	u32 apart = max(cur->size, l->size) / l->line_size + 1;

	for (int u = 0; u < c->t->st->nr_units; u++) {
		int nu = c->new_unit[u];

		was[u] = nu < 0 ? apart + u : cur->offset[u] / l->line_size;
		now[u] = nu < 0 ? apart + u : l->offset[nu] / l->line_size;
	}
}

/* The interval of the cost's change, where the model has the groups to tell (boot.h) */
static void fa_check__change(struct fa_check *c, const struct fa_cost_model *m, const u32 *was,
			     const u32 *now)
{
	struct fa_boot_sum cost[2];

	c->change_ci = (struct fa_interval){ .est = c->change, .lo = c->change, .hi = c->change, };
	if (!fa_cost_model__has_groups(m))
		return;
	fa_cost_model__eval_groups_lines(m, was, &cost[0], NULL);
	fa_cost_model__eval_groups_lines(m, now, &cost[1], NULL);
	fa_boot__change(&cost[0], &cost[1], &c->change_ci);
}

/* "holds", "regressed" or "insufficient": the evidence cannot tell */
const char *fa_check__verdict(const struct fa_check *c)
{
	if (c->nr_failed)
		return "regressed";
	return c->nr_undecided ? "insufficient" : "holds";
}

/*
 * The cost of the recorded accesses with either layout, by the analysis'
 * cost model; the units removed since count as on lines of their own in
 * both
 */
static int fa_check__cost(struct fa_check *c)
{
	const struct fa_cost_model *model = &c->an->cost.model;
	int n = c->t->st->nr_units, err;
	u32 *line_of;
	struct fa_check_finding f = { .kind = FA_CHECK_COST, };

	/* a report saved by an earlier perf has no model */
	if (!model->sets) {
		c->no_cost = true;
		return 0;
	}
	line_of = calloc(2 * n + 2, sizeof(*line_of));
	if (!line_of)
		return -ENOMEM;
	fa_check__lines_of(c, line_of, line_of + n + 1);
	fa_cost_model__eval_lines(model, line_of, &c->cost_recorded);
	fa_cost_model__eval_lines(model, line_of + n + 1, &c->cost_now);
	c->change = c->cost_recorded.total ? c->cost_now.total / c->cost_recorded.total - 1 : 0;
	fa_check__change(c, model, line_of, line_of + n + 1);
	/* regressed where the whole interval is above the maximum, undecided where it spans it */
	f.undecided = c->change_ci.lo <= c->max_regression;
	err = c->change_ci.hi > c->max_regression ? fa_check__add(c, &f) : 0;
	free(line_of);
	return err;
}

/*
 * The recorded layout with the recorded units where @c's layout puts them,
 * the removed ones on lines of their own, into @l
 */
static int fa_check__mapped(const struct fa_check *c, struct fa_layout *l)
{
	const struct fa_layout *now = &c->layout;
	u32 apart = max(c->an->seen.current.size, now->size) / now->line_size + 1;

	if (fa_layout__copy(l, &c->an->seen.current))
		return -ENOMEM;
	for (int u = 0; u < l->nr_units; u++) {
		int nu = c->new_unit[u];

		l->offset[u] = nu < 0 ? (apart + u) * now->line_size : now->offset[nu];
	}
	l->size = max(now->size, apart * now->line_size);
	l->align = now->align;
	return 0;
}

/*
 * The recorded accesses replayed (a recording's, not a saved report's)
 * with this layout, the instances where they were, or at the start of
 * their line where this layout aligns the type; with the recorded layout,
 * the analysis replayed them already
 */
static int fa_check__replay(struct fa_check *c)
{
	const struct fa_type *t = c->t;
	enum fa_bases bases;
	struct fa_layout l;
	int err;

	if (!t->replay.nr || !c->an->seen.current.offset)
		return 0;
	if (fa_check__mapped(c, &l))
		return -ENOMEM;
	bases = l.align >= t->cfg.line_size ? FA_BASES_LINE_START : FA_BASES_RECORDED;
	err = fa_cost__replay(t, &l, bases, c->an->cost.xfer_cost, &c->replay_now, NULL);
	fa_layout__exit(&l);
	c->replay_recorded = c->an->cost.now.replay;
	c->replayed = !err;
	return err;
}

/*
 * The recorded accesses replayed with the instances where they were: a
 * layout whose members are apart only where an instance starts a line does
 * not hold where the instances did not, unless it aligns the type (then
 * each is taken to start its line, as an allocation that honours the
 * alignment puts it)
 */
static int fa_check__instances(struct fa_check *c)
{
	const struct fa_analysis *an = c->an;
	const struct fa_type *t = c->t;
	struct fa_check_finding f = { .kind = FA_CHECK_INSTANCES, };
	double margin;

	if (!c->replayed || !an->advice.changed || an->advice.unsure ||
	    an->candidate.insufficient || !an->cost.xfer_cost)
		return 0;
	c->replay_advised = an->cost.advised.replay;
	margin = FA_MIN_GAIN * an->cost.now.replay.xfers_per_kacc;
	if (c->replay_now.xfers_per_kacc <= c->replay_advised.xfers_per_kacc + margin)
		return 0;
	f.line = t->xfer.misaligned;
	return fa_check__add(c, &f);
}

/* Too few groups of time for the report to advise: no "holds" from them either */
static int fa_check__evidence(struct fa_check *c)
{
	const struct fa_cost_model *m = &c->an->cost.model;
	struct fa_check_finding f = { .kind = FA_CHECK_EVIDENCE, .undecided = true, };

	if (c->nr_failed || c->nr_undecided || !fa_cost_model__has_groups(m))
		return 0;
	return fa_analysis__few_groups(m, &f.groups) ? fa_check__add(c, &f) : 0;
}

/**
 * fa_check__run - Check the layout of @st against the recording of its type
 * @t: The recorded type
 * @an: Its analysis (fa_analysis__run()) or the saved report's (profile.h)
 * @st: The type as it is now, maybe changed
 * @max_regression: Of the cost, relative: 0.01 for 1%
 *
 * Return: 0, with c->nr_findings the reasons the layout does not hold, or
 * -ENOMEM.
 */
int fa_check__run(struct fa_check *c, const struct fa_type *t, const struct fa_analysis *an,
		  const struct fa_struct *st, double max_regression)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->an = an;
	c->st = st;
	c->max_regression = max_regression;
	c->new_unit = calloc(t->st->nr_units + 1, sizeof(*c->new_unit));
	c->old_unit = calloc(st->nr_units + 1, sizeof(*c->old_unit));
	if (!c->new_unit || !c->old_unit ||
	    fa_layout__current(&c->layout, st, t->cfg.line_size)) {
		fa_check__exit(c);
		return -ENOMEM;
	}
	fa_check__map(c);
	err = fa_check__shared(c) ?: fa_check__groups(c) ?: fa_check__holes(c) ?:
	      fa_check__cost(c) ?: fa_check__replay(c) ?: fa_check__instances(c) ?:
	      fa_check__evidence(c);
	if (err)
		fa_check__exit(c);
	return err;
}

void fa_check__exit(struct fa_check *c)
{
	fa_layout__exit(&c->layout);
	zfree(&c->new_unit);
	zfree(&c->old_unit);
	zfree(&c->findings);
	c->nr_findings = 0;
	c->nr_failed = 0;
	c->nr_undecided = 0;
}
