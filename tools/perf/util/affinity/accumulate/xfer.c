// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-owner transfers: an access to field j by owner b shortly after
 * field i of the same instance was written by owner a != b (X[i][j]); when
 * i and j are on the same real cache line that is false (i != j) or true
 * (i == j) sharing.  And who accessed each field of each instance, to tell
 * fields owners share from per-owner slots.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "../fields/fields.h"
#include "../decode/key.h"
#include "type-int.h"

int fa_transfers__init(struct fa_transfers *x, int nr_fields)
{
	x->sweep_at = FA_INST_SWEEP;
	if (fa_keymap__init(&x->insts) || fa_matrix__init_n(&x->pairs, nr_fields) ||
	    fa_matrix__init_n(&x->fs, nr_fields) || fa_keymap__init(&x->fs_by_group))
		return -ENOMEM;
	return 0;
}

void fa_transfers__exit(struct fa_transfers *x)
{
	struct fa_keymap_slot *slot;

	fa_matrix__exit(&x->pairs);
	fa_matrix__exit(&x->fs);
	fa_keymap__free_values(&x->fs_by_group);
	fa_keymap__for_each(&x->insts, slot) {
		struct fa_inst_id *id = slot->value;

		free(id->inst.fields);
	}
	fa_keymap__free_values(&x->insts);
	zfree(&x->retired);
}

/*
 * When @cpu last touched @inst (0: never); then set it to @now.  The
 * accesses of one sample share its time (a block walk gives several):
 * each is judged against the touch before the sample, as if sampled on
 * its own, not against its sibling.
 */
static u64 fa_inst__fetch(struct fa_inst *inst, u32 cpu, u64 now)
{
	int i, oldest = 0;

	for (i = 0; i < inst->nr_cpus && inst->cpu[i] != cpu; i++) {
		if (inst->fetched[i] < inst->fetched[oldest])
			oldest = i;
	}
	if (i == inst->nr_cpus) {
		i = inst->nr_cpus < FA_INST_CPUS ? inst->nr_cpus++ : oldest;
		inst->cpu[i] = cpu;
		inst->fetched[i] = 0;
		inst->since[i] = 0;
	}
	if (inst->fetched[i] != now || !now) {
		inst->since[i] = inst->fetched[i];
		inst->fetched[i] = now;
	}
	return inst->since[i];
}

/* Units of @inst written by a CPU other than @cpu after @since */
static int fa_inst__written(const struct fa_type *t, const struct fa_inst *inst, u32 cpu,
			    u64 since, u16 *units)
{
	int n = 0;

	for (int k = 0; k < inst->nr_writes; k++) {
		const struct fa_write *w = &inst->writes[k];
		u16 unit = t->st->fields[w->field].unit;
		int i;

		for (i = 0; i < w->nr && !(w->cpu[i] != cpu && w->time[i] > since); i++)
			;
		if (i == w->nr)
			continue;
		for (i = 0; i < n && units[i] != unit; i++)
			;
		if (i == n)
			units[n++] = unit;
	}
	return n;
}

static bool fa_type__same_line(const struct fa_type *t, u64 base, int fi, int fj)
{
	u64 a = base + t->st->fields[fi].offset, b = base + t->st->fields[fj].offset;

	return a / t->cfg.line_size == b / t->cfg.line_size;
}

/* The owners of @inst's fields get when they accessed the instance */
static void fa_inst__stamp_fields(struct fa_inst *inst)
{
	for (int i = 0; i < inst->nr_fields; i++) {
		struct fa_inst_field *ifd = &inst->fields[i];

		for (int k = 0; k < ifd->nr; k++) {
			struct fa_if_owner *o = &ifd->owners[k];

			for (int j = 0; j < inst->nr_owners; j++) {
				if (inst->owners[j].owner != o->owner)
					continue;
				o->first = inst->owners[j].first;
				o->last = inst->owners[j].last;
			}
		}
	}
}

/* An instance goes: keep who accessed its fields for fa_type__flush() */
static void fa_type__retire_fields(struct fa_type *t, struct fa_inst *inst)
{
	size_t n = t->xfer.nr_retired + inst->nr_fields;

	fa_inst__stamp_fields(inst);
	if (n > t->xfer.alloc_retired) {
		size_t alloc = max(2 * t->xfer.alloc_retired, n);
		struct fa_inst_field *r = realloc(t->xfer.retired, alloc * sizeof(*r));

		if (!r) {
			t->xfer.inst_fields_dropped += inst->nr_fields;
			zfree(&inst->fields);
			return;
		}
		t->xfer.retired = r;
		t->xfer.alloc_retired = alloc;
	}
	memcpy(t->xfer.retired + t->xfer.nr_retired, inst->fields,
	       inst->nr_fields * sizeof(*inst->fields));
	t->xfer.nr_retired = n;
	zfree(&inst->fields);
}

