// SPDX-License-Identifier: GPL-2.0
/* Data cache lines shared between threads (see dlines.h). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/zalloc.h>
#include "../decode/access.h"
#include "dlines.h"

#define FA_DL_NO_HOME	0xff

int fa_dlines__init(struct fa_dlines *dl, u32 line_size, u64 xfer_ns, u64 boot_ns)
{
	memset(dl, 0, sizeof(*dl));
	/* every access divides by them: shifts */
	if (!is_power_of_2(line_size))
		return -EINVAL;
	dl->line_size = line_size;
	dl->line_shift = ilog2(line_size);
	dl->grain_shift = line_size > FA_DL_GRAINS ? ilog2(line_size / FA_DL_GRAINS) : 0;
	dl->xfer_ns = xfer_ns;
	dl->boot_ns = boot_ns;
	return fa_keymap__init(&dl->lines);
}

void fa_dlines__exit(struct fa_dlines *dl)
{
	struct fa_keymap_slot *slot;

	fa_keymap__for_each(&dl->lines, slot) {
		struct fa_dl_first *f = slot->value;

		free(f->shared);
	}
	fa_keymap__free_values(&dl->lines);
	zfree(&dl->shared);
	dl->nr_shared = 0;
	dl->alloc_shared = 0;
}

static u64 fa_dlines__key(u64 line, u32 space)
{
	return (line * 0x9E3779B97F4A7C15ULL) ^ space;
}

struct fa_dl_id {
	u64	addr;
	u32	space;
};

static bool fa_dl_first__eq(const void *value, const void *ctx)
{
	const struct fa_dl_first *f = value;
	const struct fa_dl_id *id = ctx;

	return f->addr == id->addr && f->space == id->space;
}

/* The grains [first, last] an access covers, clipped to its line, as a mask */
static u64 fa_dlines__grains(const struct fa_dlines *dl, u64 addr, u16 size, int *first)
{
	u32 off = addr & (dl->line_size - 1);
	u32 end = min_t(u32, off + max_t(u16, size, 1), dl->line_size);
	int lo = off >> dl->grain_shift, hi = (end - 1) >> dl->grain_shift;

	*first = lo;
	if (hi - lo + 1 >= 64)
		return ~0ULL;
	return ((1ULL << (hi - lo + 1)) - 1) << lo;
}

/*
 * Whether an access of @acc moves the line of @st between owners: another
 * owner wrote it on another CPU less than xfer_ns before, and the access's
 * CPU has not fetched it since.  A thread that migrates moves its lines
 * too, but that is no sharing: no layout takes it away.
 */
static bool fa_dl_state__access(struct fa_dl_state *st, const struct fa_dl_access *acc,
				u64 xfer_ns)
{
	u32 i, cpu = acc->cpu;
	bool moved = false;

	if (st->nr_seen && acc->time - st->wtime <= xfer_ns && st->wowner != acc->owner) {
		for (i = 0; i < st->nr_seen && i < FA_DL_OWNERS && st->seen[i] != cpu; i++)
			;
		moved = i == st->nr_seen || i == FA_DL_OWNERS;
		if (moved && st->nr_seen < FA_DL_OWNERS)
			st->seen[st->nr_seen++] = cpu;
	}
	if (acc->store) {
		st->wtime = acc->time;
		st->wowner = acc->owner;
		st->seen[0] = cpu;
		st->nr_seen = 1;
	}
	return moved;
}

/* The slot of owner @id, a new one if there is room; FA_DL_OWNERS: not named */
static int fa_dline__owner(struct fa_dline *l, u32 id)
{
	u32 i;

	for (i = 0; i < l->nr_owners && i < FA_DL_OWNERS; i++) {
		if (l->owners[i].id == id)
			return i;
	}
	if (i == FA_DL_OWNERS)
		return FA_DL_OWNERS;
	l->owners[i].id = id;
	l->nr_owners++;
	return i;
}

/* What an owner accessed: the first thing, the range of indexes from one base */
static void fa_dl_owner__what(struct fa_dl_owner *o, const struct fa_dl_access *acc)
{
	const struct fa_dl_what *w = &acc->what;

	if (!o->what.type && !o->what.var) {
		o->what = *w;
		o->index_lo = o->index_hi = w->index;
		return;
	}
	if (o->what.type != w->type || o->what.var != w->var || o->what.field != w->field ||
	    o->what.base != w->base) {
		o->more_what = true;
		return;
	}
	o->index_lo = min(o->index_lo, w->index);
	o->index_hi = max(o->index_hi, w->index);
}

