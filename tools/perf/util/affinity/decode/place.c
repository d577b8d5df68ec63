// SPDX-License-Identifier: GPL-2.0
/*
 * Where another CPU's timer would have put a software sample.
 *
 * An Intel timer interrupt is taken about one instruction after the access
 * that held it off: the block walk gives one access, or two.  An AMD one
 * (and a TCG guest's) is taken at the next branch: the walk gives every
 * access of a loop's body from one sample.  The analysis must not depend on
 * which (analyze.h), and to test that on any machine a recording is
 * re-placed as the other CPU would have sampled it:
 *
 * - one: one access of the sample's, chosen by a seeded hash of its time;
 * - later: the sample taken at a later instruction of its block, up to
 *   the branch that ends it, chosen the same way.  The sampled registers
 *   still give the address of every access between the two points whose
 *   registers no instruction in between writes: those a walk back from the
 *   later point finds, as decode-sw.c walks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/build_bug.h>
#include "access.h"
#include "decode.h"
#include "decode-int.h"
#include "../../insn-access.h"
#include "../../perf_regs.h"

static const struct fa_label fa_place_labels[FA_PLACE_MAX] = {
	[FA_PLACE_RECORDED]	= { "recorded", "as recorded" },
	[FA_PLACE_ONE]		= { "one", "one access per sample (an Intel timer)" },
	[FA_PLACE_LATER]	= { "later", "at a later instruction of the block (an AMD timer)" },
};

const char *fa_place__text(enum fa_place place)
{
	return fa_label__text(fa_place_labels, FA_PLACE_MAX, place);
}

/**
 * fa_place__parse - --placement recorded|one|later[:SEED]
 * @seed: Result: the seed, 1 if not given
 *
 * Return: enum fa_place, or -1.
 */
int fa_place__parse(const char *str, u64 *seed)
{
	const char *colon = strchr(str, ':');
	char key[16], *end;
	size_t len = colon ? (size_t)(colon - str) : strlen(str);

	*seed = 1;
	if (len >= sizeof(key))
		return -1;
	memcpy(key, str, len);
	key[len] = '\0';
	if (colon) {
		*seed = strtoull(colon + 1, &end, 0);
		if (!colon[1] || *end)
			return -1;
	}
	return fa_label__parse(fa_place_labels, FA_PLACE_MAX, key);
}

/* A number of the sample at @time, the same for one seed in every run */
static u64 fa_place__hash(u64 time, u64 seed)
{
	u64 h = time ^ (seed * 0x9E3779B97F4A7C15ULL);

	h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
	h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
	return h ^ (h >> 31);
}

/* One of the @n accesses of the sample at @time, in @acc[0] */
int fa_place__one(u64 time, u64 seed, struct fa_access *acc, int n)
{
	if (n > 1)
		acc[0] = acc[fa_place__hash(time, seed) % n];
	return min(n, 1);
}

/*
 * The instructions from the one at @off up to the end of its block: the
 * branch or call that ends it (taken too: a timer may land on it), or the
 * instruction before another block's start.  Return: how many.
 */
static int fa_code__block_ahead(const struct fa_code *fn, u32 off, const char *arch, bool is64,
				struct insn_access_insn *ins, u32 *pos)
{
	int m = 0;

	for (u32 at = off; m < FA_BLOCK_MAX_INSNS && at < fn->len; at += ins[m - 1].length) {
		if ((m && test_bit(at, fn->targets)) || !test_bit(at, fn->starts) ||
		    insn_access__decode(&ins[m], arch, fn->code + at, fn->len - at,
					fn->key.offset + at, is64) || !ins[m].length)
			break;
		pos[m++] = at;
		if (ins[m - 1].branch || ins[m - 1].written_regs == ~0ULL)
			break;
	}
	return m;
}

/* The accesses of @insn at @ip, if its registers still hold their addresses */
static int fa_place__take(const struct insn_access_insn *insn, u64 written, u64 ip,
			  struct regs_dump *regs, u16 flags, const struct fa_access *tmpl,
			  struct fa_access *acc, int n)
{
	int m;

	if (insn->result != INSN_ACCESS__OK || (insn->addr_regs & written) ||
	    n + INSN_ACCESS_MAX_OPS > FA_DECODE_MAX_ACC)
		return n;
	m = fa_access__from_insn(insn, ip, regs, flags, tmpl, acc + n);
	return m > 0 ? n + m : n;
}

/**
 * fa_place__later - The accesses of the sample at @off of @fn (@fi, walked)
 * as if the timer had taken it at a later instruction of its block
 * @time: The sample's time, which picks the instruction with @seed
 * @acc: The template in [0]; then room for FA_DECODE_MAX_ACC accesses
 *
 * Return: the accesses, nearest the later point first (as
 * fa_decoder__block() gives them), -1 to keep the sample as recorded.
 */
int fa_place__later(const struct fa_code *fn, u32 off, const struct fa_insn *fi, u64 ip,
		    const char *arch, bool is64, struct regs_dump *regs, u64 time, u64 seed,
		    struct fa_access *acc)
{
	struct insn_access_insn ins[FA_BLOCK_MAX_INSNS];
	u32 pos[FA_BLOCK_MAX_INSNS];
	const struct fa_access tmpl = acc[0];
	int m = fa_code__block_ahead(fn, off, arch, is64, ins, pos), land, n = 0;
	u64 written = 0;

	land = m ? fa_place__hash(time, seed) % m : 0;
	if (!land)
		return -1;
	for (int k = 0; k < land; k++)
		written |= ins[k].written_regs;
	/* where it lands, the time of an access before it, if any */
	if (!fa_insn__waits(&ins[land], arch))
		n = fa_place__take(&ins[land], written, ip + pos[land] - off, regs, 0, &tmpl, acc, n);
	for (int k = land - 1; k >= 0; k--)
		n = fa_place__take(&ins[k], written, ip + pos[k] - off, regs,
				   k == land - 1 ? FA_ACC_SKID : FA_ACC_BLOCK, &tmpl, acc, n);
	for (int i = 0; i < fi->nr_block; i++)
		n = fa_place__take(&fi->block[i].insn, written, ip - fi->block[i].back, regs,
				   FA_ACC_BLOCK, &tmpl, acc, n);
	return n;
}

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
