// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report --json (see json.h): the report's header, statistics,
 * and per struct type its fields, co-access,
 * false sharing, clusters, layouts and costs.
 *
 * Fields are referred to by their index in the type's "fields" array, the
 * index of the field table of the engine (struct fa_struct), so that
 * co-access cells, pairs, clusters and layouts all use the same numbers.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "../advice/analyze.h"
#include "../advice/try.h"
#include "memory.h"
#include "../attr/attr.h"
#include "../attr/dlines.h"
#include "../decode/decode.h"
#include "../accumulate/exact.h"
#include "../fields/fields.h"
#include "hists.h"
#include "json.h"
#include "../advice/lines.h"
#include "../advice/merge.h"
#include "../accumulate/owner.h"
#include "report.h"
#include "../accumulate/type.h"

/*
 * The report.  Keys of the statistics are stable identifiers, not the
 * text --stats prints, so that they can be relied on.
 */
static void fa_json__per_source(struct json_writer *j, const char *key, const u64 *count)
{
	json_writer__begin_object(j, key, /*flat=*/true);
	for (int s = 0; s < FA_SRC_MAX; s++)
		json_writer__u64(j, fa_source__name(s), count[s]);
	json_writer__end_object(j);
}

static void fa_json__decode_stats(struct json_writer *j, const struct fa_decode_stats *st)
{
	fa_json__per_source(j, "samples", st->samples);
	json_writer__begin_object(j, "decode", /*flat=*/false);
	fa_json__per_source(j, "accesses", st->accesses);
	json_writer__begin_object(j, "dropped", /*flat=*/false);
	for (int i = 0; i < FA_DROP_MAX; i++)
		json_writer__u64(j, fa_drop__key(i), st->dropped[i]);
	json_writer__end_object(j);
	json_writer__u64(j, "skid", st->skid);
	json_writer__u64(j, "watch", st->watch);
	json_writer__u64(j, "block", st->block);
	json_writer__u64(j, "block_lost", st->block_lost);
	json_writer__begin_object(j, "walk_stop", /*flat=*/false);
	for (int i = 0; i < FA_WALK_MAX; i++)
		json_writer__u64(j, fa_walk_stop__key(i), st->walk_stop[i]);
	json_writer__end_object(j);
	json_writer__u64(j, "seg", st->seg);
	json_writer__u64(j, "string", st->string);
	json_writer__u64(j, "unknown_op", st->unknown_op);
	json_writer__u64(j, "kernel", st->kernel);
	json_writer__u64(j, "allocs", st->allocs);
	json_writer__u64(j, "frees", st->frees);
	json_writer__u64(j, "other_events", st->other);
	json_writer__end_object(j);
}

static void fa_json__attr_stats(struct json_writer *j, const struct fa_attr_stats *st)
{
	json_writer__begin_object(j, "attribution", /*flat=*/false);
	json_writer__u64(j, "accesses", st->accesses);
	json_writer__u64(j, "resolved", st->resolved);
	json_writer__u64(j, "by_address", st->by_address);
	json_writer__u64(j, "watched", st->watched);
	json_writer__u64(j, "by_instance", st->by_instance);
	json_writer__u64(j, "by_later", st->by_later);
	json_writer__u64(j, "system", st->system);
	json_writer__u64(j, "system_types", st->system_types);
	json_writer__u64(j, "by_enclosing", st->by_enclosing);
	json_writer__u64(j, "by_tls", st->by_tls);
	json_writer__u64(j, "tls_accesses", st->tls);
	json_writer__u64(j, "tls_found", st->tls_found);
	json_writer__u64(j, "tls_array", st->tls_array);
	json_writer__u64(j, "tls_ptr", st->tls_ptr);
	json_writer__u64(j, "by_array", st->by_array);
	json_writer__u64(j, "agree", st->agree);
	json_writer__u64(j, "disagree", st->disagree);
	json_writer__begin_object(j, "failed", /*flat=*/false);
	for (int i = 0; i < FA_ATTR_MAX; i++)
		json_writer__u64(j, fa_attr_fail__key(i), st->failed[i]);
	json_writer__end_object(j);
	json_writer__end_object(j);
}

static void fa_json__header(struct json_writer *j, const struct fa_json_header *h,
			    const struct fa_attr *a, const struct fa_report_opts *o)
{
	json_writer__begin_object(j, "header", /*flat=*/false);
	json_writer__string(j, "perf_version", h->perf_version);
	json_writer__string(j, "hostname", h->hostname);
	json_writer__string(j, "arch", h->arch);
	json_writer__int(j, "nr_cpus", h->nr_cpus);
	if (h->nr_recordings > 1) {
		json_writer__begin_array(j, "recordings", /*flat=*/false);
		for (int i = 0; i < h->nr_recordings; i++) {
			json_writer__begin_object(j, NULL, /*flat=*/true);
			json_writer__string(j, "path", h->recordings[i].path);
			json_writer__string(j, "hostname", h->recordings[i].hostname);
			json_writer__string(j, "arch", h->recordings[i].arch);
			json_writer__int(j, "nr_cpus", h->recordings[i].nr_cpus);
			json_writer__end_object(j);
		}
		json_writer__end_array(j);
	}
	json_writer__begin_object(j, "cacheline", /*flat=*/true);
	json_writer__u64(j, "size", a->s->cfg->line_size);
	json_writer__string(j, "source", h->line_size_source);
	if (h->recorded_line_size)
		json_writer__u64(j, "recorded", h->recorded_line_size);
	else
		json_writer__null(j, "recorded");
	json_writer__end_object(j);
	json_writer__begin_object(j, "options", /*flat=*/false);
	json_writer__string(j, "method", fa_method__name(h->method));
	json_writer__string(j, "scope", fa_scope__key(a->s->cfg->scope));
	json_writer__int(j, "window", a->s->cfg->window);
	json_writer__u64(j, "window_ns", a->s->cfg->window_ns);
	json_writer__double(j, "xfer_cost", o->xfer_cost);
	json_writer__double(j, "percent_limit", o->percent_limit);
	json_writer__string(j, "types", h->types);
	json_writer__end_object(j);
	fa_json__decode_stats(j, h->decode);
	fa_json__attr_stats(j, &a->stats);
	json_writer__end_object(j);
}

