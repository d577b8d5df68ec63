// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report, stdio, in the manner of perf c2c report: banners,
 * a table of the structs, then per struct its fields, co-access pairs,
 * false sharing, shared lines and clusters; the layouts, their cost and
 * the advice are report-advice.c's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include "../decode/access.h"
#include "../advice/analyze.h"
#include "../attr/attr.h"
#include "../accumulate/exact.h"
#include "../fields/fields.h"
#include "hists.h"
#include "../advice/lines.h"
#include "../accumulate/owner.h"
#include "report.h"
#include "../accumulate/type.h"

size_t fa_report__banner(FILE *fp, const char *title)
{
	return fprintf(fp, "\n=================================================\n"
			   "  %s\n"
			   "=================================================\n", title);
}

/**
 * fa_report__struct_table - The struct table, in --sort order
 * @fh: The table, made by fa_hists__structs()
 */
size_t fa_report__struct_table(FILE *fp, struct fa_hists *fh, const struct fa_report_opts *o)
{
	size_t printed = o->sep ? 0 : fa_report__banner(fp, "Struct Table");

	printed += fa_hists__fprintf(fh, fp);
	if (fh->nr_hidden && !o->sep)
		printed += fprintf(fp, "  (%d more struct%s below --percent-limit %g%%)\n",
				   fh->nr_hidden, fh->nr_hidden == 1 ? "" : "s", o->percent_limit);
	return printed;
}

/**
 * fa_report__field_tables_sep - -x --table fields: the field tables of the
 * struct table's types as one table, its first column the type
 */
size_t fa_report__field_tables_sep(FILE *fp, struct fa_hists *structs,
				   const struct fa_report_opts *o)
{
	struct fa_hist_entry *fe;
	size_t printed = 0;
	bool header = true;

	fa_hists__for_each_entry(structs, fe) {
		struct fa_hists *fh = fa_hists__fields(fe, o);

		if (!fh)
			return printed;
		printed += fa_hists__fprintf_sep(fh, fp, "struct", fe->te->name, header);
		header = false;
	}
	return printed;
}

const char *fa_type__owner_verb(const struct fa_type *t)
{
	return t->cfg.owners ? "by thread" : "on CPU";
}

/* Owners: "0-3,8" as perf prints CPU lists, thread IDs "1201,1202", "-" */
static void owners_scnprintf(const struct fa_type *t, const unsigned long *owners, char *buf,
			     size_t size)
{
	fa_owners__scnprintf(t->cfg.owners, owners, t->cfg.nr_owners, buf, size);
}

/* The fields --percent-limit leaves, marked when the code gave their class */
static size_t fa_report__fields(FILE *fp, struct fa_hist_entry *fe,
				const struct fa_report_opts *o)
{
	struct fa_hists *fh = fa_hists__fields(fe, o);
	size_t printed;

	if (!fh)
		return fprintf(fp, "\n  Fields: not enough memory\n");
	printed = fprintf(fp, "\n  Fields (current layout):\n\n");
	printed += fa_hists__fprintf(fh, fp);
	if (fa_hists__marked(fh, FA_MARK_CODE))
		printed += fprintf(fp, "  (code): too few samples of its own, or none of its stores: the sampled code that accesses it gives its readers, writers and class\n");
	if (fa_hists__marked(fh, FA_MARK_UNSURE))
		printed += fprintf(fp, "  ?: its samples give it another class in more than %.0f%% of the resamples (see Intervals): record longer to tell\n",
				   100 * (1 - FA_CLASS_SURE));
	if (fa_hists__marked(fh, FA_MARK_EXACT))
		printed += fprintf(fp, "  (exact): hardware watchpoints saw its accesses (record --watch): they give its readers, writers and class\n");
	return printed;
}

/**
 * fa_analysis__method_reason - Why @an took its co-access method, in words
 */
