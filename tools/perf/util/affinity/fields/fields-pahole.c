// SPDX-License-Identifier: GPL-2.0
/*
 * Members as pahole prints them: the names it gives qualified and pointer
 * types ("const struct cred  *"), the tail padding it notes after a member
 * of a struct type, and anonymous structs and unions expanded into their
 * members, with the holes and notes of their blocks, so that the layouts
 * perf affinity prints read as 'pahole -C' output does.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "fields.h"
#include "fields-int.h"
#include "../../dwarf-aux.h"

static const char *fa_die__keyword(int tag)
{
	switch (tag) {
	case DW_TAG_union_type:
		return "union";
	case DW_TAG_enumeration_type:
		return "enum";
	case DW_TAG_class_type:
		return "class";
	default:
		return "struct";
	}
}

static void fa_pahole__name(Dwarf_Die *type, struct strbuf *sb, int depth);

/* "(const char  *, int)": a prototype's parameters, by pahole's names */
static void fa_pahole__params(Dwarf_Die *func, struct strbuf *sb, int depth)
{
	Dwarf_Die child, ptype;
	Dwarf_Attribute attr;
	bool first = true;

	strbuf_addch(sb, '(');
	if (dwarf_child(func, &child) == 0) {
		do {
			int tag = dwarf_tag(&child);

			if (tag != DW_TAG_formal_parameter && tag != DW_TAG_unspecified_parameters)
				continue;
			strbuf_addstr(sb, first ? "" : ", ");
			first = false;
			if (tag == DW_TAG_unspecified_parameters)
				strbuf_addstr(sb, "...");
			else if (fa_die__type(&child, &ptype))
				fa_pahole__name(&ptype, sb, depth + 1);
			else
				strbuf_addstr(sb, "void");
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (first && dwarf_attr(func, DW_AT_prototyped, &attr))
		strbuf_addstr(sb, "void");
	strbuf_addch(sb, ')');
}

/* The return type of a function type, by pahole's name */
static void fa_pahole__return(Dwarf_Die *func, struct strbuf *sb, int depth)
{
	Dwarf_Die ret;

	if (fa_die__type(func, &ret))
		fa_pahole__name(&ret, sb, depth + 1);
	else
		strbuf_addstr(sb, "void");
}

/* A qualifier as pahole prints it, and C11's _Atomic as pahole 1.25 does */
static const char *fa_pahole__qualifier(int tag)
{
	return tag == DW_TAG_const_type ? "const " : tag == DW_TAG_volatile_type ? "volatile " :
	       "_Atomic ";
}

/*
 * pahole's name of @type: a qualified type's ends in a space ("const char "),
 * so that a pointer to it reads "const char  *"; a pointer to a pointer is
 * "char * *"; an array's is its element's.
 */
static void fa_pahole__name(Dwarf_Die *type, struct strbuf *sb, int depth)
{
	const char *name = dwarf_diename(type);
	int tag = dwarf_tag(type);
	Dwarf_Die inner, target;

	if (depth > 16) {
		strbuf_addstr(sb, "?");
		return;
	}
	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		strbuf_addf(sb, "%s %s", fa_die__keyword(tag), name ?: "");
		break;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_atomic_type:
		strbuf_addstr(sb, fa_pahole__qualifier(tag));
		if (fa_die__type(type, &inner))
			fa_pahole__name(&inner, sb, depth + 1);
		else
			strbuf_addstr(sb, "void");
		strbuf_addch(sb, ' ');
		break;
	case DW_TAG_restrict_type:
		if (fa_die__type(type, &inner))
			fa_pahole__name(&inner, sb, depth + 1);
		strbuf_addstr(sb, " restrict ");
		break;
	case DW_TAG_pointer_type:
		if (!fa_die__type(type, &inner)) {
			strbuf_addstr(sb, "void *");
		} else if (dwarf_tag(&inner) == DW_TAG_const_type && fa_die__type(&inner, &target) &&
			   dwarf_tag(&target) == DW_TAG_pointer_type) {
			fa_pahole__name(&target, sb, depth + 1);
			strbuf_addstr(sb, " const *");
		} else if (dwarf_tag(&inner) == DW_TAG_subroutine_type) {
			fa_pahole__return(&inner, sb, depth);
			strbuf_addstr(sb, " (*)");
			fa_pahole__params(&inner, sb, depth);
		} else {
			fa_pahole__name(&inner, sb, depth + 1);
			strbuf_addstr(sb, " *");
		}
		break;
	case DW_TAG_array_type:
		if (fa_die__type(type, &inner))
			fa_pahole__name(&inner, sb, depth + 1);
		break;
	default:	/* base types, typedefs */
		strbuf_addstr(sb, name ?: "?");
		break;
	}
}

/**
 * fa_pahole__member_type - A member's type as pahole prints it
 * @pre: Gets what goes before the name ("const struct cred  *")
 * @post: Gets what goes after it ("[16]", ")(int)" of a function pointer)
 * @funcptr: Set for a function pointer, printed "(*name)"
 * @prefix: Set to the bytes of @pre pahole pads apart: each "const " the
 *          member itself has, and "struct " of a struct; the rest is padded
 *          to the type column less those
 */
void fa_pahole__member_type(Dwarf_Die *type, struct strbuf *pre, struct strbuf *post,
			    bool *funcptr, u8 *prefix)
{
	Dwarf_Die cur = *type, inner;

	*prefix = 0;
	for (int i = 0; i < 8 && (dwarf_tag(&cur) == DW_TAG_const_type ||
				  dwarf_tag(&cur) == DW_TAG_atomic_type); i++) {
		const char *qual = fa_pahole__qualifier(dwarf_tag(&cur));

		strbuf_addstr(pre, qual);
		*prefix += strlen(qual);
		if (!fa_die__type(&cur, &inner)) {
			strbuf_addstr(pre, "void");
			return;
		}
		cur = inner;
	}
	switch (dwarf_tag(&cur)) {
	case DW_TAG_pointer_type:
		if (fa_die__type(&cur, &inner) && dwarf_tag(&inner) == DW_TAG_subroutine_type) {
			fa_pahole__return(&inner, pre, 0);
			strbuf_addch(post, ')');
			fa_pahole__params(&inner, post, 0);
			*funcptr = true;
		} else {
			fa_pahole__name(&cur, pre, 0);
		}
		break;
	case DW_TAG_array_type:
		fa_die__array_dims(&cur, post);
		if (fa_die__type(&cur, &inner)) {
			u8 elem;

			fa_pahole__member_type(&inner, pre, post, funcptr, &elem);
			*prefix += elem;
		}
		break;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		strbuf_addf(pre, "%s ", fa_die__keyword(dwarf_tag(&cur)));
		*prefix += strlen(fa_die__keyword(dwarf_tag(&cur))) + 1;
		strbuf_addstr(pre, dwarf_diename(&cur) ?: "");
		break;
	default:
		fa_pahole__name(&cur, pre, 0);
		break;
	}
}

/* Where a member starts, as a storage unit for a bitfield */
static void fa_pahole__place(Dwarf_Die *member, Dwarf_Die *type, struct fa_field *f)
{
	Dwarf_Word loc = 0, size = 0;

	if (dwarf_aggregate_size(type, &size))
		size = 0;
	f->size = size;
	f->offset = 0;
	f->bit_size = 0;
	if (dwarf_hasattr(member, DW_AT_bit_size)) {
		fa_member__bits(member, size, f);
	} else {
		die_get_data_member_location(member, &loc);
		f->offset = loc;
	}
}

/**
 * fa_pahole__padding - The tail padding pahole notes after a member of @type
 *
 * Only a struct type, not a typedef of one nor an array: the bytes after
 * its last member (a bitfield's: after its storage unit) or C++ base
 * class (std::atomic<T>'s value is its base's member).  A class with
 * neither (std::allocator) has none, as pahole says.
 *
 * Return: the bytes, or 0.
 */
u32 fa_pahole__padding(Dwarf_Die *type)
{
	Dwarf_Word size = 0;
	Dwarf_Die child, mtype;
	u64 last_bit = 0;
	bool any = false;

	if ((dwarf_tag(type) != DW_TAG_structure_type && dwarf_tag(type) != DW_TAG_class_type) ||
	    dwarf_aggregate_size(type, &size) || dwarf_child(type, &child) != 0)
		return 0;
	do {
		struct fa_field f = { .offset = 0, };
		int tag = dwarf_tag(&child);

		if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
		    !fa_die__type(&child, &mtype) || dwarf_hasattr(&child, DW_AT_external))
			continue;
		fa_pahole__place(&child, &mtype, &f);
		last_bit = max(last_bit, min((u64)(f.offset + f.size) * 8, (u64)size * 8));
		any = true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return any && size > last_bit / 8 ? size - last_bit / 8 : 0;
}

/* The lines of an anonymous member, as they are made */
struct fa_nest_list {
	struct fa_nest	*v;
	int		 nr;
	int		 alloc;
};

static struct fa_nest *fa_nest_list__add(struct fa_nest_list *l, u8 kind, u8 depth)
{
	struct fa_nest *n;

	if (l->nr == l->alloc) {
		int alloc = l->alloc ? l->alloc * 2 : 16;

		n = realloc(l->v, alloc * sizeof(*n));
		if (!n)
			return NULL;
		l->v = n;
		l->alloc = alloc;
	}
	n = &l->v[l->nr++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->depth = depth;
	return n;
}

/* Where the members of a struct block are, for the holes between them */
struct fa_nest_holes {
	int	prev;		/* the line of the previous member, or -1 */
	u32	end;		/* where it ends (its storage unit's end) */
	u32	unit;		/* a bitfield: its storage unit */
	u32	unit_size;
	u32	bits;		/* bits of the unit used */
	bool	bitfield;
};

/* The hole or bits left after the previous member, now that @cur follows it */
static void fa_nest_holes__next(struct fa_nest_holes *h, struct fa_nest_list *l, int cur)
{
	struct fa_nest *n = &l->v[cur], *prev = h->prev >= 0 ? &l->v[h->prev] : NULL;
	bool bitfield = n->bit_size != 0;

	if (prev && bitfield && h->bitfield && n->offset == h->unit) {
		h->bits = n->bit_offset + n->bit_size;
		h->prev = cur;
		return;
	}
	if (prev && h->bitfield && h->unit_size * 8 > h->bits)
		prev->bit_hole = h->unit_size * 8 - h->bits;
	if (prev && n->offset > h->end)
		prev->hole = n->offset - h->end;
	n->force = prev && bitfield && h->bitfield && prev->bit_hole;
	h->prev = cur;
	h->bitfield = bitfield;
	h->unit = n->offset;
	h->unit_size = n->size;
	h->bits = n->bit_offset + n->bit_size;
	h->end = n->offset + n->size;
}

static int fa_pahole__block(struct fa_nest_list *l, Dwarf_Die *record, u32 base, int depth);

/*
 * The end of a block: '}', the type's attributes, the member's name and
 * its alignment; pahole pads after it by the name and member attribute only.
 */
static int fa_pahole__end(struct fa_nest *n, Dwarf_Die *member, Dwarf_Die *record)
{
	const char *name = member ? dwarf_diename(member) : NULL;
	u32 type_align = dwarf_tag(record) == DW_TAG_union_type ? 0 :
			 fa_die__explicit_align(record);
	u32 align = member ? fa_die__explicit_align(member) : 0;
	bool packed = dwarf_tag(record) != DW_TAG_union_type && fa_die__packed(record);
	struct strbuf sb, attr;

	strbuf_init(&sb, 64);
	strbuf_init(&attr, 0);
	if (align)
		strbuf_addf(&attr, " __attribute__((__aligned__(%u)))", align);
	strbuf_addf(&sb, "%s", packed ? " __attribute__((__packed__))" : "");
	if (type_align)
		strbuf_addf(&sb, " __attribute__((__aligned__(%u)))", type_align);
	if (name)
		strbuf_addf(&sb, " %s", name);
	strbuf_addstr(&sb, sb_str(&attr));
	n->name = strdup(sb_str(&sb));
	n->name_len = (name ? (int)strlen(name) : -1) + (int)attr.len + (packed ? 28 : 0);
	strbuf_release(&sb);
	strbuf_release(&attr);
	return n->name ? 0 : -ENOMEM;
}

/* A member of a block: a line, or a block of its own if its type is anonymous */
static int fa_pahole__member(struct fa_nest_list *l, Dwarf_Die *member, u32 base, int depth,
			     bool in_union)
{
	struct fa_field f = { .offset = 0, };
	const char *name = dwarf_diename(member);
	struct strbuf pre, post, text;
	Dwarf_Die type;
	struct fa_nest *n;
	u32 align;
	int err = -ENOMEM;

	if (!fa_die__type(member, &type))
		return 0;
	fa_pahole__place(member, &type, &f);
	if (fa_die__anon_record(&type) && depth < FA_MAX_DEPTH) {
		n = fa_nest_list__add(l, FA_NEST_START, depth);
		if (!n)
			return -ENOMEM;
		n->type = strdup(fa_die__keyword(dwarf_tag(&type)));
		n->offset = base + f.offset;
		n->in_union = in_union;
		err = n->type ? fa_pahole__block(l, &type, base + f.offset, depth + 1) : -ENOMEM;
		n = err ? NULL : fa_nest_list__add(l, FA_NEST_END, depth);
		if (!n)
			return err ?: -ENOMEM;
		n->offset = base + f.offset;
		n->size = f.size;
		n->in_union = in_union;
		n->padding = in_union ? 0 : fa_pahole__padding(&type);
		return fa_pahole__end(n, member, &type);
	}
	n = fa_nest_list__add(l, FA_NEST_MEMBER, depth);
	if (!n)
		return -ENOMEM;
	strbuf_init(&pre, 32);
	strbuf_init(&post, 8);
	strbuf_init(&text, 32);
	fa_pahole__member_type(&type, &pre, &post, &f.funcptr, &n->prefix);
	/* only the outermost struct's last member is "[]" */
	strbuf_addf(&text, "%s%s%s", f.funcptr ? "(*" : "", name ?: "",
		    strcmp(sb_str(&post), "[]") ? sb_str(&post) : "[0]");
	if (f.bit_size)
		strbuf_addf(&text, ":%u", f.bit_size);
	align = fa_die__explicit_align(member);
	if (align)
		strbuf_addf(&text, " __attribute__((__aligned__(%u)))", align);
	n->type = strdup(sb_str(&pre));
	n->name = strdup(sb_str(&text));
	n->offset = base + f.offset;
	n->size = f.size;
	n->bit_offset = f.bit_offset;
	n->bit_size = f.bit_size;
	n->in_union = in_union;
	n->padding = in_union ? 0 : fa_pahole__padding(&type);
	if (n->type && n->name)
		err = 0;
	strbuf_release(&pre);
	strbuf_release(&post);
	strbuf_release(&text);
	return err;
}

/* The members of @record at @base, lines of @depth, and the holes of a struct */
static int fa_pahole__block(struct fa_nest_list *l, Dwarf_Die *record, u32 base, int depth)
{
	struct fa_nest_holes h = { .prev = -1, .end = base, };
	bool is_union = dwarf_tag(record) == DW_TAG_union_type;
	Dwarf_Die child;
	int err = 0;

	if (dwarf_child(record, &child) != 0)
		return 0;
	do {
		int first = l->nr;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		err = fa_pahole__member(l, &child, base, depth, is_union);
		/* a block's holes are after its end line, where its size is */
		if (!err && !is_union && l->nr > first)
			fa_nest_holes__next(&h, l, l->nr - 1);
	} while (!err && dwarf_siblingof(&child, &child) == 0);
	return err;
}

/**
 * fa_pahole__nest - The lines of an anonymous struct or union member
 * @record: Its type
 * @nest: Set to the lines, offsets from the member's start; the outermost
 *        start and end are at depth 0, the end without the member's name
 * @nr: Set to their number
 *
 * Return: 0, or -ENOMEM.
 */
int fa_pahole__nest(Dwarf_Die *record, struct fa_nest **nest, int *nr)
{
	struct fa_nest_list l = { .v = NULL, };
	struct fa_nest *n = fa_nest_list__add(&l, FA_NEST_START, 0);
	int err = -ENOMEM;

	if (n)
		n->type = strdup(fa_die__keyword(dwarf_tag(record)));
	if (n && n->type)
		err = fa_pahole__block(&l, record, 0, 1);
	n = err ? NULL : fa_nest_list__add(&l, FA_NEST_END, 0);
	if (n)
		err = fa_pahole__end(n, NULL, record);
	if (err || !n) {
		fa_nest__delete(l.v, l.nr);
		return err ?: -ENOMEM;
	}
	*nest = l.v;
	*nr = l.nr;
	return 0;
}