/* When @s's owner accessed @inst: past the first FA_INST_CPUS owners, always */
static void fa_inst__track_owner(struct fa_inst *inst, const struct fa_sample *s)
{
	int i;

	for (i = 0; i < inst->nr_owners && inst->owners[i].owner != s->owner; i++)
		;
	if (i == inst->nr_owners) {
		if (i == FA_INST_CPUS)
			return;
		inst->owners[inst->nr_owners++] = (struct fa_inst_owner){
			.owner = s->owner, .first = s->time, .last = s->time,
		};
	}
	inst->owners[i].first = min(inst->owners[i].first, s->time);
	inst->owners[i].last = max(inst->owners[i].last, s->time);
}

/* Who accessed field @s->field of @inst (see struct fa_inst_field) */
static int fa_inst__track_field(struct fa_type *t, struct fa_inst *inst, const struct fa_sample *s)
{
	struct fa_inst_field *ifd;
	struct fa_if_owner *o;
	int i;

	fa_inst__track_owner(inst, s);
	for (i = 0; i < inst->nr_fields && inst->fields[i].field != s->field; i++)
		;
	if (i == inst->nr_fields) {
		if (t->xfer.nr_inst_fields >= FA_IF_MAX) {
			t->xfer.inst_fields_dropped++;
			return 0;
		}
		/* 1, 2, 4...: most instances see a few fields */
		if (!(i & (i - 1))) {
			ifd = realloc(inst->fields, (i ? 2 * i : 1) * sizeof(*ifd));
			if (!ifd)
				return -ENOMEM;
			inst->fields = ifd;
		}
		inst->fields[i] = (struct fa_inst_field){ .field = s->field, };
		inst->nr_fields++;
		t->xfer.nr_inst_fields++;
	}
	ifd = &inst->fields[i];
	for (i = 0; i < ifd->nr && ifd->owners[i].owner != s->owner; i++)
		;
	if (i == ifd->nr) {
		if (ifd->nr == FA_IF_OWNERS)
			return 0;
		/* an owner past the instance's first ones: always there */
		ifd->owners[ifd->nr++] = (struct fa_if_owner){ .owner = s->owner,
							       .func = { s->func, s->func },
							       .last = ULLONG_MAX, };
	}
	o = &ifd->owners[i];
	if (o->func[1] == o->func[0] && s->func != o->func[0])
		o->func[1] = s->func;
	o->stored |= !!(s->op & FA_OP_STORE);
	return 0;
}

struct fa_sweep {
	struct fa_type	*t;
	u64		 now;
};

static bool fa_inst__keep(void *value, void *ctx)
{
	struct fa_sweep *sw = ctx;
	struct fa_inst_id *id = value;

	if (sw->now - id->last_time <= sw->t->cfg.xfer_ns)
		return true;
	fa_type__retire_fields(sw->t, &id->inst);
	free(id);
	return false;
}

/*
 * Forget instances not accessed for longer than a transfer can take.  The
 * next sweep is when the map has doubled: with more instances live than
 * FA_INST_SWEEP, a sweep at every access would walk them all every time.
 */
static void fa_type__sweep_insts(struct fa_type *t, u64 now)
{
	struct fa_sweep sw = { .t = t, .now = now, };

	memset(t->xfer.cache, 0, sizeof(t->xfer.cache));
	fa_keymap__filter(&t->xfer.insts, fa_inst__keep, &sw);
	t->xfer.nr_sweeps++;
	t->xfer.sweep_at = max_t(size_t, FA_INST_SWEEP, 2 * fa_keymap__size(&t->xfer.insts));
}

static bool fa_write__seen(struct fa_write *w, u32 consumer)
{
	for (int i = 0; i < w->nr_seen && i < FA_INST_SEEN; i++) {
		if (w->seen[i] == consumer)
			return true;
	}
	w->seen[w->nr_seen++ % FA_INST_SEEN] = consumer;
	return false;
}

