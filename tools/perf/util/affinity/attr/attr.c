// SPDX-License-Identifier: GPL-2.0
/* Attribute accesses to struct fields (see attr.h): the types, debug info and memos. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include "attr.h"
#include "attr-int.h"
#include "../fields/fields.h"
#include "../../annotate-data.h"
#include "../../debug.h"
#include "../../dso.h"
#include "../../map.h"
#include "../../strbuf.h"
#include "../../symbol.h"
#include "../../thread.h"

static const struct fa_label fa_attr_fail_labels[FA_ATTR_MAX] = {
	[FA_ATTR_NO_SYM]	= { "no_sym", "instruction in no symbol" },
	[FA_ATTR_NO_DBGINFO]	= { "no_debuginfo", "no debug info for the code" },
	[FA_ATTR_ASM]		= { "asm", "code written in assembly" },
	[FA_ATTR_NO_INSN]	= { "no_insn", "function not disassembled" },
	[FA_ATTR_NO_MEM_OP]	= { "no_mem_operand", "no memory operand" },
	[FA_ATTR_NO_VAR]	= { "no_var", "no variable for the address" },
	[FA_ATTR_NO_TYPE]	= { "no_type", "no type (void *, char *)" },
	[FA_ATTR_BAD_OFFSET]	= { "bad_offset", "offset outside the type" },
	[FA_ATTR_STACK]		= { "stack", "stack" },
	[FA_ATTR_TLS]		= { "tls", "TLS or per-CPU variable" },
	[FA_ATTR_NOT_STRUCT]	= { "not_struct", "no struct" },
	[FA_ATTR_PADDING]	= { "padding", "padding" },
	[FA_ATTR_TP_TYPE]	= { "tp_type", "tracepoint type or field unknown" },
	[FA_ATTR_FILTERED]	= { "filtered", "not a type asked for" },
};

const char *fa_attr_fail__name(enum fa_attr_fail reason)
{
	return fa_label__text(fa_attr_fail_labels, FA_ATTR_MAX, reason);
}

const char *fa_attr_fail__key(enum fa_attr_fail reason)
{
	return fa_label__key(fa_attr_fail_labels, FA_ATTR_MAX, reason);
}

/* Attribution into session @s */
int fa_attr__init(struct fa_attr *a, struct fa_session *s)
{
	memset(a, 0, sizeof(*a));
	a->s = s;
	a->memo = fa_dso_map__new();
	a->vars = fa_dso_map__new();
	a->debuginfo = fa_dso_map__new();
	a->srclines = fa_dso_map__new();
	a->funcs = fa_dso_map__new();
	a->fail_sites = fa_u64_map__new();
	a->tps = fa_u64_map__new();
	return a->memo && a->vars && a->debuginfo && a->srclines && a->funcs && a->fail_sites &&
	       a->tps ? 0 : -ENOMEM;
}

static void fa_attr__put_dsos(struct hashmap *map)
{
	struct hashmap_entry *cur;
	size_t bkt;

	if (!map)
		return;
	hashmap__for_each_entry(map, cur, bkt)
		dso__put(((struct fa_dso_key *)cur->pvalue)->dso);
}

