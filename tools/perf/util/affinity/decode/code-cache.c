// SPDX-License-Identifier: GPL-2.0
/*
 * The code samples are decoded from, read once: each sampled instruction
 * decoded (struct fa_insn), each function swept for its instruction starts
 * and jump targets (struct fa_code), from the binary recorded only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include "decode.h"
#include "decode-int.h"
#include "key.h"
#include "tls-reg.h"
#include "../../build-id.h"
#include "../../debug.h"
#include "../../dso.h"
#include "../../hashmap.h"
#include "../../insn-access.h"
#include "../../map.h"
#include "../../symbol.h"

#define FA_INSN_READ		16

/* Whether the file a DSO's code is read from is the binary recorded */
struct fa_dso_code {
	struct fa_dso_key	 key;
	bool			 changed;
};

int fa_decoder__cache_init(struct fa_decoder *dec)
{
	dec->insns = fa_dso_map__new();
	dec->funcs = fa_dso_map__new();
	dec->dsos = fa_dso_map__new();
	return dec->insns && dec->funcs && dec->dsos ? 0 : -ENOMEM;
}

/*
 * The code is read from the build ID cache when it has the binary, else
 * from the recorded path: a binary rebuilt since has other instructions
 * there, and decoding them would make up accesses.
 */
static bool fa_decoder__changed(struct fa_decoder *dec, struct dso *dso)
{
	struct fa_dso_key key = { .dso = dso, };
	struct fa_dso_code *c;
	struct build_id bid;

	if (hashmap__find(dec->dsos, &key, &c))
		return c->changed;
	c = zalloc(sizeof(*c));
	if (!c)
		return false;
	c->key.dso = dso__get(dso);
	c->changed = dso__has_build_id(dso) &&
		     dso__binary_type(dso) == DSO_BINARY_TYPE__SYSTEM_PATH_DSO &&
		     filename__read_build_id(dso__long_name(dso), &bid) > 0 &&
		     !dso__build_id_equal(dso, &bid);
	if (hashmap__add(dec->dsos, &c->key, c)) {
		dso__put(dso);
		free(c);
		return false;
	}
	if (c->changed)
		pr_debug("%s: build ID differs from the recorded one, its code is not used\n",
			 dso__long_name(dso));
	return c->changed;
}

static void fa_code__delete(struct fa_code *fn)
{
	dso__put(fn->key.dso);
	zfree(&fn->starts);
	zfree(&fn->targets);
	zfree(&fn->rotated);
	zfree(&fn->back_edges);
	zfree(&fn->code);
	free(fn);
}

void fa_decoder__cache_exit(struct fa_decoder *dec)
{
	struct hashmap_entry *cur;
	size_t bkt;

	if (dec->insns) {
		hashmap__for_each_entry(dec->insns, cur, bkt) {
			struct fa_insn *fi = cur->pvalue;

			dso__put(fi->key.dso);
			free(fi->block);
			free(fi);
		}
		hashmap__free(dec->insns);
		dec->insns = NULL;
	}
	if (dec->funcs) {
		hashmap__for_each_entry(dec->funcs, cur, bkt)
			fa_code__delete(cur->pvalue);
		hashmap__free(dec->funcs);
		dec->funcs = NULL;
	}
	if (dec->dsos) {
		hashmap__for_each_entry(dec->dsos, cur, bkt)
			dso__put(((struct fa_dso_code *)cur->pvalue)->key.dso);
	}
	fa_map__free_values(dec->dsos);
	dec->dsos = NULL;
}

bool fa_decoder__is64(struct fa_decoder *dec, struct dso *dso)
{
	return dso__loaded(dso) ? dso__is_64_bit(dso) : dec->is64;
}

/* The instruction at @ip, decoded once: NULL when out of memory */
struct fa_insn *fa_decoder__insn_entry(struct fa_decoder *dec, struct map *map, u64 ip)
{
	struct fa_dso_key key = { .dso = map__dso(map), .offset = map__map_ip(map, ip), };
	struct fa_insn **slot = &dec->insn_cache[fa_cache__slot(key.offset ^
								 fa_dso__id(key.dso))];
	u8 code[FA_INSN_READ];
	struct fa_insn *fi = *slot;
	ssize_t n;

