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
#include "../../dwarf-aux.h"
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
	mutex_init(&a->names.lock);
	a->memo = fa_dso_map__new();
	a->vars = fa_dso_map__new();
	a->debuginfo = fa_dso_map__new();
	a->srclines = fa_dso_map__new();
	a->funcs = fa_dso_map__new();
	a->same_dsos = fa_dso_map__new();
	a->dsos = fa_dso_map__new();
	a->layouts = fa_dso_map__new();
	a->fail_sites = fa_u64_map__new();
	a->tps = fa_u64_map__new();
	return a->memo && a->vars && a->debuginfo && a->srclines && a->funcs && a->same_dsos &&
	       a->dsos &&
	       a->layouts && a->fail_sites && a->tps ? 0 : -ENOMEM;
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
	fa_attr__put_dsos(a->same_dsos);
	fa_map__free_values(a->same_dsos);
	fa_attr__put_dsos(a->dsos);
	fa_map__free_values(a->dsos);
	fa_attr__put_dsos(a->layouts);
	fa_map__free_values(a->layouts);
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
	free(a->names.v);
	mutex_destroy(&a->names.lock);
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
 * Whether @a and @b are one file: DSOs of one session with one long name,
 * or of two recordings, whose build IDs then agree (or neither has one)
 */
static bool fa_dso__same_file(struct dso *a, struct dso *b)
{
	if (dso__long_name(a) == dso__long_name(b))
		return true;
	if (strcmp(dso__long_name(a), dso__long_name(b)) ||
	    dso__has_build_id(a) != dso__has_build_id(b))
		return false;
	return !dso__has_build_id(a) || dso__build_id_equal(a, dso__bid(b));
}

/*
 * The entry of another DSO of the same file: the sections of a vmlinux
 * that perf maps apart ([kernel.kallsyms].data..percpu, ...) are DSOs of
 * the kernel DSO's long name, and opening its debug info once for each
 * mapped the whole vmlinux again (about 220 MB resident each); so would
 * each recording of several.
 */
static struct fa_dbg *fa_attr__dbg_of_file(struct fa_attr *a, struct dso *dso)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(a->debuginfo, cur, bkt) {
		struct fa_dbg *d = cur->pvalue;

		if (d->file == d && fa_dso__same_file(d->key.dso, dso))
			return d;
	}
	return NULL;
}

struct fa_same_dso {
	struct fa_dso_key	 key;
	struct dso		*dso;	/* the first seen of its file */
};

/*
 * fa_attr__same_dso - Of several recordings, the DSO of @dso's file the
 * first recording to sample it had, so that a function sampled in several
 * is one; @dso itself when a report reads one.  Return: NULL out of memory
 */
struct dso *fa_attr__same_dso(struct fa_attr *a, struct dso *dso)
{
	struct hashmap_entry *cur;
	struct fa_same_dso *s;
	bool created;
	size_t bkt;

	if (!a->several)
		return dso;
	s = fa_attr__findnew(a->same_dsos, dso, 0, sizeof(*s), &created);
	if (!s || !created)
		return s ? s->dso : NULL;
	/* the entry's reference, not the caller's: with REFCNT_CHECKING each is another */
	s->dso = s->key.dso;
	hashmap__for_each_entry(a->same_dsos, cur, bkt) {
		struct fa_same_dso *other = cur->pvalue;

		if (other != s && fa_dso__id(other->dso) == fa_dso__id(other->key.dso) &&
		    fa_dso__same_file(other->dso, dso)) {
			s->dso = other->dso;
			break;
		}
	}
	return s->dso;
}

struct fa_dbg *fa_attr__dbg(struct fa_attr *a, struct dso *dso)
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

/*
 * A system library's: libc, ld.so and the like, whose layouts are not
 * the user's to change (by where distributions install them).  The C++
 * standard library's types are its own wherever its code is inlined.
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
 * The classes of the user's that @te holds by value, each an entry of its
 * own: a queue class inside a benchmark's is laid out in its own definition
 */
static int fa_attr__embeds(struct fa_attr *a, struct dso *dso, struct fa_type_entry *te)
{
	struct debuginfo *di = fa_attr__debuginfo(a, dso);
	const struct fa_struct *st = te->st;
	struct strbuf sb;
	Dwarf_Die die;

	for (int i = 0; di && i < st->nr_fields; i++) {
		struct fa_type_entry *inner = NULL;

		if (!st->fields[i].type_die || !dwarf_offdie(di->dbg, st->fields[i].type_die, &die))
			continue;
		if (!te->embeds)
			te->embeds = calloc(st->nr_fields, sizeof(*te->embeds));
		if (!te->embeds)
			return -ENOMEM;
		strbuf_init(&sb, 64);
		if (!die_get_typename_from_type(&die, &sb))
			inner = fa_attr__type(a, dso, sb.buf, st->fields[i].size,
					      st->fields[i].type_die, NULL);
		strbuf_release(&sb);
		if (!inner || !inner->st)
			continue;
		te->embeds[i] = inner;
		inner->held = true;
		te->holds_wanted |= inner->wanted || inner->holds_wanted;
	}
	return 0;
}

/* @dso's layout of type @name: its fields from the DWARF */
static struct fa_struct *fa_attr__struct(struct fa_attr *a, struct dso *dso, const char *name,
					 u32 size, u64 die_offset,
					 struct annotated_member *members)
{
	struct debuginfo *di = fa_attr__debuginfo(a, dso);

	return di ? fa_struct__from_members(di->dbg, name, size, die_offset, members) : NULL;
}