void fa_attr__exit(struct fa_attr *a)
{
	struct hashmap_entry *cur;
	size_t bkt;

	if (a->debuginfo) {
		hashmap__for_each_entry(a->debuginfo, cur, bkt) {
			struct fa_dbg *d = cur->pvalue;

			if (d->file != d)
				continue;
			fa_tls__exit(&d->tls);
			fa_dwarf_vars__delete(d->vars);
			debuginfo__delete(d->di);
		}
	}
	if (a->funcs) {
		hashmap__for_each_entry(a->funcs, cur, bkt) {
			struct fa_func *fn = cur->pvalue;

			map__put(fn->map);
			thread__put(fn->thread);
			bitmap_free(fn->cpus);
			bitmap_free(fn->tids);
		}
	}
	fa_attr__put_dsos(a->memo);
	fa_attr__put_dsos(a->vars);
	fa_attr__put_dsos(a->debuginfo);
	fa_attr__put_dsos(a->funcs);
	if (a->srclines) {
		hashmap__for_each_entry(a->srclines, cur, bkt)
			free(((struct fa_srcline *)cur->pvalue)->line);
	}
	fa_attr__put_dsos(a->srclines);
	fa_map__free_values(a->srclines);
	fa_map__free_values(a->memo);
	fa_map__free_values(a->vars);
	fa_map__free_values(a->debuginfo);
	fa_map__free_values(a->funcs);
	if (a->fail_sites) {
		hashmap__for_each_entry(a->fail_sites, cur, bkt)
			dso__put(((struct fa_fail_site *)cur->pvalue)->dso);
	}
	fa_map__free_values(a->fail_sites);
	fa_map__free_values(a->tps);
	memset(a, 0, sizeof(*a));
}

/* Find or make the value keyed by (@dso, @offset), taking a reference of @dso */
void *fa_attr__findnew(struct hashmap *map, struct dso *dso, u64 offset, size_t size,
		       bool *created)
{
	struct fa_dso_key key = { .dso = dso, .offset = offset, }, *v;

	*created = false;
	if (hashmap__find(map, &key, &v))
		return v;
	v = zalloc(size);
	if (!v)
		return NULL;
	v->dso = dso__get(dso);
	v->offset = offset;
	if (hashmap__add(map, v, v)) {
		dso__put(dso);
		free(v);
		return NULL;
	}
	*created = true;
	return v;
}

/*
 * The entry of another DSO of the same file: the sections of a vmlinux
 * that perf maps apart ([kernel.kallsyms].data..percpu, ...) are DSOs of
 * the kernel DSO's long name, and opening its debug info once for each
 * mapped the whole vmlinux again (about 220 MB resident each).
 */
static struct fa_dbg *fa_attr__dbg_of_file(struct fa_attr *a, struct dso *dso)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(a->debuginfo, cur, bkt) {
		struct fa_dbg *d = cur->pvalue;

		if (d->file == d && dso__long_name(d->key.dso) == dso__long_name(dso))
			return d;
	}
	return NULL;
}

static struct fa_dbg *fa_attr__dbg(struct fa_attr *a, struct dso *dso)
{
	bool created;
	struct fa_dbg *d = fa_attr__findnew(a->debuginfo, dso, 0, sizeof(*d), &created);

	if (d && created) {
		d->file = fa_attr__dbg_of_file(a, dso);
		if (!d->file) {
			pr_debug("perf affinity: the debug info of %s\n", dso__long_name(dso));
			d->file = d;
			/* the instance data-type profiling has: one copy of a vmlinux */
			d->di = dso__data_type_debuginfo(dso);
		}
	}
	return d ? d->file : NULL;
}

struct debuginfo *fa_attr__debuginfo(struct fa_attr *a, struct dso *dso)
{
	struct fa_dbg *d = fa_attr__dbg(a, dso);

	return d ? d->di : NULL;
}

/* The thread-local variables of @dso, if it is an executable that has some */
struct fa_dbg *fa_attr__tls(struct fa_attr *a, struct dso *dso)
{
	struct fa_dbg *d = fa_attr__dbg(a, dso);

	if (!d || !d->di)
		return NULL;
	if (!d->tls_read) {
		d->tls_read = true;
		d->has_tls = !fa_tls__init(&d->tls, d->di->dbg);
	}
	return d->has_tls ? d : NULL;
}

/*
 * A system library's: libc, ld.so and the like, whose layouts are not
 * the user's to change (by where distributions install them)
 */
