// SPDX-License-Identifier: GPL-2.0
/*
 * Local search after clustering: clustering only sees pairs of fields,
 * the cost model sees the lines every window touches and the transfers.
 * Move single units to other lines and swap units of two lines while that
 * lowers the predicted cost, never putting units that conflict on one
 * line, within a budget of cost evaluations.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "../layout/classify.h"
#include "../layout/cluster.h"
#include "cost.h"
#include "../fields/fields.h"
#include "../layout/layout.h"
#include "refine.h"

/*
 * Work the search may do: sets evaluated by the cost model, and units
 * looked at when checking that a line may take a unit (~100 ms for 2000 fields)
 */
#define FA_REFINE_WORK	2000000ULL

struct fa_refine {
	const struct fa_struct		*st;
	const struct fa_classes		*c;
	const struct fa_cost_model	*m;
	u32				 line_size;
	u32				*group;		/* by unit: a line */
	int				 nr_groups;
	int				*members;	/* scratch, nr_units */
	double				 cost;
	u64				 work;		/* left to do */
};

/* The units of group @g, but @skip, plus @add (if not -1), into r->members */
static int fa_refine__members(struct fa_refine *r, int g, int skip, int add)
{
	int n = 0;

	r->work -= min_t(u64, r->work, r->st->nr_units);
	for (int u = 0; u < r->st->nr_units; u++) {
		if ((int)r->group[u] == g && u != skip)
			r->members[n++] = u;
	}
	if (add >= 0)
		r->members[n++] = add;
	return n;
}

/* Whether group @g may lose @out and take @in (either may be -1) */
static bool fa_refine__fits(struct fa_refine *r, int g, int out, int in)
{
	int n = fa_refine__members(r, g, out, -1);

	if (in < 0)
		return true;
	for (int i = 0; i < n; i++) {
		if (fa_classes__conflict(r->c, r->members[i], in))
			return false;
	}
	r->members[n++] = in;
	return fa_units__packed_size(r->st, r->members, n) <= r->line_size;
}

/*
 * A unit moved to a line of its own makes the struct bigger, which the
 * model does not see: that has to buy a clear gain.
 */
#define FA_NEW_LINE_GAIN	0.02

/* Keep the change if it costs less, else undo it */
static bool fa_refine__try(struct fa_refine *r, int u, u32 gu, int v, u32 gv)
{
	u32 old_u = r->group[u], old_v = v >= 0 ? r->group[v] : 0;
	double gain = gu == (u32)r->nr_groups ? FA_NEW_LINE_GAIN : 1e-9;
	double cost;

	if (!r->work)
		return false;
	r->work -= min(r->work, (u64)r->m->nr_sets + 1);
	r->group[u] = gu;
	if (v >= 0)
		r->group[v] = gv;
	cost = fa_cost_model__eval_lines(r->m, r->group, NULL);
	if (cost < r->cost * (1 - gain)) {
		r->cost = cost;
		if (gu == (u32)r->nr_groups)
			r->nr_groups++;
		return true;
	}
	r->group[u] = old_u;
	if (v >= 0)
		r->group[v] = old_v;
	return false;
}

static bool fa_refine__moves(struct fa_refine *r)
{
	bool better = false;

	for (int u = 0; u < r->st->nr_units && r->work; u++) {
		for (int g = 0; g <= r->nr_groups; g++) {
			if (g == (int)r->group[u] || r->st->units[u].flex)
				continue;
			if (g < r->nr_groups && !fa_refine__fits(r, g, -1, u))
				continue;
			if (fa_refine__try(r, u, g, -1, 0)) {
				better = true;
				break;
			}
		}
	}
	return better;
}

static bool fa_refine__swaps(struct fa_refine *r)
{
	bool better = false;

	for (int u = 0; u < r->st->nr_units && r->work; u++) {
		for (int v = u + 1; v < r->st->nr_units && r->work; v++) {
			u32 gu = r->group[u], gv = r->group[v];

			if (gu == gv || r->st->units[u].flex || r->st->units[v].flex ||
			    !fa_refine__fits(r, gu, u, v) || !fa_refine__fits(r, gv, v, u))
				continue;
			better |= fa_refine__try(r, u, gv, v, gu);
		}
	}
	return better;
}

/* Number the lines of @l from 0, without gaps */
static int fa_refine__groups(struct fa_refine *r, const struct fa_layout *l)
{
	int n = 0;

	for (int k = 0; k < l->nr_units; k++) {
		int u = l->order[k];
		u32 line = l->offset[u] / l->line_size;

		if (k && line == l->offset[l->order[k - 1]] / l->line_size)
			r->group[u] = r->group[l->order[k - 1]];
		else
			r->group[u] = n++;
	}
	return n;
}

/* The groups numbered without the ones left empty, in their order */
static int fa_refine__compact(struct fa_refine *r, int *group)
{
	int renum[r->nr_groups + 1], n = 0;

	for (int g = 0; g < r->nr_groups; g++)
		renum[g] = -1;
	for (int g = 0; g < r->nr_groups; g++) {
		for (int u = 0; u < r->st->nr_units; u++) {
			if ((int)r->group[u] == g) {
				renum[g] = n++;
				break;
			}
		}
	}
	for (int u = 0; u < r->st->nr_units; u++)
		group[u] = renum[r->group[u]];
	return n;
}

/**
 * fa_layout__refine - Improve layout @l by moving and swapping units
 * @m: The cost model of the accesses
 *
 * Return: 0 (@l replaced when the search found a cheaper layout), or -ENOMEM.
 */
int fa_layout__refine(struct fa_layout *l, const struct fa_struct *st,
		      const struct fa_classes *c, const struct fa_cost_model *m)
{
	struct fa_refine r = {
		.st = st, .c = c, .m = m, .line_size = l->line_size,
		.group = calloc(st->nr_units + 1, sizeof(u32)),
		.members = calloc(st->nr_units + 1, sizeof(int)),
		.work = FA_REFINE_WORK,
	};
	double start;
	int err = -ENOMEM;

	if (!r.group || !r.members)
		goto out;
	r.nr_groups = fa_refine__groups(&r, l);
	start = r.cost = fa_cost_model__eval_lines(m, r.group, NULL);
	while (r.work && (fa_refine__moves(&r) | fa_refine__swaps(&r)))
		;
	err = 0;
	if (r.cost < start) {
		struct fa_layout refined;
		int group[st->nr_units + 1], nr = fa_refine__compact(&r, group);

		err = fa_layout__from_groups(&refined, st, group, nr, l->line_size);
		/* a group of more than a line moves the others: check it really is cheaper */
		if (!err && fa_cost_model__eval(m, &refined, NULL) <
			    fa_cost_model__eval(m, l, NULL)) {
			fa_layout__exit(l);
			*l = refined;
		} else if (!err) {
			fa_layout__exit(&refined);
		}
	}
out:
	free(r.group);
	free(r.members);
	return err;
}
