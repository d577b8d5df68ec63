// SPDX-License-Identifier: GPL-2.0
/* One struct type: method, classes, clusters, layout, cost (see analyze.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "analyze.h"
#include "try.h"
#include "../fields/fields.h"
#include "lines.h"
#include "refine.h"
#include "../accumulate/type.h"
#include "../../debug.h"

static const struct fa_label fa_method_labels[FA_METHOD_MAX] = {
	[FA_METHOD_AUTO]	= { "auto", "auto" },
	[FA_METHOD_WINDOW]	= { "window", "window" },
	[FA_METHOD_CODE]	= { "code", "code" },
};

const char *fa_method__name(int method)
{
	return fa_label__key(fa_method_labels, FA_METHOD_MAX, method);
}

/* enum fa_method of --method @key, or -1 */
int fa_method__parse(const char *key)
{
	return fa_label__parse(fa_method_labels, FA_METHOD_MAX, key);
}

static const struct fa_label fa_method_why_labels[FA_METHOD_WHY_MAX] = {
	[FA_METHOD_WHY_ASKED]		= { "asked", "as asked" },
	[FA_METHOD_WHY_DENSE]		= { "dense", "dense enough for windows" },
	[FA_METHOD_WHY_SPARSE]		= { "sparse",
					    "too sparse for windows, fields of the sampled code" },
	[FA_METHOD_WHY_SPARSE_NO_CODE]	= { "sparse_no_code", "too sparse, but no code context" },
	[FA_METHOD_WHY_NO_CODE]		= { "no_code", "no code context: window" },
};

/* The key of enum fa_method_why, for JSON */
const char *fa_method_why__name(enum fa_method_why why)
{
	return fa_label__key(fa_method_why_labels, FA_METHOD_WHY_MAX, why);
}

/* Why the method was taken, in words */
const char *fa_method_why__text(enum fa_method_why why)
{
	return fa_label__text(fa_method_why_labels, FA_METHOD_WHY_MAX, why);
}

static void fa_analysis__method(struct fa_analysis *a, struct fa_type *t, int method)
{
	const struct fa_matrix *code = &t->code.co;
	bool have_code = fa_matrix__nr_cells(code);
	bool dense;

	a->seen.gap_ns = fa_type__median_gap_ns(t);
	dense = a->seen.gap_ns && a->seen.gap_ns <= FA_DENSE_GAP_NS;
	if (method == FA_METHOD_AUTO) {
		if (dense) {
			method = FA_METHOD_WINDOW;
			a->seen.why = FA_METHOD_WHY_DENSE;
		} else if (have_code) {
			method = FA_METHOD_CODE;
			a->seen.why = FA_METHOD_WHY_SPARSE;
		} else {
			method = FA_METHOD_WINDOW;
			a->seen.why = FA_METHOD_WHY_SPARSE_NO_CODE;
		}
	} else {
		a->seen.why = FA_METHOD_WHY_ASKED;
	}
	if (method == FA_METHOD_CODE && !have_code) {
		a->seen.why = FA_METHOD_WHY_NO_CODE;
		method = FA_METHOD_WINDOW;
	}
	a->seen.method = method;
	a->seen.affinity = method == FA_METHOD_CODE ? code : &t->win.co;
}

/* Another advice replaces the candidate whose saving was not sure */
static void fa_analysis__drop_candidate(struct fa_analysis *a)
{
	fa_layout__exit(&a->candidate.layout);
	a->candidate.insufficient = false;
}

/*
 * Instances that share cache lines (array slots, neighbouring heap objects)
 * move those lines between the CPUs that write them, whatever the order of
 * the fields.  The cost model sees one instance at a time; the replay sees
 * the instances where they were.  Aligning the struct to the line gives
 * each instance lines of its own: advise it when the replay of the
 * instances so spread saves FA_MIN_GAIN, times the growth of the struct.
 * One instance that does not start a line (a heap object at 16 mod 64)
 * can keep a member move from taking the written member off the readers'
 * line: the same, with that instance aligned.
 */