static bool fa_dso__system(struct dso *dso)
{
	static const char * const dirs[] = { "/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", };
	const char *name = dso ? dso__long_name(dso) : NULL;

	if (!name || dso__kernel(dso) != DSO_SPACE__USER)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (strstarts(name, dirs[i]))
			return true;
	}
	return false;
}

/**
 * fa_attr__drop_system - Leave out the types only system libraries' code
 * accessed, once accumulated, unless -T asked for types: their accesses
 * are counted in the stats, the types not analyzed nor reported
 */
void fa_attr__drop_system(struct fa_attr *a)
{
	for (int i = 0; !a->s->only && i < a->s->nr_types; i++) {
		struct fa_type_entry *te = a->s->types[i];

		if (!te->t || !te->system)
			continue;
		a->stats.system += te->t->counts.nr_accesses;
		a->stats.system_types++;
		fa_type__delete(te->t);
		te->t = NULL;
	}
}

/* Whether fa_attr__drop_system() left the type @name out */
bool fa_attr__left_out(const struct fa_attr *a, const char *name)
{
	struct fa_type_entry *te = NULL;

	hashmap__find(a->s->type_names, name, &te);
	for (; te; te = te->same_name) {
		if (te->system && !te->t && a->stats.system_types)
			return true;
	}
	return false;
}

/*
 * The entry of a type, with its fields from @dso's DWARF when it is new:
 * from its DIE at @die_offset when known (0: search it by name).  Types of
 * the same name and size are one, whatever DSO they come from.
 */
struct fa_type_entry *fa_attr__type(struct fa_attr *a, struct dso *dso, const char *name,
				    u32 size, u64 die_offset)
{
	struct fa_type_entry *te = fa_session__find_type(a->s, name, size);
	struct debuginfo *di;

	if (te) {
		te->system = te->system && fa_dso__system(dso);
		return te;
	}
	te = zalloc(sizeof(*te));
	if (!te)
		return NULL;
	te->name = strdup(name);
	if (!te->name) {
		fa_type_entry__delete(te);
		return NULL;
	}
	di = fa_attr__debuginfo(a, dso);
	if (di)
		te->st = fa_struct__from_dwarf(di->dbg, name, size, die_offset);
	te->size = te->st ? te->st->size : size;
	te->kernel = dso && dso__kernel(dso) != DSO_SPACE__USER;
	te->system = fa_dso__system(dso);
	if (fa_session__add_type(a->s, te)) {
		fa_type_entry__delete(te);
		return NULL;
	}
	return te;
}

/* Why data-type profiling found nothing, as the attribution counts it */
static u8 fa_attr__reason(enum data_type_fail fail)
{
	switch (fail) {
	/* no compilation unit has the code: it was built without -g */
	case DATA_TYPE_NO_DBGINFO:
	case DATA_TYPE_NO_CUINFO:
		return FA_ATTR_NO_DBGINFO;
	case DATA_TYPE_NO_SYM:
		return FA_ATTR_NO_SYM;
	case DATA_TYPE_NO_INSN:
	case DATA_TYPE_NO_INSN_OPS:
		return FA_ATTR_NO_INSN;
	case DATA_TYPE_NO_MEM_OPS:
		return FA_ATTR_NO_MEM_OP;
	case DATA_TYPE_NO_VAR:
		return FA_ATTR_NO_VAR;
	case DATA_TYPE_BAD_OFFSET:
		return FA_ATTR_BAD_OFFSET;
	case DATA_TYPE_FOUND:
	case DATA_TYPE_NO_TYPEINFO:
	case DATA_TYPE_INVALID_SIZE:
	default:
		return FA_ATTR_NO_TYPE;
	}
}

static bool fa_attr__is_asm(struct fa_attr *a, struct map *map, u64 offset)
{
	struct dso *dso = map__dso(map);
	struct debuginfo *di = fa_attr__debuginfo(a, dso);

	if (!di)
		return false;
	if (dso__adjust_symbols(dso))
		offset = fa_dwarf__vaddr(di->dbg, offset);
	return fa_dwarf__is_asm(di->dbg, offset);
}

