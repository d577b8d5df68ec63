// SPDX-License-Identifier: GPL-2.0
/*
 * What-if: a proposed layout in the advice's words, scored as the advice
 * is (see try.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "try.h"
#include "../accumulate/exact.h"
#include "../accumulate/type.h"
#include "../fields/fields.h"

#define FA_TRY_WORDS	12	/* the longest edit has 8 */
#define FA_TRY_WORDS_HELP \
	"move X to the end|to the start|before Y|after Y, swap X and Y, start a cache line at X, give X a cache line of its own, pad X to a line, align the struct to N"

/* A clause of --try being read, and the layout its edits make so far */
struct fa_try_parse {
	struct fa_try		*tr;
	const struct fa_struct	*st;		/* NULL: the words only */
	int			*order;
	bool			*ls;
	int			 n;
	char			*w[FA_TRY_WORDS];
	int			 nw;
	char			*msg;
	size_t			 size;
};

static bool fa_try_parse__is(const struct fa_try_parse *p, int i, const char *word)
{
	return i < p->nw && !strcmp(p->w[i], word);
}

/* Words @from.. are @words (space separated): the index after them, or -1 */
static int fa_try_parse__match(const struct fa_try_parse *p, int from, const char *words)
{
	int i = from;

	while (*words) {
		size_t len = strcspn(words, " ");

		if (i >= p->nw || strlen(p->w[i]) != len || strncmp(p->w[i], words, len))
			return -1;
		i++;
		words += len + !!words[len];
	}
	return i;
}

/* Words @from.. are @words, and nothing after them */
static bool fa_try_parse__tail(const struct fa_try_parse *p, int from, const char *words)
{
	return fa_try_parse__match(p, from, words) == p->nw;
}

/* A unit by the name of one of its members ("a..c": a unit of bitfields) */
static int fa_try_parse__unit(struct fa_try_parse *p, int i)
{
	const struct fa_struct *st = p->st;
	const char *name;
	size_t len;

	if (i >= p->nw) {
		scnprintf(p->msg, p->size, "a member's name is missing");
		return -EINVAL;
	}
	if (!st)
		return 0;
	name = p->w[i];
	/* "a..c" as the advice names a unit of bitfields: by its first */
	len = strstr(name, "..") ? (size_t)(strstr(name, "..") - name) : strlen(name);
	for (int u = 0; u < st->nr_units; u++) {
		const struct fa_unit *unit = &st->units[u];

		if (!strcmp(fa_unit__name(st, u), name))
			return u;
		for (int f = unit->field; f < unit->field + unit->nr_fields; f++) {
			const char *fn = st->fields[f].name;

			if (strlen(fn) == len && !strncmp(fn, name, len))
				return u;
		}
	}
	scnprintf(p->msg, p->size, "no member '%s' in %s", name, fa_struct__printed_name(st));
	return -ENOENT;
}

/* 'move X to the end | to the start | before Y | after Y' */
static int fa_try_parse__move(struct fa_try_parse *p, struct fa_edit *e)
{
	int y, k;

	e->op = FA_EDIT_MOVE;
	e->other = -1;
	if (fa_try_parse__tail(p, 2, "to the end"))
		return 0;
	if (fa_try_parse__tail(p, 2, "to the start") || fa_try_parse__tail(p, 2, "to the front")) {
		e->other = p->st ? p->order[0] : 0;
		return 0;
	}
	if (p->nw != 4 || (!fa_try_parse__is(p, 2, "before") && !fa_try_parse__is(p, 2, "after")))
		return -EINVAL;
	y = fa_try_parse__unit(p, 3);
	if (y < 0 || !p->st || fa_try_parse__is(p, 2, "before")) {
		e->other = y;
		return min(y, 0);
	}
	/* after Y: before what follows Y now, or last */
	k = fa_order__pos(p->order, p->n, y) + 1;
	e->other = k < p->n ? p->order[k] : -1;
	if (e->other == e->unit)
		e->other = k + 1 < p->n ? p->order[k + 1] : -1;
	return 0;
}

