/* SPDX-License-Identifier: GPL-2.0 */
/* The layout of rqscan.c as written: each hot field starts a line of its own */
struct runq {
	unsigned int	nr_running;
	char		cold0[60];
	unsigned long	cpu_capacity;
	char		cold1[120];
	void		*curr;
	char		cold2[120];
	void		*idle;
	char		cold3[120];
	int		ttwu_pending;
	char		cold4[132];
};
