// SPDX-License-Identifier: GPL-2.0
/* One struct type in two recordings, side by side (diff.h) */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "../advice/analyze.h"
#include "check.h"
#include "diff.h"
#include "../attr/dlines.h"
#include "../fields/fields.h"
#include "../output/json.h"
#include "../layout/layout.h"
#include "../accumulate/matrix.h"
#include "../accumulate/type.h"

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

/* Whether @s has a replay of its accesses, with their groups (boot.h) */
static bool fa_diff_side__replayed(const struct fa_diff_side *s)
{
	return s->t && s->an->cost.now.replay.accesses &&
	       fa_boot_sum__total(&s->an->cost.now.replayed.windows) > 0;
}

/* Whether @s saw instances that do not start a cache line */
static bool fa_diff_side__misaligned(const struct fa_diff_side *s)
{
	return s->t && s->t->xfer.misaligned;
}

/*
 * Whether the transfers and the cost are the replay's, the accesses with
 * the instances where they were: where one recording saw an instance that
 * does not start a line (a heap object at 16 mod 64), which the model takes
 * to start one.  Elsewhere the model's, as steady from run to run as its
 * intervals say (the replay's differ more than theirs, bench/README.md).
 */
static bool fa_diff__by_replay(const struct fa_diff *d)
{
	return fa_diff_side__replayed(&d->side[0]) && fa_diff_side__replayed(&d->side[1]) &&
	       (fa_diff_side__misaligned(&d->side[0]) || fa_diff_side__misaligned(&d->side[1]));
}

/* One measure of one recording: NAN where it has none */
static double fa_diff_side__measure(const struct fa_diff *d, const struct fa_diff_side *s,
				    int m)
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
		return s->an->cost.now.model.lines_per_window;
	case FA_DIFF_XFERS:
		/* with the instances where they were, as the report judges them */
		return fa_diff__by_replay(d) ? s->an->cost.now.replay.xfers_per_kacc :
		       s->an->cost.now.model.xfers_per_kacc;
	case FA_DIFF_HITM:
		loads = fa_type__loads(t);
		return s->hitm && loads ? 1000.0 * t->counts.hitm / loads : NAN;
	case FA_DIFF_COST:
		return fa_diff__by_replay(d) ? s->an->cost.now.replay.total :
		       s->an->cost.now.model.total;
	default:
		return NAN;
	}
}

/* The transfers of the current layout by group: what of its cost is not lines */
static void fa_diff_side__xfers(const struct fa_diff_side *s, struct fa_boot_sum *xfers)
{
	const struct fa_analysis *an = s->an;

	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		xfers->g[g] = an->cost.xfer_cost ?
			(an->seen.measured.cost.g[g] - an->seen.measured.lines.g[g]) /
					      an->cost.xfer_cost : 0;
}

/*
 * The changes of the measures, with intervals: those of the model (lines,
 * transfers, cost) by its windows' (or visits') groups, HITMs by loads
 */
static void fa_diff__intervals(struct fa_diff *d)
{
	const struct fa_analysis *a = d->side[0].an, *b = d->side[1].an;
	const struct fa_type *ta = d->side[0].t, *tb = d->side[1].t;
	const struct fa_boot_sum *wa = &a->seen.measured.windows, *wb = &b->seen.measured.windows;
	struct fa_boot_sum xa, xb;
	bool *have = d->have_change;

	if (fa_diff__by_replay(d)) {
		have[FA_DIFF_COST] = fa_boot__change_apart(&a->cost.now.replay_groups,
							   &a->cost.now.replayed.windows,
							   &b->cost.now.replay_groups,
							   &b->cost.now.replayed.windows,
							   &d->change[FA_DIFF_COST]);
		have[FA_DIFF_XFERS] = fa_boot__change_apart(&a->cost.now.replayed.xfers,
							    &a->cost.now.replayed.accesses,
							    &b->cost.now.replayed.xfers,
							    &b->cost.now.replayed.accesses,
							    &d->change[FA_DIFF_XFERS]);
	} else if (fa_boot_sum__total(wa) > 0 && fa_boot_sum__total(wb) > 0) {
		have[FA_DIFF_COST] = fa_boot__change_apart(&a->seen.measured.cost, wa,
							   &b->seen.measured.cost, wb,
							   &d->change[FA_DIFF_COST]);
		fa_diff_side__xfers(&d->side[0], &xa);
		fa_diff_side__xfers(&d->side[1], &xb);
		have[FA_DIFF_XFERS] = fa_boot__change_apart(&xa, &ta->counts.accesses_by_group,
							    &xb, &tb->counts.accesses_by_group,
							    &d->change[FA_DIFF_XFERS]);
	}
	if (fa_boot_sum__total(wa) > 0 && fa_boot_sum__total(wb) > 0) {
		have[FA_DIFF_LINES] = fa_boot__change_apart(&a->seen.measured.lines, wa,
							    &b->seen.measured.lines, wb,
							    &d->change[FA_DIFF_LINES]);
	}
	if (d->side[0].hitm && d->side[1].hitm)
		have[FA_DIFF_HITM] = fa_boot__change_apart(&ta->counts.hitm_by_group,
							   &ta->counts.loads_by_group,
							   &tb->counts.hitm_by_group,
							   &tb->counts.loads_by_group,
							   &d->change[FA_DIFF_HITM]);
}

