// SPDX-License-Identifier: GPL-2.0
/* Accumulate the accesses to one struct type (see type.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/zalloc.h>
#include "access.h"
#include "fields.h"
#include "key.h"
#include "type.h"
#include "../hashmap.h"
#include "../mem-events.h"
#include "../mem-info.h"

#define FA_INST_WRITES		8	/* written fields remembered per instance */
#define FA_INST_SEEN		4	/* accesses a write is a transfer to */
#define FA_INST_CPUS		8	/* CPUs an instance remembers the windows of */
#define FA_INST_SWEEP		(1 << 16)
#define FA_WIN_INSTS		8	/* instances one cost window tells apart */
#define FA_MAX_SETS		(1 << 20)
#define FA_REPLAY_CHUNK		4096

/* The units a cost window touched in one instance */
struct fa_win_inst {
	u64	instance;
	int	nr_units;
	u16	units[FA_MAX_WINDOW];
};

struct fa_window {
	u64			key;
	u64			last_time;
	int			head;
	int			n;
	int			field[FA_MAX_WINDOW];
	u64			time[FA_MAX_WINDOW];
	/* the current tumbling window of the cost model */
	int			set_accesses;
	u64			set_start;
	u32			set_cpu;	/* CPU of its last access */
	double			set_weight;
	int			nr_insts;
	struct fa_win_inst	insts[FA_WIN_INSTS];
};

/* The last writes of a field of an instance, by the two last CPUs writing it */
struct fa_write {
	int	field;
	int	nr;
	u32	cpu[2];		/* newest first */
	u64	time[2];
	int	nr_seen;
	u32	seen[FA_INST_SEEN];	/* (cpu, field) it was already a transfer to */
};

/*
 * Who accessed one field of one instance, to tell a field that owners share
 * from one that each owner has in its own instance (per-thread slots): the
 * first FA_IF_OWNERS owners, each with the first two functions it accessed
 * the field in.  Whether a function stores to the field is known from the
 * code context only after the last sample (fa_type__inst_fields_flush()).
 */
#define FA_IF_OWNERS		3
#define FA_IF_MAX		(1 << 18)	/* (instance, field) pairs per type */

struct fa_if_owner {
	u32	owner;
	u32	func[2];
	bool	stored;		/* a sampled store */
};

struct fa_inst_field {
	int			field;
	int			nr;
	struct fa_if_owner	owners[FA_IF_OWNERS];
};

struct fa_inst {
	u64			key;
	u64			base;
	u64			last_time;
	bool			seen;
	int			nr_writes;
	struct fa_write		writes[FA_INST_WRITES];
	int			nr_cpus;
	u32			cpu[FA_INST_CPUS];
	u64			fetched[FA_INST_CPUS];	/* when the CPU last touched it */
	struct fa_inst_field	*fields;	/* of the fields accessed */
	int			nr_fields;
};

static size_t fa_set__hash(long key, void *ctx __maybe_unused)
{
	const struct fa_set *set = (const struct fa_set *)key;
	size_t h = set->nr * 131 + set->nr_w;

	for (int i = 0; i < set->nr + set->nr_w; i++)
		h = h * 31 + set->units[i];
	return h;
}

static bool fa_set__equal(long a, long b, void *ctx __maybe_unused)
{
	const struct fa_set *sa = (const struct fa_set *)a, *sb = (const struct fa_set *)b;

	return sa->nr == sb->nr && sa->nr_w == sb->nr_w &&
	       !memcmp(sa->units, sb->units, (sa->nr + sa->nr_w) * sizeof(u16));
}

static struct hashmap *fa_set_map__new(void)
{
	struct hashmap *map = hashmap__new(fa_set__hash, fa_set__equal, NULL);

	return IS_ERR(map) ? NULL : map;
}

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

/* The percentage of the struct's accesses (weighed) that are to @field */
double fa_type__field_share(const struct fa_type *t, int field)
{
	return t->weight ? 100 * t->stats[field].weight / t->weight : 0;
}

/* The stores and read-modify-writes of all fields */
u64 fa_type__stores(const struct fa_type *t)
{
	u64 n = 0;

	for (int i = 0; i < t->st->nr_leaves; i++) {
		const struct fa_field_stats *fs = &t->stats[t->st->leaves[i]];

		n += fs->stores + fs->rmws;
	}
	return n;
}