/* The data type the instruction at @ip accesses, memoized per DSO and offset */
struct fa_memo *fa_attr__insn(struct fa_attr *a, struct map_symbol *ms, u64 ip,
			      struct thread *thread, u8 cpumode, struct evsel *evsel)
{
	enum data_type_fail fail = DATA_TYPE_FOUND;
	struct annotated_data_type *adt;
	struct dso *dso = map__dso(ms->map);
	u64 map_ip = map__map_ip(ms->map, ip);
	struct fa_memo **slot = &a->insn_cache[fa_cache__slot(map_ip ^ fa_dso__id(dso))];
	struct fa_memo *m = *slot;
	bool created;
	int offset = 0;

	if (m && fa_dso__id(m->key.dso) == fa_dso__id(dso) && m->key.offset == map_ip)
		return m;
	m = fa_attr__findnew(a->memo, dso, map_ip, sizeof(*m), &created);
	if (!m || !created) {
		*slot = m;
		return m;
	}
	*slot = m;
	m->reason = FA_ATTR_NONE;
	/* like hist_entry::ip, the address in the map's DSO */
	adt = symbol__get_data_type(ms, map__map_ip(ms->map, ip), thread, cpumode, evsel,
				    &offset, &fail);
	if (!adt) {
		m->reason = fa_attr__reason(fail);
		if (m->reason != FA_ATTR_NO_DBGINFO && fa_attr__is_asm(a, ms->map, m->key.offset))
			m->reason = FA_ATTR_ASM;
	} else if (adt == &stackop_type || adt == &canary_type) {
		m->reason = FA_ATTR_STACK;
	} else {
		m->te = fa_attr__type(a, map__dso(ms->map), adt->self.type_name, adt->self.size,
				      adt->die_offset);
		m->offset = offset;
		if (!m->te || !m->te->st)
			m->reason = FA_ATTR_NOT_STRUCT;
		else
			m->field = fa_struct__find_leaf(m->te->st, offset);
	}
	return m;
}

/*
 * The symbol at a data address.  The end of a DSO's .bss is anonymous
 * memory right after its last file mapping: look it up in that DSO.
 */
struct symbol *fa_thread__find_data_symbol(struct thread *thread, u8 cpumode, u64 addr,
					   struct addr_location *al)
{
	struct map *prev;

	if (thread__find_symbol(thread, cpumode, addr, al) || !al->map ||
	    !is_anon_memory(dso__long_name(map__dso(al->map))))
		return al->sym;
	prev = maps__find(al->maps, map__start(al->map) - 1);
	if (!prev || map__end(prev) != map__start(al->map) ||
	    is_anon_memory(dso__long_name(map__dso(prev)))) {
		map__put(prev);
		return NULL;
	}
	map__put(al->map);
	al->map = prev;
	al->addr = map__map_ip(prev, addr);
	al->sym = map__find_symbol(prev, al->addr);
	return al->sym;
}

/* Threads or maps changed: the ranges may be stale */
void fa_attr__flush_ranges(struct fa_attr *a)
{
	memset(a->ranges, 0, sizeof(a->ranges));
}

static struct fa_data_range *fa_attr__range(struct fa_attr *a, const struct maps *maps, u64 addr)
{
	for (int i = 0; i < FA_DATA_RANGES; i++) {
		struct fa_data_range *r = &a->ranges[i];

		if (r->maps == maps && addr >= r->start && addr < r->end)
			return r;
	}
	return NULL;
}

static void fa_attr__add_range(struct fa_attr *a, const struct maps *maps, u64 start, u64 end,
			       u64 var_start, struct fa_memo *var)
{
	a->ranges[a->next_range] = (struct fa_data_range){
		.maps = maps, .start = start, .end = end, .var_start = var_start, .var = var,
	};
	a->next_range = (a->next_range + 1) % FA_DATA_RANGES;
}

