/* SPDX-License-Identifier: GPL-2.0 */
/* perf affinity report, stdio: the struct table and every struct's analysis. */
#ifndef __PERF_AFFINITY_REPORT_H
#define __PERF_AFFINITY_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

struct fa_analysis;
struct fa_attr;
struct fa_type;
struct fa_type_entry;

struct fa_report_opts {
	int		 top_pairs;	/* co-access pairs shown per struct */
	double		 percent_limit;	/* hide fields below this share of accesses */
	double		 xfer_cost;
	bool		 emit_c;	/* also print the suggestion as C */
	const char	*sep;		/* -x: plain separated fields */
};

size_t fa_report__struct_table(FILE *fp, struct fa_attr *a, struct fa_analysis *an,
			       const struct fa_report_opts *o);
size_t fa_report__type(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an,
		       const struct fa_report_opts *o);
double fa_analysis__gain(const struct fa_analysis *an);
u64 fa_type__stores(const struct fa_type *t);
bool fa_report__type_shown(const struct fa_attr *a, const struct fa_type_entry *te,
			   double percent_limit);
bool fa_report__field_shown(const struct fa_type *t, const struct fa_analysis *an, int field,
			    double percent_limit);

#endif /* __PERF_AFFINITY_REPORT_H */