	if (fi && fa_dso__id(fi->key.dso) == fa_dso__id(key.dso) && fi->key.offset == key.offset)
		return fi;
	if (hashmap__find(dec->insns, &key, &fi)) {
		*slot = fi;
		return fi;
	}

	fi = zalloc(sizeof(*fi));
	if (!fi)
		return NULL;
	fi->key.dso = dso__get(key.dso);
	fi->key.offset = key.offset;
	n = dso__data_read_offset(key.dso, dec->machine, key.offset, code, sizeof(code));
	fi->changed = n > 0 && fa_decoder__changed(dec, key.dso);
	if (n > 0 && !fi->changed) {
		fi->readable = true;
		insn_access__decode(&fi->insn, dec->arch, code, n, key.offset,
				    fa_decoder__is64(dec, key.dso));
	}
	if (hashmap__add(dec->insns, &fi->key, fi)) {
		dso__put(fi->key.dso);
		free(fi);
		return NULL;
	}
	*slot = fi;
	return fi;
}

/**
 * fa_decoder__insn - The decoded instruction at @ip
 *
 * Return: NULL if @ip is in no map or its code cannot be read.
 */
const struct insn_access_insn *fa_decoder__insn(struct fa_decoder *dec,
						struct addr_location *al, u64 ip)
{
	struct fa_insn *fi;

	if (!al->map)
		return NULL;
	fi = fa_decoder__insn_entry(dec, al->map, ip);
	return fi && fi->readable ? &fi->insn : NULL;
}

/* A jump of a function: from and to where, whether conditional */
struct fa_jump {
	u32	from;
	u32	to;
	bool	cond;
};

/*
 * Whether jump target @to is the condition of a rotated loop: every jump
 * to it an unconditional one from before it (the loop's entry, once), and
 * a jump at or after it back into the body between the last of those and
 * it.  The body falls through to it on every turn: what a sample there
 * follows is the body's end, not the entry.  An if/else joins the same way
 * but jumps back into neither branch.
 */
static bool fa_jumps__rotated(const struct fa_jump *jumps, int nr, u32 to)
{
	u32 entry = 0;

	for (int i = 0; i < nr; i++) {
		if (jumps[i].to != to)
			continue;
		if (jumps[i].cond || jumps[i].from >= to)
			return false;
		entry = max(entry, jumps[i].from);
	}
	for (int i = 0; i < nr; i++) {
		if (jumps[i].from >= to && jumps[i].to > entry && jumps[i].to < to)
			return true;
	}
	return false;
}

static void fa_code__rotated(struct fa_code *fn, const struct fa_jump *jumps, int nr)
{
	for (int i = 0; fn->rotated && i < nr; i++) {
		if (!jumps[i].cond && jumps[i].from < jumps[i].to &&
		    fa_jumps__rotated(jumps, nr, jumps[i].to))
			__set_bit(jumps[i].to, fn->rotated);
	}
}

static int fa_back_edge__cmp(const void *a, const void *b)
{
	const struct fa_back_edge *x = a, *y = b;

	return x->head < y->head ? -1 : x->head > y->head;
}

/*
 * The loops' heads with one jump back to them, and that jump: a sample at
 * the head follows the body's end (gcc enters a 'for' by falling through
 * to its head after a guard, and tests at the bottom).  A head two jumps go
 * back to has no one body's end before it.
 */
static void fa_code__back_edges(struct fa_code *fn, const struct fa_jump *jumps, int nr)
{
	struct fa_back_edge *be = calloc(nr ?: 1, sizeof(*be));
	int n = 0;

	if (!be)
		return;
	for (int i = 0; i < nr; i++) {
		int back = 0;

		if (jumps[i].from < jumps[i].to)
			continue;
		for (int j = 0; j < nr; j++)
			back += jumps[j].to == jumps[i].to && jumps[j].from >= jumps[j].to;
		if (back == 1)
			be[n++] = (struct fa_back_edge){ .head = jumps[i].to, .jump = jumps[i].from, };
	}
	qsort(be, n, sizeof(*be), fa_back_edge__cmp);
	fn->back_edges = be;
	fn->nr_back_edges = n;
}