static void fa_inst__record_write(struct fa_inst *inst, const struct fa_sample *s)
{
	struct fa_write *w = NULL;

	for (int i = 0; i < inst->nr_writes; i++) {
		if (inst->writes[i].field == s->field)
			w = &inst->writes[i];
	}
	if (!w && inst->nr_writes < FA_INST_WRITES) {
		w = &inst->writes[inst->nr_writes++];
		w->nr = 0;
	} else if (!w) {
		/* replace the field written longest ago */
		w = &inst->writes[0];
		for (int i = 1; i < inst->nr_writes; i++) {
			if (inst->writes[i].time[0] < w->time[0])
				w = &inst->writes[i];
		}
		w->nr = 0;
	}
	if (w->field != s->field || !w->nr || w->cpu[0] != s->owner) {
		/* a new writer: remember the previous one, which another CPU may need */
		w->cpu[1] = w->cpu[0];
		w->time[1] = w->time[0];
		w->nr = min(w->nr + 1, 2);
	}
	w->field = s->field;
	w->cpu[0] = s->owner;
	w->time[0] = s->time;
	w->nr_seen = 0;
}

/*
 * For the cost of layouts: the units other CPUs wrote to the instance since
 * this CPU last touched it.  Under a layout the access moves its line from
 * another cache when that line holds one of them (exactly so when the last
 * touch was on the same line).  An access after none is counted too: of
 * the accesses to a line, the share that moved it (cost.c, visits).
 */
static void fa_type__moved(struct fa_type *t, struct fa_inst *inst, const struct fa_sample *s)
{
	u16 units[1 + FA_INST_WRITES];
	u64 since = fa_inst__fetch(inst, s->owner, s->time);
	int nr_w = fa_inst__written(t, inst, s->owner, since, units + 1);

	units[0] = t->st->fields[s->field].unit;
	fa_cost_sets__record(&t->sets, t->sets.moves, units, 1, nr_w,
			     fa_boot__group(s->time, t->cfg.boot_ns), fa_sample__share(s), s->weight);
}

/* The newest write of @w by a CPU other than @cpu, or -1 */
static int fa_write__other(const struct fa_write *w, u32 cpu)
{
	for (int i = 0; i < w->nr; i++) {
		if (w->cpu[i] != cpu)
			return i;
	}
	return -1;
}

static struct fa_inst_id *fa_type__new_instance(struct fa_type *t, const struct fa_sample *s)
{
	struct fa_inst_id *id = zalloc(sizeof(*id));

	if (!id)
		return NULL;
	id->key = s->instance;
	if (fa_keymap__add(&t->xfer.insts, id->key, id)) {
		free(id);
		return NULL;
	}
	id->inst.base = s->base;
	t->xfer.nr_instances++;
	if (s->base % t->cfg.line_size)
		t->xfer.misaligned++;
	return id;
}

/* Whether the next fa_type__instance() forgets old instances (see fa_worker__add()) */
bool fa_type__sweep_due(const struct fa_type *t)
{
	return fa_keymap__size(&t->xfer.insts) >= t->xfer.sweep_at;
}

/**
 * fa_type__instance - The instance of an access, new ones counted
 *
 * Its last access is now: instances not accessed for longer than a transfer
 * can take are forgotten, and count as new when seen again.
 *
 * Return: the instance, NULL when out of memory.
 */
struct fa_inst *fa_type__instance(struct fa_type *t, const struct fa_sample *s)
{
	struct fa_inst_id *id, **slot;

	if (fa_type__sweep_due(t))
		fa_type__sweep_insts(t, s->time);
	slot = &t->xfer.cache[fa_cache__slot(s->instance)];
	id = *slot;
	if (!id || id->key != s->instance) {
		id = fa_keymap__find(&t->xfer.insts, s->instance);
		if (!id)
			id = fa_type__new_instance(t, s);
		if (!id)
			return NULL;
		*slot = id;
	}
	id->last_time = s->time;
	return &id->inst;
}

/* A transfer between two fields on one line, and its group for diff's intervals */
static int fa_type__false_sharing(struct fa_type *t, int writer, const struct fa_sample *s)
{
	u64 key = (u64)writer << 32 | (u32)s->field;
	struct fa_pair_groups *pg;
	int group;

	if (fa_matrix__add(&t->xfer.fs, writer, s->field, s->weight))
		return -ENOMEM;
	pg = fa_keymap__findnew(&t->xfer.fs_by_group, key, sizeof(*pg));
	if (!pg)
		return -ENOMEM;
	group = fa_boot__group(s->time, t->cfg.boot_ns);
	pg->sum.g[group] += s->weight;
	t->xfer.fs_total_by_group.g[group] += s->weight;
	return 0;
}

