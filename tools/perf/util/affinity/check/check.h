/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf affinity check: a layout of a type, maybe changed since the
 * recording (members added, removed or moved), against what the recording
 * shows of the type's accesses.  Members are matched by name.  The layout
 * holds unless:
 *
 *   shared  a unit written on one CPU (thread) shares a cache line with a
 *           unit accessed on another, and the recording's own advice keeps
 *           them apart: the report never asks for more than it advises
 *   spread  the units of a cluster (accessed together) are on more lines
 *           than in the recorded layout and in the advice
 *   group   a hot unit not of a cluster is on a line of the cluster, and
 *           neither the recorded layout nor the advice has it there; a
 *           note only when neither side writes what the other accesses
 *
 * spread and group are checked at the recorded line size and at
 * FA_CHECK_PAIR_LINE bytes (the adjacent-line prefetcher's pair of 64 byte
 * lines), so that a guard set at one holds at the other.
 *   hole    the hot lines (lines with a unit the recording saw accessed)
 *           have more bytes of holes than in the recorded layout, next
 *           to a new member (one put into a hot line); other new holes
 *           there (alignment changed) are noted only: they cost nothing
 *           the other rules do not see
 *   cost    the cost model's cost of the recorded accesses is more than
 *           the maximum regression above the recorded layout's
 *   instances  the recorded accesses replayed with the instances where
 *           they were (at the start of their line if the layout aligns the
 *           type to it) move lines between threads FA_MIN_GAIN more often
 *           than with the advice: a member moved in a heap object at
 *           16 mod 64 may stay on its readers' line
 *
 * Members the recording never saw (new ones) are cold to these rules: they
 * are listed with the line they land on.  Removed members leave the cost
 * of both layouts alike: their accesses count as on lines of their own.
 */
#ifndef __PERF_AFFINITY_CHECK_H
#define __PERF_AFFINITY_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "../accumulate/boot.h"
#include "../advice/cost.h"
#include "../layout/layout.h"

struct fa_analysis;
struct json_writer;
struct fa_struct;
struct fa_type;

enum fa_check_kind {
	FA_CHECK_SHARED,
	FA_CHECK_SPREAD,
	FA_CHECK_HOLE,
	FA_CHECK_COST,
	FA_CHECK_EVIDENCE,
	FA_CHECK_INSTANCES,
	FA_CHECK_GROUP,
	FA_CHECK_MAX,
};

#define FA_CHECK_PAIR_LINE	128

/**
 * struct fa_check_finding - Why a layout does not hold
 * @kind: enum fa_check_kind
 * @unit: New unit: shared, the written one; hole: the one after the hole;
 *        group: the one on the cluster's line
 * @other: Shared: the new unit accessed on other CPUs; spread, group: the
 *         cluster
 * @line: The cache line in the new layout (spread: the first), of @line_size
 * @line_size: The lines' size: the recorded one, or FA_CHECK_PAIR_LINE
 * @bytes: Hole: its size
 * @lines_allowed: Spread: lines of the cluster, allowed
 * @lines_now: and now
 * @groups: Evidence: the groups of time (boot.h) with accesses of the type,
 *          fewer than FA_BOOT_MIN_GROUPS
 * @as_recorded: Shared: the recorded layout had them on one line too
 * @note: Said, but the layout holds all the same
 * @undecided: The recording cannot tell whether it holds: the cost's
 *             interval spans the maximum regression, or only a candidate
 *             the evidence is insufficient for keeps the units apart or
 *             puts them on fewer lines
 */
struct fa_check_finding {
	int	kind;
	bool	note;
	bool	undecided;
	int	unit;
	int	other;
	u32	line;
	u32	line_size;
	u32	bytes;
	int	lines_allowed;
	int	lines_now;
	int	groups;
	bool	as_recorded;
};

/**
 * struct fa_check - A new layout of a recorded type, checked
 * @t: The recorded type
 * @an: Its analysis
 * @st: The type now
 * @layout: Its layout now
 * @new_unit: By recorded unit: its unit now, or -1 (removed)
 * @old_unit: By unit now: the recorded unit, or -1 (new)
 * @cost_recorded: Of the recorded accesses with the recorded layout
 * @cost_now: and with the new
 * @change: Relative change of the cost, with its interval (boot.h)
 * @max_regression: Allowed @change
 * @no_cost: The profile has no cost model (a report saved by an earlier perf):
 *           @cost is not known
 * @hole_bytes_recorded: On hot lines, recorded
 * @hole_bytes_now: and now
 * @nr_failed: Findings that are not notes: the layout does not hold
 * @nr_undecided: Findings the recording cannot tell
 */
struct fa_check {
	const struct fa_type		*t;
	const struct fa_analysis	*an;
	const struct fa_struct		*st;
	struct fa_layout		 layout;
	int				*new_unit;
	int				*old_unit;
	struct fa_cost			 cost_recorded;
	struct fa_cost			 cost_now;
	double				 change;
	struct fa_interval		 change_ci;
	double				 max_regression;
	bool				 no_cost;
	/* the replay of the recorded accesses: recorded layout, this one, the advice */
	bool				 replayed;
	struct fa_cost			 replay_recorded;
	struct fa_cost			 replay_now;
	struct fa_cost			 replay_advised;
	u32				 hole_bytes_recorded;
	u32				 hole_bytes_now;
	struct fa_check_finding		*findings;
	int				 nr_findings;
	int				 nr_failed;
	int				 nr_undecided;
	int				 alloc;
};

int fa_check__run(struct fa_check *c, const struct fa_type *t, const struct fa_analysis *an,
		  const struct fa_struct *st, double max_regression);
void fa_check__exit(struct fa_check *c);
const char *fa_check__verdict(const struct fa_check *c);
bool fa_check__hot(const struct fa_check *c, int unit);
int fa_check__line_of(const struct fa_check *c, int unit);

void fa_check__fprintf(const struct fa_check *c, const char *path, FILE *fp);
void fa_check__json(struct json_writer *j, const struct fa_check *c);

#endif /* __PERF_AFFINITY_CHECK_H */