/**
 * fa_code__back_edge - The one jump back to loop head @head of @fn
 *
 * Return: its offset, or -1 when @head is no such head.
 */
int fa_code__back_edge(const struct fa_code *fn, u32 head)
{
	struct fa_back_edge key = { .head = head, }, *be;

	if (!fn->nr_back_edges)
		return -1;
	be = bsearch(&key, fn->back_edges, fn->nr_back_edges, sizeof(key), fa_back_edge__cmp);
	return be ? (int)be->jump : -1;
}

/* Note a jump of @fn, for fa_code__rotated(); none when there is no room */
static void fa_jumps__add(struct fa_jump **jumps, int *nr, int *alloc, u32 from, u32 to,
			  bool cond)
{
	if (*nr == *alloc) {
		int n = *alloc ? *alloc * 2 : 64;
		struct fa_jump *j = realloc(*jumps, n * sizeof(*j));

		if (!j)
			return;
		*jumps = j;
		*alloc = n;
	}
	(*jumps)[(*nr)++] = (struct fa_jump){ .from = from, .to = to, .cond = cond, };
}

/*
 * Sweep a function from its start, noting instruction starts, jump targets
 * and the conditions of rotated loops.  An instruction whose operand cannot
 * be addressed (an EVEX compressed displacement) still has its length: the
 * sweep goes on.
 */
void fa_code__sweep(struct fa_code *fn, const char *arch, bool is64)
{
	struct insn_access_insn insn;
	struct fa_jump *jumps = NULL;
	int nr = 0, alloc = 0;
	u32 off = 0;

	while (off < fn->len) {
		if (insn_access__decode(&insn, arch, fn->code + off, fn->len - off,
					fn->key.offset + off, is64) || !insn.length)
			break;
		__set_bit(off, fn->starts);
		if (fa_tls_reg__loads_tp(&insn))
			fn->loads_tp = true;
		if (insn.branch == INSN_ACCESS_BR_JUMP && insn.indirect) {
			fn->indirect = true;
		} else if (insn.branch == INSN_ACCESS_BR_JUMP && insn.target >= fn->key.offset &&
			   insn.target < fn->key.offset + fn->len) {
			__set_bit(insn.target - fn->key.offset, fn->targets);
			fa_jumps__add(&jumps, &nr, &alloc, off, insn.target - fn->key.offset,
				      insn.cond);
		}
		off += insn.length;
	}
	fa_code__rotated(fn, jumps, nr);
	fa_code__back_edges(fn, jumps, nr);
	free(jumps);
}

/* The code of function @sym of @dso (fa_decoder__code()) */
static const struct fa_code *fa_decoder__dso_code(struct fa_decoder *dec, struct dso *dso,
						  struct symbol *sym)
{
	struct fa_dso_key key = { .dso = dso, .offset = sym->start, };
	struct fa_code *fn;
	ssize_t n;

	if (hashmap__find(dec->funcs, &key, &fn))
		return fn;

	fn = zalloc(sizeof(*fn));
	if (!fn)
		return NULL;
	fn->key.dso = dso__get(key.dso);
	fn->key.offset = key.offset;
	fn->len = min(sym->end - sym->start, (u64)FA_FUNC_MAX_SIZE);
	if (sym->end - sym->start > FA_FUNC_MAX_SIZE)
		dec->stats.code_cut++;
	fn->code = malloc(fn->len ?: 1);
	fn->starts = bitmap_zalloc(fn->len + 1);
	fn->targets = bitmap_zalloc(fn->len + 1);
	fn->rotated = bitmap_zalloc(fn->len + 1);
	if (!fn->code || !fn->starts || !fn->targets || !fn->rotated)
		goto out_delete;

	n = dso__data_read_offset(key.dso, dec->machine, key.offset, fn->code, fn->len);
	fn->len = n > 0 && !fa_decoder__changed(dec, key.dso) ? n : 0;
	fa_code__sweep(fn, dec->arch, fa_decoder__is64(dec, key.dso));
	if (hashmap__add(dec->funcs, &fn->key, fn))
		goto out_delete;
	return fn;

out_delete:
	fa_code__delete(fn);
	return NULL;
}

