/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tinyalloc: the fast path of a small slab allocator, for perf affinity.
 *
 * Two threads allocate and free small objects of random size classes, each
 * from slabs of its own, and free each object TINY_LIVE allocations later:
 * the objects a class has live go up and down.  A thread caches free objects
 * per class in two parallel thread-local arrays, tiny_head[] (a free list)
 * and tiny_count[] (its length): tiny_alloc() and tiny_free() read and write
 * both at the same index, two cache lines per operation where one array of
 * struct { head; count; } would touch one (merge the arrays).
 *
 * An empty cache is refilled from the thread's slabs: tiny_slab_scan() reads
 * freelist, used and capacity of TINY_SCAN slabs from a cursor and takes
 * objects from the one with the most free.  tiny_drain() gives the objects of
 * a cache over its limit back to the slabs they came from: freelist and used.
 * class_idx, owner_tid and carved, the other half of struct tiny_slab_meta,
 * are only written by tiny_slab_carve(), every TINY_CARVE_EVERY-th refill: an
 * array of the hot halves would halve the lines a scan touches (split the
 * struct).
 *
 * 'control' runs unrelated code on the same data: tiny_lifo_pop() and
 * tiny_lifo_push() keep the free lists in tiny_head[] without counts,
 * tiny_lifo_trim() gives them back to the slabs now and then, tiny_census()
 * counts requests in tiny_count[] at other times, and tiny_slab_scan_owned()
 * reads all six fields of every slab it visits: nothing to merge and nothing
 * to split.
 *
 *   perf test -w tinyalloc [<msecs> [addr] [control]]
 *
 * 'addr' prints the addresses of the slab array, of each worker's caches
 * ("tls <worker> ...") and of the functions that access them, the ground
 * truth for tests.
 *
 * With -DTINY_STANDALONE it is a program of its own, for
 * bench/tinyalloc_apply.py: 'tinyalloc ops=N [control]' makes N allocations
 * (and N - TINY_LIVE frees) in each thread and prints nothing.  -DTINY_MERGE
 * and -DTINY_SPLIT lay the data out as the advice says, -DTINY_COUNT_LINES
 * prints the mean number of cache lines of the caches an alloc or free
 * touches and of the slabs a scan touches.  -DTINY_CLASSES=N and
 * -DTINY_SLABS=N size the arrays, -DTINY_USED=N uses N of the classes,
 * scattered over the array, -DTINY_SCAN=N scans N slabs a refill.
 */
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef TINY_STANDALONE
#define __tiny_attr(...)	__attribute__((__VA_ARGS__))
#define noinline		__tiny_attr(__noinline__)
#define __aligned(x)		__tiny_attr(__aligned__(x))
/* one load or store, as with volatile: no thread but its owner sees the data */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)
/* bench/tinyalloc_apply.py times the threads where the scheduler runs them */
static inline void workload__pin(pthread_t th __tiny_attr(__unused__),
				 int idx __tiny_attr(__unused__))
{
}
#else
#include <linux/compiler.h>
#include "../tests.h"
#include "pin.h"
#endif

#define NR_WORKERS		2

#ifndef TINY_CLASSES
#define TINY_CLASSES		64	/* size classes, caches per thread */
#endif
#ifndef TINY_USED
#define TINY_USED		TINY_CLASSES	/* the classes in use */
#endif
#ifndef TINY_SLABS
#define TINY_SLABS		8192	/* for all threads */
#endif
#ifndef TINY_SLAB_OBJS
#define TINY_SLAB_OBJS		8	/* the capacity of a slab */
#endif
#ifndef TINY_OBJ_SIZE
#define TINY_OBJ_SIZE		16
#endif
#ifndef TINY_BATCH
#define TINY_BATCH		4	/* objects per refill and per drain */
#endif
#ifndef TINY_LIMIT
#define TINY_LIMIT		10	/* a cache drains when it holds more */
#endif
#ifndef TINY_SCAN
#define TINY_SCAN		64	/* slabs per scan */
#endif
#ifndef TINY_CARVE_EVERY
#define TINY_CARVE_EVERY	16	/* refills per re-carved slab */
#endif
#ifndef TINY_LIVE
#define TINY_LIVE		(16 * TINY_USED)	/* objects a thread holds */
#endif
#define TINY_CHUNK		1024	/* operations between looks at the clock */
#define TINY_TRIM_EVERY		8	/* control: chunks between trims */
#define TINY_SLAB_BYTES		(TINY_SLAB_OBJS * TINY_OBJ_SIZE)

