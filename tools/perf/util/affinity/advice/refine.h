/* SPDX-License-Identifier: GPL-2.0 */
/* Improve a suggested layout by local search under the cost model. */
#ifndef __PERF_AFFINITY_REFINE_H
#define __PERF_AFFINITY_REFINE_H

struct fa_classes;
struct fa_cost_model;
struct fa_layout;
struct fa_struct;

int fa_layout__refine(struct fa_layout *l, const struct fa_struct *st,
		      const struct fa_classes *c, const struct fa_cost_model *m);

#endif /* __PERF_AFFINITY_REFINE_H */
