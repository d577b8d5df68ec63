// SPDX-License-Identifier: GPL-2.0
/* The cost of a layout for the recorded accesses (see cost.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "../layout/classify.h"
#include "cost.h"
#include "../fields/fields.h"
#include "../decode/key.h"
#include "../layout/layout.h"
#include "../accumulate/matrix.h"
#include "../accumulate/type.h"
#include "../../hashmap.h"

static size_t fa_sets__nr_units(struct hashmap *map)
{
	struct hashmap_entry *cur;
	size_t bkt, n = 0;

	hashmap__for_each_entry(map, cur, bkt) {
		const struct fa_set *set = cur->pvalue;

		n += set->nr + set->nr_w;
	}
	return n;
}

static void fa_cost_model__add(struct fa_cost_model *m, struct hashmap *map, size_t *nr_units)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(map, cur, bkt) {
		const struct fa_set *set = cur->pvalue;
		struct fa_cost_set *cs = &m->sets[m->nr_sets++];

		cs->count = set->count;
		cs->nr = set->nr;
		cs->nr_w = set->nr_w;
		cs->first = *nr_units;
		cs->group = set->group;
		memcpy(m->units + *nr_units, set->units, (set->nr + set->nr_w) * sizeof(u16));
		*nr_units += set->nr + set->nr_w;
	}
}

/**
 * fa_cost_model__init - Compile the window (or visit) and move sets of @t to
 * evaluate layouts with
 * @visits: Count the lines of the sampled functions' visits (code context),
 *          not of the windows of samples
 */
int fa_cost_model__init(struct fa_cost_model *m, const struct fa_type *t, double xfer_cost,
			bool visits)
{
	struct hashmap *sets = visits ? t->sets.visits : t->sets.windows;
	size_t nr_units = fa_sets__nr_units(sets) + fa_sets__nr_units(t->sets.moves);

	memset(m, 0, sizeof(*m));
	m->t = t;
	m->xfer_cost = xfer_cost;
	m->per_visit = visits;
	m->nr_windows = visits ? t->sets.nr_visits : t->win.nr;
	m->nr_by_group = visits ? t->sets.visits_by_group : t->win.nr_by_group;
	m->sets = calloc(hashmap__size(sets) + hashmap__size(t->sets.moves) + 1, sizeof(*m->sets));
	m->units = calloc(nr_units + 1, sizeof(*m->units));
	if (!m->sets || !m->units) {
		fa_cost_model__exit(m);
		return -ENOMEM;
	}
	nr_units = 0;
	fa_cost_model__add(m, sets, &nr_units);
	m->nr_window_sets = m->nr_sets;
	fa_cost_model__add(m, t->sets.moves, &nr_units);
	return 0;
}

/* Take from the classes of the type which units move whatever the layout */
int fa_cost_model__set_moving(struct fa_cost_model *m, const struct fa_classes *c)
{
	zfree(&m->moving);
	m->moving = calloc(c->nr_units ?: 1, sizeof(*m->moving));
	if (!m->moving)
		return -ENOMEM;
	for (int u = 0; u < c->nr_units; u++)
		m->moving[u] = c->units[u].moving;
	return 0;
}

void fa_cost_model__exit(struct fa_cost_model *m)
{
	zfree(&m->sets);
	zfree(&m->units);
	zfree(&m->moving);
}

/* Distinct cache lines of @nr units, into @lines; returns how many. */
static int fa_units__lines(const u32 *line_of, const u16 *units, int nr, u32 *lines)
{
	int n = 0;

	for (int k = 0; k < nr; k++) {
		u32 line = line_of[units[k]];
		int i;

		for (i = 0; i < n && lines[i] != line; i++)
			;
		if (i == n)
			lines[n++] = line;
	}
	return n;
}

/*
 * Whether the unit of a move set shares a line with a unit written before
 * it; an access nothing was written before (the visits' denominator) never
 */
static bool fa_cost_set__moves(const struct fa_cost_model *m, const struct fa_cost_set *set,
			       const u32 *line_of)
{
	u32 line = line_of[m->units[set->first]];

	if (!set->nr_w)
		return false;
	if (m->moving && m->moving[m->units[set->first]])
		return true;
	for (int k = 1; k <= set->nr_w; k++) {
		if (line_of[m->units[set->first + k]] == line)
			return true;
	}
	return false;
}

