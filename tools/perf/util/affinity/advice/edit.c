// SPDX-License-Identifier: GPL-2.0
/* The smallest edit of a recorded layout that removes its cost (see edit.h). */
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../layout/classify.h"
#include "cost.h"
#include "debug.h"
#include "edit.h"
#include "../fields/fields.h"
#include "../layout/keep.h"
#include "../layout/layout.h"

/*
 * Work the search may do: sets the cost model evaluates, and units placed,
 * ordered and checked, several times each (~1 s for a struct of 2000
 * members: perf bench affinity cluster -n 2000)
 */
#define FA_EDIT_WORK	100000000ULL
#define FA_EDIT_UNIT_WORK	8

static double fa_judge__footprint(const struct fa_judge *j, const struct fa_layout *l)
{
	const struct fa_layout *cur = j->cur;
	u32 line = cur->line_size;
	int lines;

	if (l->size == cur->size)
		return 1;
	/* instances that fit a level 1 cache either way do not crowd it out */
	if (j->nr_instances > 1 && j->nr_instances * l->size > FA_SMALL_FOOTPRINT)
		return (double)l->size / cur->size;
	lines = DIV_ROUND_UP(l->size, line) - DIV_ROUND_UP(cur->size, line);
	return 1 + FA_LINE_COST * max(lines, 0);
}

/* The judged cost of layout @l (see edit.h), DBL_MAX if it may not be taken */
double fa_judge__cost(const struct fa_judge *j, const struct fa_layout *l)
{
	/* units that conflict on a line they did not share */
	if (!fa_keep__allows(j->keep, j->cur, l) ||
	    (j->c && fa_layout__conflict_apart(l, j->cur, j->c)))
		return DBL_MAX;
	return fa_cost_model__eval(j->m, l, NULL) * fa_judge__footprint(j, l) +
	       j->cost0 * (FA_MOVE_COST * fa_layout__moved(j->cur, l) +
			   FA_SHIFT_COST * fa_layout__shifted(j->cur, l));
}

/*
 * fa_judge__cost() by group of the bootstrap (boot.h), from the model's
 * cost of @l and of the current layout (@cur) by group: linear in both
 */
void fa_judge__groups(const struct fa_judge *j, const struct fa_layout *l,
		      const struct fa_boot_sum *cost, const struct fa_boot_sum *cur,
		      struct fa_boot_sum *judged)
{
	double fp = fa_judge__footprint(j, l);
	double moves = FA_MOVE_COST * fa_layout__moved(j->cur, l) +
		       FA_SHIFT_COST * fa_layout__shifted(j->cur, l);

	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		judged->g[g] = cost->g[g] * fp + cur->g[g] * moves;
}

/* Members whose offset @l changes */
int fa_layout__shifted(const struct fa_layout *cur, const struct fa_layout *l)
{
	int n = 0;

	for (int u = 0; u < cur->nr_units; u++)
		n += l->offset[u] != cur->offset[u];
	return n;
}

/*
 * Member declarations an edit of @cur into @l moves: all but the longest
 * run (not necessarily contiguous) that keeps its order, plus the members
 * newly aligned to a cache line
 */
int fa_layout__moved(const struct fa_layout *cur, const struct fa_layout *l)
{
	int n = cur->nr_units, rank[n + 1], tail[n + 1], len = 0, moved;

	for (int k = 0; k < n; k++)
		rank[cur->order[k]] = k;
	for (int k = 0; k < n; k++) {
		int r = rank[l->order[k]], lo = 0, hi = len;

		while (lo < hi) {
			int mid = (lo + hi) / 2;

			if (tail[mid] < r)
				lo = mid + 1;
			else
				hi = mid;
		}
		tail[lo] = r;
		len += lo == len;
	}
	moved = n - len;
	for (int u = 0; u < n; u++)
		moved += l->line_start[u] && !cur->line_start[u];
	return moved;
}

struct fa_search {
	const struct fa_judge	*j;
	const struct fa_classes	*c;
	const struct fa_struct	*st;
	int			 n;
	int			*order;		/* the edited layout so far */
	bool			*ls;
	int			*cand;		/* the candidate */
	bool			*cand_ls;
	struct fa_layout	 now;		/* of @order and @ls */
	struct fa_layout	 l;		/* of the candidate */
	double			 best;		/* judged cost to beat */
	struct fa_edit		 best_edit;
	int			*by_weight;	/* units, coldest first */
	int			*pos;		/* of each unit in @order */
	bool			 found;
	u64			 work;		/* left */
};

