// SPDX-License-Identifier: GPL-2.0
/*
 * Print a layout the way pahole prints a struct (dwarves_fprintf.c), so
 * that kernel developers read and grep it as they are used to, and as a C
 * definition to paste.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "classify.h"
#include "../fields/fields.h"
#include "layout.h"

#define PAHOLE_TYPE_WIDTH	26
#define PAHOLE_COMMENT_COL	49	/* after a member's tabs: type column + 23 */
#define PAHOLE_MAX_DEPTH	16

static const char pahole_tabs[PAHOLE_MAX_DEPTH + 1] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

/* One member line, as the layout places it */
struct fa_member {
	const struct fa_field	*f;
	u32			 offset;
	u32			 aligned;	/* print __attribute__((__aligned__(N))) if not 0 */
};

/* Running totals for the summary block */
struct fa_print_state {
	u32	line;		/* last cacheline announced */
	u32	line_size;
	u32	members, sum_members, holes, sum_holes;
	u32	bit_members, bit_holes, sum_bit_holes;
	u32	forced, forced_holes, sum_forced_holes;
	u32	paddings, sum_paddings;
	u32	padding;	/* of the last member's struct type, to note */
	bool	newline;	/* notes were printed: a blank line before the next member */
};

/* pahole's type column at @depth tabs: 26, then 8 less per level */
static int pahole__type_width(int depth)
{
	return PAHOLE_TYPE_WIDTH - 8 * (depth - 1);
}

/*
 * A member's type and name at @depth: the first @prefix bytes of @type
 * ("const ", "struct ") as they are, the rest padded to the rest of the
 * column (as printf pads to a negative width: its absolute value), then the
 * name padded to the comment column, or one space past it.
 */
static size_t pahole__decl(FILE *fp, int depth, const char *type, u8 prefix, const char *name)
{
	int width = abs(pahole__type_width(depth) - prefix), used, col;

	used = fprintf(fp, "%.*s%.*s%-*s %s", depth, pahole_tabs, prefix, type, width, type + prefix,
		       name) - depth;
	col = PAHOLE_COMMENT_COL - 8 * (depth - 1);
	return depth + used + fprintf(fp, "%*s", used < col ? col - used : 1, "");
}

static size_t pahole__offset(FILE *fp, u32 offset, u32 size, u16 bit_size, u16 bit_offset)
{
	if (bit_size)
		return fprintf(fp, "/* %5u:%2u %2u */\n", offset, bit_offset, size);
	return fprintf(fp, "/* %5u %5u */\n", offset, size);
}

static size_t fa_member__fprintf_decl(const struct fa_member *m, FILE *fp)
{
	const struct fa_field *f = m->f;
	char name[256], aligned[64] = "";

	if (m->aligned)
		scnprintf(aligned, sizeof(aligned), " __attribute__((__aligned__(%u)))", m->aligned);
	if (f->base) {
		char type[256];

		/* pahole: '\t/\* class Stats <ancestor>; *\/' */
		scnprintf(type, sizeof(type), "/* %s", f->type);
		return pahole__decl(fp, 1, type, 0, "<ancestor>; */");
	}
	if (f->kind == FA_FIELD_BITFIELD)
		scnprintf(name, sizeof(name), "%s:%u%s;", f->name, f->bit_size, aligned);
	else
		scnprintf(name, sizeof(name), "%s%s%s%s;", f->funcptr ? "(*" : "", f->name,
			  f->suffix, aligned);
	return pahole__decl(fp, 1, f->type, f->type_prefix, name);
}

/* The cacheline a member at @offset starts in, if it was not announced */
static size_t fa_print__line(struct fa_print_state *ps, u32 offset, int depth, FILE *fp)
{
	u32 line = offset / ps->line_size, ago = offset - line * ps->line_size;

	if (line <= ps->line)
		return 0;
	ps->line = line;
	if (ago)
		return fprintf(fp, "%.*s/* --- cacheline %u boundary (%u bytes) was %u byte%s ago --- */\n",
			       depth, pahole_tabs, line, line * ps->line_size, ago,
			       ago == 1 ? "" : "s");
	return fprintf(fp, "%.*s/* --- cacheline %u boundary (%u bytes) --- */\n",
		       depth, pahole_tabs, line, line * ps->line_size);
}

