// SPDX-License-Identifier: GPL-2.0
/*
 * The worker thread accumulating the struct types (see worker.h).
 *
 * The main thread finds the instance of each access (fa_type__instance():
 * attribution asks whether it is new) and queues the access; the worker
 * does the rest in queue order.  The types are the worker's until a
 * drain: every reader of them (code context, flush, analysis) and every
 * sweep of old instances, which frees what the worker uses, drains first.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "type.h"
#include "worker.h"
#include "../../debug.h"
#include "../../mutex.h"

#define FA_WORK_RING	4096	/* entries queued, a power of two: 960 KB with calls */
#define FA_WORK_BATCH	32	/* accesses published or consumed at once */
#define FA_WORK_SPIN	2000	/* polls of the other side before sleeping */
/*
 * Accesses published before a sleeping consumer is woken: a wakeup for
 * each batch cost the main thread a futex call every 32 accesses (its
 * 5%, and a context switch of the worker each time)
 */
#define FA_WORK_WAKE	(FA_WORK_RING / 4)

/* An access to a type, or a call (fa_workers__call()): @t is NULL */
struct fa_work {
	struct fa_type		*t;
	union {
		struct {
			struct fa_inst		*inst;
			const char		*sym;	/* the sampled function, for the sites */
			struct fa_sample	 s;
		};
		struct {
			int		(*fn)(void *arg);
			u64		 arg[FA_WORK_CALL_MAX / sizeof(u64)];
		} call;
	};
};

/*
 * Each side writes its own lines: the producer's index and flags, the
 * consumer's, and what each keeps to itself.
 */
struct fa_worker {
	struct fa_work		*ring;
	pthread_t		 thread;
	struct mutex		 lock;		/* for the sleeps and wakeups */
	struct cond		 wake;		/* the consumer: work or stop */
	struct cond		 room;		/* the producer: room or done */

	/* written by the producer */
	unsigned long		 head __aligned(FA_APART);	/* published */
	unsigned long		 room_at;	/* the tail the producer waits for */
	int			 stop;
	int			 producer_waits;

	/* written by the consumer */
	unsigned long		 tail __aligned(FA_APART);	/* consumed */
	int			 consumer_waits;
	int			 err;		/* the first error of an access */

	/* the producer's alone */
	unsigned long		 next __aligned(FA_APART);	/* queued, not yet published */
	unsigned long		 tail_seen;
};

/* The CPUs perf may run on */
static int fa_cpus__available(void)
{
	cpu_set_t cpus;

	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		return max(sysconf(_SC_NPROCESSORS_ONLN), 1L);
	return max(CPU_COUNT(&cpus), 1);
}

/* Worker threads beside the main thread: one a CPU perf may run on but its own */
int fa_workers__default(void)
{
	return min(fa_cpus__available() - 1, FA_WORKERS_MAX);
}

/* What the worker does with an access, or the caller without one */
static int fa_type__accumulate_at(struct fa_type *t, struct fa_inst *inst, const char *sym,
				  const struct fa_sample *s)
{
	int err;

	if (s->watched)
		return fa_type__watched(t, s);
	err = sym ? fa_type__add_site(t, s->field, sym, s->op) : 0;
	return err ?: fa_type__accumulate(t, inst, s);
}

static void fa_work__do(struct fa_worker *w, struct fa_work *wk)
{
	int err = wk->t ? fa_type__accumulate_at(wk->t, wk->inst, wk->sym, &wk->s) :
			  wk->call.fn(wk->call.arg);

	if (err && !__atomic_load_n(&w->err, __ATOMIC_RELAXED))
		__atomic_store_n(&w->err, err, __ATOMIC_RELAXED);
}

/* The consumer's wait: work queued, or the end */
static bool fa_worker__has_work(struct fa_worker *w, unsigned long tail)
{
	/* pairs with the release of fa_worker__publish(): the entries are written */
	return __atomic_load_n(&w->head, __ATOMIC_ACQUIRE) != tail ||
	       __atomic_load_n(&w->stop, __ATOMIC_RELAXED);
}

