// SPDX-License-Identifier: GPL-2.0
/*
 * Software address sampling.
 *
 * A timer interrupt is taken between two instructions: the sampled IP is
 * the next instruction to execute and the sampled registers are its inputs,
 * so the effective address of its memory operand is exact.
 *
 * The registers are also the state after every instruction of the sampled
 * basic block before the IP: an access earlier in the block whose address
 * registers no instruction since has written has a known address, and it
 * executed.  So the block is walked back from the IP (fa_decoder__walk())
 * to the nearest jump target, call, branch or the function's start, and
 * every such access is taken.  Where the interrupt lands after the access
 * that held it off (on Intel often the next instruction, on AMD often the
 * loop's closing branch), this finds it all the same.
 *
 * When the sampled instruction has no memory operand, or only one that is
 * always in the cache (a local, a spill slot), the time was spent on an
 * access before it: its own is left out when the block gave one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/build_bug.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include "access.h"
#include "decode.h"
#include "decode-int.h"
#include "key.h"
#include "tls-reg.h"
#include "../../addr_location.h"
#include "../../debug.h"
#include "../../dso.h"
#include "../../evsel.h"
#include "../../hashmap.h"
#include "../../insn-access.h"
#include "../../map.h"
#include "../../perf_regs.h"
#include "../../sample.h"
#include "../../symbol.h"

#define FA_INSN_MAX_LEN		15

/* Where the instruction before the one at @off starts, -1 if not known. */
static int fa_code__prev_insn(const struct fa_code *fn, u32 off)
{
	for (u32 back = 1; back <= FA_INSN_MAX_LEN && back <= off; back++) {
		if (test_bit(off - back, fn->starts))
			return off - back;
	}
	return -1;
}

/*
 * One step back from the instruction at @off: the instruction before it in
 * its basic block, or why there is none
 */
static int fa_code__step_back(const struct fa_code *fn, u32 off, const char *arch, bool is64,
			      struct insn_access_insn *insn, u32 *prev_off, bool *looped)
{
	int prev;

	/* a rotated loop's condition: on through the body's end */
	if (test_bit(off, fn->targets) && !(fn->rotated && test_bit(off, fn->rotated))) {
		/* a loop's head: once back through the jump that turns it */
		prev = *looped ? -1 : fa_code__back_edge(fn, off);
		if (prev < 0)
			return FA_WALK_ENTRY;
		*looped = true;
		insn_access__decode(insn, arch, fn->code + prev, fn->len - prev,
				    fn->key.offset + prev, is64);
		if (insn->branch != INSN_ACCESS_BR_JUMP || insn->indirect)
			return FA_WALK_UNKNOWN;
		/* a direct jump writes no register */
		insn->written_regs = 0;
		*prev_off = prev;
		return FA_WALK_MAX;
	}
	prev = fa_code__prev_insn(fn, off);
	if (prev < 0)
		return off ? FA_WALK_UNKNOWN : FA_WALK_START;
	insn_access__decode(insn, arch, fn->code + prev, off - prev, fn->key.offset + prev,
			    is64);
	if (insn->length != off - prev)
		return FA_WALK_UNKNOWN;
	if (insn->branch == INSN_ACCESS_BR_CALL)
		return FA_WALK_CALL;
	/*
	 * @off is no jump target: it was reached from a conditional jump not
	 * taken, whose block is the way here (a timer taken at the end of a
	 * block, as TCG takes it, lands after the jump)
	 */
	if (insn->branch && !(insn->branch == INSN_ACCESS_BR_JUMP && insn->cond))
		return FA_WALK_BRANCH;
	if (insn->written_regs == ~0ULL)
		return FA_WALK_UNKNOWN;
	*prev_off = prev;
	return FA_WALK_MAX;
}

