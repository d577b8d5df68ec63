// SPDX-License-Identifier: GPL-2.0
/*
 * Accumulate the accesses to one struct type (see type.h): each access goes
 * to every concern in turn, in time order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "../fields/fields.h"
#include "type-int.h"

static const struct fa_label fa_scope_labels[FA_SCOPE_MAX] = {
	[FA_SCOPE_CPU]		= { "cpu", "CPU" },
	[FA_SCOPE_THREAD]	= { "thread", "thread" },
	[FA_SCOPE_INSTANCE]	= { "instance", "instance" },
};

const char *fa_scope__key(int scope)
{
	return fa_label__key(fa_scope_labels, FA_SCOPE_MAX, scope);
}

const char *fa_scope__text(int scope)
{
	return fa_label__text(fa_scope_labels, FA_SCOPE_MAX, scope);
}

/* enum fa_scope of --scope @key, or -1 */
int fa_scope__parse(const char *key)
{
	return fa_label__parse(fa_scope_labels, FA_SCOPE_MAX, key);
}

struct fa_type *fa_type__new(struct fa_struct *st, const struct fa_config *cfg)
{
	struct fa_type *t;

	/* its members apart, on lines of their own (FA_APART) */
	if (posix_memalign((void **)&t, FA_APART, sizeof(*t)))
		return NULL;
	memset(t, 0, sizeof(*t));
	t->st = st;
	t->cfg = *cfg;
	t->worker = -1;
	t->cfg.window = clamp(t->cfg.window, 2, FA_MAX_WINDOW);
	if (!t->cfg.nr_owners)
		t->cfg.nr_owners = t->cfg.nr_cpus;
	if (fa_counts__init(&t->counts, st->nr_fields, t->cfg.nr_owners) ||
	    fa_windows__init(&t->win, st->nr_fields) ||
	    fa_transfers__init(&t->xfer, st->nr_fields) ||
	    fa_cost_sets__init(&t->sets) || fa_code_ctx__init(&t->code) ||
	    fa_replay__init(&t->replay, cfg->replay_max))
		goto out_delete;
	return t;

out_delete:
	fa_type__delete(t);
	return NULL;
}

void fa_type__delete(struct fa_type *t)
{
	if (!t)
		return;
	fa_counts__exit(&t->counts, t->st->nr_fields);
	fa_windows__exit(&t->win);
	fa_transfers__exit(&t->xfer);
	fa_cost_sets__exit(&t->sets);
	fa_code_ctx__exit(&t->code, t->st->nr_fields);
	fa_replay__exit(&t->replay);
	free(t);
}

/* An access to a field the type has, by an owner it can tell */
int fa_type__check(const struct fa_type *t, const struct fa_sample *s)
{
	if (s->field < 0 || s->field >= t->st->nr_fields || s->owner >= (u32)t->cfg.nr_owners)
		return -EINVAL;
	return 0;
}

/*
 * Account an access to @inst (fa_type__instance()): what only the accesses
 * in their order tell, which a worker thread can do while the next
 * samples are attributed.
 */
int fa_type__accumulate(struct fa_type *t, struct fa_inst *inst, const struct fa_sample *s)
{
	fa_type__count(t, s);
	fa_type__add_thread(t, s->tid, false);
	if (fa_type__transfers(t, inst, s) || fa_type__window(t, s) ||
	    fa_replay__add(&t->replay, s))
		return -ENOMEM;
	return 0;
}

/**
 * fa_type__add - Account one access to a field of the type
 *
 * Accesses must come in time order (per scope at least).
 */
int fa_type__add(struct fa_type *t, const struct fa_sample *s)
{
	struct fa_inst *inst;
	int err = fa_type__check(t, s);

	if (err)
		return err;
	if (s->watched)
		return fa_type__watched(t, s);
	inst = fa_type__instance(t, s);
	return inst ? fa_type__accumulate(t, inst, s) : -ENOMEM;
}

/* The accumulation ends: the analyses only read the type from now on */
void fa_type__flush(struct fa_type *t)
{
	fa_type__end_windows(t);
	fa_code_ctx__flush(&t->code);
	/* once, instead of a search per access in every replay */
	for (size_t i = 0; i < min(t->replay.nr, t->replay.max); i++) {
		struct fa_event *e = &t->replay.events[i];

		if (fa_type__code_stores(t, e->func, e->field))
			e->op |= FA_EV_CODE_STORE;
	}
	fa_type__inst_fields_flush(t);
}