/* The producer's wait: the consumer is at @tail or past it */
static bool fa_worker__consumed(struct fa_worker *w, unsigned long tail)
{
	/* pairs with the release of fa_worker__run(): the entries are done with */
	return (long)(__atomic_load_n(&w->tail, __ATOMIC_ACQUIRE) - tail) >= 0;
}

/*
 * Sleep until @ready, polling for a while first.  The flag and the other
 * side's index are ordered by full barriers on both sides, so that one of
 * the two sees the other: a sleeper is always woken.  The compiler's
 * atomics, not the kernel's barriers: ThreadSanitizer knows them.
 */
static void fa_worker__wait(struct fa_worker *w, int *waits, struct cond *cv,
			    bool (*ready)(struct fa_worker *w, unsigned long arg),
			    unsigned long arg)
{
	for (int spin = 0; spin < FA_WORK_SPIN; spin++) {
		if (ready(w, arg))
			return;
	}
	mutex_lock(&w->lock);
	__atomic_store_n(waits, 1, __ATOMIC_RELAXED);
	/* the flag before the index: pairs with fa_worker__wake()'s */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	while (!ready(w, arg))
		cond_wait(cv, &w->lock);
	__atomic_store_n(waits, 0, __ATOMIC_RELAXED);
	mutex_unlock(&w->lock);
}

static void fa_worker__wake(struct fa_worker *w, int *waits, struct cond *cv)
{
	/* the index before the flag: pairs with fa_worker__wait()'s */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(waits, __ATOMIC_RELAXED)) {
		mutex_lock(&w->lock);
		cond_signal(cv);
		mutex_unlock(&w->lock);
	}
}

static void *fa_worker__run(void *arg)
{
	struct fa_worker *w = arg;
	unsigned long tail = w->tail, head;

	for (;;) {
		fa_worker__wait(w, &w->consumer_waits, &w->wake, fa_worker__has_work, tail);
		/* pairs with fa_worker__publish(): entries up to head are written */
		head = __atomic_load_n(&w->head, __ATOMIC_ACQUIRE);
		if (head == tail)
			break;		/* stopped, all done */
		while (tail != head) {
			unsigned long end = min(head, tail + FA_WORK_BATCH);

			for (; tail != end; tail++)
				fa_work__do(w, &w->ring[tail & (FA_WORK_RING - 1)]);
			/* the producer may write these entries anew from now on */
			__atomic_store_n(&w->tail, tail, __ATOMIC_RELEASE);
			/* not at every batch: when the producer has what it waits for */
			if (fa_worker__consumed(w, __atomic_load_n(&w->room_at, __ATOMIC_RELAXED)))
				fa_worker__wake(w, &w->producer_waits, &w->room);
		}
	}
	return NULL;
}

/* A worker thread, NULL if none could start: the caller accumulates itself */
struct fa_worker *fa_worker__new(void)
{
	struct fa_worker *w;

	if (posix_memalign((void **)&w, FA_APART, sizeof(*w)))
		return NULL;
	memset(w, 0, sizeof(*w));
	w->ring = calloc(FA_WORK_RING, sizeof(*w->ring));
	if (!w->ring)
		goto out_free;
	mutex_init(&w->lock);
	cond_init(&w->wake);
	cond_init(&w->room);
	if (pthread_create(&w->thread, NULL, fa_worker__run, w)) {
		pr_debug("perf affinity: no worker thread, accumulating in the main thread\n");
		goto out_destroy;
	}
	return w;

out_destroy:
	cond_destroy(&w->room);
	cond_destroy(&w->wake);
	mutex_destroy(&w->lock);
out_free:
	free(w->ring);
	free(w);
	return NULL;
}

