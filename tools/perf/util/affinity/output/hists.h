/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The struct and field tables of perf affinity report as perf hists: each
 * column a dimension, so that -F, --sort and -x work on both tables and
 * the TUI browses them with perf's hists browser, as perf c2c does.
 */
#ifndef __PERF_AFFINITY_HISTS_H
#define __PERF_AFFINITY_HISTS_H

#include <stdbool.h>
#include <stdio.h>
#include "../../hist.h"

struct fa_analysis;
struct fa_report_opts;
struct fa_session;
struct fa_type;
struct fa_type_entry;
struct thread;

enum fa_table {
	FA_TABLE_STRUCTS,
	FA_TABLE_FIELDS,
	FA_TABLE_MAX,
};

struct fa_hists {
	struct hists		 hists;
	struct perf_hpp_list	 list;
	enum fa_table		 table;
	int			 nr_shown;	/* entries above --percent-limit */
	int			 nr_hidden;	/* and below it */
	double			 percent_limit;
	struct fa_hist_entry	*parent;	/* of a field table: its struct */
	struct thread		*thread;	/* hists want one: a placeholder */
};

/* A struct type, or a field of one */
struct fa_hist_entry {
	struct fa_type_entry	*te;
	struct fa_analysis	*an;
	int			 index;		/* of the type in the session */
	int			 field;		/* in te->st->fields, -1: the struct */
	struct fa_hists		*fields;	/* a struct's field table, or NULL */
	struct hist_entry	 he;
};

static inline struct fa_hist_entry *fa_hist_entry(struct hist_entry *he)
{
	return container_of(he, struct fa_hist_entry, he);
}

int fa_hists__check_keys(const char *option, const char *keys);
bool fa_hists__field_shown(const struct fa_type *t, const struct fa_analysis *an, int field,
			   double percent_limit);
int fa_hists__structs(struct fa_hists *fh, struct fa_session *s, struct fa_analysis *an,
		      const struct fa_report_opts *o);
struct fa_hists *fa_hists__fields(struct fa_hist_entry *fe, const struct fa_report_opts *o);
void fa_hists__exit(struct fa_hists *fh);
size_t fa_hists__fprintf(struct fa_hists *fh, FILE *fp);
size_t fa_hists__fprintf_sep(struct fa_hists *fh, FILE *fp, const char *key, const char *value,
			     bool header);
/* How a field's class is marked in the table */
enum fa_mark {
	FA_MARK_CODE,		/* "(code)": from the sampled code */
	FA_MARK_EXACT,		/* "(exact)": from the watchpoints */
	FA_MARK_UNSURE,		/* "?": another in FA_CLASS_SURE of the replicates */
};

bool fa_hists__marked(struct fa_hists *fh, enum fa_mark mark);

struct fa_hist_entry *fa_hists__next(struct fa_hists *fh, struct fa_hist_entry *fe);

/* The entries above --percent-limit, in --sort order */
#define fa_hists__for_each_entry(fh, fe)					\
	for (fe = fa_hists__next(fh, NULL); fe; fe = fa_hists__next(fh, fe))

#endif /* __PERF_AFFINITY_HISTS_H */