_Static_assert(TINY_SLABS >= NR_WORKERS, "TINY_SLABS: at least a slab per thread");
_Static_assert(TINY_USED && TINY_USED <= TINY_CLASSES, "TINY_USED: 1 to TINY_CLASSES");
_Static_assert(TINY_OBJ_SIZE && TINY_OBJ_SIZE % sizeof(void *) == 0,
	       "TINY_OBJ_SIZE: a multiple of the size of a pointer");

#ifdef TINY_COUNT_LINES
/* The distinct cache lines the current operation and scan touched */
#define TINY_LINES_OP		8
#define TINY_LINES_SCAN		(4 * TINY_SCAN)

struct tiny_lines {
	uintptr_t	op[TINY_LINES_OP];
	uintptr_t	scan[TINY_LINES_SCAN];
	unsigned int	nr_op;
	unsigned int	nr_scan;
	bool		in_op;
	bool		in_scan;
	unsigned long	ops;
	unsigned long	op_lines;
	unsigned long	scans;
	unsigned long	scan_lines;
};

static __thread struct tiny_lines tiny_lines;

static void tiny_lines__add(uintptr_t *set, unsigned int *nr, unsigned int max, const void *p)
{
	uintptr_t line = (uintptr_t)p / 64;

	for (unsigned int i = *nr; i > 0; i--) {
		if (set[i - 1] == line)
			return;
	}
	if (*nr < max)
		set[(*nr)++] = line;
}

static void tiny_lines__op(const void *p)
{
	struct tiny_lines *tl = &tiny_lines;

	if (tl->in_op)
		tiny_lines__add(tl->op, &tl->nr_op, TINY_LINES_OP, p);
}

static void tiny_lines__scan(const void *p)
{
	struct tiny_lines *tl = &tiny_lines;

	if (tl->in_scan)
		tiny_lines__add(tl->scan, &tl->nr_scan, TINY_LINES_SCAN, p);
}

static void tiny_lines__begin(bool scan)
{
	if (scan) {
		tiny_lines.in_scan = true;
		tiny_lines.nr_scan = 0;
	} else {
		tiny_lines.in_op = true;
		tiny_lines.nr_op = 0;
	}
}

static void tiny_lines__end(bool scan)
{
	if (scan) {
		tiny_lines.in_scan = false;
		tiny_lines.scans++;
		tiny_lines.scan_lines += tiny_lines.nr_scan;
	} else {
		tiny_lines.in_op = false;
		tiny_lines.ops++;
		tiny_lines.op_lines += tiny_lines.nr_op;
	}
}

#define tiny_note_op(p)		({ typeof(p) _p = (p); tiny_lines__op(_p); _p; })
#define tiny_note_scan(p)	({ typeof(p) _p = (p); tiny_lines__scan(_p); _p; })
#else
#define tiny_note_op(p)		(p)
#define tiny_note_scan(p)	(p)
#define tiny_lines__begin(scan)	((void)(scan))
#define tiny_lines__end(scan)	((void)(scan))
#endif

/* The caches of a thread: free lists and their lengths, by class */
#ifdef TINY_MERGE
static __thread struct tiny_cache {
	void		*head;
	unsigned int	count;
} tiny_cache[TINY_CLASSES] __aligned(64);

#define tiny_head_of(cls)	(*tiny_note_op(&tiny_cache[cls].head))
#define tiny_count_of(cls)	(*tiny_note_op(&tiny_cache[cls].count))
#else
static __thread void *tiny_head[TINY_CLASSES] __aligned(64);
static __thread unsigned int tiny_count[TINY_CLASSES] __aligned(64);