static bool fa_search__hot(const struct fa_search *s, int u)
{
	return s->c->units[u].weight > 0 && !s->st->units[u].flex;
}

/* Cache line of the unit at position @k of the edited layout */
static u32 fa_search__line(const struct fa_search *s, int k)
{
	return s->now.offset[s->order[k]] / s->now.line_size;
}

/*
 * Where moving a unit or starting a line may matter: where a cache line
 * starts, and next to an accessed unit
 */
static bool fa_search__spot(const struct fa_search *s, int k)
{
	if (k == 0 || k >= s->n)
		return true;
	return fa_search__line(s, k) != fa_search__line(s, k - 1) ||
	       fa_search__hot(s, s->order[k]) || fa_search__hot(s, s->order[k - 1]);
}

static int fa_search__pos(const struct fa_search *s, int u)
{
	return s->pos[u];
}

/* The edited layout has changed: where its units are */
static void fa_search__update(struct fa_search *s)
{
	for (int k = 0; k < s->n; k++)
		s->pos[s->order[k]] = k;
	fa_layout__set_order(&s->now, s->st, s->order, s->ls);
}

static void fa_search__start(struct fa_search *s)
{
	memcpy(s->cand, s->order, s->n * sizeof(*s->cand));
	memcpy(s->cand_ls, s->ls, s->n * sizeof(*s->cand_ls));
}

/* Judge the candidate: the best so far if it beats s->best */
static void fa_search__try(struct fa_search *s, u8 op, int u, int v)
{
	double cost;

	if (!s->work)
		return;
	s->work -= min(s->work, (u64)s->j->m->nr_sets + FA_EDIT_UNIT_WORK * s->n);
	fa_layout__set_order(&s->l, s->st, s->cand, s->cand_ls);
	cost = fa_judge__cost(s->j, &s->l);
	if (cost < s->best) {
		s->best = cost;
		s->best_edit = (struct fa_edit){ .op = op, .unit = u, .other = v };
		s->found = true;
	}
}

/* @u before the unit at position @k (@k == n: last) */
static void fa_search__move(struct fa_search *s, int u, int k)
{
	int from = fa_search__pos(s, u), to = k > from ? k - 1 : k;

	if (k == from || k == from + 1)
		return;
	fa_search__start(s);
	memmove(&s->cand[from], &s->cand[from + 1], (s->n - from - 1) * sizeof(int));
	memmove(&s->cand[to + 1], &s->cand[to], (s->n - to - 1) * sizeof(int));
	s->cand[to] = u;
	fa_search__try(s, FA_EDIT_MOVE, u, k < s->n ? s->order[k] : -1);
}

/* The hot units, hottest first */
static void fa_search__moves(struct fa_search *s)
{
	/* a flexible array member stays last */
	int end = s->n - (s->n && s->st->units[s->order[s->n - 1]].flex);

	for (int h = s->n - 1; h >= 0 && s->work; h--) {
		int u = s->by_weight[h];

		if (!fa_search__hot(s, u))
			break;
		for (int k = 0; k <= end && s->work; k++) {
			if (k == end || fa_search__spot(s, k))
				fa_search__move(s, u, k);
		}
	}
}

static const struct fa_classes *weight_c;