struct fa_type *fa_type__new(struct fa_struct *st, const struct fa_config *cfg)
{
	struct fa_type *t = zalloc(sizeof(*t));

	if (!t)
		return NULL;
	t->st = st;
	t->cfg = *cfg;
	t->cfg.window = clamp(t->cfg.window, 2, FA_MAX_WINDOW);
	if (!t->cfg.nr_owners)
		t->cfg.nr_owners = t->cfg.nr_cpus;
	t->stats = calloc(st->nr_fields, sizeof(*t->stats));
	t->windows = fa_u64_map__new();
	t->insts = fa_u64_map__new();
	t->sets = fa_set_map__new();
	t->visits = fa_set_map__new();
	t->moves = fa_set_map__new();
	t->replay.instances = fa_u64_map__new();
	t->mi = mem_info__new();
	if (!t->stats || !t->windows || !t->insts || !t->sets || !t->visits || !t->moves ||
	    !t->mi ||
	    !t->replay.instances || fa_matrix__init(&t->co) || fa_matrix__init(&t->xfer) ||
	    fa_matrix__init(&t->fs))
		goto out_delete;
	for (int i = 0; i < st->nr_fields; i++) {
		t->stats[i].readers = bitmap_zalloc(t->cfg.nr_owners);
		t->stats[i].writers = bitmap_zalloc(t->cfg.nr_owners);
		if (!t->stats[i].readers || !t->stats[i].writers)
			goto out_delete;
	}
	t->replay.chunk = FA_REPLAY_CHUNK;
	t->replay.max = max_t(size_t, roundup(cfg->replay_max, FA_REPLAY_CHUNK), FA_REPLAY_CHUNK);
	t->replay.seed = 1;
	return t;

out_delete:
	fa_type__delete(t);
	return NULL;
}

void fa_type__delete(struct fa_type *t)
{
	if (!t)
		return;
	for (int i = 0; t->stats && i < t->st->nr_fields; i++) {
		zfree(&t->stats[i].readers);
		zfree(&t->stats[i].writers);
	}
	zfree(&t->stats);
	for (int i = 0; t->code_stats && i < t->st->nr_fields; i++) {
		zfree(&t->code_stats[i].readers);
		zfree(&t->code_stats[i].writers);
	}
	zfree(&t->code_stats);
	fa_matrix__exit(&t->co);
	fa_matrix__exit(&t->xfer);
	fa_matrix__exit(&t->fs);
	fa_map__free_values(t->windows);
	if (t->insts) {
		struct hashmap_entry *cur;
		size_t bkt;

		hashmap__for_each_entry(t->insts, cur, bkt)
			free(((struct fa_inst *)cur->pvalue)->fields);
	}
	fa_map__free_values(t->insts);
	zfree(&t->retired);
	fa_map__free_values(t->sets);
	fa_map__free_values(t->visits);
	fa_map__free_values(t->moves);
	fa_map__free_values(t->replay.instances);
	zfree(&t->replay.events);
	zfree(&t->replay.bases);
	zfree(&t->code_stores);
	mem_info__zput(t->mi);
	free(t);
}

/* HITMs and peer snoops as perf c2c counts them, local and remote */
static void fa_type__data_src(struct fa_type *t, struct fa_field_stats *fs,
			      const struct fa_sample *s)
{
	struct c2c_stats stats = { .nr_entries = 0, };

	mem_info__data_src(t->mi)->val = s->data_src;
	/* an attributed access has an address, whatever it is */
	mem_info__daddr(t->mi)->addr = s->base ?: 1;
	c2c_decode_stats(&stats, t->mi);
	fs->hitm += stats.tot_hitm;
	fs->peer += stats.tot_peer;
	t->hitm += stats.tot_hitm;
}

