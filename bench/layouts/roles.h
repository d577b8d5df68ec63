/* SPDX-License-Identifier: GPL-2.0 */
/* The layout of roles.c as written: the lock and the read fields in one line */
typedef struct _role_buf {
	long	lock0;
	long	held;
	long	reader1;
	long	reader2;
} role_buf;
