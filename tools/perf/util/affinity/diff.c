// SPDX-License-Identifier: GPL-2.0
/* One struct type in two recordings, side by side (diff.h) */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "analyze.h"
#include "check.h"
#include "diff.h"
#include "fields.h"
#include "json.h"
#include "layout.h"
#include "matrix.h"
#include "type.h"

enum fa_diff_measure {
	FA_DIFF_ACCESSES,
	FA_DIFF_INSTANCES,
	FA_DIFF_LINES,
	FA_DIFF_XFERS,
	FA_DIFF_HITM,
	FA_DIFF_COST,
	FA_DIFF_MAX,
};

static const char * const fa_diff_keys[FA_DIFF_MAX] = {
	[FA_DIFF_ACCESSES]	= "accesses",
	[FA_DIFF_INSTANCES]	= "instances",
	[FA_DIFF_LINES]		= "lines",
	[FA_DIFF_XFERS]		= "xfers_per_kacc",
	[FA_DIFF_HITM]		= "hitm_per_kload",
	[FA_DIFF_COST]		= "cost",
};

/* False sharing pairs below this share of a recording's are not shown */
#define FA_DIFF_MIN_FS	1.0
#define FA_DIFF_MAX_FS	10

/* One measure of one recording: NAN where it has none */
static double fa_diff_side__measure(const struct fa_diff_side *s, int m)
{
	const struct fa_type *t = s->t;
	u64 loads;

	if (!t)
		return NAN;
	switch (m) {
	case FA_DIFF_ACCESSES:
		return t->counts.nr_accesses;
	case FA_DIFF_INSTANCES:
		return t->xfer.nr_instances;
	case FA_DIFF_LINES:
		return s->an->model[0].lines_per_window;
	case FA_DIFF_XFERS:
		return s->an->model[0].xfers_per_kacc;
	case FA_DIFF_HITM:
		loads = fa_type__loads(t);
		return s->hitm && loads ? 1000.0 * t->counts.hitm / loads : NAN;
	case FA_DIFF_COST:
		return s->an->model[0].total;
	default:
		return NAN;
	}
}

/* The changes of the lines per window and of the cost, with intervals */
static void fa_diff__intervals(struct fa_diff *d)
{
	const struct fa_analysis *a = d->side[0].an, *b = d->side[1].an;

	if (fa_boot_sum__total(&a->measured.windows) <= 0 ||
	    fa_boot_sum__total(&b->measured.windows) <= 0)
		return;
	fa_boot__change_apart(&a->measured.lines, &a->measured.windows, &b->measured.lines,
			      &b->measured.windows, &d->change[0]);
	fa_boot__change_apart(&a->measured.cost, &a->measured.windows, &b->measured.cost,
			      &b->measured.windows, &d->change[1]);
	d->have_change = true;
}

/* The interval of measure @m's change, or NULL */
static const struct fa_interval *fa_diff__interval(const struct fa_diff *d, int m)
{
	if (!d->have_change)
		return NULL;
	return m == FA_DIFF_LINES ? &d->change[0] : m == FA_DIFF_COST ? &d->change[1] : NULL;
}

/**
 * fa_diff__init - Type @name in the @old and the @new recording
 *
 * With both, what the old recording's accesses cost with the new layout
 * (fa_check__run()): the prediction to hold the new measures against.
 */
int fa_diff__init(struct fa_diff *d, const char *name, const struct fa_diff_side *old,
		  const struct fa_diff_side *new, double percent_limit)
{
	struct fa_check c;
	int err;

	memset(d, 0, sizeof(*d));
	d->name = name;
	d->side[0] = *old;
	d->side[1] = *new;
	d->percent_limit = percent_limit;
	if (!old->t || !new->t)
		return 0;
	fa_diff__intervals(d);
	err = fa_check__run(&c, old->t, old->an, /*model=*/NULL, new->t->st,
			    /*max_regression=*/1);
	if (err)
		return err;
	d->predicted[0] = c.cost[0].total;
	d->predicted[1] = c.cost[1].total;
	d->have_predicted = true;
	fa_check__exit(&c);
	return 0;
}

static const struct fa_analysis *fa_diff__an(const struct fa_diff *d)
{
	return d->side[0].t ? d->side[0].an : d->side[1].an;
}

