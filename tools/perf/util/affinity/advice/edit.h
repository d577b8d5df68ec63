/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The smallest edit: reviewers take a layout patch that moves a field or
 * two and pads one line, not one that reorders the struct.  Starting from
 * the recorded layout, take the edit that lowers the judged cost most,
 * again, up to FA_EDITS_MAX edits, while each saves FA_MIN_GAIN of the
 * recorded layout's cost.
 *
 * A layout is judged by the cost model (cost.h), times what its growth
 * costs: with more instances than fit FA_SMALL_FOOTPRINT each of them is
 * bigger (size / recorded size), fewer (or one) pay FA_LINE_COST a cache
 * line more; plus
 * FA_MOVE_COST for every member declaration it moves and FA_SHIFT_COST for
 * every member whose offset changes (code may rely on offsets).  A layout
 * that changes what must stay (keep.h), or puts units the classes say may
 * not share a line on one they did not share, is never taken.
 */
#ifndef __PERF_AFFINITY_EDIT_H
#define __PERF_AFFINITY_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "../accumulate/boot.h"

struct fa_classes;
struct fa_cost_model;
struct fa_keep;
struct fa_layout;
struct fa_struct;

#define FA_LINE_COST	0.02
#define FA_SMALL_FOOTPRINT	(32 * 1024)	/* bytes: a level 1 data cache */
#define FA_MOVE_COST	0.005
#define FA_SHIFT_COST	0.001
#define FA_EDITS_MAX	8
/* padding is not advised where moves alone save this share of what it saves */
#define FA_MOVES_ENOUGH	0.8

enum fa_edit_op {
	FA_EDIT_MOVE,		/* @unit before @other, or last (-1) */
	FA_EDIT_SWAP,		/* @unit and @other, of one size, trade places */
	FA_EDIT_LINE,		/* @unit starts a cache line (padding before it) */
	FA_EDIT_ISOLATE,	/* @unit on a cache line of its own */
};

struct fa_edit {
	u8	op;
	int	unit;
	int	other;
};

struct fa_edits {
	int		nr;
	struct fa_edit	edit[FA_EDITS_MAX];
	bool		cut;		/* out of work before the search ended */
};

/* How layouts of one struct are judged */
struct fa_judge {
	const struct fa_struct		*st;
	const struct fa_layout		*cur;		/* the recorded layout */
	const struct fa_cost_model	*m;
	const struct fa_keep		*keep;
	const struct fa_classes		*c;		/* units that must not share a line */
	u64				 nr_instances;
	double				 cost0;		/* the model's, of @cur */
	bool				 moves_only;	/* no line starts: nothing padded */
};

double fa_judge__cost(const struct fa_judge *j, const struct fa_layout *l);
void fa_judge__groups(const struct fa_judge *j, const struct fa_layout *l,
		      const struct fa_boot_sum *cost, const struct fa_boot_sum *cur,
		      struct fa_boot_sum *judged);
int fa_layout__moved(const struct fa_layout *cur, const struct fa_layout *l);
int fa_layout__shifted(const struct fa_layout *cur, const struct fa_layout *l);
int fa_edits__search(struct fa_edits *e, struct fa_layout *out, const struct fa_judge *j,
		     const struct fa_classes *c);
bool fa_edits__pad(const struct fa_edits *e);
int fa_order__pos(const int *order, int n, int u);
void fa_edit__apply(const struct fa_edit *e, int *order, bool *ls, int n);
int fa_edits__layout(const struct fa_edits *e, const struct fa_struct *st,
		     const struct fa_layout *cur, struct fa_layout *out);
int fa_edit__snprintf(const struct fa_edit *e, const struct fa_struct *st, char *buf,
		      size_t size);

#endif /* __PERF_AFFINITY_EDIT_H */
