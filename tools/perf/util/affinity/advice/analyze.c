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

	a->gap_ns = fa_type__median_gap_ns(t);
	dense = a->gap_ns && a->gap_ns <= FA_DENSE_GAP_NS;
	if (method == FA_METHOD_AUTO) {
		if (dense) {
			method = FA_METHOD_WINDOW;
			a->why = FA_METHOD_WHY_DENSE;
		} else if (have_code) {
			method = FA_METHOD_CODE;
			a->why = FA_METHOD_WHY_SPARSE;
		} else {
			method = FA_METHOD_WINDOW;
			a->why = FA_METHOD_WHY_SPARSE_NO_CODE;
		}
	} else {
		a->why = FA_METHOD_WHY_ASKED;
	}
	if (method == FA_METHOD_CODE && !have_code) {
		a->why = FA_METHOD_WHY_NO_CODE;
		method = FA_METHOD_WINDOW;
	}
	a->method = method;
	a->affinity = method == FA_METHOD_CODE ? code : &t->win.co;
}

/* Another advice replaces the candidate whose saving was not sure */
static void fa_analysis__drop_candidate(struct fa_analysis *a)
{
	fa_layout__exit(&a->candidate);
	a->insufficient = false;
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
	    (t->replay.nr_bases == 1 && (!a->changed || !t->xfer.misaligned)) ||
	    (a->suggested.size % line == 0 && !t->xfer.misaligned))
		return 0;
	if (fa_layout__copy(&spread, &a->suggested))
		return -ENOMEM;
	spread.align = max(spread.align, line);
	spread.size = roundup(spread.size, line);
	if (fa_cost__replay(t, &spread, FA_BASES_SPREAD, xfer_cost, &cost, &by_group)) {
		fa_layout__exit(&spread);
		return -ENOMEM;
	}
	/* every instance grows: judged as the edits are (edit.h) */
	if (cost.total * spread.size / a->suggested.size >=
	    a->advised.replay.total * (1 - FA_MIN_GAIN)) {
		fa_layout__exit(&spread);
		return 0;
	}
	fa_layout__exit(&a->suggested);
	a->suggested = spread;
	a->advised.replay = cost;
	a->advised.replay_groups = by_group;
	fa_boot__saving(&a->now.replay_groups, &by_group, &a->replay_gain_ci);
	a->spread = true;
	fa_analysis__drop_candidate(a);
	a->kept = false;
	a->changed = true;
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
	if (!a->per_visit || a->spread || !t->replay.nr_bases)
		return;
	a->now.visit_lines = fa_analysis__visit_lines(a, t, &a->current);
	a->advised.visit_lines = fa_analysis__visit_lines(a, t, &a->suggested);
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
	return fa_cost_model__lines_at(&a->model, l, phases);
}

/**
 * fa_analysis__unsure - Whether what the recorded instances say does not
 * confirm the model's gain: neither the replay nor, for visits, which the
 * replay's windows do not see, the lines per visit with the instances
 * where they were save FA_MIN_GAIN
 */
bool fa_analysis__unsure(const struct fa_analysis *a)
{
	if (!a->changed || a->spread || a->advised.model.total >= a->now.model.total)
		return false;
	if (a->advised.replay.total <= a->now.replay.total * (1 - FA_MIN_GAIN))
		return false;
	return !(a->now.visit_lines > 0 && a->advised.visit_lines <= a->now.visit_lines * (1 - FA_MIN_GAIN));
}

/* The model's cost of the current and suggested layouts and the saving, with intervals */
static void fa_analysis__intervals(struct fa_analysis *a, const struct fa_cost_model *m)
{
	struct fa_boot_sum c[3];

	if (!fa_cost_model__has_groups(m)) {
		double now = a->now.model.total, then = a->advised.model.total;

		a->now.cost_ci = (struct fa_interval){ .est = now, .lo = now, .hi = now, };
		a->advised.cost_ci = (struct fa_interval){ .est = then, .lo = then, .hi = then, };
		a->gain_ci.est = a->gain_ci.lo = a->gain_ci.hi = a->now.model.total > 0 ?
			1 - a->advised.model.total / a->now.model.total : 0;
		a->reorder_gain_ci = a->gain_ci;
		if (a->now.model.total > 0)
			a->reorder_gain_ci.est = 1 - a->reorder_model.total / a->now.model.total;
		a->reorder_gain_ci.lo = a->reorder_gain_ci.hi = a->reorder_gain_ci.est;
		return;
	}
	fa_cost_model__eval_groups(m, &a->current, &a->measured.cost, &a->measured.lines);
	fa_cost_model__eval_groups(m, &a->suggested, &c[1], NULL);
	a->measured.windows = m->nr_by_group;
	c[0] = a->measured.cost;
	fa_boot__ratio(&c[0], &m->nr_by_group, &a->now.cost_ci);
	fa_boot__ratio(&c[1], &m->nr_by_group, &a->advised.cost_ci);
	fa_boot__saving(&c[0], &c[1], &a->gain_ci);
	fa_cost_model__eval_groups(m, &a->reorder, &c[2], NULL);
	fa_boot__saving(&c[0], &c[2], &a->reorder_gain_ci);
}

