// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded sample of the access stream of a struct type, kept to replay
 * any layout exactly: every access up to a limit, then chunks of
 * consecutive accesses by reservoir sampling.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/key.h"
#include "type-int.h"

int fa_replay__init(struct fa_replay *r, size_t max)
{
	r->chunk = FA_REPLAY_CHUNK;
	r->max = max_t(size_t, roundup(max, FA_REPLAY_CHUNK), FA_REPLAY_CHUNK);
	r->seed = 1;
	return fa_keymap__init(&r->instances);
}

void fa_replay__exit(struct fa_replay *r)
{
	fa_keymap__free_values(&r->instances);
	zfree(&r->events);
	zfree(&r->bases);
}

/* An instance of the replay sample and its index in fa_replay::bases */
struct fa_replay_inst {
	u64	key;
	u32	index;
};

static int fa_replay__instance(struct fa_replay *r, const struct fa_sample *s, u32 *index)
{
	struct fa_replay_inst *entry;

	if (r->nr_bases && r->last_instance == s->instance) {
		*index = r->last_index;
		return 0;
	}
	entry = fa_keymap__find(&r->instances, s->instance);
	if (entry) {
		r->last_instance = s->instance;
		r->last_index = entry->index;
		*index = entry->index;
		return 0;
	}
	if (!(r->nr_bases & (r->nr_bases - 1))) {
		u64 *bases = realloc(r->bases, (r->nr_bases ? r->nr_bases * 2 : 64) *
				     sizeof(*bases));

		if (!bases)
			return -ENOMEM;
		r->bases = bases;
	}
	entry = fa_keymap__findnew(&r->instances, s->instance, sizeof(*entry));
	if (!entry)
		return -ENOMEM;
	entry->index = r->nr_bases;
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
int fa_replay__add(struct fa_replay *r, const struct fa_sample *s)
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
		.cpu = s->cpu, .field = s->field, .op = s->op, .rec = s->rec,
	};
	return 0;
}