/*
 * The grains of @grains that become @slot's: when it writes, those no
 * owner wrote; a grain only read is read-only (FA_DL_READ) until written.
 * A byte is its writer's: a reader of it shares it truly whatever the
 * layout, a byte no one writes moves no line.
 */
static void fa_dline__home(struct fa_dline *l, u64 grains, int slot, bool store)
{
	u64 claim = store ? grains & ~l->homew : grains & ~l->homed;

	/* read, not written: read-only bytes, where no write moves them */
	for (u64 m = claim; m; m &= m - 1)
		l->home[__builtin_ctzll(m)] = store ? slot : FA_DL_READ;
	l->homed |= grains;
	if (store)
		l->homew |= grains;
}

static struct fa_dline *fa_dl_first__share(struct fa_dlines *dl, struct fa_dl_first *f)
{
	struct fa_dline *l = zalloc(sizeof(*l));
	struct fa_dline **shared;

	if (!l)
		return NULL;
	if (dl->nr_shared == dl->alloc_shared) {
		int alloc = max(2 * dl->alloc_shared, 64);

		shared = realloc(dl->shared, alloc * sizeof(*shared));
		if (!shared) {
			free(l);
			return NULL;
		}
		dl->shared = shared;
		dl->alloc_shared = alloc;
	}
	l->addr = f->addr;
	l->space = f->space;
	l->exact = dl->exact;
	l->several = dl->several;
	l->array = -1;
	l->loads = f->loads;
	l->stores = f->stores;
	l->nr_owners = 1;
	l->owners[0] = (struct fa_dl_owner){ .id = f->owner, .loads = f->loads,
					     .stores = f->stores, .grains = f->grains,
					     .written = f->written, };
	memset(l->home, FA_DL_NO_HOME, sizeof(l->home));
	fa_dline__home(l, f->grains & ~f->written, 0, /*store=*/false);
	fa_dline__home(l, f->written, 0, /*store=*/true);
	f->shared = l;
	dl->shared[dl->nr_shared++] = l;
	return l;
}

/* The homes of @grains (fa_dline__home()), bit h for home h */
static u32 fa_dline__homes(const struct fa_dline *l, u64 grains)
{
	u32 homes = 0;

	for (u64 m = grains; m; m &= m - 1)
		homes |= 1U << l->home[__builtin_ctzll(m)];
	return homes;
}

/*
 * Whether @acc, to bytes of @homes, moves a line of theirs, were each
 * owner's bytes on a line of its own: one access, one transfer at most
 */
static bool fa_dline__apart(struct fa_dline *l, u32 homes, const struct fa_dl_access *acc,
			    u64 xfer_ns)
{
	bool moved = false;

	for (; homes; homes &= homes - 1)
		moved |= fa_dl_state__access(&l->apart[__builtin_ctz(homes)], acc, xfer_ns);
	return moved;
}

/*
 * Were only owner k's bytes set apart, for each k: whether @acc, to bytes
 * of @homes, moves k's line or the line the others keep together
 */
static void fa_dline__alone_access(struct fa_dline *l, u32 homes, const struct fa_dl_access *acc,
				   u64 xfer_ns)
{
	for (int k = 0; k < FA_DL_OWNERS && k < (int)l->nr_owners; k++) {
		bool moved = false;

		if (homes & (1U << k))
			moved |= fa_dl_state__access(&l->alone[k][0], acc, xfer_ns);
		if (homes & ~(1U << k))
			moved |= fa_dl_state__access(&l->alone[k][1], acc, xfer_ns);
		l->xfers_alone[k] += moved;
	}
}

