/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The known fix: the lock and the counter it guards on a line of their
 * own, the fields the reader reads on another
 */
struct lockshare_rq {
	unsigned int	nr_running;
	unsigned long	clock;
	unsigned long	load_avg;
	unsigned long	util_avg;
	unsigned long	flags;
	unsigned int	cpu;
	int		online;
	char		name[16];
	int		lock __attribute__((aligned(64)));
	unsigned long	nr_switches;
};
