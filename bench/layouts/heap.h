/* SPDX-License-Identifier: GPL-2.0 */
/* The layout of heap.c as written: a cache line of counters */
struct heap_stats {
	unsigned long	ops;
	unsigned long	bytes;
	unsigned long	errors;
	unsigned long	last;
	unsigned long	cold[4];
};