/* Count @acc on shared line @l; its owner, NULL when it is not named */
static struct fa_dl_owner *fa_dline__add(struct fa_dline *l, const struct fa_dlines *dl,
					 const struct fa_dl_access *acc)
{
	int first, slot = fa_dline__owner(l, acc->owner);
	u64 grains = fa_dlines__grains(dl, acc->addr, acc->size, &first);
	u32 homes;

	fa_dline__home(l, grains, slot, acc->store);
	homes = fa_dline__homes(l, grains);
	if (acc->store)
		l->stores++;
	else
		l->loads++;
	if (fa_dl_state__access(&l->line, acc, dl->xfer_ns)) {
		l->xfers++;
		l->xfers_g[fa_boot__group(acc->time, dl->boot_ns)]++;
	}
	if (fa_dline__apart(l, homes, acc, dl->xfer_ns)) {
		l->xfers_apart++;
		l->apart_g[fa_boot__group(acc->time, dl->boot_ns)]++;
	}
	fa_dline__alone_access(l, homes, acc, dl->xfer_ns);
	if (slot == FA_DL_OWNERS)
		return NULL;
	l->owners[slot].grains |= grains;
	if (acc->store) {
		l->owners[slot].stores++;
		l->owners[slot].written |= grains;
	} else {
		l->owners[slot].loads++;
	}
	fa_dl_owner__what(&l->owners[slot], acc);
	return &l->owners[slot];
}

static struct fa_dl_first *fa_dlines__findnew(struct fa_dlines *dl, u64 addr, u32 space)
{
	struct fa_dl_id id = { .addr = addr, .space = space, };
	u64 key = fa_dlines__key(addr >> dl->line_shift, space);
	struct fa_dl_first **slot = &dl->cache[fa_cache__slot(key)];
	struct fa_dl_first *f = *slot;

	if (f && f->addr == addr && f->space == space)
		return f;
	f = fa_keymap__find_eq(&dl->lines, key, fa_dl_first__eq, &id);
	if (f || fa_keymap__size(&dl->lines) >= FA_DL_MAX) {
		*slot = f ?: *slot;
		return f;
	}
	f = zalloc(sizeof(*f));
	if (!f)
		return NULL;
	f->addr = addr;
	f->space = space;
	if (fa_keymap__add(&dl->lines, key, f)) {
		free(f);
		return NULL;
	}
	*slot = f;
	return f;
}

/**
 * fa_dlines__add - Count an access on its data line
 *
 * Returns the line once it is shared (it was or is now accessed by two
 * owners), NULL while it is not, or when it could not be kept; @new_shared
 * says whether it has just become shared, @owner is the access's owner on
 * it (NULL if not named): the caller names its code once.
 */
struct fa_dline *fa_dlines__add(struct fa_dlines *dl, const struct fa_dl_access *acc,
				bool *new_shared, struct fa_dl_owner **owner)
{
	u64 addr = acc->addr & ~(u64)(dl->line_size - 1);
	struct fa_dl_first *f = fa_dlines__findnew(dl, addr, acc->space);
	int first;

	*new_shared = false;
	*owner = NULL;
	if (!f) {
		dl->untracked++;
		return NULL;
	}
	if (!f->shared && (!(f->loads + f->stores) || f->owner == acc->owner)) {
		u64 grains = fa_dlines__grains(dl, acc->addr, acc->size, &first);

		f->owner = acc->owner;
		f->grains |= grains;
		if (acc->store) {
			f->stores++;
			f->written |= grains;
		} else {
			f->loads++;
		}
		return NULL;
	}
	if (!f->shared) {
		if (!fa_dl_first__share(dl, f)) {
			dl->untracked++;
			return NULL;
		}
		*new_shared = true;
	}
	*owner = fa_dline__add(f->shared, dl, acc);
	return f->shared;
}

/*
 * Two or more owners, one of them writing, and the line seen moving
 * between them: what perf c2c would list (a HITM)
 */
bool fa_dline__contended(const struct fa_dline *l)
{
	return l->nr_owners >= 2 && l->stores && l->xfers;
}

/* A line per owner would keep nine in ten of the line's transfers, or all */
static bool fa_dline__kept(const struct fa_dline *l)
{
	return l->xfers_apart * 10 >= l->xfers * 9;
}

/**
 * fa_dline__sharing - How the owners named share a line: each its own
 * bytes (false sharing); bytes two access, one writing, and a line per
 * owner still removes transfers (a sum over per-thread slots: the sum's
 * reads are true sharing, the slots' writes false); or bytes two access
 * and a line per owner would keep nine in ten transfers (true sharing)
 */
