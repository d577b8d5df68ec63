// SPDX-License-Identifier: GPL-2.0
/* An access attributed to its type, field and instance, and accounted (see attr.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/string.h>
#include "attr.h"
#include "attr-int.h"
#include "../fields/fields.h"
#include "../accumulate/worker.h"
#include "../../hashmap.h"
#include "../../addr_location.h"
#include "../../dso.h"
#include "../../map.h"
#include "../../symbol.h"
#include "../../thread.h"

/* Fields one access covers at most: a 64-byte store of eight longs */
#define FA_WIDE_FIELDS	8

/*
 * Data-type profiling found no type: say why better where the operand does.
 * Stack slots and the canary only have a type when a local variable lives
 * there.
 */
static int fa_access__fail_reason(const struct fa_access *acc, int reason)
{
	if (acc->flags & FA_ACC_SEG)
		return fa_x86__tcb(acc->addr) ? FA_ATTR_STACK : FA_ATTR_TLS;
	if (acc->flags & FA_ACC_FRAME)
		return FA_ATTR_STACK;
	return reason;
}

/* Identity of an instance: its base in its address space */
static u64 fa_instance__key(u64 base, u32 space)
{
	return base ^ ((u64)space * 0x9E3779B97F4A7C15ULL);
}

/*
 * The function @o sampled, by the name its sites are counted by: of several
 * recordings, the first one's symbol of it (its name, not another copy)
 */
static const char *fa_attr__site(struct fa_attr *a, const struct fa_origin *o)
{
	struct symbol *sym = NULL;
	struct dso *dso;

	if (!o->sym)
		return "[unknown]";
	if (!a->several || !o->map)
		return o->sym->name;
	if (a->cur_func)
		return a->cur_func->sym->name;
	dso = fa_attr__same_dso(a, map__dso(o->map));
	if (dso)
		sym = dso__find_symbol(dso, o->sym->start);
	return sym ? sym->name : o->sym->name;
}

/* One access of @parts that an access to @parts fields is */
static int fa_attr__account_part(struct fa_attr *a, struct fa_type_entry *te,
				 const struct fa_access *acc, u64 base, u64 instance, int field,
				 int parts, bool held)
{
	const struct fa_origin *o = acc->origin;
	u32 nr = (o->nr_accesses ?: 1) * parts;
	struct fa_sample s = {
		.time = o->time, .base = base, .instance = instance,
		/* the accesses of one sample share its time */
		.weight = (double)o->period / nr,
		.data_src = acc->data_src, .cpu = o->cpu, .tid = o->tid,
		.field = field, .op = acc->op, .func = a->cur_func ? a->cur_func->id : 0,
		.watched = o->watch, .siblings = min(nr - 1, (u32)USHRT_MAX), .held = held,
		.rec = o->rec,
	};
	int owner;

	if (!te->t) {
		struct fa_config cfg = *a->s->cfg;

		/* a kernel thread does not own a line: its CPU's cache does */
		cfg.by_thread = !te->kernel;
		cfg.kernel = te->kernel;
		cfg.owners = cfg.by_thread ? &a->s->owners : NULL;
		cfg.nr_owners = cfg.by_thread ? FA_MAX_THREADS : cfg.nr_cpus;
		te->t = fa_type__new(te->st, &cfg);
		if (!te->t)
			return -ENOMEM;
	}
	te->nr_accounted++;
	owner = te->t->cfg.owners ? fa_owners__index(&a->s->owners, o->rec, o->tid) : (int)o->cpu;
	if (owner < 0)
		return owner;
	/* a CPU's bit in the sets of CPUs the header's count sized */
	if (owner >= te->t->cfg.nr_owners) {
		a->bad_cpu = o->cpu;
		return -ERANGE;
	}
	s.owner = owner;
	/* a tracepoint's small instance is an index: show it */
	a->last = (struct fa_attr_last){ .te = te, .field = field, .base = base ?: instance, };
	return fa_workers__add(a->s->workers, te->t, fa_attr__site(a, o), &s);
}

/*
 * Account @acc to @field of the instance at @base, and to the fields after
 * it that it covers too, each a part of it: the parts accounted
 */
