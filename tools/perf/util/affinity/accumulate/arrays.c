// SPDX-License-Identifier: GPL-2.0
/* Array variables of a scalar type and the accesses to their elements (see arrays.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "arrays.h"
#include "../fields/fields.h"

/*
 * A new array, taking @ai's strings; NULL if memory ran out (@ai's
 * strings freed)
 */
struct fa_array *fa_arrays__new(struct fa_arrays *as, struct fa_array_info *ai, bool tls,
				s64 start)
{
	struct fa_array **arrays = realloc(as->arrays, (as->nr + 1) * sizeof(*arrays));
	struct fa_array *arr = zalloc(sizeof(*arr));

	if (arrays)
		as->arrays = arrays;
	if (!arrays || !arr)
		goto out_free;
	arr->per_count = DIV_ROUND_UP(ai->nr_elems, FA_ARRAY_COUNTS);
	arr->nr_counts = DIV_ROUND_UP(ai->nr_elems, arr->per_count);
	arr->counts = calloc(arr->nr_counts, sizeof(*arr->counts));
	if (!arr->counts)
		goto out_free;
	arr->name = ai->name;
	arr->elem_type = ai->elem_type;
	arr->elem_size = ai->elem_size;
	arr->elem_align = ai->elem_align ?: 1;
	arr->nr_elems = ai->nr_elems;
	arr->tls = tls;
	arr->start = start;
	as->arrays[as->nr++] = arr;
	return arr;

out_free:
	free(arr);
	zfree(&ai->name);
	zfree(&ai->elem_type);
	return NULL;
}

void fa_arrays__exit(struct fa_arrays *as)
{
	for (int i = 0; i < as->nr; i++) {
		struct fa_array *arr = as->arrays[i];

		free(arr->name);
		free(arr->elem_type);
		free(arr->counts);
		free(arr);
	}
	zfree(&as->arrays);
	as->nr = 0;
}

/* A sampled access to element @index */
void fa_array__access(struct fa_array *arr, u32 index, u8 op)
{
	if (index >= arr->nr_elems)
		return;
	arr->accesses++;
	if (op & FA_OP_LOAD)
		arr->loads++;
	if (op & FA_OP_STORE)
		arr->stores++;
	arr->counts[index / arr->per_count]++;
}

/**
 * fa_array__access_bytes - A sampled access of @size bytes at @off into the
 * array: every element it touches, as a vector load of two 8-byte slots
 * reads both (0: the size is not known, the element at @off)
 *
 * Return: the first element, or -1 if @off is past the array.
 */
int fa_array__access_bytes(struct fa_array *arr, u32 off, u16 size, u8 op)
{
	u32 first = off / arr->elem_size, last = first;

	if (first >= arr->nr_elems)
		return -1;
	if (size > 1)
		last = min((u32)((off + size - 1) / arr->elem_size), arr->nr_elems - 1);
	for (u32 i = first; i <= last; i++)
		fa_array__access(arr, i, op);
	return first;
}

const struct fa_array_func *fa_array__find_func(const struct fa_array *arr, u32 func)
{
	for (int i = 0; i < arr->nr_funcs; i++) {
		if (arr->funcs[i].func == func)
			return &arr->funcs[i];
	}
	return NULL;
}

/* How much a function's accesses to an array weigh, before its samples are known */
static u64 fa_array_func__weight(const struct fa_array_func *f)
{
	return f->weight + f->accesses;
}

/*
 * Function @func accesses the array: its code indexes it by register @index
 * (FA_ARRAY_NO_INDEX: not known), @weight its samples; @sampled: one access
 * of it was sampled.  Past FA_ARRAY_FUNCS the lightest function makes room.
 */
void fa_array__func(struct fa_array *arr, u32 func, const char *sym, u64 weight, int index,
		    bool sampled)
{
	struct fa_array_func *f = (struct fa_array_func *)fa_array__find_func(arr, func);

	if (!f && arr->nr_funcs < FA_ARRAY_FUNCS) {
		f = &arr->funcs[arr->nr_funcs++];
	} else if (!f) {
		f = &arr->funcs[0];
		for (int i = 1; i < arr->nr_funcs; i++) {
			if (fa_array_func__weight(&arr->funcs[i]) < fa_array_func__weight(f))
				f = &arr->funcs[i];
		}
		if (fa_array_func__weight(f) >= weight + sampled)
			return;
	}
	if (f->func != func || !f->sym)
		*f = (struct fa_array_func){ .func = func, .sym = sym, .index = FA_ARRAY_NO_INDEX, };
	f->weight = max(f->weight, weight);
	if (index != FA_ARRAY_NO_INDEX)
		f->index = index;
	f->accesses += sampled;
}

/* Sampled accesses to element @index, or to the elements its counter counts */
u64 fa_array__count(const struct fa_array *arr, u32 index)
{
	return index < arr->nr_elems ? arr->counts[index / arr->per_count] : 0;
}

/* The cache line element @index is on: thread pointers and arrays start on lines */
s64 fa_array__line(const struct fa_array *arr, u32 index, u32 line_size)
{
	s64 addr = arr->start + (s64)index * arr->elem_size;

	/* floor: thread-local offsets are negative */
	return addr >= 0 ? addr / line_size : -((-addr + line_size - 1) / (s64)line_size);
}