static void fa_type__count(struct fa_type *t, const struct fa_sample *s)
{
	struct fa_field_stats *fs = &t->stats[s->field];
	union perf_mem_data_src dsrc = { .val = s->data_src, };

	switch (s->op) {
	case FA_OP_LOAD:
		fs->loads++;
		__set_bit(s->owner, fs->readers);
		break;
	case FA_OP_STORE:
		fs->stores++;
		__set_bit(s->owner, fs->writers);
		break;
	case FA_OP_RMW:
		fs->rmws++;
		__set_bit(s->owner, fs->readers);
		__set_bit(s->owner, fs->writers);
		break;
	default:
		fs->other++;
		__set_bit(s->owner, fs->readers);
		break;
	}
	fs->weight += s->weight;
	if (dsrc.mem_op != PERF_MEM_OP_NA)
		fa_type__data_src(t, fs, s);
	t->nr_accesses++;
	t->weight += s->weight;
}

static u64 fa_sample__scope_key(const struct fa_type *t, const struct fa_sample *s)
{
	switch (t->cfg.scope) {
	case FA_SCOPE_THREAD:
		return s->tid;
	case FA_SCOPE_INSTANCE:
		return s->instance;
	case FA_SCOPE_CPU:
	default:
		return s->cpu;
	}
}

/* Insertion sort: a set has a few units, qsort() costs more than sorting them */
static void fa_units__sort(u16 *units, int nr)
{
	for (int i = 1; i < nr; i++) {
		u16 u = units[i];
		int j;

		for (j = i; j > 0 && units[j - 1] > u; j--)
			units[j] = units[j - 1];
		units[j] = u;
	}
}