enum fa_dl_sharing fa_dline__sharing(const struct fa_dline *l)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS);
	enum fa_dl_sharing sharing = FA_DL_FALSE;

	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n; j++) {
			const struct fa_dl_owner *a = &l->owners[i], *b = &l->owners[j];

			if ((a->written & b->grains) || (b->written & a->grains))
				sharing = FA_DL_MIXED;
		}
	}
	/* bytes two owners access, one writing, and little else to set apart */
	if (sharing != FA_DL_FALSE && fa_dline__kept(l))
		return FA_DL_TRUE;
	/* and some to set apart: false sharing beside the true */
	return sharing == FA_DL_FALSE ? FA_DL_FALSE : FA_DL_MIXED;
}

/* The owners named accessed different bytes: each could have a line of its own */
bool fa_dline__false_sharing(const struct fa_dline *l)
{
	return fa_dline__sharing(l) == FA_DL_FALSE;
}

static int fa_dline__cmp(const void *pa, const void *pb)
{
	const struct fa_dline *a = *(const struct fa_dline **)pa;
	const struct fa_dline *b = *(const struct fa_dline **)pb;

	if (a->xfers != b->xfers)
		return a->xfers > b->xfers ? -1 : 1;
	if (a->loads + a->stores != b->loads + b->stores)
		return a->loads + a->stores > b->loads + b->stores ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/**
 * fa_dlines__contended - The contended lines, most transfers first
 *
 * @lines is the caller's to free (the lines are not); returns how many, or
 * -ENOMEM.
 */
int fa_dlines__contended(const struct fa_dlines *dl, struct fa_dline ***lines)
{
	return fa_dlines__contended_all(dl, NULL, lines);
}

/**
 * fa_dlines__sum - The transfers of the contended lines, sampled or
 * watched (fa_dlines__contended_all()), and those a line per owner would leave
 */
void fa_dlines__sum(const struct fa_dlines *dl, const struct fa_dlines *exact,
		    struct fa_dl_sum *sum)
{
	struct fa_dline **lines;
	int nr = fa_dlines__contended_all(dl, exact, &lines);

	*sum = (struct fa_dl_sum){ .nr = max(nr, 0), };
	for (int i = 0; i < nr; i++) {
		const struct fa_dline *l = lines[i];

		sum->nr_false += l->xfers_apart < l->xfers;
		sum->xfers += l->xfers;
		sum->xfers_apart += min(l->xfers_apart, l->xfers);
	}
	free(lines);
}

/* The line of @addr in @space, NULL if no access was counted on it */
const struct fa_dl_first *fa_dlines__find(const struct fa_dlines *dl, u64 addr, u32 space)
{
	u64 line = addr & ~(u64)(dl->line_size - 1);
	struct fa_dl_id id = { .addr = line, .space = space, };

	return fa_keymap__find_eq(&dl->lines, fa_dlines__key(line >> dl->line_shift, space),
				  fa_dl_first__eq, &id);
}

/**
 * fa_dlines__contended_all - The contended lines of the samples and of the
 * watchpoints' hits (@exact, NULL: none), most transfers first: a line
 * the watchpoints saw shared is theirs, exact, not the samples'
 */
int fa_dlines__contended_all(const struct fa_dlines *dl, const struct fa_dlines *exact,
			     struct fa_dline ***lines)
{
	int nr_exact = exact ? exact->nr_shared : 0, n = 0;

	*lines = calloc(dl->nr_shared + nr_exact + 1, sizeof(**lines));
	if (!*lines)
		return -ENOMEM;
	for (int i = 0; i < nr_exact; i++) {
		if (fa_dline__contended(exact->shared[i]))
			(*lines)[n++] = exact->shared[i];
	}
	for (int i = 0; i < dl->nr_shared; i++) {
		const struct fa_dline *l = dl->shared[i];
		const struct fa_dl_first *f = exact ? fa_dlines__find(exact, l->addr, l->space) : NULL;

		if (fa_dline__contended(l) && !(f && f->shared))
			(*lines)[n++] = dl->shared[i];
	}
	qsort(*lines, n, sizeof(**lines), fa_dline__cmp);
	return n;
}

/* The bytes of the line an owner accessed: the first and the last */
void fa_dl_owner__bytes(const struct fa_dl_owner *o, u32 line_size, u32 *lo, u32 *hi)
{
	u32 grain = max(line_size / FA_DL_GRAINS, 1U);

	*lo = o->grains ? __builtin_ctzll(o->grains) * grain : 0;
	*hi = o->grains ? (64 - __builtin_clzll(o->grains)) * grain - 1 : 0;
}

/* The owners named are elements of one array, each its own range of them */
static bool fa_dline__elements(const struct fa_dline *l)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS);
	const struct fa_dl_owner *o = l->owners;

	for (int i = 0; i < n; i++) {
		if (!o[i].what.base || o[i].what.field || o[i].more_what ||
		    o[i].what.base != o[0].what.base || o[i].what.size != o[0].what.size ||
		    o[i].what.var != o[0].what.var)
			return false;
		for (int j = 0; j < i; j++) {
			if (o[i].index_lo <= o[j].index_hi && o[j].index_lo <= o[i].index_hi)
				return false;
		}
	}
	return true;
}

