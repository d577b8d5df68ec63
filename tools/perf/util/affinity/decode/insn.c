// SPDX-License-Identifier: GPL-2.0
/*
 * What a decoded instruction gives a software sample: the accesses of its
 * memory operands at the sampled registers, and whether a sample there is
 * the stall of the instruction before it.  Both the decoder (decode-sw.c)
 * and the placement of samples (place.c) take accesses from instructions.
 */
#include <errno.h>
#include <linux/build_bug.h>
#include "access.h"
#include "decode.h"
#include "decode-int.h"
#include "../../insn-access.h"
#include "../../perf_regs.h"

/*
 * The accesses of @insn at @ip into @acc, each a copy of @tmpl: the number
 * made, -EINVAL if a register an address needs was not sampled
 */
int fa_access__from_insn(const struct insn_access_insn *insn, u64 ip, struct regs_dump *regs,
			 u16 flags, const struct fa_access *tmpl, struct fa_access *acc)
{
	int n = insn->nr_ops;	/* at most INSN_ACCESS_MAX_OPS: @acc has room */

	/* The access directions are the same bits. */
	BUILD_BUG_ON((int)FA_OP_LOAD != (int)INSN_ACCESS_OP_LOAD ||
		     (int)FA_OP_STORE != (int)INSN_ACCESS_OP_STORE ||
		     (int)FA_OP_PREFETCH != (int)INSN_ACCESS_OP_PREFETCH ||
		     (int)FA_OP_UNKNOWN != (int)INSN_ACCESS_OP_UNKNOWN);

	for (int i = 0; i < n; i++) {
		const struct insn_mem_operand *op = &insn->ops[i];
		u64 addr;

		if (insn_access__addr(insn, op, ip, regs, &addr))
			return -EINVAL;
		acc[i] = *tmpl;
		acc[i].ip = ip;
		acc[i].addr = addr;
		acc[i].index_off = 0;
		if (op->index >= 0) {
			u64 index;

			/* what the index added: the rest is struct base + displacement */
			if (!perf_reg_value(&index, regs, op->index)) {
				acc[i].index_off = index * op->scale;
				acc[i].flags |= FA_ACC_INDEX;
			}
		}
		/* an opmask may select fewer bytes, from any element on */
		acc[i].size = op->flags & INSN_ACCESS_F_MASKED ? 0 : op->size;
		acc[i].op = op->op;
		acc[i].flags |= flags;
		if (op->flags & (INSN_ACCESS_F_SEG_FS | INSN_ACCESS_F_SEG_GS))
			acc[i].flags |= FA_ACC_SEG;
		if (op->flags & INSN_ACCESS_F_LOCK)
			acc[i].flags |= FA_ACC_LOCK;
		if (op->flags & INSN_ACCESS_F_STRING)
			acc[i].flags |= FA_ACC_STRING;
		if (op->flags & INSN_ACCESS_F_FRAME)
			acc[i].flags |= FA_ACC_FRAME;
	}
	return n;
}

/*
 * The stack protector's canary, read at the entry and exit of a function,
 * and the thread pointer, read to address thread-local variables, are
 * always in the cache: a sample there is the stall of the instruction
 * before it, as on an instruction that accesses no memory.
 */
static bool insn_access__is_tcb(const struct insn_access_insn *insn)
{
	const struct insn_mem_operand *op = &insn->ops[0];

	return insn->result == INSN_ACCESS__OK && insn->nr_ops == 1 &&
	       (op->flags & (INSN_ACCESS_F_SEG_FS | INSN_ACCESS_F_SEG_GS)) &&
	       op->base == INSN_ACCESS_REG_NONE && op->index == INSN_ACCESS_REG_NONE &&
	       fa_x86__tcb(op->disp) && !(op->op & INSN_ACCESS_OP_STORE);
}

/*
 * A local variable or a spill slot, addressed from the stack pointer, is
 * in the cache as well: a sample there is the stall of the instruction
 * before, nearly always the load whose result it stores.
 */
static bool insn_access__is_local(const struct insn_access_insn *insn, const char *arch)
{
	int sp = perf_arch_reg_sp(arch);

	if (insn->result != INSN_ACCESS__OK || !insn->nr_ops)
		return false;
	for (int i = 0; i < insn->nr_ops; i++) {
		const struct insn_mem_operand *op = &insn->ops[i];

		if (op->base != sp || (op->flags & (INSN_ACCESS_F_SEG_FS | INSN_ACCESS_F_SEG_GS)))
			return false;
	}
	return true;
}

/**
 * fa_insn__waits - Whether a software sample at @insn is most likely the
 * stall of the instruction before it: @insn accesses no memory, or only
 * memory that is always in the cache (the stack, the thread control
 * block)
 */
bool fa_insn__waits(const struct insn_access_insn *insn, const char *arch)
{
	return insn->result == INSN_ACCESS__NO_MEM || insn->result == INSN_ACCESS__STACK ||
	       insn_access__is_tcb(insn) || insn_access__is_local(insn, arch);
}
