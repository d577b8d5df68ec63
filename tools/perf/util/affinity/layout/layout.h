/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A layout of a struct: an offset for every unit.  The recorded layout is
 * one; fa_layout__suggest() makes another from the clusters: hottest
 * clusters first, each in one cache line, lines shared only by units that
 * may share them, holes filled with cold units, cold units last.
 */
#ifndef __PERF_AFFINITY_LAYOUT_H
#define __PERF_AFFINITY_LAYOUT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

struct fa_classes;
struct fa_clusters;
struct fa_struct;

/**
 * struct fa_layout - Where the units of a struct are
 * @nr_units: Units of the struct
 * @offset: Offset of each unit
 * @order: Units by offset
 * @line_start: Units that start a cache line on purpose (isolation)
 * @size: Size of the struct
 * @align: Alignment of the struct
 * @line_size: Cache line size it is laid out for
 */
struct fa_layout {
	int	 nr_units;
	u32	*offset;
	int	*order;
	bool	*line_start;
	u32	 size;
	u32	 align;
	u32	 line_size;
};

int fa_layout__current(struct fa_layout *l, const struct fa_struct *st, u32 line_size);
int fa_layout__suggest(struct fa_layout *l, const struct fa_struct *st,
		       const struct fa_classes *c, const struct fa_clusters *cl, u32 line_size);
int fa_layout__from_groups(struct fa_layout *l, const struct fa_struct *st, const int *group,
			   int nr_groups, u32 line_size);
int fa_layout__from_offsets(struct fa_layout *l, const struct fa_struct *st, const u32 *offset,
			    u32 line_size);
int fa_layout__from_order(struct fa_layout *l, const struct fa_struct *st, const int *order,
			  const bool *line_start, u32 line_size);
void fa_layout__set_order(struct fa_layout *l, const struct fa_struct *st, const int *order,
			  const bool *line_start);
int fa_layout__copy(struct fa_layout *dst, const struct fa_layout *src);
void fa_layout__exit(struct fa_layout *l);
u32 fa_layout__field_offset(const struct fa_layout *l, const struct fa_struct *st, int field);
int fa_layout__line(const struct fa_layout *l, const struct fa_struct *st, int field);
bool fa_layout__same(const struct fa_layout *a, const struct fa_layout *b);
bool fa_layout__conflict_apart(const struct fa_layout *a, const struct fa_layout *b,
			       const struct fa_classes *c);

/**
 * struct fa_layout_walk - The members of a layout in offset order, as pahole
 * prints them, and the holes before each
 * @field: The member, a field of the struct; -1 before the first
 * @unit: Its unit
 * @offset: Its offset in the layout
 * @first: It is the first field of its unit
 * @same_bit_unit: A bitfield in the storage unit of the bitfield before
 * @combined: A bitfield that starts in the bytes of the members before
 * @hole: Bytes between the end of the members before and this one
 * @bit_hole: Unused bits of the bitfield storage unit that ended before it
 * @end: End of the members so far, this one included
 */
struct fa_layout_walk {
	const struct fa_layout	*l;
	const struct fa_struct	*st;
	int			 k;
	int			 field;
	int			 unit;
	u32			 offset;
	bool			 first;
	bool			 same_bit_unit;
	bool			 combined;
	u32			 hole;
	u32			 bit_hole;
	u32			 end;
	/* the bitfield storage unit being filled: offset (-1: none), size, bits used */
	int			 bit_unit_offset;
	u32			 bit_unit_size;
	u32			 bit_end;
};

void fa_layout_walk__init(struct fa_layout_walk *w, const struct fa_layout *l,
			  const struct fa_struct *st);
bool fa_layout_walk__next(struct fa_layout_walk *w);
u32 fa_layout_walk__end_bits(struct fa_layout_walk *w);

size_t fa_layout__fprintf(const struct fa_layout *l, const struct fa_struct *st, FILE *fp);
size_t fa_layout__fprintf_lines(const struct fa_layout *l, const struct fa_struct *st,
				const bool *lines, FILE *sink, FILE *fp);
struct fa_field;
size_t fa_field__fprintf_c(const struct fa_field *f, FILE *fp);
size_t fa_layout__fprintf_c(const struct fa_layout *l, const struct fa_struct *st,
			    const struct fa_classes *c, bool kernel, FILE *fp);

#endif /* __PERF_AFFINITY_LAYOUT_H */
