/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a layout costs the recorded accesses:
 *
 *   lines per window   distinct cache lines the accesses of a window touch
 *                      (windows as for co-access: per scope, W accesses)
 *   transfers          accesses to a line last written by another CPU that
 *                      does not hold it since: the line moves between caches
 *
 *   cost = lines per window + FA_XFER_COST * transfers per window
 *
 * A transfer (a HITM, ~100-300 cycles) costs several times touching one more
 * cache line (an L2/LLC hit, ~10-40 cycles): FA_XFER_COST weighs them.
 *
 * fa_cost_model evaluates layouts from statistics of all the accesses: the
 * units every window touched in every instance, and for every access the
 * units other CPUs wrote to the instance since its CPU last touched it
 * (struct fa_set).  Cheap enough to compare many layouts, and exact where a
 * CPU's previous touch of an instance was on the same line.
 * fa_cost__replay() replays the bounded sample of the access stream with
 * the state of every line instead.
 */
#ifndef __PERF_AFFINITY_COST_H
#define __PERF_AFFINITY_COST_H

#include <stdbool.h>
#include <linux/types.h>
#include "../accumulate/boot.h"

struct fa_classes;
struct fa_layout;
struct fa_type;

#define FA_XFER_COST	8.0


struct fa_cost {
	double	lines_per_window;
	double	xfers_per_window;
	double	xfers_per_kacc;		/* per 1000 accesses */
	double	total;
	u64	windows;
	u64	accesses;
};

struct fa_cost_set {
	double	count;
	int	nr;		/* units touched */
	int	nr_w;		/* units written by other CPUs since */
	int	first;		/* in fa_cost_model::units */
	const double *group;	/* @count by group (boot.h), NULL if not known */
};

/* The window sets, then the move sets of a type (struct fa_set) */
struct fa_cost_model {
	const struct fa_type	*t;
	struct fa_cost_set	*sets;
	int			 nr_sets;
	int			 nr_window_sets;
	u16			*units;
	u64			 nr_windows;
	struct fa_boot_sum	 nr_by_group;	/* @nr_windows, by group (boot.h) */
	double			 xfer_cost;
	/*
	 * Windows are the visits of the sampled code (code.c): sparse samples
	 * catch few of a visit's accesses, so the share of the sampled
	 * accesses to a unit that found its line moved stands for every visit
	 * accessing the unit (fa_cost_set__visit_xfers())
	 */
	bool			 per_visit;
	/*
	 * By unit, may be NULL: written on several CPUs, so that its accesses
	 * move its line whatever else is on it.  The move sets only know the
	 * sampled writes, and time based samples seldom land on a store: they
	 * would credit the moves to whatever written field shares its line.
	 */
	bool			*moving;
};

int fa_cost_model__init(struct fa_cost_model *m, const struct fa_type *t, double xfer_cost,
			bool visits);
void fa_cost_model__exit(struct fa_cost_model *m);
int fa_cost_model__set_moving(struct fa_cost_model *m, const struct fa_classes *c);
double fa_cost_model__eval(const struct fa_cost_model *m, const struct fa_layout *l,
			   struct fa_cost *cost);
void fa_cost_model__shares(const struct fa_cost_model *m, int nr_units, double *share);
double fa_cost_model__share_any(const struct fa_cost_model *m, const bool *units);
double fa_cost_model__lines_at(const struct fa_cost_model *m, const struct fa_layout *l,
			       const u64 *phases);
double fa_cost_model__eval_lines(const struct fa_cost_model *m, const u32 *line_of,
				 struct fa_cost *cost);
void fa_cost_model__eval_groups(const struct fa_cost_model *m, const struct fa_layout *l,
				struct fa_boot_sum *cost, struct fa_boot_sum *lines);
void fa_cost_model__eval_groups_lines(const struct fa_cost_model *m, const u32 *line_of,
				      struct fa_boot_sum *cost, struct fa_boot_sum *lines);
bool fa_cost_model__has_groups(const struct fa_cost_model *m);
bool fa_cost_model__together(const struct fa_cost_model *m, u16 u, u16 v,
			     struct fa_interval *ci);
/* Where fa_cost__replay() puts the instances */
enum fa_bases {
	FA_BASES_RECORDED,	/* at their recorded addresses */
	FA_BASES_LINE_START,	/* at the start of the line they start in */
	FA_BASES_SPREAD,	/* each on cache lines of its own */
};

bool fa_cost__replay_contradicts(const struct fa_cost *now, const struct fa_cost *then);
int fa_cost__replay(const struct fa_type *t, const struct fa_layout *l, enum fa_bases bases,
		    double xfer_cost, struct fa_cost *cost, struct fa_boot_sum *by_group);
/* What a replay counts besides its cost (fa_cost__replay_detail()) */
struct fa_replay_detail {
	double			*by_unit;	/* transfers by the unit accessed, or NULL */
	struct fa_boot_sum	 xfers;		/* by group of the bootstrap (boot.h) */
	struct fa_boot_sum	 accesses;
	struct fa_boot_sum	 windows;
};

int fa_cost__replay_detail(const struct fa_type *t, const struct fa_layout *l,
			   enum fa_bases bases, double xfer_cost, struct fa_cost *cost,
			   struct fa_boot_sum *by_group, struct fa_replay_detail *detail);
void fa_cost_model__moves_by_unit(const struct fa_cost_model *m, const struct fa_layout *l,
				  double *by_unit);

#endif /* __PERF_AFFINITY_COST_H */