/*
 * A note after a member: the first one after a blank line; a blank line
 * follows the last before the next member (not before a block's end).
 */
static size_t __printf(4, 5) fa_print__note(struct fa_print_state *ps, int depth, FILE *fp,
					    const char *fmt, ...)
{
	size_t printed = ps->newline ? 0 : fprintf(fp, "\n");
	va_list ap;

	ps->newline = true;
	printed += fprintf(fp, "%.*s", depth, pahole_tabs);
	va_start(ap, fmt);
	printed += vfprintf(fp, fmt, ap);
	va_end(ap);
	return printed + fprintf(fp, "\n");
}

static size_t fa_print__notes(struct fa_print_state *ps, int depth, u32 padding, u32 bit_hole,
			      u32 hole, FILE *fp)
{
	size_t printed = 0;

	if (padding)
		printed += fa_print__note(ps, depth, fp, "/* XXX last struct has %u byte%s of padding */",
					  padding, padding == 1 ? "" : "s");
	if (bit_hole)
		printed += fa_print__note(ps, depth, fp, "/* XXX %u bit%s hole, try to pack */",
					  bit_hole, bit_hole == 1 ? "" : "s");
	if (hole)
		printed += fa_print__note(ps, depth, fp, "/* XXX %u byte%s hole, try to pack */",
					  hole, hole == 1 ? "" : "s");
	return printed;
}

/* A bitfield pahole says was forced to a new storage unit: ':0' before it */
static size_t fa_print__force(int depth, const char *type, u8 prefix, FILE *fp)
{
	size_t printed = fprintf(fp, "%.*s/* Force alignment to the next boundary: */\n", depth,
				 pahole_tabs);

	return printed + fprintf(fp, "%.*s%.*s%-*s :0;\n\n", depth, pahole_tabs, prefix, type,
				 abs(pahole__type_width(depth) - prefix), type + prefix);
}

/* Before a member: the blank line after notes */
static size_t fa_print__before(struct fa_print_state *ps, FILE *fp)
{
	size_t printed = ps->newline ? fprintf(fp, "\n") : 0;

	ps->newline = false;
	return printed;
}

/*
 * The end of a block: pahole pads by the length of the name and member
 * attribute (@name_len, -1 without a name), not of the type's attributes.
 */
static size_t pahole__end(FILE *fp, int depth, const char *text, int name_len)
{
	int pad = pahole__type_width(depth) + 23 - 3 - name_len;

	return fprintf(fp, "%.*s}%s;%*s", depth, pahole_tabs, text, pad ? abs(pad) : 1, "");
}

/* The blocks being printed: unions, and the cacheline announced where each began */
struct fa_blocks {
	u32	line[PAHOLE_MAX_DEPTH];
	bool	is_union[PAHOLE_MAX_DEPTH];
	int	nr;
};

static size_t fa_print__nest_end(const struct fa_member *m,
				 const struct fa_nest *n, int depth, FILE *fp)
{
	char end[256], attr[64] = "";
	int len;

	if (n->depth)
		return pahole__end(fp, depth, n->name, n->name_len);
	/* the outermost: the member's name and attribute, which the layout gives */
	if (m->aligned)
		scnprintf(attr, sizeof(attr), " __attribute__((__aligned__(%u)))", m->aligned);
	/* the outermost end's own length counts a packed type's attribute only */
	len = (m->f->anon ? -1 : (int)strlen(m->f->name)) + (int)strlen(attr) + n->name_len + 1;
	scnprintf(end, sizeof(end), "%s%s%s%s", n->name, m->f->anon ? "" : " ",
		  m->f->anon ? "" : m->f->name, attr);
	return pahole__end(fp, depth, end, len);
}

/*
 * A line of an anonymous member whose own start and end are at depth 0.
 * Cachelines are announced inside its blocks too; each member of a union,
 * and the union as a whole, takes the count back to where the union began.
 */