static int fa_attr__account_type(struct fa_attr *a, struct fa_type_entry *te,
				 const struct fa_access *acc, u64 base, u64 instance, int field,
				 bool held)
{
	int more[FA_WIDE_FIELDS], n = 0, err;

	/* a 16-byte vector load of two 8-byte members: both */
	if (base && acc->addr >= base && acc->size > 1 && acc->addr + acc->size - base <= UINT_MAX)
		n = fa_struct__next_leaves(te->st, field, acc->addr + acc->size - base, more,
					   FA_WIDE_FIELDS);
	err = fa_attr__account_part(a, te, acc, base, instance, field, n + 1, held);

	for (int i = 0; i < n && !err; i++)
		err = fa_attr__account_part(a, te, acc, base, instance, more[i], n + 1, held);
	if (n)
		a->last.field = field;
	return err ?: n + 1;
}

/*
 * @acc to @te as its own type where -T wants it, and to the class @field is
 * in when @te holds one by value, as that class's own (recursively): the
 * parts accounted to the first type wanted.  The outer type's account is
 * the line's: it stays the last one.
 */
static int fa_attr__account_as(struct fa_attr *a, struct fa_type_entry *te,
			       const struct fa_access *acc, u64 base, u64 instance, int field,
			       bool held)
{
	struct fa_attr_last last;
	struct fa_type_entry *inner;
	int top, parts = 0, in;

	if (te->wanted)
		parts = fa_attr__account_type(a, te, acc, base, instance, field, held);
	if (parts < 0 || !te->embeds)
		return parts;
	top = fa_field__top(te->st, field);
	inner = te->embeds[top];
	if (!inner || !(inner->wanted || inner->holds_wanted))
		return parts;
	base += te->st->fields[top].offset;
	in = fa_struct__find_leaf(inner->st, te->st->fields[field].offset - te->st->fields[top].offset);
	if (in < 0)
		return parts;
	last = a->last;
	in = fa_attr__account_as(a, inner, acc, base,
				 fa_instance__key(base, fa_access__space(acc)), in, held || parts);
	if (parts) {
		/* the innermost class: its advice is the line's */
		inner = (struct fa_type_entry *)(a->last.inner ?: a->last.te);
		a->last = last;
		a->last.inner = inner;
	}
	return in < 0 ? in : parts ?: in;
}

/* Account @acc to @field of the instance at @base, as attr.h counts it */
static int fa_attr__account(struct fa_attr *a, struct fa_type_entry *te,
			    const struct fa_access *acc, u64 base, u64 instance, int field)
{
	int parts = fa_attr__account_as(a, te, acc, base, instance, field, false);

	if (parts < 0)
		return parts;
	if (!parts) {
		fa_attr__fail(a, FA_ATTR_FILTERED);
		return 0;
	}
	a->stats.resolved += parts;
	a->stats.watched += acc->origin->watch * parts;
	return 0;
}

/* Whether @outer holds a @te by value at @offset, a C++ class as its member */
static bool fa_type_entry__holds(const struct fa_type_entry *outer,
				 const struct fa_type_entry *te, u32 offset)
{
	for (int i = 0; outer->embeds && i < outer->st->nr_fields; i++) {
		if (outer->embeds[i] == te && outer->st->fields[i].offset == offset)
			return true;
	}
	return false;
}

/* -T asks for the type, or for a class it holds */
static bool fa_type_entry__wanted(const struct fa_type_entry *te)
{
	return te->wanted || te->holds_wanted;
}

/* Failures an instance's address can make up for: the address is a real one */
static bool fa_attr_fail__by_instance(int reason)
{
	switch (reason) {
	case FA_ATTR_NO_SYM:
	case FA_ATTR_NO_DBGINFO:
	case FA_ATTR_ASM:
	case FA_ATTR_NO_INSN:
	case FA_ATTR_NO_MEM_OP:
	case FA_ATTR_NO_VAR:
	case FA_ATTR_NO_TYPE:
	case FA_ATTR_BAD_OFFSET:
	case FA_ATTR_NOT_STRUCT:
		return true;
	default:
		return false;
	}
}

/* A waiting access that no instance came for fails for its reason */
static void fa_attr__fail_pending(struct fa_attr *a, struct fa_pending_access *pa)
{
	fa_attr__fail_at(a, pa->reason, &pa->origin);
	fa_pending_access__exit(pa);
}