/**
 * fa_cost__replay_contradicts - Whether the replay of the accesses says a
 * layout the model suggests costs more than the current one
 * @now: The replay's cost of the current layout
 * @then: and of the suggested
 *
 * Return: true when the suggested costs FA_MIN_GAIN more, and the replay
 * had accesses to tell.
 */
bool fa_cost__replay_contradicts(const struct fa_cost *now, const struct fa_cost *then)
{
	return now->accesses && then->total > now->total * (1 + FA_MIN_GAIN);
}

/* Units a visit estimate keeps on the stack: a larger struct is estimated per access */
#define FA_VISIT_UNITS	1024

/*
 * Of the sampled accesses to each unit, how many (@seen) and how many
 * found its line moved with @line_of (@moved); false for a struct of more
 * units than FA_VISIT_UNITS
 */
static bool fa_cost_model__moved_units(const struct fa_cost_model *m, const u32 *line_of,
				       double *seen, double *moved)
{
	int nr = m->t->st->nr_units;

	if (!m->per_visit || nr > FA_VISIT_UNITS)
		return false;
	memset(seen, 0, nr * sizeof(*seen));
	memset(moved, 0, nr * sizeof(*moved));
	for (int s = m->nr_window_sets; s < m->nr_sets; s++) {
		const struct fa_cost_set *set = &m->sets[s];
		u16 u = m->units[set->first];

		seen[u] += set->count;
		if (fa_cost_set__moves(m, set, line_of))
			moved[u] += set->count;
	}
	return true;
}

/*
 * The transfers of a visit of the sampled code (fa_cost_model::per_visit):
 * it accesses each of its units, and each access moves its line as often
 * as the sampled accesses to that unit found the line moved.  Sparse time
 * samples catch a few of a visit's accesses, most of them to other data:
 * the moves counted per access sampled, over the visits, are that much
 * fewer than those of the visits (rigtorp/MPMCQueue's head_ and tail_: 0.08
 * a visit against 0.36).  A unit the visit reads beside a counter others
 * write moves the line again after the visit's own write to the counter
 * (dst_entry's lwtstate beside __refcnt).
 */
static double fa_cost_set__visit_xfers(const struct fa_cost_model *m,
				       const struct fa_cost_set *set,
				       const double *seen, const double *moved)
{
	const u16 *units = m->units + set->first;
	double xfers = 0;

	for (int i = 0; i < set->nr; i++) {
		if (seen[units[i]])
			xfers += moved[units[i]] / seen[units[i]];
	}
	return xfers;
}

/**
 * fa_cost_model__eval_lines - The cost of the layout that puts unit u on
 * cache line @line_of[u]
 * @cost: Result details, may be NULL
 *
 * Lines: the distinct lines of the units every window touched in every
 * instance.  Transfers: the accesses whose line holds a unit another CPU
 * wrote since their CPU last touched the instance.
 *
 * Return: the total cost (lower is better).
 */
double fa_cost_model__eval_lines(const struct fa_cost_model *m, const u32 *line_of,
				 struct fa_cost *cost)
{
	struct fa_cost c = { .windows = m->nr_windows, .accesses = m->t->counts.nr_accesses, };
	double lines = 0, xfers = 0, seen[FA_VISIT_UNITS], moved[FA_VISIT_UNITS];
	u32 touched[FA_MAX_WINDOW];
	bool visits;

	for (int s = 0; s < m->nr_window_sets; s++) {
		const struct fa_cost_set *set = &m->sets[s];

		lines += set->count * fa_units__lines(line_of, m->units + set->first,
							      set->nr, touched);
	}
	visits = fa_cost_model__moved_units(m, line_of, seen, moved);
	for (int s = 0; visits && s < m->nr_window_sets; s++)
		xfers += m->sets[s].count *
			 fa_cost_set__visit_xfers(m, &m->sets[s], seen, moved);
	for (int s = m->nr_window_sets; !visits && s < m->nr_sets; s++) {
		if (fa_cost_set__moves(m, &m->sets[s], line_of))
			xfers += m->sets[s].count;
	}
	if (m->nr_windows) {
		c.lines_per_window = lines / m->nr_windows;
		c.xfers_per_window = xfers / m->nr_windows;
	}
	if (c.accesses)
		c.xfers_per_kacc = 1000.0 * xfers / c.accesses;
	c.total = c.lines_per_window + m->xfer_cost * c.xfers_per_window;
	if (cost)
		*cost = c;
	return c.total;
}

/* The cache line of each unit of @l, into @line_of */
static void fa_layout__lines_of(const struct fa_layout *l, u32 *line_of)
{
	for (int u = 0; u < l->nr_units; u++)
		line_of[u] = l->offset[u] / l->line_size;
}

