/* SPDX-License-Identifier: GPL-2.0 */
/* wstats.c's per-thread statistics as written: 24 bytes, two threads' in a line */
struct wstats {
	unsigned long	ops;
	unsigned long	bytes;
	unsigned long	last;
};