/**
 * fa_code__walk - Walk back from the instruction at @off through its basic block
 * @fn: The function, swept
 * @off: The sampled instruction's offset in @fn
 * @found: Room for FA_BLOCK_MAX_ACC: the accesses whose address registers no
 *         instruction between them and @off writes, nearest first
 * @nr: Their number
 * @lost: Accesses skipped because such an instruction writes them
 *
 * The sampled registers give the addresses of @found.  The walk stops at the
 * block's start (a jump target, the function's start), after a call or an
 * unconditional branch, at an instruction whose effect on the registers is
 * not known, and in functions with indirect jumps, whose targets are not
 * known.  It goes on through a conditional jump that the instruction after
 * it, no jump target, shows was not taken, back from the condition of a
 * rotated loop into the body that falls through to it on every turn, and
 * once from a loop's head through the one jump back to it, up to the
 * sampled instruction: on every turn but the first, the body's end ran
 * just before its head.
 *
 * Return: enum fa_walk_stop, why it stopped.
 */
int fa_code__walk(const struct fa_code *fn, u32 off, const char *arch, bool is64,
		  struct fa_block_insn *found, u8 *nr, u8 *lost)
{
	struct insn_access_insn insn;
	u32 at = off, prev;
	u64 written = 0;
	int stop, steps = 0;
	bool looped = false;

	*nr = *lost = 0;
	if (off >= fn->len || !test_bit(off, fn->starts))
		return FA_WALK_UNKNOWN;
	if (fn->indirect)
		return FA_WALK_INDIRECT;
	for (;;) {
		if (*nr == FA_BLOCK_MAX_ACC || steps++ == FA_BLOCK_MAX_INSNS)
			return FA_WALK_LIMIT;
		stop = fa_code__step_back(fn, at, arch, is64, &insn, &prev, &looped);
		if (stop != FA_WALK_MAX)
			return stop;
		/* the turn before: what the walk had not seen of it */
		if (looped && prev <= off)
			return FA_WALK_ENTRY;
		written |= insn.written_regs;
		at = prev;
		if (insn.result != INSN_ACCESS__OK)
			continue;
		if (insn.addr_regs & written) {
			(*lost)++;
			continue;
		}
		found[(*nr)++] = (struct fa_block_insn){
			.back = (s32)off - (s32)at, .adjacent = steps == 1, .insn = insn,
		};
	}
}

/* The accesses of the sampled instruction @fi's block before it, walked once */
static void fa_decoder__walk(struct fa_decoder *dec, struct addr_location *al,
			     struct fa_insn *fi)
{
	struct fa_block_insn found[FA_BLOCK_MAX_ACC];
	const struct fa_code *fn;

	fi->walked = true;
	fi->walk_stop = FA_WALK_NO_CODE;
	if (!al->sym || fi->key.offset < al->sym->start || fi->key.offset >= al->sym->end)
		return;
	fn = fa_decoder__code(dec, al->map, al->sym);
	if (!fn || !fn->len)
		return;
	fi->walk_stop = fa_code__walk(fn, fi->key.offset - fn->key.offset, dec->arch,
				      fa_decoder__is64(dec, fn->key.dso), found, &fi->nr_block,
				      &fi->block_lost);
	if (fi->nr_block) {
		fi->block = memdup(found, fi->nr_block * sizeof(found[0]));
		if (!fi->block)
			fi->nr_block = 0;
	}
}

/* What the base register of the access at @off of @fn holds: a walk up to it */
static void fa_code__tls_reg(const struct fa_code *fn, u32 off, const char *arch, bool is64,
			     const struct insn_access_insn *access, struct fa_insn *fi)
{
	struct fa_tls_regs s;
	struct insn_access_insn insn;
	int base = access->ops[0].base;

	memset(&s, 0, sizeof(s));
	for (u32 at = 0; at < off; at += insn.length) {
		if (!test_bit(at, fn->starts) ||
		    insn_access__decode(&insn, arch, fn->code + at, fn->len - at,
					fn->key.offset + at, is64) || !insn.length)
			return;
		fa_tls_regs__step(&s, &insn);
	}
	if (base < 0 || base >= FA_TLS_NR_REGS || !s.reg[base].tp)
		return;
	fi->tp = s.reg[base];
	fi->tp_state = FA_TP_FOUND;
}

/*
 * The thread pointer, when the access at @ip (of @insn, the instruction of
 * @fi or the one before it) is through a register holding an address
 * relative to it
 */
static u64 fa_decoder__thread_ptr(struct fa_decoder *dec, struct addr_location *al,
				  struct fa_insn *fi, const struct insn_access_insn *insn, u64 ip,
				  struct regs_dump *regs)
{
	const struct fa_code *fn;
	u64 tp = 0;