static size_t fa_print__nest_line(struct fa_print_state *ps, struct fa_blocks *b,
				  const struct fa_member *m, const struct fa_nest *n, FILE *fp)
{
	int depth = min(1 + n->depth, PAHOLE_MAX_DEPTH);
	u32 offset = m->offset + n->offset;
	size_t printed = 0;
	char name[256];

	switch (n->kind) {
	case FA_NEST_START:
		if (n->depth) {
			printed += fa_print__before(ps, fp);
			printed += fa_print__line(ps, offset, depth, fp);
		}
		if (b->nr < PAHOLE_MAX_DEPTH) {
			b->line[b->nr] = ps->line;
			b->is_union[b->nr++] = !strcmp(n->type, "union");
		}
		return printed + fprintf(fp, "%.*s%s {\n", depth, pahole_tabs, n->type);
	case FA_NEST_MEMBER:
		printed += fa_print__before(ps, fp);
		if (n->force)
			printed += fa_print__force(depth, n->type, n->prefix, fp);
		printed += fa_print__line(ps, offset, depth, fp);
		scnprintf(name, sizeof(name), "%s;", n->name);
		printed += pahole__decl(fp, depth, n->type, n->prefix, name);
		printed += pahole__offset(fp, offset, n->size, n->bit_size, n->bit_offset);
		break;
	case FA_NEST_END:
	default:
		/* no blank line between a block's last note and its end */
		ps->newline = false;
		if (b->nr && b->is_union[--b->nr])
			ps->line = b->line[b->nr];
		printed += fa_print__nest_end(m, n, depth, fp);
		printed += pahole__offset(fp, offset, n->depth ? n->size : m->f->size, 0, 0);
		break;
	}
	if (n->in_union && b->nr)
		ps->line = b->line[b->nr - 1];
	else if (n->depth)
		printed += fa_print__notes(ps, depth, n->padding, n->bit_hole, n->hole, fp);
	return printed;
}

/* An anonymous struct or union member, expanded as pahole expands it */
static size_t fa_print__nest(struct fa_print_state *ps, const struct fa_member *m, FILE *fp)
{
	struct fa_blocks b = { .nr = 0, };
	size_t printed = 0;

	for (int i = 0; i < m->f->nr_nest; i++)
		printed += fa_print__nest_line(ps, &b, m, &m->f->nest[i], fp);
	return printed;
}

/* The holes before a top-level member, for the summary */
static void fa_print__count_holes(struct fa_print_state *ps, const struct fa_layout_walk *w,
				  const struct fa_member *m)
{
	if (w->bit_hole) {
		ps->bit_holes++;
		ps->sum_bit_holes += w->bit_hole;
	}
	if (!w->hole)
		return;
	ps->holes++;
	ps->sum_holes += w->hole;
	if (m->f->forced_align || m->aligned) {
		ps->forced_holes++;
		ps->sum_forced_holes += w->hole;
	}
}

/*
 * Before a top-level member: the notes on what follows the previous one
 * (as inside a block), a bitfield forced to a new unit, a cacheline marker.
 */
static size_t fa_print__gap(struct fa_print_state *ps, const struct fa_layout_walk *w,
			    const struct fa_member *m, FILE *fp)
{
	size_t printed = fa_print__notes(ps, 1, ps->padding, w->bit_hole, w->hole, fp);

	ps->padding = 0;
	fa_print__count_holes(ps, w, m);
	if (!ps->newline && w->combined)
		printed += fa_print__note(ps, 1, fp, "/* Bitfield combined with previous fields */");
	printed += fa_print__before(ps, fp);
	/* a bitfield in a new storage unit although the last had bits left */
	if (w->bit_hole && m->f->kind == FA_FIELD_BITFIELD)
		printed += fa_print__force(1, m->f->type, m->f->type_prefix, fp);
	return printed + fa_print__line(ps, m->offset, 1, fp);
}