/* Whether the sets know their groups: the model's costs have intervals */
bool fa_cost_model__has_groups(const struct fa_cost_model *m)
{
	return m->nr_sets && m->sets[0].group && fa_boot_sum__total(&m->nr_by_group) > 0;
}

/*
 * The cost of the layout that puts unit u on line @line_of[u], by group of
 * the bootstrap (boot.h): lines and weighed transfers, over
 * fa_cost_model::nr_by_group a cost per window (visit)
 * @lines: Of that, the lines, may be NULL
 */
void fa_cost_model__eval_groups_lines(const struct fa_cost_model *m, const u32 *line_of,
				      struct fa_boot_sum *cost, struct fa_boot_sum *lines)
{
	double seen[FA_VISIT_UNITS], moved[FA_VISIT_UNITS];
	u32 touched[FA_MAX_WINDOW];
	bool visits;

	memset(cost, 0, sizeof(*cost));
	if (lines)
		memset(lines, 0, sizeof(*lines));
	if (!fa_cost_model__has_groups(m))
		return;
	visits = fa_cost_model__moved_units(m, line_of, seen, moved);
	/* the visits' transfers are their own: no move set is counted */
	for (int s = 0; s < (visits ? m->nr_window_sets : m->nr_sets); s++) {
		const struct fa_cost_set *set = &m->sets[s];
		bool window = s < m->nr_window_sets;
		double c, x = 0;

		if (window)
			c = fa_units__lines(line_of, m->units + set->first, set->nr, touched);
		else
			c = fa_cost_set__moves(m, set, line_of) ? m->xfer_cost : 0;
		/* a visit's transfers go with its group, as its lines do */
		if (window && visits)
			x = m->xfer_cost * fa_cost_set__visit_xfers(m, set, seen, moved);
		for (int g = 0; x && g < FA_BOOT_GROUPS; g++)
			cost->g[g] += x * set->group[g];
		for (int g = 0; c && g < FA_BOOT_GROUPS; g++)
			cost->g[g] += c * set->group[g];
		for (int g = 0; c && window && lines && g < FA_BOOT_GROUPS; g++)
			lines->g[g] += c * set->group[g];
	}
}

/* Whether unit @u is among the @nr units of a set */
static bool fa_units__has(const u16 *units, int nr, u16 u)
{
	for (int k = 0; k < nr; k++) {
		if (units[k] == u)
			return true;
	}
	return false;
}

/**
 * fa_cost_model__together - The share of the windows (or visits) that
 * touched both units @u and @v, with its interval (boot.h)
 *
 * Return: false when the sets do not know their groups.
 */
bool fa_cost_model__together(const struct fa_cost_model *m, u16 u, u16 v,
			     struct fa_interval *ci)
{
	struct fa_boot_sum both = { };

	if (!fa_cost_model__has_groups(m))
		return false;
	for (int s = 0; s < m->nr_window_sets; s++) {
		const struct fa_cost_set *set = &m->sets[s];
		const u16 *units = m->units + set->first;

		if (!fa_units__has(units, set->nr, u) || !fa_units__has(units, set->nr, v))
			continue;
		for (int g = 0; g < FA_BOOT_GROUPS; g++)
			both.g[g] += set->group[g];
	}
	fa_boot__ratio(&both, &m->nr_by_group, ci);
	return true;
}

/* fa_cost_model__eval_groups_lines() of layout @l */
void fa_cost_model__eval_groups(const struct fa_cost_model *m, const struct fa_layout *l,
				struct fa_boot_sum *cost, struct fa_boot_sum *lines)
{
	u32 line_of[l->nr_units + 1];

	fa_layout__lines_of(l, line_of);
	fa_cost_model__eval_groups_lines(m, line_of, cost, lines);
}

/**
 * fa_cost_model__lines_at - Lines per window (or visit) of layout @l with the
 * instances where they were: @phases[p] instances start p bytes into a line
 *
 * The model takes every instance to start a line; an instance that does
 * not can have a group of fields that fits a line straddle two.
 */