#define tiny_head_of(cls)	(*tiny_note_op(&tiny_head[cls]))
#define tiny_count_of(cls)	(*tiny_note_op(&tiny_count[cls]))
#endif

/* The slabs of all threads, each thread's a range of its own */
#ifdef TINY_SPLIT
struct tiny_slab_hot {
	void		*freelist;
	unsigned int	used;
	unsigned int	capacity;
};

struct tiny_slab_cold {
	unsigned int	class_idx;
	unsigned int	owner_tid;
	unsigned long	carved;
};

static struct tiny_slab_hot tiny_slab_hot[TINY_SLABS] __aligned(64);
static struct tiny_slab_cold tiny_slab_cold[TINY_SLABS] __aligned(64);

#define tiny_hot(s)		(&tiny_slab_hot[s])
#define tiny_cold(s)		(&tiny_slab_cold[s])
#else
struct tiny_slab_meta {
	void		*freelist;	/* hot: every refill/drain */
	unsigned int	used;		/* hot */
	unsigned int	capacity;	/* hot */
	unsigned int	class_idx;	/* cold: set when the slab is carved */
	unsigned int	owner_tid;	/* cold */
	unsigned long	carved;		/* cold */
};

static struct tiny_slab_meta tiny_slabs[TINY_SLABS] __aligned(64);

#define tiny_hot(s)		(&tiny_slabs[s])
#define tiny_cold(s)		(&tiny_slabs[s])
#endif

#define slab_freelist(s)	(*tiny_note_scan(&tiny_hot(s)->freelist))
#define slab_used(s)		(*tiny_note_scan(&tiny_hot(s)->used))
#define slab_capacity(s)	(*tiny_note_scan(&tiny_hot(s)->capacity))
#define slab_class_idx(s)	(*tiny_note_scan(&tiny_cold(s)->class_idx))
#define slab_owner_tid(s)	(*tiny_note_scan(&tiny_cold(s)->owner_tid))
#define slab_carved(s)		(*tiny_note_scan(&tiny_cold(s)->carved))

struct tiny_live {
	void		*p;
	unsigned int	cls;
};

struct tiny_worker {
	unsigned int	id;
	unsigned int	first;		/* its slabs: first .. first + nr - 1 */
	unsigned int	nr;
	unsigned int	cursor;		/* where the next scan starts */
	bool		control;
	bool		addr;
	int		err;
	unsigned long	ops;		/* allocations to make, 0: until done */
	uint64_t	rnd;
	unsigned long	refills;
	unsigned long	chunks;
	unsigned long	carves;
	char		*arena;		/* the objects of its slabs */
	struct tiny_live *live;		/* what it holds, oldest first from slot */
	unsigned int	slot;
#ifdef TINY_COUNT_LINES
	struct tiny_lines lines;
#endif
} __aligned(64);

static int done;

static bool has_arg(int argc, const char **argv, const char *arg)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], arg))
			return true;
	}
	return false;
}

static void sleep_ms(int msecs)
{
	struct timespec ts = { .tv_sec = msecs / 1000, .tv_nsec = (msecs % 1000) * 1000000L, };

	nanosleep(&ts, NULL);
}

/* C11's aligned_alloc() wants a size that is a multiple of the alignment */
static void *line_alloc(size_t size)
{
	return aligned_alloc(64, (size + 63) & ~(size_t)63);
}

static unsigned int tiny_rand(struct tiny_worker *w)
{
	uint64_t x = w->rnd;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	w->rnd = x;
	return x >> 32;
}

/* A random class of the TINY_USED in use, scattered over all TINY_CLASSES */
static unsigned int tiny_class(struct tiny_worker *w)
{
	return (tiny_rand(w) % TINY_USED) * 40503u % TINY_CLASSES;
}

/* Stamp a slab as carved for @cls: its cold fields, rarely written */
static noinline void tiny_slab_carve(struct tiny_worker *w, unsigned int s, unsigned int cls)
{
	WRITE_ONCE(slab_class_idx(s), cls);
	WRITE_ONCE(slab_owner_tid(s), w->id + 1);
	WRITE_ONCE(slab_carved(s), ++w->carves);
}