static size_t fa_member__fprintf(struct fa_print_state *ps, const struct fa_layout_walk *w,
				 const struct fa_member *m, FILE *fp)
{
	const struct fa_field *f = m->f;
	size_t printed = fa_print__gap(ps, w, m, fp);

	if (f->nest) {
		printed += fa_print__nest(ps, m, fp);
		ps->newline = false;
	} else {
		printed += fa_member__fprintf_decl(m, fp);
		printed += pahole__offset(fp, m->offset, f->size,
					  f->kind == FA_FIELD_BITFIELD ? f->bit_size : 0, f->bit_offset);
	}
	if (f->kind == FA_FIELD_BITFIELD)
		ps->bit_members += f->bit_size;
	else
		ps->sum_members += f->size;
	if (f->type_padding && f->kind != FA_FIELD_BITFIELD) {
		ps->padding = f->type_padding;
		ps->paddings++;
		ps->sum_paddings += f->type_padding;
	}
	if (f->forced_align || m->aligned)
		ps->forced++;
	ps->members++;
	return printed;
}

static size_t fa_print__summary(struct fa_print_state *ps, struct fa_layout_walk *w,
				const struct fa_layout *l, FILE *fp)
{
	u32 lines = DIV_ROUND_UP(l->size, l->line_size), bit_padding, last;
	size_t printed = 0;

	printed += fa_print__notes(ps, 1, ps->padding, 0, 0, fp);
	/* the bits a last bitfield leaves are the struct's bit padding, no hole */
	bit_padding = fa_layout_walk__end_bits(w);

	printed += fprintf(fp, "\n\t/* size: %u, cachelines: %u, members: %u */\n", l->size, lines,
			   ps->members);
	/* the sums, when there are holes to add up to the size with */
	if (ps->holes || ps->bit_holes) {
		printed += fprintf(fp, "\t/* sum members: %u", ps->sum_members);
		if (ps->holes)
			printed += fprintf(fp, ", holes: %u, sum holes: %u", ps->holes,
					   ps->sum_holes);
		printed += fprintf(fp, " */\n");
	}
	if (ps->bit_holes)
		printed += fprintf(fp, "\t/* sum bitfield members: %u bits, bit holes: %u, sum bit holes: %u bits */\n",
				   ps->bit_members, ps->bit_holes, ps->sum_bit_holes);
	else if (ps->holes && ps->bit_members)
		printed += fprintf(fp, "\t/* sum bitfield members: %u bits (%u bytes) */\n",
				   ps->bit_members, ps->bit_members / 8);
	if (l->size > w->end)
		printed += fprintf(fp, "\t/* padding: %u */\n", l->size - w->end);
	if (ps->paddings)
		printed += fprintf(fp, "\t/* paddings: %u, sum paddings: %u */\n", ps->paddings,
				   ps->sum_paddings);
	if (bit_padding)
		printed += fprintf(fp, "\t/* bit_padding: %u bits */\n", bit_padding);
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

/* Whether the member at @offset is on one of @lines (NULL: all) */
static bool fa_print__shown(const bool *lines, u32 offset, u32 line_size)
{
	return !lines || lines[offset / line_size];
}

/**
 * fa_layout__fprintf_lines - Print @st laid out as @l, in pahole's format,
 * but only the members that start on the cache lines @lines marks
 * @lines: By cache line, or NULL for all; @sink takes the others
 * @sink: Where what is not shown goes: the sums must count it
 *
 * Return: the number of characters printed to @fp.
 */
size_t fa_layout__fprintf_lines(const struct fa_layout *l, const struct fa_struct *st,
				const bool *lines, FILE *sink, FILE *fp)
{
	struct fa_print_state ps = { .line = 0, .line_size = l->line_size, };
	/* a typedef of an anonymous struct opens and closes as its C does, a class as C++ */
	bool typedef_anon = st->c_open && strstarts(st->c_open, "typedef ");
	bool is_cxx = st->c_open && st->cxx;
	size_t printed = typedef_anon || is_cxx ? fprintf(fp, "%s\n", st->c_open) :
						 fprintf(fp, "%s {\n", st->name);
	struct fa_layout_walk w;
	bool skipped = false;

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
		bool shown = fa_print__shown(lines, w.offset, l->line_size);
		size_t n;

		if (shown && skipped)
			printed += fprintf(fp, "\n\t/* ... */\n\n");
		skipped = !shown;
		n = fa_member__fprintf(&ps, &w, &m, shown ? fp : sink);
		printed += shown ? n : 0;
	}
	if (skipped)
		printed += fprintf(fp, "\n\t/* ... */\n");
	printed += fa_print__summary(&ps, &w, l, fp);
	printed += fprintf(fp, "}");
	if (st->packed)
		printed += fprintf(fp, " __attribute__((__packed__))");
	else if (l->align > fa_struct__natural_align(st) ||
		 (st->forced_align && l->align == st->align))
		printed += fprintf(fp, " __attribute__((__aligned__(%u)))", l->align);
	return printed + fprintf(fp, "%s%s;\n", typedef_anon ? " " : "",
				 typedef_anon ? st->name : "");
}