/* The interval of measure @m's change, or NULL */
static const struct fa_interval *fa_diff__interval(const struct fa_diff *d, int m)
{
	return d->have_change[m] ? &d->change[m] : NULL;
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
	err = fa_check__run(&c, old->t, old->an, new->t->st, /*max_regression=*/1);
	if (err)
		return err;
	/* as the measures: replayed with the instances where they were, if they are */
	d->predicted_replayed = c.replayed && fa_diff__by_replay(d);
	d->predicted_was = d->predicted_replayed ? c.replay_recorded.total : c.cost_recorded.total;
	d->predicted_now = d->predicted_replayed ? c.replay_now.total : c.cost_now.total;
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
		return scnprintf(buf, size, "lines per %s",
				 an->cost.per_visit ? "visit" : "window");
	case FA_DIFF_XFERS:
		return scnprintf(buf, size, "transfers per 1k accesses");
	case FA_DIFF_HITM:
		return scnprintf(buf, size, "HITM per 1k loads");
	case FA_DIFF_COST:
		return scnprintf(buf, size, "cost (lines + %g x transfers)", an->cost.xfer_cost);
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

/* Per 1k samples, NaN of none */
static double fa_diff__per_ksample(u64 n, u64 samples)
{
	return samples ? 1000.0 * n / samples : NAN;
}

/**
 * fa_diff__dlines_fprintf - The lines threads share in the two recordings,
 * typed or not: a fix of an array or of untyped heap slots shows here, and
 * a fix that leaves a line shared still moves it
 */
void fa_diff__dlines_fprintf(FILE *fp, const struct fa_dl_sum *old, u64 old_samples,
			     const struct fa_dl_sum *new, u64 new_samples)
{
	fprintf(fp, "\n# data cache lines threads share, typed or not\n");
	fprintf(fp, "# %-34s %10s %10s %9s\n", "", "old", "new", "change");
	fa_diff__row(fp, "lines moved between threads", old->nr, new->nr, true, NULL);
	fa_diff__row(fp, "of those, false sharing", old->nr_false, new->nr_false, true, NULL);
	fa_diff__row(fp, "transfers per 1k samples", fa_diff__per_ksample(old->xfers, old_samples),
		     fa_diff__per_ksample(new->xfers, new_samples), false, NULL);
	fa_diff__row(fp, "  a line per thread removes",
		     fa_diff__per_ksample(old->xfers - old->xfers_apart, old_samples),
		     fa_diff__per_ksample(new->xfers - new->xfers_apart, new_samples), false,
		     new->xfers > new->xfers_apart ? "false sharing left" :
		     new->nr ? "none: what is left is true sharing" : "nothing shared");
}

static void fa_diff__dlines_json_side(struct json_writer *j, const char *key,
				      const struct fa_dl_sum *s, u64 samples)
{
	json_writer__begin_object(j, key, /*flat=*/true);
	json_writer__int(j, "lines", s->nr);
	json_writer__int(j, "false_sharing_lines", s->nr_false);
	json_writer__u64(j, "transfers", s->xfers);
	json_writer__u64(j, "transfers_apart", s->xfers_apart);
	json_writer__u64(j, "samples", samples);
	json_writer__end_object(j);
}

void fa_diff__dlines_json(struct json_writer *j, const struct fa_dl_sum *old, u64 old_samples,
			  const struct fa_dl_sum *new, u64 new_samples)
{
	json_writer__begin_object(j, "data_lines", /*flat=*/false);
	fa_diff__dlines_json_side(j, "old", old, old_samples);
	fa_diff__dlines_json_side(j, "new", new, new_samples);
	json_writer__end_object(j);
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
		printed += fa_diff__row(fp, label, fa_diff_side__measure(d, &d->side[0], m),
					fa_diff_side__measure(d, &d->side[1], m),
					m <= FA_DIFF_INSTANCES, fa_diff__note(d, m, note, sizeof(note)));
	}
	if (d->have_predicted)
		printed += fa_diff__row(fp, "cost of the old accesses", d->predicted_was,
					d->predicted_now, false, "predicted for the new layout");
	if (old && old->advice.changed && d->predicted_replayed)
		printed += fa_diff__row(fp, "cost of the old report's advice",
					old->cost.now.replay.total,
					old->cost.advised.replay.total, false,
					"predicted for the advice");
	else if (old && old->advice.changed)
		printed += fa_diff__row(fp, "cost of the old report's advice",
					old->cost.now.model.total,
					old->cost.advised.model.total, false,
					"predicted for the advice");
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

/*
 * A field as both recordings saw it: its share of the accesses, its line,
 * and the change of its share in points, with an interval if both have it
 */
struct fa_diff_field {
	const char		*name;
	double			 share[2];
	int			 line[2];
	struct fa_interval	 ci;
	bool			 have_ci;
};

static bool fa_diff__field(const struct fa_diff *d, const char *name, struct fa_diff_field *df)
{
	const struct fa_boot_sum *by_group[2] = { NULL, NULL, };

	df->name = name;
	for (int i = 0; i < 2; i++) {
		const struct fa_diff_side *s = &d->side[i];
		int f = fa_diff_side__field(s, name);

		df->share[i] = f < 0 ? NAN : fa_type__field_share(s->t, f);
		df->line[i] = f < 0 ? -1 : fa_layout__line(&s->an->seen.current, s->t->st, f);
		if (f >= 0)
			by_group[i] = &s->t->counts.field_groups[f].weight;
	}
	if (!(df->share[0] >= d->percent_limit || df->share[1] >= d->percent_limit))
		return false;
	/* the interval of the fields shown only: a bootstrap each */
	df->have_ci = by_group[0] && by_group[1] &&
		      fa_boot__diff_apart(by_group[0], &d->side[0].t->counts.weight_by_group,
					  by_group[1], &d->side[1].t->counts.weight_by_group,
					  &df->ci);
	return true;
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
	if (df->have_ci && fa_interval__spans(&df->ci, 0))
		fprintf(fp, "   no measurable change");
	else if (df->have_ci)
		fprintf(fp, "   %.0f%% interval %+.1f to %+.1f", 100 * FA_BOOT_LEVEL,
			100 * df->ci.lo, 100 * df->ci.hi);
	fprintf(fp, "\n");
}

/*
 * A falsely shared pair, by the names of its fields; the relative change
 * of its rate, or where one recording has none the difference
 */
struct fa_diff_pair {
	const char		*writer;
	const char		*reader;
	double			 rate[2];	/* transfers per 1000 accesses of the type */
	struct fa_interval	 ci;
	bool			 have_ci;
};

struct fa_diff_pairs {
	struct fa_diff_pair	*pairs;
	int			 nr;
};

static int fa_diff_pairs__add(struct fa_diff_pairs *p, const char *w, const char *r)
{
	void *n;

	for (int k = 0; k < p->nr; k++) {
		if (!strcmp(p->pairs[k].writer, w) && !strcmp(p->pairs[k].reader, r))
			return 0;
	}
	n = realloc(p->pairs, (p->nr + 1) * sizeof(*p->pairs));
	if (!n)
		return -ENOMEM;
	p->pairs = n;
	p->pairs[p->nr++] = (struct fa_diff_pair){ .writer = w, .reader = r, };
	return 0;
}

/* The transfers from @w to @r of side @s by group, into @sum; the rate */
static double fa_diff_side__pair(const struct fa_diff_side *s, const char *w, const char *r,
				 struct fa_boot_sum *sum)
{
	int fw = fa_diff_side__field(s, w), fr = fa_diff_side__field(s, r);
	const struct fa_pair_groups *pg;

	memset(sum, 0, sizeof(*sum));
	if (fw < 0 || fr < 0 || !s->t->counts.weight)
		return 0;
	pg = fa_keymap__find(&s->t->xfer.fs_by_group, (u64)fw << 32 | (u32)fr);
	if (pg)
		*sum = pg->sum;
	return 1000 * fa_matrix__get(&s->t->xfer.fs, fw, fr) / s->t->counts.weight;
}

/* Each pair's rate in both recordings, and the interval of its change */
static void fa_diff__pair_rates(const struct fa_diff *d, struct fa_diff_pair *dp)
{
	const struct fa_type *t[2] = { d->side[0].t, d->side[1].t, };
	struct fa_boot_sum sum[2];

	for (int i = 0; i < 2; i++)
		dp->rate[i] = t[i] ? fa_diff_side__pair(&d->side[i], dp->writer, dp->reader,
							&sum[i]) : NAN;
	if (!t[0] || !t[1])
		return;
	if (dp->rate[0] > 0 && dp->rate[1] > 0)
		dp->have_ci = fa_boot__change_apart(&sum[0], &t[0]->counts.weight_by_group,
						    &sum[1], &t[1]->counts.weight_by_group,
						    &dp->ci);
	else
		dp->have_ci = fa_boot__diff_apart(&sum[0], &t[0]->counts.weight_by_group,
						  &sum[1], &t[1]->counts.weight_by_group,
						  &dp->ci);
}

/* The pairs either recording shows, old ones first */
static int fa_diff__pairs(const struct fa_diff *d, struct fa_diff_pairs *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 2; i++) {
		const struct fa_type *t = d->side[i].t;
		const struct fa_analysis *an = d->side[i].an;
		int err = 0;

		/* the analysis has them, the most transfers first */
		for (int k = 0; t && !err && k < an->seen.nr_fs_pairs && k < FA_DIFF_MAX_FS; k++) {
			const struct fa_fs_pair *fp = &an->seen.fs_pairs[k];

			if (fp->share < FA_DIFF_MIN_FS)
				break;
			err = fa_diff_pairs__add(p, t->st->fields[fp->writer].name,
						 t->st->fields[fp->reader].name);
		}
		if (err)
			return err;
	}
	for (int k = 0; k < p->nr; k++)
		fa_diff__pair_rates(d, &p->pairs[k]);
	return 0;
}