static int fa_analysis__spread(struct fa_analysis *a, struct fa_type *t, double xfer_cost)
{
	u32 line = t->cfg.line_size;
	struct fa_boot_sum by_group;
	struct fa_layout spread;
	struct fa_cost cost;

	/* nor its alignment, for a layout assembly or user space has */
	if (!t->replay.nr_bases || !xfer_cost || t->st->abi_decl ||
	    (t->replay.nr_bases == 1 && (!a->advice.changed || !t->xfer.misaligned)) ||
	    (a->advice.suggested.size % line == 0 && !t->xfer.misaligned))
		return 0;
	if (fa_layout__copy(&spread, &a->advice.suggested))
		return -ENOMEM;
	spread.align = max(spread.align, line);
	spread.size = roundup(spread.size, line);
	if (fa_cost__replay(t, &spread, FA_BASES_SPREAD, xfer_cost, &cost, &by_group)) {
		fa_layout__exit(&spread);
		return -ENOMEM;
	}
	/* every instance grows: judged as the edits are (edit.h) */
	if (cost.total * spread.size / a->advice.suggested.size >=
	    a->cost.advised.replay.total * (1 - FA_MIN_GAIN)) {
		fa_layout__exit(&spread);
		return 0;
	}
	fa_layout__exit(&a->advice.suggested);
	a->advice.suggested = spread;
	a->cost.advised.replay = cost;
	a->cost.advised.replay_groups = by_group;
	fa_boot__saving(&a->cost.now.replay_groups, &by_group, &a->cost.replay_gain_ci);
	a->advice.spread = true;
	fa_analysis__drop_candidate(a);
	a->advice.kept = false;
	a->advice.changed = true;
	return 0;
}

/*
 * Instances that do not start a line (heap objects, an array of a struct
 * whose size is not a multiple of the line) can have the fields one visit
 * touches straddle two lines: the model takes every instance to start one.
 * Say how many lines a visit takes with the instances where they were.
 * Aligning the struct to the line is not advised for it: measured on a
 * scan of 64k 584-byte instances (bench/layout_apply.py, rqscan), the
 * grouped fields straddling in 3 instances of 8 cost less than the 640-byte
 * stride that aligning them takes (0.53 s against 0.28 s a run).
 */
static void fa_analysis__lines_at(struct fa_analysis *a, struct fa_type *t)
{
	if (!a->cost.per_visit || a->advice.spread || !t->replay.nr_bases)
		return;
	a->cost.now.visit_lines = fa_analysis__visit_lines(a, t, &a->seen.current);
	a->cost.advised.visit_lines = fa_analysis__visit_lines(a, t, &a->advice.suggested);
}

/* Cache lines a visit takes with @l, the recorded instances where they were */
double fa_analysis__visit_lines(const struct fa_analysis *a, const struct fa_type *t,
				const struct fa_layout *l)
{
	u32 line = t->cfg.line_size;
	u64 phases[line];

	memset(phases, 0, sizeof(phases));
	for (u32 i = 0; i < t->replay.nr_bases; i++)
		phases[t->replay.bases[i] % line]++;
	return fa_cost_model__lines_at(&a->cost.model, l, phases);
}

/**
 * fa_analysis__unsure - Whether what the recorded instances say does not
 * confirm the model's gain: neither the replay nor, for visits, which the
 * replay's windows do not see, the lines per visit with the instances
 * where they were save FA_MIN_GAIN
 */
bool fa_analysis__unsure(const struct fa_analysis *a)
{
	if (!a->advice.changed || a->advice.spread ||
	    a->cost.advised.model.total >= a->cost.now.model.total)
		return false;
	if (a->cost.advised.replay.total <= a->cost.now.replay.total * (1 - FA_MIN_GAIN))
		return false;
	return !(a->cost.now.visit_lines > 0 &&
		 a->cost.advised.visit_lines <= a->cost.now.visit_lines * (1 - FA_MIN_GAIN));
}