static struct fa_type_entry *fa_attr__new_type(struct fa_attr *a, struct dso *dso,
					       const char *name, u32 size, struct fa_struct *st,
					       int layout);

struct fa_layout_memo {
	struct fa_dso_key	 key;	/* @dso, the entry found by name */
	struct fa_type_entry	*te;	/* of @dso's layout */
};

/*
 * Of several recordings, the entry of type @te's name with @dso's layout:
 * two builds of a program (before and after a fix) may lay one type out
 * two ways, whose accesses must not add up by offset.  A layout of its
 * own is another entry, "name (layout N)".
 */
static struct fa_type_entry *fa_attr__layout(struct fa_attr *a, struct dso *dso,
					     struct fa_type_entry *te, const char *name,
					     u32 size, u64 die_offset,
					     struct annotated_member *members)
{
	struct fa_type_entry *other = NULL;
	struct fa_layout_memo *m;
	struct fa_struct *st;
	int nr = 0;
	bool created;

	m = fa_attr__findnew(a->layouts, dso, (u64)(unsigned long)te, sizeof(*m), &created);
	if (!m || !created)
		return m ? m->te : NULL;
	m->te = te;
	st = fa_attr__struct(a, dso, name, size, die_offset, members);
	if (!st)
		return te;
	hashmap__find(a->s->type_names, te->key ?: te->name, &other);
	for (; other; other = other->same_name) {
		if (other->size != te->size)
			continue;
		nr++;
		if (fa_struct__same_layout(other->st, st)) {
			fa_struct__delete(st);
			m->te = other;
			return other;
		}
		/* the first of its layouts: numbered once there is another */
		if (!other->layout)
			other->layout = 1;
	}
	pr_warning("perf affinity: %s has another layout in %s: reported apart, as layout %d\n",
		   te->st ? te->st->name : name, dso__long_name(dso), nr + 1);
	m->te = fa_attr__new_type(a, dso, te->key ?: te->name, size, st, nr + 1);
	if (m->te)
		m->te->layout = nr + 1;
	return m->te;
}

/*
 * The entry of a type, with its fields from @dso's DWARF when it is new:
 * from its DIE at @die_offset when known (0: search it by name), and from
 * the @members data-type profiling built, if any.  Types of the same name
 * and size are one, whatever DSO they come from; of several recordings,
 * when their layout is one too.
 */
struct fa_type_entry *fa_attr__type(struct fa_attr *a, struct dso *dso, const char *name,
				    u32 size, u64 die_offset, struct annotated_member *members)
{
	struct fa_type_entry *te = fa_session__find_type(a->s, name, size);

	if (te && a->several)
		te = fa_attr__layout(a, dso, te, name, size, die_offset, members);
	if (te) {
		te->system = te->system && (fa_dso__system(dso) || (te->st && te->st->std_lib));
		return te;
	}
	return fa_attr__new_type(a, dso, name, size,
				 fa_attr__struct(a, dso, name, size, die_offset, members), 0);
}

/* The name of layout @layout of @name, 0: @name */
static char *fa_type_name__layout(const char *name, int layout)
{
	char *s;

	if (!layout)
		return strdup(name);
	return asprintf(&s, "%s (layout %d)", name, layout) < 0 ? NULL : s;
}

/* A new entry of a type, its layout @st (taken); of several layouts, the @layout-th */
static struct fa_type_entry *fa_attr__new_type(struct fa_attr *a, struct dso *dso,
					       const char *name, u32 size, struct fa_struct *st,
					       int layout)
{
	struct fa_type_entry *te = zalloc(sizeof(*te)), *same;

	if (!te) {
		fa_struct__delete(st);
		return NULL;
	}
	te->st = st;
	/* a C++ record by its name with its scopes; found by perf's */
	if (layout) {
		te->key = strdup(name);
		te->name = te->key ? fa_type_name__layout(te->st->cxx_name ?: name, layout) : NULL;
	} else if (te->st && te->st->cxx_name && strcmp(te->st->cxx_name, name)) {
		te->key = strdup(name);
		te->name = te->key ? strdup(te->st->cxx_name) : NULL;
	} else {
		te->name = strdup(name);
	}
	if (!te->name) {
		fa_type_entry__delete(te);
		return NULL;
	}
	te->size = te->st ? te->st->size : size;
	same = layout ? NULL : fa_session__find_same(a->s, te);
	if (same) {
		fa_type_entry__delete(te);
		return fa_session__add_alias(a->s, name, same) ? NULL : same;
	}
	te->kernel = dso && dso__kernel(dso) != DSO_SPACE__USER;
	te->system = fa_dso__system(dso) || (te->st && te->st->std_lib);
	/* 'struct _buf' of a variable is the 'buf' its code's data type is */
	te->wanted = fa_session__wanted(a->s, name) || fa_session__wanted(a->s, te->name) ||
		     (te->st && te->st->c_typedef && fa_session__wanted(a->s, te->st->c_typedef));
	if (fa_session__add_type(a->s, te)) {
		fa_type_entry__delete(te);
		return NULL;
	}
	/* added first: a class holds no class that holds it */
	if (te->st && te->st->cxx && fa_attr__embeds(a, dso, te))
		return NULL;
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
				      adt->die_offset, &adt->self);
		m->offset = offset;
		if (!m->te || !m->te->st)
			m->reason = FA_ATTR_NOT_STRUCT;
		else
			m->field = fa_struct__find_leaf(m->te->st, offset);
	}
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