/* A set of owners: thread IDs or CPU numbers (see "owners" of the type) */
static void fa_json__owners(struct json_writer *j, const char *key, const struct fa_type *t,
			    const unsigned long *owners)
{
	json_writer__begin_array(j, key, /*flat=*/true);
	for (int i = 0; owners && i < t->cfg.nr_owners; i++) {
		if (test_bit(i, owners))
			json_writer__int(j, NULL, t->cfg.owners ? t->cfg.owners->tids[i] : (u32)i);
	}
	json_writer__end_array(j);
}

/* What watchpoints saw of a field: null if none watched it */
static void fa_json__watched(struct json_writer *j, const struct fa_exact *ex)
{
	if (!ex) {
		json_writer__null(j, "watched");
		return;
	}
	json_writer__begin_object(j, "watched", /*flat=*/true);
	json_writer__u64(j, "hits", ex->hits);
	json_writer__u64(j, "period", ex->period);
	json_writer__u64(j, "accesses", ex->accesses);
	json_writer__u64(j, "writes", ex->writes);
	json_writer__u64(j, "transfers", ex->transfers);
	json_writer__bool(j, "roles", fa_exact__enough(ex));
	json_writer__end_object(j);
}

/* What the accesses say of a leaf field, as the stdio field table has it */
static void fa_json__field_stats(struct json_writer *j, const struct fa_type *t,
				 const struct fa_analysis *an, int f,
				 const struct fa_report_opts *o)
{
	const struct fa_field_stats *fs = &t->counts.stats[f];
	const struct fa_field_info *fi = &an->seen.classes.fields[f];

	json_writer__u64(j, "loads", fs->loads + fs->other);
	json_writer__u64(j, "stores", fs->stores + fs->rmws);
	json_writer__u64(j, "rmws", fs->rmws);
	json_writer__u64(j, "hitm", fs->hitm);
	json_writer__u64(j, "peer", fs->peer);
	json_writer__double(j, "weight", fs->weight);
	json_writer__double(j, "share", fa_type__field_share(t, f));
	fa_json__owners(j, "readers", t, fi->readers);
	fa_json__owners(j, "writers", t, fi->writers);
	json_writer__string(j, "class", fa_class__name(an->seen.classes.field_cls[f]));
	json_writer__bool(j, "by_code", fi->class_by_code);
	json_writer__double(j, "class_agreement", fi->agree);
	fa_json__watched(j, fs->exact);
	json_writer__bool(j, "reported", fa_hists__field_shown(t, an, f, o->percent_limit));
}

static void fa_json__field(struct json_writer *j, const struct fa_type *t,
			   const struct fa_analysis *an, int f, const struct fa_report_opts *o)
{
	const struct fa_field *fd = &t->st->fields[f];

	json_writer__begin_object(j, NULL, /*flat=*/true);
	json_writer__int(j, "index", f);
	json_writer__string(j, "name", fd->name);
	json_writer__string(j, "type", fd->type);
	json_writer__string(j, "suffix", fd->suffix);
	json_writer__string(j, "kind", fa_field_kind__name(fd->kind));
	json_writer__int(j, "depth", fd->depth);
	if (fd->parent >= 0)
		json_writer__int(j, "parent", fd->parent);
	else
		json_writer__null(j, "parent");
	json_writer__u64(j, "offset", fd->offset);
	json_writer__u64(j, "size", fd->size);
	json_writer__u64(j, "line", fd->offset / t->cfg.line_size);
	if (fd->kind == FA_FIELD_BITFIELD) {
		json_writer__begin_object(j, "bitfield", /*flat=*/true);
		json_writer__u64(j, "bit_offset", fd->bit_offset);
		json_writer__u64(j, "bit_size", fd->bit_size);
		json_writer__int(j, "group", fd->group);
		json_writer__end_object(j);
	} else {
		json_writer__null(j, "bitfield");
	}
	json_writer__bool(j, "leaf", fd->leaf);
	if (fd->leaf)
		fa_json__field_stats(j, t, an, f, o);
	json_writer__end_object(j);
}

static void fa_json__interval(struct json_writer *j, const char *key, const struct fa_interval *ci,
			      double scale)
{
	json_writer__begin_array(j, key, /*flat=*/true);
	json_writer__double(j, NULL, scale * ci->lo);
	json_writer__double(j, NULL, scale * ci->hi);
	json_writer__end_array(j);
}

