/* SPDX-License-Identifier: GPL-2.0 */
/* The known fix: every slot on a cache line of its own */
struct slot_stats {
	unsigned long	ops;
	unsigned long	bytes;
} __attribute__((aligned(64)));