static void tiny_slab_init(struct tiny_worker *w, unsigned int s)
{
	char *obj = w->arena + (size_t)(s - w->first) * TINY_SLAB_BYTES;
	void *list = NULL;

	for (int k = TINY_SLAB_OBJS - 1; k >= 0; k--) {
		*(void **)(obj + k * TINY_OBJ_SIZE) = list;
		list = obj + k * TINY_OBJ_SIZE;
	}
	WRITE_ONCE(slab_freelist(s), list);
	WRITE_ONCE(slab_used(s), 0);
	WRITE_ONCE(slab_capacity(s), TINY_SLAB_OBJS);
	tiny_slab_carve(w, s, 0);
}

/*
 * The slab with the most free objects of the next TINY_SCAN from the cursor,
 * or -1.  It reads freelist, used and capacity of each, nothing else.
 */
static noinline int tiny_slab_scan(struct tiny_worker *w)
{
	unsigned int s = w->cursor, end = w->first + w->nr, best_n = 0;
	int best = -1;

	tiny_lines__begin(true);
	for (unsigned int k = 0; k < TINY_SCAN; k++) {
		void *freelist = READ_ONCE(slab_freelist(s));
		unsigned int used = READ_ONCE(slab_used(s));
		unsigned int capacity = READ_ONCE(slab_capacity(s));
		unsigned int n = freelist ? capacity - used : 0;

		if (n > best_n) {
			best_n = n;
			best = s;
		}
		if (++s == end)
			s = w->first;
	}
	tiny_lines__end(true);
	w->cursor = s;
	return best;
}

/*
 * The control's scan: the same choice, but it checks the owner, prefers a
 * slab carved for @cls and of two equal ones the older: all six fields.
 */
static noinline int tiny_slab_scan_owned(struct tiny_worker *w, unsigned int cls)
{
	unsigned int s = w->cursor, end = w->first + w->nr, best_score = 0;
	unsigned long oldest = ULONG_MAX;
	int best = -1;

	tiny_lines__begin(true);
	for (unsigned int k = 0; k < TINY_SCAN; k++) {
		void *freelist = READ_ONCE(slab_freelist(s));
		unsigned int used = READ_ONCE(slab_used(s));
		unsigned int capacity = READ_ONCE(slab_capacity(s));
		unsigned int class_idx = READ_ONCE(slab_class_idx(s));
		unsigned int owner_tid = READ_ONCE(slab_owner_tid(s));
		unsigned long carved = READ_ONCE(slab_carved(s));
		unsigned int n = freelist ? capacity - used : 0;
		unsigned int score = owner_tid == w->id + 1 && n ? 2 * n + (class_idx == cls) : 0;

		if (score > best_score || (score && score == best_score && carved < oldest)) {
			best_score = score;
			oldest = carved;
			best = s;
		}
		if (++s == end)
			s = w->first;
	}
	tiny_lines__end(true);
	w->cursor = s;
	return best;
}

/* Scan until a slab has free objects, all of the thread's slabs at most */
static int tiny_slab_find(struct tiny_worker *w, unsigned int cls)
{
	for (unsigned int k = 0; k < w->nr; k += TINY_SCAN) {
		int s = w->control ? tiny_slab_scan_owned(w, cls) : tiny_slab_scan(w);

		if (s >= 0)
			return s;
	}
	return -1;
}

/* Move up to TINY_BATCH objects from slab @s onto @list, @n of them */
static void *tiny_slab_take(unsigned int s, void *list, unsigned int *n)
{
	void *p = READ_ONCE(slab_freelist(s));
	unsigned int used = READ_ONCE(slab_used(s));
	unsigned int k;

	for (k = 0; p && k < TINY_BATCH; k++) {
		void *next = *(void **)p;

		*(void **)p = list;
		list = p;
		p = next;
	}
	WRITE_ONCE(slab_freelist(s), p);
	WRITE_ONCE(slab_used(s), used + k);
	*n = k;
	return list;
}