/**
 * fa_type__fs_share - The share of the falsely shared transfers that went
 * from @writer to @reader, in percent
 * @ci: Its interval (boot.h), in percent too
 */
double fa_type__fs_share(const struct fa_type *t, int writer, int reader, struct fa_interval *ci)
{
	const struct fa_pair_groups *pg;
	double share = 0;

	if (t->xfer.fs.total)
		share = 100 * fa_matrix__get(&t->xfer.fs, writer, reader) / t->xfer.fs.total;
	*ci = (struct fa_interval){ .est = share, .lo = share, .hi = share, };
	pg = fa_keymap__find(&t->xfer.fs_by_group, (u64)writer << 32 | (u32)reader);
	if (!pg)
		return share;
	fa_boot__ratio(&pg->sum, &t->xfer.fs_total_by_group, ci);
	ci->est = share;
	ci->lo = min(share, 100 * ci->lo);
	ci->hi = max(share, 100 * ci->hi);
	return share;
}

/*
 * Pairs for the report: this access after writes to other fields of the
 * instance on other CPUs, and those of them on the same real cache line.
 */
int fa_type__transfers(struct fa_type *t, struct fa_inst *inst, const struct fa_sample *s)
{
	for (int i = 0; i < inst->nr_writes; i++) {
		struct fa_write *w = &inst->writes[i];
		int k = fa_write__other(w, s->owner);

		if (k < 0 || s->time - w->time[k] > t->cfg.xfer_ns ||
		    fa_write__seen(w, s->owner << 16 ^ s->field))
			continue;
		if (fa_matrix__add(&t->xfer.pairs, w->field, s->field, s->weight))
			return -ENOMEM;
		if (w->field != s->field && fa_type__same_line(t, inst->base, w->field, s->field) &&
		    fa_type__false_sharing(t, w->field, s))
			return -ENOMEM;
	}
	fa_type__moved(t, inst, s);
	if (s->op & FA_OP_STORE)
		fa_inst__record_write(inst, s);
	return fa_inst__track_field(t, inst, s);
}

/*
 * Stores of a field sampled this often show who writes each instance: the
 * code of a function that stores to one instance and only loads another
 * (inlined producer and consumer of two queues) no longer makes it a
 * writer of both
 */
#define FA_STORES_SAMPLED	64

static bool fa_if_owner__overlap(const struct fa_if_owner *a, const struct fa_if_owner *b)
{
	return a->first <= b->last && b->first <= a->last;
}

/*
 * Count the instances that share @ifd's field, now that the code is known:
 * a writer and another owner accessing the instance at the same time
 */
static void fa_type__count_inst_field(struct fa_type *t, const struct fa_inst_field *ifd)
{
	struct fa_field_stats *fs = &t->counts.stats[ifd->field];
	bool writer[FA_IF_OWNERS], shared = false, writers = false;
	bool by_code = fs->stores + fs->rmws < FA_STORES_SAMPLED;

	for (int i = 0; i < ifd->nr; i++) {
		const struct fa_if_owner *o = &ifd->owners[i];

		writer[i] = o->stored || (by_code &&
					  (fa_type__code_stores(t, o->func[0], ifd->field) ||
					   fa_type__code_stores(t, o->func[1], ifd->field)));
	}
	for (int i = 0; i < ifd->nr; i++) {
		for (int j = 0; writer[i] && j < ifd->nr; j++) {
			if (j == i || !fa_if_owner__overlap(&ifd->owners[i], &ifd->owners[j]))
				continue;
			shared = true;
			writers |= writer[j];
		}
	}
	fs->inst_seen++;
	fs->inst_shared += shared;
	fs->inst_writers += writers;
}

/* Count who shared each field of the instances, now that the code is known */
void fa_type__inst_fields_flush(struct fa_type *t)
{
	struct fa_keymap_slot *slot;

	for (int f = 0; f < t->st->nr_fields; f++) {
		t->counts.stats[f].inst_seen = 0;
		t->counts.stats[f].inst_shared = 0;
		t->counts.stats[f].inst_writers = 0;
	}
	fa_keymap__for_each(&t->xfer.insts, slot) {
		struct fa_inst *inst = &((struct fa_inst_id *)slot->value)->inst;

		fa_inst__stamp_fields(inst);
		for (int i = 0; i < inst->nr_fields; i++)
			fa_type__count_inst_field(t, &inst->fields[i]);
	}
	for (size_t i = 0; i < t->xfer.nr_retired; i++)
		fa_type__count_inst_field(t, &t->xfer.retired[i]);
}