/* The owners named accessed struct fields only */
static bool fa_dline__fields(const struct fa_dline *l)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS);
	const char *type = n ? l->owners[0].what.type : NULL;

	for (int i = 0; i < n; i++) {
		const struct fa_dl_what *w = &l->owners[i].what;

		/* two types' fields (an object beside another): no type's analysis has both */
		if (!w->field || !w->type || strcmp(w->type, type))
			return false;
	}
	return true;
}

/* The code of an owner's stores, else of its first access */
static const struct fa_dl_code *fa_dl_owner__store_code(const struct fa_dl_owner *o)
{
	return o->wcode.sym ? &o->wcode : &o->code;
}

/* The bytes an owner wrote, else those it accessed */
static void fa_dl_owner__own_bytes(const struct fa_dl_owner *o, u32 line_size, u32 *lo, u32 *hi)
{
	struct fa_dl_owner w = { .grains = o->written ?: o->grains, };

	fa_dl_owner__bytes(&w, line_size, lo, hi);
}

/*
 * The owners named stored with one instruction to bytes of their own,
 * each owner its own: elements of an array indexed per owner, whatever
 * the type; what else they read (a sum over all slots) does not change
 * that.  The stride: the least distance between two owners' first bytes.
 */
u32 fa_dline__stride(const struct fa_dline *l, u32 line_size)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS);
	const struct fa_dl_owner *o = l->owners;
	const struct fa_dl_code *c0 = fa_dl_owner__store_code(&o[0]);
	u32 stride = line_size;

	for (int i = 0; i < n; i++) {
		const struct fa_dl_code *c = fa_dl_owner__store_code(&o[i]);
		u32 lo, hi;

		if (!c->sym || c->dso != c0->dso || c->addr != c0->addr || o[i].what.field)
			return 0;
		fa_dl_owner__own_bytes(&o[i], line_size, &lo, &hi);
		for (int j = 0; j < i; j++) {
			u32 lo2, hi2;

			fa_dl_owner__own_bytes(&o[j], line_size, &lo2, &hi2);
			if (lo <= hi2 && lo2 <= hi)
				return 0;
			stride = min(stride, lo > lo2 ? lo - lo2 : lo2 - lo);
		}
	}
	return n >= 2 ? stride : 0;
}

/* The most bytes one owner named on @l wrote (else accessed): a slot's width */
u32 fa_dline__width(const struct fa_dline *l, u32 line_size)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS);
	u32 width = 0;

	for (int i = 0; i < n; i++) {
		u32 lo, hi;

		fa_dl_owner__own_bytes(&l->owners[i], line_size, &lo, &hi);
		width = max(width, hi - lo + 1);
	}
	return width;
}

/* The saving of transfers @xg (by group of time) to @ag, and whether it is sure */
static bool fa_dl__saving(const u32 *xg, const u32 *ag, struct fa_interval *ci, int *nr_groups)
{
	struct fa_boot_sum all, apart;

	for (int g = 0; g < FA_BOOT_GROUPS; g++) {
		all.g[g] = xg[g];
		apart.g[g] = ag[g];
	}
	fa_boot__saving(&all, &apart, ci);
	*nr_groups = fa_boot_sum__nr_groups(&all);
	return *nr_groups >= FA_BOOT_MIN_GROUPS && ci->lo >= FA_MIN_GAIN;
}

/* An owner's access attributed to nothing: a sample that named no type */
static bool fa_dl_owner__untyped(const struct fa_dl_owner *o)
{
	return !o->what.type && !o->what.var;
}

