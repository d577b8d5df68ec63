// SPDX-License-Identifier: GPL-2.0
/* The slot arrays of a recording's shared lines against a binary (check-lines.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "check-lines.h"
#include "../attr/dlines.h"
#include "../../json-writer.h"

static const char * const fa_slots_keys[] = {
	[FA_SLOTS_UNCHANGED]	= "unchanged",
	[FA_SLOTS_APART]	= "holds",
	[FA_SLOTS_SHARED]	= "shared",
	[FA_SLOTS_UNKNOWN]	= "unknown",
};

/* The variable the code reaches @l's slots by: a pointer, else an array */
static const char *fa_dline__slots_var(const struct fa_dline *l, const struct fa_dl_what *w,
				       bool *pointer)
{
	*pointer = l->where.ptr != NULL;
	return l->where.ptr ?: w ? w->var : NULL;
}

/* The first owner of @l that named what it accessed */
static const struct fa_dl_what *fa_dline__what(const struct fa_dline *l)
{
	for (u32 i = 0; i < l->nr_owners && i < FA_DL_OWNERS; i++) {
		if (l->owners[i].what.type)
			return &l->owners[i].what;
	}
	return NULL;
}

/* The source file of the first store to @l that has one: whose variable it is */
static void fa_check_slots__file(struct fa_check_slots *s, const struct fa_dline *l)
{
	for (u32 i = 0; i < l->nr_owners && i < FA_DL_OWNERS; i++) {
		const char *srcline = l->owners[i].wcode.srcline;

		if (srcline) {
			snprintf(s->file, sizeof(s->file), "%.*s", (int)strcspn(srcline, ":"),
				 srcline);
			return;
		}
	}
}

static void fa_check_slots__set(struct fa_check_slots *s, const struct fa_dl_group *g,
				enum fa_dl_advice adv, u32 line_size)
{
	const struct fa_dline *l = g->lines[0];
	const struct fa_dl_what *w = g->what ?: fa_dline__what(l);
	u32 stride = adv == FA_DL_ADV_STRIDE ? fa_dline__stride(l, line_size) : 0;

	s->var = fa_dline__slots_var(l, w, &s->pointer);
	fa_check_slots__file(s, l);
	s->elem_type = w ? w->type : NULL;
	s->elem_size = w && w->size ? w->size : max(stride, 1U);
	/* interleaved or in blocks: two threads' elements meet side by side */
	s->elements = stride && !g->stride ? max(stride / s->elem_size, 1U) : 1;
	s->lines = g->nr;
	s->xfers = g->xfers;
	s->xfers_apart = min(g->xfers_apart, g->xfers);
	for (int i = 0; i < g->nr; i++)
		s->width = max(s->width, fa_dline__width(g->lines[i], line_size));
}

/**
 * fa_check_lines__init - The slot arrays of the falsely shared lines of
 * @dl (and @exact, the watched) outside the struct types, one per array
 *
 * Return: 0, or -ENOMEM.
 */
int fa_check_lines__init(struct fa_check_lines *cl, const struct fa_dlines *dl,
			 const struct fa_dlines *exact)
{
	struct fa_dline **lines = NULL;
	struct fa_dl_group *groups = NULL;
	int nr = fa_dlines__contended_all(dl, exact, &lines), nr_groups;
	int err = -ENOMEM;

	memset(cl, 0, sizeof(*cl));
	if (nr < 0)
		return nr;
	nr_groups = fa_dlines__groups(lines, nr, &groups);
	if (nr_groups < 0)
		goto out;
	cl->slots = calloc(nr_groups + 1, sizeof(*cl->slots));
	if (!cl->slots)
		goto out;
	for (int k = 0; k < nr_groups; k++) {
		const struct fa_dline *l = groups[k].lines[0];
		enum fa_dl_advice adv = fa_dline__advice(l, dl->line_size);
		struct fa_check_slots *s = &cl->slots[cl->nr];

		if (adv == FA_DL_ADV_TYPE || adv == FA_DL_ADV_NONE)
			continue;
		if (adv != FA_DL_ADV_BYTES)
			fa_check_slots__set(s, &groups[k], adv, dl->line_size);
		if (!s->var) {
			cl->unnamed += groups[k].nr;
			memset(s, 0, sizeof(*s));
			continue;
		}
		cl->nr++;
	}
	err = 0;
out:
	fa_dl_groups__free(groups, max(nr_groups, 0));
	free(lines);
	return err;
}

void fa_check_lines__exit(struct fa_check_lines *cl)
{
	for (int i = 0; cl->slots && i < cl->nr; i++) {
		zfree(&cl->slots[i].now.name);
		zfree(&cl->slots[i].now.elem_type);
	}
	zfree(&cl->slots);
}

/**
 * fa_check_slots__judge - Whether the element of @s->now keeps each
 * thread's bytes on lines of their own, the code indexing as recorded
 *
 * Two threads' bytes @distance apart are on two lines wherever the
 * allocation lands when the last of one and the first of the next are a
 * line apart; at a whole number of lines, when the element starts a line
 * (aligned to it) or a thread's bytes are one aligned scalar, which never
 * crosses a line.
 */
