/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache lines of synthesized memory samples: which CPU wrote each line
 * last and which CPUs have it, to give every access the data source and
 * weight a PEBS sample of it would have (perf bench affinity synth and
 * kernel-synth).
 */
#ifndef __PERF_BENCH_AFFINITY_LINES_H
#define __PERF_BENCH_AFFINITY_LINES_H

#include <linux/types.h>

#define SYNTH_LINES_MAX_CPUS	8	/* the sharers of a line are a u8 */

struct synth_lines {
	s8	*owner;		/* per line: CPU that wrote it last, or -1 */
	u8	*sharers;	/* per line: CPUs that have it */
	u32	 nr;
	u32	 rnd;
};

int synth_lines__init(struct synth_lines *l, u32 nr, u32 seed);
void synth_lines__exit(struct synth_lines *l);
u32 synth_lines__rnd(struct synth_lines *l);
u64 synth_lines__access(struct synth_lines *l, u32 line, int cpu, bool store, bool lock,
			u64 *weight);

#endif /* __PERF_BENCH_AFFINITY_LINES_H */