int fa_analysis__method_reason(const struct fa_analysis *an, const struct fa_type *t,
			       char *buf, size_t size)
{
	switch (an->seen.why) {
	case FA_METHOD_WHY_DENSE:
	case FA_METHOD_WHY_SPARSE:
	case FA_METHOD_WHY_SPARSE_NO_CODE:
		return scnprintf(buf, size, "samples of a %s are %" PRIu64 " ns apart (median): %s",
				 fa_scope__text(t->cfg.scope), an->seen.gap_ns,
				 fa_method_why__text(an->seen.why));
	case FA_METHOD_WHY_ASKED:
	case FA_METHOD_WHY_NO_CODE:
	case FA_METHOD_WHY_MAX:
	default:
		return scnprintf(buf, size, "%s", fa_method_why__text(an->seen.why));
	}
}

static size_t fa_report__pairs(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an,
			       const struct fa_report_opts *o)
{
	const struct fa_struct *st = te->st;
	char cut_i[FA_FIELD_NAME_MAX + 1], cut_j[FA_FIELD_NAME_MAX + 1], why[160];
	size_t printed;

	fa_analysis__method_reason(an, te->t, why, sizeof(why));
	printed = fprintf(fp, "\n  Top co-access pairs (%s method: %s), and the %s that touched both:\n",
			  fa_method__name(an->seen.method), why,
			  an->cost.per_visit ? "visits" : "windows");
	if (!an->seen.nr_top)
		printed += fprintf(fp, "    none: no two fields were seen together\n");
	for (int k = 0; k < an->seen.nr_top && k < o->top_pairs; k++) {
		const struct fa_top_pair *p = &an->seen.top[k];
		const char *fi = st->fields[p->a].name, *fj = st->fields[p->b].name;

		printed += fprintf(fp, "    %-24s %-24s %6.1f%%",
				   fa_field__short_name(fi, FA_FIELD_NAME_MAX, cut_i, sizeof(cut_i)),
				   fa_field__short_name(fj, FA_FIELD_NAME_MAX, cut_j, sizeof(cut_j)),
				   p->share);
		if (p->have_together)
			printed += fprintf(fp, "   %5.1f%% (95%% interval %.1f%% to %.1f%%)",
					   100 * p->together.est, 100 * p->together.lo,
					   100 * p->together.hi);
		printed += fprintf(fp, "\n");
	}
	return printed;
}

/* The functions accessing a field, as c2c shows the code of a cache line */
static size_t fa_report__sites(FILE *fp, struct fa_type_entry *te, int field)
{
	struct fa_site *sites;
	int n = fa_type__sites(te->t, field, &sites);
	size_t printed = 0;

	for (int k = 0; k < n && k < 3; k++)
		printed += fprintf(fp, "        %-32s %7" PRIu64 " loads %7" PRIu64 " stores\n",
				   sites[k].sym, sites[k].loads, sites[k].stores);
	if (n > 0)
		free(sites);
	return printed;
}

/* What the suggestion does about a falsely shared pair */
static const char *fa_report__fs_advice(struct fa_analysis *an, const struct fa_struct *st,
					int writer, int reader)
{
	u8 cls = an->seen.classes.field_cls[reader];

	if (fa_layout__line(&an->advice.suggested, st, writer) !=
	    fa_layout__line(&an->advice.suggested, st, reader))
		return ", separated in the suggestion";
	if (cls == FA_CLASS_WRITE_HOT || cls == FA_CLASS_SHARED_WRITTEN)
		return ", kept together: both are written, the line moves anyway";
	return ", NOT separated in the suggestion";
}

/*
 * The writers (or readers) of field @f: the watchpoints' when they saw
 * enough of it, else its samples'
 */
const unsigned long *fa_report__roles(const struct fa_type *t, const struct fa_analysis *an,
				      int f, bool writers)
{
	const struct fa_field_info *fi = &an->seen.classes.fields[f];
	const struct fa_field_stats *fs = &t->counts.stats[f];

	if (fi->exact)
		return writers ? fi->writers : fi->readers;
	return writers ? fs->writers : fs->readers;
}