/* Give object @p back to the slab it was carved from */
static void tiny_slab_put(struct tiny_worker *w, void *p)
{
	unsigned int s = w->first + ((char *)p - w->arena) / TINY_SLAB_BYTES;
	unsigned int used = READ_ONCE(slab_used(s));

	*(void **)p = READ_ONCE(slab_freelist(s));
	WRITE_ONCE(slab_freelist(s), p);
	WRITE_ONCE(slab_used(s), used - 1);
}

/* The cache of @cls is empty: fill it from a slab */
static noinline void *tiny_refill(struct tiny_worker *w, unsigned int cls)
{
	int s = tiny_slab_find(w, cls);
	unsigned int n, count;
	void *head;

	if (s < 0)
		return NULL;
	if (++w->refills % TINY_CARVE_EVERY == 0)
		tiny_slab_carve(w, s, cls);
	head = tiny_slab_take(s, NULL, &n);
	count = READ_ONCE(tiny_count_of(cls));
	WRITE_ONCE(tiny_head_of(cls), head);
	WRITE_ONCE(tiny_count_of(cls), count + n);
	return head;
}

/* The cache of @cls is over its limit: give TINY_BATCH objects back */
static noinline void tiny_drain(struct tiny_worker *w, unsigned int cls)
{
	void *list = READ_ONCE(tiny_head_of(cls));
	unsigned int count = READ_ONCE(tiny_count_of(cls)), k;

	for (k = 0; list && k < TINY_BATCH; k++) {
		void *next = *(void **)list;

		tiny_slab_put(w, list);
		list = next;
	}
	WRITE_ONCE(tiny_head_of(cls), list);
	WRITE_ONCE(tiny_count_of(cls), count - k);
}

/* The fast path: the head of the class's list, and its length, at one index */
static noinline void *tiny_alloc(struct tiny_worker *w, unsigned int cls)
{
	unsigned int count;
	void *p;

	tiny_lines__begin(false);
	p = READ_ONCE(tiny_head_of(cls));
	if (!p)
		p = tiny_refill(w, cls);
	if (p) {
		count = READ_ONCE(tiny_count_of(cls));
		WRITE_ONCE(tiny_head_of(cls), *(void **)p);
		WRITE_ONCE(tiny_count_of(cls), count - 1);
	}
	tiny_lines__end(false);
	return p;
}

static noinline void tiny_free(struct tiny_worker *w, void *p, unsigned int cls)
{
	unsigned int count;

	tiny_lines__begin(false);
	*(void **)p = READ_ONCE(tiny_head_of(cls));
	WRITE_ONCE(tiny_head_of(cls), p);
	count = READ_ONCE(tiny_count_of(cls)) + 1;
	WRITE_ONCE(tiny_count_of(cls), count);
	if (count > TINY_LIMIT)
		tiny_drain(w, cls);
	tiny_lines__end(false);
}

/* The object allocated TINY_LIVE allocations ago, if any, to free */
static struct tiny_live *tiny_next(struct tiny_worker *w)
{
	struct tiny_live *l = &w->live[w->slot];

	if (++w->slot == TINY_LIVE)
		w->slot = 0;
	return l;
}

/*
 * @nr times: free the oldest object and allocate one of a random class.  A
 * class's live objects, of the last TINY_LIVE, go up and down by a few
 * TINY_BATCH: its cache runs empty and over its limit.
 */
static noinline void tiny_run(struct tiny_worker *w, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		struct tiny_live *l = tiny_next(w);
		unsigned int cls = tiny_class(w);

		if (l->p)
			tiny_free(w, l->p, l->cls);
		l->p = tiny_alloc(w, cls);
		l->cls = cls;
	}
}

/* The control: free lists without counts, in tiny_head[] only */
static noinline void *tiny_lifo_refill(struct tiny_worker *w, unsigned int cls)
{
	int s = tiny_slab_find(w, cls);
	unsigned int n;
	void *head;

	if (s < 0)
		return NULL;
	if (++w->refills % TINY_CARVE_EVERY == 0)
		tiny_slab_carve(w, s, cls);
	head = tiny_slab_take(s, NULL, &n);
	WRITE_ONCE(tiny_head_of(cls), head);
	return head;
}

