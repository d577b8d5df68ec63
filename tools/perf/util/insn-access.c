// SPDX-License-Identifier: GPL-2.0
/*
 * Memory operands of machine instructions: architecture dispatch and the
 * register arithmetic shared by all architectures.
 */
#include <errno.h>
#include <string.h>
#include "insn-access.h"
#include "perf_regs.h"
#include "sample.h"

static const char * const insn_access_result_str[INSN_ACCESS__MAX] = {
	[INSN_ACCESS__OK]		= "memory access",
	[INSN_ACCESS__NO_MEM]		= "no memory operand",
	[INSN_ACCESS__STACK]		= "implicit stack access only",
	[INSN_ACCESS__VSIB]		= "gather/scatter (vector of addresses)",
	[INSN_ACCESS__DECODE]		= "cannot decode the instruction",
	[INSN_ACCESS__UNSUPPORTED]	= "no instruction decoder for the architecture",
};

const char *insn_access__strerror(enum insn_access_result result)
{
	if (result >= INSN_ACCESS__MAX)
		return "unknown";
	return insn_access_result_str[result];
}

/**
 * insn_access__decode - Describe the memory operands of one instruction
 * @insn: Result
 * @arch: perf_env__arch() of the machine that ran the code
 * @code: The instruction bytes (at most one instruction is decoded)
 * @len: Number of bytes available at @code
 * @ip: Address of the instruction (for IP relative operands and branches)
 * @is64bit: 64-bit code
 *
 * Return: 0 if @insn was decoded (see @insn->result for what it does with
 * memory), -1 if it could not be.
 */
int insn_access__decode(struct insn_access_insn *insn, const char *arch,
			const u8 *code, size_t len, u64 ip, bool is64bit)
{
	memset(insn, 0, sizeof(*insn));
	insn->lea_dst = INSN_ACCESS_REG_NONE;
	if (arch && !strcmp(arch, "x86"))
		return insn_access__decode_x86(insn, code, len, ip, is64bit);
	insn->result = INSN_ACCESS__UNSUPPORTED;
	return -1;
}

/**
 * insn_access__addr - Effective address of a memory operand
 * @insn: The decoded instruction
 * @op: One of @insn's operands
 * @ip: Address of the instruction
 * @regs: Registers sampled before the instruction executed, or after it
 *        when neither it nor any instruction since wrote its @addr_regs
 * @addr: Result; fs:/gs: relative operands give the offset into the segment
 *
 * Return: 0 on success, -EINVAL if a register it needs was not sampled.
 */
int insn_access__addr(const struct insn_access_insn *insn, const struct insn_mem_operand *op,
		      u64 ip, struct regs_dump *regs, u64 *addr)
{
	u64 base = 0, index = 0;

	if (op->base == INSN_ACCESS_REG_IP)
		base = ip + insn->length;
	else if (op->base >= 0 && (!regs->regs || perf_reg_value(&base, regs, op->base)))
		return -EINVAL;

	if (op->index >= 0 && (!regs->regs || perf_reg_value(&index, regs, op->index)))
		return -EINVAL;

	*addr = base + index * op->scale + op->disp;
	if (insn->addr_bytes == 4)
		*addr &= 0xffffffffULL;
	return 0;
}
