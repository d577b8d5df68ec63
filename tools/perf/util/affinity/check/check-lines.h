/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf affinity check of the lines threads share outside the struct types:
 * the slots of an array, or of an allocation a pointer holds, that each
 * thread indexes by itself.  Their layout is the element's type and the
 * code's index; check sees the first in a binary's debug info and takes
 * the second as recorded.  A slot array named by no variable, or whose
 * element is unchanged, is not judged: only a recording can tell.
 */
#ifndef __PERF_AFFINITY_CHECK_LINES_H
#define __PERF_AFFINITY_CHECK_LINES_H

#include <stdio.h>
#include <linux/types.h>
#include "../fields/fields.h"

struct fa_dlines;
struct json_writer;

enum fa_slots_verdict {
	FA_SLOTS_UNCHANGED,	/* the element as recorded: a fix, if any, is code */
	FA_SLOTS_APART,		/* each thread's bytes on lines of their own */
	FA_SLOTS_SHARED,	/* changed, threads' bytes still on one line */
	FA_SLOTS_UNKNOWN,	/* no such variable, or no array nor pointer */
};

/**
 * struct fa_check_slots - The slots of one array threads shared lines of
 * @var: The variable: the array, or the pointer the code loaded the base from
 * @pointer: @var is a pointer to the slots
 * @file: The source file of the code that stores to them, "": not known
 * @elem_type: The element's type as recorded, NULL: not known
 * @elem_size: Its size as recorded (the distance of the slots when unknown)
 * @elements: Elements from one thread's first byte to the next thread's
 * @width: Bytes a thread accessed in its slot
 * @lines: Contended lines of the array, @xfers their transfers,
 *         @xfers_apart those a line per thread leaves
 * @now: The element in the binary
 * @distance: Bytes from one thread's slot to the next's in the binary
 */
struct fa_check_slots {
	const char		*var;
	bool			 pointer;
	char			 file[64];
	const char		*elem_type;
	u32			 elem_size;
	u32			 elements;
	u32			 width;
	int			 lines;
	u64			 xfers;
	u64			 xfers_apart;
	struct fa_array_info	 now;
	u32			 distance;
	enum fa_slots_verdict	 verdict;
};

/**
 * struct fa_check_lines - What check makes of a recording's shared lines
 * @slots: Slot arrays named by a variable, @nr of them
 * @unnamed: Falsely shared lines outside the struct types named by none
 * @failed, @judged: Slot arrays that still share lines, and those judged
 */
struct fa_check_lines {
	struct fa_check_slots	*slots;
	int			 nr;
	int			 unnamed;
	int			 failed;
	int			 judged;
};

int fa_check_lines__init(struct fa_check_lines *cl, const struct fa_dlines *dl,
			 const struct fa_dlines *exact);
void fa_check_lines__exit(struct fa_check_lines *cl);
enum fa_slots_verdict fa_check_slots__judge(struct fa_check_slots *s, u32 line_size);
void fa_check_lines__fprintf(const struct fa_check_lines *cl, const char *binary, FILE *fp);
void fa_check_lines__json(const struct fa_check_lines *cl, struct json_writer *j);
#ifdef HAVE_DWARF_SUPPORT
void fa_check_lines__run(struct fa_check_lines *cl, Dwarf *dbg, u32 line_size);
#endif

#endif /* __PERF_AFFINITY_CHECK_LINES_H */