/*
 * An access its instruction gave no struct for ('lock cmpxchg (%r8)' with
 * %r8 the address of a field, code without debug info): to the field of the
 * instance other accesses identified at its address, if any; else it
 * waits for one (pending.h), and fails for @reason if none comes.
 */
static int fa_attr__by_instance(struct fa_attr *a, const struct fa_access *acc, int reason)
{
	struct fa_pending_access evicted;
	struct fa_type_entry *te = NULL;
	int field = -1, err;
	u64 base = 0;

	if (!fa_attr_fail__by_instance(reason) || !fa_access__has_addr(acc)) {
		fa_attr__fail_at(a, reason, acc->origin);
		return 0;
	}
	te = (struct fa_type_entry *)fa_inst_map__find(&a->s->instances, fa_access__space(acc),
						       acc->addr, &base);
	if (te)
		field = fa_struct__find_leaf(te->st, acc->addr - base);
	if (field >= 0 && !fa_type_entry__wanted(te)) {
		fa_attr__fail(a, FA_ATTR_FILTERED);
		return 0;
	}
	if (field >= 0) {
		a->stats.by_instance++;
		return fa_attr__account(a, te, acc, base,
					fa_instance__key(base, fa_access__space(acc)), field);
	}
	if (te) {
		fa_attr__fail_at(a, reason, acc->origin);
		return 0;
	}
	a->last.reason = reason;
	a->last.pending = true;
	err = fa_pending__push(&a->s->pending, acc, a->cur_func, fa_access__space(acc), reason,
			       &evicted);
	if (err > 0)
		fa_attr__fail_pending(a, &evicted);
	return err < 0 ? err : 0;
}

/*
 * A new instance of @te at @base: the accesses that waited for it are
 * attributed to it, in the order they came
 */
static int fa_attr__take_pending(struct fa_attr *a, struct fa_type_entry *te, u32 space,
				 u64 base)
{
	struct fa_func *cur_func = a->cur_func;
	struct fa_attr_last last = a->last;
	struct fa_pending_access pa;
	u32 from = 0;
	int err = 0;

	while (!err && fa_pending__take(&a->s->pending, space, base, base + te->size, &from, &pa)) {
		int field = fa_struct__find_leaf(te->st, pa.acc.addr - base);

		if (field < 0) {
			fa_attr__fail_pending(a, &pa);
			continue;
		}
		if (!fa_type_entry__wanted(te)) {
			fa_attr__fail(a, FA_ATTR_FILTERED);
			fa_pending_access__exit(&pa);
			continue;
		}
		a->cur_func = pa.func;
		a->stats.by_instance++;
		a->stats.by_later++;
		err = fa_attr__account(a, te, &pa.acc, base, fa_instance__key(base, space), field);
		fa_pending_access__exit(&pa);
	}
	if (from)
		fa_pending__compact(&a->s->pending);
	a->cur_func = cur_func;
	a->last = last;
	return err;
}

/*
 * An instance of @te at @ip of @map, a DSO's data: the elements of the
 * variable it is in, if that is an array of them (a memory price is paid
 * for every element)
 */
static void fa_type_entry__array_var(struct fa_type_entry *te, struct map *map, u64 ip)
{
	struct symbol *sym = map__find_symbol(map, ip);
	u64 elems;

	if (!sym || !te->size)
		return;
	elems = symbol__size(sym) / te->size;
	if (elems < 2 || elems <= te->array_elems)
		return;
	te->array_elems = elems;
	strlcpy(te->array_var, sym->name, sizeof(te->array_var));
}

/* An instance of @te at @base was identified: the accesses waiting for it go to it */
/* Where the instance of @te at @base is mapped: a DSO's data, a stack, the heap */
static void fa_type_entry__home(struct fa_type_entry *te, const struct fa_func *f,
				const struct fa_access *acc, u64 base)
{
	struct addr_location al;
	const char *name;

	/* near the sampled stack pointer: a kernel stack, or a thread's (anonymous memory) */
	if (acc->flags & FA_ACC_FRAME) {
		te->nr_inst_stack++;
		return;
	}
	if (!f || !f->thread)
		return;
	addr_location__init(&al);
	if (!thread__find_map_fb(f->thread, f->cpumode, base, &al) || !al.map) {
		te->nr_inst_heap++;
		goto out;
	}
	name = dso__long_name(map__dso(al.map));
	if (fa_map_name__stack(name)) {
		te->nr_inst_stack++;
	} else if (fa_map_name__heap(name)) {
		te->nr_inst_heap++;
	} else {
		te->nr_inst_data++;
		fa_type_entry__array_var(te, al.map, al.addr);
	}
out:
	addr_location__exit(&al);
}

