// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report, stdio: what the analysis advises for a struct type
 * (report.h's layout, cost and advice sections): the current and the
 * suggested layout in pahole's format, how instances get lines of their
 * own, the predicted cost of both, and the edit, reorder or split with
 * what it is predicted to save, or why none is advised.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "../advice/analyze.h"
#include "../attr/attr.h"
#include "../fields/fields.h"
#include "hists.h"
#include "memory.h"
#include "report.h"
#include "../accumulate/type.h"

/* The change of the total cost from @now to @then, in percent */
static double fa_cost__change(const struct fa_cost *now, const struct fa_cost *then)
{
	return now->total > 0 ? 100 * (then->total - now->total) / now->total : 0;
}

static size_t fa_report__cost(FILE *fp, struct fa_analysis *an)
{
	const struct fa_cost *m = &an->cost.now.model, *mt = &an->cost.advised.model;
	const struct fa_cost *r = &an->cost.now.replay, *rt = &an->cost.advised.replay;
	const char *per = an->cost.per_visit ? "visit " : "window";
	size_t printed = fprintf(fp, "\n  Predicted cost (model)       current  suggested\n");
	char ci[2][32];

	printed += fprintf(fp, "    cache lines per %s    %9.2f  %9.2f\n", per,
			   m->lines_per_window, mt->lines_per_window);
	printed += fprintf(fp, "    transfers per %s      %9.2f  %9.2f\n", per,
			   m->xfers_per_window, mt->xfers_per_window);
	printed += fprintf(fp, "    transfers per 1k accesses %9.1f  %9.1f\n",
			   m->xfers_per_kacc, mt->xfers_per_kacc);
	printed += fprintf(fp, "    total (lines + %.0f x transfers) %6.2f  %9.2f  %+.1f%%\n",
			   an->cost.xfer_cost, m->total, mt->total, fa_cost__change(m, mt));
	scnprintf(ci[0], sizeof(ci[0]), "%.2f-%.2f", an->cost.now.cost_ci.lo,
		  an->cost.now.cost_ci.hi);
	scnprintf(ci[1], sizeof(ci[1]), "%.2f-%.2f", an->cost.advised.cost_ci.lo,
		  an->cost.advised.cost_ci.hi);
	printed += fprintf(fp, "    total, %.0f%% interval %14s  %9s\n", 100 * FA_BOOT_LEVEL, ci[0],
			   ci[1]);
	printed += fprintf(fp, "    replay of the access stream (%" PRIu64 " accesses): lines per window %.2f -> %.2f, transfers per 1k accesses %.1f -> %.1f\n",
			   r->accesses, r->lines_per_window, rt->lines_per_window,
			   r->xfers_per_kacc, rt->xfers_per_kacc);
	if (an->cost.now.visit_lines > 0)
		printed += fprintf(fp, "    lines per visit with the instances where they were: %.2f -> %.2f\n",
				   an->cost.now.visit_lines, an->cost.advised.visit_lines);
	if (an->advice.spread)
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

/**
 * fa_type_entry__align_by - How the instances of @te get lines of their own
 *
 * The type's alignment aligns variables (and the elements of arrays of
 * them), not the memory malloc() returns: instances most of whose
 * accesses were not to a variable of the type need an aligned allocation,
 * and a type whose size is not a multiple of the line its alignment too.
 * A C++ class's alignment aligns what new and std::allocator give it too
 * (since C++17), and its stack and member instances; any type's aligns
 * its instances on stacks.
 */
int fa_type_entry__align_by(const struct fa_type_entry *te, const struct fa_analysis *an)
{
	if (fa_type_entry__in_vars(te) || fa_type_entry__on_stacks(te) ||
	    fa_type_entry__per_cpu(te) || (te->st && te->st->cxx))
		return FA_ALIGN_BY_TYPE;
	if (an->seen.current.size % an->seen.current.line_size == 0)
		return FA_ALIGN_BY_ALLOC;
	return FA_ALIGN_BY_BOTH;
}

/* Why the instances are to be aligned: what the replay saw, in its numbers */
static size_t fa_report__spread_why(FILE *fp, const struct fa_type_entry *te,
				    const struct fa_analysis *an)
{
	const struct fa_cost *r = &an->cost.now.replay, *rt = &an->cost.advised.replay;

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
	u32 line = an->advice.suggested.line_size;
	u64 nr = te->t->xfer.nr_instances, mis = te->t->xfer.misaligned;

	switch (fa_type_entry__align_by(te, an)) {
	case FA_ALIGN_BY_TYPE:
		if (te->st && te->st->cxx)
			return fprintf(fp, "alignas(%u) on the class: variables, new and std::allocator (-std=c++17) align its instances, malloc() does not",
				       line);
		if (!fa_type_entry__in_vars(te) && fa_type_entry__on_stacks(te))
			return fprintf(fp, "align the struct to the %u byte cache line: its instances are on stacks, where the type's alignment aligns them",
				       line);
		if (!fa_type_entry__in_vars(te))
			return fprintf(fp, "align the struct to the %u byte cache line: its %" PRIu64 " instances, at one offset into their pages, are the per-CPU copies of a variable, which the type's alignment aligns",
				       line, nr);
		return fprintf(fp, "align the struct to the %u byte cache line", line);
	case FA_ALIGN_BY_ALLOC:
		return fprintf(fp, "allocate the instances at %u byte boundaries (%s): the struct %s, but %" PRIu64 " of %" PRIu64 " instances recorded do not start a cache line, %s",
			       line, alloc,
			       an->seen.current.align >= line ? "is aligned to the line already" :
			       "size is a multiple of the line", mis, nr,
			       te->kernel ? "their cache does not align them" :
			       "malloc() does not align to the type");
	default:
		return fprintf(fp, "align the struct to the %u byte cache line and allocate the instances at %u byte boundaries (%s): %s",
			       line, line, alloc, te->kernel ? "their cache does not align them" :
			       "malloc() does not align to the type");
	}
}

/*
 * Whether the full reorder's model saves FA_MIN_GAIN: then no advice is
 * for what the moves and the growth cost, and the report says so
 */
static bool fa_report__reorder_saves(const struct fa_analysis *an)
{
	return !an->reorder.breaks &&
	       an->reorder.model.total < an->cost.now.model.total * (1 - FA_MIN_GAIN);
}

static size_t fa_report__layouts(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an,
				 const struct fa_report_opts *o)
{
	size_t printed = fprintf(fp, "\n  Current layout:\n\n");

	printed += fa_layout__fprintf(&an->seen.current, te->st, fp);
	if (!an->advice.changed) {
		printed += fprintf(fp, "\n  Suggested layout: keep the current one");
		if (an->advice.kind == FA_ADVICE_SPLIT)
			printed += fprintf(fp, ", and split it (see Advice)");
		else if (an->advice.kept && fa_report__reorder_saves(an))
			printed += fprintf(fp, " (no layout saves %.0f%% once its moves and growth count)",
					   100 * FA_MIN_GAIN);
		else if (an->advice.kept)
			printed += fprintf(fp, " (the clustered one would not save %.0f%%)",
					   100 * FA_MIN_GAIN);
		else if (an->candidate.insufficient)
			printed += fprintf(fp, " (the evidence for a change is insufficient, see Advice)");
		return printed + fprintf(fp, "\n");
	}
	printed += fprintf(fp, "\n  Suggested layout (%+d bytes):\n",
			   (int)an->advice.suggested.size - (int)an->seen.current.size);
	if (an->advice.spread) {
		printed += fprintf(fp, "  aligned to the %u byte cache line: ",
				   an->advice.suggested.line_size);
		printed += fa_report__spread_why(fp, te, an);
		printed += fprintf(fp, ";\n  %+" PRId64 " bytes for the %" PRIu64 " instances seen\n",
				   ((s64)an->advice.suggested.size - an->seen.current.size) *
				   (s64)te->t->xfer.nr_instances, te->t->xfer.nr_instances);
	}
	printed += fprintf(fp, "\n");
	printed += fa_layout__fprintf(&an->advice.suggested, te->st, fp);
	if (o->emit_c) {
		printed += fprintf(fp, "\n  As %s:\n\n", te->st->cxx ? "C++" : "C");
		printed += fa_layout__fprintf_c(&an->advice.suggested, te->st,
						&an->seen.classes, te->kernel, fp);
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
	const struct fa_layout *cur = &an->seen.current;
	const struct fa_field *f = an->seen.embed_field;
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
				   grow * (s64)(f->size / cur->size), an->seen.embed_type, f->name,
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

	if (st->abi_decl)
		return fprintf(fp, "  kept as it is: declared in %s, where assembly or user space has its offsets\n",
			       st->abi_decl);
	for (int u = 0; an->advice.keep.nr_pins && u < st->nr_units; u++) {
		if (!an->advice.keep.pin[u])
			continue;
		printed += fprintf(fp, "  kept in place: %s (%s)\n", fa_unit__name(st, u),
				   fa_pin__why(an->advice.keep.pin[u]));
	}
	for (int i = 0; i < an->advice.keep.nr_ranges; i++) {
		const struct fa_keep_range *r = &an->advice.keep.ranges[i];

		printed += fprintf(fp, "  kept together, in order: %s to %s (--keep-order)\n",
				   fa_unit__name(st, an->seen.current.order[r->from]),
				   fa_unit__name(st, an->seen.current.order[r->to]));
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
	if (an->advice.kind == FA_ADVICE_REORDER ||
	    fa_layout__same(&an->reorder.layout, &an->seen.current) ||
	    (an->candidate.insufficient && an->candidate.advice == FA_ADVICE_REORDER))
		return 0;
	printed = fprintf(fp, "  the full reorder: ");
	printed += fa_report__saving(fp, &an->reorder.gain_ci);
	printed += fprintf(fp, " (model), moves %d member%s, ", an->reorder.moved,
			   an->reorder.moved == 1 ? "" : "s");
	printed += fa_report__growth(fp, an, &an->reorder.layout, te->t->xfer.nr_instances);
	if (an->reorder.breaks)
		return printed + fprintf(fp, ": moves what must stay, not advised\n");
	if (!fa_report__reorder_saves(an))
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

	for (int k = 0; k < an->seen.current.nr_units; k++) {
		int u = an->seen.current.order[k];

		if (an->advice.split.hot[u] != hot)
			continue;
		printed += fprintf(fp, "%s%s", sep, fa_unit__name(st, u));
		sep = ", ";
	}
	return printed + fprintf(fp, " (%u bytes)\n",
				 hot ? an->advice.split.hot_size : an->advice.split.cold_size);
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
	const struct fa_split *sp = &an->advice.split;
	size_t printed;

	printed = fprintf(fp, "\n  Advice: split it into a hot and a cold struct, in two arrays of %" PRIu64 "+ instances\n",
			  te->t->xfer.nr_instances);
	printed += fa_report__split_part(fp, an, te->st, true);
	printed += fa_report__split_part(fp, an, te->st, false);
	printed += fprintf(fp, "  predicted: ");
	printed += fa_report__split_cost(fp, sp, an->seen.current.line_size);
	printed += fprintf(fp, "\n  the cold members are touched in %.1f%% of the visits; each part keeps the order of its members\n",
			   100 * sp->cold_share);
	return printed + fprintf(fp, "  every access to a cold member changes: the cold part of an instance is at its index in the cold array\n");
}

/* A split considered and not advised, and why */
static size_t fa_report__split_not(FILE *fp, const struct fa_analysis *an)
{
	const struct fa_split *sp = &an->advice.split;
	size_t printed;

	if (sp->why != FA_SPLIT_NO_GAIN && sp->why != FA_SPLIT_KEEP)
		return 0;
	printed = fprintf(fp, "  a hot/cold split: ");
	printed += fa_report__split_cost(fp, sp, an->seen.current.line_size);
	if (sp->why == FA_SPLIT_KEEP)
		return printed + fprintf(fp, ": moves what must stay, not advised\n");
	return printed + fprintf(fp, ": not advised, not %.0f%% cheaper than %s\n",
				 100 * FA_SPLIT_COST,
				 an->advice.changed ? "the advice" : "the layout");
}


/* Members shown where the model and the replay disagree */
#define FA_DISAGREE_SHOWN	3
/* Transfers per 1k accesses by which their changes differ, to be shown */
#define FA_DISAGREE_MIN		1.0

/* The change of each unit's transfers per 1k accesses, model minus replay */
static double fa_disagree__gap(const double *d, int n, int u)
{
	return fabs((d[n + u] - d[u]) - (d[3 * n + u] - d[2 * n + u]));
}

static size_t fa_disagree__fprintf(FILE *fp, const struct fa_struct *st, const double *d, int n)
{
	size_t printed = 0;
	bool shown[n + 1];

	memset(shown, 0, sizeof(shown));
	for (int k = 0; k < FA_DISAGREE_SHOWN; k++) {
		int best = -1;

		for (int u = 0; u < n; u++) {
			if (!shown[u] && fa_disagree__gap(d, n, u) >= FA_DISAGREE_MIN &&
			    (best < 0 || fa_disagree__gap(d, n, u) > fa_disagree__gap(d, n, best)))
				best = u;
		}
		if (best < 0)
			break;
		shown[best] = true;
		if (!printed)
			printed += fprintf(fp, "  where they disagree, transfers per 1k accesses by the member accessed, now -> then:\n");
		printed += fprintf(fp, "    %-24s model %7.1f -> %7.1f, replay %7.1f -> %7.1f\n",
				   fa_unit__name(st, best), d[best], d[n + best], d[2 * n + best],
				   d[3 * n + best]);
	}
	return printed;
}

/*
 * Where the model and the replay disagree about layout @then: the members
 * whose accesses they see move lines the most differently, now and then
 */
static size_t fa_report__disagree(FILE *fp, const struct fa_type_entry *te,
				  const struct fa_analysis *an, const struct fa_layout *then)
{
	const struct fa_type *t = te->t;
	int n = an->seen.current.nr_units;
	/* the model's now and then, the replay's now and then */
	double *d = calloc(4 * n + 1, sizeof(*d));
	enum fa_bases bases = then->align >= t->cfg.line_size ? FA_BASES_LINE_START :
			      FA_BASES_RECORDED;
	struct fa_replay_detail rd[2] = { { .by_unit = d + 2 * n, }, { .by_unit = d + 3 * n, } };
	struct fa_cost c[2];
	size_t printed = 0;

	if (!d || !an->cost.model.sets || !t->counts.nr_accesses)
		goto out_free;
	fa_cost_model__moves_by_unit(&an->cost.model, &an->seen.current, d);
	fa_cost_model__moves_by_unit(&an->cost.model, then, d + n);
	if (fa_cost__replay_detail(t, &an->seen.current, FA_BASES_RECORDED,
				   an->cost.xfer_cost, &c[0], NULL, &rd[0]) ||
	    fa_cost__replay_detail(t, then, bases, an->cost.xfer_cost, &c[1], NULL, &rd[1]) ||
	    !c[0].accesses || !c[1].accesses)
		goto out_free;
	for (int u = 0; u < n; u++) {
		d[u] *= 1000.0 / t->counts.nr_accesses;
		d[n + u] *= 1000.0 / t->counts.nr_accesses;
		d[2 * n + u] *= 1000.0 / c[0].accesses;
		d[3 * n + u] *= 1000.0 / c[1].accesses;
	}
	printed = fa_disagree__fprintf(fp, te->st, d, n);
out_free:
	free(d);
	return printed;
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

	if (an->candidate.advice == FA_ADVICE_REORDER) {
		printed += fprintf(fp, "the full reorder (%d members moved)\n", an->reorder.moved);
	} else {
		printed += fprintf(fp, "the edit\n");
		printed += fa_report__edits(fp, &an->advice.edits, te->st);
	}
	printed += fprintf(fp, "  predicted: %+.1f%% (model)", -100 * an->cost.gain_ci.est);
	if (an->watched.worse)
		return printed + fprintf(fp, ", but the watched accesses move its lines more often: %" PRIu64 " transfers instead of %" PRIu64 "\n",
					 an->watched.then.transfers, an->watched.now.transfers);
	if (an->candidate.contradicted) {
		printed += fprintf(fp, ", but %+.1f%% by the replay of the recorded accesses: they disagree; record longer, or watch the hot lines (record --watch)\n",
				   100 * (an->candidate.replay.total /
					  an->cost.now.replay.total - 1));
		return printed + fa_report__disagree(fp, te, an, &an->candidate.layout);
	}
	if (an->candidate.record_more > 1) {
		printed += fprintf(fp, ", %s: not surely %.0f%%\n",
				   fa_interval__str(&an->cost.gain_ci, true, ci, sizeof(ci)),
				   100 * FA_MIN_GAIN);
		return printed + fprintf(fp, "  record about %.1fx as many samples (longer, or a --sw-period %.1fx shorter) to tell\n",
					 an->candidate.record_more, an->candidate.record_more);
	}
	return printed + fprintf(fp, "\n  samples in too few blocks of %llu us to tell: record longer\n",
				 FA_BOOT_BLOCK_NS / 1000);
}

static size_t fa_report__advice_head(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an)
{
	size_t printed;

	if (an->advice.kind == FA_ADVICE_SPLIT)
		return fa_report__split(fp, te, an);

	if (an->advice.spread && an->advice.kind == FA_ADVICE_NONE) {
		printed = fprintf(fp, "\n  Advice: ");
		printed += fa_report__align_how(fp, te, an);
		printed += fprintf(fp, " (");
		printed += fa_report__growth(fp, an, &an->advice.suggested,
					     te->t->xfer.nr_instances);
		return printed + fprintf(fp, ")\n");
	}
	if (an->candidate.insufficient)
		return fa_report__insufficient(fp, te, an);
	if (!an->advice.changed)
		return fprintf(fp, "\n  Advice: none, no edit %ssaves %.0f%% of the predicted cost%s\n",
			       an->advice.keep.nr_pins ||
			       an->advice.keep.nr_ranges ? "that keeps what must stay " : "",
			       100 * FA_MIN_GAIN, fa_report__reorder_saves(an) ?
			       " once its moves and growth count" : "");
	printed = fprintf(fp, "\n  Advice: %s (%d member%s moved, %d offset%s changed, ",
			  an->advice.kind == FA_ADVICE_REORDER ?
			  "the full reorder, clearly better than any small edit" :
			  "the smallest edit", an->advice.moved, an->advice.moved == 1 ? "" : "s",
			  an->advice.shifted, an->advice.shifted == 1 ? "" : "s");
	printed += fa_report__growth(fp, an, &an->advice.suggested, te->t->xfer.nr_instances);
	printed += fprintf(fp, ")\n");
	if (an->advice.kind == FA_ADVICE_EDIT)
		printed += fa_report__edits(fp, &an->advice.edits, te->st);
	if (an->advice.spread) {
		printed += fprintf(fp, "    and ");
		printed += fa_report__align_how(fp, te, an);
		printed += fprintf(fp, "\n");
	}
	return printed;
}

/*
 * False sharing between members of a class @te holds by value: that
 * class's own advice is where it is fixed (a queue inside a benchmark)
 */
static size_t fa_report__held(FILE *fp, const struct fa_type_entry *te,
			      const struct fa_analysis *an)
{
	const struct fa_struct *st = te->st;
	size_t printed = 0;

	for (int m = 0; te->embeds && m < st->nr_fields; m++) {
		const struct fa_type_entry *inner = te->embeds[m];

		for (int i = 0; inner && inner->t && i < an->seen.nr_fs_pairs; i++) {
			if (fa_field__top(st, an->seen.fs_pairs[i].writer) != m ||
			    fa_field__top(st, an->seen.fs_pairs[i].reader) != m)
				continue;
			if (st->fields[m].base)
				printed += fprintf(fp, "  note: the false sharing is of the members of its base %s: its advice is where to fix it\n",
						   inner->name);
			else
				printed += fprintf(fp, "  note: the false sharing inside %s is of %s's members: its advice is where to fix it\n",
						   st->fields[m].name, inner->name);
			break;
		}
	}
	return printed;
}

/* What to do, what it is predicted to save, and what was not advised */
static size_t fa_report__advice(FILE *fp, struct fa_type_entry *te, struct fa_analysis *an)
{
	size_t printed = fa_report__advice_head(fp, te, an);

	printed += fa_report__held(fp, te, an);
	if (an->advice.changed && an->advice.spread) {
		printed += fprintf(fp, "  predicted: ");
		printed += fa_report__saving(fp, &an->cost.replay_gain_ci);
		printed += fprintf(fp, " (replay of the accesses, the instances on lines of their own)\n");
	} else if (an->advice.changed) {
		printed += fprintf(fp, "  predicted: ");
		printed += fa_report__saving(fp, &an->cost.gain_ci);
		printed += fprintf(fp, " (model), ");
		printed += fa_report__saving(fp, &an->cost.replay_gain_ci);
		printed += fprintf(fp, " (replay of the accesses)\n");
	}
	if (an->advice.changed && an->cost.now.visit_lines > 0)
		printed += fprintf(fp, "  lines per visit with the instances where they were: %.2f -> %.2f\n",
				   an->cost.now.visit_lines, an->cost.advised.visit_lines);
	if (an->advice.changed) {
		struct fa_mem_price price;

		fa_mem_price__init(&price, te, &an->seen.current, &an->advice.suggested);
		printed += fprintf(fp, "  memory where the instances live (%s): ",
				   fa_mem_home__text(price.home));
		printed += fa_mem_price__fprintf(&price, fp);
		printed += fprintf(fp, "\n");
	}
	/* BPF programs read kernel types by offset: CO-RE relocates them, fixed ones do not */
	if (an->advice.changed && an->advice.shifted && te->kernel)
		printed += fprintf(fp, "  note: %d offsets change: BPF programs that read the members through BTF (CO-RE) relocate, programs built with fixed offsets of %s must be rebuilt\n",
				   an->advice.shifted, te->name);
	if (an->advice.unsure) {
		printed += fprintf(fp, "  unsure: the recorded instances do not confirm the model's gain\n");
		printed += fa_report__disagree(fp, te, an, &an->advice.suggested);
	}
	if (an->advice.edits.cut)
		printed += fprintf(fp, "  note: the search for edits was cut short, the struct is too wide for its budget\n");
	if (an->advice.needs_line_start)
		printed += fprintf(fp, "  note: the members are apart where an instance starts a cache line (%" PRIu64 " of %" PRIu64 " recorded did): %s %u bytes%s\n",
				   te->t->xfer.nr_instances - te->t->xfer.misaligned,
				   te->t->xfer.nr_instances,
				   te->st->cxx ? "alignas() on the class, to" : "align the struct to",
				   an->advice.suggested.line_size,
				   te->st->cxx ? " (new aligns it since C++17)" : ", or allocate it so");
	if (an->cost.advised.every_call_lines > an->cost.now.every_call_lines)
		printed += fprintf(fp, "  note: the fields nearly every visit touches (%.0f%%) take %d cache lines instead of %d\n",
				   100 * FA_EVERY_CALL, an->cost.advised.every_call_lines,
				   an->cost.now.every_call_lines);
	printed += fa_report__reorder(fp, te, an);
	printed += fa_report__split_not(fp, an);
	printed += fa_report__pins(fp, an, te->st);
	if (an->advice.kind == FA_ADVICE_SPLIT) {
		printed += fprintf(fp, "\n");
		printed += fa_split__fprintf_c(&an->advice.split, te->st, &an->seen.current, fp);
	}
	return printed;
}

/* The layout, cost and advice sections of fa_report__section() */
size_t fa_report__advice_section(FILE *fp, int section, struct fa_type_entry *te,
				 struct fa_analysis *an, const struct fa_report_opts *o)
{
	switch (section) {
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