/* Publish what is queued; @wake a sleeping consumer, else it sees it when polling */
static void fa_worker__publish(struct fa_worker *w, bool wake)
{
	/* the entries before w->next are written: the consumer may read them */
	__atomic_store_n(&w->head, w->next, __ATOMIC_RELEASE);
	if (wake)
		fa_worker__wake(w, &w->consumer_waits, &w->wake);
}

/* Wait for room in the ring: until half of it is free, not to wake for every batch */
static void fa_worker__room(struct fa_worker *w)
{
	/* pairs with fa_worker__run()'s release of the entries it is done with */
	w->tail_seen = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
	if (w->next - w->tail_seen < FA_WORK_RING)
		return;
	fa_worker__publish(w, true);
	__atomic_store_n(&w->room_at, w->next - FA_WORK_RING / 2, __ATOMIC_RELAXED);
	fa_worker__wait(w, &w->producer_waits, &w->room, fa_worker__consumed, w->room_at);
	/* as above */
	w->tail_seen = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
}

/* The entry to queue next: fa_worker__queued() once it is written */
static struct fa_work *fa_worker__slot(struct fa_worker *w)
{
	if (w->next - w->tail_seen == FA_WORK_RING)
		fa_worker__room(w);
	return &w->ring[w->next & (FA_WORK_RING - 1)];
}

static int fa_worker__queued(struct fa_worker *w)
{
	/* the consumer's line is read once a batch, not once an access */
	if (++w->next % FA_WORK_BATCH)
		return 0;
	fa_worker__publish(w, !(w->next % FA_WORK_WAKE));
	return __atomic_load_n(&w->err, __ATOMIC_RELAXED);
}

static int fa_worker__queue(struct fa_worker *w, struct fa_type *t, struct fa_inst *inst,
			    const char *sym, const struct fa_sample *s)
{
	struct fa_work *wk = fa_worker__slot(w);

	wk->t = t;
	wk->inst = inst;
	wk->sym = sym;
	wk->s = *s;
	return fa_worker__queued(w);
}

static int fa_worker__call(struct fa_worker *w, int (*fn)(void *arg), const void *arg,
			   size_t size)
{
	struct fa_work *wk = fa_worker__slot(w);

	wk->t = NULL;
	wk->call.fn = fn;
	memcpy(wk->call.arg, arg, size);
	return fa_worker__queued(w);
}

/**
 * fa_worker__add - Account an access to a field of @t
 * @w: The worker, or NULL to account it now
 * @sym: The function it was sampled in, or NULL
 *
 * Return: 0, or a negative error of this access or, with a worker, of an
 * earlier one.
 */
int fa_worker__add(struct fa_worker *w, struct fa_type *t, const char *sym,
		   const struct fa_sample *s)
{
	struct fa_inst *inst;
	int err = fa_type__check(t, s);

	if (err)
		return err;
	/* a watchpoint's hit is no sample of an instance */
	if (s->watched)
		return w ? fa_worker__queue(w, t, NULL, sym, s) : fa_type__watched(t, s);
	/* forgetting old instances frees what queued accesses may use */
	if (w && fa_type__sweep_due(t)) {
		err = fa_worker__drain(w);
		if (err)
			return err;
	}
	inst = fa_type__instance(t, s);
	if (!inst)
		return -ENOMEM;
	if (!w)
		return fa_type__accumulate_at(t, inst, sym, s);
	return fa_worker__queue(w, t, inst, sym, s);
}

/**
 * fa_worker__drain - Wait until every queued access is accounted
 *
 * The types are the caller's again until the next fa_worker__add().
 *
 * Return: 0, or the first error of an access.
 */
int fa_worker__drain(struct fa_worker *w)
{
	if (!w)
		return 0;
	fa_worker__publish(w, true);
	__atomic_store_n(&w->room_at, w->next, __ATOMIC_RELAXED);
	fa_worker__wait(w, &w->producer_waits, &w->room, fa_worker__consumed, w->room_at);
	w->tail_seen = w->next;
	return __atomic_load_n(&w->err, __ATOMIC_RELAXED);
}