/* The model's cost of the current and suggested layouts and the saving, with intervals */
static void fa_analysis__intervals(struct fa_analysis *a, const struct fa_cost_model *m)
{
	struct fa_boot_sum c[3];

	if (!fa_cost_model__has_groups(m)) {
		double now = a->cost.now.model.total, then = a->cost.advised.model.total;
		double gain = now > 0 ? 1 - then / now : 0;

		a->cost.now.cost_ci = (struct fa_interval){ .est = now, .lo = now, .hi = now, };
		a->cost.advised.cost_ci = (struct fa_interval){ .est = then, .lo = then,
								.hi = then, };
		a->cost.gain_ci = (struct fa_interval){ .est = gain, .lo = gain, .hi = gain, };
		a->reorder.gain_ci = a->cost.gain_ci;
		if (now > 0)
			a->reorder.gain_ci.est = 1 - a->reorder.model.total / now;
		a->reorder.gain_ci.lo = a->reorder.gain_ci.hi = a->reorder.gain_ci.est;
		return;
	}
	fa_cost_model__eval_groups(m, &a->advice.suggested, &c[1], NULL);
	c[0] = a->seen.measured.cost;
	fa_boot__ratio(&c[0], &m->nr_by_group, &a->cost.now.cost_ci);
	fa_boot__ratio(&c[1], &m->nr_by_group, &a->cost.advised.cost_ci);
	fa_boot__saving(&c[0], &c[1], &a->cost.gain_ci);
	fa_cost_model__eval_groups(m, &a->reorder.layout, &c[2], NULL);
	fa_boot__saving(&c[0], &c[2], &a->reorder.gain_ci);
}

/*
 * The suggestion is only the leading candidate: no advice, the current
 * layout and its model cost kept
 */
static int fa_analysis__candidate(struct fa_analysis *a)
{
	a->candidate.insufficient = true;
	a->candidate.advice = a->advice.kind;
	a->advice.kind = FA_ADVICE_NONE;
	a->cost.advised.model = a->cost.now.model;
	a->cost.advised.cost_ci = a->cost.now.cost_ci;
	a->candidate.layout = a->advice.suggested;
	return fa_layout__copy(&a->advice.suggested, &a->seen.current);
}

/**
 * fa_analysis__few_groups - The windows (visits) of @m are in fewer groups
 * of time (boot.h) than its intervals need to tell anything: no advice from
 * them, and check says it cannot tell
 * @nr_groups: Result: the groups with windows (visits)
 */
bool fa_analysis__few_groups(const struct fa_cost_model *m, int *nr_groups)
{
	*nr_groups = fa_boot_sum__nr_groups(&m->nr_by_group);
	return *nr_groups < FA_BOOT_MIN_GROUPS;
}

/*
 * The suggestion, unless the lower end of its saving's interval reaches
 * FA_MIN_GAIN, is only the leading candidate: say how much longer to
 * record for the interval to clear it
 */
static int fa_analysis__insufficient(struct fa_analysis *a, const struct fa_cost_model *m)
{
	int nr_groups;
	bool few = fa_analysis__few_groups(m, &nr_groups);

	if (a->advice.kept || !fa_cost_model__has_groups(m) ||
	    (!few && a->cost.gain_ci.lo >= FA_MIN_GAIN))
		return 0;
	a->candidate.record_more = few ? 0 :
		fa_interval__more_samples(&a->cost.gain_ci, FA_MIN_GAIN);
	return fa_analysis__candidate(a);
}

/*
 * An advice the replays disagree with is only the leading candidate: the
 * replay of the current layout stands for both, the candidate's is kept
 */
static int fa_analysis__withhold(struct fa_analysis *a)
{
	a->candidate.replay = a->cost.advised.replay;
	a->cost.advised.replay = a->cost.now.replay;
	a->candidate.record_more = 0;
	a->advice.changed = false;
	return fa_analysis__candidate(a);
}

/* Whether there is an advice yet to be checked against a replay */
static bool fa_analysis__advised(const struct fa_analysis *a)
{
	return a->advice.changed && !a->advice.kept && !a->candidate.insufficient;
}

/*
 * The model's suggestion, which the replay of the recorded accesses says
 * costs FA_MIN_GAIN more than the current layout: two estimates that
 * disagree are no evidence for a change; it is only the leading candidate
 */
static int fa_analysis__contradicted(struct fa_analysis *a)
{
	if (!fa_analysis__advised(a) ||
	    !fa_cost__replay_contradicts(&a->cost.now.replay, &a->cost.advised.replay))
		return 0;
	a->candidate.contradicted = true;
	return fa_analysis__withhold(a);
}

