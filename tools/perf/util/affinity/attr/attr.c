// SPDX-License-Identifier: GPL-2.0
/* Attribute accesses to struct fields (see attr.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "../advice/arrays.h"
#include "attr.h"
#include "../decode/decode.h"
#include "../fields/fields.h"
#include "../decode/key.h"
#include "tls.h"
#include "../decode/tls-reg.h"
#include "../accumulate/worker.h"
#include "../../addr_location.h"
#include "../../annotate.h"
#include "../../annotate-data.h"
#include "../../debug.h"
#include "../../debuginfo.h"
#include "../../dso.h"
#include "../../env.h"
#include "../../event.h"
#include "../../evsel.h"
#include "../../hashmap.h"
#include "../../insn-access.h"
#include "../../map.h"
#include "../../maps.h"
#include "../../map_symbol.h"
#include "../../sample.h"
#include "../../strbuf.h"
#include "../../strlist.h"
#include "../../symbol.h"
#include "../../thread.h"

/* What an instruction or a data symbol is an access to */
struct fa_memo {
	struct fa_dso_key	 key;
	struct fa_type_entry	*te;
	int			 offset;
	int			 field;		/* the leaf at @offset, of an instruction */
	u8			 reason;	/* enum fa_attr_fail */
	bool			 array;		/* a variable: an array of @te */
	struct fa_array		*arr;		/* a variable: an array of a scalar type */
	const struct fa_type_entry *outer;	/* the type @te was last found embedded in */
	u32			 outer_delta;	/* and where */
};

struct fa_dbg {
	struct fa_dso_key	 key;		/* offset 0 */
	struct fa_dbg		*file;		/* the entry with the file's debug info */
	struct debuginfo	*di;
	struct fa_dwarf_vars	*vars;		/* its variables by address, once asked */
	struct fa_tls		 tls;		/* an executable's thread-local variables */
	bool			 tls_read;
	bool			 has_tls;
};

/* The source line of an instruction, that the data lines borrow */
struct fa_srcline {
	struct fa_dso_key	 key;		/* offset: the objdump address */
	char			*line;		/* "file.c:12", or NULL */
};

/* A sampled function, for the code context method */
struct fa_func {
	struct fa_dso_key	 key;		/* offset: the symbol's start */
	struct map		*map;
	struct symbol		*sym;
	struct thread		*thread;
	struct evsel		*evsel;
	unsigned long		*cpus;		/* CPUs it was sampled on */
	unsigned long		*tids;		/* threads (fa_owners indexes) it was sampled in */
	u32			 id;		/* 1, 2, ...: the accesses' fa_sample::func */
	u64			 samples;
	u32			 by_group[FA_BOOT_GROUPS];	/* @samples (boot.h) */
	bool			 threads;	/* sampled in several threads */
	u8			 cpumode;
	double			 weight;
};

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

static size_t fa_str__hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

static bool fa_str__equal(long a, long b, void *ctx __maybe_unused)
{
	return !strcmp((const char *)a, (const char *)b);
}

int fa_attr__init(struct fa_attr *a, const struct fa_config *cfg, const char *only_types)
{
	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	a->memo = fa_dso_map__new();
	a->vars = fa_dso_map__new();
	a->debuginfo = fa_dso_map__new();
	a->srclines = fa_dso_map__new();
	a->funcs = fa_dso_map__new();
	a->fail_sites = fa_u64_map__new();
	a->tps = fa_u64_map__new();
	a->type_names = hashmap__new(fa_str__hash, fa_str__equal, NULL);
	if (IS_ERR(a->type_names))
		a->type_names = NULL;
	if (fa_owners__init(&a->owners) || fa_inst_map__init(&a->instances) ||
	    fa_dlines__init(&a->dlines, cfg->line_size, cfg->xfer_ns, cfg->boot_ns))
		return -ENOMEM;
	if (only_types) {
		a->only = strlist__new(only_types, NULL);
		if (!a->only)
			return -ENOMEM;
	}
	return a->memo && a->vars && a->debuginfo && a->srclines && a->funcs && a->fail_sites &&
	       a->tps && a->type_names ? 0 : -ENOMEM;
}