double fa_cost_model__lines_at(const struct fa_cost_model *m, const struct fa_layout *l,
			       const u64 *phases)
{
	double lines = 0, count = 0;
	u64 nr_phases = 0;

	for (u32 p = 0; p < l->line_size; p++)
		nr_phases += phases[p];
	for (int s = 0; s < m->nr_window_sets && nr_phases; s++) {
		const struct fa_cost_set *set = &m->sets[s];
		u32 line_of[l->nr_units + 1], touched[FA_MAX_WINDOW];

		for (u32 p = 0; p < l->line_size; p++) {
			if (!phases[p])
				continue;
			for (int k = 0; k < set->nr; k++) {
				u16 u = m->units[set->first + k];

				line_of[u] = (p + l->offset[u]) / l->line_size;
			}
			lines += set->count * phases[p] *
				 fa_units__lines(line_of, m->units + set->first, set->nr, touched);
		}
		count += set->count * nr_phases;
	}
	return count ? lines / count : 0;
}

/* The share of the windows (or visits) touching each unit, into @share */
void fa_cost_model__shares(const struct fa_cost_model *m, int nr_units, double *share)
{
	double total = 0;

	memset(share, 0, nr_units * sizeof(*share));
	for (int s = 0; s < m->nr_window_sets; s++) {
		const struct fa_cost_set *set = &m->sets[s];

		total += set->count;
		for (int k = 0; k < set->nr; k++)
			share[m->units[set->first + k]] += set->count;
	}
	for (int u = 0; total && u < nr_units; u++)
		share[u] /= total;
}

/* The share of the windows (or visits) touching any of the @units */
double fa_cost_model__share_any(const struct fa_cost_model *m, const bool *units)
{
	double total = 0, any = 0;

	for (int s = 0; s < m->nr_window_sets; s++) {
		const struct fa_cost_set *set = &m->sets[s];
		int k;

		total += set->count;
		for (k = 0; k < set->nr && !units[m->units[set->first + k]]; k++)
			;
		if (k < set->nr)
			any += set->count;
	}
	return total ? any / total : 0;
}

/* The cost of layout @l (see fa_cost_model__eval_lines()) */
double fa_cost_model__eval(const struct fa_cost_model *m, const struct fa_layout *l,
			   struct fa_cost *cost)
{
	u32 line_of[l->nr_units + 1];

	fa_layout__lines_of(l, line_of);
	return fa_cost_model__eval_lines(m, line_of, cost);
}

/**
 * fa_cost_model__moves_by_unit - The model's transfers of layout @l by the
 * unit whose access moves the line, into @by_unit (l->nr_units)
 */
void fa_cost_model__moves_by_unit(const struct fa_cost_model *m, const struct fa_layout *l,
				  double *by_unit)
{
	u32 line_of[l->nr_units + 1];

	fa_layout__lines_of(l, line_of);
	memset(by_unit, 0, l->nr_units * sizeof(*by_unit));
	for (int s = m->nr_window_sets; s < m->nr_sets; s++) {
		const struct fa_cost_set *set = &m->sets[s];

		if (fa_cost_set__moves(m, set, line_of))
			by_unit[m->units[set->first]] += set->count;
	}
}

/*
 * Replay
 */

#define FA_LINE_HOLDERS	8

/*
 * The owners of copies of a line: threads in user space, where a thread
 * that migrates still writes its own lines and a layout cannot save the
 * moves its migrations cause; CPUs in the kernel.
 */
struct fa_line_state {
	u64		line;		/* absolute cache line number: the key */
	s64		writer;		/* owner that wrote it last, -1 */
	bool		held;		/* by some owner in this chunk */
	int		nr_holders;
	u32		holders[FA_LINE_HOLDERS];	/* owners with a copy, oldest first */
};

struct fa_replay_window {
	u64	key;
	int	accesses;
	u64	start;
	int	nr_lines;
	u64	lines[FA_MAX_WINDOW];
};

struct fa_replayer {
	const struct fa_type	*t;
	const struct fa_layout	*l;
	enum fa_bases		 bases;
	u64			*spread;	/* FA_BASES_SPREAD: base by instance */
	struct hashmap		*lines;
	struct hashmap		*windows;
	/* recently used lines and windows: one compare instead of a lookup */
	struct fa_line_state	*line_cache[FA_CACHE_SIZE];
	struct fa_replay_window	*window_cache[FA_CACHE_SIZE];
	u64			 xfers;
	u64			 accesses;
	u64			 windows_done;
	u64			 lines_touched;
	struct fa_boot_sum	*by_group;	/* lines + xfer_cost x transfers, or NULL */
	double			 xfer_cost;
	struct fa_replay_detail	*detail;	/* or NULL */
};

static void fa_replayer__clear(struct hashmap *map)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(map, cur, bkt)
		free(cur->pvalue);
	hashmap__clear(map);
}

