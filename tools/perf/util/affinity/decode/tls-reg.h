/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registers that hold the thread pointer, or an address relative to it.
 * Code that takes the address of a thread-local variable (&head[cls]) loads
 * the thread pointer and adds to it,
 *
 *	mov	%fs:0x0,%rax
 *	lea	-0x200(%rax,%rbx,8),%r12
 *	mov	(%r12),%rdx
 *
 * and accesses the variable through a register: an address, not an offset
 * from %fs.  A walk of a function's instructions in address order up to an
 * instruction says which registers hold such an address there, and from
 * the sampled registers the thread pointer follows.  The walk does not
 * follow branches: a wrong guess gives an address outside the thread's
 * variables, which the caller checks.
 */
#ifndef __PERF_AFFINITY_TLS_REG_H
#define __PERF_AFFINITY_TLS_REG_H

#include <stdbool.h>
#include <linux/types.h>

struct insn_access_insn;
struct insn_mem_operand;
struct regs_dump;

#define FA_TLS_NR_REGS		24	/* perf register ids of the x86-64 GPRs */

/*
 * A register holding the thread pointer plus @disp, plus register @index
 * times @scale (at the time of the lea) if @index >= 0
 */
struct fa_tls_reg {
	bool	tp;
	s8	index;
	u8	scale;
	s64	disp;
};

struct fa_tls_regs {
	struct fa_tls_reg	reg[FA_TLS_NR_REGS];
};

bool fa_tls_reg__loads_tp(const struct insn_access_insn *insn);
void fa_tls_regs__step(struct fa_tls_regs *s, const struct insn_access_insn *insn);
bool fa_tls_regs__operand(const struct fa_tls_regs *s, const struct insn_mem_operand *op,
			  s64 *tpoff, int *index);
bool fa_tls_reg__tp(const struct fa_tls_reg *r, int base, struct regs_dump *regs, u64 *tp);

#endif /* __PERF_AFFINITY_TLS_REG_H */