/* @a and @b are elements of one array: one base, one element type */
static bool fa_dl_what__same_array(const struct fa_dl_what *a, const struct fa_dl_what *b)
{
	return a && b && a->base == b->base && a->type == b->type && a->var == b->var &&
	       a->size == b->size;
}

/*
 * The owners named on @l accessed elements of one array from one base
 * (those whose first access named no type aside)
 */
static const struct fa_dl_what *fa_dline__array(const struct fa_dline *l)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS);
	const struct fa_dl_what *w = NULL;

	for (int i = 0; i < n; i++) {
		const struct fa_dl_what *o = &l->owners[i].what;

		if (fa_dl_owner__untyped(&l->owners[i]))
			continue;
		if (!w)
			w = o;
		if (!o->base || o->field || !o->size || !fa_dl_what__same_array(o, w))
			return NULL;
	}
	return w;
}

/* Slot of owner @id among those of @g, a new one when there is room; -1: none */
static int fa_dl_group__id(struct fa_dl_group *g, u32 id)
{
	u32 i;

	for (i = 0; i < g->nr_ids; i++) {
		if (g->ids[i] == id)
			return i;
	}
	if (i == FA_DL_OWNERS)
		return -1;
	/* no element yet */
	g->id_lo[i] = LLONG_MAX;
	g->id_hi[i] = LLONG_MIN;
	g->ids[g->nr_ids++] = id;
	return i;
}

/*
 * Each owner accesses every n-th element from its own residue, n the
 * owners: an array interleaved between threads, every line of it shared
 */
static void fa_dl_group__interleave(struct fa_dl_group *g)
{
	bool seen[FA_DL_OWNERS] = { false, };
	u32 n;

	for (int k = 0; k < g->nr; k++) {
		const struct fa_dline *l = g->lines[k];

		for (u32 i = 0; i < l->nr_owners && i < FA_DL_OWNERS; i++) {
			const struct fa_dl_owner *o = &l->owners[i];
			int slot = fa_dl_group__id(g, o->id);

			if (slot < 0 || fa_dl_owner__untyped(o))
				continue;
			g->id_lo[slot] = min(g->id_lo[slot], o->index_lo);
			g->id_hi[slot] = max(g->id_hi[slot], o->index_hi);
		}
	}
	n = g->nr_ids;
	g->stride = 0;
	if (n < 2 || g->nr < 2)
		return;
	for (int k = 0; k < g->nr; k++) {
		const struct fa_dline *l = g->lines[k];

		for (u32 i = 0; i < l->nr_owners && i < FA_DL_OWNERS; i++) {
			const struct fa_dl_owner *o = &l->owners[i];
			int slot = fa_dl_group__id(g, o->id);
			u32 r = (u32)(o->index_lo % n);

			if (fa_dl_owner__untyped(o))
				continue;
			if (slot < 0 || o->index_lo < 0 || o->more_what)
				return;
			if (seen[slot] && g->residue[slot] != r)
				return;
			g->residue[slot] = r;
			seen[slot] = true;
		}
	}
	for (u32 i = 0; i < n; i++) {
		for (u32 j = i + 1; j < n; j++) {
			if (!seen[i] || g->residue[i] == g->residue[j])
				return;
		}
	}
	g->stride = n;
}

static void fa_dl_group__add(struct fa_dl_group *g, struct fa_dline *l)
{
	const struct fa_dl_what *w = fa_dline__array(l);

	if (!g->nr && w) {
		g->index_lo = LLONG_MAX;
		g->index_hi = LLONG_MIN;
	}
	for (u32 i = 0; w && i < l->nr_owners && i < FA_DL_OWNERS; i++) {
		if (fa_dl_owner__untyped(&l->owners[i]))
			continue;
		g->index_lo = min(g->index_lo, l->owners[i].index_lo);
		g->index_hi = max(g->index_hi, l->owners[i].index_hi);
	}
	if (!g->nr)
		g->what = w;
	g->lines[g->nr++] = l;
	g->loads += l->loads;
	g->stores += l->stores;
	g->xfers += l->xfers;
	g->xfers_apart += l->xfers_apart;
	for (int k = 0; k < FA_BOOT_GROUPS; k++) {
		g->xfers_g[k] += l->xfers_g[k];
		g->apart_g[k] += l->apart_g[k];
	}
}

