// SPDX-License-Identifier: GPL-2.0
/* Every attributed access on its data line (dlines.h), with its code. */
#include <stdlib.h>
#include "attr.h"
#include "attr-int.h"
#include "../accumulate/worker.h"
#include "../decode/decode.h"
#include "../../debug.h"
#include "../fields/fields.h"
#include "../../debuginfo.h"
#include "../../dso.h"
#include "../../machine.h"
#include "../../map.h"
#include "../../maps.h"
#include "../../symbol.h"
#include "../../thread.h"

/* What the access was attributed to, for the data lines */
static void fa_attr__line_what(const struct fa_attr *a, const struct fa_access *acc,
			       struct fa_dl_what *w)
{
	const struct fa_attr_last *last = &a->last;

	if (last->te) {
		w->type = last->te->name;
		w->field = last->te->st ? last->te->st->fields[last->field].name : NULL;
		w->inner = last->inner ? last->inner->name : NULL;
		w->base = last->base;
	} else if (last->arr) {
		w->var = last->arr->name;
		w->type = last->arr->elem_type;
		w->size = last->arr->elem_size;
		w->index = last->index;
		w->base = 1;
	} else if (last->scalar) {
		w->type = last->scalar->name;
		w->size = last->scalar->size;
		if ((acc->flags & FA_ACC_INDEX) && w->size) {
			/* the index register's part of the address picks the element */
			w->base = acc->addr - acc->index_off;
			w->index = acc->index_off / w->size;
		}
	}
}

/*
 * The thread of the access @o names a line for, found again: the worker
 * asked after the sample let go of its reference, but before an event
 * could take the thread out of its machine (fa_attr__sync_lines())
 */
static struct thread *fa_line_origin__thread(const struct fa_line_origin *o)
{
	return o->machine ? machine__find_thread(o->machine, o->pid, o->tid) : NULL;
}

/* Where a line that became shared is: its map and the variable there */
static void fa_attr__line_where(struct fa_dline *l, const struct fa_line_origin *o)
{
	struct thread *thread = fa_line_origin__thread(o);
	struct addr_location al;
	struct symbol *sym;

	if (!thread)
		return;
	addr_location__init(&al);
	sym = fa_thread__find_data_symbol(thread, o->data_cpumode, l->addr, &al);
	if (al.map) {
		l->where.map = dso__short_name(map__dso(al.map));
		l->where.map_off = l->addr - map__start(al.map);
	}
	if (sym) {
		l->where.var = sym->name;
		l->where.var_off = map__map_ip(al.map, l->addr) - sym->start;
	}
	addr_location__exit(&al);
	thread__put(thread);
}

/*
 * The global pointer variable the store at @ip loaded the base of its
 * address from, where the code before it shows it: what a heap line is
 * named by.  Memoized by instruction: the stores to an array's lines are
 * few.
 */
static const char *fa_attr__line_ptr(struct fa_attr *a, const struct fa_line_origin *o)
{
	struct dso *dso = (struct dso *)o->code.dso;
	const struct symbol *sym = o->code.symbol;
	struct fa_ptr_memo *m = &a->ptrs[fa_cache__slot(o->rip ^ fa_dso__id(dso)) % FA_PTR_MEMO];
	struct addr_location al;
	struct thread *thread;
	struct symbol *var;
	u64 g, addr;

	if (m->dso == dso && m->addr == o->rip)
		return m->name;
	m->dso = dso;
	m->addr = o->rip;
	m->name = NULL;
	g = a->dec ? fa_decoder__base_global(a->dec, dso, (struct symbol *)sym,
					     o->rip - sym->start) : 0;
	thread = g ? fa_line_origin__thread(o) : NULL;
	if (!thread)
		return NULL;
	/* the variable's address in the process: as the code's map places the function */
	addr = g + o->unmap;
	addr_location__init(&al);
	var = fa_thread__find_data_symbol(thread, o->cpumode, addr, &al);
	if (var && al.map && map__map_ip(al.map, addr) == var->start)
		m->name = var->name;
	addr_location__exit(&al);
	thread__put(thread);
	return m->name;
}

/*
 * "file.c:12" of the instruction at objdump address @addr of @dso, from the
 * debug info attribution has open: perf's srcline opened a second copy of
 * a vmlinux for it (with libLLVM, 380 MB for a kernel recording).
 */