static noinline void *tiny_lifo_pop(struct tiny_worker *w, unsigned int cls)
{
	void *p = READ_ONCE(tiny_head_of(cls));

	if (!p)
		p = tiny_lifo_refill(w, cls);
	if (p)
		WRITE_ONCE(tiny_head_of(cls), *(void **)p);
	return p;
}

static noinline void tiny_lifo_push(void *p, unsigned int cls)
{
	*(void **)p = READ_ONCE(tiny_head_of(cls));
	WRITE_ONCE(tiny_head_of(cls), p);
}

/* Give every list back to the slabs */
static noinline void tiny_lifo_trim(struct tiny_worker *w)
{
	for (unsigned int cls = 0; cls < TINY_CLASSES; cls++) {
		void *list = READ_ONCE(tiny_head_of(cls));

		while (list) {
			void *next = *(void **)list;

			tiny_slab_put(w, list);
			list = next;
		}
		WRITE_ONCE(tiny_head_of(cls), NULL);
	}
}

static noinline void tiny_lifo_run(struct tiny_worker *w, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		struct tiny_live *l = tiny_next(w);
		unsigned int cls = tiny_class(w);

		if (l->p)
			tiny_lifo_push(l->p, l->cls);
		l->p = tiny_lifo_pop(w, cls);
		l->cls = cls;
	}
}

/* The control's statistics: requests by class, in tiny_count[] only */
static noinline void tiny_census(struct tiny_worker *w, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		unsigned int cls = tiny_class(w);
		unsigned int count = READ_ONCE(tiny_count_of(cls)) + 1;

		WRITE_ONCE(tiny_count_of(cls), count > 1024 ? count / 2 : count);
	}
}

static void tiny_print_tls(struct tiny_worker *w)
{
#ifdef TINY_MERGE
	printf("tls %u tiny_cache %p %zu\n", w->id, (void *)tiny_cache, sizeof(tiny_cache[0]));
#else
	printf("tls %u tiny_head %p %zu\ntls %u tiny_count %p %zu\n", w->id, (void *)tiny_head,
	       sizeof(tiny_head[0]), w->id, (void *)tiny_count, sizeof(tiny_count[0]));
#endif
	fflush(stdout);
}

static noinline void *tiny_thread(void *arg)
{
	struct tiny_worker *w = arg;
	unsigned long n = 0;

	w->arena = line_alloc((size_t)w->nr * TINY_SLAB_BYTES);
	w->live = calloc(TINY_LIVE, sizeof(*w->live));
	if (!w->arena || !w->live) {
		free(w->arena);
		free(w->live);
		w->err = -1;
		return NULL;
	}
	for (unsigned int s = w->first; s < w->first + w->nr; s++)
		tiny_slab_init(w, s);
	w->cursor = w->first;
	if (w->addr)
		tiny_print_tls(w);
	do {
		unsigned long chunk = w->ops && w->ops - n < TINY_CHUNK ? w->ops - n : TINY_CHUNK;

		if (w->control) {
			tiny_lifo_run(w, chunk);
			if (++w->chunks % TINY_TRIM_EVERY == 0)
				tiny_lifo_trim(w);
			tiny_census(w, chunk);
		} else {
			tiny_run(w, chunk);
		}
		n += chunk;
	} while (w->ops ? n < w->ops : !READ_ONCE(done));
	/* the caches and w->live point into the arena: forget them with it */
	free(w->live);
	free(w->arena);
	w->live = NULL;
	w->arena = NULL;
#ifdef TINY_COUNT_LINES
	w->lines = tiny_lines;
#endif
	return NULL;
}

struct func_addr {
	const char	*name;
	void		*addr;
};