/*
 * The watched accesses replayed with the current layout and the advice
 * (or the leading candidate): exact where the samples only estimate who
 * moves a line.  An advice they see move its lines more often than now is
 * only the leading candidate.
 */
static int fa_analysis__watched(struct fa_analysis *a, const struct fa_type *t)
{
	const struct fa_exact_lines *xl = t->counts.exact_lines;
	const struct fa_layout *l = a->candidate.insufficient ? &a->candidate.layout :
		&a->advice.suggested;

	if (!xl || !xl->nr_hits)
		return 0;
	if (fa_exact_lines__replay(xl, t->st, &a->seen.current, false, &a->watched.now) ||
	    fa_exact_lines__replay(xl, t->st, l, l->align >= t->cfg.line_size,
				   &a->watched.then))
		return -ENOMEM;
	if (!fa_analysis__advised(a) || !fa_exact_cost__worse(&a->watched.now, &a->watched.then))
		return 0;
	a->watched.worse = true;
	return fa_analysis__withhold(a);
}

/* Whether the watched hits were replayed with an advice or a candidate */
bool fa_analysis__watched_replayed(const struct fa_analysis *a)
{
	return a->watched.then.hits && (a->advice.changed || a->candidate.insufficient);
}

static int fa_analysis__costs(struct fa_analysis *a, struct fa_type *t,
			      const struct fa_cost_model *model, double xfer_cost)
{
	bool aligned;
	int err;

	fa_cost_model__eval(model, &a->seen.current, &a->cost.now.model);
	fa_cost_model__eval(model, &a->advice.suggested, &a->cost.advised.model);
	fa_analysis__intervals(a, model);
	/* never advise a layout that saves less than FA_MIN_GAIN, or costs more */
	if (a->cost.advised.model.total >= a->cost.now.model.total * (1 - FA_MIN_GAIN)) {
		fa_layout__exit(&a->advice.suggested);
		if (fa_layout__copy(&a->advice.suggested, &a->seen.current))
			return -ENOMEM;
		a->cost.advised.model = a->cost.now.model;
		a->advice.kept = true;
		a->advice.kind = FA_ADVICE_NONE;
	}
	if (fa_analysis__insufficient(a, model))
		return -ENOMEM;
	aligned = !a->advice.kept && a->advice.suggested.align >= t->cfg.line_size;
	a->advice.changed = !fa_layout__same(&a->seen.current, &a->advice.suggested);
	if (fa_cost__replay_detail(t, &a->seen.current, FA_BASES_RECORDED, xfer_cost,
				   &a->cost.now.replay,
				   &a->cost.now.replay_groups, &a->cost.now.replayed) ||
	    fa_cost__replay(t, &a->advice.suggested,
			    aligned ? FA_BASES_LINE_START : FA_BASES_RECORDED,
			    xfer_cost, &a->cost.advised.replay, &a->cost.advised.replay_groups) ||
	    fa_analysis__contradicted(a) || fa_analysis__watched(a, t))
		return -ENOMEM;
	fa_boot__saving(&a->cost.now.replay_groups, &a->cost.advised.replay_groups,
			&a->cost.replay_gain_ci);
	err = fa_analysis__spread(a, t, xfer_cost);
	if (!err)
		fa_analysis__lines_at(a, t);
	a->advice.unsure = fa_analysis__unsure(a);
	/* units that conflict, apart only where an instance starts a line */
	a->advice.needs_line_start = a->advice.changed && !a->advice.spread &&
				     a->advice.suggested.align < t->cfg.line_size &&
				     fa_layout__conflict_apart(&a->seen.current,
							       &a->advice.suggested,
							       &a->seen.classes);
	return err;
}

/* Cluster, lay out, then improve the layout under the cost model */
static int fa_analysis__reorder(struct fa_analysis *a, struct fa_type *t,
				const struct fa_cost_model *model)
{
	const struct fa_struct *st = t->st;

	if (fa_matrix__init(&a->advice.unit_affinity) ||
	    fa_units__affinity(st, a->seen.affinity, &a->advice.unit_affinity) ||
	    fa_clusters__build(&a->advice.clusters, st, &a->seen.classes, &a->advice.unit_affinity,
			       t->cfg.line_size) ||
	    fa_layout__suggest(&a->reorder.layout, st, &a->seen.classes, &a->advice.clusters,
			       t->cfg.line_size))
		return -ENOMEM;
	return fa_layout__refine(&a->reorder.layout, st, &a->seen.classes, model);
}