	if (fi->tp_state == FA_TP_UNKNOWN) {
		fi->tp_state = FA_TP_NONE;
		fn = al->sym ? fa_decoder__code(dec, al->map, al->sym) : NULL;
		if (fn && fn->loads_tp && insn->nr_ops == 1 &&
		    map__map_ip(al->map, ip) > fn->key.offset &&
		    map__map_ip(al->map, ip) < fn->key.offset + fn->len)
			fa_code__tls_reg(fn, map__map_ip(al->map, ip) - fn->key.offset, dec->arch,
					 fa_decoder__is64(dec, fn->key.dso), insn, fi);
	}
	if (fi->tp_state == FA_TP_FOUND)
		fa_tls_reg__tp(&fi->tp, insn->ops[0].base, regs, &tp);
	return tp;
}

static struct regs_dump *fa_sample__regs(struct perf_sample *sample)
{
	bool kernel = sample->cpumode == PERF_RECORD_MISC_KERNEL ||
		      sample->cpumode == PERF_RECORD_MISC_GUEST_KERNEL;

	/* For a kernel sample the user registers are those of the syscall entry. */
	if (!kernel && sample->user_regs.abi != PERF_SAMPLE_REGS_ABI_NONE &&
	    sample->user_regs.regs)
		return &sample->user_regs;
	if (sample->intr_regs.abi != PERF_SAMPLE_REGS_ABI_NONE && sample->intr_regs.regs)
		return &sample->intr_regs;
	return NULL;
}

static int fa_drop__insn_result(u8 result)
{
	switch (result) {
	case INSN_ACCESS__NO_MEM:
		return FA_DROP_NO_MEM;
	case INSN_ACCESS__STACK:
		return FA_DROP_STACK;
	case INSN_ACCESS__VSIB:
		return FA_DROP_VSIB;
	case INSN_ACCESS__UNSUPPORTED:
		return FA_DROP_ARCH;
	default:
		return FA_DROP_DECODE;
	}
}

/* The red zone below the stack pointer, and how far up frames are looked for */
#define FA_RED_ZONE	128
#define FA_STACK_SPAN	(128 * 1024)

/*
 * Accesses near the stack pointer are to the stack, whatever register
 * they are based on: string operations on locals, pointers to locals of
 * callers.
 */
static void fa_access__mark_stack(struct fa_access *acc, int n, struct regs_dump *regs,
				  const char *arch)
{
	u64 sp;

	if (perf_reg_value(&sp, regs, perf_arch_reg_sp(arch)))
		return;
	for (int i = 0; i < n; i++) {
		/* a thread's variables are at the top of its stack's mapping */
		if (!(acc[i].flags & FA_ACC_SEG) && !acc[i].tp && acc[i].addr + FA_RED_ZONE >= sp &&
		    acc[i].addr < sp + FA_STACK_SPAN)
			acc[i].flags |= FA_ACC_FRAME;
	}
}

/*
 * The accesses of the sampled instruction @fi and of the first @nr_block
 * of its block before it, into @acc: the number made, -EINVAL if none
 * could be for a register that was not sampled
 */
static int fa_decoder__block(struct fa_decoder *dec, struct fa_insn *fi, int nr_block, u64 ip,
			     struct regs_dump *regs, struct fa_access *acc)
{
	const struct fa_access tmpl = acc[0];
	bool own = fi->insn.result == INSN_ACCESS__OK;
	int n = 0, m, err = 0;

	/* a sample at a local is the time of an access before it, if any */
	if (own && nr_block && fa_insn__waits(&fi->insn, dec->arch))
		own = false;
	if (own) {
		m = fa_access__from_insn(&fi->insn, ip, regs, 0, &tmpl, acc);
		if (m < 0)
			err = m;
		else
			n = m;
	}
	for (int i = 0; i < nr_block && n + INSN_ACCESS_MAX_OPS <= FA_DECODE_MAX_ACC; i++) {
		const struct fa_block_insn *b = &fi->block[i];

		m = fa_access__from_insn(&b->insn, ip - b->back, regs,
					 b->adjacent ? FA_ACC_SKID : FA_ACC_BLOCK, &tmpl, acc + n);
		if (m < 0)
			err = m;
		else
			n += m;
	}
	return n ?: err;
}

