/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From the accesses of one struct type to layout advice: which co-access
 * to trust, the classes of the fields, the clusters, the suggested layout
 * and what it is predicted to save.
 */
#ifndef __PERF_AFFINITY_ANALYZE_H
#define __PERF_AFFINITY_ANALYZE_H

#include <stdbool.h>
#include <linux/types.h>
#include "../layout/classify.h"
#include "../layout/cluster.h"
#include "cost.h"
#include "edit.h"
#include "../accumulate/exact.h"
#include "watched.h"
#include "../layout/keep.h"
#include "../layout/layout.h"
#include "../accumulate/matrix.h"
#include "split.h"

struct fa_field;
struct fa_try;
struct fa_type;

enum fa_method {
	FA_METHOD_AUTO,
	FA_METHOD_WINDOW,	/* fields accessed in the same window */
	FA_METHOD_CODE,		/* fields the sampled code accesses */
	FA_METHOD_MAX,
};

/*
 * Accesses of a scope this close in time are co-accesses; sparser samples
 * (software address sampling takes one per millisecond) need the code
 * context method.
 */
#define FA_DENSE_GAP_NS		10000

/* What the report advises for a type */
enum fa_advice {
	FA_ADVICE_NONE,		/* nothing saves enough */
	FA_ADVICE_EDIT,		/* the smallest edit (edit.h) */
	FA_ADVICE_REORDER,	/* the full reorder: clearly better than any small edit */
	FA_ADVICE_SPLIT,	/* hot/cold split (split.h): the layout stays */
};

/* Why the analysis took its method */
enum fa_method_why {
	FA_METHOD_WHY_ASKED,		/* --method */
	FA_METHOD_WHY_DENSE,		/* samples dense enough for windows */
	FA_METHOD_WHY_SPARSE,		/* too sparse: the sampled code's fields */
	FA_METHOD_WHY_SPARSE_NO_CODE,	/* too sparse, but no code context */
	FA_METHOD_WHY_NO_CODE,		/* the code method without code context */
	FA_METHOD_WHY_MAX,
};

#define FA_TOP_PAIRS	10	/* co-access pairs the report names */
/* A falsely shared pair is shown with this share (percent) of the transfers */
#define FA_FS_SHOWN	1.0

/*
 * A falsely shared pair: transfers from a write of @writer to an access of
 * @reader on one real cache line; @share of all of them, with its
 * interval for the pairs of FA_FS_SHOWN or more
 */
struct fa_fs_pair {
	int			 writer;
	int			 reader;
	double			 weight;
	double			 share;
	struct fa_interval	 share_ci;
};

/*
 * A pair of fields of the most co-access: its share of the co-access, and
 * the share of the windows (visits) that touched both their units, with
 * its interval, if they are two units and the sets know their groups
 */
struct fa_top_pair {
	int			 a;
	int			 b;
	double			 share;
	struct fa_interval	 together;
	bool			 have_together;
};

struct fa_shared_line;

/* What a layout costs, by each measure the analysis has of it */
struct fa_layout_cost {
	struct fa_cost		 model;		/* the cost model's */
	struct fa_interval	 cost_ci;	/* of the model's total, per window (visit) */
	struct fa_cost		 replay;	/* the sampled accesses replayed */
	struct fa_boot_sum	 replay_groups;	/* the replay's cost, by group */
	/* its transfers, accesses and windows by group (@current's only) */
	struct fa_replay_detail	 replayed;
	double			 visit_lines;	/* per visit, instances where they were */
	int			 every_call_lines;	/* of the fields nearly every visit reads */
};

/* The judge's cost per window (visit) of each layout it weighs */
struct fa_judged {
	double			 current;
	double			 edit;		/* the smallest edit */
	double			 reorder;	/* the full reorder */
};

/*
 * What the accesses show before any advice: the report's fields, their
 * co-access and the lines shared between threads
 */
struct fa_seen {
	int			 method;
	enum fa_method_why	 why;
	u64			 gap_ns;	/* median between a scope's samples */
	const struct fa_matrix	*affinity;	/* field x field, of @method */
	struct fa_classes	 classes;
	struct fa_layout	 current;
	struct fa_top_pair	 top[FA_TOP_PAIRS];
	int			 nr_top;
	struct fa_fs_pair	*fs_pairs;	/* the most transfers first */
	int			 nr_fs_pairs;
	/* lines of several instances, one writing (lines.h), most accessed first */
	struct fa_shared_line	*shared_lines;
	int			 nr_shared_lines;
	/* the largest array of the type in another type seen (fa_types__embedder()) */
	const char		*embed_type;
	const struct fa_field	*embed_field;
	/* the current layout's cost and lines, the windows (visits), by group */
	struct {
		struct fa_boot_sum	 cost;
		struct fa_boot_sum	 lines;
		struct fa_boot_sum	 windows;
	} measured;
};

