/* SPDX-License-Identifier: GPL-2.0 */
/* The layout of svc.c as written: the admission counter among the policy */
struct service {
	char		name[16];
	int		admitted;	/* atomic: the admitting thread's */
	int		limit;
	int		burst;
	int		window;
	double		rate;
	double		weight;
	long		flags;
	long		quota;
};
