/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The watchpoints' hits of a type (exact.h) replayed in their order, each
 * field where a layout puts it: the transfers of the watched lines as
 * fa_exact_lines__add() counts them.
 */
#ifndef __PERF_AFFINITY_WATCHED_H
#define __PERF_AFFINITY_WATCHED_H

#include <stdbool.h>
#include <linux/types.h>

struct fa_exact_lines;
struct fa_layout;
struct fa_struct;

/* What the watched accesses would move with a layout: fa_exact_lines__replay() */
struct fa_exact_cost {
	u64	hits;
	u64	transfers;
	u64	false_sharing;
};

int fa_exact_lines__replay(const struct fa_exact_lines *xl, const struct fa_struct *st,
			   const struct fa_layout *l, bool line_start, struct fa_exact_cost *cost);
bool fa_exact_cost__worse(const struct fa_exact_cost *now, const struct fa_exact_cost *then);

#endif /* __PERF_AFFINITY_WATCHED_H */