/**
 * fa_worker__delete - Drain, stop and free the worker; NULL is fine
 *
 * Return: 0, or the first error of an access.
 */
int fa_worker__delete(struct fa_worker *w)
{
	int err;

	if (!w)
		return 0;
	err = fa_worker__drain(w);
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
	fa_worker__wake(w, &w->consumer_waits, &w->wake);
	pthread_join(w->thread, NULL);
	cond_destroy(&w->room);
	cond_destroy(&w->wake);
	mutex_destroy(&w->lock);
	free(w->ring);
	free(w);
	return err;
}

/*
 * The workers, and the accesses each took: a type goes to the one that took
 * the fewest when its first access comes, and stays its
 */
struct fa_workers {
	int			 nr;
	struct fa_worker	*w[FA_WORKERS_MAX];
	u64			 taken[FA_WORKERS_MAX];
};

/**
 * fa_workers__new - @nr worker threads, fewer if fewer start
 *
 * Return: NULL when none starts (or @nr < 1): the caller accumulates itself.
 */
struct fa_workers *fa_workers__new(int nr)
{
	struct fa_workers *ws = zalloc(sizeof(*ws));

	if (!ws)
		return NULL;
	for (int i = 0; i < min(nr, FA_WORKERS_MAX); i++) {
		ws->w[ws->nr] = fa_worker__new();
		if (!ws->w[ws->nr])
			break;
		ws->nr++;
	}
	if (!ws->nr)
		zfree(&ws);
	return ws;
}

int fa_workers__nr(const struct fa_workers *ws)
{
	return ws ? ws->nr : 0;
}

/* The worker of @t: deterministic, as the accesses' order is */
static int fa_workers__of(struct fa_workers *ws, struct fa_type *t)
{
	int k = 0;

	if (t->worker >= 0 && t->worker < ws->nr)
		return t->worker;
	for (int i = 1; i < ws->nr; i++) {
		if (ws->taken[i] < ws->taken[k])
			k = i;
	}
	t->worker = k;
	return k;
}

/**
 * fa_workers__add - Account an access to a field of @t by its type's worker
 * @ws: The workers, or NULL to account it now
 */
int fa_workers__add(struct fa_workers *ws, struct fa_type *t, const char *sym,
		    const struct fa_sample *s)
{
	int k;

	if (!ws)
		return fa_worker__add(NULL, t, sym, s);
	k = fa_workers__of(ws, t);
	ws->taken[k]++;
	return fa_worker__add(ws->w[k], t, sym, s);
}

/**
 * fa_workers__call - Call @fn with a copy of @arg in the worker @key picks
 * @ws: The workers, or NULL to call it now
 * @key: What orders the calls: calls of one key are made in order
 * @size: Of @arg, at most FA_WORK_CALL_MAX bytes
 *
 * Return: 0, or a negative error of this call or, with workers, of an
 * earlier access or call of that worker.
 */
int fa_workers__call(struct fa_workers *ws, u64 key, int (*fn)(void *arg), void *arg,
		     size_t size)
{
	int k;

	if (size > FA_WORK_CALL_MAX)
		return -EINVAL;
	if (!ws)
		return fn(arg);
	k = key % ws->nr;
	ws->taken[k]++;
	return fa_worker__call(ws->w[k], fn, arg, size);
}

/* Wait until every worker has done what was queued.  Return: the first error. */
int fa_workers__drain(struct fa_workers *ws)
{
	int err = 0;

	for (int i = 0; ws && i < ws->nr; i++) {
		int e = fa_worker__drain(ws->w[i]);

		err = err ?: e;
	}
	return err;
}

/* Drain, stop and free them all; NULL is fine.  Return: the first error. */
int fa_workers__delete(struct fa_workers *ws)
{
	int err = 0;

	if (!ws)
		return 0;
	for (int i = 0; i < ws->nr; i++) {
		int e = fa_worker__delete(ws->w[i]);

		err = err ?: e;
	}
	free(ws);
	return err;
}