static int fa_diff__label(const struct fa_diff *d, int m, char *buf, size_t size)
{
	const struct fa_analysis *an = fa_diff__an(d);

	switch (m) {
	case FA_DIFF_LINES:
		return scnprintf(buf, size, "lines per %s", an->per_visit ? "visit" : "window");
	case FA_DIFF_XFERS:
		return scnprintf(buf, size, "transfers per 1k accesses");
	case FA_DIFF_HITM:
		return scnprintf(buf, size, "HITM per 1k loads");
	case FA_DIFF_COST:
		return scnprintf(buf, size, "cost (lines + %g x transfers)", an->xfer_cost);
	default:
		return scnprintf(buf, size, "%s", fa_diff_keys[m]);
	}
}

static size_t fa_diff__value(FILE *fp, double v, bool count)
{
	if (isnan(v))
		return fprintf(fp, " %10s", "-");
	return count ? fprintf(fp, " %10.0f", v) : fprintf(fp, " %10.2f", v);
}

/* The relative change, as perf diff's delta column */
static size_t fa_diff__change(FILE *fp, double old, double new)
{
	if (isnan(old) || isnan(new))
		return fprintf(fp, " %9s", "");
	if (old == 0)
		return fprintf(fp, " %9s", new == 0 ? "" : "new");
	return fprintf(fp, " %+8.1f%%", 100 * (new / old - 1));
}

static size_t fa_diff__row(FILE *fp, const char *label, double old, double new, bool count,
			   const char *note)
{
	size_t printed = fprintf(fp, "  %-34s", label);

	printed += fa_diff__value(fp, old, count);
	printed += fa_diff__value(fp, new, count);
	printed += fa_diff__change(fp, old, new);
	return printed + fprintf(fp, "%s%s\n", note ? "   " : "", note ?: "");
}

/* The note of a measured change: its interval, or that it is not told from noise */
static const char *fa_diff__note(const struct fa_diff *d, int m, char *buf, size_t size)
{
	const struct fa_interval *ci = fa_diff__interval(d, m);
	char str[FA_INTERVAL_STR];

	if (!ci)
		return m == FA_DIFF_COST ? "measured" : NULL;
	fa_interval__str(ci, false, str, sizeof(str));
	if (fa_interval__spans(ci, 0))
		scnprintf(buf, size, "no measurable change (%s)", str);
	else
		scnprintf(buf, size, "%s", str);
	return buf;
}

static size_t fa_diff__measures(const struct fa_diff *d, FILE *fp)
{
	const struct fa_analysis *old = d->side[0].t ? d->side[0].an : NULL;
	size_t printed = fprintf(fp, "  %-34s %10s %10s %9s\n", "", "old", "new", "change");
	char label[64], note[96];

	for (int m = 0; m < FA_DIFF_MAX; m++) {
		fa_diff__label(d, m, label, sizeof(label));
		printed += fa_diff__row(fp, label, fa_diff_side__measure(&d->side[0], m),
					fa_diff_side__measure(&d->side[1], m),
					m <= FA_DIFF_INSTANCES, fa_diff__note(d, m, note, sizeof(note)));
	}
	if (d->have_predicted)
		printed += fa_diff__row(fp, "cost of the old accesses", d->predicted[0],
					d->predicted[1], false, "predicted for the new layout");
	if (old && old->changed)
		printed += fa_diff__row(fp, "cost of the old report's advice", old->model[0].total,
					old->model[1].total, false, "predicted for the advice");
	return printed;
}

/* Leaf field @name of @s, or -1 */
static int fa_diff_side__field(const struct fa_diff_side *s, const char *name)
{
	const struct fa_struct *st = s->t ? s->t->st : NULL;

	for (int k = 0; st && k < st->nr_leaves; k++) {
		if (!strcmp(st->fields[st->leaves[k]].name, name))
			return st->leaves[k];
	}
	return -1;
}

/* A field as both recordings saw it: its share of the accesses, its line */
struct fa_diff_field {
	const char	*name;
	double		 share[2];
	int		 line[2];
};

static bool fa_diff__field(const struct fa_diff *d, const char *name, struct fa_diff_field *df)
{
	df->name = name;
	for (int i = 0; i < 2; i++) {
		const struct fa_diff_side *s = &d->side[i];
		int f = fa_diff_side__field(s, name);

		df->share[i] = f < 0 ? NAN : fa_type__field_share(s->t, f);
		df->line[i] = f < 0 ? -1 : fa_layout__line(&s->an->current, s->t->st, f);
	}
	return df->share[0] >= d->percent_limit || df->share[1] >= d->percent_limit;
}

/*
 * The next leaf of both to show, from *@pos on: the old side's, then the
 * new side's that the old one has not
 */