/*
 * The watched range [@bp_addr, +@bp_len): the access a register computed
 * is in it, unless the instruction overwrote its base register
 */
static void fa_access__watched(struct fa_access *acc, int n, u64 bp_addr, u64 bp_len)
{
	for (int i = 0; i < n; i++) {
		if (acc[i].addr >= bp_addr && acc[i].addr < bp_addr + bp_len)
			return;
	}
	acc[0].addr = bp_addr;
	acc[0].flags &= ~FA_ACC_INDEX;
}

/**
 * fa_code__watch - The accesses of a hardware watchpoint's hit at @off of @fn
 * @ip: The hit's IP, @off into @fn
 * @regs: Its registers, or NULL
 * @bp_addr: The address watched when it hit
 * @bp_len: The bytes watched
 * @acc: The template of the accesses in [0]; then room for them
 * @drop: Why there is none (enum fa_drop), when it returns 0
 *
 * x86 data breakpoints trap after the access: it is the instruction before
 * @ip (an access by a jump or call is not found: @ip is its target).  Its
 * address is the registers', or the watched address when they no longer
 * give one in the watched range (the instruction overwrote its base).
 *
 * Return: the number of accesses in @acc.
 */
int fa_code__watch(const struct fa_code *fn, u32 off, u64 ip, const char *arch, bool is64,
		   struct regs_dump *regs, u64 bp_addr, u64 bp_len, struct fa_access *acc,
		   int *drop)
{
	const struct fa_access tmpl = acc[0];
	struct insn_access_insn insn;
	int prev, n;

	*drop = FA_DROP_NO_CODE;
	if (off > fn->len || (off < fn->len && !test_bit(off, fn->starts)))
		return 0;
	prev = fa_code__prev_insn(fn, off);
	*drop = FA_DROP_DECODE;
	if (prev < 0 || insn_access__decode(&insn, arch, fn->code + prev, off - prev,
					    fn->key.offset + prev, is64))
		return 0;
	*drop = fa_drop__insn_result(insn.result);
	if (insn.result != INSN_ACCESS__OK)
		return 0;
	ip -= off - prev;
	n = regs ? fa_access__from_insn(&insn, ip, regs, FA_ACC_SKID, &tmpl, acc) : -EINVAL;
	if (n <= 0) {
		/* no registers: the watched address, the instruction's size and direction */
		acc[0] = tmpl;
		acc[0].ip = ip;
		acc[0].size = insn.ops[0].size;
		acc[0].op = insn.ops[0].op;
		acc[0].flags |= FA_ACC_SKID;
		n = 1;
	}
	fa_access__watched(acc, n, bp_addr, bp_len);
	for (int i = 0; i < n; i++)
		acc[i].flags |= FA_ACC_WATCH;
	return n;
}

/*
 * A hardware watchpoint's hit: the access that trapped (fa_code__watch()).
 * The sample's address is where the breakpoint was when it hit: a
 * breakpoint can be moved ('perf record --control', 'watch').
 */
int fa_decoder__watch(struct fa_decoder *dec, struct evsel *evsel, struct perf_sample *sample,
		      struct addr_location *al, struct fa_access *acc)
{
	const struct perf_event_attr *attr = &evsel->core.attr;
	u64 bp_addr = attr->sample_type & PERF_SAMPLE_ADDR && sample->addr ?
		      sample->addr : attr->bp_addr;
	/* moved, it may watch another length than it was opened with */
	u64 bp_len = bp_addr == attr->bp_addr ? attr->bp_len : 8;
	int n = 0, drop = FA_DROP_NO_SYM;
	const struct fa_code *fn;

	if (al->map && al->sym) {
		fn = fa_decoder__code(dec, al->map, al->sym);
		drop = FA_DROP_NO_CODE;
		if (fn)
			n = fa_code__watch(fn, map__map_ip(al->map, sample->ip) - al->sym->start,
					   sample->ip, dec->arch, dec->is64,
					   fa_sample__regs(sample), bp_addr, bp_len, acc,
					   &drop);
	}
	if (!n)
		fa_decoder__drop(dec, drop);
	return n;
}

/*
 * The block was walked back from the sampled instruction: turn its
 * accesses around, so that the accounting sees them as they executed (a
 * load before the store after it, the first reader of a line first)
 */
