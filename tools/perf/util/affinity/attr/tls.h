/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thread-local variables of an executable.  On x86-64 an access relative
 * to %fs is at an offset from the thread pointer, and the executable's
 * TLS block ends at the thread pointer (TLS variant II): a variable at
 * offset X of the block, as DWARF locates it (DW_OP_const8u X,
 * DW_OP_form_tls_address), is at X minus the block's size rounded up to
 * its alignment, the offset the linker gives local-exec and initial-exec
 * code.  The blocks of shared libraries are placed at run time: their
 * variables are not found.
 */
#ifndef __PERF_AFFINITY_TLS_H
#define __PERF_AFFINITY_TLS_H

#include <linux/types.h>

struct fa_tls_var {
	u64	offset;		/* in the TLS block */
	u64	size;
	u64	die;		/* the variable's DIE */
};

struct fa_tls {
	s64			 start;		/* of the block, from the thread pointer */
	int			 nr;
	struct fa_tls_var	*vars;		/* by offset */
};

#ifdef HAVE_DWARF_SUPPORT
#include <elfutils/libdw.h>

int fa_tls__init(struct fa_tls *tls, struct Dwarf *dbg);
void fa_tls__exit(struct fa_tls *tls);
const struct fa_tls_var *fa_tls__find(const struct fa_tls *tls, s64 tpoff, u64 *offset);
#endif

#endif /* __PERF_AFFINITY_TLS_H */
