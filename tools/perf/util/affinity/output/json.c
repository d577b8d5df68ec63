// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report --json (see json.h): a small JSON writer, then the
 * report: header, statistics, and per struct type its fields, co-access,
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

void fa_json__init(struct fa_json *j, FILE *fp)
{
	memset(j, 0, sizeof(*j));
	j->fp = fp;
}

/* The length of the valid UTF-8 sequence at @s, or 0 */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	u32 cp = s[0] & (0x7f >> n);

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	for (int i = 1; i < n; i++) {
		/* also stops at the terminating NUL */
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/**
 * fa_json__fprintf_str - Print @str as a JSON string
 *
 * Bytes that are not UTF-8 become U+FFFD: names come from debug info and
 * host names, and one bad byte must not make the whole document invalid.
 */
size_t fa_json__fprintf_str(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t printed = fprintf(fp, "\"");

	while (*s) {
		int n;

		if (*s == '"' || *s == '\\') {
			printed += fprintf(fp, "\\%c", *s++);
		} else if (*s < 0x20) {
			const char *esc = *s == '\n' ? "\\n" : *s == '\t' ? "\\t" :
					  *s == '\r' ? "\\r" : *s == '\b' ? "\\b" :
					  *s == '\f' ? "\\f" : NULL;

			printed += esc ? fprintf(fp, "%s", esc) : fprintf(fp, "\\u%04x", *s);
			s++;
		} else if (*s < 0x80) {
			printed += fprintf(fp, "%c", *s++);
		} else if (utf8_len(s)) {
			n = utf8_len(s);
			printed += fwrite(s, 1, n, fp);
			s += n;
		} else {
			printed += fprintf(fp, "\\ufffd");
			s++;
		}
	}
	return printed + fprintf(fp, "\"");
}

/* Before a value: the comma, a new line and indent or a space, the key */
static void fa_json__member(struct fa_json *j, const char *key)
{
	int d = j->depth - 1;

	if (d < 0)
		return;
	if (j->nr[d]++)
		j->printed += fprintf(j->fp, ",%s", j->flat[d] ? " " : "");
	if (!j->flat[d])
		j->printed += fprintf(j->fp, "\n%*s", 2 * j->depth, "");
	if (key) {
		j->printed += fa_json__fprintf_str(j->fp, key);
		j->printed += fprintf(j->fp, ": ");
	}
}

static void fa_json__open(struct fa_json *j, const char *key, bool flat, char c)
{
	fa_json__member(j, key);
	j->printed += fprintf(j->fp, "%c", c);
	/* the report nests a fixed, small depth */
	if (j->depth >= FA_JSON_MAX_DEPTH)
		return;
	/* what is inside a one line container is on that line too */
	j->flat[j->depth] = flat || (j->depth && j->flat[j->depth - 1]);
	j->nr[j->depth++] = 0;
}

static void fa_json__close(struct fa_json *j, char c)
{
	int d = --j->depth;

	if (!j->flat[d] && j->nr[d])
		j->printed += fprintf(j->fp, "\n%*s", 2 * d, "");
	j->printed += fprintf(j->fp, "%c%s", c, d ? "" : "\n");
}

void fa_json__begin_object(struct fa_json *j, const char *key, bool flat)
{
	fa_json__open(j, key, flat, '{');
}

void fa_json__end_object(struct fa_json *j)
{
	fa_json__close(j, '}');
}

void fa_json__begin_array(struct fa_json *j, const char *key, bool flat)
{
	fa_json__open(j, key, flat, '[');
}

void fa_json__end_array(struct fa_json *j)
{
	fa_json__close(j, ']');
}

void fa_json__string(struct fa_json *j, const char *key, const char *str)
{
	if (!str) {
		fa_json__null(j, key);
		return;
	}
	fa_json__member(j, key);
	j->printed += fa_json__fprintf_str(j->fp, str);
}

void fa_json__u64(struct fa_json *j, const char *key, u64 val)
{
	fa_json__member(j, key);
	j->printed += fprintf(j->fp, "%" PRIu64, val);
}

void fa_json__int(struct fa_json *j, const char *key, int val)
{
	fa_json__member(j, key);
	j->printed += fprintf(j->fp, "%d", val);
}

/* JSON has no NaN nor infinity: those are null */
void fa_json__double(struct fa_json *j, const char *key, double val)
{
	fa_json__member(j, key);
	if (isfinite(val))
		j->printed += fprintf(j->fp, "%.10g", val);
	else
		j->printed += fprintf(j->fp, "null");
}

void fa_json__bool(struct fa_json *j, const char *key, bool val)
{
	fa_json__member(j, key);
	j->printed += fprintf(j->fp, "%s", val ? "true" : "false");
}

void fa_json__null(struct fa_json *j, const char *key)
{
	fa_json__member(j, key);
	j->printed += fprintf(j->fp, "null");
}

/*
 * The report.  Keys of the statistics are stable identifiers, not the
 * text --stats prints, so that they can be relied on.
 */
static void fa_json__per_source(struct fa_json *j, const char *key, const u64 *count)
{
	fa_json__begin_object(j, key, /*flat=*/true);
	for (int s = 0; s < FA_SRC_MAX; s++)
		fa_json__u64(j, fa_source__name(s), count[s]);
	fa_json__end_object(j);
}

static void fa_json__decode_stats(struct fa_json *j, const struct fa_decode_stats *st)
{
	fa_json__per_source(j, "samples", st->samples);
	fa_json__begin_object(j, "decode", /*flat=*/false);
	fa_json__per_source(j, "accesses", st->accesses);
	fa_json__begin_object(j, "dropped", /*flat=*/false);
	for (int i = 0; i < FA_DROP_MAX; i++)
		fa_json__u64(j, fa_drop__key(i), st->dropped[i]);
	fa_json__end_object(j);
	fa_json__u64(j, "skid", st->skid);
	fa_json__u64(j, "watch", st->watch);
	fa_json__u64(j, "block", st->block);
	fa_json__u64(j, "block_lost", st->block_lost);
	fa_json__begin_object(j, "walk_stop", /*flat=*/false);
	for (int i = 0; i < FA_WALK_MAX; i++)
		fa_json__u64(j, fa_walk_stop__key(i), st->walk_stop[i]);
	fa_json__end_object(j);
	fa_json__u64(j, "seg", st->seg);
	fa_json__u64(j, "string", st->string);
	fa_json__u64(j, "unknown_op", st->unknown_op);
	fa_json__u64(j, "kernel", st->kernel);
	fa_json__u64(j, "allocs", st->allocs);
	fa_json__u64(j, "frees", st->frees);
	fa_json__u64(j, "other_events", st->other);
	fa_json__end_object(j);
}

static void fa_json__attr_stats(struct fa_json *j, const struct fa_attr_stats *st)
{
	fa_json__begin_object(j, "attribution", /*flat=*/false);
	fa_json__u64(j, "accesses", st->accesses);
	fa_json__u64(j, "resolved", st->resolved);
	fa_json__u64(j, "by_address", st->by_address);
	fa_json__u64(j, "watched", st->watched);
	fa_json__u64(j, "by_instance", st->by_instance);
	fa_json__u64(j, "by_later", st->by_later);
	fa_json__u64(j, "system", st->system);
	fa_json__u64(j, "system_types", st->system_types);
	fa_json__u64(j, "by_enclosing", st->by_enclosing);
	fa_json__u64(j, "by_tls", st->by_tls);
	fa_json__u64(j, "tls_accesses", st->tls);
	fa_json__u64(j, "tls_found", st->tls_found);
	fa_json__u64(j, "tls_array", st->tls_array);
	fa_json__u64(j, "tls_ptr", st->tls_ptr);
	fa_json__u64(j, "by_array", st->by_array);
	fa_json__u64(j, "agree", st->agree);
	fa_json__u64(j, "disagree", st->disagree);
	fa_json__begin_object(j, "failed", /*flat=*/false);
	for (int i = 0; i < FA_ATTR_MAX; i++)
		fa_json__u64(j, fa_attr_fail__key(i), st->failed[i]);
	fa_json__end_object(j);
	fa_json__end_object(j);
}

static void fa_json__header(struct fa_json *j, const struct fa_json_header *h,
			    const struct fa_attr *a, const struct fa_report_opts *o)
{
	fa_json__begin_object(j, "header", /*flat=*/false);
	fa_json__string(j, "perf_version", h->perf_version);
	fa_json__string(j, "hostname", h->hostname);
	fa_json__string(j, "arch", h->arch);
	fa_json__int(j, "nr_cpus", h->nr_cpus);
	fa_json__begin_object(j, "cacheline", /*flat=*/true);
	fa_json__u64(j, "size", a->cfg.line_size);
	fa_json__string(j, "source", h->line_size_source);
	if (h->recorded_line_size)
		fa_json__u64(j, "recorded", h->recorded_line_size);
	else
		fa_json__null(j, "recorded");
	fa_json__end_object(j);
	fa_json__begin_object(j, "options", /*flat=*/false);
	fa_json__string(j, "method", fa_method__name(h->method));
	fa_json__string(j, "scope", fa_scope__key(a->cfg.scope));
	fa_json__int(j, "window", a->cfg.window);
	fa_json__u64(j, "window_ns", a->cfg.window_ns);
	fa_json__double(j, "xfer_cost", o->xfer_cost);
	fa_json__double(j, "percent_limit", o->percent_limit);
	fa_json__string(j, "types", h->types);
	fa_json__end_object(j);
	fa_json__decode_stats(j, h->decode);
	fa_json__attr_stats(j, &a->stats);
	fa_json__end_object(j);
}

/* A set of owners: thread IDs or CPU numbers (see "owners" of the type) */
static void fa_json__owners(struct fa_json *j, const char *key, const struct fa_type *t,
			    const unsigned long *owners)
{
	fa_json__begin_array(j, key, /*flat=*/true);
	for (int i = 0; owners && i < t->cfg.nr_owners; i++) {
		if (test_bit(i, owners))
			fa_json__int(j, NULL, t->cfg.owners ? t->cfg.owners->tids[i] : (u32)i);
	}
	fa_json__end_array(j);
}

/* What watchpoints saw of a field: null if none watched it */
static void fa_json__watched(struct fa_json *j, const struct fa_exact *ex)
{
	if (!ex) {
		fa_json__null(j, "watched");
		return;
	}
	fa_json__begin_object(j, "watched", /*flat=*/true);
	fa_json__u64(j, "hits", ex->hits);
	fa_json__u64(j, "period", ex->period);
	fa_json__u64(j, "accesses", ex->accesses);
	fa_json__u64(j, "writes", ex->writes);
	fa_json__u64(j, "transfers", ex->transfers);
	fa_json__bool(j, "roles", fa_exact__enough(ex));
	fa_json__end_object(j);
}

/* What the accesses say of a leaf field, as the stdio field table has it */
static void fa_json__field_stats(struct fa_json *j, const struct fa_type *t,
				 const struct fa_analysis *an, int f,
				 const struct fa_report_opts *o)
{
	const struct fa_field_stats *fs = &t->counts.stats[f];
	const struct fa_field_info *fi = &an->classes.fields[f];

	fa_json__u64(j, "loads", fs->loads + fs->other);
	fa_json__u64(j, "stores", fs->stores + fs->rmws);
	fa_json__u64(j, "rmws", fs->rmws);
	fa_json__u64(j, "hitm", fs->hitm);
	fa_json__u64(j, "peer", fs->peer);
	fa_json__double(j, "weight", fs->weight);
	fa_json__double(j, "share", fa_type__field_share(t, f));
	fa_json__owners(j, "readers", t, fi->readers);
	fa_json__owners(j, "writers", t, fi->writers);
	fa_json__string(j, "class", fa_class__name(an->classes.field_cls[f]));
	fa_json__bool(j, "by_code", fi->class_by_code);
	fa_json__double(j, "class_agreement", fi->agree);
	fa_json__watched(j, fs->exact);
	fa_json__bool(j, "reported", fa_hists__field_shown(t, an, f, o->percent_limit));
}

static void fa_json__field(struct fa_json *j, const struct fa_type *t,
			   const struct fa_analysis *an, int f, const struct fa_report_opts *o)
{
	const struct fa_field *fd = &t->st->fields[f];

	fa_json__begin_object(j, NULL, /*flat=*/true);
	fa_json__int(j, "index", f);
	fa_json__string(j, "name", fd->name);
	fa_json__string(j, "type", fd->type);
	fa_json__string(j, "suffix", fd->suffix);
	fa_json__string(j, "kind", fa_field_kind__name(fd->kind));
	fa_json__int(j, "depth", fd->depth);
	if (fd->parent >= 0)
		fa_json__int(j, "parent", fd->parent);
	else
		fa_json__null(j, "parent");
	fa_json__u64(j, "offset", fd->offset);
	fa_json__u64(j, "size", fd->size);
	fa_json__u64(j, "line", fd->offset / t->cfg.line_size);
	if (fd->kind == FA_FIELD_BITFIELD) {
		fa_json__begin_object(j, "bitfield", /*flat=*/true);
		fa_json__u64(j, "bit_offset", fd->bit_offset);
		fa_json__u64(j, "bit_size", fd->bit_size);
		fa_json__int(j, "group", fd->group);
		fa_json__end_object(j);
	} else {
		fa_json__null(j, "bitfield");
	}
	fa_json__bool(j, "leaf", fd->leaf);
	if (fd->leaf)
		fa_json__field_stats(j, t, an, f, o);
	fa_json__end_object(j);
}

static void fa_json__interval(struct fa_json *j, const char *key, const struct fa_interval *ci,
			      double scale)
{
	fa_json__begin_array(j, key, /*flat=*/true);
	fa_json__double(j, NULL, scale * ci->lo);
	fa_json__double(j, NULL, scale * ci->hi);
	fa_json__end_array(j);
}

/* Symmetric co-access of @an's method: cells (i < j), heaviest first */
static int fa_json__coaccess(struct fa_json *j, const struct fa_analysis *an)
{
	struct fa_cell *cells;
	int n = fa_matrix__cells(an->affinity, &cells);

	if (n < 0)
		return n;
	fa_json__begin_object(j, "coaccess", /*flat=*/false);
	fa_json__string(j, "method", fa_method__name(an->method));
	fa_json__double(j, "total", an->affinity->total);
	fa_json__begin_array(j, "cells", /*flat=*/false);
	for (int k = 0; k < n; k++) {
		fa_json__begin_array(j, NULL, /*flat=*/true);
		fa_json__int(j, NULL, min(cells[k].i, cells[k].j));
		fa_json__int(j, NULL, max(cells[k].i, cells[k].j));
		fa_json__double(j, NULL, cells[k].w);
		fa_json__end_array(j);
	}
	fa_json__end_array(j);
	fa_json__begin_array(j, "top", /*flat=*/false);
	for (int k = 0; k < an->nr_top; k++) {
		const struct fa_top_pair *p = &an->top[k];

		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__int(j, "a", p->a);
		fa_json__int(j, "b", p->b);
		fa_json__double(j, "share", p->share);
		if (p->have_together) {
			fa_json__double(j, "together", 100 * p->together.est);
			fa_json__interval(j, "together_interval", &p->together, 100);
		} else {
			fa_json__null(j, "together");
			fa_json__null(j, "together_interval");
		}
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
	fa_json__end_object(j);
	free(cells);
	return 0;
}

/* The pairs of different fields the watchpoints saw the most transfers between */
static void fa_json__watched_pairs(struct fa_json *j, const struct fa_type *t)
{
	struct fa_exact_pair pairs[FA_EXACT_TOP_PAIRS];
	int n = fa_exact_lines__top(t->counts.exact_lines, t->st->nr_fields, pairs,
				    ARRAY_SIZE(pairs));

	fa_json__begin_array(j, "pairs", /*flat=*/true);
	for (int k = 0; k < n; k++) {
		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__int(j, "from", pairs[k].from);
		fa_json__int(j, "to", pairs[k].to);
		fa_json__u64(j, "transfers", pairs[k].transfers);
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
}

/* The watched hits replayed with the advice or the leading candidate, or null */
static void fa_json__watched_replay(struct fa_json *j, const struct fa_analysis *an)
{
	if (!fa_analysis__watched_replayed(an)) {
		fa_json__null(j, "replayed");
		return;
	}
	fa_json__begin_object(j, "replayed", /*flat=*/true);
	fa_json__string(j, "layout", an->insufficient ? "candidate" : "advice");
	fa_json__u64(j, "transfers", an->watched.then.transfers);
	fa_json__u64(j, "false_sharing", an->watched.then.false_sharing);
	fa_json__end_object(j);
}

/* Of the pairs --stdio shows, FA_FS_SHOWN% of the transfers or more; else null */
static void fa_json__fs_share_interval(struct fa_json *j, const struct fa_fs_pair *p)
{
	if (p->share < FA_FS_SHOWN) {
		fa_json__null(j, "share_interval");
		return;
	}
	fa_json__begin_array(j, "share_interval", /*flat=*/true);
	fa_json__double(j, NULL, p->share_ci.lo);
	fa_json__double(j, NULL, p->share_ci.hi);
	fa_json__end_array(j);
}

static int fa_json__false_sharing(struct fa_json *j, const struct fa_type *t,
				  const struct fa_analysis *an)
{
	const struct fa_struct *st = t->st;

	fa_json__begin_array(j, "false_sharing", /*flat=*/false);
	for (int k = 0; k < an->nr_fs_pairs; k++) {
		const struct fa_fs_pair *p = &an->fs_pairs[k];
		int w = p->writer, r = p->reader;
		u64 xfers;

		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__int(j, "writer", w);
		fa_json__int(j, "reader", r);
		fa_json__double(j, "weight", p->weight);
		fa_json__double(j, "share", p->share);
		fa_json__fs_share_interval(j, p);
		fa_json__owners(j, "writer_owners", t, fa_report__roles(t, an, w, true));
		fa_json__owners(j, "reader_owners", t, fa_report__roles(t, an, r, false));
		if (fa_exact_lines__pair(t->counts.exact_lines, w, r, &xfers))
			fa_json__u64(j, "watched_transfers", xfers);
		else
			fa_json__null(j, "watched_transfers");
		fa_json__bool(j, "separated", fa_layout__line(&an->suggested, st, w) !=
			      fa_layout__line(&an->suggested, st, r));
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
	if (!t->counts.exact_lines) {
		fa_json__null(j, "watched_lines");
		return 0;
	}
	fa_json__begin_object(j, "watched_lines", /*flat=*/true);
	fa_json__u64(j, "transfers", t->counts.exact_lines->transfers);
	fa_json__u64(j, "false_sharing", t->counts.exact_lines->false_sharing);
	fa_json__u64(j, "hits_kept", t->counts.exact_lines->nr_hits);
	fa_json__u64(j, "hits_left", t->counts.exact_lines->hits_left);
	fa_json__watched_replay(j, an);
	fa_json__watched_pairs(j, t);
	fa_json__end_object(j);
	return 0;
}

static void fa_json__clusters(struct fa_json *j, const struct fa_struct *st,
			      const struct fa_analysis *an)
{
	double total = 0;

	for (int u = 0; u < an->classes.nr_units; u++)
		total += an->classes.units[u].weight;
	fa_json__begin_array(j, "clusters", /*flat=*/false);
	for (int k = 0; k < an->clusters.nr; k++) {
		const struct fa_cluster *c = &an->clusters.clusters[k];

		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__begin_array(j, "fields", /*flat=*/true);
		for (int i = 0; i < c->nr; i++) {
			const struct fa_unit *unit = &st->units[c->units[i]];

			for (int f = unit->field; f < unit->field + unit->nr_fields; f++)
				fa_json__int(j, NULL, f);
		}
		fa_json__end_array(j);
		fa_json__u64(j, "size", c->size);
		fa_json__double(j, "weight", c->weight);
		fa_json__double(j, "share", total ? 100 * c->weight / total : 0);
		fa_json__double(j, "affinity", c->affinity);
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
}

static void fa_json__hole(struct fa_json *j, u32 offset, const char *key, u32 size)
{
	fa_json__begin_object(j, NULL, /*flat=*/true);
	fa_json__u64(j, "offset", offset);
	fa_json__u64(j, key, size);
	fa_json__end_object(j);
}

/*
 * The holes of @l as pahole counts them: bytes between members, and the
 * unused bits of bitfield storage units (at the offset of the unit)
 */
static void fa_json__holes(struct fa_json *j, const struct fa_layout *l,
			   const struct fa_struct *st)
{
	struct fa_layout_walk w;
	int unit = -1;
	u32 bits;

	fa_json__begin_array(j, "holes", /*flat=*/false);
	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		if (w.hole)
			fa_json__hole(j, w.offset - w.hole, "size", w.hole);
	}
	fa_json__end_array(j);
	fa_json__begin_array(j, "bit_holes", /*flat=*/false);
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
	fa_json__end_array(j);
	fa_json__u64(j, "padding", l->size > w.end ? l->size - w.end : 0);
}

static void fa_json__layout(struct fa_json *j, const char *key, const struct fa_layout *l,
			    const struct fa_struct *st)
{
	struct fa_layout_walk w;

	fa_json__begin_object(j, key, /*flat=*/false);
	fa_json__u64(j, "size", l->size);
	fa_json__u64(j, "align", l->align);
	fa_json__u64(j, "cachelines", DIV_ROUND_UP(l->size, l->line_size));
	fa_json__begin_array(j, "members", /*flat=*/false);
	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__int(j, "field", w.field);
		fa_json__u64(j, "offset", w.offset);
		fa_json__u64(j, "size", st->fields[w.field].size);
		fa_json__u64(j, "line", w.offset / l->line_size);
		fa_json__bool(j, "line_start", w.first && l->line_start[w.unit]);
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
	fa_json__holes(j, l, st);
	fa_json__end_object(j);
}

/* A cost of cost.h as an object of its members */
void fa_json__cost(struct fa_json *j, const char *key, const struct fa_cost *c)
{
	fa_json__begin_object(j, key, /*flat=*/true);
	fa_json__double(j, "lines_per_window", c->lines_per_window);
	fa_json__double(j, "xfers_per_window", c->xfers_per_window);
	fa_json__double(j, "xfers_per_kacc", c->xfers_per_kacc);
	fa_json__double(j, "total", c->total);
	fa_json__u64(j, "windows", c->windows);
	fa_json__u64(j, "accesses", c->accesses);
	fa_json__end_object(j);
}

/* [lo, hi] of an interval (boot.h), times @scale */
static void fa_json__costs(struct fa_json *j, const struct fa_analysis *an)
{
	double gain = fa_analysis__gain(an);
	struct fa_interval none = { .est = gain, .lo = gain, .hi = gain, };

	fa_json__begin_object(j, "cost", /*flat=*/false);
	fa_json__begin_object(j, "model", /*flat=*/false);
	fa_json__cost(j, "current", &an->now.model);
	fa_json__cost(j, "suggested", &an->advised.model);
	fa_json__end_object(j);
	fa_json__begin_object(j, "replay", /*flat=*/false);
	fa_json__cost(j, "current", &an->now.replay);
	fa_json__cost(j, "suggested", &an->advised.replay);
	fa_json__end_object(j);
	fa_json__double(j, "gain", 100 * fa_analysis__gain(an));
	fa_json__double(j, "level", 100 * FA_BOOT_LEVEL);
	fa_json__interval(j, "gain_interval", an->changed && !an->spread ? &an->gain_ci : &none, 100);
	fa_json__interval(j, "replay_gain_interval", &an->replay_gain_ci, 100);
	fa_json__interval(j, "current_interval", &an->now.cost_ci, 1);
	fa_json__interval(j, "suggested_interval", &an->advised.cost_ci, 1);
	fa_json__end_object(j);
}

static const char * const fa_advice_names[] = {
	[FA_ADVICE_NONE] = "none", [FA_ADVICE_EDIT] = "edit", [FA_ADVICE_REORDER] = "reorder",
	[FA_ADVICE_SPLIT] = "split",
};

static const char * const fa_edit_names[] = {
	[FA_EDIT_MOVE] = "move", [FA_EDIT_SWAP] = "swap", [FA_EDIT_LINE] = "line",
	[FA_EDIT_ISOLATE] = "isolate",
};

static void fa_json__edits(struct fa_json *j, const struct fa_analysis *an,
			   const struct fa_struct *st, bool edit)
{
	char buf[256];

	fa_json__begin_array(j, "edits", /*flat=*/false);
	for (int i = 0; edit && i < an->edits.nr; i++) {
		const struct fa_edit *e = &an->edits.edit[i];

		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__string(j, "op", fa_edit_names[e->op]);
		fa_json__string(j, "member", fa_unit__name(st, e->unit));
		if (e->other >= 0)
			fa_json__string(j, "other", fa_unit__name(st, e->other));
		fa_edit__snprintf(e, st, buf, sizeof(buf));
		fa_json__string(j, "text", buf);
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
}

static void fa_json__kept(struct fa_json *j, const struct fa_analysis *an,
			  const struct fa_struct *st)
{
	fa_json__begin_array(j, "kept", /*flat=*/false);
	for (int u = 0; an->keep.nr_pins && u < st->nr_units; u++) {
		if (!an->keep.pin[u])
			continue;
		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__string(j, "member", fa_unit__name(st, u));
		fa_json__string(j, "why", an->keep.pin[u] == FA_PIN_BASE ? "base" : "keep");
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
	fa_json__begin_array(j, "kept_ranges", /*flat=*/false);
	for (int i = 0; i < an->keep.nr_ranges; i++) {
		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__string(j, "from",
				fa_unit__name(st, an->current.order[an->keep.ranges[i].from]));
		fa_json__string(j, "to",
				fa_unit__name(st, an->current.order[an->keep.ranges[i].to]));
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
}

/* @key: the current layout's, the one advised otherwise's, the split's */
static void fa_json__triple(struct fa_json *j, const char *key, double now, double unsplit,
			    double split)
{
	fa_json__begin_array(j, key, /*flat=*/true);
	fa_json__double(j, NULL, now);
	fa_json__double(j, NULL, unsplit);
	fa_json__double(j, NULL, split);
	fa_json__end_array(j);
}

/* The best hot/cold split, when one was considered (split.h) */
static void fa_json__split(struct fa_json *j, const struct fa_analysis *an,
			   const struct fa_struct *st)
{
	const struct fa_split *sp = &an->split;

	if (!sp->hot)
		return;
	fa_json__begin_object(j, "split", /*flat=*/false);
	fa_json__string(j, "why", fa_split_why__key(sp->why));
	for (int part = 0; part < 2; part++) {
		fa_json__begin_array(j, part ? "cold" : "hot", /*flat=*/true);
		for (int k = 0; k < an->current.nr_units; k++) {
			int u = an->current.order[k];

			if (sp->hot[u] == !part)
				fa_json__string(j, NULL, fa_unit__name(st, u));
		}
		fa_json__end_array(j);
	}
	fa_json__u64(j, "size_hot", sp->hot_size);
	fa_json__u64(j, "size_cold", sp->cold_size);
	fa_json__double(j, "cold_share", sp->cold_share);
	fa_json__triple(j, "lines_per_visit", sp->now.lines, sp->unsplit.lines, sp->split.lines);
	fa_json__triple(j, "bytes_per_visit", sp->now.bytes, sp->unsplit.bytes, sp->split.bytes);
	fa_json__triple(j, "cost", sp->now.cost, sp->unsplit.cost, sp->split.cost);
	fa_json__end_object(j);
}

/* The leading candidate when the evidence for it is insufficient, or null */
static void fa_json__candidate(struct fa_json *j, const struct fa_analysis *an,
			       const struct fa_struct *st)
{
	if (!an->insufficient) {
		fa_json__null(j, "candidate");
		return;
	}
	fa_json__begin_object(j, "candidate", /*flat=*/false);
	fa_json__string(j, "kind", fa_advice_names[an->candidate_advice]);
	fa_json__edits(j, an, st, an->candidate_advice == FA_ADVICE_EDIT);
	fa_json__double(j, "gain", 100 * an->gain_ci.est);
	fa_json__interval(j, "gain_interval", &an->gain_ci, 100);
	fa_json__double(j, "record_more", an->record_more);
	/* the replay of the accesses says it costs more: by how much */
	if (an->contradicted)
		fa_json__double(j, "replay_gain",
				100 * (1 - an->candidate_replay.total / an->now.replay.total));
	else
		fa_json__null(j, "replay_gain");
	/* the watched accesses move its lines more often (fa_analysis::watched) */
	fa_json__bool(j, "watched_worse", an->watched.worse);
	fa_json__end_object(j);
}

/* What stdio's 'Advice' says */
static void fa_json__advice(struct fa_json *j, const struct fa_analysis *an,
			    const struct fa_struct *st)
{
	const struct fa_cost *m = &an->now.model;

	fa_json__begin_object(j, "advice", /*flat=*/false);
	fa_json__string(j, "kind", fa_advice_names[an->advice]);
	fa_json__edits(j, an, st, an->advice == FA_ADVICE_EDIT);
	fa_json__bool(j, "insufficient", an->insufficient);
	fa_json__candidate(j, an, st);
	fa_json__int(j, "members_moved", an->moved);
	fa_json__int(j, "offsets_changed", an->shifted);
	fa_json__bool(j, "unsure", an->unsure);
	fa_json__bool(j, "needs_line_start", an->needs_line_start);
	fa_json__bool(j, "search_cut", an->edits.cut);
	fa_json__int(j, "every_call_lines_current", an->now.every_call_lines);
	fa_json__int(j, "every_call_lines_suggested", an->advised.every_call_lines);
	fa_json__begin_object(j, "reorder", /*flat=*/true);
	fa_json__int(j, "members_moved", an->reorder_moved);
	fa_json__u64(j, "size", an->reorder.size);
	fa_json__double(j, "gain", m->total > 0 ?
			100 * (1 - an->reorder_model.total / m->total) : 0);
	fa_json__interval(j, "gain_interval", &an->reorder_gain_ci, 100);
	fa_json__bool(j, "moves_kept", an->reorder_breaks);
	fa_json__end_object(j);
	fa_json__kept(j, an, st);
	fa_json__split(j, an, st);
	if (an->embed_field && an->current.size) {
		fa_json__begin_object(j, "embedded_in", /*flat=*/true);
		fa_json__string(j, "type", an->embed_type);
		fa_json__string(j, "member", an->embed_field->name);
		fa_json__u64(j, "count", an->embed_field->size / an->current.size);
		fa_json__end_object(j);
	}
	fa_json__end_object(j);
}

/* Lines of several instances, as the stdio report lists them (all of them) */
static int fa_json__shared_lines(struct fa_json *j, const struct fa_type *t,
				 const struct fa_analysis *an)
{
	const struct fa_shared_line *sl = an->shared_lines;
	int n = an->nr_shared_lines;

	fa_json__begin_array(j, "shared_lines", /*flat=*/false);
	for (int k = 0; k < n; k++) {
		fa_json__begin_object(j, NULL, /*flat=*/false);
		fa_json__u64(j, "addr", sl[k].addr);
		fa_json__u64(j, "accesses", sl[k].loads + sl[k].writes);
		fa_json__u64(j, "writes", sl[k].writes);
		fa_json__int(j, "nr_instances", sl[k].nr_insts);
		fa_json__int(j, "nr_owners", sl[k].nr_owners);
		fa_json__begin_array(j, "owners", /*flat=*/true);
		for (int i = 0; i < sl[k].nr_owners && i < FA_SL_OWNERS; i++)
			fa_json__int(j, NULL, sl[k].owners[i]);
		fa_json__end_array(j);
		fa_json__begin_array(j, "instances", /*flat=*/false);
		for (int i = 0; i < sl[k].nr_insts && i < FA_SL_INSTS; i++) {
			fa_json__begin_object(j, NULL, /*flat=*/true);
			fa_json__u64(j, "base", sl[k].base[i]);
			fa_json__int(j, "index", sl[k].index[i]);
			fa_json__begin_array(j, "fields", /*flat=*/true);
			for (int f = 0; f < t->st->nr_fields && f < 64; f++) {
				if (sl[k].fields[i] & (1ULL << f))
					fa_json__int(j, NULL, f);
			}
			fa_json__end_array(j);
			fa_json__end_object(j);
		}
		fa_json__end_array(j);
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
	return 0;
}

/* Sets of the model: [count, unit...], a move set's unit before those written */
static void fa_json__cost_sets(struct fa_json *j, const char *key, const struct fa_cost_model *m,
			       int from, int to)
{
	fa_json__begin_array(j, key, /*flat=*/false);
	for (int s = from; s < to; s++) {
		const struct fa_cost_set *set = &m->sets[s];

		fa_json__begin_array(j, NULL, /*flat=*/true);
		fa_json__u64(j, NULL, set->count);
		for (int k = 0; k < set->nr + set->nr_w; k++)
			fa_json__int(j, NULL, m->units[set->first + k]);
		fa_json__end_array(j);
	}
	fa_json__end_array(j);
}

/*
 * The groups of the bootstrap (boot.h): the windows (visits) of each, and
 * for every set, window sets then move sets, [group, count...] of the
 * groups it was seen in
 */
static void fa_json__cost_groups(struct fa_json *j, const struct fa_cost_model *m)
{
	if (!fa_cost_model__has_groups(m))
		return;
	fa_json__begin_array(j, "windows_by_group", /*flat=*/true);
	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		fa_json__double(j, NULL, m->nr_by_group.g[g]);
	fa_json__end_array(j);
	fa_json__begin_array(j, "set_groups", /*flat=*/false);
	for (int s = 0; s < m->nr_sets; s++) {
		fa_json__begin_array(j, NULL, /*flat=*/true);
		for (int g = 0; g < FA_BOOT_GROUPS; g++) {
			if (!m->sets[s].group[g])
				continue;
			fa_json__int(j, NULL, g);
			fa_json__u64(j, NULL, m->sets[s].group[g]);
		}
		fa_json__end_array(j);
	}
	fa_json__end_array(j);
}

/*
 * The cost model the analysis costs layouts with (cost.h), compiled: what
 * perf affinity check needs to cost another layout of the type from the
 * saved report
 */
static int fa_json__cost_model(struct fa_json *j, const struct fa_type *t,
			       const struct fa_analysis *an)
{
	struct fa_cost_model m;

	if (fa_cost_model__init(&m, t, an->xfer_cost, an->per_visit))
		return -ENOMEM;
	if (fa_cost_model__set_moving(&m, &an->classes)) {
		fa_cost_model__exit(&m);
		return -ENOMEM;
	}
	fa_json__begin_object(j, "cost_model", /*flat=*/false);
	fa_json__u64(j, "windows", m.nr_windows);
	fa_json__double(j, "xfer_cost", m.xfer_cost);
	fa_json__begin_array(j, "moving", /*flat=*/true);
	for (int u = 0; u < t->st->nr_units; u++) {
		if (m.moving[u])
			fa_json__int(j, NULL, u);
	}
	fa_json__end_array(j);
	fa_json__cost_sets(j, "window_sets", &m, 0, m.nr_window_sets);
	fa_json__cost_sets(j, "move_sets", &m, m.nr_window_sets, m.nr_sets);
	fa_json__cost_groups(j, &m);
	fa_json__end_object(j);
	fa_cost_model__exit(&m);
	return 0;
}

static int fa_json__type(struct fa_json *j, const struct fa_type_entry *te,
			 const struct fa_analysis *an, const struct fa_report_opts *o)
{
	const struct fa_type *t = te->t;
	int err;

	fa_json__begin_object(j, NULL, /*flat=*/false);
	fa_json__string(j, "name", te->name);
	fa_json__u64(j, "size", te->size);
	fa_json__u64(j, "accesses", t->counts.nr_accesses);
	fa_json__u64(j, "stores", fa_type__stores(t));
	fa_json__u64(j, "hitm", t->counts.hitm);
	fa_json__double(j, "weight", t->counts.weight);
	fa_json__u64(j, "instances", t->xfer.nr_instances);
	fa_json__u64(j, "misaligned_instances", t->xfer.misaligned);
	fa_json__bool(j, "shared", fa_type__shared(t));
	fa_json__string(j, "owners", t->cfg.owners ? "threads" : "cpus");
	fa_json__string(j, "method", fa_method__name(an->method));
	fa_json__string(j, "method_reason", fa_method_why__name(an->why));
	fa_json__u64(j, "median_gap_ns", an->gap_ns);
	fa_json__begin_array(j, "fields", /*flat=*/false);
	for (int f = 0; f < t->st->nr_fields; f++)
		fa_json__field(j, t, an, f, o);
	fa_json__end_array(j);
	err = fa_json__coaccess(j, an) ?: fa_json__false_sharing(j, t, an) ?:
	      fa_json__shared_lines(j, t, an);
	if (err)
		return err;
	fa_json__clusters(j, t->st, an);
	fa_json__bool(j, "changed", an->changed);
	fa_json__bool(j, "kept_current", an->kept);
	fa_json__bool(j, "aligned_instances", an->spread);
	if (an->spread)
		fa_json__string(j, "align_by", fa_align_by__key(fa_type_entry__align_by(te, an)));
	else
		fa_json__null(j, "align_by");
	fa_json__bool(j, "per_visit", an->per_visit);
	fa_json__double(j, "visit_lines_current", an->now.visit_lines);
	fa_json__double(j, "visit_lines_suggested", an->advised.visit_lines);
	fa_json__layout(j, "current", &an->current, t->st);
	fa_json__layout(j, "suggested", &an->suggested, t->st);
	/* what check holds a layout against when the evidence was insufficient */
	if (an->insufficient)
		fa_json__layout(j, "candidate", &an->candidate, t->st);
	else
		fa_json__null(j, "candidate");
	fa_json__costs(j, an);
	fa_json__advice(j, an, t->st);
	err = fa_json__cost_model(j, t, an);
	fa_json__end_object(j);
	return err;
}

static void fa_json__array(struct fa_json *j, const struct fa_array *arr)
{
	fa_json__begin_object(j, NULL, /*flat=*/false);
	fa_json__string(j, "name", arr->name);
	fa_json__string(j, "elem_type", arr->elem_type);
	fa_json__u64(j, "elem_size", arr->elem_size);
	fa_json__u64(j, "nr_elems", arr->nr_elems);
	fa_json__bool(j, "tls", arr->tls);
	fa_json__u64(j, "accesses", arr->accesses);
	fa_json__u64(j, "loads", arr->loads);
	fa_json__u64(j, "stores", arr->stores);
	fa_json__u64(j, "elems_per_count", arr->per_count);
	fa_json__begin_array(j, "counts", /*flat=*/true);
	for (u32 c = 0; c < arr->nr_counts; c++)
		fa_json__u64(j, NULL, arr->counts[c]);
	fa_json__end_array(j);
	fa_json__begin_array(j, "functions", /*flat=*/false);
	for (int i = 0; i < arr->nr_funcs; i++) {
		fa_json__begin_object(j, NULL, /*flat=*/true);
		fa_json__string(j, "name", arr->funcs[i].sym);
		fa_json__u64(j, "samples", arr->funcs[i].weight);
		fa_json__u64(j, "accesses", arr->funcs[i].accesses);
		fa_json__end_object(j);
	}
	fa_json__end_array(j);
	fa_json__end_object(j);
}

static void fa_json__merge(struct fa_json *j, const struct fa_merge *m)
{
	char name[256];

	fa_merge__name(m, name, sizeof(name));
	fa_json__begin_object(j, NULL, /*flat=*/false);
	fa_json__begin_array(j, "arrays", /*flat=*/true);
	fa_json__string(j, NULL, m->arr[0]->name);
	fa_json__string(j, NULL, m->arr[1]->name);
	fa_json__end_array(j);
	fa_json__string(j, "name", name);
	fa_json__u64(j, "size", m->size);
	fa_json__begin_array(j, "functions", /*flat=*/true);
	for (int i = 0; i < m->nr_funcs; i++)
		fa_json__string(j, NULL, m->funcs[i]);
	fa_json__end_array(j);
	fa_json__u64(j, "samples_both", m->both);
	fa_json__u64(j, "samples_one", m->one[0] + m->one[1]);
	fa_json__begin_array(j, "lines_per_visit", /*flat=*/true);
	fa_json__double(j, NULL, m->lines[0]);
	fa_json__double(j, NULL, m->lines[1]);
	fa_json__end_array(j);
	fa_json__double(j, "gain", 100 * (1 - m->cost[1] / m->cost[0]));
	fa_json__end_object(j);
}

/* The arrays of scalars and the merges advised (merge.h) */
static int fa_json__arrays(struct fa_json *j, const struct fa_attr *a)
{
	struct fa_merge *merges;
	int nr = fa_merges__find(&a->arrays, a->cfg.line_size, &merges);

	if (nr < 0)
		return nr;
	fa_json__begin_array(j, "arrays", /*flat=*/false);
	for (int i = 0; i < a->arrays.nr; i++)
		fa_json__array(j, a->arrays.arrays[i]);
	fa_json__end_array(j);
	fa_json__begin_array(j, "merges", /*flat=*/false);
	for (int i = 0; i < nr; i++)
		fa_json__merge(j, &merges[i]);
	fa_json__end_array(j);
	free(merges);
	return 0;
}

static void fa_json__dl_owner(struct fa_json *j, const struct fa_dl_owner *o, u32 line_size)
{
	char what[256];
	u32 lo, hi;

	fa_dl_owner__bytes(o, line_size, &lo, &hi);
	fa_dl_owner__what_scnprintf(o, what, sizeof(what));
	fa_json__begin_object(j, NULL, /*flat=*/true);
	fa_json__u64(j, "id", o->id);
	fa_json__u64(j, "loads", o->loads);
	fa_json__u64(j, "stores", o->stores);
	fa_json__begin_array(j, "bytes", /*flat=*/true);
	fa_json__u64(j, NULL, lo);
	fa_json__u64(j, NULL, hi);
	fa_json__end_array(j);
	fa_json__string(j, "what", what);
	if (o->what.type)
		fa_json__string(j, "type", o->what.type);
	if (o->what.field)
		fa_json__string(j, "field", o->what.field);
	if (o->code.sym) {
		fa_json__string(j, "function", o->code.sym);
		fa_json__u64(j, "function_offset", o->code.sym_off);
	}
	fa_json__end_object(j);
}

static void fa_json__dline(struct fa_json *j, const struct fa_dline *l, u32 line_size)
{
	enum fa_dl_advice adv = fa_dline__advice(l, line_size);
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS), nr;
	struct fa_interval ci;
	char watch[256];
	bool sure;

	fa_json__begin_object(j, NULL, /*flat=*/false);
	/* where first: the address moves with the map (ASLR), the offsets do not */
	if (l->where.map) {
		fa_json__string(j, "map", l->where.map);
		fa_json__u64(j, "map_offset", l->where.map_off);
	}
	if (l->where.var) {
		fa_json__string(j, "variable", l->where.var);
		fa_json__u64(j, "variable_offset", l->where.var_off);
	}
	fa_json__u64(j, "addr", l->addr);
	fa_json__u64(j, "pid", l->space);
	fa_json__u64(j, "loads", l->loads);
	fa_json__u64(j, "stores", l->stores);
	fa_json__u64(j, "transfers", l->xfers);
	fa_json__u64(j, "transfers_apart", l->xfers_apart);
	fa_json__bool(j, "false_sharing", fa_dline__false_sharing(l));
	fa_json__u64(j, "nr_owners", l->nr_owners);
	fa_json__string(j, "owner_kind", l->space ? "thread" : "cpu");
	fa_json__begin_array(j, "owners", /*flat=*/false);
	for (int i = 0; i < n; i++)
		fa_json__dl_owner(j, &l->owners[i], line_size);
	fa_json__end_array(j);
	fa_json__string(j, "advice", fa_dl_advice__key(adv));
	if (adv == FA_DL_ADV_STRIDE)
		fa_json__u64(j, "stride", fa_dline__stride(l, line_size));
	sure = fa_dline__saving(l, &ci, &nr);
	fa_json__double(j, "saving", 100 * ci.est);
	fa_json__interval(j, "saving_interval", &ci, 100);
	fa_json__int(j, "transfer_groups", nr);
	fa_json__bool(j, "sure", sure);
	if (fa_dline__watch_scnprintf(l, line_size, watch, sizeof(watch)))
		fa_json__string(j, "watch", watch);
	else
		fa_json__null(j, "watch");
	fa_json__end_object(j);
}

/* The data lines threads share, typed or not (dlines.h) */
static int fa_json__data_lines(struct fa_json *j, const struct fa_attr *a)
{
	struct fa_dline **lines;
	int nr = fa_dlines__contended(&a->dlines, &lines);

	if (nr < 0)
		return nr;
	fa_json__begin_array(j, "data_lines", /*flat=*/false);
	for (int i = 0; i < nr; i++)
		fa_json__dline(j, lines[i], a->cfg.line_size);
	fa_json__end_array(j);
	free(lines);
	return 0;
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
	struct fa_json j;
	int err = 0;

	fa_json__init(&j, fp);
	fa_json__begin_object(&j, NULL, /*flat=*/false);
	fa_json__int(&j, "schema_version", FA_JSON_SCHEMA_VERSION);
	fa_json__header(&j, h, a, o);
	fa_json__begin_array(&j, "types", /*flat=*/false);
	fa_hists__for_each_entry(fh, fe) {
		err = fa_json__type(&j, fe->te, fe->an, o);
		if (err)
			break;
	}
	if (err)
		return 0;
	fa_json__end_array(&j);
	if (fa_json__arrays(&j, a) || fa_json__data_lines(&j, a))
		return 0;
	fa_json__end_object(&j);
	return j.printed;
}