static void fa_replayer__end_window(struct fa_replayer *r, struct fa_replay_window *w)
{
	if (!w->accesses)
		return;
	r->windows_done++;
	r->lines_touched += w->nr_lines;
	if (r->by_group)
		r->by_group->g[fa_boot__group(w->start, r->t->cfg.boot_ns)] += w->nr_lines;
	if (r->detail)
		r->detail->windows.g[fa_boot__group(w->start, r->t->cfg.boot_ns)]++;
	w->accesses = 0;
	w->nr_lines = 0;
}

static int fa_replayer__window(struct fa_replayer *r, const struct fa_event *e, u64 line)
{
	const struct fa_config *cfg = &r->t->cfg;
	u64 key = fa_scope__of(cfg->scope, e->rec, e->cpu, e->tid, e->instance);
	struct fa_replay_window **slot = &r->window_cache[fa_cache__slot(key)], *w = *slot;
	int i;

	if (!w || w->key != key) {
		w = fa_u64_map__findnew(r->windows, key, sizeof(*w));
		if (!w)
			return -ENOMEM;
		*slot = w;
	}
	if (fa_window__full(cfg, w->start, w->accesses, e->time))
		fa_replayer__end_window(r, w);
	if (!w->accesses)
		w->start = e->time;
	w->accesses++;
	for (i = 0; i < w->nr_lines && w->lines[i] != line; i++)
		;
	if (i == w->nr_lines && w->nr_lines < FA_MAX_WINDOW)
		w->lines[w->nr_lines++] = line;
	return 0;
}

static bool fa_line_state__holds(const struct fa_line_state *ls, u32 owner)
{
	for (int i = 0; i < ls->nr_holders; i++) {
		if (ls->holders[i] == owner)
			return true;
	}
	return false;
}

/* @owner got a copy: with no room, the oldest copy is dropped */
static void fa_line_state__hold(struct fa_line_state *ls, u32 owner)
{
	if (fa_line_state__holds(ls, owner))
		return;
	if (ls->nr_holders == FA_LINE_HOLDERS) {
		memmove(ls->holders, ls->holders + 1, (FA_LINE_HOLDERS - 1) * sizeof(u32));
		ls->nr_holders--;
	}
	ls->holders[ls->nr_holders++] = owner;
}

static int fa_replayer__event(struct fa_replayer *r, const struct fa_event *e)
{
	const struct fa_type *t = r->t;
	u32 line_size = t->cfg.line_size;
	u64 base = t->replay.bases[e->instance], line;
	struct fa_line_state **slot, *ls;
	u32 owner = t->cfg.by_thread ? e->tid : e->cpu;
	bool store = e->op & (FA_OP_STORE | FA_EV_CODE_STORE);

	if (r->bases == FA_BASES_LINE_START)
		base -= base % line_size;
	else if (r->bases == FA_BASES_SPREAD)
		base = r->spread[e->instance];
	line = (base + fa_layout__field_offset(r->l, t->st, e->field)) / line_size;
	slot = &r->line_cache[fa_cache__slot(line)];
	ls = *slot;
	if (!ls || ls->line != line) {
		ls = fa_u64_map__findnew(r->lines, line, sizeof(*ls));
		if (!ls)
			return -ENOMEM;
		*slot = ls;
	}
	if (!ls->held) {		/* a line not seen in this chunk yet */
		ls->writer = -1;
		ls->held = true;
	}
	if (ls->writer >= 0 && ls->writer != owner && !fa_line_state__holds(ls, owner)) {
		r->xfers++;
		if (r->detail && r->detail->by_unit)
			r->detail->by_unit[t->st->fields[e->field].unit]++;
		if (r->detail)
			r->detail->xfers.g[fa_boot__group(e->time, t->cfg.boot_ns)]++;
		if (r->by_group)
			r->by_group->g[fa_boot__group(e->time, t->cfg.boot_ns)] += r->xfer_cost;
	}
	if (store) {
		ls->nr_holders = 0;
		ls->writer = owner;
	}
	fa_line_state__hold(ls, owner);
	r->accesses++;
	if (r->detail)
		r->detail->accesses.g[fa_boot__group(e->time, t->cfg.boot_ns)]++;
	return fa_replayer__window(r, e, line);
}

static int fa_spread__cmp(const void *a, const void *b, void *arg)
{
	const u64 *bases = arg;
	u64 ba = bases[*(const u32 *)a], bb = bases[*(const u32 *)b];

	return ba < bb ? -1 : ba > bb;
}