static int fa_attr__identified(struct fa_attr *a, struct fa_type_entry *te,
			       const struct fa_access *acc, u64 base)
{
	u32 space = fa_access__space(acc);

	fa_type_entry__home(te, a->cur_func, acc, base);
	fa_inst_map__add(&a->s->instances, space, base, te->size, te);
	return a->s->pending.nr ? fa_attr__take_pending(a, te, space, base) : 0;
}

/*
 * An access to a type -T leaves out: its instance at @base is identified
 * all the same, so that the accesses attributed by their address go where
 * they would go without -T (to a type left out too)
 */
static int fa_attr__identify_left_out(struct fa_attr *a, struct fa_type_entry *te,
				      const struct fa_access *acc, u64 base)
{
	u32 space = fa_access__space(acc);
	u64 found;

	if (!fa_access__has_addr(acc) || !te->st ||
	    (fa_inst_map__find(&a->s->instances, space, acc->addr, &found) == te && found == base))
		return 0;
	return fa_attr__identified(a, te, acc, base);
}

static int fa_attr__filtered(struct fa_attr *a, struct fa_type_entry *te,
			     const struct fa_access *acc, u64 base)
{
	fa_attr__fail(a, FA_ATTR_FILTERED);
	return fa_attr__identify_left_out(a, te, acc, base);
}

/**
 * fa_attr__flush_pending - The recording ended: the accesses still waiting
 * for their instance fail
 */
void fa_attr__flush_pending(struct fa_attr *a)
{
	struct fa_pending_access pa;

	while (fa_pending__pop(&a->s->pending, &pa))
		fa_attr__fail_pending(a, &pa);
}

static int fa_struct__field_by_name(const struct fa_struct *st, const char *name)
{
	for (int i = 0; i < st->nr_fields; i++) {
		if (st->fields[i].leaf && !strcmp(st->fields[i].name, name))
			return i;
	}
	return -1;
}

/* A field labelled tracepoint: the type (of the probed DSO) and field are named */
static int fa_attr__tp(struct fa_attr *a, const struct fa_access *acc)
{
	const struct fa_origin *o = acc->origin;
	struct fa_type_entry *te = NULL;
	char name[256];
	int field;

	if (o->map) {
		if (!strchr(acc->type_name, ' '))
			scnprintf(name, sizeof(name), "struct %s", acc->type_name);
		else
			scnprintf(name, sizeof(name), "%s", acc->type_name);
		if (!fa_session__wanted(a->s, name)) {
			fa_attr__fail(a, FA_ATTR_FILTERED);
			return 0;
		}
		te = fa_attr__type(a, map__dso(o->map), name, 0, 0, NULL);
	}
	field = te && te->st ? fa_struct__field_by_name(te->st, acc->field_name) : -1;
	if (field < 0) {
		fa_attr__fail(a, FA_ATTR_TP_TYPE);
		return 0;
	}
	/* small instances are indexes (rq[111]), not addresses: no real lines */
	return fa_attr__account(a, te, acc, acc->instance > 0xffff ? acc->instance : 0,
				acc->instance, field);
}

/* The thread pointer of a thread, as its accesses through one gave it (tls-reg.h) */
struct fa_thread_tp {
	u64	tid;		/* the key */
	u64	tp;
};

/*
 * An access to a thread-local variable of the executable through a pointer
 * code computed: into @tls, as the %fs: relative access it is.  The thread
 * pointer comes from the access itself, or from an earlier access of the
 * thread; an address that lands in no variable is no such access.
 */
static bool fa_attr__tls_addr(struct fa_attr *a, const struct fa_access *acc,
			      struct fa_access *tls)
{
	u64 tid = acc->origin->tid, tp = acc->tp, off;
	struct fa_thread_tp *tt;
	struct fa_dbg *d;