/* "gone" or "new" where one recording has none, or the interval of the change */
static const char *fa_diff_pair__note(const struct fa_diff_pair *dp, char *buf, size_t size)
{
	bool one = !dp->rate[0] != !dp->rate[1];

	if (isnan(dp->rate[0]) || isnan(dp->rate[1]))
		return NULL;
	if (!dp->have_ci)
		return one ? (dp->rate[0] ? "gone" : "new") : NULL;
	if (fa_interval__spans(&dp->ci, 0))
		return "no measurable change";
	if (one)
		return dp->rate[0] ? "gone" : "new";
	return fa_interval__str(&dp->ci, false, buf, size);
}

static size_t fa_diff__pairs_fprintf(const struct fa_diff *d, FILE *fp)
{
	struct fa_diff_pairs p;
	size_t printed;
	char label[128], note[FA_INTERVAL_STR];

	if (fa_diff__pairs(d, &p))
		return 0;
	printed = fprintf(fp, "\n  False sharing, transfers per 1k accesses:\n");
	for (int k = 0; k < p.nr; k++) {
		const struct fa_diff_pair *dp = &p.pairs[k];

		scnprintf(label, sizeof(label), "%s -> %s", dp->writer, dp->reader);
		printed += fa_diff__row(fp, label, dp->rate[0], dp->rate[1], false,
					fa_diff_pair__note(dp, note, sizeof(note)));
	}
	if (!p.nr)
		printed += fprintf(fp, "    none seen in either\n");
	free(p.pairs);
	return printed;
}