/*
 * Where the instances would be if each started a cache line of its own: in
 * the order of their addresses, one line aligned struct after the other,
 * so that instances sharing a line now share none.
 */
static u64 *fa_spread__new(const struct fa_replay *rp, const struct fa_layout *l)
{
	u64 stride = roundup(l->size ?: 1, l->line_size);
	u32 *order = calloc(rp->nr_bases, sizeof(*order));
	u64 *spread = calloc(rp->nr_bases, sizeof(*spread));

	if (!order || !spread) {
		free(order);
		zfree(&spread);
		return NULL;
	}
	for (u32 i = 0; i < rp->nr_bases; i++)
		order[i] = i;
	qsort_r(order, rp->nr_bases, sizeof(*order), fa_spread__cmp, rp->bases);
	for (u32 i = 0; i < rp->nr_bases; i++)
		spread[order[i]] = i * stride;
	free(order);
	return spread;
}

/**
 * fa_cost__replay - Replay the access sample of @t against layout @l
 * @bases: Where the instances are: as recorded, moved back to the start of
 *         their first line (a layout that relies on line boundaries makes
 *         the struct line aligned), or spread to lines of their own
 *
 * @by_group: If not NULL, the cost by group of the bootstrap (boot.h): the
 *            same windows whatever the layout, so two layouts' sums give
 *            the interval of the saving
 *
 * Every chunk of the sample starts with empty caches.
 */
int fa_cost__replay(const struct fa_type *t, const struct fa_layout *l, enum fa_bases bases,
		    double xfer_cost, struct fa_cost *cost, struct fa_boot_sum *by_group)
{
	return fa_cost__replay_detail(t, l, bases, xfer_cost, cost, by_group, NULL);
}

/*
 * fa_cost__replay() that also counts what @detail asks for: the transfers
 * by the unit whose access moved the line into @detail->by_unit
 * (l->nr_units, zeroed) if not NULL; transfers, accesses and windows by
 * group of the bootstrap
 */
int fa_cost__replay_detail(const struct fa_type *t, const struct fa_layout *l,
			   enum fa_bases bases, double xfer_cost, struct fa_cost *cost,
			   struct fa_boot_sum *by_group, struct fa_replay_detail *detail)
{
	const struct fa_replay *rp = &t->replay;
	struct fa_replayer r = { .t = t, .l = l, .bases = bases, .by_group = by_group,
				 .xfer_cost = xfer_cost, .detail = detail, };
	size_t n = min(rp->nr, rp->max);
	int err = -ENOMEM;

	if (by_group)
		memset(by_group, 0, sizeof(*by_group));
	if (detail) {
		memset(&detail->xfers, 0, sizeof(detail->xfers));
		memset(&detail->accesses, 0, sizeof(detail->accesses));
		memset(&detail->windows, 0, sizeof(detail->windows));
	}
	r.lines = fa_u64_map__new();
	r.windows = fa_u64_map__new();
	if (!r.lines || !r.windows)
		goto out;
	if (bases == FA_BASES_SPREAD && rp->nr_bases) {
		r.spread = fa_spread__new(rp, l);
		if (!r.spread)
			goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (i % rp->chunk == 0) {
			struct hashmap_entry *cur;
			size_t bkt;

			hashmap__for_each_entry(r.windows, cur, bkt)
				fa_replayer__end_window(&r, cur->pvalue);
			fa_replayer__clear(r.lines);
			fa_replayer__clear(r.windows);
			memset(r.line_cache, 0, sizeof(r.line_cache));
			memset(r.window_cache, 0, sizeof(r.window_cache));
		}
		if (fa_replayer__event(&r, &rp->events[i]))
			goto out;
	}
	{
		struct hashmap_entry *cur;
		size_t bkt;

		hashmap__for_each_entry(r.windows, cur, bkt)
			fa_replayer__end_window(&r, cur->pvalue);
	}
	memset(cost, 0, sizeof(*cost));
	cost->windows = r.windows_done;
	cost->accesses = r.accesses;
	if (r.windows_done) {
		cost->lines_per_window = (double)r.lines_touched / r.windows_done;
		cost->xfers_per_window = (double)r.xfers / r.windows_done;
	}
	if (r.accesses)
		cost->xfers_per_kacc = 1000.0 * r.xfers / r.accesses;
	cost->total = cost->lines_per_window + xfer_cost * cost->xfers_per_window;
	err = 0;
out:
	free(r.spread);
	fa_map__free_values(r.lines);
	fa_map__free_values(r.windows);
	return err;
}