static bool fa_diff__next_field(const struct fa_diff *d, int *pos, struct fa_diff_field *df)
{
	const struct fa_struct *st[2] = {
		d->side[0].t ? d->side[0].t->st : NULL,
		d->side[1].t ? d->side[1].t->st : NULL,
	};
	int nr0 = st[0] ? st[0]->nr_leaves : 0, nr1 = st[1] ? st[1]->nr_leaves : 0;

	while (*pos < nr0 + nr1) {
		int i = *pos >= nr0, k = *pos - (i ? nr0 : 0);
		const char *name = st[i]->fields[st[i]->leaves[k]].name;

		(*pos)++;
		if (i && fa_diff_side__field(&d->side[0], name) >= 0)
			continue;
		if (fa_diff__field(d, name, df))
			return true;
	}
	return false;
}

static void fa_diff_field__fprintf(const struct fa_diff_field *df, FILE *fp)
{
	char buf[FA_FIELD_NAME_MAX + 1];

	fprintf(fp, "  %-*s", FA_FIELD_NAME_MAX,
		fa_field__short_name(df->name, FA_FIELD_NAME_MAX, buf, sizeof(buf)));
	for (int i = 0; i < 2; i++) {
		if (isnan(df->share[i]))
			fprintf(fp, " %8s", "-");
		else
			fprintf(fp, " %7.1f%%", df->share[i]);
	}
	if (isnan(df->share[0]) || isnan(df->share[1]))
		fprintf(fp, " %8s", "");
	else
		fprintf(fp, " %+8.1f", df->share[1] - df->share[0]);
	for (int i = 0; i < 2; i++) {
		if (df->line[i] < 0)
			fprintf(fp, " %5s", "-");
		else
			fprintf(fp, " %5d", df->line[i]);
	}
	fprintf(fp, "\n");
}

/* A falsely shared pair, by the names of its fields */
struct fa_diff_pair {
	const char	*writer;
	const char	*reader;
	double		 rate[2];	/* transfers per 1000 accesses of the type */
};

struct fa_diff_pairs {
	struct fa_diff_pair	*pairs;
	int			 nr;
};

static int fa_diff_pairs__add(struct fa_diff_pairs *p, int side, const char *w, const char *r,
			      double rate)
{
	void *n;

	for (int k = 0; k < p->nr; k++) {
		if (!strcmp(p->pairs[k].writer, w) && !strcmp(p->pairs[k].reader, r)) {
			p->pairs[k].rate[side] = rate;
			return 0;
		}
	}
	n = realloc(p->pairs, (p->nr + 1) * sizeof(*p->pairs));
	if (!n)
		return -ENOMEM;
	p->pairs = n;
	p->pairs[p->nr] = (struct fa_diff_pair){ .writer = w, .reader = r, };
	p->pairs[p->nr++].rate[side] = rate;
	return 0;
}

/* The pairs either recording shows, old ones first */
static int fa_diff__pairs(const struct fa_diff *d, struct fa_diff_pairs *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 2; i++) {
		const struct fa_type *t = d->side[i].t;
		struct fa_cell *cells;
		int n, err = 0;

		if (!t)
			continue;
		n = fa_matrix__cells(&t->xfer.fs, &cells);
		if (n < 0)
			return n;
		for (int k = 0; !err && k < n && k < FA_DIFF_MAX_FS; k++) {
			if (100 * cells[k].w < FA_DIFF_MIN_FS * t->xfer.fs.total)
				break;
			err = fa_diff_pairs__add(p, i, t->st->fields[cells[k].i].name,
						 t->st->fields[cells[k].j].name,
						 1000 * cells[k].w / t->counts.weight);
		}
		free(cells);
		if (err)
			return err;
	}
	return 0;
}

static size_t fa_diff__pairs_fprintf(const struct fa_diff *d, FILE *fp)
{
	struct fa_diff_pairs p;
	size_t printed;
	char label[128];

	if (fa_diff__pairs(d, &p))
		return 0;
	printed = fprintf(fp, "\n  False sharing, transfers per 1k accesses:\n");
	for (int k = 0; k < p.nr; k++) {
		const struct fa_diff_pair *dp = &p.pairs[k];
		/* a pair only one recording shows is none in the other */
		double old = d->side[0].t ? dp->rate[0] : NAN;
		double new = d->side[1].t ? dp->rate[1] : NAN;

		scnprintf(label, sizeof(label), "%s -> %s", dp->writer, dp->reader);
		printed += fa_diff__row(fp, label, old, new, false,
					!new && old ? "gone" : new && !old ? "new" : NULL);
	}
	if (!p.nr)
		printed += fprintf(fp, "    none seen in either\n");
	free(p.pairs);
	return printed;
}