/**
 * fa_decoder__code - The code of a function, read and swept once
 * @dec: Decoder
 * @map: The function's map
 * @sym: The function
 *
 * Functions longer than FA_FUNC_MAX_SIZE are cut there (and counted); the
 * code of a binary that is not the one recorded is empty.
 *
 * Return: the code, NULL when out of memory.
 */
const struct fa_code *fa_decoder__code(struct fa_decoder *dec, struct map *map,
				       struct symbol *sym)
{
	return fa_decoder__dso_code(dec, map__dso(map), sym);
}

#define FA_BASE_REGS	32	/* the general purpose registers' perf ids are below */

/* A global's address the 8-byte load @insn at @ip puts in a register, and which */
static u64 fa_insn__loads_global(const struct insn_access_insn *insn, u64 ip, int *reg)
{
	const struct insn_mem_operand *op = &insn->ops[0];

	if (insn->nr_ops != 1 || op->op != INSN_ACCESS_OP_LOAD || op->base != INSN_ACCESS_REG_IP ||
	    op->index != INSN_ACCESS_REG_NONE || op->size != 8 ||
	    hweight64(insn->written_regs) != 1)
		return 0;
	*reg = __builtin_ctzll(insn->written_regs);
	return *reg < FA_BASE_REGS ? ip + insn->length + op->disp : 0;
}

/**
 * fa_code__base_global - The global variable the base register of the
 * instruction at @off was loaded from, where the code before it shows it
 * (mov ptr(%rip),%rax ... addq $1,(%rax,%rdx,8): a heap array reached
 * through a pointer variable), in the order of addresses
 *
 * Return: the variable's address (the function's address space), 0 when
 * the code does not show one.
 */
static u64 fa_code__base_global(const struct fa_code *fn, u32 off, const char *arch, bool is64)
{
	u64 from[FA_BASE_REGS] = { 0, };
	struct insn_access_insn insn;
	u32 o = 0;
	int reg;

	while (o <= off && o < fn->len) {
		u64 ip = fn->key.offset + o, g;

		if (insn_access__decode(&insn, arch, fn->code + o, fn->len - o, ip, is64) ||
		    !insn.length)
			return 0;
		if (o == off)
			break;
		g = fa_insn__loads_global(&insn, ip, &reg);
		if (g) {
			from[reg] = g;
		} else if (insn.lea_dst >= 0 && insn.lea_dst < FA_BASE_REGS) {
			/* an element's address from the base: the same array */
			from[insn.lea_dst] = insn.lea.base >= 0 && insn.lea.base < FA_BASE_REGS ?
					     from[insn.lea.base] : 0;
		} else {
			for (int r = 0; r < FA_BASE_REGS; r++) {
				if (insn.written_regs & (1ULL << r))
					from[r] = 0;
			}
		}
		o += insn.length;
	}
	if (o != off)
		return 0;
	for (int i = 0; i < insn.nr_ops; i++) {
		reg = insn.ops[i].base;
		if (reg >= 0 && reg < FA_BASE_REGS && from[reg])
			return from[reg];
	}
	return 0;
}

/* fa_code__base_global() of the instruction @off bytes into function @sym of @dso */
u64 fa_decoder__base_global(struct fa_decoder *dec, struct dso *dso, struct symbol *sym, u32 off)
{
	const struct fa_code *fn = fa_decoder__dso_code(dec, dso, sym);

	if (!fn || off >= fn->len)
		return 0;
	return fa_code__base_global(fn, off, dec->arch, fa_decoder__is64(dec, dso));
}

void fa_decoder__drop(struct fa_decoder *dec, enum fa_drop reason)
{
	dec->stats.dropped[reason]++;
	dec->last_drop = reason;
}

/* A drop for @dso's code: which binaries to name when nothing is decoded */
void fa_decoder__drop_at(struct fa_decoder *dec, enum fa_drop reason, struct dso *dso)
{
	struct fa_drop_dso *d;

	fa_decoder__drop(dec, reason);
	if (!dso)
		return;
	d = fa_u64_map__findnew(dec->drop_dsos, (u64)reason << 56 ^ (u64)(unsigned long)dso,
				sizeof(*d));
	if (!d)
		return;		/* only the name is lost */
	if (!d->dso) {
		d->dso = dso__get(dso);
		d->reason = reason;
	}
	d->count++;
}