/**
 * fa_layout__fprintf - Print @st laid out as @l, in pahole's format
 *
 * Return: the number of characters printed.
 */
size_t fa_layout__fprintf(const struct fa_layout *l, const struct fa_struct *st, FILE *fp)
{
	return fa_layout__fprintf_lines(l, st, NULL, fp, fp);
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

/* @decl without a leading alignas(...), which the layout replaces */
static const char *fa_cxx_decl__unaligned(const char *decl)
{
	int depth = 0;

	if (!strstarts(decl, "alignas("))
		return decl;
	for (const char *p = decl + strlen("alignas"); *p; p++) {
		depth += *p == '(';
		depth -= *p == ')';
		if (!depth)
			return skip_spaces(p + 1);
	}
	return decl;
}

/* Whether the layout aligns a member: the class is then aligned as much */
static bool fa_layout__aligns_member(const struct fa_layout *l, const struct fa_struct *st)
{
	for (int u = 0; u < l->nr_units; u++) {
		if (l->line_start[u] || st->fields[st->units[u].field].forced_align)
			return true;
	}
	return false;
}

/*
 * alignas(@align) as the source would write it: a cache line as the name it
 * gives std::hardware_destructive_interference_size (64 on x86 with gcc and
 * clang), the number otherwise
 */
static int fa_cxx_align__scnprintf(char *buf, size_t size, u32 align, const struct fa_layout *l,
				   const struct fa_struct *st)
{
	if (st->cxx_line_name && align == l->line_size && l->line_size == 64)
		return scnprintf(buf, size, "alignas(%s)", st->cxx_line_name);
	return scnprintf(buf, size, "alignas(%u)", align);
}

/*
 * fa_layout__fprintf_cxx - fa_layout__fprintf_c() of a C++ class: its data
 * members in the layout's order, each declared as its source does (the
 * type as the code spells it, its default initializer) where the source is
 * at hand, with alignas(); an access specifier where the access changes.
 * Its bases, methods and friends are not in it: the members go in place
 * of the class's own.
 */
static size_t fa_layout__fprintf_cxx(const struct fa_layout *l, const struct fa_struct *st,
				     const struct fa_classes *c, FILE *fp)
{
	const char *head = st->cxx_open ?: st->c_open ?: st->name;
	const char *last = strrchr(head, '\n') ? strrchr(head, '\n') + 1 : head;
	size_t kw = last - head + strcspn(last, " "), printed;
	bool class_align = l->align >= l->line_size && !fa_layout__aligns_member(l, st);
	const char *brace = st->c_open && !st->cxx_open ? "" : " {";
	char as[128];
	struct fa_layout_walk w;
	int line = -1, access = 0;

	/* 'class alignas(64) Name {', after a template's header */
	fa_cxx_align__scnprintf(as, sizeof(as), l->align, l, st);
	printed = class_align ?
		  fprintf(fp, "%.*s %s%s%s\n", (int)kw, head, as, head + kw, brace) :
		  fprintf(fp, "%s%s\n", head, brace);
	printed += fprintf(fp, "\t/* the data members, in this order, in place of the class's own: its bases, methods and friends stay; new gives an over-aligned class storage so aligned since C++17 */\n");
	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		const struct fa_field *f = &st->fields[w.field];
		int u = w.unit;
		bool aligned = w.first && (l->line_start[u] || f->forced_align);
		u32 align = l->line_start[u] && f->align <= l->line_size ? l->line_size : f->align;

		/* a base is the head's, where the compiler puts it */
		if (f->base)
			continue;

		if (w.first && (int)(l->offset[u] / l->line_size) != line) {
			printed += fa_layout__fprintf_line(l, st, c, line,
							   l->offset[u] / l->line_size, false, fp);
			line = l->offset[u] / l->line_size;
		}
		if (f->access && f->access != access) {
			printed += fprintf(fp, "%s:\n", fa_member_access__name(f->access));
			access = f->access;
		}
		/* the source's declaration keeps its own alignas but where a line starts */
		fa_cxx_align__scnprintf(as, sizeof(as), align, l, st);
		if (f->cxx_decl && l->line_start[u] && w.first) {
			printed += fprintf(fp, "\t%s %s", as, fa_cxx_decl__unaligned(f->cxx_decl));
		} else if (f->cxx_decl) {
			printed += fprintf(fp, "\t%s", f->cxx_decl);
		} else {
			printed += aligned ? fprintf(fp, "\t%s", as) : 0;
			printed += fa_field__fprintf_c(f, fp);
		}
		printed += fprintf(fp, ";\t/* %s%s */\n",
				   fa_class__name(c ? c->units[u].cls : FA_CLASS_COLD),
				   f->cxx_decl ? "" : ", as DWARF names its type");
	}
	return printed + fprintf(fp, "};\n");
}

