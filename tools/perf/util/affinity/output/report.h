/* SPDX-License-Identifier: GPL-2.0 */
/* perf affinity report, stdio: the struct table and every struct's analysis. */
#ifndef __PERF_AFFINITY_REPORT_H
#define __PERF_AFFINITY_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "../layout/keep.h"

struct fa_analysis;
struct fa_attr;
struct fa_decode_stats;
struct fa_decoder;
struct fa_hist_entry;
struct fa_hists;
struct fa_type;
struct fa_session;
struct fa_type_entry;

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
	FA_REPORT_ADVICE,	/* the edit, or the reorder, and why */
	FA_REPORT_WHATIF,	/* --try's layouts, scored as the advice (report-try.c) */
	FA_REPORT_MAX,
};

struct fa_report_opts {
	int		 top_pairs;	/* co-access pairs shown per struct */
	double		 percent_limit;	/* hide fields below this share of accesses */
	double		 xfer_cost;
	const char	*fields;	/* -F: the columns of the tables, or NULL */
	const char	*sort_keys;	/* --sort: their order, or NULL */
	bool		 emit_c;	/* also print the suggestion as C */
	const char	*sep;		/* -x: plain separated fields */
	struct fa_keep_opts keep;	/* --keep, --keep-order */
};

/* How the instances of a type get cache lines of their own */
enum fa_align_by {
	FA_ALIGN_BY_TYPE,	/* variables: the type's alignment aligns them */
	FA_ALIGN_BY_ALLOC,	/* heap: their size is right, their addresses are not */
	FA_ALIGN_BY_BOTH,	/* heap: pad the type to the line, allocate aligned */
	FA_ALIGN_BY_MAX,
};

/* Per-CPU areas are page aligned: see fa_type_entry__per_cpu() */
#define FA_PAGE_SIZE	4096

bool fa_type_entry__per_cpu(const struct fa_type_entry *te);
bool fa_type_entry__in_vars(const struct fa_type_entry *te);
bool fa_type_entry__on_stacks(const struct fa_type_entry *te);
int fa_type_entry__align_by(const struct fa_type_entry *te, const struct fa_analysis *an);
const char *fa_align_by__key(int by);
size_t fa_report__banner(FILE *fp, const char *title);
size_t fa_report__arrays(FILE *fp, const struct fa_session *s);
size_t fa_report__data_lines(FILE *fp, const struct fa_attr *a);
size_t fa_report__summary(FILE *fp, const struct fa_decode_stats *ds, struct fa_attr *a);
int fa_report__why(const struct fa_decoder *dec, const struct fa_attr *a, const char *regs,
		   char *buf, size_t size);
size_t fa_report__struct_table(FILE *fp, struct fa_hists *fh, const struct fa_report_opts *o);
size_t fa_report__field_tables_sep(FILE *fp, struct fa_hists *structs,
				   const struct fa_report_opts *o);
size_t fa_report__type(FILE *fp, struct fa_hist_entry *fe, const struct fa_report_opts *o);
int fa_report__title(struct fa_type_entry *te, char *buf, size_t size);
size_t fa_report__section(FILE *fp, int section, struct fa_hist_entry *fe,
			  const struct fa_report_opts *o);
size_t fa_report__advice_section(FILE *fp, int section, struct fa_type_entry *te,
				 struct fa_analysis *an, const struct fa_report_opts *o);
size_t fa_report__tries(FILE *fp, const struct fa_type_entry *te, const struct fa_analysis *an);
int fa_advice__snprintf(const struct fa_analysis *an, const struct fa_struct *st, char *buf,
			size_t size);
int fa_types__embedder(struct fa_type_entry * const *types, int nr_types,
		       const struct fa_type_entry *te, const struct fa_type_entry **outer);
const char *fa_type__owner_verb(const struct fa_type *t);
int fa_analysis__method_reason(const struct fa_analysis *an, const struct fa_type *t,
			       char *buf, size_t size);

const unsigned long *fa_report__roles(const struct fa_type *t, const struct fa_analysis *an,
				      int f, bool writers);

#endif /* __PERF_AFFINITY_REPORT_H */
