/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How sure an estimate is: a bootstrap over blocks of time.
 *
 * Samples close in time are not independent (a thread runs one loop for a
 * while, a line moves between threads that run at the same time), so the
 * samples are not resampled one by one: each access, window and visit goes
 * to one of FA_BOOT_GROUPS groups by its block of FA_BOOT_BLOCK_NS, of all
 * threads together (the mix of threads and how they interleave is kept), a
 * hash spreading the blocks over the groups, and the statistics the
 * decisions are made from keep their counts by group.  A
 * replicate weighs the groups by a multinomial draw (FA_BOOT_REPS of them,
 * from a fixed seed: the same recording gives the same intervals); an
 * estimate's interval is the central FA_BOOT_LEVEL of its replicates.
 */
#ifndef __PERF_AFFINITY_BOOT_H
#define __PERF_AFFINITY_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define FA_BOOT_GROUPS		32
#define FA_BOOT_BLOCK_NS	100000ULL	/* 100 us */
#define FA_BOOT_REPS		400
#define FA_BOOT_LEVEL		0.95
/* Fewer groups with windows (visits) than this: the intervals say little */
#define FA_BOOT_MIN_GROUPS	8
/*
 * Reordering a struct is a patch to review and a history to follow: not
 * worth it for less than this share of the predicted cost.
 */
#define FA_MIN_GAIN		0.01

/* An estimate and its interval; @lo == @hi == @est when there is none */
struct fa_interval {
	double	est;
	double	lo;
	double	hi;
};

/* What a statistic sums, by group: e.g. a layout's cost, the windows */
struct fa_boot_sum {
	double	g[FA_BOOT_GROUPS];
};

/* The group of what was done at @time, in blocks of @block_ns (0: FA_BOOT_BLOCK_NS) */
static inline int fa_boot__group(u64 time, u64 block_ns)
{
	/* the default's division a multiplication: several per access */
	u64 block = block_ns ? time / block_ns : time / FA_BOOT_BLOCK_NS;
	u64 h = (block + 1) * 0x9e3779b97f4a7c15ULL;

	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return (h >> 32) % FA_BOOT_GROUPS;
}

double fa_boot_sum__total(const struct fa_boot_sum *s);
int fa_boot_sum__nr_groups(const struct fa_boot_sum *s);
double fa_boot_sum__rep(const struct fa_boot_sum *s, int rep);
void fa_boot__ratio(const struct fa_boot_sum *num, const struct fa_boot_sum *den,
		    struct fa_interval *ci);
void fa_boot__change(const struct fa_boot_sum *a, const struct fa_boot_sum *b,
		     struct fa_interval *ci);
void fa_boot__saving(const struct fa_boot_sum *a, const struct fa_boot_sum *b,
		     struct fa_interval *ci);
bool fa_boot__change_apart(const struct fa_boot_sum *a_num, const struct fa_boot_sum *a_den,
			   const struct fa_boot_sum *b_num, const struct fa_boot_sum *b_den,
			   struct fa_interval *ci);
bool fa_boot__diff_apart(const struct fa_boot_sum *a_num, const struct fa_boot_sum *a_den,
			 const struct fa_boot_sum *b_num, const struct fa_boot_sum *b_den,
			 struct fa_interval *ci);
double fa_boot__prob_less(const struct fa_boot_sum *a, const struct fa_boot_sum *b);
void fa_interval__from(struct fa_interval *ci, double est, double *reps, int nr);
/* Room for fa_interval__str()'s "95% interval -100.0% to +100.0%" */
#define FA_INTERVAL_STR	48

const char *fa_interval__str(const struct fa_interval *ci, bool saving, char *buf, size_t size);
bool fa_interval__spans(const struct fa_interval *ci, double x);
double fa_interval__more_samples(const struct fa_interval *ci, double threshold);

#endif /* __PERF_AFFINITY_BOOT_H */
