// SPDX-License-Identifier: GPL-2.0
/* Registers that hold the thread pointer or an address relative to it (see tls-reg.h). */
#include <string.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include "tls-reg.h"
#include "../../insn-access.h"
#include "../../perf_regs.h"

static bool fa_tls_reg__valid(int reg)
{
	return reg >= 0 && reg < FA_TLS_NR_REGS;
}

/* 'mov %fs:0x0,%reg': the thread pointer, which the TCB holds at its start */
bool fa_tls_reg__loads_tp(const struct insn_access_insn *insn)
{
	const struct insn_mem_operand *op = &insn->ops[0];

	return insn->result == INSN_ACCESS__OK && insn->nr_ops == 1 &&
	       (op->flags & INSN_ACCESS_F_SEG_FS) && op->base == INSN_ACCESS_REG_NONE &&
	       op->index == INSN_ACCESS_REG_NONE && op->disp == 0 &&
	       op->op == INSN_ACCESS_OP_LOAD && op->size == 8 &&
	       insn->written_regs && !(insn->written_regs & (insn->written_regs - 1));
}

/* Forget the registers @written, and the addresses indexed by one of them */
static void fa_tls_regs__clobber(struct fa_tls_regs *s, u64 written)
{
	for (int r = 0; r < FA_TLS_NR_REGS; r++) {
		struct fa_tls_reg *reg = &s->reg[r];

		if ((written & BIT_ULL(r)) || (reg->tp && reg->index >= 0 &&
					       (written & BIT_ULL(reg->index))))
			reg->tp = false;
	}
}

/* What the registers hold after @insn */
void fa_tls_regs__step(struct fa_tls_regs *s, const struct insn_access_insn *insn)
{
	struct fa_tls_reg next = { .tp = false, };
	int dst = insn->lea_dst;

	if (fa_tls_reg__loads_tp(insn)) {
		dst = __builtin_ctzll(insn->written_regs);
		next = (struct fa_tls_reg){ .tp = true, .index = -1, };
	} else if (fa_tls_reg__valid(dst) && fa_tls_reg__valid(insn->lea.base) &&
		   s->reg[insn->lea.base].tp) {
		const struct fa_tls_reg *b = &s->reg[insn->lea.base];

		/* one index at most: the thread pointer's register plus one */
		if (b->index < 0 || insn->lea.index < 0)
			next = (struct fa_tls_reg){
				.tp = true, .disp = b->disp + insn->lea.disp,
				.index = b->index >= 0 ? b->index : insn->lea.index,
				.scale = b->index >= 0 ? b->scale : insn->lea.scale,
			};
	}
	fa_tls_regs__clobber(s, insn->written_regs);
	if (next.tp && fa_tls_reg__valid(dst))
		s->reg[dst] = next;
}

/*
 * Whether memory operand @op is relative to the thread pointer: at @tpoff
 * from it, plus register @index (-1: none) times a scale
 */
bool fa_tls_regs__operand(const struct fa_tls_regs *s, const struct insn_mem_operand *op,
			  s64 *tpoff, int *index)
{
	const struct fa_tls_reg *b;

	if ((op->flags & INSN_ACCESS_F_SEG_FS) && op->base == INSN_ACCESS_REG_NONE) {
		*tpoff = op->disp;
		*index = op->index;
		return true;
	}
	if (!fa_tls_reg__valid(op->base) || !s->reg[op->base].tp ||
	    (op->flags & (INSN_ACCESS_F_SEG_FS | INSN_ACCESS_F_SEG_GS)))
		return false;
	b = &s->reg[op->base];
	if (b->index >= 0 && op->index >= 0)
		return false;
	*tpoff = b->disp + op->disp;
	*index = b->index >= 0 ? b->index : op->index;
	return true;
}

/*
 * The thread pointer, from the sampled value of register @base that holds
 * an address relative to it as @r says
 */
bool fa_tls_reg__tp(const struct fa_tls_reg *r, int base, struct regs_dump *regs, u64 *tp)
{
	u64 val, index = 0;

	if (!r->tp || perf_reg_value(&val, regs, base) ||
	    (r->index >= 0 && perf_reg_value(&index, regs, r->index)))
		return false;
	*tp = val - r->disp - index * r->scale;
	return true;
}