/* 'align the struct to N', 'align the struct to the N byte cache line' */
static int fa_try_parse__align(struct fa_try_parse *p)
{
	char *end;
	long n;

	if (!fa_try_parse__is(p, 1, "the") || !fa_try_parse__is(p, 2, "struct") ||
	    !fa_try_parse__is(p, 3, "to"))
		return -EINVAL;
	for (int i = 4; i < p->nw; i++) {
		n = strtol(p->w[i], &end, 0);
		if (end == p->w[i] || *end)
			continue;
		if (n <= 0 || n > 4096 || (n & (n - 1))) {
			scnprintf(p->msg, p->size, "'%s' is no alignment: a power of two up to 4096",
				  p->w[i]);
			return -ERANGE;
		}
		p->tr->align = max(p->tr->align, (u32)n);
		return 0;
	}
	return -EINVAL;
}

/* One edit of the words, made of the layout so far */
static int fa_try_parse__edit(struct fa_try_parse *p)
{
	struct fa_edits *edits = &p->tr->edits;
	struct fa_edit e = { .other = -1 };
	int err = -EINVAL;

	if (fa_try_parse__is(p, 0, "align"))
		return fa_try_parse__align(p);
	if (edits->nr == FA_EDITS_MAX) {
		scnprintf(p->msg, p->size, "more than %d edits", FA_EDITS_MAX);
		return -E2BIG;
	}
	/* the advice prints 'start a cache line at X (align it)' */
	if (fa_try_parse__tail(p, 6, "(align it)"))
		p->nw = 6;
	if (fa_try_parse__match(p, 0, "start a cache line at") == 5 && p->nw == 6) {
		e.op = FA_EDIT_LINE;
		err = e.unit = fa_try_parse__unit(p, 5);
	} else if (fa_try_parse__is(p, 0, "give") &&
		   fa_try_parse__tail(p, 2, "a cache line of its own")) {
		e.op = FA_EDIT_ISOLATE;
		err = e.unit = fa_try_parse__unit(p, 1);
	} else if (fa_try_parse__is(p, 0, "pad") &&
		   (fa_try_parse__tail(p, 2, "to a line") ||
		    fa_try_parse__tail(p, 2, "to a cache line"))) {
		e.op = FA_EDIT_ISOLATE;
		err = e.unit = fa_try_parse__unit(p, 1);
	} else if (fa_try_parse__is(p, 0, "swap") && p->nw == 4 && fa_try_parse__is(p, 2, "and")) {
		e.op = FA_EDIT_SWAP;
		err = e.unit = fa_try_parse__unit(p, 1);
		if (err >= 0)
			err = e.other = fa_try_parse__unit(p, 3);
	} else if (fa_try_parse__is(p, 0, "move") && p->nw >= 4) {
		err = e.unit = fa_try_parse__unit(p, 1);
		if (err >= 0)
			err = fa_try_parse__move(p, &e);
	}
	if (err < 0)
		return err;
	edits->edit[edits->nr++] = e;
	if (p->st)
		fa_edit__apply(&e, p->order, p->ls, p->n);
	return 0;
}

/* Split @clause into words, then read them */
static int fa_try_parse__clause(struct fa_try_parse *p, char *clause)
{
	char *save = NULL, *s;
	int err;

	p->nw = 0;
	for (s = strtok_r(clause, " \t\n", &save); s; s = strtok_r(NULL, " \t\n", &save)) {
		if (p->nw == FA_TRY_WORDS)
			break;
		p->w[p->nw++] = s;
	}
	if (!p->nw)
		return 0;
	err = fa_try_parse__edit(p);
	if (err == -EINVAL && !p->msg[0]) {
		int n = scnprintf(p->msg, p->size, "'");

		for (int i = 0; i < p->nw; i++)
			n += scnprintf(p->msg + n, p->size - n, "%s%s", i ? " " : "", p->w[i]);
		scnprintf(p->msg + n, p->size - n, "' not understood: %s", FA_TRY_WORDS_HELP);
	}
	return err;
}

/**
 * fa_try__parse - The edits of @text, of the struct @st laid out as @cur
 * @st: NULL: the words only, whatever the struct
 * @msg: What is wrong, if anything: -ENOENT when a member is not of @st
 */