/*
 * The suggestion is only the leading candidate: no advice, the current
 * layout and its model cost kept
 */
static int fa_analysis__candidate(struct fa_analysis *a)
{
	a->insufficient = true;
	a->candidate_advice = a->advice;
	a->advice = FA_ADVICE_NONE;
	a->advised.model = a->now.model;
	a->advised.cost_ci = a->now.cost_ci;
	a->candidate = a->suggested;
	return fa_layout__copy(&a->suggested, &a->current);
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

	if (a->kept || !fa_cost_model__has_groups(m) ||
	    (!few && a->gain_ci.lo >= FA_MIN_GAIN))
		return 0;
	a->record_more = few ? 0 : fa_interval__more_samples(&a->gain_ci, FA_MIN_GAIN);
	return fa_analysis__candidate(a);
}

/*
 * An advice the replays disagree with is only the leading candidate: the
 * replay of the current layout stands for both, the candidate's is kept
 */
static int fa_analysis__withhold(struct fa_analysis *a)
{
	a->candidate_replay = a->advised.replay;
	a->advised.replay = a->now.replay;
	a->record_more = 0;
	a->changed = false;
	return fa_analysis__candidate(a);
}

/* Whether there is an advice yet to be checked against a replay */
static bool fa_analysis__advised(const struct fa_analysis *a)
{
	return a->changed && !a->kept && !a->insufficient;
}

/*
 * The model's suggestion, which the replay of the recorded accesses says
 * costs FA_MIN_GAIN more than the current layout: two estimates that
 * disagree are no evidence for a change; it is only the leading candidate
 */
