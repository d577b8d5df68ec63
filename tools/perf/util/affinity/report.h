/* SPDX-License-Identifier: GPL-2.0 */
/* perf affinity report, stdio: the struct table and every struct's analysis. */
#ifndef __PERF_AFFINITY_REPORT_H
#define __PERF_AFFINITY_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

struct fa_analysis;
struct fa_attr;
struct fa_decode_stats;
struct fa_decoder;
struct fa_type;
struct fa_type_entry;

/* --sort keys of the struct table */
enum fa_sort {
	FA_SORT_ACCESSES,
	FA_SORT_STORES,
	FA_SORT_HITM,
	FA_SORT_FS,		/* false sharing pairs */
	FA_SORT_GAIN,		/* predicted gain of the suggestion */
	FA_SORT_SIZE,
	FA_SORT_NAME,
	FA_SORT_MAX,
};

/* The sections of a struct type's report, in the order they are printed */
enum fa_report_section {
	FA_REPORT_ALIGNMENT,	/* instances that do not start on a cache line */
	FA_REPORT_FIELDS,
	FA_REPORT_PAIRS,	/* top co-access pairs */
	FA_REPORT_FALSE_SHARING,
	FA_REPORT_SHARED_LINES,	/* lines of several instances */
	FA_REPORT_CLUSTERS,
	FA_REPORT_LAYOUTS,	/* current and suggested, pahole's format */
	FA_REPORT_COST,		/* predicted, of both layouts */
	FA_REPORT_MAX,
};

struct fa_report_opts {
	int		 top_pairs;	/* co-access pairs shown per struct */
	double		 percent_limit;	/* hide fields below this share of accesses */
	double		 xfer_cost;
	int		 sort;		/* enum fa_sort of the struct table */
	bool		 emit_c;	/* also print the suggestion as C */
	const char	*sep;		/* -x: plain separated fields */
};

int fa_sort__parse(const char *key);
const char *fa_sort__keys(void);
int fa_report__order(struct fa_attr *a, struct fa_analysis *an, int sort, int *order);
size_t fa_report__summary(FILE *fp, const struct fa_decode_stats *ds, struct fa_attr *a);
int fa_report__why(const struct fa_decoder *dec, const struct fa_attr *a, const char *regs,
		   char *buf, size_t size);
size_t fa_report__struct_header(FILE *fp, const struct fa_report_opts *o);
size_t fa_report__struct_line(FILE *fp, struct fa_type_entry *te, const struct fa_analysis *x,
			      const struct fa_report_opts *o);
size_t fa_report__struct_table(FILE *fp, struct fa_attr *a, struct fa_analysis *an,
			       const struct fa_report_opts *o);
size_t fa_report__type(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an,
		       const struct fa_report_opts *o);
int fa_report__title(struct fa_type_entry *te, char *buf, size_t size);
size_t fa_report__section(FILE *fp, int section, struct fa_type_entry *te,
			  struct fa_analysis *an, const struct fa_report_opts *o);
double fa_analysis__gain(const struct fa_analysis *an);
int fa_analysis__method_reason(const struct fa_analysis *an, const struct fa_type *t,
			       char *buf, size_t size);
u64 fa_type__stores(const struct fa_type *t);
bool fa_report__type_shown(const struct fa_attr *a, const struct fa_type_entry *te,
			   double percent_limit);
bool fa_report__field_shown(const struct fa_type *t, const struct fa_analysis *an, int field,
			    double percent_limit);

#endif /* __PERF_AFFINITY_REPORT_H */