/* The report's predicted cost: of the current layout and the advised one */
struct fa_predicted {
	/*
	 * Of the window (visit) and move sets, the classes' moving units: what
	 * every output and check weighs layouts with; .sets NULL if a saved
	 * report had none
	 */
	struct fa_cost_model	 model;
	double			 xfer_cost;	/* as weighed: 0 if one thread alone */
	bool			 per_visit;	/* the model counts lines per visit, not window */
	struct fa_layout_cost	 now;		/* of the current layout */
	struct fa_layout_cost	 advised;	/* of the suggested one */
	/* how sure (boot.h): the model's saving and cost per window (visit) */
	struct fa_interval	 gain_ci;
	struct fa_interval	 replay_gain_ci;	/* of the replay's saving */
	struct fa_judged	 judged;
};

/* The report's advice: the edit, the layout it makes, what it must keep */
struct fa_advised {
	enum fa_advice		 kind;
	struct fa_matrix	 unit_affinity;
	struct fa_clusters	 clusters;
	struct fa_layout	 suggested;	/* what is advised */
	struct fa_edits		 edits;
	struct fa_split		 split;
	struct fa_keep		 keep;
	int			 moved;		/* members the advice moves */
	int			 shifted;	/* members whose offset the advice changes */
	bool			 unsure;	/* the replay does not confirm the model */
	bool			 needs_line_start;	/* apart only in instances starting a line */
	bool			 changed;
	bool			 kept;		/* the suggestion saved too little */
	bool			 spread;	/* aligned: instances no longer share lines */
};

/* The full reorder, advised or not: the report's last line of a type */
struct fa_reorder {
	struct fa_layout	 layout;
	int			 moved;		/* members it moves */
	bool			 breaks;	/* moves what must stay (keep.h) */
	struct fa_cost		 model;
	struct fa_interval	 gain_ci;	/* of its saving (model) */
};

/* A candidate whose saving is not sure: what to record to know */
struct fa_candidate {
	bool			 insufficient;	/* a candidate, its saving not sure */
	struct fa_layout	 layout;	/* then: the leading candidate */
	enum fa_advice		 advice;
	double			 record_more;	/* times the samples it needs, 0: unknown */
	/* the replay of the accesses says the candidate costs more: its cost */
	bool			 contradicted;
	struct fa_cost		 replay;
};

/* The analysis of one type, a sub-record for each section of the report */
struct fa_analysis {
	struct fa_seen		 seen;
	struct fa_predicted	 cost;
	struct fa_advised	 advice;
	struct fa_reorder	 reorder;
	struct fa_candidate	 candidate;
	/*
	 * The watchpoints' hits replayed (exact.h): with the current layout,
	 * and with the advice or, if none, the leading candidate.  An advice
	 * that moves the watched lines more often is only the candidate.
	 */
	struct {
		struct fa_exact_cost	 now;
		struct fa_exact_cost	 then;
		bool			 worse;
	} watched;
	/* what-if: the layouts --try proposes, scored as the advice (try.h) */
	struct fa_try		*tries;
	int			 nr_tries;
};

/*
 * An edit is advised when the lower end of the FA_BOOT_LEVEL interval of
 * its saving reaches FA_MIN_GAIN, and a larger edit over a smaller one when
 * it is better in this share of the replicates
 */
#define FA_SURE			FA_BOOT_LEVEL

/* A field this share of the windows (visits) touches is read by every call */
#define FA_EVERY_CALL	0.9

int fa_analysis__run(struct fa_analysis *a, struct fa_type *t, int method, double xfer_cost,
		     const struct fa_keep_opts *keep);
void fa_analysis__exit(struct fa_analysis *a);
double fa_analysis__gain(const struct fa_analysis *an);
double fa_analysis__saving(const struct fa_analysis *an);
bool fa_analysis__saving_interval(const struct fa_analysis *an, struct fa_interval *ci);
bool fa_analysis__unsure(const struct fa_analysis *a);
bool fa_analysis__few_groups(const struct fa_cost_model *m, int *nr_groups);
bool fa_analysis__watched_replayed(const struct fa_analysis *a);
void fa_analysis__judge(const struct fa_analysis *a, const struct fa_type *t, struct fa_judge *j);
double fa_analysis__visit_lines(const struct fa_analysis *a, const struct fa_type *t,
				const struct fa_layout *l);
const char *fa_method__name(int method);
int fa_method__parse(const char *key);
const char *fa_method_why__name(enum fa_method_why why);
const char *fa_method_why__text(enum fa_method_why why);

#endif /* __PERF_AFFINITY_ANALYZE_H */
