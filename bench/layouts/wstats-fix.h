/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wstats.c fixed by hand: a line a thread, the struct aligned to it (and
 * allocated so: -DALIGNED_ALLOC)
 */
struct wstats {
	unsigned long	ops;
	unsigned long	bytes;
	unsigned long	last;
} __attribute__((aligned(64)));