/* When @cpu last touched @inst (0: never); then set it to @now. */
static u64 fa_inst__fetch(struct fa_inst *inst, u32 cpu, u64 now)
{
	int i, oldest = 0;
	u64 when;

	for (i = 0; i < inst->nr_cpus && inst->cpu[i] != cpu; i++) {
		if (inst->fetched[i] < inst->fetched[oldest])
			oldest = i;
	}
	if (i == inst->nr_cpus) {
		i = inst->nr_cpus < FA_INST_CPUS ? inst->nr_cpus++ : oldest;
		inst->cpu[i] = cpu;
		inst->fetched[i] = 0;
	}
	when = inst->fetched[i];
	inst->fetched[i] = now;
	return when;
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

/* Units of a set: a window's, or an access's and those written before it */
#define FA_SET_MAX_UNITS	(FA_MAX_WINDOW + 1 + FA_INST_WRITES)

static void fa_type__record_set(struct fa_type *t, struct hashmap *map, u16 *units, int nr,
				int nr_w, u64 count, double weight)
{
	/* the key on the stack: most sets were seen before, only new ones are allocated */
	u64 buf[DIV_ROUND_UP(sizeof(struct fa_set) + FA_SET_MAX_UNITS * sizeof(u16), sizeof(u64))];
	struct fa_set *key = (struct fa_set *)buf, *set;
	size_t size = sizeof(*key) + (nr + nr_w) * sizeof(u16);

	fa_units__sort(units, nr);
	fa_units__sort(units + nr, nr_w);
	key->nr = nr;
	key->nr_w = nr_w;
	memcpy(key->units, units, (nr + nr_w) * sizeof(u16));
	if (hashmap__find(map, key, &set)) {
		set->count += count;
		set->weight += weight;
		return;
	}
	if (hashmap__size(map) >= FA_MAX_SETS) {
		t->sets_dropped++;
		return;
	}
	set = malloc(size);
	if (!set) {
		t->sets_dropped++;
		return;
	}
	memcpy(set, key, size);
	set->count = count;
	set->weight = weight;
	if (hashmap__add(map, set, set)) {
		t->sets_dropped++;
		free(set);
	}
}

/* A tumbling window ends: count the units it touched in every instance. */
static void fa_type__end_set(struct fa_type *t, struct fa_window *w)
{
	if (!w->set_accesses)
		return;
	t->nr_windows++;
	for (int k = 0; k < w->nr_insts; k++) {
		struct fa_win_inst *wi = &w->insts[k];

		fa_type__record_set(t, t->sets, wi->units, wi->nr_units, 0, 1,
				    w->set_weight / w->nr_insts);
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

	if (w->set_accesses && (t->cfg.window_ns ? s->time - w->set_start > t->cfg.window_ns :
				w->set_accesses >= t->cfg.window))
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
			t->sets_dropped++;
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

/* Pair the access with the distinct fields before it in its window. */
static int fa_type__window(struct fa_type *t, const struct fa_sample *s)
{
	u64 key = fa_sample__scope_key(t, s);
	struct fa_window **slot = &t->window_cache[fa_cache__slot(key)], *w = *slot;
	int seen[FA_MAX_WINDOW], nr_seen = 0;

	if (!w || w->key != key) {
		w = fa_u64_map__findnew(t->windows, key, sizeof(*w));
		if (!w)
			return -ENOMEM;
		*slot = w;
	}
	if (w->n && s->time >= w->last_time) {
		u64 gap = s->time - w->last_time;

		t->gap_hist[gap ? 63 - __builtin_clzll(gap) : 0]++;
	}
	for (int k = 0; k < w->n; k++) {
		int idx = (w->head - 1 - k + FA_MAX_WINDOW) % FA_MAX_WINDOW;
		int f = w->field[idx], i;

		if (t->cfg.window_ns ? s->time - w->time[idx] > t->cfg.window_ns :
		    k >= t->cfg.window - 1)
			break;
		if (f == s->field)
			continue;
		for (i = 0; i < nr_seen && seen[i] != f; i++)
			;
		if (i < nr_seen)
			continue;
		seen[nr_seen++] = f;
		if (fa_matrix__add(&t->co, min(f, s->field), max(f, s->field), s->weight))
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

static bool fa_type__same_line(const struct fa_type *t, u64 base, int fi, int fj)
{
	u64 a = base + t->st->fields[fi].offset, b = base + t->st->fields[fj].offset;

	return a / t->cfg.line_size == b / t->cfg.line_size;
}

/* Forget instances not accessed for longer than a transfer can take. */
/* An instance goes: keep who accessed its fields for fa_type__flush() */
static void fa_type__retire_fields(struct fa_type *t, struct fa_inst *inst)
{
	size_t n = t->nr_retired + inst->nr_fields;

	if (n > t->alloc_retired) {
		size_t alloc = max(2 * t->alloc_retired, n);
		struct fa_inst_field *r = realloc(t->retired, alloc * sizeof(*r));

		if (!r) {
			t->inst_fields_dropped += inst->nr_fields;
			zfree(&inst->fields);
			return;
		}
		t->retired = r;
		t->alloc_retired = alloc;
	}
	memcpy(t->retired + t->nr_retired, inst->fields, inst->nr_fields * sizeof(*inst->fields));
	t->nr_retired = n;
	zfree(&inst->fields);
}

/* Who accessed field @s->field of @inst (see struct fa_inst_field) */
static int fa_inst__track_field(struct fa_type *t, struct fa_inst *inst, const struct fa_sample *s)
{
	struct fa_inst_field *ifd;
	struct fa_if_owner *o;
	int i;

	for (i = 0; i < inst->nr_fields && inst->fields[i].field != s->field; i++)
		;
	if (i == inst->nr_fields) {
		if (t->nr_inst_fields >= FA_IF_MAX) {
			t->inst_fields_dropped++;
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
		t->nr_inst_fields++;
	}
	ifd = &inst->fields[i];
	for (i = 0; i < ifd->nr && ifd->owners[i].owner != s->owner; i++)
		;
	if (i == ifd->nr) {
		if (ifd->nr == FA_IF_OWNERS)
			return 0;
		ifd->owners[ifd->nr++] = (struct fa_if_owner){ .owner = s->owner,
							       .func = { s->func, s->func }, };
	}
	o = &ifd->owners[i];
	if (o->func[1] == o->func[0] && s->func != o->func[0])
		o->func[1] = s->func;
	o->stored |= !!(s->op & FA_OP_STORE);
	return 0;
}

static void fa_type__sweep_insts(struct fa_type *t, u64 now)
{
	struct hashmap_entry *cur, *tmp;
	size_t bkt;

	memset(t->inst_cache, 0, sizeof(t->inst_cache));
	hashmap__for_each_entry_safe(t->insts, cur, tmp, bkt) {
		struct fa_inst *inst = cur->pvalue;

		if (now - inst->last_time > t->cfg.xfer_ns) {
			hashmap__delete(t->insts, cur->pkey, NULL, NULL);
			fa_type__retire_fields(t, inst);
			free(inst);
		}
	}
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
 * touch was on the same line).
 */
static void fa_type__moved(struct fa_type *t, struct fa_inst *inst, const struct fa_sample *s)
{
	u16 units[1 + FA_INST_WRITES];
	u64 since = fa_inst__fetch(inst, s->owner, s->time);
	int nr_w = fa_inst__written(t, inst, s->owner, since, units + 1);

	if (!nr_w)
		return;
	units[0] = t->st->fields[s->field].unit;
	fa_type__record_set(t, t->moves, units, 1, nr_w, 1, s->weight);
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

/*
 * Pairs for the report: this access after writes to other fields of the
 * instance on other CPUs, and those of them on the same real cache line.
 */
static int fa_type__transfers(struct fa_type *t, const struct fa_sample *s)
{
	struct fa_inst *inst, **slot;

	if (hashmap__size(t->insts) >= FA_INST_SWEEP)
		fa_type__sweep_insts(t, s->time);
	slot = &t->inst_cache[fa_cache__slot(s->instance)];
	inst = *slot;
	if (!inst || inst->key != s->instance) {
		inst = fa_u64_map__findnew(t->insts, s->instance, sizeof(*inst));
		if (!inst)
			return -ENOMEM;
		*slot = inst;
	}
	if (!inst->seen) {
		inst->seen = true;
		inst->base = s->base;
		t->nr_instances++;
		if (s->base % t->cfg.line_size)
			t->misaligned++;
	}
	inst->last_time = s->time;
	for (int i = 0; i < inst->nr_writes; i++) {
		struct fa_write *w = &inst->writes[i];
		int k = fa_write__other(w, s->owner);

		if (k < 0 || s->time - w->time[k] > t->cfg.xfer_ns ||
		    fa_write__seen(w, s->owner << 16 ^ s->field))
			continue;
		if (fa_matrix__add(&t->xfer, w->field, s->field, s->weight))
			return -ENOMEM;
		if (w->field != s->field && fa_type__same_line(t, inst->base, w->field, s->field) &&
		    fa_matrix__add(&t->fs, w->field, s->field, s->weight))
			return -ENOMEM;
	}
	fa_type__moved(t, inst, s);
	if (s->op & FA_OP_STORE)
		fa_inst__record_write(inst, s);
	return fa_inst__track_field(t, inst, s);
}

static int fa_replay__instance(struct fa_replay *r, const struct fa_sample *s, u32 *index)
{
	u64 *entry;

	if (r->nr_bases && r->last_instance == s->instance) {
		*index = r->last_index;
		return 0;
	}
	if (hashmap__find(r->instances, &s->instance, &entry)) {
		r->last_instance = s->instance;
		r->last_index = entry[1];
		*index = entry[1];
		return 0;
	}
	if (!(r->nr_bases & (r->nr_bases - 1))) {
		u64 *bases = realloc(r->bases, (r->nr_bases ? r->nr_bases * 2 : 64) *
				     sizeof(*bases));

		if (!bases)
			return -ENOMEM;
		r->bases = bases;
	}
	entry = malloc(2 * sizeof(u64));
	if (!entry)
		return -ENOMEM;
	entry[0] = s->instance;
	entry[1] = r->nr_bases;
	if (hashmap__add(r->instances, entry, entry)) {
		free(entry);
		return -ENOMEM;
	}
	r->bases[r->nr_bases] = s->base;
	r->last_instance = s->instance;
	r->last_index = r->nr_bases;
	*index = r->nr_bases++;
	return 0;
}

/*
 * Keep all accesses up to @max; then keep whole chunks of consecutive
 * accesses, each chunk with the same probability (reservoir sampling), so
 * that the replay sample stays bounded and still has real interleavings.
 */
static int fa_replay__add(struct fa_replay *r, const struct fa_sample *s)
{
	size_t pos;
	u32 index;

	if (r->nr < r->max) {
		if (r->nr == r->alloc) {
			/* grow on demand: most types see few accesses */
			size_t alloc = min(r->alloc ? r->alloc * 2 : r->chunk, r->max);
			struct fa_event *events = realloc(r->events, alloc * sizeof(*events));

			if (!events)
				return -ENOMEM;
			r->events = events;
			r->alloc = alloc;
		}
		pos = r->nr++;
		if (pos % r->chunk == 0)
			r->nr_chunks_seen++;
	} else {
		if (r->nr % r->chunk == 0) {
			/* a new chunk starts: keep it with probability slots / seen */
			u64 k;

			r->nr_chunks_seen++;
			r->seed = r->seed * 1103515245 + 12345;
			k = (u64)r->seed % r->nr_chunks_seen;
			r->target = k < r->max / r->chunk ? k * r->chunk : SIZE_MAX;
		}
		r->nr++;
		if (r->target == SIZE_MAX)
			return 0;
		pos = r->target++;
	}
	if (fa_replay__instance(r, s, &index))
		return -ENOMEM;
	r->events[pos] = (struct fa_event){
		.time = s->time, .instance = index, .tid = s->tid, .func = s->func,
		.cpu = s->cpu, .field = s->field, .op = s->op,
	};
	return 0;
}

/**
 * fa_type__add - Account one access to a field of the type
 *
 * Accesses must come in time order (per scope at least).
 */
int fa_type__add(struct fa_type *t, const struct fa_sample *s)
{
	if (s->field < 0 || s->field >= t->st->nr_fields || s->owner >= (u32)t->cfg.nr_owners)
		return -EINVAL;
	fa_type__count(t, s);
	fa_type__add_thread(t, s->tid, false);
	if (fa_type__transfers(t, s) || fa_type__window(t, s) || fa_replay__add(&t->replay, s))
		return -ENOMEM;
	return 0;
}

/* A thread that accesses the type, or several (code run by several threads) */
void fa_type__add_thread(struct fa_type *t, u32 tid, bool several)
{
	if (!t->nr_threads) {
		t->tid = tid;
		t->nr_threads = 1;
	}
	if (several || t->tid != tid)
		t->nr_threads = 2;
}

/*
 * Whether its cache lines can be shared: one thread alone never contends
 * with itself, whatever CPUs it migrated between.  A HITM says otherwise.
 */
bool fa_type__shared(const struct fa_type *t)
{
	return t->nr_threads > 1 || t->hitm;
}

/* End the windows still open at the end of the recording. */
/* Count the instances that share @ifd's field, now that the code is known */
static void fa_type__count_inst_field(struct fa_type *t, const struct fa_inst_field *ifd)
{
	struct fa_field_stats *fs = &t->stats[ifd->field];
	int writers = 0;

	for (int i = 0; i < ifd->nr; i++) {
		const struct fa_if_owner *o = &ifd->owners[i];

		writers += o->stored || fa_type__code_stores(t, o->func[0], ifd->field) ||
			   fa_type__code_stores(t, o->func[1], ifd->field);
	}
	fs->inst_seen++;
	fs->inst_shared += writers && ifd->nr > 1;
	fs->inst_writers += writers > 1;
}

static void fa_type__inst_fields_flush(struct fa_type *t)
{
	struct hashmap_entry *cur;
	size_t bkt;

	for (int f = 0; f < t->st->nr_fields; f++) {
		t->stats[f].inst_seen = 0;
		t->stats[f].inst_shared = 0;
		t->stats[f].inst_writers = 0;
	}
	hashmap__for_each_entry(t->insts, cur, bkt) {
		const struct fa_inst *inst = cur->pvalue;

		for (int i = 0; i < inst->nr_fields; i++)
			fa_type__count_inst_field(t, &inst->fields[i]);
	}
	for (size_t i = 0; i < t->nr_retired; i++)
		fa_type__count_inst_field(t, &t->retired[i]);
}

static int fa_u64__cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

void fa_type__flush(struct fa_type *t)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(t->windows, cur, bkt)
		fa_type__end_set(t, cur->pvalue);
	/* qsort() and bsearch() of NULL are undefined, even of no elements */
	if (t->nr_code_stores)
		qsort(t->code_stores, t->nr_code_stores, sizeof(*t->code_stores), fa_u64__cmp);
	/* once, instead of a search per access in every replay */
	for (size_t i = 0; i < min(t->replay.nr, t->replay.max); i++) {
		struct fa_event *e = &t->replay.events[i];

		if (fa_type__code_stores(t, e->func, e->field))
			e->op |= FA_EV_CODE_STORE;
	}
	fa_type__inst_fields_flush(t);
}

static u64 fa_code_store__key(u32 func, int field)
{
	return (u64)func << 32 | (u32)field;
}

/*
 * Code context: a sampled function accesses @fields of the type, @samples
 * times: a visit.  Sparse samples seldom catch two accesses of one visit;
 * the code says which lines every call of it touches.
 */
int fa_type__add_code_visit(struct fa_type *t, const int *fields, int nr, u64 samples,
			    double weight)
{
	u16 units[FA_SET_MAX_UNITS];
	int n = 0;

	for (int k = 0; k < nr && n < FA_MAX_WINDOW; k++) {
		u16 unit = t->st->fields[fields[k]].unit;
		int i;

		for (i = 0; i < n && units[i] != unit; i++)
			;
		if (i == n)
			units[n++] = unit;
	}
	if (!n)
		return 0;
	fa_type__record_set(t, t->visits, units, n, 0, samples, weight);
	t->nr_visits += samples;
	return 0;
}

/* Code context: function @func stores to @field (each pair once) */
int fa_type__add_code_store(struct fa_type *t, u32 func, int field)
{
	size_t n = t->nr_code_stores;

	if (!(n & (n - 1))) {		/* 0, 1, 2, 4...: full */
		u64 *stores = realloc(t->code_stores, (n ? 2 * n : 1) * sizeof(*stores));

		if (!stores)
			return -ENOMEM;
		t->code_stores = stores;
	}
	t->code_stores[t->nr_code_stores++] = fa_code_store__key(func, field);
	return 0;
}

/*
 * Does the sampled function @func store to @field?  Then its sampled
 * accesses to it stand for read-modify-writes: time based samples land
 * on the load that stalls, seldom on the store after it.
 */
bool fa_type__code_stores(const struct fa_type *t, u32 func, int field)
{
	u64 key = fa_code_store__key(func, field);

	return func && t->nr_code_stores &&
	       bsearch(&key, t->code_stores, t->nr_code_stores, sizeof(key), fa_u64__cmp);
}

/* Typical time between two accesses of a scope: density of the samples. */
u64 fa_type__median_gap_ns(const struct fa_type *t)
{
	u64 total = 0, seen = 0;

	for (int i = 0; i < 64; i++)
		total += t->gap_hist[i];
	for (int i = 0; i < 64; i++) {
		seen += t->gap_hist[i];
		if (total && seen * 2 >= total)
			return 3ULL << i >> 1;	/* middle of [2^i, 2^(i+1)) */
	}
	return 0;
}

/* Code context: @weight on every pair of the fields a piece of code accesses. */
int fa_type__add_code_fields(struct fa_type *t __maybe_unused, const int *fields, int nr,
			     double weight, struct fa_matrix *m)
{
	for (int a = 0; a < nr; a++) {
		for (int b = a + 1; b < nr; b++) {
			if (fields[a] != fields[b] &&
			    fa_matrix__add(m, min(fields[a], fields[b]), max(fields[a], fields[b]),
					   weight))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Code context: @field is loaded or stored by code of @weight run on @cpus. */
int fa_type__add_code_access(struct fa_type *t, int field, bool store, double weight,
			     const unsigned long *cpus)
{
	struct fa_code_stats *cs;

	if (!t->code_stats) {
		t->code_stats = calloc(t->st->nr_fields, sizeof(*t->code_stats));
		if (!t->code_stats)
			return -ENOMEM;
	}
	cs = &t->code_stats[field];
	if (!cs->readers) {
		cs->readers = bitmap_zalloc(t->cfg.nr_owners);
		cs->writers = bitmap_zalloc(t->cfg.nr_owners);
		if (!cs->readers || !cs->writers)
			return -ENOMEM;
	}
	cs->weight += weight;
	if (store)
		cs->store_weight += weight;
	bitmap_or(store ? cs->writers : cs->readers, store ? cs->writers : cs->readers, cpus,
		  t->cfg.nr_owners);
	return 0;
}
