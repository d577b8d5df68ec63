// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report, stdio, in the manner of perf c2c report: banners,
 * a table of the structs, then per struct its fields, co-access pairs,
 * false sharing, clusters, and the current and suggested layouts in
 * pahole's format with what the suggestion is predicted to save.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include "../decode/access.h"
#include "../advice/analyze.h"
#include "../attr/attr.h"
#include "../decode/decode.h"
#include "../accumulate/exact.h"
#include "../fields/fields.h"
#include "hists.h"
#include "../advice/lines.h"
#include "../accumulate/owner.h"
#include "report.h"
#include "stats.h"
#include "../accumulate/type.h"
#include "../../dso.h"
#include "../../hashmap.h"

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

/* The attributed loads, stores and HITMs of all types */
static void fa_attr__op_totals(struct fa_attr *a, u64 *loads, u64 *stores, u64 *hitm)
{
	*loads = *stores = *hitm = 0;
	for (int i = 0; i < a->nr_types; i++) {
		const struct fa_type *t = a->types[i]->t;

		if (!t)
			continue;
		*loads += fa_type__loads(t);
		*stores += fa_type__stores(t);
		*hitm += t->counts.hitm;
	}
}

/**
 * fa_report__summary - What the samples gave, as c2c's Trace Event Information
 * @ds: What decoding made of the samples
 * @a: What attribution made of the accesses
 *
 * Return: the number of characters printed.
 */
size_t fa_report__summary(FILE *fp, const struct fa_decode_stats *ds, struct fa_attr *a)
{
	const struct fa_attr_stats *st = &a->stats;
	u64 samples = ds->other + fa_decode_stats__samples(ds), loads, stores, hitm;
	size_t printed = fa_report__banner(fp, "Memory Access Information");
	int types = 0;

	for (int i = 0; i < a->nr_types; i++)
		types += a->types[i]->t != NULL;
	fa_attr__op_totals(a, &loads, &stores, &hitm);

	printed += fa_stat_line(fp, "Samples", samples);
	for (int i = 0; i < FA_SRC_MAX; i++) {
		char label[64];

		if (!ds->samples[i])
			continue;
		scnprintf(label, sizeof(label), "  %s", fa_source__text(i));
		printed += fa_stat_line(fp, label, ds->samples[i]);
	}
	printed += fa_stat_line(fp, "Memory accesses decoded", st->accesses);
	printed += fa_stat_line(fp, "Attributed to struct fields", st->resolved);
	printed += fa_stat_line(fp, "  loads", loads);
	printed += fa_stat_line(fp, "  stores and read-modify-writes", stores);
	printed += fa_stat_line(fp, "  HITM (data source)", hitm);
	printed += fa_stat_line(fp, "  by the data address (variables)", st->by_address);
	if (st->watched)
		printed += fa_stat_line(fp, "  watchpoint hits (roles, not heat)", st->watched);
	if (st->by_instance)
		printed += fa_stat_line(fp, "  by the address of an instance", st->by_instance);
	if (st->by_tls)
		printed += fa_stat_line(fp, "  by a thread-local variable", st->by_tls);
	if (st->system) {
		char label[64];

		scnprintf(label, sizeof(label), "  to %u system libraries' types, left out",
			  st->system_types);
		printed += fa_stat_line(fp, label, st->system);
	}
	if (st->failed[FA_ATTR_FILTERED])
		printed += fa_stat_line(fp, "Of other types than -T's", st->failed[FA_ATTR_FILTERED]);
	printed += fa_stat_line(fp, "Not attributed (see --stats)",
				st->accesses - st->resolved - st->failed[FA_ATTR_FILTERED]);
	printed += fa_stat_line(fp, "Struct types", types);
	return printed;
}