/* The same hits with the advice (the leading candidate) in place */
static size_t fa_report__watched_replay(FILE *fp, const struct fa_exact_lines *xl,
					const struct fa_analysis *an)
{
	size_t printed;

	if (!fa_analysis__watched_replayed(an))
		return 0;
	printed = fprintf(fp, "  Replayed with %s: %" PRIu64 " transfers (%" PRIu64 " now), %" PRIu64 " between different fields (%" PRIu64 " now)",
			  an->candidate.insufficient ? "the leading candidate" : "the advice",
			  an->watched.then.transfers, an->watched.now.transfers,
			  an->watched.then.false_sharing, an->watched.now.false_sharing);
	if (xl->hits_left)
		printed += fprintf(fp, " (the first %zu hits of %" PRIu64 ")", xl->nr_hits,
				   xl->nr_hits + xl->hits_left);
	return printed + fprintf(fp, "\n");
}

/* What the watchpoints saw move between different fields, the most first */
static size_t fa_report__watched_pairs(FILE *fp, const struct fa_type *t,
				       const struct fa_analysis *an)
{
	const struct fa_exact_lines *xl = t->counts.exact_lines;
	struct fa_exact_pair pairs[FA_EXACT_TOP_PAIRS];
	int n = fa_exact_lines__top(xl, t->st->nr_fields, pairs, ARRAY_SIZE(pairs));
	size_t printed;

	printed = fprintf(fp, "  Watchpoints saw %" PRIu64 " transfers of the watched lines, %" PRIu64 " of them between different fields%s\n",
			  xl->transfers, xl->false_sharing,
			  n ? ", from the field last accessed (written) to the next:" : "");
	for (int k = 0; k < n; k++) {
		const unsigned long *writers = fa_report__roles(t, an, pairs[k].from, true);
		/* a field the hits never saw written (an emulator's atomics) is read */
		bool written = !bitmap_empty(writers, t->cfg.nr_owners);
		char wcpus[64], rcpus[64];

		owners_scnprintf(t, written ? writers : fa_report__roles(t, an, pairs[k].from, false),
				 wcpus, sizeof(wcpus));
		owners_scnprintf(t, fa_report__roles(t, an, pairs[k].to, false), rcpus,
				 sizeof(rcpus));
		printed += fprintf(fp, "    %s (%s %s %s) -> %s (read %s %s): %" PRIu64 "\n",
				   t->st->fields[pairs[k].from].name, written ? "written" : "read",
				   fa_type__owner_verb(t), wcpus, t->st->fields[pairs[k].to].name,
				   fa_type__owner_verb(t), rcpus, pairs[k].transfers);
	}
	return printed + fa_report__watched_replay(fp, xl, an);
}

static size_t fa_report__false_sharing(FILE *fp, struct fa_type_entry *te,
				       struct fa_analysis *an)
{
	const struct fa_type *t = te->t;
	const struct fa_struct *st = te->st;
	size_t printed;
	int shown = 0;

	printed = fprintf(fp, "\n  False sharing (a field written %s, another field of its cache line\n"
			      "  accessed %s just after):\n",
			  t->cfg.owners ? "by one thread" : "on one CPU",
			  t->cfg.owners ? "by another" : "on another CPU");
	for (int k = 0; k < an->seen.nr_fs_pairs && shown < 8; k++) {
		const struct fa_fs_pair *p = &an->seen.fs_pairs[k];
		const struct fa_field *w = &st->fields[p->writer], *r = &st->fields[p->reader];
		const unsigned long *readers = fa_report__roles(t, an, p->reader, false);
		/* a field only written (a reference count) is not "read on CPU -" */
		bool read = !bitmap_empty(readers, t->cfg.nr_owners);
		char wcpus[64], rcpus[64], exact[64] = "";
		u64 xfers;

		if (p->share < FA_FS_SHOWN)
			break;
		owners_scnprintf(t, fa_report__roles(t, an, p->writer, true), wcpus, sizeof(wcpus));
		owners_scnprintf(t, read ? readers : fa_report__roles(t, an, p->reader, true),
				 rcpus, sizeof(rcpus));
		if (fa_exact_lines__pair(t->counts.exact_lines, p->writer, p->reader, &xfers))
			scnprintf(exact, sizeof(exact), ", %" PRIu64 " watched", xfers);
		printed += fprintf(fp, "    %s (written %s %s) -> %s (%s %s %s): %.1f%% (95%% interval %.1f%% to %.1f%%)%s%s\n",
				   w->name, fa_type__owner_verb(t), wcpus, r->name,
				   read ? "read" : "written", fa_type__owner_verb(t), rcpus, p->share,
				   p->share_ci.lo, p->share_ci.hi, exact,
				   fa_report__fs_advice(an, st, p->writer, p->reader));
		printed += fa_report__sites(fp, te, p->writer);
		printed += fa_report__sites(fp, te, p->reader);
		shown++;
	}
	if (!shown)
		printed += fprintf(fp, "    none seen\n");
	if (t->counts.exact_lines && t->counts.exact_lines->transfers)
		printed += fa_report__watched_pairs(fp, t, an);
	return printed;
}

