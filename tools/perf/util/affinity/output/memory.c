// SPDX-License-Identifier: GPL-2.0
/*
 * The memory price of a layout where its instances live (memory.h).
 */
#include <inttypes.h>
#include <string.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include "../accumulate/type.h"
#include "../attr/session.h"
#include "../layout/layout.h"
#include "memory.h"
#include "report.h"

#define FA_PAGE_SHIFT	12

static const char * const fa_mem_home_keys[] = {
	[FA_MEM_VARS] = "variables", [FA_MEM_PER_CPU] = "per_cpu", [FA_MEM_MALLOC] = "malloc",
	[FA_MEM_KMALLOC] = "kmalloc",
};

static const char * const fa_mem_home_texts[] = {
	[FA_MEM_VARS] = "variables or stacks", [FA_MEM_PER_CPU] = "per-CPU copies",
	[FA_MEM_MALLOC] = "malloc() chunks", [FA_MEM_KMALLOC] = "kmalloc() caches",
};

const char *fa_mem_home__key(enum fa_mem_home home)
{
	return fa_mem_home_keys[home];
}

const char *fa_mem_home__text(enum fa_mem_home home)
{
	return fa_mem_home_texts[home];
}

/*
 * The chunk glibc's malloc() takes for @size bytes on a 64-bit machine:
 * the size and an 8-byte header, in 16-byte steps, 32 at least.  An
 * aligned allocation's chunk starts at the alignment: the gap before it
 * is freed for other allocations, so the chunk is what it costs.
 */
u64 fa_malloc__chunk(u64 size)
{
	return max_t(u64, 32, roundup(size + 8, 16));
}

/* The bytes of 2^@order pages */
static u64 fa_pages__bytes(u32 order)
{
	return (u64)1 << (FA_PAGE_SHIFT + order);
}

/* The least order of pages that holds @size bytes */
static u32 fa_page__order(u64 size)
{
	u32 order = 0;

	while (fa_pages__bytes(order) < size)
		order++;
	return order;
}

/*
 * The kmalloc() cache of @size bytes (SLUB, 4k pages): 8 to 256 bytes in
 * the classes 8, 16, 32, 64, 96, 128, 192, 256; powers of two up to 8k;
 * pages above.  A size aligned to more than 32 bytes skips 96 and 192,
 * which do not keep that alignment.
 */
u64 fa_kmalloc__class(u64 size, u32 align)
{
	u64 c = 8;

	if (size > 8192)
		return fa_pages__bytes(fa_page__order(size));
	if (align <= 32 && size > 64 && size <= 96)
		return 96;
	if (align <= 64 && size > 128 && size <= 192)
		return 192;
	while (c < size)
		c <<= 1;
	return c;
}

#define FA_SLUB_MAX_ORDER	3	/* PAGE_ALLOC_COSTLY_ORDER */
#define FA_SLUB_MAX_OBJS	32767	/* MAX_OBJS_PER_PAGE */

static u64 fa_slub__objects(u32 order, u64 size)
{
	return fa_pages__bytes(order) / size;
}

/*
 * The least order from @min_order whose slab wastes at most 1/@fract of
 * itself, or FA_SLUB_MAX_ORDER + 1 (SLUB's calc_slab_order())
 */
static u32 fa_slub__fit(u64 size, u32 min_order, u32 fract)
{
	u32 order;

	for (order = min_order; order <= FA_SLUB_MAX_ORDER; order++) {
		u64 slab = fa_pages__bytes(order);

		if (slab % size <= slab / fract)
			break;
	}
	return order;
}

/*
 * The slab SLUB gives a kmem_cache of objects of @size bytes aligned to
 * @align, on a machine of @nr_cpus (its calculate_order(): enough objects
 * for the CPUs' partial slabs, as little waste as an order up to 3 allows)
 */
