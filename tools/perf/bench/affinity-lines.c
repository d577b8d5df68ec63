// SPDX-License-Identifier: GPL-2.0
/*
 * The cache lines of synthesized memory samples: see affinity-lines.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <linux/zalloc.h>
#include "affinity-lines.h"

#define DSRC(op, lvl, snoop) (PERF_MEM_S(OP, op) | PERF_MEM_S(LVL, lvl) | \
			      PERF_MEM_S(SNOOP, snoop) | PERF_MEM_S(TLB, NA))

int synth_lines__init(struct synth_lines *l, u32 nr, u32 seed)
{
	l->nr = nr;
	l->rnd = seed ?: 1;
	l->owner = malloc(nr);
	l->sharers = zalloc(nr);
	if (!l->owner || !l->sharers) {
		synth_lines__exit(l);
		return -ENOMEM;
	}
	memset(l->owner, -1, nr);
	return 0;
}

void synth_lines__exit(struct synth_lines *l)
{
	zfree(&l->owner);
	zfree(&l->sharers);
}

/* xorshift32: the same samples for the same seed on every machine */
u32 synth_lines__rnd(struct synth_lines *l)
{
	l->rnd ^= l->rnd << 13;
	l->rnd ^= l->rnd >> 17;
	l->rnd ^= l->rnd << 5;
	return l->rnd;
}

/*
 * The data source of an access by @cpu to @line, with a MESI-like model of
 * the line: a load of a line another CPU wrote since this one had it is a
 * HITM, a store hits L1 only if no other CPU has the line.
 */
u64 synth_lines__access(struct synth_lines *l, u32 line, int cpu, bool store, bool lock,
			u64 *weight)
{
	u8 me = 1 << cpu;
	u64 dsrc;

	if (store) {
		dsrc = l->sharers[line] == me ? DSRC(STORE, HIT | PERF_MEM_LVL_L1, NA) :
						DSRC(STORE, MISS | PERF_MEM_LVL_L1, NA);
		l->owner[line] = cpu;
		l->sharers[line] = me;
		*weight = 0;
	} else if (l->owner[line] >= 0 && l->owner[line] != cpu && !(l->sharers[line] & me)) {
		dsrc = DSRC(LOAD, HIT | PERF_MEM_LVL_L3, HITM);
		l->sharers[line] |= me;
		*weight = 150 + synth_lines__rnd(l) % 100;
	} else if (l->sharers[line] & me) {
		dsrc = DSRC(LOAD, HIT | PERF_MEM_LVL_L1, NONE);
		*weight = 4 + synth_lines__rnd(l) % 4;
	} else if (l->sharers[line]) {
		dsrc = DSRC(LOAD, HIT | PERF_MEM_LVL_L3, HIT);
		l->sharers[line] |= me;
		*weight = 30 + synth_lines__rnd(l) % 20;
	} else {
		dsrc = DSRC(LOAD, HIT | PERF_MEM_LVL_LOC_RAM, HIT);
		l->sharers[line] = me;
		*weight = 200 + synth_lines__rnd(l) % 200;
	}
	return dsrc | (lock ? PERF_MEM_S(LOCK, LOCKED) : PERF_MEM_S(LOCK, NA));
}
