// SPDX-License-Identifier: GPL-2.0
/*
 * Co-access: the fields accessed within the same window of the same scope
 * (CPU, thread or instance), never across scopes; and the tumbling windows
 * whose unit sets the cost model counts.
 */
#include <errno.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "../fields/fields.h"
#include "../decode/key.h"
#include "type-int.h"

int fa_windows__init(struct fa_windows *win, int nr_fields)
{
	if (fa_keymap__init(&win->map) || fa_matrix__init_n(&win->co, nr_fields))
		return -ENOMEM;
	return 0;
}

void fa_windows__exit(struct fa_windows *win)
{
	fa_matrix__exit(&win->co);
	fa_keymap__free_values(&win->map);
}

/* A tumbling window ends: count the units it touched in every instance. */
static void fa_type__end_set(struct fa_type *t, struct fa_window *w)
{
	int group = fa_boot__group(w->set_start, t->cfg.boot_ns);

	if (!w->set_accesses)
		return;
	t->win.nr++;
	t->win.nr_by_group.g[group]++;
	for (int k = 0; k < w->nr_insts; k++) {
		struct fa_win_inst *wi = &w->insts[k];

		fa_cost_sets__record(&t->sets, t->sets.windows, wi->units, wi->nr_units, 0, group,
				     1, w->set_weight / w->nr_insts);
	}
	w->nr_insts = 0;
	w->set_accesses = 0;
	w->set_weight = 0;
}

static void fa_type__add_to_set(struct fa_type *t, struct fa_window *w,
				const struct fa_sample *s)
{
	u16 unit = t->st->fields[s->field].unit;
	struct fa_win_inst *wi;
	int i;

	if (fa_window__full(&t->cfg, w->set_start, w->set_accesses, s->time))
		fa_type__end_set(t, w);
	if (!w->set_accesses)
		w->set_start = s->time;
	w->set_accesses++;
	w->set_weight += s->weight;
	w->set_cpu = s->cpu;
	for (i = 0; i < w->nr_insts && w->insts[i].instance != s->instance; i++)
		;
	if (i == w->nr_insts) {
		if (w->nr_insts == FA_WIN_INSTS) {
			t->sets.dropped++;
			return;
		}
		w->insts[w->nr_insts].instance = s->instance;
		w->insts[w->nr_insts++].nr_units = 0;
	}
	wi = &w->insts[i];
	for (i = 0; i < wi->nr_units && wi->units[i] != unit; i++)
		;
	if (i == wi->nr_units && wi->nr_units < FA_MAX_WINDOW)
		wi->units[wi->nr_units++] = unit;
}

/* Whether @f was paired already: a bit for the first 64 fields, a list for the others */
static bool fa_window__seen(u64 *seen_lo, int *seen, int *nr_seen, int f)
{
	int i;

	if (f < 64) {
		if (*seen_lo & BIT_ULL(f))
			return true;
		*seen_lo |= BIT_ULL(f);
		return false;
	}
	for (i = 0; i < *nr_seen && seen[i] != f; i++)
		;
	if (i < *nr_seen)
		return true;
	seen[(*nr_seen)++] = f;
	return false;
}

/* Pair the access with the distinct fields before it in its window. */
int fa_type__window(struct fa_type *t, const struct fa_sample *s)
{
	u64 key = fa_scope__of(t->cfg.scope, s->rec, s->cpu, s->tid, s->instance);
	struct fa_window **slot = &t->win.cache[fa_cache__slot(key)], *w = *slot;
	int seen[FA_MAX_WINDOW], nr_seen = 0, nr;
	u64 seen_lo = 0;

	if (!w || w->key != key) {
		w = fa_keymap__findnew(&t->win.map, key, sizeof(*w));
		if (!w)
			return -ENOMEM;
		*slot = w;
	}
	/* the accesses of one sample share its time: a gap is between samples */
	if (w->n && s->time > w->last_time) {
		u64 gap = s->time - w->last_time;

		t->win.gap_hist[gap ? 63 - __builtin_clzll(gap) : 0]++;
	}
	/* a window of accesses: the window - 1 before this one; of time: those in it */
	nr = t->cfg.window_ns ? w->n : min(w->n, t->cfg.window - 1);
	for (int k = 0; k < nr; k++) {
		unsigned int idx = (unsigned int)(w->head - 1 - k) % FA_MAX_WINDOW;
		int f = w->field[idx];

		if (t->cfg.window_ns && s->time - w->time[idx] > t->cfg.window_ns)
			break;
		if (f == s->field || fa_window__seen(&seen_lo, seen, &nr_seen, f))
			continue;
		if (fa_matrix__add(&t->win.co, min(f, s->field), max(f, s->field), s->weight))
			return -ENOMEM;
	}
	w->field[w->head] = s->field;
	w->time[w->head] = s->time;
	w->head = (w->head + 1) % FA_MAX_WINDOW;
	w->n = min(w->n + 1, FA_MAX_WINDOW);
	w->last_time = s->time;
	fa_type__add_to_set(t, w, s);
	return 0;
}

/* End the windows still open at the end of the recording. */
void fa_type__end_windows(struct fa_type *t)
{
	struct fa_keymap_slot *slot;

	fa_keymap__for_each(&t->win.map, slot)
		fa_type__end_set(t, slot->value);
}

/* Typical time between two accesses of a scope: density of the samples. */
u64 fa_type__median_gap_ns(const struct fa_type *t)
{
	u64 total = 0, seen = 0;

	for (int i = 0; i < 64; i++)
		total += t->win.gap_hist[i];
	for (int i = 0; i < 64; i++) {
		seen += t->win.gap_hist[i];
		if (total && seen * 2 >= total)
			return 3ULL << i >> 1;	/* middle of [2^i, 2^(i+1)) */
	}
	return 0;
}
