/* SPDX-License-Identifier: GPL-2.0 */
/* The layout of slots.c as written: two slots in one cache line */
struct slot_stats {
	unsigned long	ops;
	unsigned long	bytes;
};