static void fa_type_entry__delete(struct fa_type_entry *te)
{
	fa_type__delete(te->t);
	fa_struct__delete(te->st);
	free(te->name);
	free(te);
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
	fa_owners__exit(&a->owners);
	fa_inst_map__exit(&a->instances);
	fa_pending__exit(&a->pending);
	fa_arrays__exit(&a->arrays);
	fa_dlines__exit(&a->dlines);
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
	hashmap__free(a->type_names);
	for (int i = 0; i < a->nr_types; i++)
		fa_type_entry__delete(a->types[i]);
	zfree(&a->types);
	strlist__delete(a->only);
	memset(a, 0, sizeof(*a));
}

/* Find or make the value keyed by (@dso, @offset), taking a reference of @dso */
static void *fa_attr__findnew(struct hashmap *map, struct dso *dso, u64 offset, size_t size,
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

static struct debuginfo *fa_attr__debuginfo(struct fa_attr *a, struct dso *dso)
{
	struct fa_dbg *d = fa_attr__dbg(a, dso);

	return d ? d->di : NULL;
}

/* The thread-local variables of @dso, if it is an executable that has some */
static struct fa_dbg *fa_attr__tls(struct fa_attr *a, struct dso *dso)
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

static bool fa_attr__wanted(const struct fa_attr *a, const char *name)
{
	return !a->only || strlist__has_entry(a->only, name) ||
	       (!strncmp(name, "struct ", 7) && strlist__has_entry(a->only, name + 7));
}

/**
 * fa_attr__drop_system - Leave out the types only system libraries' code
 * accessed, once accumulated, unless -T asked for types: their accesses
 * are counted in the stats, the types not analyzed nor reported
 */
void fa_attr__drop_system(struct fa_attr *a)
{
	for (int i = 0; !a->only && i < a->nr_types; i++) {
		struct fa_type_entry *te = a->types[i];

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

	hashmap__find(a->type_names, name, &te);
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
static struct fa_type_entry *fa_attr__type(struct fa_attr *a, struct dso *dso, const char *name,
					   u32 size, u64 die_offset)
{
	struct fa_type_entry *te, *first = NULL, **types;
	struct debuginfo *di;

	hashmap__find(a->type_names, name, &first);
	for (te = first; te; te = te->same_name) {
		if (!size || !te->size || te->size == size) {
			te->system = te->system && fa_dso__system(dso);
			return te;
		}
	}
	types = realloc(a->types, (a->nr_types + 1) * sizeof(*types));
	if (!types)
		return NULL;
	a->types = types;
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
	/* the newest first: the key is its name */
	te->same_name = first;
	if (hashmap__set(a->type_names, te->name, te, NULL, NULL)) {
		fa_type_entry__delete(te);
		return NULL;
	}
	a->types[a->nr_types++] = te;
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
static struct fa_memo *fa_attr__insn(struct fa_attr *a, struct map_symbol *ms, u64 ip,
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
static struct symbol *fa_thread__find_data_symbol(struct thread *thread, u8 cpumode, u64 addr,
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
		m->arr = fa_arrays__new(&a->arrays, &ai, tls, start);
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

/* An access relative to %fs in user space: to a thread-local variable */
static bool fa_access__is_tls(const struct fa_access *acc)
{
	return (acc->flags & FA_ACC_SEG) && !(acc->flags & FA_ACC_KERNEL) &&
	       !fa_x86__tcb(acc->addr);
}

/*
 * The instance of a thread-local variable, where the lines are: the thread
 * pointer is line aligned, the threads' blocks never share a line
 */
static u64 fa_tls__base(u32 tid, u64 tpoff)
{
	return (u64)tid << 40 | (tpoff & GENMASK_ULL(39, 0));
}

/*
 * The memo of the thread-local variable of @dso at offset @tpoff from the
 * thread pointer, NULL if none; @off in it
 */
static struct fa_memo *fa_attr__tls_memo(struct fa_attr *a, struct dso *dso, s64 tpoff,
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
static struct fa_memo *fa_attr__tls_var(struct fa_attr *a, const struct fa_access *acc,
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
static struct fa_memo *fa_attr__var(struct fa_attr *a, struct thread *thread, u8 cpumode,
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

static void fa_attr__fail(struct fa_attr *a, int reason)
{
	a->stats.failed[reason]++;
	a->last.reason = reason;
}

/* Count a failure for its function (or DSO) too, for --stats -v */
static void fa_attr__fail_at(struct fa_attr *a, int reason, const struct fa_origin *o)
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

/* The address space of a data address: the process, the kernel's is 0 */
static u32 fa_access__space(const struct fa_access *acc)
{
	return acc->flags & FA_ACC_KERNEL ? 0 : acc->origin->pid;
}

/* A data address, not a segment offset (fs:/gs: relative) nor none */
static bool fa_access__has_addr(const struct fa_access *acc)
{
	return acc->addr && !(acc->flags & FA_ACC_SEG);
}

/* Identity of an instance: its base in its address space */
static u64 fa_instance__key(u64 base, u32 space)
{
	return base ^ ((u64)space * 0x9E3779B97F4A7C15ULL);
}

static int fa_attr__account(struct fa_attr *a, struct fa_type_entry *te,
			    const struct fa_access *acc, u64 base, u64 instance, int field)
{
	const struct fa_origin *o = acc->origin;
	struct fa_sample s = {
		.time = o->time, .base = base, .instance = instance,
		/* the accesses of one sample share its time */
		.weight = (double)o->period / (o->nr_accesses ?: 1),
		.data_src = acc->data_src, .cpu = o->cpu, .tid = o->tid,
		.field = field, .op = acc->op, .func = a->cur_func ? a->cur_func->id : 0,
		.watched = o->watch,
	};
	int owner;

	if (!te->t) {
		struct fa_config cfg = a->cfg;

		/* a kernel thread does not own a line: its CPU's cache does */
		cfg.by_thread = !te->kernel;
		cfg.kernel = te->kernel;
		cfg.owners = cfg.by_thread ? &a->owners : NULL;
		cfg.nr_owners = cfg.by_thread ? FA_MAX_THREADS : cfg.nr_cpus;
		te->t = fa_type__new(te->st, &cfg);
		if (!te->t)
			return -ENOMEM;
	}
	te->nr_accounted++;
	owner = te->t->cfg.owners ? fa_owners__index(&a->owners, o->tid) : (int)o->cpu;
	if (owner < 0)
		return owner;
	/* a CPU's bit in the sets of CPUs the header's count sized */
	if (owner >= te->t->cfg.nr_owners) {
		a->bad_cpu = o->cpu;
		return -ERANGE;
	}
	s.owner = owner;
	a->stats.resolved++;
	a->stats.watched += o->watch;
	/* a tracepoint's small instance is an index: show it */
	a->last = (struct fa_attr_last){ .te = te, .field = field, .base = base ?: instance, };
	return fa_worker__add(a->worker, te->t, o->sym ? o->sym->name : "[unknown]", &s);
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
	te = (struct fa_type_entry *)fa_inst_map__find(&a->instances, fa_access__space(acc),
						       acc->addr, &base);
	if (te)
		field = fa_struct__find_leaf(te->st, acc->addr - base);
	if (field >= 0 && !fa_attr__wanted(a, te->name)) {
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
	err = fa_pending__push(&a->pending, acc, a->cur_func, fa_access__space(acc), reason,
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

	while (!err && fa_pending__take(&a->pending, space, base, base + te->size, &from, &pa)) {
		int field = fa_struct__find_leaf(te->st, pa.acc.addr - base);

		if (field < 0) {
			fa_attr__fail_pending(a, &pa);
			continue;
		}
		if (!fa_attr__wanted(a, te->name)) {
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
	a->cur_func = cur_func;
	a->last = last;
	return err;
}

/* An instance of @te at @base was identified: the accesses waiting for it go to it */
static int fa_attr__identified(struct fa_attr *a, struct fa_type_entry *te, u32 space, u64 base)
{
	fa_inst_map__add(&a->instances, space, base, te->size, te);
	return a->pending.nr ? fa_attr__take_pending(a, te, space, base) : 0;
}

/*
 * An access to a type -T leaves out: its instance at @base is identified
 * all the same, so that the accesses attributed by their address go where
 * they would go without -T (to a type left out too)
 */
static int fa_attr__filtered(struct fa_attr *a, struct fa_type_entry *te,
			     const struct fa_access *acc, u64 base)
{
	u32 space = fa_access__space(acc);
	u64 found;

	fa_attr__fail(a, FA_ATTR_FILTERED);
	if (!fa_access__has_addr(acc) || !te->st ||
	    (fa_inst_map__find(&a->instances, space, acc->addr, &found) == te && found == base))
		return 0;
	return fa_attr__identified(a, te, space, base);
}

/**
 * fa_attr__flush_pending - The recording ended: the accesses still waiting
 * for their instance fail
 */
void fa_attr__flush_pending(struct fa_attr *a)
{
	struct fa_pending_access pa;

	while (fa_pending__pop(&a->pending, &pa))
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
		if (!fa_attr__wanted(a, name)) {
			fa_attr__fail(a, FA_ATTR_FILTERED);
			return 0;
		}
		te = fa_attr__type(a, map__dso(o->map), name, 0, 0);
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
	u32 index = off / arr->elem_size;

	if (index >= arr->nr_elems) {
		fa_attr__fail_at(a, FA_ATTR_NOT_STRUCT, acc->origin);
		return 0;
	}
	a->stats.by_array++;
	if (acc->flags & FA_ACC_SEG)
		a->stats.tls_array++;
	a->last = (struct fa_attr_last){ .arr = arr, .index = index, };
	fa_array__access(arr, index, acc->op);
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

	if (te->size >= a->instances.max_size || !fa_access__has_addr(acc))
		return NULL;
	outer = (struct fa_type_entry *)fa_inst_map__find_outer(&a->instances,
								fa_access__space(acc), base,
								outer_base, &size);
	if (!outer || outer == te || size <= te->size || base + te->size > *outer_base + size)
		return NULL;
	delta = base - *outer_base;
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
	if (!fa_attr__wanted(a, te->name))
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
	/* an instance the type had not seen (or not lately): where it is */
	if (!err && te->t->xfer.nr_instances != nr_instances && fa_access__has_addr(acc))
		err = fa_attr__identified(a, te, fa_access__space(acc), base);
	return err;
}

/* What the access was attributed to, for the data lines */
static void fa_attr__line_what(const struct fa_attr *a, const struct fa_access *acc,
			       struct fa_dl_what *w)
{
	const struct fa_attr_last *last = &a->last;

	if (last->te) {
		w->type = last->te->name;
		w->field = last->te->st ? last->te->st->fields[last->field].name : NULL;
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

/* Where a line that became shared is: its map and the variable there */
static void fa_attr__line_where(struct fa_dline *l, const struct fa_access *acc)
{
	const struct fa_origin *o = acc->origin;
	u8 cpumode = acc->flags & FA_ACC_KERNEL ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	struct addr_location al;
	struct symbol *sym;

	if (!o->thread)
		return;
	addr_location__init(&al);
	sym = fa_thread__find_data_symbol(o->thread, cpumode, l->addr, &al);
	if (al.map) {
		l->where.map = dso__short_name(map__dso(al.map));
		l->where.map_off = l->addr - map__start(al.map);
	}
	if (sym) {
		l->where.var = sym->name;
		l->where.var_off = map__map_ip(al.map, l->addr) - sym->start;
	}
	addr_location__exit(&al);
}

/* Count the access on its data line, whatever it was attributed to */
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

static void fa_attr__add_line(struct fa_attr *a, const struct fa_access *acc)
{
	const struct fa_origin *o = acc->origin;
	bool kernel = acc->flags & FA_ACC_KERNEL, new_shared;
	struct fa_dl_access la = {
		.addr = acc->addr, .space = fa_access__space(acc), .cpu = o->cpu,
		.owner = kernel ? o->cpu : o->tid, .time = o->time, .size = acc->size,
		.store = acc->op & FA_OP_STORE,
	};
	struct fa_dl_owner *owner;
	struct fa_dline *l;

	/* a watchpoint sees some bytes of a line: its hits are no sample of it */
	if (!fa_access__has_addr(acc) || o->source == FA_SRC_TP || o->watch)
		return;
	fa_attr__line_what(a, acc, &la.what);
	l = fa_dlines__add(&a->dlines, &la, &new_shared, &owner);
	if (l && new_shared)
		fa_attr__line_where(l, acc);
	/* the code of the owner's first access the line is shared for */
	if (owner && !owner->code.sym && o->map && o->sym) {
		owner->code.dso = map__dso(o->map);
		owner->code.addr = map__rip_2objdump(o->map, map__map_ip(o->map, acc->ip));
		owner->code.sym = o->sym->name;
		owner->code.sym_off = map__map_ip(o->map, acc->ip) - o->sym->start;
	}
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
	int nr = fa_dlines__contended(&a->dlines, &lines);

	for (int i = 0; i < nr && i < FA_DL_SHOWN; i++) {
		for (u32 k = 0; k < lines[i]->nr_owners && k < FA_DL_OWNERS; k++) {
			struct fa_dl_code *code = &lines[i]->owners[k].code;

			if (code->sym && !code->srcline)
				code->srcline = fa_attr__srcline(a, (struct dso *)code->dso,
								 code->addr);
		}
	}
	free(lines);
}

int fa_attr__add(struct fa_attr *a, const struct fa_access *acc)
{
	int err = fa_attr__attribute(a, acc);

	if (!err)
		fa_attr__add_line(a, acc);
	return err;
}

/*
 * Code context
 */

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
	dso = map__dso(o->map);
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
		fn->cpus = bitmap_zalloc(a->cfg.nr_cpus);
		fn->tids = bitmap_zalloc(FA_MAX_THREADS);
		if (!fn->cpus || !fn->tids)
			return -ENOMEM;
		fn->id = hashmap__size(a->funcs);
	}
	a->cur_func = fn;
	if (o->cpu < (u32)a->cfg.nr_cpus)
		__set_bit(o->cpu, fn->cpus);
	owner = fa_owners__index(&a->owners, o->tid);
	if (owner < 0)
		return owner;
	__set_bit(owner, fn->tids);
	if (o->tid != (u32)thread__tid(fn->thread))
		fn->threads = true;
	fn->weight += o->period;
	fn->samples++;
	fn->by_group[fa_boot__group(o->time, a->cfg.boot_ns)]++;
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

/* The fields of @te that the memory operands of @fn access, and which it stores to */
static int fa_func__fields(struct fa_attr *a, struct fa_func *fn, struct fa_type_entry *te,
			   const struct fa_code *code, int *fields, bool *stored)
{
	struct map_symbol ms = { .maps = thread__maps(fn->thread), .map = fn->map,
				 .sym = fn->sym, };
	struct fa_insn_iter it;
	int nr = 0;

	fa_insn_iter__init(&it, fn, code);
	while (fa_insn_iter__next(&it)) {
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
		if (it.insn.ops[0].op & INSN_ACCESS_OP_STORE)
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
	for (int i = 0; i < a->arrays.nr; i++) {
		struct fa_array *arr = a->arrays.arrays[i];

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
		for (int i = 0; code->len && i < a->nr_types; i++) {
			struct fa_type_entry *te = a->types[i];
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