static void fa_access__program_order(struct fa_access *acc, int n)
{
	for (int i = 0, j = n - 1; i < j; i++, j--) {
		struct fa_access tmp = acc[i];

		acc[i] = acc[j];
		acc[j] = tmp;
	}
}

/*
 * With --placement later, the accesses of the sample as if taken later in
 * its block (place.c); -ENOENT to decode it as recorded
 */
static int fa_decoder__placed(struct fa_decoder *dec, struct addr_location *al,
			      const struct fa_insn *fi, struct perf_sample *sample,
			      struct regs_dump *regs, struct fa_access *acc)
{
	const struct fa_code *fn;
	int n;

	if (dec->place != FA_PLACE_LATER || dec->no_skid || !al->sym)
		return -ENOENT;
	fn = fa_decoder__code(dec, al->map, al->sym);
	if (!fn || !fn->len || fi->key.offset < fn->key.offset)
		return -ENOENT;
	n = fa_place__later(fn, fi->key.offset - fn->key.offset, fi, sample->ip, dec->arch,
			    fa_decoder__is64(dec, fn->key.dso), regs, sample->time,
			    dec->place_seed, acc);
	if (n < 0)
		return -ENOENT;
	dec->placed++;
	return n;
}

/* A software sample: decode its instruction and its block before it with its registers. */
int fa_decoder__sw(struct fa_decoder *dec, struct perf_sample *sample,
		   struct addr_location *al, struct fa_access *acc)
{
	struct regs_dump *regs = fa_sample__regs(sample);
	const struct insn_access_insn *insn;
	struct fa_insn *fi;
	u64 ip = sample->ip;
	int n, reason;

	if (!dec->arch || strcmp(dec->arch, "x86")) {
		reason = FA_DROP_ARCH;
		goto out_drop;
	}
	if (!regs) {
		reason = FA_DROP_NO_REGS;
		goto out_drop;
	}
	if (!al->map) {
		reason = FA_DROP_NO_MAP;
		goto out_drop;
	}
	fi = fa_decoder__insn_entry(dec, al->map, ip);
	if (!fi || !fi->readable) {
		fa_decoder__drop_at(dec, fi && fi->changed ? FA_DROP_CHANGED : FA_DROP_NO_CODE,
				    map__dso(al->map));
		return 0;
	}
	if (!dec->no_skid) {
		if (!fi->walked)
			fa_decoder__walk(dec, al, fi);
		dec->stats.walk_stop[fi->walk_stop]++;
		dec->stats.block_lost += fi->block_lost;
	}
	insn = &fi->insn;
	n = fa_decoder__placed(dec, al, fi, sample, regs, acc);
	if (!n) {
		reason = FA_DROP_NO_MEM;
		goto out_drop;
	}
	if (n == -ENOENT)
		n = fa_decoder__block(dec, fi, dec->no_skid ? 0 : fi->nr_block, ip, regs, acc);
	if (n > 1 && dec->place == FA_PLACE_ONE) {
		n = fa_place__one(sample->time, dec->place_seed, acc, n);
		dec->placed++;
	}
	if (n > 0) {
		const struct insn_access_insn *first = NULL;
		u64 first_ip = acc[0].ip;

		if (first_ip == ip)
			first = &fi->insn;
		else if (fi->nr_block && first_ip == ip - fi->block[0].back)
			first = &fi->block[0].insn;
		if (first && !(acc[0].flags & (FA_ACC_SEG | FA_ACC_FRAME)))
			acc[0].tp = fa_decoder__thread_ptr(dec, al, fi, first, first_ip, regs);
		fa_access__mark_stack(acc, n, regs, dec->arch);
		fa_access__program_order(acc, n);
		return n;
	}
	if (n < 0) {
		reason = FA_DROP_NO_REG;
		goto out_drop;
	}
	if (insn->result == INSN_ACCESS__NO_MEM && !al->sym) {
		/* the access is likely the instruction before, which needs the symbol */
		fa_decoder__drop_at(dec, FA_DROP_NO_SYM, map__dso(al->map));
		return 0;
	}
	reason = fa_drop__insn_result(insn->result);
out_drop:
	fa_decoder__drop(dec, reason);
	return 0;
}
