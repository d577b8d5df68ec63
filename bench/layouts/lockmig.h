/* SPDX-License-Identifier: GPL-2.0 */
/* The layout of lockmig.c as written: the lock in the line of its readers */
struct lockshare_rq {
	int		lock;
	unsigned int	nr_running;
	unsigned long	clock;
	unsigned long	load_avg;
	unsigned long	util_avg;
	unsigned long	flags;
	unsigned int	cpu;
	int		online;
	char		name[16];
	unsigned long	nr_switches;
};