void fa_slub__slab(struct fa_slab *s, u64 size, u32 align, u32 nr_cpus)
{
	u64 min_objects = 4 * (fls(max(nr_cpus, 1U)) + 1), max_objects;
	u32 order, min_order;

	size = roundup(max_t(u64, size, 8), max(align, 8U));
	max_objects = max_t(u64, fa_slub__objects(FA_SLUB_MAX_ORDER, size), 1);
	min_objects = min(min_objects, max_objects);
	min_order = fa_page__order(min_objects * size);
	order = fa_page__order(size);
	if (fa_slub__objects(min_order, size) > FA_SLUB_MAX_OBJS) {
		order = fa_page__order(size * FA_SLUB_MAX_OBJS) - 1;
	} else {
		for (u32 fract = 16; fract > 1; fract /= 2) {
			u32 fit = fa_slub__fit(size, min_order, fract);

			if (fit <= FA_SLUB_MAX_ORDER) {
				order = fit;
				break;
			}
		}
	}
	s->order = order;
	s->objects = max_t(u64, fa_slub__objects(order, size), 1);
	s->per_object = fa_pages__bytes(order) / s->objects;
}

static u64 fa_mem__alloc(enum fa_mem_home home, u32 size, u32 align)
{
	switch (home) {
	case FA_MEM_MALLOC:
		return fa_malloc__chunk(size);
	case FA_MEM_KMALLOC:
		return fa_kmalloc__class(size, align);
	case FA_MEM_VARS:
	case FA_MEM_PER_CPU:
	default:
		return size;
	}
}

/*
 * Its instances are variables (or on stacks): on stacks, most of those
 * identified were mapped so, or, when none was, most accesses were to a
 * variable
 */
static bool fa_type_entry__vars(const struct fa_type_entry *te)
{
	u64 vars = te->nr_inst_data + te->nr_inst_stack;

	if (fa_type_entry__on_stacks(te))
		return true;
	if (vars + te->nr_inst_heap)
		return vars > te->nr_inst_heap;
	return fa_type_entry__in_vars(te);
}

/**
 * fa_mem_price__init - What @then costs over @now for the instances of @te
 *
 * The instances are the per-CPU copies of a variable for a kernel type at
 * one offset into their pages (fa_type_entry__per_cpu()), variables when
 * most were mapped in a DSO's data or on a stack, else heap objects.
 */
void fa_mem_price__init(struct fa_mem_price *p, const struct fa_type_entry *te,
			const struct fa_layout *now, const struct fa_layout *then)
{
	const struct fa_type *t = te->t;

	p->home = te->kernel ? FA_MEM_KMALLOC : FA_MEM_MALLOC;
	if (fa_type_entry__per_cpu(te))
		p->home = FA_MEM_PER_CPU;
	else if (fa_type_entry__vars(te))
		p->home = FA_MEM_VARS;
	p->size_now = now->size;
	p->size_then = then->size;
	p->alloc_now = fa_mem__alloc(p->home, now->size, now->align);
	p->alloc_then = fa_mem__alloc(p->home, then->size, then->align);
	p->copies = max_t(u64, t->xfer.nr_instances, 1);
	p->array_var = NULL;
	if (p->home == FA_MEM_PER_CPU && t->cfg.nr_cpus > 0)
		p->copies = t->cfg.nr_cpus;
	if (p->home == FA_MEM_VARS && te->array_elems > p->copies) {
		p->copies = te->array_elems;
		p->array_var = te->array_var;
	}
	p->total = ((s64)p->alloc_then - (s64)p->alloc_now) * (s64)p->copies;
	p->crosses = p->home == FA_MEM_KMALLOC && p->alloc_then != p->alloc_now;
	memset(&p->slab_now, 0, sizeof(p->slab_now));
	memset(&p->slab_then, 0, sizeof(p->slab_then));
	if (p->home != FA_MEM_KMALLOC)
		return;
	fa_slub__slab(&p->slab_now, now->size, now->align, t->cfg.nr_cpus);
	fa_slub__slab(&p->slab_then, then->size, then->align, t->cfg.nr_cpus);
	p->crosses |= p->slab_now.order != p->slab_then.order;
}

