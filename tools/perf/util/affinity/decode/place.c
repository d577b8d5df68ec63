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
#include "access.h"
#include "decode.h"
#include "decode-int.h"
#include "../../insn-access.h"

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
