// SPDX-License-Identifier: GPL-2.0
/*
 * Print a layout the way pahole prints a struct (dwarves_fprintf.c), so
 * that kernel developers read and grep it as they are used to, and as a C
 * definition to paste.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "classify.h"
#include "fields.h"
#include "layout.h"

#define PAHOLE_TYPE_WIDTH	26
#define PAHOLE_NAME_WIDTH	22

/* One member line, as the layout places it */
struct fa_member {
	const struct fa_field	*f;
	u32			 offset;
	u32			 aligned;	/* print __attribute__((__aligned__(N))) if not 0 */
};

/* Running totals for the summary block */
struct fa_print_state {
	u32	line;		/* last cacheline announced */
	u32	members, sum_members, holes, sum_holes;
	u32	bit_members, bit_holes, sum_bit_holes;
	u32	forced, forced_holes, sum_forced_holes;
};

static size_t fa_member__fprintf_decl(const struct fa_member *m, FILE *fp)
{
	const struct fa_field *f = m->f;
	char name[256], aligned[64] = "";
	int len;

	if (m->aligned)
		scnprintf(aligned, sizeof(aligned), " __attribute__((__aligned__(%u)))", m->aligned);
	if (f->kind == FA_FIELD_BITFIELD)
		scnprintf(name, sizeof(name), "%s:%u%s;", f->name, f->bit_size, aligned);
	else
		scnprintf(name, sizeof(name), "%s%s%s%s;", f->funcptr ? "(*" : "", f->name,
			  f->suffix, aligned);
	len = strlen(name);
	return fprintf(fp, "\t%-*s %s%*s", PAHOLE_TYPE_WIDTH, f->type, name,
		       len < PAHOLE_NAME_WIDTH ? PAHOLE_NAME_WIDTH - len : 1, "");
}

static int fa_print__bit_hole(struct fa_print_state *ps, u32 unused, char *buf, size_t size)
{
	if (!unused)
		return 0;
	ps->bit_holes++;
	ps->sum_bit_holes += unused;
	return scnprintf(buf, size, "\t/* XXX %u bit%s hole, try to pack */\n", unused,
			 unused == 1 ? "" : "s");
}

/* Holes before a member (a block of them, as pahole prints), cacheline markers. */
static size_t fa_print__gap(struct fa_print_state *ps, const struct fa_layout_walk *w,
			    const struct fa_member *m, u32 line_size, FILE *fp)
{
	size_t printed = 0;
	char holes[160];
	int n = fa_print__bit_hole(ps, w->bit_hole, holes, sizeof(holes));

	if (w->hole) {
		n += scnprintf(holes + n, sizeof(holes) - n,
			       "\t/* XXX %u byte%s hole, try to pack */\n", w->hole,
			       w->hole == 1 ? "" : "s");
		ps->holes++;
		ps->sum_holes += w->hole;
		if (m->f->forced_align || m->aligned) {
			ps->forced_holes++;
			ps->sum_forced_holes += w->hole;
		}
	}
	if (n)
		printed += fprintf(fp, "\n%s\n", holes);
	else if (w->combined)
		printed += fprintf(fp, "\n\t/* Bitfield combined with previous fields */\n\n");
	if (m->offset / line_size > ps->line) {
		u32 line = m->offset / line_size, ago = m->offset - line * line_size;

		ps->line = line;
		if (ago)
			printed += fprintf(fp, "\t/* --- cacheline %u boundary (%u bytes) was %u byte%s ago --- */\n",
					   line, line * line_size, ago, ago == 1 ? "" : "s");
		else
			printed += fprintf(fp, "\t/* --- cacheline %u boundary (%u bytes) --- */\n",
					   line, line * line_size);
	}
	return printed;
}

static size_t fa_member__fprintf(struct fa_print_state *ps, const struct fa_layout_walk *w,
				 const struct fa_member *m, u32 line_size, FILE *fp)
{
	const struct fa_field *f = m->f;
	size_t printed = fa_print__gap(ps, w, m, line_size, fp);

	printed += fa_member__fprintf_decl(m, fp);
	if (f->kind == FA_FIELD_BITFIELD) {
		printed += fprintf(fp, "/* %5u:%2u %2u */\n", m->offset, f->bit_offset, f->size);
		ps->bit_members += f->bit_size;
	} else {
		printed += fprintf(fp, "/* %5u %5u */\n", m->offset, f->size);
		ps->sum_members += f->size;
	}
	if (f->forced_align || m->aligned)
		ps->forced++;
	ps->members++;
	return printed;
}