/**
 * fa_diff__fprintf - The type in both recordings, side by side
 */
/*
 * A type whose accesses per sample differ by half between the recordings
 * had different accesses named (code inlined and typed in one build, not
 * the other) or its work changed: its rates compare that too
 */
static void fa_diff__share_note(const struct fa_diff *d, FILE *fp)
{
	double rate[2];

	for (int i = 0; i < 2; i++) {
		const struct fa_diff_side *s = &d->side[i];

		if (!s->t || !s->samples || !s->t->counts.nr_accesses)
			return;
		rate[i] = fa_diff__per_ksample(s->t->counts.nr_accesses, s->samples);
	}
	if (rate[0] < 1.5 * rate[1] && rate[1] < 1.5 * rate[0])
		return;
	fprintf(fp, "  note: %.0f accesses attributed per 1k samples in the old recording, %.0f in the new:\n",
		rate[0], rate[1]);
	fprintf(fp, "  different code named, or different work; the rates below compare that too\n\n");
}

void fa_diff__fprintf(const struct fa_diff *d, FILE *fp)
{
	struct fa_diff_field df;

	fprintf(fp, "\n=================================================\n"
		    "  %s%s\n"
		    "=================================================\n\n",
		d->name, !d->side[0].t ? ": only in the new recording" :
		!d->side[1].t ? ": only in the old recording" : "");

	fa_diff__share_note(d, fp);
	fa_diff__measures(d, fp);
	fprintf(fp, "\n  %-*s %8s %8s %8s %5s %5s\n", FA_FIELD_NAME_MAX,
		"Field (share of the accesses, line)", "old", "new", "change", "old", "new");
	for (int pos = 0; fa_diff__next_field(d, &pos, &df);)
		fa_diff_field__fprintf(&df, fp);
	fa_diff__pairs_fprintf(d, fp);
}