/* Symmetric co-access of @an's method: cells (i < j), heaviest first */
static int fa_json__coaccess(struct json_writer *j, const struct fa_analysis *an)
{
	struct fa_cell *cells;
	int n = fa_matrix__cells(an->seen.affinity, &cells);

	if (n < 0)
		return n;
	json_writer__begin_object(j, "coaccess", /*flat=*/false);
	json_writer__string(j, "method", fa_method__name(an->seen.method));
	json_writer__double(j, "total", an->seen.affinity->total);
	json_writer__begin_array(j, "cells", /*flat=*/false);
	for (int k = 0; k < n; k++) {
		json_writer__begin_array(j, NULL, /*flat=*/true);
		json_writer__int(j, NULL, min(cells[k].i, cells[k].j));
		json_writer__int(j, NULL, max(cells[k].i, cells[k].j));
		json_writer__double(j, NULL, cells[k].w);
		json_writer__end_array(j);
	}
	json_writer__end_array(j);
	json_writer__begin_array(j, "top", /*flat=*/false);
	for (int k = 0; k < an->seen.nr_top; k++) {
		const struct fa_top_pair *p = &an->seen.top[k];

		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__int(j, "a", p->a);
		json_writer__int(j, "b", p->b);
		json_writer__double(j, "share", p->share);
		if (p->have_together) {
			json_writer__double(j, "together", 100 * p->together.est);
			fa_json__interval(j, "together_interval", &p->together, 100);
		} else {
			json_writer__null(j, "together");
			json_writer__null(j, "together_interval");
		}
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	json_writer__end_object(j);
	free(cells);
	return 0;
}

/* The pairs of different fields the watchpoints saw the most transfers between */
static void fa_json__watched_pairs(struct json_writer *j, const struct fa_type *t)
{
	struct fa_exact_pair pairs[FA_EXACT_TOP_PAIRS];
	int n = fa_exact_lines__top(t->counts.exact_lines, t->st->nr_fields, pairs,
				    ARRAY_SIZE(pairs));

	json_writer__begin_array(j, "pairs", /*flat=*/true);
	for (int k = 0; k < n; k++) {
		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__int(j, "from", pairs[k].from);
		json_writer__int(j, "to", pairs[k].to);
		json_writer__u64(j, "transfers", pairs[k].transfers);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
}

/* The watched hits replayed with the advice or the leading candidate, or null */
static void fa_json__watched_replay(struct json_writer *j, const struct fa_analysis *an)
{
	if (!fa_analysis__watched_replayed(an)) {
		json_writer__null(j, "replayed");
		return;
	}
	json_writer__begin_object(j, "replayed", /*flat=*/true);
	json_writer__string(j, "layout", an->candidate.insufficient ? "candidate" : "advice");
	json_writer__u64(j, "transfers", an->watched.then.transfers);
	json_writer__u64(j, "false_sharing", an->watched.then.false_sharing);
	json_writer__end_object(j);
}

/* Of the pairs --stdio shows, FA_FS_SHOWN% of the transfers or more; else null */
static void fa_json__fs_share_interval(struct json_writer *j, const struct fa_fs_pair *p)
{
	if (p->share < FA_FS_SHOWN) {
		json_writer__null(j, "share_interval");
		return;
	}
	json_writer__begin_array(j, "share_interval", /*flat=*/true);
	json_writer__double(j, NULL, p->share_ci.lo);
	json_writer__double(j, NULL, p->share_ci.hi);
	json_writer__end_array(j);
}

static int fa_json__false_sharing(struct json_writer *j, const struct fa_type *t,
				  const struct fa_analysis *an)
{
	const struct fa_struct *st = t->st;

	json_writer__begin_array(j, "false_sharing", /*flat=*/false);
	for (int k = 0; k < an->seen.nr_fs_pairs; k++) {
		const struct fa_fs_pair *p = &an->seen.fs_pairs[k];
		int w = p->writer, r = p->reader;
		u64 xfers;

		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__int(j, "writer", w);
		json_writer__int(j, "reader", r);
		json_writer__double(j, "weight", p->weight);
		json_writer__double(j, "share", p->share);
		fa_json__fs_share_interval(j, p);
		fa_json__owners(j, "writer_owners", t, fa_report__roles(t, an, w, true));
		fa_json__owners(j, "reader_owners", t, fa_report__roles(t, an, r, false));
		if (fa_exact_lines__pair(t->counts.exact_lines, w, r, &xfers))
			json_writer__u64(j, "watched_transfers", xfers);
		else
			json_writer__null(j, "watched_transfers");
		json_writer__bool(j, "separated", fa_layout__line(&an->advice.suggested, st, w) !=
			      fa_layout__line(&an->advice.suggested, st, r));
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	if (!t->counts.exact_lines) {
		json_writer__null(j, "watched_lines");
		return 0;
	}
	json_writer__begin_object(j, "watched_lines", /*flat=*/true);
	json_writer__u64(j, "transfers", t->counts.exact_lines->transfers);
	json_writer__u64(j, "false_sharing", t->counts.exact_lines->false_sharing);
	json_writer__u64(j, "hits_kept", t->counts.exact_lines->nr_hits);
	json_writer__u64(j, "hits_left", t->counts.exact_lines->hits_left);
	fa_json__watched_replay(j, an);
	fa_json__watched_pairs(j, t);
	json_writer__end_object(j);
	return 0;
}

static void fa_json__clusters(struct json_writer *j, const struct fa_struct *st,
			      const struct fa_analysis *an)
{
	double total = 0;

	for (int u = 0; u < an->seen.classes.nr_units; u++)
		total += an->seen.classes.units[u].weight;
	json_writer__begin_array(j, "clusters", /*flat=*/false);
	for (int k = 0; k < an->advice.clusters.nr; k++) {
		const struct fa_cluster *c = &an->advice.clusters.clusters[k];

		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__begin_array(j, "fields", /*flat=*/true);
		for (int i = 0; i < c->nr; i++) {
			const struct fa_unit *unit = &st->units[c->units[i]];

			for (int f = unit->field; f < unit->field + unit->nr_fields; f++)
				json_writer__int(j, NULL, f);
		}
		json_writer__end_array(j);
		json_writer__u64(j, "size", c->size);
		json_writer__double(j, "weight", c->weight);
		json_writer__double(j, "share", total ? 100 * c->weight / total : 0);
		json_writer__double(j, "affinity", c->affinity);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
}

static void fa_json__hole(struct json_writer *j, u32 offset, const char *key, u32 size)
{
	json_writer__begin_object(j, NULL, /*flat=*/true);
	json_writer__u64(j, "offset", offset);
	json_writer__u64(j, key, size);
	json_writer__end_object(j);
}

/*
 * The holes of @l as pahole counts them: bytes between members, and the
 * unused bits of bitfield storage units (at the offset of the unit)
 */
static void fa_json__holes(struct json_writer *j, const struct fa_layout *l,
			   const struct fa_struct *st)
{
	struct fa_layout_walk w;
	int unit = -1;
	u32 bits;

	json_writer__begin_array(j, "holes", /*flat=*/false);
	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		if (w.hole)
			fa_json__hole(j, w.offset - w.hole, "size", w.hole);
	}
	json_writer__end_array(j);
	json_writer__begin_array(j, "bit_holes", /*flat=*/false);
	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		/* of the storage unit before the member */
		if (w.bit_hole)
			fa_json__hole(j, unit, "bits", w.bit_hole);
		unit = w.bit_unit_offset;
	}
	bits = fa_layout_walk__end_bits(&w);
	if (bits)
		fa_json__hole(j, unit, "bits", bits);
	json_writer__end_array(j);
	json_writer__u64(j, "padding", l->size > w.end ? l->size - w.end : 0);
}

static void fa_json__layout(struct json_writer *j, const char *key, const struct fa_layout *l,
			    const struct fa_struct *st)
{
	struct fa_layout_walk w;

	json_writer__begin_object(j, key, /*flat=*/false);
	json_writer__u64(j, "size", l->size);
	json_writer__u64(j, "align", l->align);
	json_writer__u64(j, "cachelines", DIV_ROUND_UP(l->size, l->line_size));
	json_writer__begin_array(j, "members", /*flat=*/false);
	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__int(j, "field", w.field);
		json_writer__u64(j, "offset", w.offset);
		json_writer__u64(j, "size", st->fields[w.field].size);
		json_writer__u64(j, "line", w.offset / l->line_size);
		json_writer__bool(j, "line_start", w.first && l->line_start[w.unit]);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	fa_json__holes(j, l, st);
	json_writer__end_object(j);
}

/* A cost of cost.h as an object of its members */
void fa_json__cost(struct json_writer *j, const char *key, const struct fa_cost *c)
{
	json_writer__begin_object(j, key, /*flat=*/true);
	json_writer__double(j, "lines_per_window", c->lines_per_window);
	json_writer__double(j, "xfers_per_window", c->xfers_per_window);
	json_writer__double(j, "xfers_per_kacc", c->xfers_per_kacc);
	json_writer__double(j, "total", c->total);
	json_writer__u64(j, "windows", c->windows);
	json_writer__u64(j, "accesses", c->accesses);
	json_writer__end_object(j);
}

/* [lo, hi] of an interval (boot.h), times @scale */
static void fa_json__costs(struct json_writer *j, const struct fa_analysis *an)
{
	double gain = fa_analysis__gain(an);
	struct fa_interval none = { .est = gain, .lo = gain, .hi = gain, };

	json_writer__begin_object(j, "cost", /*flat=*/false);
	json_writer__begin_object(j, "model", /*flat=*/false);
	fa_json__cost(j, "current", &an->cost.now.model);
	fa_json__cost(j, "suggested", &an->cost.advised.model);
	json_writer__end_object(j);
	json_writer__begin_object(j, "replay", /*flat=*/false);
	fa_json__cost(j, "current", &an->cost.now.replay);
	fa_json__cost(j, "suggested", &an->cost.advised.replay);
	json_writer__end_object(j);
	json_writer__double(j, "gain", 100 * fa_analysis__gain(an));
	json_writer__double(j, "level", 100 * FA_BOOT_LEVEL);
	fa_json__interval(j, "gain_interval", an->advice.changed &&
			  !an->advice.spread ? &an->cost.gain_ci : &none, 100);
	fa_json__interval(j, "replay_gain_interval", &an->cost.replay_gain_ci, 100);
	fa_json__interval(j, "current_interval", &an->cost.now.cost_ci, 1);
	fa_json__interval(j, "suggested_interval", &an->cost.advised.cost_ci, 1);
	json_writer__end_object(j);
}

static const char * const fa_advice_names[] = {
	[FA_ADVICE_NONE] = "none", [FA_ADVICE_EDIT] = "edit", [FA_ADVICE_REORDER] = "reorder",
	[FA_ADVICE_SPLIT] = "split",
};

static const char * const fa_edit_names[] = {
	[FA_EDIT_MOVE] = "move", [FA_EDIT_SWAP] = "swap", [FA_EDIT_LINE] = "line",
	[FA_EDIT_ISOLATE] = "isolate",
};

/* The edits @edits make, in order; an empty array when NULL */
static void fa_json__edits(struct json_writer *j, const struct fa_edits *edits,
			   const struct fa_struct *st)
{
	char buf[256];

	json_writer__begin_array(j, "edits", /*flat=*/false);
	for (int i = 0; edits && i < edits->nr; i++) {
		const struct fa_edit *e = &edits->edit[i];

		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__string(j, "op", fa_edit_names[e->op]);
		json_writer__string(j, "member", fa_unit__name(st, e->unit));
		if (e->other >= 0)
			json_writer__string(j, "other", fa_unit__name(st, e->other));
		fa_edit__snprintf(e, st, buf, sizeof(buf));
		json_writer__string(j, "text", buf);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
}

static void fa_json__kept(struct json_writer *j, const struct fa_analysis *an,
			  const struct fa_struct *st)
{
	json_writer__begin_array(j, "kept", /*flat=*/false);
	for (int u = 0; an->advice.keep.nr_pins && u < st->nr_units; u++) {
		if (!an->advice.keep.pin[u])
			continue;
		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__string(j, "member", fa_unit__name(st, u));
		json_writer__string(j, "why", fa_pin__key(an->advice.keep.pin[u]));
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	json_writer__begin_array(j, "kept_ranges", /*flat=*/false);
	for (int i = 0; i < an->advice.keep.nr_ranges; i++) {
		const struct fa_keep_range *r = &an->advice.keep.ranges[i];
		const int *order = an->seen.current.order;

		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__string(j, "from", fa_unit__name(st, order[r->from]));
		json_writer__string(j, "to", fa_unit__name(st, order[r->to]));
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
}

/* @key: the current layout's, the one advised otherwise's, the split's */
static void fa_json__triple(struct json_writer *j, const char *key, double now, double unsplit,
			    double split)
{
	json_writer__begin_array(j, key, /*flat=*/true);
	json_writer__double(j, NULL, now);
	json_writer__double(j, NULL, unsplit);
	json_writer__double(j, NULL, split);
	json_writer__end_array(j);
}

/* The best hot/cold split, when one was considered (split.h) */
static void fa_json__split(struct json_writer *j, const struct fa_analysis *an,
			   const struct fa_struct *st)
{
	const struct fa_split *sp = &an->advice.split;

	if (!sp->hot)
		return;
	json_writer__begin_object(j, "split", /*flat=*/false);
	json_writer__string(j, "why", fa_split_why__key(sp->why));
	for (int part = 0; part < 2; part++) {
		json_writer__begin_array(j, part ? "cold" : "hot", /*flat=*/true);
		for (int k = 0; k < an->seen.current.nr_units; k++) {
			int u = an->seen.current.order[k];

			if (sp->hot[u] == !part)
				json_writer__string(j, NULL, fa_unit__name(st, u));
		}
		json_writer__end_array(j);
	}
	json_writer__u64(j, "size_hot", sp->hot_size);
	json_writer__u64(j, "size_cold", sp->cold_size);
	json_writer__double(j, "cold_share", sp->cold_share);
	fa_json__triple(j, "lines_per_visit", sp->now.lines, sp->unsplit.lines, sp->split.lines);
	fa_json__triple(j, "bytes_per_visit", sp->now.bytes, sp->unsplit.bytes, sp->split.bytes);
	fa_json__triple(j, "cost", sp->now.cost, sp->unsplit.cost, sp->split.cost);
	json_writer__end_object(j);
}

/* The leading candidate when the evidence for it is insufficient, or null */
static void fa_json__candidate(struct json_writer *j, const struct fa_analysis *an,
			       const struct fa_struct *st)
{
	if (!an->candidate.insufficient) {
		json_writer__null(j, "candidate");
		return;
	}
	json_writer__begin_object(j, "candidate", /*flat=*/false);
	json_writer__string(j, "kind", fa_advice_names[an->candidate.advice]);
	fa_json__edits(j, an->candidate.advice == FA_ADVICE_EDIT ? &an->advice.edits : NULL, st);
	json_writer__double(j, "gain", 100 * an->cost.gain_ci.est);
	fa_json__interval(j, "gain_interval", &an->cost.gain_ci, 100);
	json_writer__double(j, "record_more", an->candidate.record_more);
	/* the replay of the accesses says it costs more: by how much */
	if (an->candidate.contradicted)
		json_writer__double(j, "replay_gain",
				100 * (1 - an->candidate.replay.total / an->cost.now.replay.total));
	else
		json_writer__null(j, "replay_gain");
	/* the watched accesses move its lines more often (fa_analysis::watched) */
	json_writer__bool(j, "watched_worse", an->watched.worse);
	json_writer__end_object(j);
}

/* What stdio's 'Advice' says */
static void fa_json__advice(struct json_writer *j, const struct fa_analysis *an,
			    const struct fa_struct *st)
{
	const struct fa_cost *m = &an->cost.now.model;

	json_writer__begin_object(j, "advice", /*flat=*/false);
	json_writer__string(j, "kind", fa_advice_names[an->advice.kind]);
	fa_json__edits(j, an->advice.kind == FA_ADVICE_EDIT ? &an->advice.edits : NULL, st);
	json_writer__bool(j, "insufficient", an->candidate.insufficient);
	fa_json__candidate(j, an, st);
	json_writer__int(j, "members_moved", an->advice.moved);
	json_writer__int(j, "offsets_changed", an->advice.shifted);
	json_writer__bool(j, "unsure", an->advice.unsure);
	json_writer__bool(j, "needs_line_start", an->advice.needs_line_start);
	json_writer__bool(j, "search_cut", an->advice.edits.cut);
	json_writer__int(j, "every_call_lines_current", an->cost.now.every_call_lines);
	json_writer__int(j, "every_call_lines_suggested", an->cost.advised.every_call_lines);
	json_writer__begin_object(j, "reorder", /*flat=*/true);
	json_writer__int(j, "members_moved", an->reorder.moved);
	json_writer__u64(j, "size", an->reorder.layout.size);
	json_writer__double(j, "gain", m->total > 0 ?
			100 * (1 - an->reorder.model.total / m->total) : 0);
	fa_json__interval(j, "gain_interval", &an->reorder.gain_ci, 100);
	json_writer__bool(j, "moves_kept", an->reorder.breaks);
	json_writer__end_object(j);
	fa_json__kept(j, an, st);
	fa_json__split(j, an, st);
	if (an->seen.embed_field && an->seen.current.size) {
		json_writer__begin_object(j, "embedded_in", /*flat=*/true);
		json_writer__string(j, "type", an->seen.embed_type);
		json_writer__string(j, "member", an->seen.embed_field->name);
		json_writer__u64(j, "count", an->seen.embed_field->size / an->seen.current.size);
		json_writer__end_object(j);
	}
	json_writer__end_object(j);
}

/* A layout's memory price where the instances live (memory.h) */
static void fa_json__memory(struct json_writer *j, const struct fa_mem_price *p)
{
	json_writer__begin_object(j, "memory", /*flat=*/true);
	json_writer__string(j, "home", fa_mem_home__key(p->home));
	json_writer__u64(j, "alloc_current", p->alloc_now);
	json_writer__u64(j, "alloc", p->alloc_then);
	json_writer__u64(j, "copies", p->copies);
	if (p->array_var)
		json_writer__string(j, "array", p->array_var);
	json_writer__int(j, "total", p->total);
	json_writer__bool(j, "crosses", p->crosses);
	if (p->home == FA_MEM_KMALLOC) {
		json_writer__u64(j, "slab_order_current", p->slab_now.order);
		json_writer__u64(j, "slab_order", p->slab_then.order);
		json_writer__u64(j, "slab_objects_current", p->slab_now.objects);
		json_writer__u64(j, "slab_objects", p->slab_then.objects);
	}
	json_writer__end_object(j);
}

/* --try's layouts, scored as the advice is (try.h) */
static void fa_json__tries(struct json_writer *j, const struct fa_type_entry *te,
			   const struct fa_analysis *an)
{
	const struct fa_type *t = te->t;
	struct fa_mem_price price;

	json_writer__begin_array(j, "tries", /*flat=*/false);
	for (int i = 0; i < an->nr_tries; i++) {
		const struct fa_try *tr = &an->tries[i];

		json_writer__begin_object(j, NULL, /*flat=*/false);
		json_writer__string(j, "text", tr->text);
		fa_json__edits(j, &tr->edits, t->st);
		json_writer__u64(j, "align", tr->align);
		fa_json__layout(j, "layout", &tr->layout, t->st);
		fa_mem_price__init(&price, te, &an->seen.current, &tr->layout);
		fa_json__memory(j, &price);
		fa_json__cost(j, "model", &tr->cost.model);
		json_writer__double(j, "gain", 100 * tr->gain_ci.est);
		fa_json__interval(j, "gain_interval", &tr->gain_ci, 100);
		fa_json__cost(j, "replay", &tr->cost.replay);
		json_writer__double(j, "replay_gain", 100 * tr->replay_gain_ci.est);
		fa_json__interval(j, "replay_gain_interval", &tr->replay_gain_ci, 100);
		json_writer__double(j, "visit_lines", tr->cost.visit_lines);
		json_writer__u64(j, "watched_hits", tr->watched.hits);
		json_writer__u64(j, "watched_transfers", tr->watched.transfers);
		json_writer__u64(j, "watched_false_sharing", tr->watched.false_sharing);
		json_writer__int(j, "members_moved", tr->moved);
		json_writer__bool(j, "moves_kept", tr->breaks);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
}

/* Lines of several instances, as the stdio report lists them (all of them) */
static int fa_json__shared_lines(struct json_writer *j, const struct fa_type *t,
				 const struct fa_analysis *an)
{
	const struct fa_shared_line *sl = an->seen.shared_lines;
	int n = an->seen.nr_shared_lines;

	json_writer__begin_array(j, "shared_lines", /*flat=*/false);
	for (int k = 0; k < n; k++) {
		json_writer__begin_object(j, NULL, /*flat=*/false);
		json_writer__u64(j, "addr", sl[k].addr);
		json_writer__u64(j, "accesses", sl[k].loads + sl[k].writes);
		json_writer__u64(j, "writes", sl[k].writes);
		json_writer__int(j, "nr_instances", sl[k].nr_insts);
		json_writer__int(j, "nr_owners", sl[k].nr_owners);
		json_writer__begin_array(j, "owners", /*flat=*/true);
		for (int i = 0; i < sl[k].nr_owners && i < FA_SL_OWNERS; i++)
			json_writer__int(j, NULL, sl[k].owners[i]);
		json_writer__end_array(j);
		json_writer__begin_array(j, "instances", /*flat=*/false);
		for (int i = 0; i < sl[k].nr_insts && i < FA_SL_INSTS; i++) {
			json_writer__begin_object(j, NULL, /*flat=*/true);
			json_writer__u64(j, "base", sl[k].base[i]);
			json_writer__int(j, "index", sl[k].index[i]);
			json_writer__begin_array(j, "fields", /*flat=*/true);
			for (int f = 0; f < t->st->nr_fields && f < 64; f++) {
				if (sl[k].fields[i] & (1ULL << f))
					json_writer__int(j, NULL, f);
			}
			json_writer__end_array(j);
			json_writer__end_object(j);
		}
		json_writer__end_array(j);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	return 0;
}

/* Sets of the model: [count, unit...], a move set's unit before those written */
static void fa_json__cost_sets(struct json_writer *j, const char *key, const struct fa_cost_model *m,
			       int from, int to)
{
	json_writer__begin_array(j, key, /*flat=*/false);
	for (int s = from; s < to; s++) {
		const struct fa_cost_set *set = &m->sets[s];

		json_writer__begin_array(j, NULL, /*flat=*/true);
		json_writer__double(j, NULL, set->count);
		for (int k = 0; k < set->nr + set->nr_w; k++)
			json_writer__int(j, NULL, m->units[set->first + k]);
		json_writer__end_array(j);
	}
	json_writer__end_array(j);
}

/*
 * The groups of the bootstrap (boot.h): the windows (visits) of each, and
 * for every set, window sets then move sets, [group, count...] of the
 * groups it was seen in
 */
static void fa_json__cost_groups(struct json_writer *j, const struct fa_cost_model *m)
{
	if (!fa_cost_model__has_groups(m))
		return;
	json_writer__begin_array(j, "windows_by_group", /*flat=*/true);
	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		json_writer__double(j, NULL, m->nr_by_group.g[g]);
	json_writer__end_array(j);
	json_writer__begin_array(j, "set_groups", /*flat=*/false);
	for (int s = 0; s < m->nr_sets; s++) {
		json_writer__begin_array(j, NULL, /*flat=*/true);
		for (int g = 0; g < FA_BOOT_GROUPS; g++) {
			if (!m->sets[s].group[g])
				continue;
			json_writer__int(j, NULL, g);
			json_writer__double(j, NULL, m->sets[s].group[g]);
		}
		json_writer__end_array(j);
	}
	json_writer__end_array(j);
}

/*
 * The cost model the analysis costs layouts with (cost.h), compiled: what
 * perf affinity check needs to cost another layout of the type from the
 * saved report
 */
static void fa_json__cost_model(struct json_writer *j, const struct fa_type *t,
				const struct fa_cost_model *m)
{
	json_writer__begin_object(j, "cost_model", /*flat=*/false);
	json_writer__u64(j, "windows", m->nr_windows);
	json_writer__double(j, "xfer_cost", m->xfer_cost);
	json_writer__begin_array(j, "moving", /*flat=*/true);
	for (int u = 0; u < t->st->nr_units; u++) {
		if (m->moving[u])
			json_writer__int(j, NULL, u);
	}
	json_writer__end_array(j);
	fa_json__cost_sets(j, "window_sets", m, 0, m->nr_window_sets);
	fa_json__cost_sets(j, "move_sets", m, m->nr_window_sets, m->nr_sets);
	fa_json__cost_groups(j, m);
	json_writer__end_object(j);
}

static int fa_json__type(struct json_writer *j, const struct fa_type_entry *te,
			 const struct fa_analysis *an, const struct fa_report_opts *o)
{
	const struct fa_type *t = te->t;
	struct fa_mem_price price;
	int err;

	json_writer__begin_object(j, NULL, /*flat=*/false);
	json_writer__string(j, "name", te->name);
	json_writer__u64(j, "size", te->size);
	json_writer__u64(j, "accesses", t->counts.nr_accesses);
	json_writer__u64(j, "stores", fa_type__stores(t));
	json_writer__u64(j, "hitm", t->counts.hitm);
	json_writer__double(j, "weight", t->counts.weight);
	json_writer__u64(j, "instances", t->xfer.nr_instances);
	json_writer__u64(j, "misaligned_instances", t->xfer.misaligned);
	json_writer__bool(j, "shared", fa_type__shared(t));
	json_writer__string(j, "owners", t->cfg.owners ? "threads" : "cpus");
	json_writer__string(j, "method", fa_method__name(an->seen.method));
	json_writer__string(j, "method_reason", fa_method_why__name(an->seen.why));
	json_writer__u64(j, "median_gap_ns", an->seen.gap_ns);
	json_writer__begin_array(j, "fields", /*flat=*/false);
	for (int f = 0; f < t->st->nr_fields; f++)
		fa_json__field(j, t, an, f, o);
	json_writer__end_array(j);
	err = fa_json__coaccess(j, an) ?: fa_json__false_sharing(j, t, an) ?:
	      fa_json__shared_lines(j, t, an);
	if (err)
		return err;
	fa_json__clusters(j, t->st, an);
	json_writer__bool(j, "changed", an->advice.changed);
	json_writer__bool(j, "kept_current", an->advice.kept);
	json_writer__bool(j, "aligned_instances", an->advice.spread);
	if (an->advice.spread)
		json_writer__string(j, "align_by", fa_align_by__key(fa_type_entry__align_by(te, an)));
	else
		json_writer__null(j, "align_by");
	json_writer__bool(j, "per_visit", an->cost.per_visit);
	json_writer__double(j, "visit_lines_current", an->cost.now.visit_lines);
	json_writer__double(j, "visit_lines_suggested", an->cost.advised.visit_lines);
	fa_json__layout(j, "current", &an->seen.current, t->st);
	fa_json__layout(j, "suggested", &an->advice.suggested, t->st);
	/* what check holds a layout against when the evidence was insufficient */
	if (an->candidate.insufficient)
		fa_json__layout(j, "candidate", &an->candidate.layout, t->st);
	else
		json_writer__null(j, "candidate");
	fa_json__costs(j, an);
	fa_json__advice(j, an, t->st);
	fa_mem_price__init(&price, te, &an->seen.current, &an->advice.suggested);
	fa_json__memory(j, &price);
	if (an->nr_tries)
		fa_json__tries(j, te, an);
	fa_json__cost_model(j, t, &an->cost.model);
	json_writer__end_object(j);
	return 0;
}

static void fa_json__array(struct json_writer *j, const struct fa_array *arr)
{
	json_writer__begin_object(j, NULL, /*flat=*/false);
	json_writer__string(j, "name", arr->name);
	json_writer__string(j, "elem_type", arr->elem_type);
	json_writer__u64(j, "elem_size", arr->elem_size);
	json_writer__u64(j, "nr_elems", arr->nr_elems);
	json_writer__bool(j, "tls", arr->tls);
	json_writer__u64(j, "accesses", arr->accesses);
	json_writer__u64(j, "loads", arr->loads);
	json_writer__u64(j, "stores", arr->stores);
	json_writer__u64(j, "elems_per_count", arr->per_count);
	json_writer__begin_array(j, "counts", /*flat=*/true);
	for (u32 c = 0; c < arr->nr_counts; c++)
		json_writer__u64(j, NULL, arr->counts[c]);
	json_writer__end_array(j);
	json_writer__begin_array(j, "functions", /*flat=*/false);
	for (int i = 0; i < arr->nr_funcs; i++) {
		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__string(j, "name", arr->funcs[i].sym);
		json_writer__u64(j, "samples", arr->funcs[i].weight);
		json_writer__u64(j, "accesses", arr->funcs[i].accesses);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	json_writer__end_object(j);
}

static void fa_json__merge(struct json_writer *j, const struct fa_merge *m)
{
	char name[256];

	fa_merge__name(m, name, sizeof(name));
	json_writer__begin_object(j, NULL, /*flat=*/false);
	json_writer__begin_array(j, "arrays", /*flat=*/true);
	json_writer__string(j, NULL, m->arr[0]->name);
	json_writer__string(j, NULL, m->arr[1]->name);
	json_writer__end_array(j);
	json_writer__string(j, "name", name);
	json_writer__u64(j, "size", m->size);
	json_writer__begin_array(j, "functions", /*flat=*/true);
	for (int i = 0; i < m->nr_funcs; i++)
		json_writer__string(j, NULL, m->funcs[i]);
	json_writer__end_array(j);
	json_writer__u64(j, "samples_both", m->both);
	json_writer__u64(j, "samples_one", m->one[0] + m->one[1]);
	json_writer__begin_array(j, "lines_per_visit", /*flat=*/true);
	json_writer__double(j, NULL, m->lines_now);
	json_writer__double(j, NULL, m->lines_merged);
	json_writer__end_array(j);
	json_writer__double(j, "gain", 100 * (1 - m->cost_merged / m->cost_now));
	json_writer__end_object(j);
}

/* The arrays of scalars and the merges advised (merge.h) */
static int fa_json__arrays(struct json_writer *j, const struct fa_attr *a)
{
	struct fa_merge *merges;
	int nr = fa_merges__find(&a->s->arrays, a->s->cfg->line_size, &merges);

	if (nr < 0)
		return nr;
	json_writer__begin_array(j, "arrays", /*flat=*/false);
	for (int i = 0; i < a->s->arrays.nr; i++)
		fa_json__array(j, a->s->arrays.arrays[i]);
	json_writer__end_array(j);
	json_writer__begin_array(j, "merges", /*flat=*/false);
	for (int i = 0; i < nr; i++)
		fa_json__merge(j, &merges[i]);
	json_writer__end_array(j);
	free(merges);
	return 0;
}

/* "@key": the function, "@key_offset": the offset in it */
static void fa_json__dl_code(struct json_writer *j, const char *key, const struct fa_dl_code *code)
{
	char off[64];

	if (!code->sym)
		return;
	scnprintf(off, sizeof(off), "%s_offset", key);
	json_writer__string(j, key, code->sym);
	json_writer__u64(j, off, code->sym_off);
}

static void fa_json__dl_owner(struct json_writer *j, const struct fa_dl_owner *o, u32 line_size)
{
	char what[256];
	u32 lo, hi;

	fa_dl_owner__bytes(o, line_size, &lo, &hi);
	fa_dl_owner__what_scnprintf(o, what, sizeof(what));
	json_writer__begin_object(j, NULL, /*flat=*/true);
	json_writer__u64(j, "id", o->id);
	json_writer__u64(j, "loads", o->loads);
	json_writer__u64(j, "stores", o->stores);
	json_writer__begin_array(j, "bytes", /*flat=*/true);
	json_writer__u64(j, NULL, lo);
	json_writer__u64(j, NULL, hi);
	json_writer__end_array(j);
	json_writer__string(j, "what", what);
	if (o->what.type)
		json_writer__string(j, "type", o->what.type);
	if (o->what.field)
		json_writer__string(j, "field", o->what.field);
	fa_json__dl_code(j, "function", &o->code);
	fa_json__dl_code(j, "store_function", &o->wcode);
	fa_json__dl_code(j, "load_function", &o->rcode);
	json_writer__end_object(j);
}

/* The smaller edit: one owner's bytes alone on a line (fa_dline__alone()), or null */
static void fa_json__dl_alone(struct json_writer *j, const struct fa_dline *l)
{
	int k = fa_dline__alone(l);

	if (k < 0) {
		json_writer__null(j, "alone");
		return;
	}
	json_writer__begin_object(j, "alone", /*flat=*/true);
	json_writer__u64(j, "owner", l->owners[k].id);
	json_writer__u64(j, "transfers", l->xfers_alone[k]);
	json_writer__end_object(j);
}

static void fa_json__dline(struct json_writer *j, const struct fa_attr *a, const struct fa_dline *l,
			   u32 line_size)
{
	enum fa_dl_advice adv = fa_dline__advice(l, line_size);
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS), nr;
	struct fa_interval ci;
	char watch[256];
	bool sure;

	json_writer__begin_object(j, NULL, /*flat=*/false);
	/* where first: the address moves with the map (ASLR), the offsets do not */
	if (l->where.map) {
		json_writer__string(j, "map", l->where.map);
		json_writer__u64(j, "map_offset", l->where.map_off);
	}
	if (l->where.var) {
		json_writer__string(j, "variable", l->where.var);
		json_writer__u64(j, "variable_offset", l->where.var_off);
	}
	if (l->where.ptr)
		json_writer__string(j, "pointer", l->where.ptr);
	json_writer__u64(j, "addr", l->addr);
	json_writer__u64(j, "pid", fa_space__pid(l->space));
	if (l->several)
		json_writer__int(j, "recording", fa_space__rec(l->space) + 1);
	json_writer__u64(j, "loads", l->loads);
	json_writer__u64(j, "stores", l->stores);
	json_writer__u64(j, "transfers", l->xfers);
	json_writer__u64(j, "transfers_apart", l->xfers_apart);
	json_writer__bool(j, "exact", l->exact);
	if (l->array >= 0)
		json_writer__int(j, "array", l->array);
	else
		json_writer__null(j, "array");
	json_writer__bool(j, "false_sharing", fa_dline__false_sharing(l));
	json_writer__string(j, "sharing", fa_dl_sharing__key(fa_dline__sharing(l)));
	json_writer__u64(j, "nr_owners", l->nr_owners);
	json_writer__string(j, "owner_kind", fa_space__kernel(l->space) ? "cpu" : "thread");
	json_writer__begin_array(j, "owners", /*flat=*/false);
	for (int i = 0; i < n; i++)
		fa_json__dl_owner(j, &l->owners[i], line_size);
	json_writer__end_array(j);
	json_writer__string(j, "advice", fa_dl_advice__key(adv));
	if (adv == FA_DL_ADV_STRIDE) {
		json_writer__u64(j, "stride", fa_dline__stride(l, line_size));
		json_writer__u64(j, "step", fa_dl_slot__step(fa_dline__stride(l, line_size), line_size));
	} else if (adv == FA_DL_ADV_ELEMENTS) {
		json_writer__u64(j, "step", fa_dl_slot__step(l->owners[0].what.size, line_size));
	}
	sure = fa_dline__saving(l, &ci, &nr);
	fa_json__dl_alone(j, l);
	json_writer__double(j, "saving", 100 * ci.est);
	fa_json__interval(j, "saving_interval", &ci, 100);
	json_writer__int(j, "transfer_groups", nr);
	json_writer__bool(j, "sure", sure);
	if (!fa_dlines__find(&a->s->watched, l->addr, l->space) &&
	    fa_dline__watch_scnprintf(l, line_size, watch, sizeof(watch)))
		json_writer__string(j, "watch", watch);
	else
		json_writer__null(j, "watch");
	json_writer__end_object(j);
}

/* The data lines threads share, typed or not (dlines.h) */
/* An array whose lines threads share, one finding (fa_dlines__groups()) */
static void fa_json__dl_group(struct json_writer *j, const struct fa_dl_group *g)
{
	const struct fa_dline *l0 = g->lines[0];
	struct fa_interval ci;
	int nr;
	bool sure = fa_dl_group__saving(g, &ci, &nr);

	json_writer__begin_object(j, NULL, /*flat=*/false);
	if (l0->where.map)
		json_writer__string(j, "map", l0->where.map);
	if (l0->where.ptr)
		json_writer__string(j, "pointer", l0->where.ptr);
	json_writer__u64(j, "pid", fa_space__pid(l0->space));
	if (l0->several)
		json_writer__int(j, "recording", fa_space__rec(l0->space) + 1);
	json_writer__string(j, "type", g->what->type);
	json_writer__u64(j, "element_size", g->what->size);
	json_writer__int(j, "lines", g->nr);
	/* from the base the index registers add to: not below it */
	json_writer__u64(j, "index_lo", max_t(s64, g->index_lo, 0));
	json_writer__u64(j, "index_hi", max_t(s64, g->index_hi, 0));
	json_writer__u64(j, "loads", g->loads);
	json_writer__u64(j, "stores", g->stores);
	json_writer__u64(j, "transfers", g->xfers);
	json_writer__u64(j, "transfers_apart", g->xfers_apart);
	json_writer__u64(j, "interleaved", g->stride);
	json_writer__begin_array(j, "owners", /*flat=*/true);
	for (u32 k = 0; k < g->nr_ids; k++) {
		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__u64(j, "id", g->ids[k]);
		if (g->stride)
			json_writer__u64(j, "residue", g->residue[k]);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	json_writer__string(j, "advice", g->stride ? "blocks" : "elements");
	json_writer__double(j, "saving", 100 * ci.est);
	fa_json__interval(j, "saving_interval", &ci, 100);
	json_writer__int(j, "transfer_groups", nr);
	json_writer__bool(j, "sure", sure);
	json_writer__end_object(j);
}

static int fa_json__data_lines(struct json_writer *j, const struct fa_attr *a)
{
	struct fa_dl_group *groups = NULL;
	struct fa_dline **lines;
	int nr = fa_dlines__contended_all(&a->s->dlines, &a->s->watched, &lines), nr_groups;

	if (nr < 0)
		return nr;
	/* the lines of one array together, as the stdio report tells them */
	nr_groups = fa_dlines__groups(lines, nr, &groups);
	json_writer__begin_array(j, "data_lines", /*flat=*/false);
	for (int i = 0; i < nr; i++)
		fa_json__dline(j, a, lines[i], a->s->cfg->line_size);
	json_writer__end_array(j);
	json_writer__begin_array(j, "data_arrays", /*flat=*/false);
	for (int k = 0; k < nr_groups; k++) {
		if (groups[k].nr > 1)
			fa_json__dl_group(j, &groups[k]);
	}
	json_writer__end_array(j);
	fa_dl_groups__free(groups, max(nr_groups, 0));
	free(lines);
	return nr_groups < 0 ? nr_groups : 0;
}

/**
 * fa_json__fprintf - Print the analysis of every struct type as JSON
 * @h: The recording and the statistics of decoding
 * @a: The attributed accesses and their types
 * @fh: The struct table: the types in its order, with their analyses
 * @o: What the stdio report shows
 *
 * Return: the number of bytes printed; 0 if memory ran out, with an
 * incomplete document printed.
 */
size_t fa_json__fprintf(FILE *fp, const struct fa_json_header *h, struct fa_attr *a,
			struct fa_hists *fh, const struct fa_report_opts *o)
{
	struct fa_hist_entry *fe;
	struct json_writer j;
	int err = 0;

	json_writer__init(&j, fp);
	json_writer__begin_object(&j, NULL, /*flat=*/false);
	json_writer__int(&j, "schema_version", FA_JSON_SCHEMA_VERSION);
	fa_json__header(&j, h, a, o);
	json_writer__begin_array(&j, "types", /*flat=*/false);
	fa_hists__for_each_entry(fh, fe) {
		err = fa_json__type(&j, fe->te, fe->an, o);
		if (err)
			break;
	}
	if (err)
		return 0;
	json_writer__end_array(&j);
	if (fa_json__arrays(&j, a) || fa_json__data_lines(&j, a))
		return 0;
	json_writer__end_object(&j);
	return j.printed;
}
