/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What-if: a layout a reviewer proposes in the advice's own words, 'move
 * lock to the end; start a cache line at reader1', scored as the advice
 * is: the cost model with its interval, the replay of the accesses, the
 * watched hits, lines per visit, and what the layout costs in memory.
 *
 * The words (one edit each, ';' between them):
 *
 *   move X to the end | to the start | before Y | after Y
 *   swap X and Y
 *   start a cache line at X [(align it)]
 *   give X a cache line of its own | pad X to a line
 *   align the struct to N
 */
#ifndef __PERF_AFFINITY_TRY_H
#define __PERF_AFFINITY_TRY_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "analyze.h"

struct fa_type;

#define FA_TRIES_MAX	8	/* --try options a report takes */

/**
 * struct fa_try - One proposed layout of one struct type, and its score
 * @text: As given to --try
 * @edits: Its edits of the recorded layout
 * @align: 'align the struct to N': N, else 0
 * @layout: What the edits make
 * @cost: By each measure the advice is scored with (fa_layout_cost)
 * @gain_ci: The model's saving, with its interval
 * @replay_gain_ci: The replay's saving, with its interval
 * @watched: The watched hits replayed with @layout, if any were recorded
 * @judged: What the advice's search weighs it with (edit.h)
 * @moved: Member declarations it moves
 * @breaks: It changes what must stay (keep.h)
 */
struct fa_try {
	const char		*text;
	struct fa_edits		 edits;
	u32			 align;
	struct fa_layout	 layout;
	struct fa_layout_cost	 cost;
	struct fa_interval	 gain_ci;
	struct fa_interval	 replay_gain_ci;
	struct fa_exact_cost	 watched;
	double			 judged;
	int			 moved;
	bool			 breaks;
};

int fa_try__syntax(const char *text, char *msg, size_t size);
int fa_try__parse(struct fa_try *tr, const struct fa_struct *st, const struct fa_layout *cur,
		  const char *text, char *msg, size_t size);
int fa_try__score(struct fa_try *tr, const struct fa_type *t, const struct fa_analysis *an);
static inline void fa_try__exit(struct fa_try *tr)
{
	fa_layout__exit(&tr->layout);
}

#endif /* __PERF_AFFINITY_TRY_H */
