// SPDX-License-Identifier: GPL-2.0
/* The samples' IPs resolved once per instruction and thread (see resolve-cache.h). */
#include <errno.h>
#include <stdlib.h>
#include <linux/build_bug.h>
#include <linux/zalloc.h>
#include "resolve-cache.h"
#include "env.h"
#include "event.h"
#include "machine.h"
#include "sample.h"

int resolve_cache__init(struct resolve_cache *r)
{
	r->hits = r->misses = 0;
	r->slots = calloc(RESOLVE_CACHE_SLOTS, sizeof(*r->slots));
	r->evict = calloc(1 << RESOLVE_CACHE_BITS, sizeof(*r->evict));
	if (!r->slots || !r->evict) {
		resolve_cache__exit(r);
		return -ENOMEM;
	}
	return 0;
}

/* Drop what was resolved: threads or maps changed */
void resolve_cache__flush(struct resolve_cache *r)
{
	for (int i = 0; r->slots && i < RESOLVE_CACHE_SLOTS; i++) {
		struct resolve_cache_slot *s = &r->slots[i];

		if (s->valid)
			addr_location__exit(&s->al);
		s->valid = false;
	}
}

void resolve_cache__exit(struct resolve_cache *r)
{
	resolve_cache__flush(r);
	zfree(&r->slots);
	zfree(&r->evict);
}

/* The set of @ip and @tid: its first slot */
static size_t resolve_cache__set(u64 ip, u32 tid)
{
	/* the top bits of the product: every bit of the key changes them */
	u64 key = (ip ^ (u64)tid << 40) * 0x9E3779B97F4A7C15ULL;

	return key >> (64 - RESOLVE_CACHE_BITS);
}

static bool resolve_cache_slot__match(const struct resolve_cache_slot *s, struct machine *machine,
				      const struct perf_sample *sample)
{
	return s->valid && s->ip == sample->ip && s->tid == sample->tid &&
	       s->pid == sample->pid && s->cpumode == sample->cpumode && s->machine == machine;
}

/* machine__resolve() of @sample into @s; false when its thread cannot be had */
static bool resolve_cache_slot__fill(struct resolve_cache_slot *s, struct machine *machine,
				     struct perf_sample *sample)
{
	if (s->valid)
		addr_location__exit(&s->al);
	s->valid = false;
	addr_location__init(&s->al);
	if (machine__resolve(machine, &s->al, sample) < 0) {
		addr_location__exit(&s->al);
		return false;
	}
	s->machine = machine;
	s->ip = sample->ip;
	s->pid = sample->pid;
	s->tid = sample->tid;
	s->cpumode = sample->cpumode;
	s->valid = true;
	return true;
}

/**
 * resolve_cache__resolve - machine__resolve() of @sample, from the cache if
 * an earlier sample of the same thread had the same IP
 *
 * Return: the location, the resolver's: valid until the next call or
 * flush, never to be passed to addr_location__exit(); NULL when the
 * sample's thread cannot be found or created.
 */
struct addr_location *resolve_cache__resolve(struct resolve_cache *r, struct machine *machine,
					     struct perf_sample *sample)
{
	size_t set = resolve_cache__set(sample->ip, sample->tid);
	struct resolve_cache_slot *s = &r->slots[set * RESOLVE_CACHE_WAYS];
	struct perf_env *env = machine->env;
	int way;

	BUILD_BUG_ON(RESOLVE_CACHE_WAYS != 2);	/* the way to evict is a bit */
	for (way = 0; way < RESOLVE_CACHE_WAYS; way++) {
		if (resolve_cache_slot__match(&s[way], machine, sample))
			break;
	}
	if (way < RESOLVE_CACHE_WAYS) {
		r->hits++;
	} else {
		r->misses++;
		way = r->evict[set];
		if (!resolve_cache_slot__fill(&s[way], machine, sample))
			return NULL;
	}
	/* the other way goes first: the one used least recently */
	r->evict[set] = !way;
	s = &s[way];
	/* what machine__resolve() takes from the sample, not from the IP */
	s->al.cpu = sample->cpu;
	s->al.socket = -1;
	if (s->al.cpu >= 0 && env && env->cpu && s->al.cpu < env->nr_cpus_avail)
		s->al.socket = env->cpu[s->al.cpu].socket_id;
	return &s->al;
}
