// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF types as C lays them out: records, alignment, packing, bitfields,
 * array bounds.  The reader of struct fields (fields-dwarf.c) and the
 * pahole printer (fields-pahole.c) both use them.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <linux/kernel.h>
#include "fields.h"
#include "fields-int.h"
#include "../../dwarf-aux.h"
#include "../../strbuf.h"

bool fa_die__is_record(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

bool fa_die__type(Dwarf_Die *die, Dwarf_Die *type)
{
	return die_get_type(die, type) != NULL;
}

u32 fa_die__explicit_align(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word align;

	if (dwarf_attr(die, DW_AT_alignment, &attr) && !dwarf_formudata(&attr, &align))
		return align;
	return 0;
}

/*
 * The alignment its members give a struct, and whether it is packed: a
 * member off its alignment, or a size that is not a multiple of it.  A
 * packed struct is aligned to 1, as a member of another.
 */
static u32 fa_die__record_layout(Dwarf_Die *type, int depth, bool *packed)
{
	Dwarf_Die child, mtype;
	u32 align = 1;
	int size;

	*packed = false;
	if (dwarf_child(type, &child) != 0)
		return 1;
	do {
		Dwarf_Word loc;
		u32 a;

		if (dwarf_tag(&child) != DW_TAG_member && dwarf_tag(&child) != DW_TAG_inheritance)
			continue;
		a = fa_die__explicit_align(&child);
		if (!a && fa_die__type(&child, &mtype))
			a = fa_die__align(&mtype, depth + 1);
		align = max(align, a);
		if (!dwarf_hasattr(&child, DW_AT_bit_size) &&
		    !die_get_data_member_location(&child, &loc) && a && loc % a)
			*packed = true;
	} while (dwarf_siblingof(&child, &child) == 0);
	size = dwarf_bytesize(type);
	if (size > 0 && size % align)
		*packed = true;
	return align;
}

static u32 fa_die__record_align(Dwarf_Die *type, int depth)
{
	bool packed;
	u32 align = fa_die__record_layout(type, depth, &packed);

	return packed ? 1 : align;
}

/* Natural alignment of a type (explicit alignments win). */
u32 fa_die__align(Dwarf_Die *type, int depth)
{
	u32 align = fa_die__explicit_align(type);
	Dwarf_Die inner;
	int size;

	if (align)
		return align;
	if (depth > 32)
		return 1;
	switch (dwarf_tag(type)) {
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
	case DW_TAG_array_type:
		return fa_die__type(type, &inner) ? fa_die__align(&inner, depth + 1) : 1;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		return fa_die__record_align(type, depth);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		size = dwarf_bytesize(type);
		return size > 0 ? min(size, 16) : 8;
	default:
		return 1;
	}
}

void fa_die__array_dims(Dwarf_Die *array, struct strbuf *post)
{
	Dwarf_Die child;

	if (dwarf_child(array, &child) != 0)
		return;
	do {
		Dwarf_Attribute attr;
		Dwarf_Word n;

		if (dwarf_tag(&child) != DW_TAG_subrange_type)
			continue;
		if (dwarf_attr(&child, DW_AT_count, &attr) && !dwarf_formudata(&attr, &n))
			strbuf_addf(post, "[%lu]", (unsigned long)n);
		else if (dwarf_attr(&child, DW_AT_upper_bound, &attr) &&
			 !dwarf_formudata(&attr, &n))
			strbuf_addf(post, "[%lu]", (unsigned long)n + 1);
		else
			strbuf_addstr(post, "[]");
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* A struct or union without a name, declared where it is used */
bool fa_die__anon_record(Dwarf_Die *type)
{
	return fa_die__is_record(dwarf_tag(type)) && !dwarf_diename(type);
}

/* Where a member's bits are: storage unit offset and bit offset in it. */
void fa_member__bits(Dwarf_Die *member, u32 storage, struct fa_field *f)
{
	Dwarf_Attribute attr;
	Dwarf_Word v, loc = 0;

	f->bit_size = dwarf_bitsize(member);
	if (dwarf_attr(member, DW_AT_data_bit_offset, &attr) && !dwarf_formudata(&attr, &v)) {
		u32 unit = storage ? v / (storage * 8) * storage : v / 8;

		f->offset += unit;
		f->bit_offset = v - unit * 8;
		return;
	}
	/* DWARF 2/3: storage unit location, bits counted from its top */
	die_get_data_member_location(member, &loc);
	f->offset += loc;
	if (dwarf_attr(member, DW_AT_bit_offset, &attr) && !dwarf_formudata(&attr, &v))
		f->bit_offset = storage * 8 - v - f->bit_size;
}

/* A struct is packed: see fa_die__record_layout() */
bool fa_die__packed(Dwarf_Die *type)
{
	bool packed;

	fa_die__record_layout(type, 0, &packed);
	return packed;
}
