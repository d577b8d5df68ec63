/* SPDX-License-Identifier: GPL-2.0 */
/* The known fix: the read fields on the next cache line */
typedef struct _role_buf {
	long	lock0;
	long	held;
	long	reader1 __attribute__((aligned(64)));
	long	reader2;
} role_buf;
