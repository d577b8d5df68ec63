/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a layout must not change, because code relies on offsets:
 *
 *   --keep FIELD            its offset stays (code uses offsetof() of it, or
 *                           documents that it comes first)
 *   --keep-order FROM-TO    the members from FROM to TO stay together, in
 *                           their order (a memset() or memcpy() of an
 *                           offsetof() range); FROM- runs to the end
 *   a first member that is a struct: code may cast the struct to it (an
 *   embedded "base"), so it stays at offset 0
 */
#ifndef __PERF_AFFINITY_KEEP_H
#define __PERF_AFFINITY_KEEP_H

#include <stdbool.h>
#include <linux/types.h>

struct fa_layout;
struct fa_struct;

enum fa_pin {
	FA_PIN_NONE,
	FA_PIN_ASKED,		/* --keep */
	FA_PIN_BASE,		/* first member, a struct */
	FA_PIN_CLASS_BASE,	/* a C++ base class: the compiler places it */
	FA_PIN_ABI,		/* assembly or user space has its offsets */
};

const char *fa_pin__key(int pin);
const char *fa_pin__why(int pin);

/* Units from @from to @to of the recorded layout, in offset order */
struct fa_keep_range {
	int	from;
	int	to;
};

struct fa_keep {
	u8			*pin;		/* by unit: enum fa_pin */
	struct fa_keep_range	*ranges;
	int			 nr_ranges;
	int			 nr_pins;
	int			 matched;	/* names of --keep, ranges of --keep-order */
};

/* What --keep and --keep-order asked for, for all types */
struct fa_keep_opts {
	const char	*keep;		/* FIELD[,FIELD...] */
	const char	*keep_order;	/* FROM-TO[,FROM-TO...] */
};

int fa_keep__init(struct fa_keep *k, const struct fa_struct *st, const struct fa_layout *cur,
		  const struct fa_keep_opts *o);
void fa_keep__exit(struct fa_keep *k);
bool fa_keep__allows(const struct fa_keep *k, const struct fa_layout *cur,
		     const struct fa_layout *l);
int fa_keep_opts__check(const struct fa_keep_opts *o);
int fa_keep_opts__check_names(const struct fa_keep_opts *o, const struct fa_struct * const *sts,
			      int nr);

#endif /* __PERF_AFFINITY_KEEP_H */
