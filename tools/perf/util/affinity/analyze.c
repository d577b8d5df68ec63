// SPDX-License-Identifier: GPL-2.0
/* One struct type: method, classes, clusters, layout, cost (see analyze.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "analyze.h"
#include "fields.h"
#include "refine.h"
#include "type.h"

const char *fa_method__name(int method)
{
	switch (method) {
	case FA_METHOD_WINDOW:
		return "window";
	case FA_METHOD_CODE:
		return "code";
	default:
		return "auto";
	}
}

static void fa_analysis__method(struct fa_analysis *a, struct fa_type *t,
				const struct fa_matrix *code, int method)
{
	u64 gap = fa_type__median_gap_ns(t);
	bool have_code = code && fa_matrix__nr_cells(code);

	if (method == FA_METHOD_AUTO) {
		if (gap && gap <= FA_DENSE_GAP_NS)
			method = FA_METHOD_WINDOW;
		else
			method = have_code ? FA_METHOD_CODE : FA_METHOD_WINDOW;
		snprintf(a->why, sizeof(a->why),
			 "samples of a %s are %llu ns apart (median): %s",
			 t->cfg.scope == FA_SCOPE_THREAD ? "thread" :
			 t->cfg.scope == FA_SCOPE_INSTANCE ? "instance" : "CPU",
			 (unsigned long long)gap,
			 method == FA_METHOD_WINDOW ? (gap && gap <= FA_DENSE_GAP_NS ?
				"dense enough for windows" : "too sparse, but no code context") :
			 "too sparse for windows, fields of the sampled code");
	} else {
		snprintf(a->why, sizeof(a->why), "as asked");
	}
	if (method == FA_METHOD_CODE && !have_code) {
		snprintf(a->why, sizeof(a->why), "no code context: window");
		method = FA_METHOD_WINDOW;
	}
	a->method = method;
	a->affinity = method == FA_METHOD_CODE ? code : &t->co;
}

static int fa_analysis__costs(struct fa_analysis *a, struct fa_type *t,
			      const struct fa_cost_model *model, double xfer_cost)
{
	bool aligned;

	fa_cost_model__eval(model, &a->current, &a->model[0]);
	fa_cost_model__eval(model, &a->suggested, &a->model[1]);
	/* never advise a layout that saves less than FA_MIN_GAIN, or costs more */
	if (a->model[1].total >= a->model[0].total * (1 - FA_MIN_GAIN)) {
		fa_layout__exit(&a->suggested);
		if (fa_layout__copy(&a->suggested, &a->current))
			return -ENOMEM;
		a->model[1] = a->model[0];
		a->kept = true;
	}
	aligned = !a->kept && a->suggested.align >= t->cfg.line_size;
	a->changed = !fa_layout__same(&a->current, &a->suggested);
	if (fa_cost__replay(t, &a->current, false, xfer_cost, &a->replay[0]) ||
	    fa_cost__replay(t, &a->suggested, aligned, xfer_cost, &a->replay[1]))
		return -ENOMEM;
	return 0;
}

/* Cluster, lay out, then improve the layout under the cost model */
static int fa_analysis__suggest(struct fa_analysis *a, struct fa_type *t,
				const struct fa_cost_model *model)
{
	const struct fa_struct *st = t->st;

	if (fa_matrix__init(&a->unit_affinity) ||
	    fa_units__affinity(st, a->affinity, &a->unit_affinity) ||
	    fa_clusters__build(&a->clusters, st, &a->classes, &a->unit_affinity,
			       t->cfg.line_size) ||
	    fa_layout__suggest(&a->suggested, st, &a->classes, &a->clusters, t->cfg.line_size))
		return -ENOMEM;
	return fa_layout__refine(&a->suggested, st, &a->classes, model);
}

/**
 * fa_analysis__run - Analyze the accesses to one struct type
 * @code: Co-access by code context (may be NULL)
 * @method: enum fa_method
 * @xfer_cost: Weight of a cache line transfer against touching a line
 */
int fa_analysis__run(struct fa_analysis *a, struct fa_type *t, const struct fa_matrix *code,
		     int method, double xfer_cost)
{
	struct fa_cost_model model;
	int err = -ENOMEM;

	memset(a, 0, sizeof(*a));
	fa_type__flush(t);
	fa_analysis__method(a, t, code, method);
	/*
	 * The lines of one thread move between CPUs when it migrates, all of
	 * them whatever the layout: a layout cannot save those transfers.
	 */
	a->xfer_cost = fa_type__shared(t) ? xfer_cost : 0;
	xfer_cost = a->xfer_cost;
	if (fa_cost_model__init(&model, t, xfer_cost))
		return -ENOMEM;
	if (!fa_classes__init(&a->classes, t) &&
	    !fa_cost_model__set_moving(&model, &a->classes) &&
	    !fa_layout__current(&a->current, t->st, t->cfg.line_size) &&
	    !fa_analysis__suggest(a, t, &model))
		err = fa_analysis__costs(a, t, &model, xfer_cost);
	fa_cost_model__exit(&model);
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
}