static size_t fa_print__summary(struct fa_print_state *ps, struct fa_layout_walk *w,
				const struct fa_layout *l, FILE *fp)
{
	u32 lines = DIV_ROUND_UP(l->size, l->line_size);
	size_t printed = 0;
	u32 last;
	char holes[80];

	if (fa_print__bit_hole(ps, fa_layout_walk__end_bits(w), holes, sizeof(holes)))
		printed += fprintf(fp, "\n%s", holes);

	printed += fprintf(fp, "\n\t/* size: %u, cachelines: %u, members: %u */\n", l->size, lines,
			   ps->members);
	if (ps->holes)
		printed += fprintf(fp, "\t/* sum members: %u, holes: %u, sum holes: %u */\n",
				   ps->sum_members, ps->holes, ps->sum_holes);
	if (ps->bit_holes)
		printed += fprintf(fp, "\t/* sum bitfield members: %u bits, bit holes: %u, sum bit holes: %u bits */\n",
				   ps->bit_members, ps->bit_holes, ps->sum_bit_holes);
	else if (ps->bit_members)
		printed += fprintf(fp, "\t/* sum bitfield members: %u bits */\n", ps->bit_members);
	if (l->size > w->end)
		printed += fprintf(fp, "\t/* padding: %u */\n", l->size - w->end);
	if (ps->forced)
		printed += fprintf(fp, "\t/* forced alignments: %u%s", ps->forced,
				   ps->forced_holes ? "" : " */\n");
	if (ps->forced && ps->forced_holes)
		printed += fprintf(fp, ", forced holes: %u, sum forced holes: %u */\n",
				   ps->forced_holes, ps->sum_forced_holes);
	last = l->size % l->line_size;
	if (last)
		printed += fprintf(fp, "\t/* last cacheline: %u bytes */\n", last);
	return printed;
}

/* The alignment the members alone give the struct */
static u32 fa_struct__natural_align(const struct fa_struct *st)
{
	u32 align = 1;

	for (int i = 0; i < st->nr_fields; i++) {
		if (st->fields[i].depth == 0 && !st->fields[i].forced_align)
			align = max(align, st->fields[i].align);
	}
	return align;
}

/**
 * fa_layout__fprintf - Print @st laid out as @l, in pahole's format
 *
 * Return: the number of characters printed.
 */
size_t fa_layout__fprintf(const struct fa_layout *l, const struct fa_struct *st, FILE *fp)
{
	struct fa_print_state ps = { .line = 0, };
	size_t printed = fprintf(fp, "%s {\n", st->name);
	struct fa_layout_walk w;

	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		const struct fa_field *f = &st->fields[w.field];
		struct fa_member m = {
			.f = f,
			.offset = w.offset,
			/* a line started for isolation shows as aligned to the line */
			.aligned = !w.first ? 0 : l->line_start[w.unit] ?
				   max(l->line_size, f->align) : f->forced_align ? f->align : 0,
		};

		printed += fa_member__fprintf(&ps, &w, &m, l->line_size, fp);
	}
	printed += fa_print__summary(&ps, &w, l, fp);
	if (l->align > fa_struct__natural_align(st) || (st->forced_align && l->align == st->align))
		printed += fprintf(fp, "} __attribute__((__aligned__(%u)));\n", l->align);
	else
		printed += fprintf(fp, "};\n");
	return printed;
}

/* A member's declaration, as C, without the semicolon */
size_t fa_field__fprintf_c(const struct fa_field *f, FILE *fp)
{
	const char *type = f->c_type ?: f->type;
	size_t printed = fprintf(fp, "\t%s%s%s%s%s", type,
				 f->anon || (type[0] && type[strlen(type) - 1] == '*') ? "" : " ",
				 f->funcptr ? "(*" : "", f->anon ? "" : f->name, f->suffix);

	if (f->kind == FA_FIELD_BITFIELD)
		printed += fprintf(fp, ":%u", f->bit_size);
	return printed;
}

/*
 * The attribute that aligns to @align: the kernel's macros in a kernel type,
 * GCC's attribute elsewhere, where the kernel's headers are not included.
 */
static int fa_align__scnprintf(char *buf, size_t size, u32 align, u32 line_size, bool kernel)
{
	if (!kernel)
		return scnprintf(buf, size, " __attribute__((aligned(%u)))", align);
	if (align == line_size)
		return scnprintf(buf, size, " ____cacheline_aligned");
	return scnprintf(buf, size, " __aligned(%u)", align);
}

/*
 * The name of the cache line group of line @line of a kernel type: the
 * type's and what the line is for, as the netdev structs name theirs
 * (net_device_read_tx): 'write' if a member on it is written, 'read' if
 * one is read-mostly, else 'cold'; 'line' without classes
 */
static void fa_group__name(const struct fa_layout *l, const struct fa_struct *st,
			   const struct fa_classes *c, u32 line, char *buf, size_t size)
{
	const char *base = fa_struct__bare_name(st);
	const char *what = c ? "cold" : "line";

	for (int u = 0; c && u < l->nr_units; u++) {
		int cls = c->units[u].cls;

		if (l->offset[u] / l->line_size != line)
			continue;
		if (cls == FA_CLASS_WRITE_HOT || cls == FA_CLASS_SHARED_WRITTEN)
			what = "write";
		else if (cls == FA_CLASS_READ_MOSTLY && strcmp(what, "write"))
			what = "read";
	}
	scnprintf(buf, size, "%s_%s_%u", base, what, line);
	for (char *p = buf; *p; p++) {
		if (!isalnum(*p))
			*p = '_';
	}
}

