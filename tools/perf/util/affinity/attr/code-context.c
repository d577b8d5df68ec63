// SPDX-License-Identifier: GPL-2.0
/* The code context method: the fields of the sampled functions (see attr.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include "attr.h"
#include "attr-int.h"
#include "../fields/fields.h"
#include "../decode/tls-reg.h"
#include "../../dso.h"
#include "../../env.h"
#include "../../evsel.h"
#include "../../insn-access.h"
#include "../../map.h"
#include "../../symbol.h"
#include "../../thread.h"

/* Count a sample of @fn at @off into it */
static void fa_func__add_ip(struct fa_func *fn, u64 off)
{
	int i;

	for (i = 0; i < fn->nr_ips && fn->ips[i].off != off; i++)
		;
	if (i == fn->nr_ips && (i == FA_FUNC_IPS || off > UINT_MAX)) {
		fn->other_ips++;
		return;
	}
	if (i == fn->nr_ips)
		fn->ips[fn->nr_ips++] = (struct fa_func_ip){ .off = off, };
	fn->ips[i].samples++;
}

/*
 * Every sample counts for the code it is in, memory access or not; a
 * tracepoint's is the code that fired it, not the code of the accesses.
 */
int fa_attr__add_code(struct fa_attr *a, const struct fa_origin *o)
{
	struct fa_func **slot, *fn;
	bool created = false;
	struct dso *dso;
	int owner;

	a->cur_func = NULL;
	/* the code's weight is the time sampled in it: a watchpoint's hit is none */
	if (!a->code_context || o->source == FA_SRC_TP || o->watch || !o->map || !o->sym)
		return 0;
	dso = fa_attr__same_dso(a, map__dso(o->map));
	if (!dso)
		return -ENOMEM;
	slot = &a->func_cache[fa_cache__slot(o->sym->start ^ fa_dso__id(dso))];
	fn = *slot;
	if (!fn || fa_dso__id(fn->key.dso) != fa_dso__id(dso) || fn->key.offset != o->sym->start) {
		fn = fa_attr__findnew(a->funcs, dso, o->sym->start, sizeof(*fn), &created);
		if (!fn)
			return -ENOMEM;
		*slot = fn;
	}
	if (created) {
		fn->map = map__get(o->map);
		fn->sym = o->sym;
		fn->thread = thread__get(o->thread);
		fn->evsel = o->evsel;
		fn->cpumode = o->cpumode;
		fn->cpus = bitmap_zalloc(a->s->cfg->nr_cpus);
		fn->tids = bitmap_zalloc(FA_MAX_THREADS);
		if (!fn->cpus || !fn->tids)
			return -ENOMEM;
		fn->id = hashmap__size(a->funcs);
	}
	a->cur_func = fn;
	if (o->cpu < (u32)a->s->cfg->nr_cpus)
		__set_bit(o->cpu, fn->cpus);
	owner = fa_owners__index(&a->s->owners, o->rec, o->tid);
	if (owner < 0)
		return owner;
	__set_bit(owner, fn->tids);
	if (o->tid != (u32)thread__tid(fn->thread))
		fn->threads = true;
	fn->weight += o->period;
	fn->samples++;
	fa_func__add_ip(fn, map__map_ip(o->map, o->ip) - o->sym->start);
	fn->by_group[fa_boot__group(o->time, a->s->cfg->boot_ns)]++;
	return 0;
}

/* The instructions of a function the decoder's sweep found, those accessing memory */
struct fa_insn_iter {
	const struct fa_func		*fn;
	const struct fa_code		*code;
	const char			*arch;
	bool				 is64;
	u32				 off;
	u64				 ip;
	struct insn_access_insn		 insn;
};

static void fa_insn_iter__init(struct fa_insn_iter *it, const struct fa_func *fn,
			       const struct fa_code *code)
{
	it->fn = fn;
	it->code = code;
	it->arch = perf_env__arch(evsel__env(fn->evsel));
	it->is64 = dso__is_64_bit(map__dso(fn->map));
	it->off = 0;
}

/* The next instruction, whatever it does */
static bool fa_insn_iter__next_any(struct fa_insn_iter *it)
{
	const struct fa_code *code = it->code;
	u32 off = it->off;

	if (off >= code->len)
		return false;
	it->ip = map__unmap_ip(it->fn->map, it->fn->sym->start + off);
	if (!test_bit(off, code->starts) ||
	    insn_access__decode(&it->insn, it->arch, code->code + off, code->len - off,
				it->ip, it->is64) || !it->insn.length)
		return false;
	it->off += it->insn.length;
	return true;
}