/*
 * Whether the judged cost (edit.h) of @l is below that of @than in FA_SURE
 * of the replicates (boot.h), or the model has no groups to tell
 */
static bool fa_analysis__surely_better(const struct fa_judge *j, const struct fa_layout *l,
				       const struct fa_layout *than)
{
	struct fa_boot_sum cur, cost, judged[2];

	if (!fa_cost_model__has_groups(j->m))
		return true;
	fa_cost_model__eval_groups(j->m, j->cur, &cur, NULL);
	fa_cost_model__eval_groups(j->m, l, &cost, NULL);
	fa_judge__groups(j, l, &cost, &cur, &judged[0]);
	fa_cost_model__eval_groups(j->m, than, &cost, NULL);
	fa_judge__groups(j, than, &cost, &cur, &judged[1]);
	return fa_boot__prob_less(&judged[0], &judged[1]) >= FA_SURE;
}

/* How the advice's search judges a layout of @t (edit.h); the --try's too */
void fa_analysis__judge(const struct fa_analysis *a, const struct fa_type *t, struct fa_judge *j)
{
	*j = (struct fa_judge){
		.st = t->st, .cur = &a->seen.current, .m = &a->cost.model, .keep = &a->advice.keep,
		.c = &a->seen.classes, .nr_instances = t->xfer.nr_instances,
		.cost0 = fa_cost_model__eval(&a->cost.model, &a->seen.current, NULL),
	};
}

/*
 * What @l saves of the recorded accesses: replayed with the instances where
 * they were (at line starts if @l aligns the type to the line) against
 * @now, the recorded layout's replay; by the model without one
 */
static double fa_analysis__saves(const struct fa_analysis *a, const struct fa_type *t,
				 const struct fa_judge *j, const struct fa_cost *now,
				 const struct fa_layout *l)
{
	enum fa_bases bases = l->align >= l->line_size ? FA_BASES_LINE_START : FA_BASES_RECORDED;
	struct fa_cost then;

	if (!now || fa_cost__replay(t, l, bases, a->cost.xfer_cost, &then, NULL))
		return j->cost0 - fa_cost_model__eval(j->m, l, NULL);
	return now->total - then.total;
}

/*
 * Edits that pad (@edit) give way to moves alone that save FA_MOVES_ENOUGH
 * of what they save: a move costs no memory.  Saved as the recorded
 * instances would: moves that part members only where an instance starts
 * a line save nothing in a heap object at 16 mod 64.
 */
static int fa_analysis__unpadded(struct fa_analysis *a, const struct fa_type *t,
				 const struct fa_judge *j, struct fa_layout *edit)
{
	struct fa_judge moves = *j;
	const struct fa_cost *recorded = NULL;
	struct fa_edits e;
	struct fa_layout l;
	struct fa_cost now;
	double pad_gain, move_gain;

	if (!fa_edits__pad(&a->advice.edits))
		return 0;
	moves.moves_only = true;
	if (fa_edits__search(&e, &l, &moves, &a->seen.classes))
		return -ENOMEM;
	/* the recorded layout's replay once, for both */
	if (e.nr && t->replay.nr_bases && a->cost.xfer_cost &&
	    !fa_cost__replay(t, j->cur, FA_BASES_RECORDED, a->cost.xfer_cost, &now, NULL))
		recorded = &now;
	pad_gain = e.nr ? fa_analysis__saves(a, t, j, recorded, edit) : 0;
	move_gain = e.nr ? fa_analysis__saves(a, t, j, recorded, &l) : 0;
	if (!e.nr || pad_gain <= 0 || move_gain < FA_MOVES_ENOUGH * pad_gain) {
		fa_layout__exit(&l);
		return 0;
	}
	pr_debug("%s: moves save %.3f of the padding's %.3f: no padding\n", j->st->name,
		 move_gain, pad_gain);
	a->advice.edits = e;
	fa_layout__exit(edit);
	*edit = l;
	return 0;
}