int fa_try__parse(struct fa_try *tr, const struct fa_struct *st, const struct fa_layout *cur,
		  const char *text, char *msg, size_t size)
{
	struct fa_try_parse p = { .tr = tr, .st = st, .msg = msg, .size = size, };
	char *copy = strdup(text), *save = NULL, *clause;
	int err = -ENOMEM;

	memset(tr, 0, sizeof(*tr));
	tr->text = text;
	msg[0] = '\0';
	if (st) {
		p.n = cur->nr_units;
		p.order = calloc(p.n + 1, sizeof(*p.order));
		p.ls = calloc(p.n + 1, sizeof(*p.ls));
		if (p.order)
			memcpy(p.order, cur->order, p.n * sizeof(*p.order));
	}
	if (!copy || (st && (!p.order || !p.ls)))
		goto out;
	err = 0;
	for (clause = strtok_r(copy, ";", &save); clause && !err;
	     clause = strtok_r(NULL, ";", &save))
		err = fa_try_parse__clause(&p, clause);
	if (!err && !tr->edits.nr && !tr->align) {
		scnprintf(msg, size, "no edit");
		err = -EINVAL;
	}
out:
	free(copy);
	free(p.order);
	free(p.ls);
	return err;
}

/* Whether --try's @text is made of edits, whatever the struct; @msg: what is wrong */
int fa_try__syntax(const char *text, char *msg, size_t size)
{
	struct fa_try tr;

	return fa_try__parse(&tr, NULL, NULL, text, msg, size);
}

/* The model's cost of @l and its saving from the current layout, with intervals */
static void fa_try__model(struct fa_try *tr, const struct fa_analysis *an)
{
	const struct fa_cost_model *m = &an->cost.model;
	struct fa_boot_sum then;
	double cur = an->cost.now.model.total, cost;

	cost = fa_cost_model__eval(m, &tr->layout, &tr->cost.model);
	if (!fa_cost_model__has_groups(m)) {
		tr->cost.cost_ci = (struct fa_interval){ .est = cost, .lo = cost, .hi = cost, };
		tr->gain_ci.est = tr->gain_ci.lo = tr->gain_ci.hi = cur > 0 ? 1 - cost / cur : 0;
		return;
	}
	/* the current layout's, by group: what fa_analysis__intervals() measured */
	fa_cost_model__eval_groups(m, &tr->layout, &then, NULL);
	fa_boot__ratio(&then, &m->nr_by_group, &tr->cost.cost_ci);
	fa_boot__saving(&an->seen.measured.cost, &then, &tr->gain_ci);
}

/**
 * fa_try__score - Score the parsed edits of @tr as the advice is scored
 * @t: The struct type
 * @an: Its analysis (fa_analysis__run())
 *
 * -EINVAL when the struct is not laid out as its members say (packed):
 * the edits cannot be made of it.
 */
int fa_try__score(struct fa_try *tr, const struct fa_type *t, const struct fa_analysis *an)
{
	const struct fa_exact_lines *xl = t->counts.exact_lines;
	struct fa_judge j;
	u32 line = t->cfg.line_size;
	enum fa_bases bases = FA_BASES_RECORDED;
	struct fa_boot_sum replay;
	int err;

	err = fa_edits__layout(&tr->edits, t->st, &an->seen.current, &tr->layout);
	if (err)
		return err;
	if (tr->align > tr->layout.align) {
		tr->layout.align = tr->align;
		tr->layout.size = roundup(tr->layout.size, tr->align);
	}
	/* as the advice: an aligned struct's instances where the alignment puts them */
	if (tr->align >= line)
		bases = FA_BASES_SPREAD;
	else if (tr->layout.align >= line)
		bases = FA_BASES_LINE_START;
	fa_try__model(tr, an);
	if (fa_cost__replay(t, &tr->layout, bases, an->cost.xfer_cost, &tr->cost.replay, &replay))
		return -ENOMEM;
	fa_boot__saving(&an->cost.now.replay_groups, &replay, &tr->replay_gain_ci);
	if (xl && xl->nr_hits &&
	    fa_exact_lines__replay(xl, t->st, &tr->layout, tr->layout.align >= line, &tr->watched))
		return -ENOMEM;
	if (an->cost.now.visit_lines > 0)
		tr->cost.visit_lines = fa_analysis__visit_lines(an, t, &tr->layout);
	fa_analysis__judge(an, t, &j);
	tr->judged = fa_judge__cost(&j, &tr->layout);
	tr->moved = fa_layout__moved(&an->seen.current, &tr->layout);
	tr->breaks = !fa_keep__allows(&an->advice.keep, &an->seen.current, &tr->layout);
	return 0;
}