static const char *fa_attr__srcline(struct fa_attr *a, struct dso *dso, u64 addr)
{
	bool created;
	struct fa_srcline *s = fa_attr__findnew(a->srclines, dso, addr, sizeof(*s), &created);
	struct debuginfo *di;

	if (!s)
		return NULL;
	if (created) {
		di = fa_attr__debuginfo(a, dso);
		s->line = di ? fa_dwarf__srcline(di->dbg, addr) : NULL;
	}
	return s->line;
}

static void fa_attr__dl_code_srcline(struct fa_attr *a, struct fa_dl_code *code)
{
	if (code->sym && !code->srcline)
		code->srcline = fa_attr__srcline(a, (struct dso *)code->dso, code->addr);
}

/*
 * An access on its data line as the worker that counts it has it: what it
 * needs to ask the main thread to name the line and the code (attr.h)
 */
struct fa_line_work {
	struct fa_attr		*a;
	struct fa_dlines	*dl;
	struct fa_dl_access	 la;
	struct fa_line_origin	 o;
};

/* Ask the main thread to name what @kind says, as of the access of @o */
static int fa_attr__ask_name(struct fa_attr *a, int kind, struct fa_dline *l,
			     struct fa_dl_owner *owner, const struct fa_line_origin *o)
{
	struct fa_line_names *n = &a->names;
	int err = 0;

	mutex_lock(&n->lock);
	if (n->nr == n->alloc) {
		size_t alloc = n->alloc ? n->alloc * 2 : 64;
		struct fa_line_name *v = realloc(n->v, alloc * sizeof(*v));

		if (!v) {
			err = -ENOMEM;
			goto out_unlock;
		}
		n->v = v;
		n->alloc = alloc;
	}
	n->v[n->nr++] = (struct fa_line_name){ .kind = kind, .l = l, .owner = owner, .o = *o, };
	__atomic_store_n(&n->asked, n->nr, __ATOMIC_RELEASE);
out_unlock:
	mutex_unlock(&n->lock);
	return err;
}

/* Ask for @kind of @owner's code, once: of its first access of that kind */
static int fa_attr__ask_code(struct fa_attr *a, int kind, struct fa_dline *l,
			     struct fa_dl_owner *owner, const struct fa_line_origin *o)
{
	if (owner->asked & kind)
		return 0;
	owner->asked |= kind;
	return fa_attr__ask_name(a, kind, l, owner, o);
}

/*
 * Count the access on its data line (in a worker, if any) and ask for
 * what is to be named: the line's place once it is shared; the code of
 * its owner's first access, first store and first load
 */
static int fa_line_work__do(void *arg)
{
	struct fa_line_work *w = arg;
	const struct fa_line_origin *o = &w->o;
	struct fa_dl_owner *owner;
	struct fa_dline *l;
	bool new_shared;
	int err = 0;

	l = fa_dlines__add(w->dl, &w->la, &new_shared, &owner);
	if (l && new_shared)
		err = fa_attr__ask_name(w->a, FA_NAME_WHERE, l, NULL, o);
	if (err || !owner || !o->code.sym)
		return err;
	return fa_attr__ask_code(w->a, FA_NAME_CODE, l, owner, o) ?:
	       fa_attr__ask_code(w->a, w->la.store ? FA_NAME_WCODE : FA_NAME_RCODE, l, owner, o);
}

/*
 * The code of @o, its DSO a reference of @a's: the sample's is its map's,
 * which an event may free before the report names the code's source line
 */
static struct fa_dl_code fa_attr__code(struct fa_attr *a, const struct fa_line_origin *o)
{
	struct fa_dl_code code = o->code;
	bool created;
	struct fa_dso_key *k = fa_attr__findnew(a->dsos, (struct dso *)code.dso, 0, sizeof(*k),
						&created);

	if (k)
		code.dso = k->dso;
	return code;
}

static void fa_attr__name(struct fa_attr *a, const struct fa_line_name *n)
{
	switch (n->kind) {
	case FA_NAME_WHERE:
		fa_attr__line_where(n->l, &n->o);
		break;
	case FA_NAME_CODE:
		n->owner->code = fa_attr__code(a, &n->o);
		break;
	case FA_NAME_WCODE:
		n->owner->wcode = fa_attr__code(a, &n->o);
		if (!n->l->where.var && !n->l->where.ptr)
			n->l->where.ptr = fa_attr__line_ptr(a, &n->o);
		break;
	case FA_NAME_RCODE:
	default:
		n->owner->rcode = fa_attr__code(a, &n->o);
		break;
	}
}

/**
 * fa_attr__name_lines - Name what the data lines asked for, in the order
 * asked: on the main thread, which owns the threads, maps and decoder the
 * names come from, and before an event changes those (fa_attr__sync_lines())
 */
