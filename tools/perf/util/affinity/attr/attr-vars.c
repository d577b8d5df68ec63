// SPDX-License-Identifier: GPL-2.0
/*
 * Attribution by the data address (see attr.h): the global or static
 * variable there, found through the maps and memoized per data symbol, the
 * ranges of recent lookups, and the thread-local variables of an
 * executable at an offset from the thread pointer.
 */
#include <errno.h>
#include <string.h>
#include <linux/bits.h>
#include <linux/string.h>
#include "attr.h"
#include "attr-int.h"
#include "../fields/fields.h"
#include "../../debuginfo.h"
#include "../../dso.h"
#include "../../map.h"
#include "../../maps.h"
#include "../../strbuf.h"
#include "../../symbol.h"
#include "../../thread.h"

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

/* The name of a map of the heap: the brk area or anonymous memory */
bool fa_map_name__heap(const char *name)
{
	return is_anon_memory(name) || !strcmp(name, "[heap]");
}

bool fa_map_name__stack(const char *name)
{
	return strstarts(name, "[stack");
}

/* Memory that holds no variable: anonymous, the heap, a stack */
static bool fa_map__no_vars(struct map *map)
{
	const char *name = dso__long_name(map__dso(map));

	return fa_map_name__heap(name) || fa_map_name__stack(name);
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
	m->te = fa_attr__type(a, dso, type_name, size, die_offset, NULL);
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