/* Memory that holds no variable: anonymous, the heap, a stack */
static bool fa_map__no_vars(struct map *map)
{
	const char *name = dso__long_name(map__dso(map));

	return is_anon_memory(name) || !strcmp(name, "[heap]") || strstarts(name, "[stack");
}

/*
 * A variable's memo from what the lookup of its DWARF type gave: @err, or
 * the name, size and DIE of its struct type.  A variable of another type
 * may be an array of scalars (arrays.h): element 0 at @start.
 */
static void fa_memo__var(struct fa_attr *a, struct fa_memo *m, struct dso *dso, int err,
			 const char *type_name, u32 size, u64 die_offset, u64 var_die,
			 bool tls, s64 start)
{
	struct fa_dbg *d = fa_attr__dbg(a, dso);
	struct fa_array_info ai;

	m->reason = err == -ENOTSUP ? FA_ATTR_NOT_STRUCT : FA_ATTR_NO_VAR;
	if (err == -ENOTSUP && d && d->di && !fa_dwarf__var_array(d->di->dbg, var_die, &ai))
		m->arr = fa_arrays__new(&a->s->arrays, &ai, tls, start);
	if (err)
		return;
	m->te = fa_attr__type(a, dso, type_name, size, die_offset);
	m->reason = m->te && m->te->st ? FA_ATTR_NONE : FA_ATTR_NOT_STRUCT;
}

/* The variable of struct type at @addr, found through the maps, or NULL */
static struct fa_memo *fa_attr__find_var(struct fa_attr *a, struct thread *thread, u8 cpumode,
					 u64 addr, u64 *var_start)
{
	const struct maps *maps = thread__maps(thread);
	struct addr_location al;
	struct fa_memo *m = NULL;
	struct strbuf name;
	u64 die_offset = 0, var_die = 0;
	bool created;
	u32 size;
	int err;

	addr_location__init(&al);
	if (!fa_thread__find_data_symbol(thread, cpumode, addr, &al)) {
		/* no variable anywhere in its map */
		if (al.map && fa_map__no_vars(al.map))
			fa_attr__add_range(a, maps, map__start(al.map), map__end(al.map), 0, NULL);
		goto out;
	}
	if (al.sym->type != STT_OBJECT)
		goto out;
	*var_start = addr - (al.addr - al.sym->start);
	m = fa_attr__findnew(a->vars, map__dso(al.map), al.sym->start, sizeof(*m), &created);
	if (m && created) {
		struct fa_dbg *d = fa_attr__dbg(a, map__dso(al.map));
		struct debuginfo *di = d ? d->di : NULL;

		strbuf_init(&name, 64);
		err = -ENOENT;
		if (di && !d->vars)
			d->vars = fa_dwarf_vars__new(di->dbg);
		if (di) {
			u64 vaddr = al.sym->start;

			if (dso__adjust_symbols(map__dso(al.map)))
				vaddr = fa_dwarf__vaddr(di->dbg, vaddr);
			err = fa_dwarf__var_type(di->dbg, d->vars, al.sym->name, vaddr, &name,
						 &size, &m->array, &die_offset, &var_die);
		}
		fa_memo__var(a, m, map__dso(al.map), err, name.buf, size, die_offset, var_die,
			     /*tls=*/false, *var_start);
		strbuf_release(&name);
	}
	if (m && al.sym->end > al.sym->start && addr >= *var_start)
		fa_attr__add_range(a, maps, *var_start, *var_start + al.sym->end - al.sym->start,
				   *var_start, m);
out:
	addr_location__exit(&al);
	return m;
}

/*
 * The memo of the thread-local variable of @dso at offset @tpoff from the
 * thread pointer, NULL if none; @off in it
 */