static void tiny_print_addr(void)
{
	const struct func_addr funcs[] = {
		{ "tiny_alloc", tiny_alloc },
		{ "tiny_free", tiny_free },
		{ "tiny_refill", tiny_refill },
		{ "tiny_drain", tiny_drain },
		{ "tiny_slab_scan", tiny_slab_scan },
		{ "tiny_slab_carve", tiny_slab_carve },
		{ "tiny_lifo_pop", tiny_lifo_pop },
		{ "tiny_lifo_push", tiny_lifo_push },
		{ "tiny_lifo_refill", tiny_lifo_refill },
		{ "tiny_lifo_trim", tiny_lifo_trim },
		{ "tiny_census", tiny_census },
		{ "tiny_slab_scan_owned", tiny_slab_scan_owned },
		{ NULL, NULL },
	};

#ifdef TINY_SPLIT
	printf("tiny_slab_hot %p %zu\n", (void *)tiny_slab_hot, sizeof(tiny_slab_hot[0]));
	printf("tiny_slab_cold %p %zu\n", (void *)tiny_slab_cold, sizeof(tiny_slab_cold[0]));
#else
	printf("tiny_slabs %p %zu\n", (void *)tiny_slabs, sizeof(tiny_slabs[0]));
#endif
	for (const struct func_addr *fn = funcs; fn->name; fn++)
		printf("func %s %p\n", fn->name, fn->addr);
	fflush(stdout);
}

#ifdef TINY_COUNT_LINES
static void tiny_print_lines(const struct tiny_worker *w, int n)
{
	unsigned long ops = 0, op_lines = 0, scans = 0, scan_lines = 0;

	for (int i = 0; i < n; i++) {
		ops += w[i].lines.ops;
		op_lines += w[i].lines.op_lines;
		scans += w[i].lines.scans;
		scan_lines += w[i].lines.scan_lines;
	}
	printf("lines per op %.2f\n", ops ? (double)op_lines / ops : 0.0);
	printf("lines per scan of %d slabs %.2f\n", TINY_SCAN,
	       scans ? (double)scan_lines / scans : 0.0);
}
#endif

static int tinyalloc(int argc, const char **argv)
{
	bool addr = has_arg(argc, argv, "addr"), control = has_arg(argc, argv, "control");
	struct tiny_worker *w;
	pthread_t th[NR_WORKERS];
	unsigned long ops = 0;
	int i, n = 0, msecs = 1000, err = 0;

	if (argc > 0 && !strncmp(argv[0], "ops=", 4))
		ops = strtoul(argv[0] + 4, NULL, 0);
	else if (argc > 0)
		msecs = atoi(argv[0]);
	if (msecs <= 0 || (argc > 0 && !strncmp(argv[0], "ops=", 4) && !ops)) {
		fprintf(stderr, "usage: perf test -w %s [<msecs>|ops=<N> [addr] [control]]\n",
			__func__);
		return -1;
	}
	w = line_alloc(NR_WORKERS * sizeof(*w));
	if (!w)
		return -1;
	memset(w, 0, NR_WORKERS * sizeof(*w));
	WRITE_ONCE(done, 0);
	if (addr)
		tiny_print_addr();
	for (i = 0; i < NR_WORKERS; i++) {
		w[i].id = i;
		w[i].nr = TINY_SLABS / NR_WORKERS;
		w[i].first = i * w[i].nr;
		w[i].control = control;
		w[i].addr = addr;
		w[i].ops = ops;
		w[i].rnd = 0x9e3779b97f4a7c15ULL * (i + 1);
	}
	for (i = 0; i < NR_WORKERS; i++) {
		if (pthread_create(&th[i], NULL, tiny_thread, &w[i]))
			break;
		workload__pin(th[n++], i);
	}
	if (!ops)
		sleep_ms(msecs);
	WRITE_ONCE(done, 1);
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		err |= w[i].err;
	}
#ifdef TINY_COUNT_LINES
	tiny_print_lines(w, n);
#endif
	free(w);
	return n == NR_WORKERS && !err ? 0 : -1;
}

#ifdef TINY_STANDALONE
int main(int argc, char **argv)
{
	return tinyalloc(argc - 1, (const char **)argv + 1) ? 1 : 0;
}
#else
DEFINE_WORKLOAD(tinyalloc);
#endif