/* The fields of @mask, as names */
static size_t fa_report__field_mask(FILE *fp, const struct fa_struct *st, u64 mask)
{
	size_t printed = 0;

	for (int f = 0; f < st->nr_fields && f < 64; f++) {
		if (mask & (1ULL << f))
			printed += fprintf(fp, " %s", st->fields[f].name);
	}
	return printed;
}

static size_t fa_report__shared_lines(FILE *fp, struct fa_type_entry *te,
				      const struct fa_analysis *an)
{
	const struct fa_shared_line *sl = an->seen.shared_lines;
	const struct fa_type *t = te->t;
	int n = an->seen.nr_shared_lines;
	char owners[64];
	size_t printed;

	if (t->xfer.nr_instances < 2)
		return 0;
	printed = fprintf(fp, "\n  Cache lines of several instances (%s, one writing; of the replay sample):\n",
			  t->cfg.owners ? "different threads" : "different CPUs");
	if (!n)
		printed += fprintf(fp, "    none seen\n");
	for (int k = 0; k < n && k < 8; k++) {
		int len = 0;

		for (int i = 0; i < sl[k].nr_owners && i < FA_SL_OWNERS; i++)
			len += scnprintf(owners + len, sizeof(owners) - len, "%s%u", i ? "," : "",
					 sl[k].owners[i]);
		printed += fprintf(fp, "    %#" PRIx64 ": %d instances, %s %s%s, %" PRIu64 " accesses, %" PRIu64 " writing\n",
				   sl[k].addr, sl[k].nr_insts, t->cfg.owners ? "threads" : "CPUs",
				   owners, sl[k].nr_owners > FA_SL_OWNERS ? ",+" : "",
				   sl[k].loads + sl[k].writes, sl[k].writes);
		for (int i = 0; i < sl[k].nr_insts && i < FA_SL_INSTS; i++) {
			if (sl[k].index[i] >= 0)
				printed += fprintf(fp, "        [%" PRId64 "] %#" PRIx64 ":",
						   sl[k].index[i], sl[k].base[i]);
			else
				printed += fprintf(fp, "        %#" PRIx64 ":", sl[k].base[i]);
			printed += fa_report__field_mask(fp, te->st, sl[k].fields[i]);
			printed += fprintf(fp, "\n");
		}
	}
	return printed;
}

static size_t fa_report__clusters(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an)
{
	const struct fa_struct *st = te->st;
	size_t printed = fprintf(fp, "\n  Clusters (hottest first):\n");
	double total = 0;

	for (int u = 0; u < an->seen.classes.nr_units; u++)
		total += an->seen.classes.units[u].weight;

	for (int k = 0; k < an->advice.clusters.nr; k++) {
		const struct fa_cluster *c = &an->advice.clusters.clusters[k];

		printed += fprintf(fp, "    [%d] %3u bytes %5.1f%%  ", k, c->size,
				   total ? 100 * c->weight / total : 0);
		for (int i = 0; i < c->nr; i++)
			printed += fprintf(fp, "%s%s", i ? " " : "",
					   fa_unit__name(st, c->units[i]));
		printed += fprintf(fp, "\n");
	}
	return printed;
}