static void fa_json__double_pair(struct json_writer *j, const char *key, double old, double new)
{
	json_writer__begin_array(j, key, /*flat=*/true);
	for (int i = 0; i < 2; i++) {
		double v = i ? new : old;

		if (isnan(v))
			json_writer__null(j, NULL);
		else
			json_writer__double(j, NULL, v);
	}
	json_writer__end_array(j);
}

/* {"change": %, "interval": [lo, hi], "measurable": bool} of @ci, or null */
static void fa_diff__json_interval(struct json_writer *j, const char *key,
				   const struct fa_interval *ci)
{
	if (!ci) {
		json_writer__null(j, key);
		return;
	}
	json_writer__begin_object(j, key, /*flat=*/true);
	json_writer__double(j, "change", 100 * ci->est);
	json_writer__begin_array(j, "interval", /*flat=*/true);
	json_writer__double(j, NULL, 100 * ci->lo);
	json_writer__double(j, NULL, 100 * ci->hi);
	json_writer__end_array(j);
	json_writer__bool(j, "measurable", !fa_interval__spans(ci, 0));
	json_writer__end_object(j);
}

static void fa_diff_field__json(const struct fa_diff_field *df, struct json_writer *j)
{
	json_writer__begin_object(j, NULL, /*flat=*/true);
	json_writer__string(j, "name", df->name);
	fa_json__double_pair(j, "share", df->share[0], df->share[1]);
	fa_json__double_pair(j, "line", df->line[0] < 0 ? NAN : df->line[0],
			     df->line[1] < 0 ? NAN : df->line[1]);
	/* in points of the share */
	fa_diff__json_interval(j, "share_change", df->have_ci ? &df->ci : NULL);
	json_writer__end_object(j);
}

static void fa_diff__json_change(struct json_writer *j, const struct fa_diff *d, const char *key,
				 int m)
{
	fa_diff__json_interval(j, key, fa_diff__interval(d, m));
}

/* One type in both recordings, an object of the "types" array */

int fa_diff__json(struct json_writer *j, const struct fa_diff *d)
{
	struct fa_diff_field df;
	struct fa_diff_pairs p;
	int err = fa_diff__pairs(d, &p);

	if (err)
		return err;
	json_writer__begin_object(j, NULL, /*flat=*/false);
	json_writer__string(j, "type", d->name);
	json_writer__bool(j, "per_visit", fa_diff__an(d)->cost.per_visit);
	for (int m = 0; m < FA_DIFF_MAX; m++)
		fa_json__double_pair(j, fa_diff_keys[m], fa_diff_side__measure(d, &d->side[0], m),
				     fa_diff_side__measure(d, &d->side[1], m));
	if (d->have_predicted)
		fa_json__double_pair(j, "predicted_cost", d->predicted_was, d->predicted_now);
	fa_diff__json_change(j, d, "lines_change", FA_DIFF_LINES);
	fa_diff__json_change(j, d, "cost_change", FA_DIFF_COST);
	fa_diff__json_change(j, d, "xfers_change", FA_DIFF_XFERS);
	fa_diff__json_change(j, d, "hitm_change", FA_DIFF_HITM);
	json_writer__begin_array(j, "fields", /*flat=*/false);
	for (int pos = 0; fa_diff__next_field(d, &pos, &df);)
		fa_diff_field__json(&df, j);
	json_writer__end_array(j);
	json_writer__begin_array(j, "false_sharing", /*flat=*/false);
	for (int k = 0; k < p.nr; k++) {
		const struct fa_diff_pair *dp = &p.pairs[k];
		bool both = dp->have_ci && dp->rate[0] > 0 && dp->rate[1] > 0;

		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__string(j, "writer", dp->writer);
		json_writer__string(j, "reader", dp->reader);
		fa_json__double_pair(j, "xfers_per_kacc", dp->rate[0], dp->rate[1]);
		fa_diff__json_interval(j, "xfers_change", both ? &dp->ci : NULL);
		if (dp->have_ci)
			json_writer__bool(j, "measurable", !fa_interval__spans(&dp->ci, 0));
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	json_writer__end_object(j);
	free(p.pairs);
	return 0;
}