/*
 * The smallest edit, or the full reorder where its judged cost, which
 * counts every member it moves, is lower still (edit.h) in FA_SURE of the
 * replicates: between near-equal candidates, always the smaller edit
 */
static int fa_analysis__advise(struct fa_analysis *a, struct fa_type *t,
			       const struct fa_cost_model *model)
{
	const struct fa_layout *best = &a->seen.current;
	struct fa_judge j;
	struct fa_layout edit;
	int err;

	fa_analysis__judge(a, t, &j);
	if (fa_edits__search(&a->advice.edits, &edit, &j, &a->seen.classes))
		return -ENOMEM;
	if (fa_analysis__unpadded(a, t, &j, &edit)) {
		fa_layout__exit(&edit);
		return -ENOMEM;
	}
	a->cost.judged.current = j.cost0;
	a->cost.judged.edit = a->advice.edits.nr ? fa_judge__cost(&j, &edit) : j.cost0;
	a->cost.judged.reorder = fa_judge__cost(&j, &a->reorder.layout);
	a->reorder.breaks = !fa_keep__allows(&a->advice.keep, &a->seen.current, &a->reorder.layout);
	a->reorder.moved = fa_layout__moved(&a->seen.current, &a->reorder.layout);
	fa_cost_model__eval(model, &a->reorder.layout, &a->reorder.model);
	if (a->cost.judged.reorder < a->cost.judged.edit &&
	    a->cost.judged.reorder < j.cost0 * (1 - FA_MIN_GAIN) &&
	    (!a->advice.edits.nr || fa_analysis__surely_better(&j, &a->reorder.layout, &edit))) {
		a->advice.kind = FA_ADVICE_REORDER;
		best = &a->reorder.layout;
	} else if (a->advice.edits.nr) {
		a->advice.kind = FA_ADVICE_EDIT;
		best = &edit;
	}
	err = fa_layout__copy(&a->advice.suggested, best);
	a->advice.moved = fa_layout__moved(&a->seen.current, &a->advice.suggested);
	a->advice.shifted = fa_layout__shifted(&a->seen.current, &a->advice.suggested);
	fa_layout__exit(&edit);
	return err;
}

/* Distinct cache lines of the units with @share >= FA_EVERY_CALL in @l */
static int fa_layout__every_call_lines(const struct fa_layout *l, const double *share)
{
	int n = 0;

	for (int k = 0; k < l->nr_units; k++) {
		int u = l->order[k];
		bool seen = false;

		if (share[u] < FA_EVERY_CALL)
			continue;
		/* in offset order: a line seen before is the line of an earlier unit */
		for (int i = k - 1; i >= 0 && !seen; i--) {
			int prev = l->order[i];

			if (l->offset[prev] / l->line_size != l->offset[u] / l->line_size)
				break;
			seen = share[prev] >= FA_EVERY_CALL;
		}
		n += !seen;
	}
	return n;
}

/* The fields nearly every visit reads: on how many lines, before and after */
static void fa_analysis__every_call(struct fa_analysis *a, const struct fa_cost_model *model)
{
	int n = a->seen.current.nr_units;
	double share[n + 1];

	fa_cost_model__shares(model, n, share);
	a->cost.now.every_call_lines = fa_layout__every_call_lines(&a->seen.current, share);
	a->cost.advised.every_call_lines = fa_layout__every_call_lines(&a->advice.suggested, share);
}

/*
 * The predicted saving of the suggestion, as a share of the current cost:
 * the model's, or for an alignment of instances sharing lines, which the
 * model does not see, the replay's
 */
double fa_analysis__gain(const struct fa_analysis *an)
{
	const struct fa_cost *now = an->advice.spread ? &an->cost.now.replay : &an->cost.now.model;
	const struct fa_cost *then = an->advice.spread ? &an->cost.advised.replay :
		&an->cost.advised.model;

	if (!an->advice.changed || now->total <= 0)
		return 0;
	return 1 - then->total / now->total;
}

/*
 * fa_analysis__saving - What the advice saves, whatever edit it is: the
 * gain of the layout, or the split's (whose layout is the current one)
 */