/**
 * fa_diff__fprintf - The type in both recordings, side by side
 */
void fa_diff__fprintf(const struct fa_diff *d, FILE *fp)
{
	struct fa_diff_field df;

	fprintf(fp, "\n=================================================\n"
		    "  %s%s\n"
		    "=================================================\n\n",
		d->name, !d->side[0].t ? ": only in the new recording" :
		!d->side[1].t ? ": only in the old recording" : "");

	fa_diff__measures(d, fp);
	fprintf(fp, "\n  %-*s %8s %8s %8s %5s %5s\n", FA_FIELD_NAME_MAX,
		"Field (share of the accesses, line)", "old", "new", "change", "old", "new");
	for (int pos = 0; fa_diff__next_field(d, &pos, &df);)
		fa_diff_field__fprintf(&df, fp);
	fa_diff__pairs_fprintf(d, fp);
}

static void fa_json__double_pair(struct fa_json *j, const char *key, double old, double new)
{
	fa_json__begin_array(j, key, /*flat=*/true);
	for (int i = 0; i < 2; i++) {
		double v = i ? new : old;

		if (isnan(v))
			fa_json__null(j, NULL);
		else
			fa_json__double(j, NULL, v);
	}
	fa_json__end_array(j);
}

static void fa_diff_field__json(const struct fa_diff_field *df, struct fa_json *j)
{
	fa_json__begin_object(j, NULL, /*flat=*/true);
	fa_json__string(j, "name", df->name);
	fa_json__double_pair(j, "share", df->share[0], df->share[1]);
	fa_json__double_pair(j, "line", df->line[0] < 0 ? NAN : df->line[0],
			     df->line[1] < 0 ? NAN : df->line[1]);
	fa_json__end_object(j);
}

/* One type in both recordings, an object of the "types" array */
/* {"change": %, "interval": [lo, hi], "measurable": bool}, or null */
static void fa_diff__json_change(struct fa_json *j, const struct fa_diff *d, const char *key,
				 int m)
{
	const struct fa_interval *ci = fa_diff__interval(d, m);

	if (!ci) {
		fa_json__null(j, key);
		return;
	}
	fa_json__begin_object(j, key, /*flat=*/true);
	fa_json__double(j, "change", 100 * ci->est);
	fa_json__begin_array(j, "interval", /*flat=*/true);
	fa_json__double(j, NULL, 100 * ci->lo);
	fa_json__double(j, NULL, 100 * ci->hi);
	fa_json__end_array(j);
	fa_json__bool(j, "measurable", !fa_interval__spans(ci, 0));
	fa_json__end_object(j);
}

int fa_diff__json(struct fa_json *j, const struct fa_diff *d)
{
	struct fa_diff_field df;
	struct fa_diff_pairs p;
	int err = fa_diff__pairs(d, &p);

	if (err)
		return err;
	fa_json__begin_object(j, NULL, /*flat=*/false);
	fa_json__string(j, "type", d->name);
	fa_json__bool(j, "per_visit", fa_diff__an(d)->per_visit);
	for (int m = 0; m < FA_DIFF_MAX; m++)
		fa_json__double_pair(j, fa_diff_keys[m], fa_diff_side__measure(&d->side[0], m),
				     fa_diff_side__measure(&d->side[1], m));
	if (d->have_predicted)
		fa_json__double_pair(j, "predicted_cost", d->predicted[0], d->predicted[1]);
	fa_diff__json_change(j, d, "lines_change", FA_DIFF_LINES);
	fa_diff__json_change(j, d, "cost_change", FA_DIFF_COST);
	fa_json__begin_array(j, "fields", /*flat=*/false);
	for (int pos = 0; fa_diff__next_field(d, &pos, &df);)
		fa_diff_field__json(&df, j);
	fa_json__end_array(j);
	fa_json__begin_array(j, "false_sharing", /*flat=*/false);
	for (int k = 0; k < p.nr; k++) {
		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__string(j, "writer", p.pairs[k].writer);
		fa_json__string(j, "reader", p.pairs[k].reader);
		fa_json__double_pair(j, "xfers_per_kacc",
				     d->side[0].t ? p.pairs[k].rate[0] : NAN,
				     d->side[1].t ? p.pairs[k].rate[1] : NAN);
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
	fa_json__end_object(j);
	free(p.pairs);
	return 0;
}