/*
 * The group of each of @lines in @of, in the order of their first lines
 * (@first), and how many lines each has (@count): each group's lines are
 * allocated to size, not to the lines left (thousands of lines of a group
 * each zeroed memory quadratic in the lines)
 */
static int fa_dlines__group_of(struct fa_dline **lines, int nr, int *of, int *first, int *count)
{
	int nr_groups = 0;

	for (int i = 0; i < nr; i++) {
		const struct fa_dl_what *w = fa_dline__array(lines[i]);
		int k;

		for (k = 0; w && k < nr_groups; k++) {
			const struct fa_dline *l0 = lines[first[k]];

			if (l0->space == lines[i]->space &&
			    fa_dl_what__same_array(fa_dline__array(l0), w))
				break;
		}
		if (!w || k == nr_groups) {
			k = nr_groups++;
			first[k] = i;
		}
		of[i] = k;
		count[k]++;
	}
	return nr_groups;
}

/**
 * fa_dlines__groups - The contended @lines (most transfers first) by array
 *
 * Lines whose owners accessed elements of one array (one base, one type)
 * are one group, a finding of the report: the 200 lines of an array
 * interleaved between threads are one access pattern, one edit.  Other
 * lines are a group each.  Groups keep the order of their first line.
 * Each line's @array is set to its group's among those of two lines or
 * more (the report's array findings), -1 for a line of its own.
 *
 * Return: the number of groups in @groups (the caller's, fa_dl_groups__free()),
 * or -ENOMEM.
 */
int fa_dlines__groups(struct fa_dline **lines, int nr, struct fa_dl_group **groups)
{
	struct fa_dl_group *g = calloc(nr + 1, sizeof(*g));
	int *of = calloc(3 * (nr + 1), sizeof(*of));
	int nr_groups = 0, *count;

	*groups = g;
	if (!g || !of)
		goto out_enomem;
	count = of + 2 * (nr + 1);
	nr_groups = fa_dlines__group_of(lines, nr, of, of + nr + 1, count);
	for (int k = 0; k < nr_groups; k++) {
		g[k].lines = calloc(count[k], sizeof(*g[k].lines));
		if (!g[k].lines)
			goto out_enomem;
	}
	for (int i = 0; i < nr; i++)
		fa_dl_group__add(&g[of[i]], lines[i]);
	for (int k = 0, array = 0; k < nr_groups; k++) {
		fa_dl_group__interleave(&g[k]);
		for (int i = 0; i < g[k].nr; i++)
			g[k].lines[i]->array = g[k].nr > 1 ? array : -1;
		array += g[k].nr > 1;
	}
	free(of);
	return nr_groups;

out_enomem:
	free(of);
	fa_dl_groups__free(g, nr_groups);
	*groups = NULL;
	return -ENOMEM;
}

void fa_dl_groups__free(struct fa_dl_group *groups, int nr)
{
	for (int k = 0; groups && k < nr; k++)
		zfree(&groups[k].lines);
	free(groups);
}

/* fa_dline__saving() of the lines of @g together */
bool fa_dl_group__saving(const struct fa_dl_group *g, struct fa_interval *ci, int *nr_groups)
{
	return fa_dl__saving(g->xfers_g, g->apart_g, ci, nr_groups);
}

/**
 * fa_dline__alone - The smaller edit: the owner whose bytes alone on a
 * line of their own remove 90% of what a line per owner removes, the
 * others staying together; -1 when there is none (two owners: the same
 * edit), or it leaves more than that
 */
int fa_dline__alone(const struct fa_dline *l)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS), best = -1;
	u64 removable = l->xfers > l->xfers_apart ? l->xfers - l->xfers_apart : 0;

	if (n < 3 || !removable || l->nr_owners > FA_DL_OWNERS)
		return -1;
	for (int k = 0; k < n; k++) {
		if (best < 0 || l->xfers_alone[k] < l->xfers_alone[best])
			best = k;
	}
	/* what it leaves beyond a line per owner: at most a tenth of what that removes */
	if (l->xfers_alone[best] > l->xfers_apart + removable / 10)
		return -1;
	return best;
}

/**
 * fa_dl_slot__step - The index step that puts slots of @size bytes a
 * whole number of lines apart: line / gcd(size, line), one line when
 * @size divides it (4 -> 16), several when it does not (24 -> 8, 192 bytes)
 */
