// SPDX-License-Identifier: GPL-2.0
/*
 * Print a layout the way pahole prints a struct (dwarves_fprintf.c), so
 * that kernel developers read and grep it as they are used to, and as a C
 * definition to paste.
 */
#include <stdio.h>
#include <string.h>
#include <linux/kernel.h>
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
	u32	end;		/* end of the last member */
	u32	line;		/* last cacheline announced */
	u32	members, sum_members, holes, sum_holes;
	u32	bit_members, bit_holes, sum_bit_holes;
	u32	forced, forced_holes, sum_forced_holes;
	u32	bit_end;	/* bits used in the current bitfield storage unit */
	int	bit_unit_offset;	/* offset of that storage unit, -1 if none */
	u32	bit_unit_size;
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

/* The unused bits of the bitfield storage unit that ends, if any. */
static int fa_print__bit_unit_end(struct fa_print_state *ps, char *buf, size_t size)
{
	u32 bits = ps->bit_unit_size * 8, unused = bits - min(ps->bit_end, bits);
	int n = 0;

	if (ps->bit_unit_offset >= 0 && unused) {
		n = scnprintf(buf, size, "\t/* XXX %u bit%s hole, try to pack */\n", unused,
			      unused == 1 ? "" : "s");
		ps->bit_holes++;
		ps->sum_bit_holes += unused;
	}
	ps->bit_unit_offset = -1;
	ps->bit_end = 0;
	return n;
}

/* Holes before a member (a block of them, as pahole prints), cacheline markers. */
static size_t fa_print__gap(struct fa_print_state *ps, const struct fa_member *m,
			    u32 line_size, FILE *fp)
{
	const struct fa_field *f = m->f;
	bool same_unit = f->kind == FA_FIELD_BITFIELD && ps->bit_unit_offset == (int)m->offset &&
			 ps->bit_unit_size == f->size;
	size_t printed = 0;
	char holes[160];
	int n = 0;

	if (!same_unit) {
		n = fa_print__bit_unit_end(ps, holes, sizeof(holes));
		if (m->offset > ps->end) {
			u32 hole = m->offset - ps->end;

			n += scnprintf(holes + n, sizeof(holes) - n,
				       "\t/* XXX %u byte%s hole, try to pack */\n", hole,
				       hole == 1 ? "" : "s");
			ps->holes++;
			ps->sum_holes += hole;
			if (f->forced_align || m->aligned) {
				ps->forced_holes++;
				ps->sum_forced_holes += hole;
			}
		}
	}
	if (n)
		printed += fprintf(fp, "\n%s\n", holes);
	else if (!same_unit && f->kind == FA_FIELD_BITFIELD && m->offset < ps->end)
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

static size_t fa_member__fprintf(struct fa_print_state *ps, const struct fa_member *m,
				 u32 line_size, FILE *fp)
{
	const struct fa_field *f = m->f;
	size_t printed = fa_print__gap(ps, m, line_size, fp);

	printed += fa_member__fprintf_decl(m, fp);
	if (f->kind == FA_FIELD_BITFIELD) {
		printed += fprintf(fp, "/* %5u:%2u %2u */\n", m->offset, f->bit_offset, f->size);
		ps->bit_unit_offset = m->offset;
		ps->bit_unit_size = f->size;
		ps->bit_end = max(ps->bit_end, (u32)f->bit_offset + f->bit_size);
		ps->bit_members += f->bit_size;
		/* the storage unit is taken whole; its unused bits are a bit hole */
		ps->end = max(ps->end, m->offset + f->size);
	} else {
		printed += fprintf(fp, "/* %5u %5u */\n", m->offset, f->size);
		ps->sum_members += f->size;
		ps->end = max(ps->end, m->offset + f->size);
	}
	if (f->forced_align || m->aligned)
		ps->forced++;
	ps->members++;
	return printed;
}

static size_t fa_print__summary(struct fa_print_state *ps, const struct fa_layout *l, FILE *fp)
{
	u32 lines = DIV_ROUND_UP(l->size, l->line_size);
	size_t printed = 0;
	u32 last;
	char holes[80];

	if (fa_print__bit_unit_end(ps, holes, sizeof(holes)))
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
	if (l->size > ps->end)
		printed += fprintf(fp, "\t/* padding: %u */\n", l->size - ps->end);
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
	struct fa_print_state ps = { .bit_unit_offset = -1, };
	size_t printed = fprintf(fp, "%s {\n", st->name);

	for (int k = 0; k < l->nr_units; k++) {
		int u = l->order[k];
		const struct fa_unit *unit = &st->units[u];

		for (int i = 0; i < unit->nr_fields; i++) {
			const struct fa_field *f = &st->fields[unit->field + i];
			struct fa_member m = {
				.f = f,
				.offset = l->offset[u] + f->offset - unit->offset,
				/* a line started for isolation shows as aligned to the line */
				.aligned = i ? 0 : l->line_start[u] ? max(l->line_size, f->align) :
					   f->forced_align ? f->align : 0,
			};

			printed += fa_member__fprintf(&ps, &m, l->line_size, fp);
		}
	}
	printed += fa_print__summary(&ps, l, fp);
	if (l->align > fa_struct__natural_align(st))
		printed += fprintf(fp, "} __attribute__((__aligned__(%u)));\n", l->align);
	else
		printed += fprintf(fp, "};\n");
	return printed;
}

/**
 * fa_layout__fprintf_c - Print @st laid out as @l as a C definition, each
 * cache line headed by what its fields are
 */
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

size_t fa_layout__fprintf_c(const struct fa_layout *l, const struct fa_struct *st,
			    const struct fa_classes *c, bool kernel, FILE *fp)
{
	size_t printed = fprintf(fp, "%s {\n", st->name);
	char attr[64] = "";
	int line = -1;

	for (int k = 0; k < l->nr_units; k++) {
		int u = l->order[k];
		const struct fa_unit *unit = &st->units[u];

		if ((int)(l->offset[u] / l->line_size) != line) {
			line = l->offset[u] / l->line_size;
			printed += fprintf(fp, "%s\t/* cache line %d */\n", k ? "\n" : "", line);
		}
		for (int i = 0; i < unit->nr_fields; i++) {
			const struct fa_field *f = &st->fields[unit->field + i];
			bool aligned = i == 0 && (l->line_start[u] || f->forced_align);

			printed += fprintf(fp, "\t%s%s%s%s%s", f->type,
					   f->type[0] && f->type[strlen(f->type) - 1] == '*' ? "" : " ",
					   f->funcptr ? "(*" : "", f->name, f->suffix);
			if (f->kind == FA_FIELD_BITFIELD)
				printed += fprintf(fp, ":%u", f->bit_size);
			if (aligned) {
				u32 align = l->line_start[u] && f->align <= l->line_size ?
					    l->line_size : f->align;

				fa_align__scnprintf(attr, sizeof(attr), align, l->line_size,
						    kernel);
				printed += fprintf(fp, "%s", attr);
			}
			printed += fprintf(fp, ";\t/* %s */\n",
					   fa_class__name(c ? c->units[u].cls : FA_CLASS_COLD));
		}
	}
	attr[0] = '\0';
	if (l->align >= l->line_size)
		fa_align__scnprintf(attr, sizeof(attr), l->align, l->line_size, kernel);
	printed += fprintf(fp, "}%s;\n", attr);
	return printed;
}