static int fa_analysis__contradicted(struct fa_analysis *a)
{
	if (!fa_analysis__advised(a) ||
	    !fa_cost__replay_contradicts(&a->now.replay, &a->advised.replay))
		return 0;
	a->contradicted = true;
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
	const struct fa_layout *l = a->insufficient ? &a->candidate : &a->suggested;

	if (!xl || !xl->nr_hits)
		return 0;
	if (fa_exact_lines__replay(xl, t->st, &a->current, false, &a->watched.now) ||
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
	return a->watched.then.hits && (a->changed || a->insufficient);
}

static int fa_analysis__costs(struct fa_analysis *a, struct fa_type *t,
			      const struct fa_cost_model *model, double xfer_cost)
{
	bool aligned;
	int err;

	fa_cost_model__eval(model, &a->current, &a->now.model);
	fa_cost_model__eval(model, &a->suggested, &a->advised.model);
	fa_analysis__intervals(a, model);
	/* never advise a layout that saves less than FA_MIN_GAIN, or costs more */
	if (a->advised.model.total >= a->now.model.total * (1 - FA_MIN_GAIN)) {
		fa_layout__exit(&a->suggested);
		if (fa_layout__copy(&a->suggested, &a->current))
			return -ENOMEM;
		a->advised.model = a->now.model;
		a->kept = true;
		a->advice = FA_ADVICE_NONE;
	}
	if (fa_analysis__insufficient(a, model))
		return -ENOMEM;
	aligned = !a->kept && a->suggested.align >= t->cfg.line_size;
	a->changed = !fa_layout__same(&a->current, &a->suggested);
	if (fa_cost__replay_detail(t, &a->current, FA_BASES_RECORDED, xfer_cost, &a->now.replay,
				   &a->now.replay_groups, &a->now.replayed) ||
	    fa_cost__replay(t, &a->suggested, aligned ? FA_BASES_LINE_START : FA_BASES_RECORDED,
			    xfer_cost, &a->advised.replay, &a->advised.replay_groups) ||
	    fa_analysis__contradicted(a) || fa_analysis__watched(a, t))
		return -ENOMEM;
	fa_boot__saving(&a->now.replay_groups, &a->advised.replay_groups, &a->replay_gain_ci);
	err = fa_analysis__spread(a, t, xfer_cost);
	if (!err)
		fa_analysis__lines_at(a, t);
	a->unsure = fa_analysis__unsure(a);
	/* units that conflict, apart only where an instance starts a line */
	a->needs_line_start = a->changed && !a->spread &&
			      a->suggested.align < t->cfg.line_size &&
			      fa_layout__conflict_apart(&a->current, &a->suggested, &a->classes);
	return err;
}

/* Cluster, lay out, then improve the layout under the cost model */
static int fa_analysis__reorder(struct fa_analysis *a, struct fa_type *t,
				const struct fa_cost_model *model)
{
	const struct fa_struct *st = t->st;

	if (fa_matrix__init(&a->unit_affinity) ||
	    fa_units__affinity(st, a->affinity, &a->unit_affinity) ||
	    fa_clusters__build(&a->clusters, st, &a->classes, &a->unit_affinity,
			       t->cfg.line_size) ||
	    fa_layout__suggest(&a->reorder, st, &a->classes, &a->clusters, t->cfg.line_size))
		return -ENOMEM;
	return fa_layout__refine(&a->reorder, st, &a->classes, model);
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
		.st = t->st, .cur = &a->current, .m = &a->model, .keep = &a->keep,
		.c = &a->classes, .nr_instances = t->xfer.nr_instances,
		.cost0 = fa_cost_model__eval(&a->model, &a->current, NULL),
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

	if (!now || fa_cost__replay(t, l, bases, a->xfer_cost, &then, NULL))
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

	if (!fa_edits__pad(&a->edits))
		return 0;
	moves.moves_only = true;
	if (fa_edits__search(&e, &l, &moves, &a->classes))
		return -ENOMEM;
	/* the recorded layout's replay once, for both */
	if (e.nr && t->replay.nr_bases && a->xfer_cost &&
	    !fa_cost__replay(t, j->cur, FA_BASES_RECORDED, a->xfer_cost, &now, NULL))
		recorded = &now;
	pad_gain = e.nr ? fa_analysis__saves(a, t, j, recorded, edit) : 0;
	move_gain = e.nr ? fa_analysis__saves(a, t, j, recorded, &l) : 0;
	if (!e.nr || pad_gain <= 0 || move_gain < FA_MOVES_ENOUGH * pad_gain) {
		fa_layout__exit(&l);
		return 0;
	}
	pr_debug("%s: moves save %.3f of the padding's %.3f: no padding\n", j->st->name,
		 move_gain, pad_gain);
	a->edits = e;
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
	const struct fa_layout *best = &a->current;
	struct fa_judge j;
	struct fa_layout edit;
	int err;

	fa_analysis__judge(a, t, &j);
	if (fa_edits__search(&a->edits, &edit, &j, &a->classes))
		return -ENOMEM;
	if (fa_analysis__unpadded(a, t, &j, &edit)) {
		fa_layout__exit(&edit);
		return -ENOMEM;
	}
	a->judged.current = j.cost0;
	a->judged.edit = a->edits.nr ? fa_judge__cost(&j, &edit) : j.cost0;
	a->judged.reorder = fa_judge__cost(&j, &a->reorder);
	a->reorder_breaks = !fa_keep__allows(&a->keep, &a->current, &a->reorder);
	a->reorder_moved = fa_layout__moved(&a->current, &a->reorder);
	fa_cost_model__eval(model, &a->reorder, &a->reorder_model);
	if (a->judged.reorder < a->judged.edit && a->judged.reorder < j.cost0 * (1 - FA_MIN_GAIN) &&
	    (!a->edits.nr || fa_analysis__surely_better(&j, &a->reorder, &edit))) {
		a->advice = FA_ADVICE_REORDER;
		best = &a->reorder;
	} else if (a->edits.nr) {
		a->advice = FA_ADVICE_EDIT;
		best = &edit;
	}
	err = fa_layout__copy(&a->suggested, best);
	a->moved = fa_layout__moved(&a->current, &a->suggested);
	a->shifted = fa_layout__shifted(&a->current, &a->suggested);
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
	int n = a->current.nr_units;
	double share[n + 1];

	fa_cost_model__shares(model, n, share);
	a->now.every_call_lines = fa_layout__every_call_lines(&a->current, share);
	a->advised.every_call_lines = fa_layout__every_call_lines(&a->suggested, share);
}

/*
 * The predicted saving of the suggestion, as a share of the current cost:
 * the model's, or for an alignment of instances sharing lines, which the
 * model does not see, the replay's
 */
double fa_analysis__gain(const struct fa_analysis *an)
{
	const struct fa_cost *now = an->spread ? &an->now.replay : &an->now.model;
	const struct fa_cost *then = an->spread ? &an->advised.replay : &an->advised.model;

	if (!an->changed || now->total <= 0)
		return 0;
	return 1 - then->total / now->total;
}

/*
 * fa_analysis__saving - What the advice saves, whatever edit it is: the
 * gain of the layout, or the split's (whose layout is the current one)
 */
double fa_analysis__saving(const struct fa_analysis *an)
{
	const struct fa_split *sp = &an->split;

	if (an->advice == FA_ADVICE_SPLIT && sp->now.cost > 0)
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
	if (!an->changed || an->advice == FA_ADVICE_SPLIT)
		return false;
	*ci = an->spread ? an->replay_gain_ci : an->gain_ci;
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
		.st = t->st, .cur = &a->current, .best = &a->suggested, .m = model,
		.keep = &a->keep, .nr_instances = t->xfer.nr_instances,
		.bases = t->replay.bases, .nr_bases = t->replay.nr_bases,
	};
	int err;

	if (a->spread || t->st->abi_decl)
		return 0;
	err = fa_split__consider(&a->split, &in);
	if (err || a->split.why != FA_SPLIT_ADVISED)
		return err;
	fa_layout__exit(&a->suggested);
	if (fa_layout__copy(&a->suggested, &a->current))
		return -ENOMEM;
	a->advised.model = a->now.model;
	a->advised.replay = a->now.replay;
	a->changed = false;
	a->unsure = false;
	fa_analysis__drop_candidate(a);
	a->needs_line_start = false;
	a->advised.every_call_lines = a->now.every_call_lines;
	a->advice = FA_ADVICE_SPLIT;
	return 0;
}