/*
 * randstruct shuffles a struct of function pointers only without being asked
 * (__randomize_layout): a layout chosen for one must say so to stay
 */
static bool fa_struct__pure_ops(const struct fa_struct *st)
{
	int n = 0;

	for (int i = 0; i < st->nr_fields; i++) {
		const struct fa_field *f = &st->fields[i];

		if (f->depth)
			continue;
		if (!f->funcptr || f->kind != FA_FIELD_SCALAR)
			return false;
		n++;
	}
	return n > 0;
}

/**
 * fa_layout__fprintf_c - Print @st laid out as @l as a C definition, each
 * cache line headed by what its fields are
 * @kernel: A kernel type: the kernel's macros; each cache line of a struct
 *          of several is a group (__cacheline_group_begin/end), followed by
 *          a function of CACHELINE_ASSERT_GROUP_MEMBER() for every member,
 *          so that the kernel's build guards the layout; a struct of
 *          function pointers says __no_randomize_layout (randstruct would
 *          shuffle it)
 */
size_t fa_layout__fprintf_c(const struct fa_layout *l, const struct fa_struct *st,
			    const struct fa_classes *c, bool kernel, FILE *fp)
{
	bool groups = kernel && l->size > l->line_size;
	const char *open = st->c_open;
	size_t printed;
	struct fa_layout_walk w;
	char attr[64] = "";
	int line = -1;

	if (st->cxx)
		return fa_layout__fprintf_cxx(l, st, c, fp);
	if (open && strstarts(open, "typedef "))
		open += strlen("typedef ");
	printed = fprintf(fp, "%s%s%s\n", st->c_typedef ? "typedef " : "", open ?: st->name,
			  open ? "" : " {");
	fa_layout_walk__init(&w, l, st);
	while (fa_layout_walk__next(&w)) {
		const struct fa_field *f = &st->fields[w.field];
		int u = w.unit;
		bool aligned = w.first && (l->line_start[u] || f->forced_align);

		/* a base is the head's, where the compiler puts it */
		if (f->base)
			continue;

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
	printed += fprintf(fp, "}%s%s%s%s;\n", attr,
			   kernel && fa_struct__pure_ops(st) ? " __no_randomize_layout" : "",
			   st->c_typedef ? " " : "", st->c_typedef ?: "");
	if (groups)
		printed += fa_layout__fprintf_groups_check(l, st, c, fp);
	return printed;
}