static int unit_weight_cmp(const void *a, const void *b)
{
	double wa = weight_c->units[*(const int *)a].weight;
	double wb = weight_c->units[*(const int *)b].weight;

	if (wa != wb)
		return wa < wb ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/*
 * Each hot unit, hottest first, with the colder units, coldest first: of
 * two swaps the model cannot tell apart (the sampled code reads a field no
 * sample caught), the one that moves the colder unit wins.
 */
static void fa_search__swaps(struct fa_search *s)
{
	const int *by_weight = s->by_weight;

	for (int h = s->n - 1; h >= 0 && s->work; h--) {
		int u = by_weight[h], ku = fa_search__pos(s, u);

		if (!fa_search__hot(s, u))
			break;
		for (int i = 0; i < h && s->work; i++) {
			int v = by_weight[i], kv = fa_search__pos(s, v);

			if (s->st->units[v].flex || s->st->units[v].size != s->st->units[u].size)
				continue;
			fa_search__start(s);
			s->cand[ku] = v;
			s->cand[kv] = u;
			fa_search__try(s, FA_EDIT_SWAP, u, v);
		}
	}
}

static void fa_search__lines(struct fa_search *s)
{
	for (int k = 1; k < s->n; k++) {
		int u = s->order[k];

		if (s->ls[u] || !(s->now.offset[u] % s->now.line_size) || !fa_search__spot(s, k))
			continue;
		fa_search__start(s);
		s->cand_ls[u] = true;
		fa_search__try(s, FA_EDIT_LINE, u, -1);
	}
	for (int k = 0; k < s->n; k++) {
		int u = s->order[k];

		if (!fa_search__hot(s, u))
			continue;
		fa_search__start(s);
		s->cand_ls[u] = true;
		if (k + 1 < s->n)
			s->cand_ls[s->order[k + 1]] = true;
		fa_search__try(s, FA_EDIT_ISOLATE, u, -1);
	}
}

static void fa_search__exit(struct fa_search *s)
{
	zfree(&s->order);
	zfree(&s->ls);
	zfree(&s->cand);
	zfree(&s->cand_ls);
	zfree(&s->by_weight);
	zfree(&s->pos);
	fa_layout__exit(&s->now);
	fa_layout__exit(&s->l);
}

static int fa_search__init(struct fa_search *s, const struct fa_judge *j,
			   const struct fa_classes *c)
{
	const struct fa_layout *cur = j->cur;
	int n = cur->nr_units;

	memset(s, 0, sizeof(*s));
	s->j = j;
	s->c = c;
	s->st = j->st;
	s->n = n;
	s->work = FA_EDIT_WORK;
	s->order = calloc(n + 1, sizeof(*s->order));
	s->cand = calloc(n + 1, sizeof(*s->cand));
	s->ls = calloc(n + 1, sizeof(*s->ls));
	s->cand_ls = calloc(n + 1, sizeof(*s->cand_ls));
	s->by_weight = calloc(n + 1, sizeof(*s->by_weight));
	s->pos = calloc(n + 1, sizeof(*s->pos));
	if (!s->order || !s->cand || !s->ls || !s->cand_ls || !s->by_weight || !s->pos ||
	    fa_layout__from_order(&s->now, s->st, cur->order, NULL, cur->line_size) ||
	    fa_layout__copy(&s->l, &s->now)) {
		fa_search__exit(s);
		return -ENOMEM;
	}
	memcpy(s->order, cur->order, n * sizeof(*s->order));
	for (int k = 0; k < n; k++)
		s->pos[s->order[k]] = k;
	for (int u = 0; u < n; u++)
		s->by_weight[u] = u;
	weight_c = c;
	qsort(s->by_weight, n, sizeof(int), unit_weight_cmp);
	return 0;
}

/* The position of unit @u in @order, of @n units; @n if it is not there */
int fa_order__pos(const int *order, int n, int u)
{
	for (int k = 0; k < n; k++) {
		if (order[k] == u)
			return k;
	}
	return n;
}

/**
 * fa_edit__apply - Make an edit of a layout's unit order and line starts
 * @order: The units by offset, @n of them
 * @ls: Units that start a cache line
 */
void fa_edit__apply(const struct fa_edit *e, int *order, bool *ls, int n)
{
	int k = fa_order__pos(order, n, e->unit), to;

	if (k == n)
		return;
	switch (e->op) {
	case FA_EDIT_MOVE:
		to = e->other < 0 ? n : fa_order__pos(order, n, e->other);
		memmove(&order[k], &order[k + 1], (n - k - 1) * sizeof(*order));
		to -= to > k;
		memmove(&order[to + 1], &order[to], (n - to - 1) * sizeof(*order));
		order[to] = e->unit;
		break;
	case FA_EDIT_SWAP:
		to = fa_order__pos(order, n, e->other);
		if (to == n)
			return;
		order[to] = e->unit;
		order[k] = e->other;
		break;
	case FA_EDIT_ISOLATE:
		if (k + 1 < n)
			ls[order[k + 1]] = true;
		/* fall through */
	case FA_EDIT_LINE:
	default:
		ls[e->unit] = true;
		break;
	}
}

static void fa_search__apply(struct fa_search *s, const struct fa_edit *e)
{
	fa_edit__apply(e, s->order, s->ls, s->n);
	fa_search__update(s);
}

/**
 * fa_edits__layout - The layout edits make of the recorded one
 * @e: The edits, in the order to make them
 * @out: Result
 *
 * -EINVAL when the struct is not laid out as a compiler lays out its
 * members (packed, padding the DWARF does not show): the edited C would
 * not be what the layout says.
 */
int fa_edits__layout(const struct fa_edits *e, const struct fa_struct *st,
		     const struct fa_layout *cur, struct fa_layout *out)
{
	int n = cur->nr_units, err = -ENOMEM;
	int *order = calloc(n + 1, sizeof(*order));
	bool *ls = calloc(n + 1, sizeof(*ls));

	if (!order || !ls)
		goto out;
	err = fa_layout__from_order(out, st, cur->order, NULL, cur->line_size);
	if (err)
		goto out;
	if (!fa_layout__same(out, cur) || out->size != cur->size) {
		fa_layout__exit(out);
		err = -EINVAL;
		goto out;
	}
	memcpy(order, cur->order, n * sizeof(*order));
	for (int i = 0; i < e->nr; i++)
		fa_edit__apply(&e->edit[i], order, ls, n);
	fa_layout__set_order(out, st, order, ls);
out:
	free(order);
	free(ls);
	return err;
}

/**
 * fa_edits__search - The smallest edit of the recorded layout (see edit.h)
 * @e: The edits, in the order to make them
 * @out: The layout they make: the recorded one when no edit is worth it
 *
 * Only for a struct laid out as its C says (no packing, no padding members
 * the DWARF does not show): the edited layout is what a compiler makes of
 * the edited C.
 */
int fa_edits__search(struct fa_edits *e, struct fa_layout *out, const struct fa_judge *j,
		     const struct fa_classes *c)
{
	struct fa_search s;
	double cost = j->cost0;
	int err;

	memset(e, 0, sizeof(*e));
	if (fa_search__init(&s, j, c))
		return -ENOMEM;
	if (!fa_layout__same(&s.now, j->cur) || s.now.size != j->cur->size) {
		pr_debug("%s: not laid out as a compiler would lay out its members: no edits\n",
			 j->st->name);
		goto out;
	}
	while (e->nr < FA_EDITS_MAX && s.work) {
		s.best = cost - FA_MIN_GAIN * j->cost0;
		s.found = false;
		fa_search__moves(&s);
		fa_search__swaps(&s);
		if (!j->moves_only)
			fa_search__lines(&s);
		if (!s.found)
			break;
		fa_search__apply(&s, &s.best_edit);
		e->edit[e->nr++] = s.best_edit;
		cost = s.best;
	}
	e->cut = !s.work;
out:
	if (e->nr)
		err = fa_layout__from_order(out, j->st, s.order, s.ls, j->cur->line_size);
	else
		err = fa_layout__copy(out, j->cur);
	fa_search__exit(&s);
	return err;
}

/* The edits start a cache line somewhere: they pad */
bool fa_edits__pad(const struct fa_edits *e)
{
	for (int i = 0; i < e->nr; i++) {
		if (e->edit[i].op == FA_EDIT_LINE || e->edit[i].op == FA_EDIT_ISOLATE)
			return true;
	}
	return false;
}

/* A unit of several bitfields by its first and last: "a..c" */
static const char *fa_edit__unit_name(const struct fa_struct *st, int u, char *buf, size_t size)
{
	const struct fa_unit *unit = &st->units[u];

	if (unit->nr_fields == 1)
		return fa_unit__name(st, u);
	scnprintf(buf, size, "%s..%s", fa_unit__name(st, u),
		  st->fields[unit->field + unit->nr_fields - 1].name);
	return buf;
}

/* The edit in words: "swap a and b" */
int fa_edit__snprintf(const struct fa_edit *e, const struct fa_struct *st, char *buf,
		      size_t size)
{
	char ubuf[2 * FA_FIELD_NAME_MAX], vbuf[2 * FA_FIELD_NAME_MAX];
	const char *u = fa_edit__unit_name(st, e->unit, ubuf, sizeof(ubuf));
	const char *v = e->other >= 0 ? fa_edit__unit_name(st, e->other, vbuf, sizeof(vbuf)) :
					NULL;

	switch (e->op) {
	case FA_EDIT_MOVE:
		if (v)
			return scnprintf(buf, size, "move %s before %s", u, v);
		return scnprintf(buf, size, "move %s to the end", u);
	case FA_EDIT_SWAP:
		return scnprintf(buf, size, "swap %s and %s", u, v);
	case FA_EDIT_LINE:
		return scnprintf(buf, size, "start a cache line at %s (align it)", u);
	case FA_EDIT_ISOLATE:
	default:
		return scnprintf(buf, size, "give %s a cache line of its own", u);
	}
}
