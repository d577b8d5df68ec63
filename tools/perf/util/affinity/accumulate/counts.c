// SPDX-License-Identifier: GPL-2.0
/*
 * What was seen of the fields of a struct type: loads, stores, HITMs and
 * the owners reading and writing each, and the threads accessing it.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/bitmap.h>
#include <linux/perf_event.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "exact.h"
#include "../fields/fields.h"
#include "type-int.h"
#include "../../mem-events.h"
#include "../../mem-info.h"

int fa_counts__init(struct fa_counts *c, int nr_fields, int nr_owners)
{
	c->stats = calloc(nr_fields, sizeof(*c->stats));
	c->field_groups = calloc(nr_fields, sizeof(*c->field_groups));
	c->mi = mem_info__new();
	if (!c->stats || !c->field_groups || !c->mi)
		return -ENOMEM;
	for (int i = 0; i < nr_fields; i++) {
		c->stats[i].readers = bitmap_zalloc(nr_owners);
		c->stats[i].writers = bitmap_zalloc(nr_owners);
		if (!c->stats[i].readers || !c->stats[i].writers)
			return -ENOMEM;
	}
	return 0;
}

void fa_counts__exit(struct fa_counts *c, int nr_fields)
{
	for (int i = 0; c->stats && i < nr_fields; i++) {
		zfree(&c->stats[i].readers);
		zfree(&c->stats[i].writers);
		fa_exact__delete(c->stats[i].exact);
	}
	zfree(&c->stats);
	zfree(&c->field_groups);
	fa_exact_lines__delete(c->exact_lines);
	c->exact_lines = NULL;
	mem_info__zput(c->mi);
}

/* The percentage of the struct's accesses (weighed) that are to @field */
double fa_type__field_share(const struct fa_type *t, int field)
{
	return t->counts.weight ? 100 * t->counts.stats[field].weight / t->counts.weight : 0;
}

/* The loads of all fields, and the accesses of unknown direction, as the report counts them */
u64 fa_type__loads(const struct fa_type *t)
{
	u64 n = 0;

	for (int i = 0; i < t->st->nr_leaves; i++) {
		const struct fa_field_stats *fs = &t->counts.stats[t->st->leaves[i]];

		n += fs->loads + fs->other;
	}
	return n;
}

/* The stores and read-modify-writes of all fields */
u64 fa_type__stores(const struct fa_type *t)
{
	u64 n = 0;

	for (int i = 0; i < t->st->nr_leaves; i++) {
		const struct fa_field_stats *fs = &t->counts.stats[t->st->leaves[i]];

		n += fs->stores + fs->rmws;
	}
	return n;
}

/* HITMs and peer snoops as perf c2c counts them, local and remote */
static void fa_type__data_src(struct fa_type *t, struct fa_field_stats *fs,
			      const struct fa_sample *s, int group)
{
	struct c2c_stats stats = { .nr_entries = 0, };

	mem_info__data_src(t->counts.mi)->val = s->data_src;
	/* an attributed access has an address, whatever it is */
	mem_info__daddr(t->counts.mi)->addr = s->base ?: 1;
	c2c_decode_stats(&stats, t->counts.mi);
	fs->hitm += stats.tot_hitm;
	fs->peer += stats.tot_peer;
	t->counts.hitm += stats.tot_hitm;
	t->counts.hitm_by_group.g[group] += stats.tot_hitm;
}

static void fa_field_groups__add(struct fa_field_groups *fg, int group,
				 const struct fa_sample *s)
{
	fg->weight.g[group] += s->weight;
	fg->accesses.g[group]++;
	if (s->op & FA_OP_STORE)
		fg->writes.g[group]++;
}

void fa_type__count(struct fa_type *t, const struct fa_sample *s)
{
	struct fa_field_stats *fs = &t->counts.stats[s->field];
	union perf_mem_data_src dsrc = { .val = s->data_src, };
	int group = fa_boot__group(s->time, t->cfg.boot_ns);
	u64 hitm = t->counts.hitm;

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
	/* c2c counts neither without these bits: most accesses need no decoding */
	if (dsrc.mem_op != PERF_MEM_OP_NA && ((dsrc.mem_snoop & PERF_MEM_SNOOP_HITM) ||
					      (dsrc.mem_snoopx & PERF_MEM_SNOOPX_PEER)))
		fa_type__data_src(t, fs, s, group);
	if (s->held) {
		bool store = s->op == FA_OP_STORE || s->op == FA_OP_RMW;

		t->counts.held.stores += store;
		t->counts.held.loads += !store;
		t->counts.held.hitm += t->counts.hitm - hitm;
	}
	t->counts.nr_accesses++;
	t->counts.weight += s->weight;
	fa_field_groups__add(&t->counts.field_groups[s->field], group, s);
	t->counts.weight_by_group.g[group] += s->weight;
	t->counts.accesses_by_group.g[group]++;
	if (!(s->op & FA_OP_STORE))
		t->counts.loads_by_group.g[group]++;
}

/* A watchpoint's hit: an exact access, not a sample (exact.h) */
int fa_type__watched(struct fa_type *t, const struct fa_sample *s)
{
	struct fa_field_stats *fs = &t->counts.stats[s->field];
	struct fa_exact_hit hit = {
		.time = s->time, .base = s->base, .owner = s->owner, .field = s->field,
		.store = s->op & FA_OP_STORE,
	};
	u64 line;

	if (!fs->exact) {
		fs->exact = fa_exact__new(t->cfg.nr_owners);
		if (!fs->exact)
			return -ENOMEM;
	}
	fa_exact__add(fs->exact, s->owner, s->op & FA_OP_STORE, (u64)s->weight);
	if (!t->counts.exact_lines) {
		t->counts.exact_lines = fa_exact_lines__new(t->st->nr_fields);
		if (!t->counts.exact_lines)
			return -ENOMEM;
	}
	/* an instance's real line: its base's address plus the field's offset */
	line = (s->base + t->st->fields[s->field].offset) / t->cfg.line_size;
	fa_type__add_thread(t, s->tid, false);
	return fa_exact_lines__add(t->counts.exact_lines, &hit, line);
}

/* A thread that accesses the type, or several (code run by several threads) */
void fa_type__add_thread(struct fa_type *t, u32 tid, bool several)
{
	if (!t->counts.nr_threads) {
		t->counts.tid = tid;
		t->counts.nr_threads = 1;
	}
	if (several || t->counts.tid != tid)
		t->counts.nr_threads = 2;
}

/*
 * Whether its cache lines can be shared: one thread alone never contends
 * with itself, whatever CPUs it migrated between.  A HITM says otherwise.
 */
bool fa_type__shared(const struct fa_type *t)
{
	return t->counts.nr_threads > 1 || t->counts.hitm;
}