double fa_analysis__saving(const struct fa_analysis *an)
{
	const struct fa_split *sp = &an->advice.split;

	if (an->advice.kind == FA_ADVICE_SPLIT && sp->now.cost > 0)
		return 1 - sp->split.cost / sp->now.cost;
	return fa_analysis__gain(an);
}

/*
 * fa_analysis__saving_interval - The interval of what the advice saves,
 * where it has one: an edit or a reorder the model judged, an alignment of
 * the instances the replay did (a split has none yet)
 */
bool fa_analysis__saving_interval(const struct fa_analysis *an, struct fa_interval *ci)
{
	if (!an->advice.changed || an->advice.kind == FA_ADVICE_SPLIT)
		return false;
	*ci = an->advice.spread ? an->cost.replay_gain_ci : an->cost.gain_ci;
	return true;
}

/*
 * A split instead of the layout advised, where it is cheaper still; never
 * with an alignment of the instances, which is about lines that instances
 * share, not about what a visit brings in
 */
static int fa_analysis__split(struct fa_analysis *a, struct fa_type *t,
			      const struct fa_cost_model *model)
{
	struct fa_split_in in = {
		.st = t->st, .cur = &a->seen.current, .best = &a->advice.suggested, .m = model,
		.keep = &a->advice.keep, .nr_instances = t->xfer.nr_instances,
		.bases = t->replay.bases, .nr_bases = t->replay.nr_bases,
	};
	int err;

	if (a->advice.spread || t->st->abi_decl)
		return 0;
	err = fa_split__consider(&a->advice.split, &in);
	if (err || a->advice.split.why != FA_SPLIT_ADVISED)
		return err;
	fa_layout__exit(&a->advice.suggested);
	if (fa_layout__copy(&a->advice.suggested, &a->seen.current))
		return -ENOMEM;
	a->cost.advised.model = a->cost.now.model;
	a->cost.advised.replay = a->cost.now.replay;
	a->advice.changed = false;
	a->advice.unsure = false;
	fa_analysis__drop_candidate(a);
	a->advice.needs_line_start = false;
	a->cost.advised.every_call_lines = a->cost.now.every_call_lines;
	a->advice.kind = FA_ADVICE_SPLIT;
	return 0;
}

/* The pairs of the most co-access, and how many windows (visits) had both */
static int fa_analysis__top_pairs(struct fa_analysis *a, const struct fa_type *t,
				  const struct fa_cost_model *model)
{
	const struct fa_field *fields = t->st->fields;
	struct fa_cell *cells;
	int n = fa_matrix__cells(a->seen.affinity, &cells);

	if (n < 0)
		return n;
	for (int k = 0; k < n && k < FA_TOP_PAIRS; k++) {
		struct fa_top_pair *p = &a->seen.top[a->seen.nr_top++];
		u16 u = fields[cells[k].i].unit, v = fields[cells[k].j].unit;

		p->a = cells[k].i;
		p->b = cells[k].j;
		p->share = a->seen.affinity->total ? 100 * cells[k].w / a->seen.affinity->total : 0;
		p->have_together = u != v && fa_cost_model__together(model, u, v, &p->together);
	}
	free(cells);
	return 0;
}

/* The falsely shared pairs, and the interval of the share of those shown */
static int fa_analysis__fs_pairs(struct fa_analysis *a, const struct fa_type *t)
{
	const struct fa_matrix *fs = &t->xfer.fs;
	struct fa_cell *cells;
	int n = fa_matrix__cells(fs, &cells);

	if (n < 0)
		return n;
	a->seen.fs_pairs = calloc(n + 1, sizeof(*a->seen.fs_pairs));
	if (!a->seen.fs_pairs) {
		free(cells);
		return -ENOMEM;
	}
	for (int k = 0; k < n; k++) {
		struct fa_fs_pair *p = &a->seen.fs_pairs[k];

		p->writer = cells[k].i;
		p->reader = cells[k].j;
		p->weight = cells[k].w;
		p->share = fs->total ? 100 * cells[k].w / fs->total : 0;
		if (p->share >= FA_FS_SHOWN)
			fa_type__fs_share(t, p->writer, p->reader, &p->share_ci);
	}
	a->seen.nr_fs_pairs = n;
	free(cells);
	return 0;
}