enum fa_slots_verdict fa_check_slots__judge(struct fa_check_slots *s, u32 line_size)
{
	u32 width = max(s->width, 1U);

	if (!s->now.elem_size)
		return s->verdict = FA_SLOTS_UNKNOWN;
	s->distance = s->elements * s->now.elem_size;
	if (s->now.elem_size == s->elem_size && s->now.elem_align < line_size)
		return s->verdict = FA_SLOTS_UNCHANGED;
	if (s->distance >= line_size + width - 1 ||
	    (s->distance % line_size == 0 && (s->now.elem_align >= line_size || width <= 8)))
		return s->verdict = FA_SLOTS_APART;
	return s->verdict = FA_SLOTS_SHARED;
}

#ifdef HAVE_DWARF_SUPPORT
/* Each slot array's element in @dbg, judged */
void fa_check_lines__run(struct fa_check_lines *cl, Dwarf *dbg, u32 line_size)
{
	for (int i = 0; i < cl->nr; i++) {
		struct fa_check_slots *s = &cl->slots[i];
		int err = fa_dwarf__var_elem(dbg, s->var, s->file[0] ? s->file : NULL, &s->now);

		/* a pointer now, or an array: what the code indexes is the element */
		if (err)
			memset(&s->now, 0, sizeof(s->now));
		fa_check_slots__judge(s, line_size);
		cl->failed += s->verdict == FA_SLOTS_SHARED;
		cl->judged += s->verdict == FA_SLOTS_SHARED || s->verdict == FA_SLOTS_APART;
	}
}
#endif

static void fa_check_slots__fprintf(const struct fa_check_slots *s, FILE *fp)
{
	fprintf(fp, "  %s%s: %s elements, a thread's %u bytes apart, %d line%s, %" PRIu64 " transfers (a line per thread leaves %" PRIu64 ")\n",
		s->pointer ? "*" : "", s->var, s->elem_type ?: "untyped", s->elements * s->elem_size,
		s->lines, s->lines == 1 ? "" : "s", s->xfers, s->xfers_apart);
	switch (s->verdict) {
	case FA_SLOTS_UNKNOWN:
		fprintf(fp, "    not judged: no array or pointer %s with a sized element in the debug info\n",
			s->var);
		break;
	case FA_SLOTS_UNCHANGED:
		fprintf(fp, "    not judged: its element is %s, %u bytes, as recorded: the fix, if any, is in the code (index, allocation); compare recordings with 'perf affinity diff'\n",
			s->now.elem_type, s->now.elem_size);
		break;
	case FA_SLOTS_APART:
	case FA_SLOTS_SHARED:
	default:
		fprintf(fp, "    now %s, %u bytes, aligned %u: a thread's slot %u bytes from the next: %s\n",
			s->now.elem_type, s->now.elem_size, s->now.elem_align, s->distance,
			s->verdict == FA_SLOTS_APART ? "each on lines of its own, holds" :
			"threads' bytes still share lines, does not hold");
		break;
	}
}

/* The slot arrays, then the lines check cannot name */
void fa_check_lines__fprintf(const struct fa_check_lines *cl, const char *binary, FILE *fp)
{
	if (cl->nr) {
		fprintf(fp, "\nslots threads shared lines of, outside the struct types, in %s (the code's index as recorded):\n",
			binary);
		for (int i = 0; i < cl->nr; i++)
			fa_check_slots__fprintf(&cl->slots[i], fp);
	}
	if (cl->unnamed)
		fprintf(fp, "note: %d line%s threads share outside the struct types, falsely, not judged: no slots of an array a variable names; compare recordings with 'perf affinity diff'\n",
			cl->unnamed, cl->unnamed == 1 ? "" : "s");
}

void fa_check_lines__json(const struct fa_check_lines *cl, struct json_writer *j)
{
	json_writer__begin_array(j, "slots", /*flat=*/false);
	for (int i = 0; i < cl->nr; i++) {
		const struct fa_check_slots *s = &cl->slots[i];

		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__string(j, "variable", s->var);
		json_writer__bool(j, "pointer", s->pointer);
		json_writer__string(j, "element", s->elem_type ?: "");
		json_writer__u64(j, "distance", s->elements * s->elem_size);
		json_writer__int(j, "lines", s->lines);
		json_writer__u64(j, "transfers", s->xfers);
		json_writer__u64(j, "transfers_apart", s->xfers_apart);
		if (s->now.elem_size) {
			json_writer__string(j, "now_element", s->now.elem_type);
			json_writer__u64(j, "now_size", s->now.elem_size);
			json_writer__u64(j, "now_align", s->now.elem_align);
			json_writer__u64(j, "now_distance", s->distance);
		}
		json_writer__string(j, "verdict", fa_slots_keys[s->verdict]);
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	json_writer__int(j, "lines_not_judged", cl->unnamed);
}