	/* near the stack pointer (FA_ACC_FRAME) too: the variables are on top of the stack */
	if ((!tp && !hashmap__size(a->tps)) || !fa_access__has_addr(acc) ||
	    (acc->flags & FA_ACC_KERNEL) || !acc->origin->map)
		return false;
	if (!tp && hashmap__find(a->tps, &tid, &tt))
		tp = tt->tp;
	d = tp ? fa_attr__tls(a, map__dso(acc->origin->map)) : NULL;
	if (!d || !fa_tls__find(&d->tls, (s64)(acc->addr - tp), &off))
		return false;
	if (acc->tp) {
		tt = fa_u64_map__findnew(a->tps, tid, sizeof(*tt));
		if (tt)
			tt->tp = tp;
	}
	*tls = *acc;
	tls->addr = acc->addr - tp;
	tls->flags |= FA_ACC_SEG;
	a->stats.tls_ptr++;
	return true;
}

/* An access to an element of an array of scalars, at @off in it */
static int fa_attr__array(struct fa_attr *a, struct fa_array *arr, const struct fa_access *acc,
			  int off)
{
	int index = fa_array__access_bytes(arr, off, acc->size, acc->op);

	if (index < 0) {
		fa_attr__fail_at(a, FA_ATTR_NOT_STRUCT, acc->origin);
		return 0;
	}
	a->stats.by_array++;
	if (acc->flags & FA_ACC_SEG)
		a->stats.tls_array++;
	a->last = (struct fa_attr_last){ .arr = arr, .index = index, };
	if (a->cur_func)
		fa_array__func(arr, a->cur_func->id, a->cur_func->sym->name, 0,
			       FA_ARRAY_NO_INDEX, /*sampled=*/true);
	return 0;
}

/*
 * The instance a struct the instruction gave is embedded in, if another
 * access identified it: &rq->__lock passed to _raw_spin_lock(), &rq->cfs to
 * the fair class.  Its lines are those of the enclosing instance, and the
 * enclosing type is the one to lay out.  The member at the embedded
 * struct's offset must hold it whole: memory reused for another type does
 * not match.
 */
static struct fa_type_entry *fa_attr__enclosing(struct fa_attr *a, const struct fa_access *acc,
						struct fa_memo *insn,
						const struct fa_type_entry *te, u64 base,
						u64 *outer_base)
{
	struct fa_type_entry *outer;
	u32 size, delta;

	/* none larger: only a C++ class holding it can be of its size */
	if (te->size > a->s->instances.max_size || !fa_access__has_addr(acc) ||
	    (te->size == a->s->instances.max_size && !te->held))
		return NULL;
	outer = (struct fa_type_entry *)fa_inst_map__find_outer(&a->s->instances,
								fa_access__space(acc), base, te,
								outer_base, &size);
	if (!outer || size < te->size || base + te->size > *outer_base + size)
		return NULL;
	delta = base - *outer_base;
	/* of one size: only a C++ class holding @te as its member */
	if (size == te->size && !fa_type_entry__holds(outer, te, delta))
		return NULL;
	if (insn->outer == outer && insn->outer_delta == delta)
		return outer;
	if (!fa_struct__embeds(outer->st, delta, te->size))
		return NULL;
	insn->outer = outer;
	insn->outer_delta = delta;
	return outer;
}

/**
 * fa_attr__add - Attribute an access and add it to its struct type
 * @acc: The access, with the sample it came from
 */
