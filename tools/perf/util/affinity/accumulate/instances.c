// SPDX-License-Identifier: GPL-2.0
/* The instances of the attributed struct types, by address (see instances.h). */
#include <errno.h>
#include <linux/kernel.h>
#include "instances.h"
#include "../decode/key.h"

#define FA_LINE_SHIFT	6
#define FA_LINE_WAYS	2	/* instances remembered per line: an embedded one and its parent */

/* An instance: @type of @size bytes at @base in address space @space */
struct fa_inst_ref {
	u64		 base;
	const void	*type;
	u32		 size;
	u32		 space;
};

/* The instances on one cache line of one address space, the newest first */
struct fa_inst_line {
	u64			key;
	struct fa_inst_ref	refs[FA_LINE_WAYS];
};

static u64 fa_inst_line__key(u32 space, u64 line)
{
	return line ^ ((u64)space * 0x9E3779B97F4A7C15ULL);
}

int fa_inst_map__init(struct fa_inst_map *m)
{
	*m = (struct fa_inst_map){ .max_size = 0, };
	return fa_keymap__init(&m->lines);
}

void fa_inst_map__exit(struct fa_inst_map *m)
{
	fa_keymap__free_values(&m->lines);
}

static void fa_inst_line__add(struct fa_inst_line *l, const struct fa_inst_ref *ref)
{
	if (l->refs[0].type == ref->type && l->refs[0].base == ref->base &&
	    l->refs[0].space == ref->space)
		return;
	l->refs[1] = l->refs[0];
	l->refs[0] = *ref;
}

/**
 * fa_inst_map__add - An instance of @type identified by an access, when
 * first seen
 * @space: Its address space (the process, 0 for the kernel)
 * @base: Its address
 * @size: Its size
 * @type: Its type, what fa_inst_map__find() gives back
 */
void fa_inst_map__add(struct fa_inst_map *m, u32 space, u64 base, u32 size, const void *type)
{
	struct fa_inst_ref ref = { .base = base, .type = type, .size = size, .space = space, };
	u64 first = base >> FA_LINE_SHIFT, last = (base + (size ?: 1) - 1) >> FA_LINE_SHIFT;

	m->max_size = max(m->max_size, size);
	if (fa_keymap__size(&m->lines) + (last - first + 1) > FA_INST_MAP_MAX) {
		m->dropped++;
		return;
	}
	for (u64 line = first; line <= last; line++) {
		struct fa_inst_line *l = fa_keymap__findnew(&m->lines,
							   fa_inst_line__key(space, line),
							   sizeof(*l));

		if (!l) {
			m->dropped++;
			return;
		}
		fa_inst_line__add(l, &ref);
	}
}

/* The innermost instance at @addr, or the outermost not of type @skip */
static const struct fa_inst_ref *fa_inst_map__lookup(struct fa_inst_map *m, u32 space,
						     u64 addr, bool outermost, const void *skip)
{
	u64 key = fa_inst_line__key(space, addr >> FA_LINE_SHIFT);
	const struct fa_inst_ref *best = NULL;
	struct fa_inst_line *l;

	l = fa_keymap__find(&m->lines, key);
	if (!l)
		return NULL;
	for (int i = 0; i < FA_LINE_WAYS; i++) {
		const struct fa_inst_ref *r = &l->refs[i];

		if (r->type && r->type != skip && r->space == space && addr >= r->base &&
		    addr - r->base < r->size &&
		    (!best || (outermost ? r->size > best->size : r->size < best->size)))
			best = r;
	}
	return best;
}

/**
 * fa_inst_map__find - The instance @addr is in, the innermost if several
 * @m: The map
 * @space: The address space (a process, or the kernel)
 * @addr: A data address
 * @base: Set to the instance's base
 *
 * Return: the instance's type, NULL if none is known there.
 */
const void *fa_inst_map__find(struct fa_inst_map *m, u32 space, u64 addr, u64 *base)
{
	const struct fa_inst_ref *r = fa_inst_map__lookup(m, space, addr, false, NULL);

	if (!r)
		return NULL;
	*base = r->base;
	return r->type;
}

/**
 * fa_inst_map__find_outer - The instance @addr is in, the outermost if several
 * @skip: A type not to give back: the embedded struct's own (a C++ class
 *        can hold one of its size)
 * @size: Set to the instance's size
 *
 * As fa_inst_map__find(), for the instance a struct embedded at @addr is in.
 */
const void *fa_inst_map__find_outer(struct fa_inst_map *m, u32 space, u64 addr,
				    const void *skip, u64 *base, u32 *size)
{
	const struct fa_inst_ref *r = fa_inst_map__lookup(m, space, addr, true, skip);

	if (!r)
		return NULL;
	*base = r->base;
	*size = r->size;
	return r->type;
}