/* The next instruction that accesses memory */
static bool fa_insn_iter__next(struct fa_insn_iter *it)
{
	while (fa_insn_iter__next_any(it)) {
		if (it->insn.result == INSN_ACCESS__OK)
			return true;
	}
	return false;
}

/* Samples of a function outside its sampled loops that make the loops no visit */
#define FA_FUNC_OUTSIDE		10	/* percent */

/*
 * The code whose stores make @fn a writer: the loops its samples are in, as
 * [@lo, @hi], when nearly all are in one (main's loop over a queue it
 * holds, not the constructor before it, which stores the queue's members
 * once); else the whole function.  Its loads outside count all the same:
 * once a call, they are part of every visit.
 */
static void fa_func__store_code(const struct fa_func *fn, const struct fa_code *code,
				u32 *lo, u32 *hi)
{
	u64 outside = fn->other_ips;
	u32 from = code->len, to = 0;

	for (int i = 0; i < fn->nr_ips; i++) {
		const struct fa_func_ip *ip = &fn->ips[i];
		const struct fa_back_edge *in = NULL;

		/* the innermost: code after a loop can jump back before it */
		for (int k = 0; k < code->nr_back_edges; k++) {
			const struct fa_back_edge *be = &code->back_edges[k];

			if (ip->off >= be->head && ip->off <= be->jump &&
			    (!in || be->jump - be->head < in->jump - in->head))
				in = be;
		}
		if (!in) {
			outside += ip->samples;
			continue;
		}
		from = min(from, in->head);
		to = max(to, in->jump);
	}
	*lo = 0;
	*hi = code->len;
	if (from <= to && outside * 100 <= fn->samples * FA_FUNC_OUTSIDE) {
		*lo = from;
		*hi = to;
	}
}

/* The fields of @te that the memory operands of @fn access, and which it stores to */
static int fa_func__fields(struct fa_attr *a, struct fa_func *fn, struct fa_type_entry *te,
			   const struct fa_code *code, int *fields, bool *stored)
{
	struct map_symbol ms = { .maps = thread__maps(fn->thread), .map = fn->map,
				 .sym = fn->sym, };
	struct fa_insn_iter it;
	int nr = 0;
	u32 lo, hi;

	fa_func__store_code(fn, code, &lo, &hi);
	fa_insn_iter__init(&it, fn, code);
	while (fa_insn_iter__next(&it)) {
		u32 off = it.off - it.insn.length;
		struct fa_memo *m;
		int f, i;

		m = fa_attr__insn(a, &ms, it.ip, fn->thread, fn->cpumode, fn->evsel);
		if (!m || m->reason != FA_ATTR_NONE || m->te != te)
			continue;
		f = fa_struct__find_leaf(te->st, m->offset);
		if (f < 0)
			continue;
		for (i = 0; i < nr && fields[i] != f; i++)
			;
		if (i == nr && nr == FA_MAX_WINDOW)
			continue;
		if (i == nr) {
			fields[nr] = f;
			stored[nr++] = false;
		}
		if ((it.insn.ops[0].op & INSN_ACCESS_OP_STORE) && off >= lo && off <= hi)
			stored[i] = true;
	}
	return nr;
}

/*
 * The thread-local arrays of scalars the code of @fn accesses, and the
 * register it indexes each by: %fs:disp(,%reg,scale), or an address
 * relative to the thread pointer in a register (tls-reg.h), names the array
 */
static void fa_func__tls_arrays(struct fa_attr *a, struct fa_func *fn, const struct fa_code *code)
{
	struct fa_tls_regs s;
	struct fa_insn_iter it;

	if (fn->cpumode != PERF_RECORD_MISC_USER || !fa_attr__tls(a, map__dso(fn->map)))
		return;
	memset(&s, 0, sizeof(s));
	fa_insn_iter__init(&it, fn, code);
	while (fa_insn_iter__next_any(&it)) {
		for (int k = 0; it.insn.result == INSN_ACCESS__OK && k < it.insn.nr_ops; k++) {
			struct fa_memo *m;
			s64 tpoff;
			int index;
			u64 off;

			if (!fa_tls_regs__operand(&s, &it.insn.ops[k], &tpoff, &index) ||
			    fa_x86__tcb(tpoff))
				continue;
			m = fa_attr__tls_memo(a, map__dso(fn->map), tpoff, &off);
			if (m && m->arr)
				fa_array__func(m->arr, fn->id, fn->sym->name, fn->samples,
					       index >= 0 ? index : FA_ARRAY_NO_INDEX,
					       /*sampled=*/false);
		}
		fa_tls_regs__step(&s, &it.insn);
	}
}