static int fa_attr__attribute(struct fa_attr *a, const struct fa_access *acc)
{
	const struct fa_origin *o = acc->origin;
	struct map_symbol ms = { .map = o->map, .sym = o->sym, };
	struct fa_memo *insn = NULL, *var = NULL;
	struct fa_type_entry *te;
	int offset = 0, var_off = 0, field, err;
	bool by_address = false, enclosed = false;
	u64 base, nr_instances, tpoff = 0;
	struct fa_access tls;

	a->stats.accesses++;
	if (fa_attr__tls_addr(a, acc, &tls))
		acc = &tls;
	a->last.te = NULL;
	a->last.arr = NULL;
	a->last.scalar = NULL;
	a->last.pending = false;
	if (o->source == FA_SRC_TP)
		return fa_attr__tp(a, acc);
	if (!o->map || !o->sym)
		return fa_attr__by_instance(a, acc, FA_ATTR_NO_SYM);
	ms.maps = thread__maps(o->thread);
	if (!(acc->flags & FA_ACC_SEG))
		var = fa_attr__var(a, o->thread, o->cpumode, acc->addr, &var_off);
	else if (fa_access__is_tls(acc))
		var = fa_attr__tls_var(a, acc, &var_off, &tpoff);
	insn = fa_attr__insn(a, &ms, acc->ip, o->thread, o->cpumode, o->evsel);
	if (var && var->reason == FA_ATTR_NOT_STRUCT)
		a->last.scalar = var->te;
	else if (insn && insn->reason == FA_ATTR_NOT_STRUCT)
		a->last.scalar = insn->te;
	if (var && var->reason == FA_ATTR_NONE && insn && insn->reason == FA_ATTR_NONE) {
		if (insn->te == var->te && insn->offset == var_off)
			a->stats.agree++;
		else
			a->stats.disagree++;
	}
	if (var && var->arr && var_off >= 0)
		return fa_attr__array(a, var->arr, acc, var_off);
	if (var && var->reason == FA_ATTR_NOT_STRUCT) {
		fa_attr__fail_at(a, var->reason, o);
		return 0;
	}
	if (var && var->reason == FA_ATTR_NONE) {
		/* the data address is exact */
		te = var->te;
		offset = var_off;
		by_address = true;
		if (acc->flags & FA_ACC_SEG)
			a->stats.by_tls++;
		else
			a->stats.by_address++;
	} else if (insn && insn->reason == FA_ATTR_NONE) {
		struct fa_type_entry *outer;
		u64 outer_base;

		te = insn->te;
		offset = insn->offset;
		outer = fa_attr__enclosing(a, acc, insn, te, acc->addr - offset - acc->index_off,
					   &outer_base);
		if (outer) {
			/* the enclosing instance's address gives the exact offset */
			te = outer;
			offset = acc->addr - outer_base;
			by_address = enclosed = true;
		}
	} else {
		return fa_attr__by_instance(a, acc, fa_access__fail_reason(acc, insn ? insn->reason :
										FA_ATTR_NO_SYM));
	}
	if (!fa_type_entry__wanted(te))
		return fa_attr__filtered(a, te, acc, acc->addr - offset -
					 (by_address ? 0 : acc->index_off));
	/* the instruction's field is memoized with it */
	if (insn && insn->reason == FA_ATTR_NONE && te == insn->te && offset == insn->offset)
		field = insn->field;
	else
		field = fa_struct__find_leaf(te->st, offset);
	if (field < 0) {
		fa_attr__fail_at(a, FA_ATTR_PADDING, o);
		return 0;
	}
	if (enclosed)
		a->stats.by_enclosing++;
	/* the data address gave the exact offset; the instruction's lacks the index */
	base = acc->addr - offset - (by_address ? 0 : acc->index_off);
	if (acc->flags & FA_ACC_SEG)
		base = fa_tls__base(o->tid, by_address ? tpoff : base);
	nr_instances = te->t ? te->t->xfer.nr_instances : 0;
	err = fa_attr__account(a, te, acc, base,
			       fa_instance__key(base, fa_access__space(acc)), field);
	/* in a variable its type's alignment aligns, unlike memory malloc() returns */
	if (by_address && !enclosed)
		te->nr_in_vars++;
	if (acc->flags & FA_ACC_FRAME)
		te->nr_in_frames++;
	if (err)
		return err;
	/* -T wants a class it holds only */
	if (!te->t)
		return fa_attr__identify_left_out(a, te, acc, base);
	/* an instance the type had not seen (or not lately): where it is */
	if (te->t->xfer.nr_instances != nr_instances && fa_access__has_addr(acc))
		err = fa_attr__identified(a, te, acc, base);
	return err;
}

int fa_attr__add(struct fa_attr *a, const struct fa_access *acc)
{
	int err = fa_attr__attribute(a, acc);

	return err ?: fa_attr__add_line(a, acc);
}