void fa_attr__name_lines(struct fa_attr *a)
{
	struct fa_line_names *n = &a->names;
	struct fa_line_name *v;
	size_t nr;

	/* pairs with fa_attr__ask_name()'s release */
	if (!__atomic_load_n(&n->asked, __ATOMIC_ACQUIRE))
		return;
	mutex_lock(&n->lock);
	v = n->v;
	nr = n->nr;
	n->v = NULL;
	n->nr = n->alloc = 0;
	__atomic_store_n(&n->asked, 0, __ATOMIC_RELAXED);
	mutex_unlock(&n->lock);
	for (size_t i = 0; i < nr; i++)
		fa_attr__name(a, &v[i]);
	free(v);
}

/**
 * fa_attr__sync_lines - Before an event that changes threads or maps: the
 * workers count every access queued, and what they asked is named with
 * the threads and maps as they were
 *
 * Return: 0, or the first error of the workers.
 */
int fa_attr__sync_lines(struct fa_attr *a)
{
	int err = a->lines_queued ? fa_workers__drain(a->s->workers) : 0;

	a->lines_queued = false;
	fa_attr__name_lines(a);
	return err;
}

/*
 * What names the access: the sample's thread by its machine and ids, and
 * its code, as values: the references the sample holds are let go before
 * the worker asks
 */
static void fa_line_origin__init(struct fa_line_origin *lo, const struct fa_access *acc)
{
	const struct fa_origin *o = acc->origin;

	lo->cpumode = o->cpumode;
	lo->data_cpumode = acc->flags & FA_ACC_KERNEL ? PERF_RECORD_MISC_KERNEL :
			   PERF_RECORD_MISC_USER;
	if (o->thread) {
		lo->machine = maps__machine(thread__maps(o->thread));
		lo->pid = thread__pid(o->thread);
		lo->tid = thread__tid(o->thread);
	}
	if (!o->map || !o->sym)
		return;
	lo->rip = map__map_ip(o->map, acc->ip);
	/* a DSO address in the process: perf's maps are the DSO's shifted, or not */
	lo->unmap = map__unmap_ip(o->map, 0);
	lo->code = (struct fa_dl_code){
		.dso = map__dso(o->map), .symbol = o->sym, .sym = o->sym->name,
		.addr = map__rip_2objdump(o->map, lo->rip), .sym_off = lo->rip - o->sym->start,
	};
}

/* Count the access on its data line, whatever it was attributed to */
int fa_attr__add_line(struct fa_attr *a, const struct fa_access *acc)
{
	const struct fa_origin *o = acc->origin;
	bool kernel = acc->flags & FA_ACC_KERNEL;
	struct fa_line_work w = {
		.a = a,
		/* a watchpoint sees every access to some bytes of a line: its own account */
		.dl = o->watch ? &a->s->watched : &a->s->dlines,
		.la = {
			.addr = acc->addr, .space = fa_access__space(acc), .cpu = o->cpu,
			.owner = kernel ? o->cpu : o->tid, .time = o->time, .size = acc->size,
			.store = acc->op & FA_OP_STORE,
		},
	};
	int err;

	if (!fa_access__has_addr(acc) || o->source == FA_SRC_TP)
		return 0;
	fa_attr__line_what(a, acc, &w.la.what);
	fa_line_origin__init(&w.o, acc);
	/* the data lines are one structure: one worker counts them all, in order */
	err = fa_workers__call(a->s->workers, 0, fa_line_work__do, &w, sizeof(w));
	a->lines_queued = a->s->workers != NULL;
	fa_attr__name_lines(a);
	return err;
}

/**
 * fa_attr__dl_srclines - The source lines of the code of the owners of the
 * shared data lines the report shows: looked up after the last sample, as
 * a line's lookup makes libdw read the line table of a compile unit, MBs
 * of a vmlinux's for each
 */
void fa_attr__dl_srclines(struct fa_attr *a)
{
	struct fa_dline **lines;
	int nr = fa_dlines__contended_all(&a->s->dlines, &a->s->watched, &lines);

	for (int i = 0; i < nr && i < FA_DL_SHOWN; i++) {
		for (u32 k = 0; k < lines[i]->nr_owners && k < FA_DL_OWNERS; k++) {
			struct fa_dl_owner *o = &lines[i]->owners[k];

			fa_attr__dl_code_srcline(a, &o->code);
			fa_attr__dl_code_srcline(a, &o->wcode);
			fa_attr__dl_code_srcline(a, &o->rcode);
		}
	}
	free(lines);
}
