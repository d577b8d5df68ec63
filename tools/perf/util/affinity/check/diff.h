/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf affinity diff: one struct type in two recordings, as perf diff
 * compares two profiles: what each measured (cache lines per window or
 * visit, transfers, HITMs, the fields' shares of the accesses, the falsely
 * shared pairs), side by side with the change; and what the old recording
 * predicted of the new layout, against what the new one measured.
 */
#ifndef __PERF_AFFINITY_DIFF_H
#define __PERF_AFFINITY_DIFF_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "../accumulate/boot.h"

struct fa_analysis;
struct json_writer;
struct fa_type;

/**
 * struct fa_diff_side - A type as one recording saw it
 * @t: The type, NULL if that recording has no access to it
 * @an: Its analysis
 * @hitm: The recording has data sources: its HITMs are measured
 */
/* What diff sets side by side for a type: fa_diff__fprintf()'s rows */
enum fa_diff_measure {
	FA_DIFF_ACCESSES,
	FA_DIFF_INSTANCES,
	FA_DIFF_LINES,
	FA_DIFF_XFERS,
	FA_DIFF_HITM,
	FA_DIFF_COST,
	FA_DIFF_MAX,
};

struct fa_diff_side {
	const struct fa_type		*t;
	const struct fa_analysis	*an;
	bool				 hitm;
	u64				 samples;	/* of the recording, 0: not known */
};

/**
 * struct fa_diff - A type in two recordings
 * @side: Old, new
 * @predicted_was: Of the old accesses with the old layout
 * @predicted_now: and with the new
 * @have_predicted: Both recordings have the type
 * @percent_limit: Fields with less of the accesses in both are not shown
 * @change: Of the lines per window and the cost, with intervals (boot.h)
 * @have_change: Both recordings know the groups of their windows
 */
struct fa_diff {
	const char		*name;
	struct fa_diff_side	 side[2];
	bool			 predicted_replayed;	/* by the replay, not the model */
	double			 predicted_was;
	double			 predicted_now;
	bool			 have_predicted;
	double			 percent_limit;
	/* by measure (diff.c): the relative change, if it has an interval */
	struct fa_interval	 change[FA_DIFF_MAX];
	bool			 have_change[FA_DIFF_MAX];
};

int fa_diff__init(struct fa_diff *d, const char *name, const struct fa_diff_side *old,
		  const struct fa_diff_side *new, double percent_limit);
void fa_diff__fprintf(const struct fa_diff *d, FILE *fp);

struct fa_dl_sum;
void fa_diff__dlines_fprintf(FILE *fp, const struct fa_dl_sum *old, u64 old_samples,
			     const struct fa_dl_sum *new, u64 new_samples);
void fa_diff__dlines_json(struct json_writer *j, const struct fa_dl_sum *old, u64 old_samples,
			  const struct fa_dl_sum *new, u64 new_samples);
int fa_diff__json(struct json_writer *j, const struct fa_diff *d);

#endif /* __PERF_AFFINITY_DIFF_H */