/* "; in a kmem_cache of its own: 3 -> 2 objects a 32 KiB slab, +5461 bytes an object" */
static size_t fa_mem_price__slab_fprintf(const struct fa_mem_price *p, FILE *fp)
{
	const struct fa_slab *a = &p->slab_now, *b = &p->slab_then;
	size_t printed = fprintf(fp, "; in a kmem_cache of its own: ");

	if (a->objects == b->objects && a->order == b->order)
		return printed + fprintf(fp, "%u objects a %u KiB slab either way", a->objects,
					 4U << a->order);
	printed += fprintf(fp, "%u objects a %u KiB slab -> %u a %u KiB slab", a->objects,
			   4U << a->order, b->objects, 4U << b->order);
	return printed + fprintf(fp, ", %+" PRId64 " bytes an object",
				 (s64)b->per_object - (s64)a->per_object);
}

/* "72 -> 80 bytes, a malloc() chunk of 96 either way: no more memory" */
size_t fa_mem_price__fprintf(const struct fa_mem_price *p, FILE *fp)
{
	const char *what = p->home == FA_MEM_KMALLOC ? "kmalloc-" : "a malloc() chunk of ";
	s64 each = (s64)p->alloc_then - (s64)p->alloc_now;
	size_t printed = fprintf(fp, "%u -> %u bytes", p->size_now, p->size_then);

	if (p->crosses)
		printed += fprintf(fp, ", crosses an allocation boundary");
	if (p->home == FA_MEM_KMALLOC && !each) {
		printed += fprintf(fp, ", %s%" PRIu64 " either way", what, p->alloc_now);
		printed += fa_mem_price__slab_fprintf(p, fp);
		return printed + fprintf(fp, ": no more memory in kmalloc()");
	}
	if (p->home == FA_MEM_MALLOC && !each)
		return printed + fprintf(fp, ", %s%" PRIu64 " either way: no more memory",
					 what, p->alloc_now);
	if (p->home == FA_MEM_MALLOC || p->home == FA_MEM_KMALLOC)
		printed += fprintf(fp, ", %s%" PRIu64 " -> %" PRIu64, what, p->alloc_now,
				   p->alloc_then);
	if (p->home == FA_MEM_KMALLOC)
		printed += fa_mem_price__slab_fprintf(p, fp);
	if (p->array_var)
		return printed + fprintf(fp, ": %+" PRId64 " bytes an element, %+" PRId64 " for the %" PRIu64 " elements of %s",
					 each, p->total, p->copies, p->array_var);
	if (p->home == FA_MEM_PER_CPU)
		return printed + fprintf(fp, ": %+" PRId64 " bytes a CPU, %+" PRId64 " for the %" PRIu64 " possible CPUs",
					 each, p->total, p->copies);
	return printed + fprintf(fp, ": %+" PRId64 " bytes an instance, %+" PRId64 " for the %" PRIu64 " instance%s seen",
				 each, p->total, p->copies, p->copies == 1 ? "" : "s");
}

/*
 * The instances are on stacks: a quarter of the accesses were near the
 * accessing thread's stack pointer (its own stack; another thread reaches
 * it through a pointer, not near its own), or most instances were
 * identified there
 */
bool fa_type_entry__on_stacks(const struct fa_type_entry *te)
{
	return (te->nr_in_frames && te->nr_in_frames * 4 >= te->nr_accounted) ||
	       te->nr_inst_stack > te->nr_inst_heap + te->nr_inst_data;
}

/*
 * Whether the instances of a kernel type are the per-CPU copies of one
 * variable: each CPU's copy is at a page aligned offset from the variable
 * (its per-CPU area's), so all are at one offset into their pages.  The
 * type's alignment aligns them, as any variable's.
 */
bool fa_type_entry__per_cpu(const struct fa_type_entry *te)
{
	const struct fa_replay *rp = te->t ? &te->t->replay : NULL;

	/* the pt_regs at the top of each kernel stack are at one offset too */
	if (!te->kernel || !rp || rp->nr_bases < 2 || fa_type_entry__on_stacks(te))
		return false;
	for (u32 i = 1; i < rp->nr_bases; i++) {
		if (rp->bases[i] % FA_PAGE_SIZE != rp->bases[0] % FA_PAGE_SIZE)
			return false;
	}
	return true;
}

/* Most accesses to the type were to a variable of it (or TLS) */
bool fa_type_entry__in_vars(const struct fa_type_entry *te)
{
	return te->nr_in_vars * 2 > te->nr_accounted;
}