/*
 * What the accesses show, before any advice (struct fa_seen): the method,
 * the classes, the current layout, the top and falsely shared pairs and
 * the shared lines; and the cost model every layout is weighed with
 */
static int fa_analysis__observe(struct fa_analysis *a, struct fa_type *t, int method,
				double xfer_cost)
{
	struct fa_cost_model *model = &a->cost.model;
	int err;

	fa_analysis__method(a, t, method);
	/*
	 * The lines of one thread move between CPUs when it migrates, all of
	 * them whatever the layout: a layout cannot save those transfers.
	 */
	a->cost.xfer_cost = fa_type__shared(t) ? xfer_cost : 0;
	/* sparse samples: what every call of the sampled code touches */
	a->cost.per_visit = a->seen.method == FA_METHOD_CODE && t->sets.nr_visits;
	if (fa_cost_model__init(model, t, a->cost.xfer_cost, a->cost.per_visit) ||
	    fa_classes__init(&a->seen.classes, t) ||
	    fa_cost_model__set_moving(model, &a->seen.classes) ||
	    fa_layout__current(&a->seen.current, t->st, t->cfg.line_size))
		return -ENOMEM;
	if (fa_cost_model__has_groups(model)) {
		fa_cost_model__eval_groups(model, &a->seen.current, &a->seen.measured.cost,
					   &a->seen.measured.lines);
		a->seen.measured.windows = model->nr_by_group;
	}
	err = fa_analysis__top_pairs(a, t, model);
	if (!err) {
		a->seen.nr_shared_lines = fa_shared_lines__find(t, &a->seen.shared_lines);
		err = min(a->seen.nr_shared_lines, 0);
	}
	return err ?: fa_analysis__fs_pairs(a, t);
}

/*
 * The advice (struct fa_advised), its predicted cost, the full reorder
 * and the candidate, from what fa_analysis__observe() saw
 */
static int fa_analysis__advice(struct fa_analysis *a, struct fa_type *t,
			       const struct fa_keep_opts *keep)
{
	const struct fa_cost_model *model = &a->cost.model;
	int err = -ENOMEM;

	if (fa_keep__init(&a->advice.keep, t->st, &a->seen.current, keep) >= 0 &&
	    !fa_analysis__reorder(a, t, model) && !fa_analysis__advise(a, t, model))
		err = fa_analysis__costs(a, t, model, a->cost.xfer_cost);
	if (err)
		return err;
	fa_analysis__every_call(a, model);
	return fa_analysis__split(a, t, model);
}

/**
 * fa_analysis__run - Analyze the accesses to one struct type
 * @t: The type, its accumulation finished by fa_type__flush()
 * @method: enum fa_method
 * @xfer_cost: Weight of a cache line transfer against touching a line
 * @keep: What layouts must keep, may be NULL (keep.h)
 */
int fa_analysis__run(struct fa_analysis *a, struct fa_type *t, int method, double xfer_cost,
		     const struct fa_keep_opts *keep)
{
	int err;

	memset(a, 0, sizeof(*a));
	err = fa_analysis__observe(a, t, method, xfer_cost) ?: fa_analysis__advice(a, t, keep);
	if (err)
		fa_analysis__exit(a);
	return err;
}

void fa_analysis__exit(struct fa_analysis *a)
{
	fa_classes__exit(&a->seen.classes);
	fa_matrix__exit(&a->advice.unit_affinity);
	fa_clusters__exit(&a->advice.clusters);
	fa_layout__exit(&a->seen.current);
	fa_layout__exit(&a->advice.suggested);
	fa_layout__exit(&a->reorder.layout);
	fa_layout__exit(&a->candidate.layout);
	fa_keep__exit(&a->advice.keep);
	fa_split__exit(&a->advice.split);
	zfree(&a->seen.shared_lines);
	zfree(&a->seen.fs_pairs);
	for (int i = 0; i < a->nr_tries; i++)
		fa_try__exit(&a->tries[i]);
	zfree(&a->tries);
	fa_cost_model__exit(&a->cost.model);
}