/* The pairs of the most co-access, and how many windows (visits) had both */
static int fa_analysis__top_pairs(struct fa_analysis *a, const struct fa_type *t,
				  const struct fa_cost_model *model)
{
	const struct fa_field *fields = t->st->fields;
	struct fa_cell *cells;
	int n = fa_matrix__cells(a->affinity, &cells);

	if (n < 0)
		return n;
	for (int k = 0; k < n && k < FA_TOP_PAIRS; k++) {
		struct fa_top_pair *p = &a->top[a->nr_top++];
		u16 u = fields[cells[k].i].unit, v = fields[cells[k].j].unit;

		p->a = cells[k].i;
		p->b = cells[k].j;
		p->share = a->affinity->total ? 100 * cells[k].w / a->affinity->total : 0;
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
	a->fs_pairs = calloc(n + 1, sizeof(*a->fs_pairs));
	if (!a->fs_pairs) {
		free(cells);
		return -ENOMEM;
	}
	for (int k = 0; k < n; k++) {
		struct fa_fs_pair *p = &a->fs_pairs[k];

		p->writer = cells[k].i;
		p->reader = cells[k].j;
		p->weight = cells[k].w;
		p->share = fs->total ? 100 * cells[k].w / fs->total : 0;
		if (p->share >= FA_FS_SHOWN)
			fa_type__fs_share(t, p->writer, p->reader, &p->share_ci);
	}
	a->nr_fs_pairs = n;
	free(cells);
	return 0;
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
	struct fa_cost_model *model = &a->model;
	int err = -ENOMEM;

	memset(a, 0, sizeof(*a));
	fa_analysis__method(a, t, method);
	/*
	 * The lines of one thread move between CPUs when it migrates, all of
	 * them whatever the layout: a layout cannot save those transfers.
	 */
	a->xfer_cost = fa_type__shared(t) ? xfer_cost : 0;
	xfer_cost = a->xfer_cost;
	/* sparse samples: what every call of the sampled code touches */
	a->per_visit = a->method == FA_METHOD_CODE && t->sets.nr_visits;
	if (fa_cost_model__init(model, t, xfer_cost, a->per_visit))
		return -ENOMEM;
	if (!fa_classes__init(&a->classes, t) &&
	    !fa_cost_model__set_moving(model, &a->classes) &&
	    !fa_layout__current(&a->current, t->st, t->cfg.line_size) &&
	    fa_keep__init(&a->keep, t->st, &a->current, keep) >= 0 &&
	    !fa_analysis__reorder(a, t, model) && !fa_analysis__advise(a, t, model))
		err = fa_analysis__costs(a, t, model, xfer_cost);
	if (!err)
		fa_analysis__every_call(a, model);
	if (!err)
		err = fa_analysis__top_pairs(a, t, model);
	if (!err) {
		a->nr_shared_lines = fa_shared_lines__find(t, &a->shared_lines);
		err = min(a->nr_shared_lines, 0);
	}
	if (!err)
		err = fa_analysis__fs_pairs(a, t);
	if (!err)
		err = fa_analysis__split(a, t, model);
	if (err)
		fa_analysis__exit(a);
	return err;
}

void fa_analysis__exit(struct fa_analysis *a)
{
	fa_classes__exit(&a->classes);
	fa_matrix__exit(&a->unit_affinity);
	fa_clusters__exit(&a->clusters);
	fa_layout__exit(&a->current);
	fa_layout__exit(&a->suggested);
	fa_layout__exit(&a->reorder);
	fa_layout__exit(&a->candidate);
	fa_keep__exit(&a->keep);
	fa_split__exit(&a->split);
	zfree(&a->shared_lines);
	zfree(&a->fs_pairs);
	for (int i = 0; i < a->nr_tries; i++)
		fa_try__exit(&a->tries[i]);
	zfree(&a->tries);
	fa_cost_model__exit(&a->model);
}
