/* SPDX-License-Identifier: GPL-2.0 */
/* The known fix: the five fields the balancer reads, together */
struct runq {
	unsigned int	nr_running;
	int		ttwu_pending;
	unsigned long	cpu_capacity;
	void		*curr;
	void		*idle;
	char		cold0[60];
	char		cold1[120];
	char		cold2[120];
	char		cold3[120];
	char		cold4[132];
};
