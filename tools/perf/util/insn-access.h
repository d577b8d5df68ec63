/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory operands of machine instructions.
 *
 * An instruction is decoded once into a register independent description of
 * its memory operands; the effective addresses are then computed from the
 * registers sampled with each perf sample at that instruction.  A sample's
 * registers are the inputs of the instruction at its IP, which has not
 * executed yet, so for that instruction the address is exact.
 */
#ifndef __PERF_INSN_ACCESS_H
#define __PERF_INSN_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/compiler.h>
#include <linux/types.h>

struct regs_dump;

/* What an instruction does to its memory operand (a bit mask). */
enum insn_access_op {
	INSN_ACCESS_OP_NONE	= 0,
	INSN_ACCESS_OP_LOAD	= 1 << 0,
	INSN_ACCESS_OP_STORE	= 1 << 1,
	INSN_ACCESS_OP_RMW	= INSN_ACCESS_OP_LOAD | INSN_ACCESS_OP_STORE,
	INSN_ACCESS_OP_PREFETCH	= 1 << 2,
	INSN_ACCESS_OP_UNKNOWN	= 1 << 3,	/* accesses memory, direction not known */
};

/* What decoding an instruction found. */
enum insn_access_result {
	INSN_ACCESS__OK,		/* at least one memory operand */
	INSN_ACCESS__NO_MEM,		/* none: register only, lea, nop, branches */
	INSN_ACCESS__STACK,		/* only implicit stack accesses: push, pop, call, ret */
	INSN_ACCESS__VSIB,		/* gather/scatter: a vector of addresses */
	INSN_ACCESS__DECODE,		/* cannot decode it (or an encoding not handled) */
	INSN_ACCESS__UNSUPPORTED,	/* no decoder for this architecture */
	INSN_ACCESS__MAX,
};

/* Base/index register values besides perf register ids. */
#define INSN_ACCESS_REG_NONE	(-1)
#define INSN_ACCESS_REG_IP	(-2)	/* IP relative: the next instruction's address */

/* Operand flags. */
#define INSN_ACCESS_F_SEG_FS	(1 << 0)	/* fs: relative (TLS) */
#define INSN_ACCESS_F_SEG_GS	(1 << 1)	/* gs: relative (per-CPU in the kernel) */
#define INSN_ACCESS_F_STRING	(1 << 2)	/* movs, stos...: the current element */
#define INSN_ACCESS_F_REP	(1 << 3)	/* repeated string operation */
#define INSN_ACCESS_F_LOCK	(1 << 4)	/* atomic: lock prefix or xchg */
#define INSN_ACCESS_F_BITOFF	(1 << 5)	/* bt* with a register bit offset */
#define INSN_ACCESS_F_ABS	(1 << 6)	/* absolute address (moffs) */
#define INSN_ACCESS_F_FRAME	(1 << 7)	/* based on the stack or frame pointer */
#define INSN_ACCESS_F_MASKED	(1 << 8)	/* AVX-512 opmask: some bytes of @size */

/* Control transfers */
enum insn_access_branch {
	INSN_ACCESS_BR_NONE,
	INSN_ACCESS_BR_JUMP,	/* jmp, jcc, loop: may go to @target (or anywhere if indirect) */
	INSN_ACCESS_BR_CALL,	/* returns to the next instruction */
	INSN_ACCESS_BR_RET,	/* ret, ud2: does not continue with the next instruction */
};

#define INSN_ACCESS_MAX_OPS	2

struct insn_mem_operand {
	s64	disp;
	s8	base;		/* perf register id or INSN_ACCESS_REG_* */
	s8	index;		/* perf register id or INSN_ACCESS_REG_NONE */
	u8	scale;
	u8	op;		/* enum insn_access_op */
	u16	size;		/* bytes, 0 when not known */
	u16	flags;		/* INSN_ACCESS_F_* */
};

/**
 * struct insn_access_insn - What an instruction does with memory
 * @length: Instruction length in bytes
 * @result: enum insn_access_result
 * @nr_ops: Number of memory operands in @ops
 * @addr_bytes: Address size (4 or 8)
 * @branch: enum insn_access_branch
 * @indirect: It is a branch whose target is not known statically
 * @cond: A conditional jump (jcc, loop, jrcxz): it may go on to the next
 *        instruction
 * @target: Target of a direct jump or call
 * @addr_regs: Mask of the perf registers its addresses are computed from
 * @written_regs: Mask of the perf registers it writes, ~0 when not known
 * @ops: The memory operands
 * @lea_dst: A 64-bit lea: the register it writes the address of @lea to,
 *           else INSN_ACCESS_REG_NONE
 * @lea: The address a lea computes, without accessing it
 */
struct insn_access_insn {
	u8			length;
	u8			result;
	u8			nr_ops;
	u8			addr_bytes;
	u8			branch;
	bool			indirect;
	bool			cond;
	u64			target;
	u64			addr_regs;
	u64			written_regs;
	struct insn_mem_operand	ops[INSN_ACCESS_MAX_OPS];
	s8			lea_dst;
	struct insn_mem_operand	lea;
};

int insn_access__decode(struct insn_access_insn *insn, const char *arch,
			const u8 *code, size_t len, u64 ip, bool is64bit);
int insn_access__addr(const struct insn_access_insn *insn, const struct insn_mem_operand *op,
		      u64 ip, struct regs_dump *regs, u64 *addr);
const char *insn_access__strerror(enum insn_access_result result);

#ifdef HAVE_AUXTRACE_SUPPORT
int insn_access__decode_x86(struct insn_access_insn *insn, const u8 *code, size_t len,
			    u64 ip, bool is64bit);
#else
static inline int insn_access__decode_x86(struct insn_access_insn *insn,
					  const u8 *code __maybe_unused,
					  size_t len __maybe_unused, u64 ip __maybe_unused,
					  bool is64bit __maybe_unused)
{
	insn->result = INSN_ACCESS__UNSUPPORTED;
	return -1;
}
#endif

#endif /* __PERF_INSN_ACCESS_H */