/* A member offsetof() names: not a bitfield, nor an anonymous member */
static bool fa_field__named(const struct fa_field *f)
{
	return f->kind != FA_FIELD_BITFIELD && f->kind != FA_FIELD_BITGROUP && !f->anon &&
	       !strchr(f->name, '(') && !strchr(f->name, '{');
}

/*
 * The build time checks of a kernel type's cache line groups, as the
 * netdev structs have them: a member that moves out of its group, by an
 * edit of the struct made later, breaks the build
 */
static size_t fa_layout__fprintf_groups_check(const struct fa_layout *l,
					      const struct fa_struct *st,
					      const struct fa_classes *c, FILE *fp)
{
	const char *base = fa_struct__bare_name(st);
	size_t printed = fprintf(fp, "\n/* in the file that defines it, called at init */\n"
				 "static void __init %s_struct_check(void)\n{\n", base);
	struct fa_layout_walk w;
	char group[256];

	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		const struct fa_field *f = &st->fields[w.field];

		if (!w.first || !fa_field__named(f))
			continue;
		fa_group__name(l, st, c, l->offset[w.unit] / l->line_size, group, sizeof(group));
		printed += fprintf(fp, "\tCACHELINE_ASSERT_GROUP_MEMBER(%s, %s, %s);\n", st->name,
				   group, f->name);
	}
	return printed + fprintf(fp, "}\n");
}

/* End the group of the line before, start the one of line @line */
static size_t fa_layout__fprintf_line(const struct fa_layout *l, const struct fa_struct *st,
				      const struct fa_classes *c, int prev, u32 line,
				      bool groups, FILE *fp)
{
	char group[256];
	size_t printed = 0;

	if (groups && prev >= 0) {
		fa_group__name(l, st, c, prev, group, sizeof(group));
		printed += fprintf(fp, "\t__cacheline_group_end(%s);\n", group);
	}
	printed += fprintf(fp, "%s\t/* cache line %u */\n", prev >= 0 ? "\n" : "", line);
	if (groups) {
		fa_group__name(l, st, c, line, group, sizeof(group));
		printed += fprintf(fp, "\t__cacheline_group_begin(%s);\n", group);
	}
	return printed;
}

/**
 * fa_layout__fprintf_c - Print @st laid out as @l as a C definition, each
 * cache line headed by what its fields are
 * @kernel: A kernel type: the kernel's macros; each cache line of a struct
 *          of several is a group (__cacheline_group_begin/end), followed by
 *          a function of CACHELINE_ASSERT_GROUP_MEMBER() for every member,
 *          so that the kernel's build guards the layout
 */
size_t fa_layout__fprintf_c(const struct fa_layout *l, const struct fa_struct *st,
			    const struct fa_classes *c, bool kernel, FILE *fp)
{
	bool typedef_anon = st->c_open && strstarts(st->c_open, "typedef ");
	bool groups = kernel && l->size > l->line_size;
	size_t printed = st->c_open ? fprintf(fp, "%s\n", st->c_open) :
				      fprintf(fp, "%s {\n", st->name);
	struct fa_layout_walk w;
	char attr[64] = "";
	int line = -1;

	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		const struct fa_field *f = &st->fields[w.field];
		int u = w.unit;
		bool aligned = w.first && (l->line_start[u] || f->forced_align);

		if (w.first && (int)(l->offset[u] / l->line_size) != line) {
			printed += fa_layout__fprintf_line(l, st, c, line,
							   l->offset[u] / l->line_size, groups, fp);
			line = l->offset[u] / l->line_size;
		}
		printed += fa_field__fprintf_c(f, fp);
		if (aligned) {
			u32 align = l->line_start[u] && f->align <= l->line_size ?
				    l->line_size : f->align;

			fa_align__scnprintf(attr, sizeof(attr), align, l->line_size, kernel);
			printed += fprintf(fp, "%s", attr);
		}
		printed += fprintf(fp, ";\t/* %s */\n",
				   fa_class__name(c ? c->units[u].cls : FA_CLASS_COLD));
	}
	if (groups && line >= 0) {
		char group[256];

		fa_group__name(l, st, c, line, group, sizeof(group));
		printed += fprintf(fp, "\t__cacheline_group_end(%s);\n", group);
	}
	attr[0] = '\0';
	if (l->align >= l->line_size)
		fa_align__scnprintf(attr, sizeof(attr), l->align, l->line_size, kernel);
	printed += fprintf(fp, "}%s%s%s;\n", attr, typedef_anon ? " " : "",
			   typedef_anon ? st->name : "");
	if (groups)
		printed += fa_layout__fprintf_groups_check(l, st, c, fp);
	return printed;
}
