/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A report saved with --json, read back as the profile perf affinity check
 * takes instead of a perf.data: per struct type its fields, their classes
 * and owners, the clusters and the recorded and suggested layouts, as the
 * struct fa_type and fa_analysis that fa_check__run() takes, the cost
 * model compiled (reports saved by an earlier perf have none: from them,
 * the cost is not checked).
 */
#ifndef __PERF_AFFINITY_PROFILE_H
#define __PERF_AFFINITY_PROFILE_H

#include <stdbool.h>
#include <linux/types.h>
#include "../advice/analyze.h"
#include "../accumulate/owner.h"
#include "../accumulate/type.h"

/**
 * struct fa_profile_type - A struct type of the saved report
 * @t: Its struct and configuration; no accesses
 * @an: The classes, clusters, layouts and cost model of its analysis
 * @groups: By set of the cost model, its windows in each group (boot.h)
 * @share: Its share of the accesses of all types, in percent
 */
struct fa_profile_type {
	struct fa_type		t;
	struct fa_analysis	an;
	double			*groups;
	double			share;
};

struct fa_profile {
	struct fa_owners	 owners;	/* the threads, when owners are threads */
	struct fa_profile_type	*types;
	int			 nr_types;
};

bool fa_profile__is_json(const char *path);
int fa_profile__read(struct fa_profile *p, const char *path);
void fa_profile__exit(struct fa_profile *p);

#endif /* __PERF_AFFINITY_PROFILE_H */
