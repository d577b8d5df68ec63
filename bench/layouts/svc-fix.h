/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svc.c fixed by hand: the counter on a line of its own, the struct
 * aligned to the line (and allocated so: -DALIGNED_ALLOC)
 */
struct service {
	char		name[16];
	int		limit;
	int		burst;
	int		window;
	double		rate;
	double		weight;
	long		flags;
	long		quota;
	int		admitted __attribute__((aligned(64)));
} __attribute__((aligned(64)));