u32 fa_dl_slot__step(u32 size, u32 line_size)
{
	u32 a = max(size, 1U), b = line_size;

	while (b) {
		u32 t = a % b;

		a = b;
		b = t;
	}
	return line_size / a;
}

/**
 * fa_dline__saving - The share of a line's transfers a line per owner removes
 * @ci: Its estimate and interval (boot.h)
 * @nr_groups: Of the bootstrap groups, those the transfers fell in
 *
 * Return: whether the saving is sure, as the edits of a type must be: the
 * lower end of @ci reaches FA_MIN_GAIN, the transfers fell in enough
 * blocks of time.
 */
bool fa_dline__saving(const struct fa_dline *l, struct fa_interval *ci, int *nr_groups)
{
	return fa_dl__saving(l->xfers_g, l->apart_g, ci, nr_groups);
}

/**
 * fa_dline__type - The type whose advice is a line's (FA_DL_ADV_TYPE): the
 * class of the user's that holds the fields of every owner, else their type
 */
const char *fa_dline__type(const struct fa_dline *l)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS);
	const char *inner = n ? l->owners[0].what.inner : NULL;

	for (int i = 1; inner && i < n; i++) {
		if (!l->owners[i].what.inner || strcmp(l->owners[i].what.inner, inner))
			inner = NULL;
	}
	return inner ?: (n ? l->owners[0].what.type : NULL);
}

/**
 * fa_dline__advice - What would take the transfers of a contended line away
 */
enum fa_dl_advice fa_dline__advice(const struct fa_dline *l, u32 line_size)
{
	/* fields: the type's analysis weighs them, false and true sharing alike */
	if (l->xfers && fa_dline__fields(l))
		return FA_DL_ADV_TYPE;
	if (!l->xfers || fa_dline__kept(l))
		return FA_DL_ADV_NONE;
	if (fa_dline__elements(l))
		return FA_DL_ADV_ELEMENTS;
	if (fa_dline__stride(l, line_size))
		return FA_DL_ADV_STRIDE;
	return FA_DL_ADV_BYTES;
}

static const char * const fa_dl_advice_keys[] = {
	[FA_DL_ADV_NONE]	= "none",
	[FA_DL_ADV_TYPE]	= "type",
	[FA_DL_ADV_ELEMENTS]	= "elements",
	[FA_DL_ADV_STRIDE]	= "stride",
	[FA_DL_ADV_BYTES]	= "bytes",
};

const char *fa_dl_advice__key(enum fa_dl_advice adv)
{
	return fa_dl_advice_keys[adv];
}

static const char * const fa_dl_sharing_keys[] = {
	[FA_DL_FALSE]	= "false",
	[FA_DL_MIXED]	= "mixed",
	[FA_DL_TRUE]	= "true",
};

const char *fa_dl_sharing__key(enum fa_dl_sharing sharing)
{
	return fa_dl_sharing_keys[sharing];
}

/**
 * fa_dline__watch_scnprintf - The --watch of 'perf affinity record' that
 * gives the roles and transfers of line @l exactly
 *
 * Every member of the struct variable its owners access, or the first
 * bytes each owner accesses.  Only a variable of the executable can be
 * watched (watch.h): none of a library, nor in the kernel.
 *
 * Return: the characters written in @buf, 0 if there is none.
 */
int fa_dline__watch_scnprintf(const struct fa_dline *l, u32 line_size, char *buf, size_t size)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS), printed = 0;

	if (l->exact || fa_space__kernel(l->space) || !l->where.var || !l->where.map ||
	    strstr(l->where.map, ".so"))
		return 0;
	if (fa_dline__advice(l, line_size) == FA_DL_ADV_TYPE)
		return scnprintf(buf, size, "%s.*", l->where.var);
	for (int i = 0; i < n; i++) {
		u32 lo, hi, lo2, hi2;
		int j;

		fa_dl_owner__bytes(&l->owners[i], line_size, &lo, &hi);
		/* one watchpoint for owners whose bytes start together */
		for (j = 0; j < i; j++) {
			fa_dl_owner__bytes(&l->owners[j], line_size, &lo2, &hi2);
			if (lo2 == lo)
				break;
		}
		if (j < i)
			continue;
		printed += scnprintf(buf + printed, size - printed, "%s%s+%#" PRIx64,
				     printed ? "," : "", l->where.var, l->where.var_off + lo);
	}
	return printed;
}