/* The samples of the functions whose accesses to arrays were sampled */
static int fa_attr__array_weights(struct fa_attr *a, struct fa_func **funcs, size_t nr)
{
	struct fa_func **by_id = calloc(nr + 2, sizeof(*by_id));

	if (!by_id)
		return -ENOMEM;
	for (size_t n = 0; n < nr; n++) {
		if (funcs[n]->id <= nr)
			by_id[funcs[n]->id] = funcs[n];
	}
	for (int i = 0; i < a->s->arrays.nr; i++) {
		struct fa_array *arr = a->s->arrays.arrays[i];

		for (int k = 0; k < arr->nr_funcs; k++) {
			const struct fa_func *fn = arr->funcs[k].func <= nr ?
						   by_id[arr->funcs[k].func] : NULL;

			if (fn)
				arr->funcs[k].weight = max(arr->funcs[k].weight, fn->samples);
		}
	}
	free(by_id);
	return 0;
}

/* What the code of @fn says of the @nr fields of @t it accesses */
static int fa_func__add_code(struct fa_func *fn, struct fa_type *t, const int *fields,
			     const bool *stored, int nr)
{
	const unsigned long *owners = t->cfg.owners ? fn->tids : fn->cpus;

	for (int k = 0; k < nr; k++) {
		if (fa_type__add_code_access(t, fields[k], stored[k], fn->weight, owners) ||
		    (stored[k] && fa_type__add_code_store(t, fn->id, fields[k])))
			return -ENOMEM;
	}
	return 0;
}

static int fa_func__cmp(const void *pa, const void *pb)
{
	const struct fa_func *fa = *(struct fa_func * const *)pa;
	const struct fa_func *fb = *(struct fa_func * const *)pb;

	if (fa_dso__id(fa->key.dso) != fa_dso__id(fb->key.dso))
		return fa_dso__id(fa->key.dso) < fa_dso__id(fb->key.dso) ? -1 : 1;
	return fa->key.offset < fb->key.offset ? -1 : fa->key.offset > fb->key.offset;
}

/*
 * The sampled functions one DSO after the other: data-type profiling keeps
 * the debug info of one DSO open, and opening it again for every function
 * of another DSO in between took minutes on large binaries.
 */
static struct fa_func **fa_attr__funcs_by_dso(struct fa_attr *a, size_t *nr)
{
	struct fa_func **funcs = calloc(hashmap__size(a->funcs) + 1, sizeof(*funcs));
	struct hashmap_entry *cur;
	size_t bkt;

	*nr = 0;
	if (!funcs)
		return NULL;
	hashmap__for_each_entry(a->funcs, cur, bkt)
		funcs[(*nr)++] = cur->pvalue;
	qsort(funcs, *nr, sizeof(*funcs), fa_func__cmp);
	return funcs;
}

/**
 * fa_attr__code_context - Weigh the field pairs every sampled function
 * accesses with the samples of that function, for every sampled type
 * @dec: The decoder of the samples: it has the functions' code
 */
int fa_attr__code_context(struct fa_attr *a, struct fa_decoder *dec)
{
	size_t nr_funcs;
	struct fa_func **funcs = fa_attr__funcs_by_dso(a, &nr_funcs);

	if (!funcs)
		goto out_enomem;
	for (size_t n = 0; n < nr_funcs; n++) {
		struct fa_func *fn = funcs[n];
		const struct fa_code *code = fa_decoder__code(dec, fn->map, fn->sym);
		int fields[FA_MAX_WINDOW];
		bool stored[FA_MAX_WINDOW];

		if (!code)
			goto out_enomem;
		if (code->len)
			fa_func__tls_arrays(a, fn, code);
		for (int i = 0; code->len && i < a->s->nr_types; i++) {
			struct fa_type_entry *te = a->s->types[i];
			int nr;

			if (!te->t)
				continue;
			nr = fa_func__fields(a, fn, te, code, fields, stored);
			/* no type for its instructions: the fields its samples were to */
			if (!nr)
				nr = fa_type__sampled_fields(te->t, fn->sym->name, fields, stored,
							     FA_MAX_WINDOW);
			if (nr < 0)
				goto out_enomem;
			if (nr)
				fa_type__add_thread(te->t, thread__tid(fn->thread), fn->threads);
			if (fa_func__add_code(fn, te->t, fields, stored, nr))
				goto out_enomem;
			if (nr > 1 && fa_type__add_code_fields(te->t, fields, nr, fn->weight))
				goto out_enomem;
			if (fa_type__add_code_visit(te->t, fields, nr, fn->by_group, fn->weight))
				goto out_enomem;
		}
	}
	if (fa_attr__array_weights(a, funcs, nr_funcs))
		goto out_enomem;
	free(funcs);
	return 0;

out_enomem:
	free(funcs);
	return -ENOMEM;
}