struct fa_memo *fa_attr__tls_memo(struct fa_attr *a, struct dso *dso, s64 tpoff,
				  u64 *off)
{
	struct fa_dbg *d = fa_attr__tls(a, dso);
	const struct fa_tls_var *v = d ? fa_tls__find(&d->tls, tpoff, off) : NULL;
	struct fa_memo *m;
	bool created;

	if (!v)
		return NULL;
	/* keyed apart from the symbols of global variables */
	m = fa_attr__findnew(a->vars, dso, v->die | BIT_ULL(63), sizeof(*m), &created);
	if (m && created) {
		struct strbuf name;
		u64 die_offset = 0;
		u32 size = 0;
		int err;

		strbuf_init(&name, 64);
		err = fa_dwarf__var_die_type(d->di->dbg, v->die, &name, &size, &m->array,
					     &die_offset);
		fa_memo__var(a, m, dso, err, name.buf, size, die_offset, v->die, /*tls=*/true,
			     tpoff - (s64)*off);
		strbuf_release(&name);
	}
	return m;
}

/*
 * The thread-local variable of the executable whose code made an %fs:
 * relative access, if any: @var_off in it; of a struct type (or array of
 * structs), @var_off in the struct and @tpoff of the struct (the element
 * of an array)
 */
struct fa_memo *fa_attr__tls_var(struct fa_attr *a, const struct fa_access *acc,
				 int *var_off, u64 *tpoff)
{
	struct fa_memo *m;
	u64 off;

	a->stats.tls++;
	m = fa_attr__tls_memo(a, map__dso(acc->origin->map), (s64)acc->addr, &off);
	if (!m)
		return NULL;
	a->stats.tls_found++;
	*var_off = off;
	if (m->reason == FA_ATTR_NONE) {
		/* an element of an array of structs is an instance */
		*var_off = m->array && m->te->size ? off % m->te->size : off;
		*tpoff = acc->addr - *var_off;
	}
	return m;
}

/* A global or static variable of struct type at the data address, if any */
struct fa_memo *fa_attr__var(struct fa_attr *a, struct thread *thread, u8 cpumode,
			     u64 addr, int *offset)
{
	struct fa_data_range *r = fa_attr__range(a, thread__maps(thread), addr);
	struct fa_memo *m;
	u64 var_start = 0;

	if (r) {
		m = r->var;
		var_start = r->var_start;
	} else {
		m = fa_attr__find_var(a, thread, cpumode, addr, &var_start);
	}
	if (!m)
		return NULL;
	*offset = addr - var_start;
	/* in an array, the offset in its element */
	if (m->reason == FA_ATTR_NONE && m->array && m->te->size && *offset >= 0)
		*offset %= m->te->size;
	/*
	 * Past the type's size, in the symbol: the elements of an initialized
	 * flexible array member, else the instruction may say better.
	 */
	if (m->reason == FA_ATTR_NONE && (*offset < 0 || ((u32)*offset >= m->te->size &&
					      fa_struct__find_leaf(m->te->st, *offset) < 0)))
		return NULL;
	return m;
}

void fa_attr__fail(struct fa_attr *a, int reason)
{
	a->stats.failed[reason]++;
	a->last.reason = reason;
}

/* Count a failure for its function (or DSO) too, for --stats -v */
void fa_attr__fail_at(struct fa_attr *a, int reason, const struct fa_origin *o)
{
	u64 key = (u64)reason << 56 ^
		  (o->sym ? (u64)(unsigned long)o->sym : (u64)(unsigned long)o->map);
	struct fa_fail_site *fs;

	fa_attr__fail(a, reason);
	if (!o->map)
		return;
	fs = fa_u64_map__findnew(a->fail_sites, key, sizeof(*fs));
	if (!fs)
		return;		/* only the detail is lost */
	if (!fs->dso) {
		fs->dso = dso__get(map__dso(o->map));
		fs->sym = o->sym ? o->sym->name : "[unknown]";
		fs->reason = reason;
	}
	fs->count++;
}