/* How the report says who accessed a field */
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
	switch (an->why) {
	case FA_METHOD_WHY_DENSE:
	case FA_METHOD_WHY_SPARSE:
	case FA_METHOD_WHY_SPARSE_NO_CODE:
		return scnprintf(buf, size, "samples of a %s are %" PRIu64 " ns apart (median): %s",
				 fa_scope__text(t->cfg.scope), an->gap_ns,
				 fa_method_why__text(an->why));
	case FA_METHOD_WHY_ASKED:
	case FA_METHOD_WHY_NO_CODE:
	case FA_METHOD_WHY_MAX:
	default:
		return scnprintf(buf, size, "%s", fa_method_why__text(an->why));
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
			  fa_method__name(an->method), why, an->per_visit ? "visits" : "windows");
	if (!an->nr_top)
		printed += fprintf(fp, "    none: no two fields were seen together\n");
	for (int k = 0; k < an->nr_top && k < o->top_pairs; k++) {
		const struct fa_top_pair *p = &an->top[k];
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
	u8 cls = an->classes.field_cls[reader];

	if (fa_layout__line(&an->suggested, st, writer) !=
	    fa_layout__line(&an->suggested, st, reader))
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
	const struct fa_field_info *fi = &an->classes.fields[f];
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
			  an->insufficient ? "the leading candidate" : "the advice",
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
	for (int k = 0; k < an->nr_fs_pairs && shown < 8; k++) {
		const struct fa_fs_pair *p = &an->fs_pairs[k];
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
	const struct fa_shared_line *sl = an->shared_lines;
	const struct fa_type *t = te->t;
	int n = an->nr_shared_lines;
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

	for (int u = 0; u < an->classes.nr_units; u++)
		total += an->classes.units[u].weight;

	for (int k = 0; k < an->clusters.nr; k++) {
		const struct fa_cluster *c = &an->clusters.clusters[k];

		printed += fprintf(fp, "    [%d] %3u bytes %5.1f%%  ", k, c->size,
				   total ? 100 * c->weight / total : 0);
		for (int i = 0; i < c->nr; i++)
			printed += fprintf(fp, "%s%s", i ? " " : "",
					   fa_unit__name(st, c->units[i]));
		printed += fprintf(fp, "\n");
	}
	return printed;
}

/* The change of the total cost from @now to @then, in percent */
static double fa_cost__change(const struct fa_cost *now, const struct fa_cost *then)
{
	return now->total > 0 ? 100 * (then->total - now->total) / now->total : 0;
}

static size_t fa_report__cost(FILE *fp, struct fa_analysis *an)
{
	const struct fa_cost *m = &an->now.model, *mt = &an->advised.model;
	const struct fa_cost *r = &an->now.replay, *rt = &an->advised.replay;
	const char *per = an->per_visit ? "visit " : "window";
	size_t printed = fprintf(fp, "\n  Predicted cost (model)       current  suggested\n");
	char ci[2][32];

	printed += fprintf(fp, "    cache lines per %s    %9.2f  %9.2f\n", per,
			   m->lines_per_window, mt->lines_per_window);
	printed += fprintf(fp, "    transfers per %s      %9.2f  %9.2f\n", per,
			   m->xfers_per_window, mt->xfers_per_window);
	printed += fprintf(fp, "    transfers per 1k accesses %9.1f  %9.1f\n",
			   m->xfers_per_kacc, mt->xfers_per_kacc);
	printed += fprintf(fp, "    total (lines + %.0f x transfers) %6.2f  %9.2f  %+.1f%%\n",
			   an->xfer_cost, m->total, mt->total, fa_cost__change(m, mt));
	scnprintf(ci[0], sizeof(ci[0]), "%.2f-%.2f", an->now.cost_ci.lo, an->now.cost_ci.hi);
	scnprintf(ci[1], sizeof(ci[1]), "%.2f-%.2f", an->advised.cost_ci.lo, an->advised.cost_ci.hi);
	printed += fprintf(fp, "    total, %.0f%% interval %14s  %9s\n", 100 * FA_BOOT_LEVEL, ci[0],
			   ci[1]);
	printed += fprintf(fp, "    replay of the access stream (%" PRIu64 " accesses): lines per window %.2f -> %.2f, transfers per 1k accesses %.1f -> %.1f\n",
			   r->accesses, r->lines_per_window, rt->lines_per_window,
			   r->xfers_per_kacc, rt->xfers_per_kacc);
	if (an->now.visit_lines > 0)
		printed += fprintf(fp, "    lines per visit with the instances where they were: %.2f -> %.2f\n",
				   an->now.visit_lines, an->advised.visit_lines);
	if (an->spread)
		printed += fprintf(fp, "    (the model sees one instance at a time: the replay, with the instances on lines of their own, gives the gain of the alignment, total %.2f -> %.2f, %+.1f%%)\n",
				   r->total, rt->total, fa_cost__change(r, rt));
	return printed;
}

static const struct fa_label fa_align_by_labels[FA_ALIGN_BY_MAX] = {
	[FA_ALIGN_BY_TYPE]	= { "type", "align the struct" },
	[FA_ALIGN_BY_ALLOC]	= { "allocation", "allocate the instances aligned" },
	[FA_ALIGN_BY_BOTH]	= { "type_and_allocation", "align the struct and allocate aligned" },
};

const char *fa_align_by__key(int by)
{
	return fa_label__key(fa_align_by_labels, FA_ALIGN_BY_MAX, by);
}

/*
 * Whether the instances of a kernel type are the per-CPU copies of one
 * variable: each CPU's copy is at a page aligned offset from the variable
 * (its per-CPU area's), so all are at one offset into their pages.  The
 * type's alignment aligns them, as any variable's.
 */
bool fa_type_entry__per_cpu(const struct fa_type_entry *te)
{
	const struct fa_replay *rp = te->t ? &te->t->replay : NULL;

	if (!te->kernel || !rp || rp->nr_bases < 2)
		return false;
	for (u32 i = 1; i < rp->nr_bases; i++) {
		if (rp->bases[i] % FA_PAGE_SIZE != rp->bases[0] % FA_PAGE_SIZE)
			return false;
	}
	return true;
}

/* Most accesses to the type were to a variable of it (or TLS) */
static bool fa_type_entry__in_vars(const struct fa_type_entry *te)
{
	return te->nr_in_vars * 2 > te->nr_accounted;
}

/**
 * fa_type_entry__align_by - How the instances of @te get lines of their own
 *
 * The type's alignment aligns variables (and the elements of arrays of
 * them), not the memory malloc() returns: instances most of whose
 * accesses were not to a variable of the type need an aligned allocation,
 * and a type whose size is not a multiple of the line its alignment too.
 */
int fa_type_entry__align_by(const struct fa_type_entry *te, const struct fa_analysis *an)
{
	if (fa_type_entry__in_vars(te) || fa_type_entry__per_cpu(te))
		return FA_ALIGN_BY_TYPE;
	if (an->current.size % an->current.line_size == 0)
		return FA_ALIGN_BY_ALLOC;
	return FA_ALIGN_BY_BOTH;
}

/* Why the instances are to be aligned: what the replay saw, in its numbers */
static size_t fa_report__spread_why(FILE *fp, const struct fa_type_entry *te,
				    const struct fa_analysis *an)
{
	const struct fa_cost *r = &an->now.replay, *rt = &an->advised.replay;

	if (r->xfers_per_kacc > 0)
		return fprintf(fp, "instances share lines that other %s write (%.1f -> %.1f transfers per 1k accesses)",
			       te->t->cfg.by_thread ? "threads" : "CPUs", r->xfers_per_kacc,
			       rt->xfers_per_kacc);
	return fprintf(fp, "instances straddle cache lines (%.2f -> %.2f lines per window), no line another %s writes was seen",
		       r->lines_per_window, rt->lines_per_window,
		       te->t->cfg.by_thread ? "thread" : "CPU");
}

/* What gives the instances lines of their own, where they are */
static size_t fa_report__align_how(FILE *fp, const struct fa_type_entry *te,
				   const struct fa_analysis *an)
{
	const char *alloc = te->kernel ? "a kmem_cache with SLAB_HWCACHE_ALIGN" :
			    "aligned_alloc() or posix_memalign()";
	u32 line = an->suggested.line_size;
	u64 nr = te->t->xfer.nr_instances, mis = te->t->xfer.misaligned;

	switch (fa_type_entry__align_by(te, an)) {
	case FA_ALIGN_BY_TYPE:
		if (!fa_type_entry__in_vars(te))
			return fprintf(fp, "align the struct to the %u byte cache line: its %" PRIu64 " instances, at one offset into their pages, are the per-CPU copies of a variable, which the type's alignment aligns",
				       line, nr);
		return fprintf(fp, "align the struct to the %u byte cache line", line);
	case FA_ALIGN_BY_ALLOC:
		return fprintf(fp, "allocate the instances at %u byte boundaries (%s): the struct %s, but %" PRIu64 " of %" PRIu64 " instances recorded do not start a cache line, %s",
			       line, alloc,
			       an->current.align >= line ? "is aligned to the line already" :
			       "size is a multiple of the line", mis, nr,
			       te->kernel ? "their cache does not align them" :
			       "malloc() does not align to the type");
	default:
		return fprintf(fp, "align the struct to the %u byte cache line and allocate the instances at %u byte boundaries (%s): %s",
			       line, line, alloc, te->kernel ? "their cache does not align them" :
			       "malloc() does not align to the type");
	}
}

static size_t fa_report__layouts(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an,
				 const struct fa_report_opts *o)
{
	size_t printed = fprintf(fp, "\n  Current layout:\n\n");

	printed += fa_layout__fprintf(&an->current, te->st, fp);
	if (!an->changed) {
		printed += fprintf(fp, "\n  Suggested layout: keep the current one");
		if (an->advice == FA_ADVICE_SPLIT)
			printed += fprintf(fp, ", and split it (see Advice)");
		else if (an->kept)
			printed += fprintf(fp, " (the clustered one would not save %.0f%%)",
					   100 * FA_MIN_GAIN);
		else if (an->insufficient)
			printed += fprintf(fp, " (the evidence for a change is insufficient, see Advice)");
		return printed + fprintf(fp, "\n");
	}
	printed += fprintf(fp, "\n  Suggested layout (%+d bytes):\n",
			   (int)an->suggested.size - (int)an->current.size);
	if (an->spread) {
		printed += fprintf(fp, "  aligned to the %u byte cache line: ", an->suggested.line_size);
		printed += fa_report__spread_why(fp, te, an);
		printed += fprintf(fp, ";\n  %+" PRId64 " bytes for the %" PRIu64 " instances seen\n",
				   ((s64)an->suggested.size - an->current.size) *
				   (s64)te->t->xfer.nr_instances, te->t->xfer.nr_instances);
	}
	printed += fprintf(fp, "\n");
	printed += fa_layout__fprintf(&an->suggested, te->st, fp);
	if (o->emit_c) {
		printed += fprintf(fp, "\n  As C:\n\n");
		printed += fa_layout__fprintf_c(&an->suggested, te->st, &an->classes, te->kernel,
						fp);
	}
	return printed;
}

/*
 * Size change, and what it is for all the instances seen and in each
 * instance of the type that embeds the largest array of it
 */
static size_t fa_report__growth(FILE *fp, const struct fa_analysis *an, const struct fa_layout *l,
				u64 nr_instances)
{
	const struct fa_layout *cur = &an->current;
	const struct fa_field *f = an->embed_field;
	s64 grow = (s64)l->size - cur->size;
	size_t printed;

	if (!grow)
		return fprintf(fp, "size unchanged");
	printed = fprintf(fp, "%u -> %u bytes", cur->size, l->size);
	if (nr_instances > 1)
		printed += fprintf(fp, ", %+" PRId64 " bytes for the %" PRIu64 " instances seen",
				   grow * (s64)nr_instances, nr_instances);
	if (f && cur->size)
		printed += fprintf(fp, ", %+" PRId64 " bytes in each %s (%s%s)",
				   grow * (s64)(f->size / cur->size), an->embed_type, f->name,
				   f->suffix ?: "");
	return printed;
}

static size_t fa_report__edits(FILE *fp, const struct fa_edits *e, const struct fa_struct *st)
{
	size_t printed = 0;
	char buf[256];

	for (int i = 0; i < e->nr; i++) {
		fa_edit__snprintf(&e->edit[i], st, buf, sizeof(buf));
		printed += fprintf(fp, "    %d. %s\n", i + 1, buf);
	}
	return printed;
}

static size_t fa_report__pins(FILE *fp, const struct fa_analysis *an, const struct fa_struct *st)
{
	size_t printed = 0;

	for (int u = 0; an->keep.nr_pins && u < st->nr_units; u++) {
		if (!an->keep.pin[u])
			continue;
		printed += fprintf(fp, "  kept in place: %s (%s)\n", fa_unit__name(st, u),
				   an->keep.pin[u] == FA_PIN_BASE ?
				   "first member, a struct: code may cast to it" : "--keep");
	}
	for (int i = 0; i < an->keep.nr_ranges; i++) {
		const struct fa_keep_range *r = &an->keep.ranges[i];

		printed += fprintf(fp, "  kept together, in order: %s to %s (--keep-order)\n",
				   fa_unit__name(st, an->current.order[r->from]),
				   fa_unit__name(st, an->current.order[r->to]));
	}
	return printed;
}

/* A saving as the report prints changes: "-27.0% (95% interval -35.1% to -18.2%)" */
static size_t fa_report__saving(FILE *fp, const struct fa_interval *gain)
{
	char ci[FA_INTERVAL_STR];

	if (gain->lo == gain->hi)
		return fprintf(fp, "%+.1f%%", -100 * gain->est);
	return fprintf(fp, "%+.1f%% (%s)", -100 * gain->est,
		       fa_interval__str(gain, true, ci, sizeof(ci)));
}

static size_t fa_report__reorder(FILE *fp, struct fa_type_entry *te, const struct fa_analysis *an)
{
	size_t printed;

	/* the leading candidate of insufficient evidence: said in 'Advice' */
	if (an->advice == FA_ADVICE_REORDER || fa_layout__same(&an->reorder, &an->current) ||
	    (an->insufficient && an->candidate_advice == FA_ADVICE_REORDER))
		return 0;
	printed = fprintf(fp, "  the full reorder: ");
	printed += fa_report__saving(fp, &an->reorder_gain_ci);
	printed += fprintf(fp, " (model), moves %d member%s, ", an->reorder_moved,
			   an->reorder_moved == 1 ? "" : "s");
	printed += fa_report__growth(fp, an, &an->reorder, te->t->xfer.nr_instances);
	if (an->reorder_breaks)
		return printed + fprintf(fp, ": moves what must stay, not advised\n");
	if (an->reorder_model.total >= an->now.model.total * (1 - FA_MIN_GAIN))
		return printed + fprintf(fp, ": saves nothing\n");
	return printed + fprintf(fp, ": not advised, not better once its moves and growth count\n");
}

/* Instances a scan of the lines of an array is counted for */
#define FA_SCAN_INSTANCES	64

/* The members of one part of a split, by name */
static size_t fa_report__split_part(FILE *fp, const struct fa_analysis *an,
				    const struct fa_struct *st, bool hot)
{
	size_t printed = fprintf(fp, "    %s:", hot ? "hot " : "cold");
	const char *sep = " ";

	for (int k = 0; k < an->current.nr_units; k++) {
		int u = an->current.order[k];

		if (an->split.hot[u] != hot)
			continue;
		printed += fprintf(fp, "%s%s", sep, fa_unit__name(st, u));
		sep = ", ";
	}
	return printed + fprintf(fp, " (%u bytes)\n", hot ? an->split.hot_size : an->split.cold_size);
}

/* Cost per visit: in lines of an array, and what its lines per scan say */
static size_t fa_report__split_cost(FILE *fp, const struct fa_split *sp, u32 line)
{
	const struct fa_split_cost *now = &sp->now, *to = &sp->split;

	return fprintf(fp, "%+.1f%% (bytes of the array per visit %.1f -> %.1f, lines per visit %.2f -> %.2f, lines per %d instances scanned %.1f -> %.1f)",
		       now->cost > 0 ? 100 * (to->cost / now->cost - 1) : 0,
		       now->bytes, to->bytes, now->lines, to->lines,
		       FA_SCAN_INSTANCES, FA_SCAN_INSTANCES * now->bytes / line,
		       FA_SCAN_INSTANCES * to->bytes / line);
}

/* The split advised: which members go where, its gain and its C */
static size_t fa_report__split(FILE *fp, struct fa_type_entry *te, const struct fa_analysis *an)
{
	const struct fa_split *sp = &an->split;
	size_t printed;

	printed = fprintf(fp, "\n  Advice: split it into a hot and a cold struct, in two arrays of %" PRIu64 "+ instances\n",
			  te->t->xfer.nr_instances);
	printed += fa_report__split_part(fp, an, te->st, true);
	printed += fa_report__split_part(fp, an, te->st, false);
	printed += fprintf(fp, "  predicted: ");
	printed += fa_report__split_cost(fp, sp, an->current.line_size);
	printed += fprintf(fp, "\n  the cold members are touched in %.1f%% of the visits; each part keeps the order of its members\n",
			   100 * sp->cold_share);
	return printed + fprintf(fp, "  every access to a cold member changes: the cold part of an instance is at its index in the cold array\n");
}

/* A split considered and not advised, and why */
static size_t fa_report__split_not(FILE *fp, const struct fa_analysis *an)
{
	const struct fa_split *sp = &an->split;
	size_t printed;

	if (sp->why != FA_SPLIT_NO_GAIN && sp->why != FA_SPLIT_KEEP)
		return 0;
	printed = fprintf(fp, "  a hot/cold split: ");
	printed += fa_report__split_cost(fp, sp, an->current.line_size);
	if (sp->why == FA_SPLIT_KEEP)
		return printed + fprintf(fp, ": moves what must stay, not advised\n");
	return printed + fprintf(fp, ": not advised, not %.0f%% cheaper than %s\n",
				 100 * FA_SPLIT_COST, an->changed ? "the advice" : "the layout");
}


/*
 * The leading candidate, whose saving is not sure: what it is, the
 * interval, and how much longer to record for an answer
 */
static size_t fa_report__insufficient(FILE *fp, struct fa_type_entry *te,
				      const struct fa_analysis *an)
{
	size_t printed = fprintf(fp, "\n  Advice: none yet, the evidence is insufficient; the leading candidate is ");
	char ci[FA_INTERVAL_STR];

	if (an->candidate_advice == FA_ADVICE_REORDER) {
		printed += fprintf(fp, "the full reorder (%d members moved)\n", an->reorder_moved);
	} else {
		printed += fprintf(fp, "the edit\n");
		printed += fa_report__edits(fp, &an->edits, te->st);
	}
	printed += fprintf(fp, "  predicted: %+.1f%% (model)", -100 * an->gain_ci.est);
	if (an->watched.worse)
		return printed + fprintf(fp, ", but the watched accesses move its lines more often: %" PRIu64 " transfers instead of %" PRIu64 "\n",
					 an->watched.then.transfers, an->watched.now.transfers);
	if (an->contradicted)
		return printed + fprintf(fp, ", but %+.1f%% by the replay of the recorded accesses: they disagree; record longer, or watch the hot lines (record --watch)\n",
					 100 * (an->candidate_replay.total / an->now.replay.total - 1));
	if (an->record_more > 1) {
		printed += fprintf(fp, ", %s: not surely %.0f%%\n",
				   fa_interval__str(&an->gain_ci, true, ci, sizeof(ci)),
				   100 * FA_MIN_GAIN);
		return printed + fprintf(fp, "  record about %.1fx as many samples (longer, or a --sw-period %.1fx shorter) to tell\n",
					 an->record_more, an->record_more);
	}
	return printed + fprintf(fp, "\n  samples in too few blocks of %llu us to tell: record longer\n",
				 FA_BOOT_BLOCK_NS / 1000);
}

static size_t fa_report__advice_head(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an)
{
	size_t printed;

	if (an->advice == FA_ADVICE_SPLIT)
		return fa_report__split(fp, te, an);

	if (an->spread && an->advice == FA_ADVICE_NONE) {
		printed = fprintf(fp, "\n  Advice: ");
		printed += fa_report__align_how(fp, te, an);
		printed += fprintf(fp, " (");
		printed += fa_report__growth(fp, an, &an->suggested, te->t->xfer.nr_instances);
		return printed + fprintf(fp, ")\n");
	}
	if (an->insufficient)
		return fa_report__insufficient(fp, te, an);
	if (!an->changed)
		return fprintf(fp, "\n  Advice: none, no edit %ssaves %.0f%% of the predicted cost\n",
			       an->keep.nr_pins || an->keep.nr_ranges ? "that keeps what must stay " : "",
			       100 * FA_MIN_GAIN);
	printed = fprintf(fp, "\n  Advice: %s (%d member%s moved, %d offset%s changed, ",
			  an->advice == FA_ADVICE_REORDER ? "the full reorder, clearly better than any small edit" :
			  "the smallest edit", an->moved, an->moved == 1 ? "" : "s",
			  an->shifted, an->shifted == 1 ? "" : "s");
	printed += fa_report__growth(fp, an, &an->suggested, te->t->xfer.nr_instances);
	printed += fprintf(fp, ")\n");
	if (an->advice == FA_ADVICE_EDIT)
		printed += fa_report__edits(fp, &an->edits, te->st);
	if (an->spread) {
		printed += fprintf(fp, "    and ");
		printed += fa_report__align_how(fp, te, an);
		printed += fprintf(fp, "\n");
	}
	return printed;
}

/* What to do, what it is predicted to save, and what was not advised */
static size_t fa_report__advice(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an)
{
	size_t printed = fa_report__advice_head(fp, te, an);

	if (an->changed && an->spread) {
		printed += fprintf(fp, "  predicted: ");
		printed += fa_report__saving(fp, &an->replay_gain_ci);
		printed += fprintf(fp, " (replay of the accesses, the instances on lines of their own)\n");
	} else if (an->changed) {
		printed += fprintf(fp, "  predicted: ");
		printed += fa_report__saving(fp, &an->gain_ci);
		printed += fprintf(fp, " (model), ");
		printed += fa_report__saving(fp, &an->replay_gain_ci);
		printed += fprintf(fp, " (replay of the accesses)\n");
	}
	if (an->changed && an->now.visit_lines > 0)
		printed += fprintf(fp, "  lines per visit with the instances where they were: %.2f -> %.2f\n",
				   an->now.visit_lines, an->advised.visit_lines);
	if (an->unsure)
		printed += fprintf(fp, "  unsure: the recorded instances do not confirm the model's gain\n");
	if (an->edits.cut)
		printed += fprintf(fp, "  note: the search for edits was cut short, the struct is too wide for its budget\n");
	if (an->needs_line_start)
		printed += fprintf(fp, "  note: the members are apart where an instance starts a cache line (%" PRIu64 " of %" PRIu64 " recorded did): align the struct to %u bytes, or allocate it so\n",
				   te->t->xfer.nr_instances - te->t->xfer.misaligned,
				   te->t->xfer.nr_instances, an->suggested.line_size);
	if (an->advised.every_call_lines > an->now.every_call_lines)
		printed += fprintf(fp, "  note: the fields nearly every visit touches (%.0f%%) take %d cache lines instead of %d\n",
				   100 * FA_EVERY_CALL, an->advised.every_call_lines,
				   an->now.every_call_lines);
	printed += fa_report__reorder(fp, te, an);
	printed += fa_report__split_not(fp, an);
	printed += fa_report__pins(fp, an, te->st);
	if (an->advice == FA_ADVICE_SPLIT) {
		printed += fprintf(fp, "\n");
		printed += fa_split__fprintf_c(&an->split, te->st, &an->current, fp);
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
		return fa_report__layouts(fp, te, an, o);
	case FA_REPORT_COST:
		return fa_report__cost(fp, an);
	case FA_REPORT_ADVICE:
		return fa_report__advice(fp, te, an);
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

/*
 * Why (almost) nothing was attributed: the reasons a user can act on, each
 * with the DSOs it is about.
 */
enum fa_why {
	FA_WHY_NO_REGS,		/* samples without registers */
	FA_WHY_FEW_REGS,	/* without the registers the addresses need */
	FA_WHY_NO_CODE,		/* the binary is gone */
	FA_WHY_CHANGED,		/* the binary is not the one recorded */
	FA_WHY_NO_SYM,		/* no symbols: stripped */
	FA_WHY_NO_DBGINFO,	/* no debug info: built without -g */
	FA_WHY_MAX,
};

static const char * const fa_why_text[FA_WHY_MAX] = {
	[FA_WHY_NO_REGS]	= "the samples have no registers: use 'perf affinity record'",
	[FA_WHY_FEW_REGS]	= "the samples lack the registers the addresses need",
	[FA_WHY_NO_CODE]	= "no code for the hot DSOs (deleted or moved since recording?)",
	[FA_WHY_CHANGED]	= "the hot DSOs changed since recording (build ID differs)",
	[FA_WHY_NO_SYM]		= "no symbols for the hot DSOs (stripped?)",
	[FA_WHY_NO_DBGINFO]	= "no debug info for the hot DSOs (built without -g?)",
};

#define FA_WHY_DSOS	3	/* named in the line, most samples first */
#define FA_WHY_TALLY	32

struct fa_why_dso {
	struct dso	*dso;
	u64		 count;
};

static void fa_why__tally(struct fa_why_dso *t, int *n, struct dso *dso, u64 count)
{
	int i;

	for (i = 0; i < *n && t[i].dso != dso; i++)
		;
	if (i == *n) {
		if (*n == FA_WHY_TALLY)
			return;
		t[(*n)++] = (struct fa_why_dso){ .dso = dso, };
	}
	t[i].count += count;
}

static int fa_why_dso__cmp(const void *a, const void *b)
{
	const struct fa_why_dso *x = a, *y = b;

	return x->count > y->count ? -1 : x->count < y->count;
}

/* ": dso, dso" of the samples given up for @why */
static int fa_why__dsos(const struct fa_decoder *dec, const struct fa_attr *a, int why,
			char *buf, size_t size)
{
	static const int drop[FA_WHY_MAX] = {
		[FA_WHY_NO_CODE] = FA_DROP_NO_CODE + 1, [FA_WHY_CHANGED] = FA_DROP_CHANGED + 1,
	};
	static const int fail[FA_WHY_MAX] = {
		[FA_WHY_NO_SYM] = FA_ATTR_NO_SYM + 1, [FA_WHY_NO_DBGINFO] = FA_ATTR_NO_DBGINFO + 1,
	};
	static const int drop_too[FA_WHY_MAX] = { [FA_WHY_NO_SYM] = FA_DROP_NO_SYM + 1, };
	struct fa_why_dso t[FA_WHY_TALLY];
	struct hashmap_entry *cur;
	int n = 0, len = 0;
	size_t bkt;

	hashmap__for_each_entry(dec->drop_dsos, cur, bkt) {
		struct fa_drop_dso *d = cur->pvalue;

		if (d->reason + 1 == drop[why] || d->reason + 1 == drop_too[why])
			fa_why__tally(t, &n, d->dso, d->count);
	}
	hashmap__for_each_entry(a->fail_sites, cur, bkt) {
		struct fa_fail_site *fs = cur->pvalue;

		if (fs->reason + 1 == fail[why])
			fa_why__tally(t, &n, fs->dso, fs->count);
	}
	qsort(t, n, sizeof(*t), fa_why_dso__cmp);
	for (int i = 0; i < n && i < FA_WHY_DSOS; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i ? ", " : ": ",
				 dso__short_name(t[i].dso));
	if (n > FA_WHY_DSOS)
		len += scnprintf(buf + len, size - len, " and %d more", n - FA_WHY_DSOS);
	return len;
}

/**
 * fa_report__why - Why no access, or few, was attributed to a struct field
 * @regs: The registers the samples have, for the reason that they are too few
 *
 * Return: the length of the reason written to @buf, 0 when most samples
 * were attributed or none was decoded.
 */
int fa_report__why(const struct fa_decoder *dec, const struct fa_attr *a, const char *regs,
		   char *buf, size_t size)
{
	const struct fa_decode_stats *ds = &dec->stats;
	const struct fa_attr_stats *as = &a->stats;
	const u64 *drop = ds->dropped;
	u64 count[FA_WHY_MAX] = {
		[FA_WHY_NO_REGS]	= drop[FA_DROP_NO_REGS],
		[FA_WHY_FEW_REGS]	= drop[FA_DROP_NO_REG],
		[FA_WHY_NO_CODE]	= drop[FA_DROP_NO_CODE] + drop[FA_DROP_NO_MAP],
		[FA_WHY_CHANGED]	= drop[FA_DROP_CHANGED],
		[FA_WHY_NO_SYM]		= as->failed[FA_ATTR_NO_SYM] + drop[FA_DROP_NO_SYM],
		[FA_WHY_NO_DBGINFO]	= as->failed[FA_ATTR_NO_DBGINFO],
	};
	u64 samples = fa_decode_stats__samples(ds), best = 0, lost, failed = 0;
	int why = -1, top = 0, len;

	/* more than 1 in 100 attributed: the report says the rest */
	if (!samples || as->resolved * 100 > samples)
		return 0;
	for (int i = 0; i < FA_ATTR_MAX; i++) {
		failed += as->failed[i];
		if (as->failed[i] > as->failed[top])
			top = i;
	}
	/* of the samples lost for a reason; those without a memory operand are not */
	lost = failed - as->failed[FA_ATTR_NO_SYM] - as->failed[FA_ATTR_NO_DBGINFO];
	for (int i = 0; i < FA_WHY_MAX; i++) {
		lost += count[i];
		if (count[i] > best) {
			best = count[i];
			why = i;
		}
	}
	if (why < 0 && !as->accesses) {
		/* code without memory operands: nothing to attribute */
		for (int i = 0; i < FA_DROP_MAX; i++) {
			if (drop[i] > drop[top])
				top = i;
		}
		return scnprintf(buf, size, "no sample gave a memory access: most '%s'%s",
				 fa_drop__name(top), " (see --stats)");
	}
	if (why < 0 || best * 2 < lost) {
		/* no one reason for most of them: the biggest, as --stats says it */
		len = scnprintf(buf, size, "%" PRIu64 " of %" PRIu64 " accesses not attributed",
				failed, as->accesses);
		return len + scnprintf(buf + len, size - len, ": most '%s' (see --stats)",
				       fa_attr_fail__name(top));
	}
	len = scnprintf(buf, size, "%s", fa_why_text[why]);
	if (why == FA_WHY_FEW_REGS)
		return len + scnprintf(buf + len, size - len, " (sampled: %s): %s", regs ?: "?",
				       "record with 'perf affinity record'");
	return len + fa_why__dsos(dec, a, why, buf + len, size - len);
}