/**
 * fa_types__embedder - The largest array of @te's elements in another type
 * @outer: That type
 *
 * A struct that grows grows as many times in every instance of the types
 * that embed an array of it.  Return: the array's field of @outer, or -1.
 */
int fa_types__embedder(struct fa_type_entry * const *types, int nr_types,
		       const struct fa_type_entry *te, const struct fa_type_entry **outer)
{
	u32 best_size = 0;
	int best = -1;

	for (int i = 0; i < nr_types; i++) {
		const struct fa_type_entry *o = types[i];

		for (int f = 0; o != te && o->st && f < o->st->nr_fields; f++) {
			const struct fa_field *fl = &o->st->fields[f];

			if (fl->kind != FA_FIELD_ARRAY || fl->size <= best_size ||
			    strcmp(fl->type, te->name))
				continue;
			best = f;
			best_size = fl->size;
			*outer = o;
		}
	}
	return best;
}

/* The title of a struct type's report: name, size, accesses, instances */
int fa_report__title(struct fa_type_entry *te, char *buf, size_t size)
{
	const struct fa_type *t = te->t;

	return scnprintf(buf, size, "%s: %u bytes, %" PRIu64 " accesses, %" PRIu64 " instance%s",
			 te->name, te->size, t->counts.nr_accesses, t->xfer.nr_instances,
			 t->xfer.nr_instances == 1 ? "" : "s");
}

static size_t fa_report__alignment(FILE *fp, struct fa_type_entry *te)
{
	const struct fa_type *t = te->t;
	size_t printed = 0;

	if (te->layout)
		printed += fprintf(fp, "  layout %d of %s: the recordings' binaries lay it out differently, each layout is reported apart\n",
				   te->layout, te->key ?: te->name);
	if (t->xfer.misaligned)
		printed += fprintf(fp, "  %" PRIu64 " of %" PRIu64 " instances do not start on a cache line\n",
				   t->xfer.misaligned, t->xfer.nr_instances);
	if (!fa_type__shared(t))
		printed += fprintf(fp, "  only thread %u accesses it: no line is shared, whatever CPUs it ran on\n",
				   t->counts.tid);
	return printed;
}

/**
 * fa_report__section - One section of a struct type's report
 * @section: enum fa_report_section
 *
 * The TUI shows the sections on screens of their own, so they are printed
 * one by one, by the same code as the stdio report.
 */
size_t fa_report__section(FILE *fp, int section, struct fa_hist_entry *fe,
			  const struct fa_report_opts *o)
{
	struct fa_type_entry *te = fe->te;
	struct fa_analysis *an = fe->an;

	switch (section) {
	case FA_REPORT_ALIGNMENT:
		return fa_report__alignment(fp, te);
	case FA_REPORT_FIELDS:
		return fa_report__fields(fp, fe, o);
	case FA_REPORT_PAIRS:
		return fa_report__pairs(fp, te, an, o);
	case FA_REPORT_FALSE_SHARING:
		return fa_report__false_sharing(fp, te, an);
	case FA_REPORT_SHARED_LINES:
		return fa_report__shared_lines(fp, te, an);
	case FA_REPORT_CLUSTERS:
		return fa_report__clusters(fp, te, an);
	case FA_REPORT_LAYOUTS:
	case FA_REPORT_COST:
	case FA_REPORT_ADVICE:
		return fa_report__advice_section(fp, section, te, an, o);
	case FA_REPORT_WHATIF:
		return fa_report__tries(fp, te, an);
	default:
		return 0;
	}
}

/* Everything about one struct type */
size_t fa_report__type(FILE *fp, struct fa_hist_entry *fe, const struct fa_report_opts *o)
{
	char title[256];
	size_t printed;

	fa_report__title(fe->te, title, sizeof(title));
	printed = fa_report__banner(fp, title);
	for (int s = 0; s < FA_REPORT_MAX; s++)
		printed += fa_report__section(fp, s, fe, o);
	return printed;
}
