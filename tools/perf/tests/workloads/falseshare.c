/* SPDX-License-Identifier: GPL-2.0 */
/*
 * False sharing workloads for perf affinity and perf c2c:
 *
 * lockshare: a lock word in the cache line of the fields it guards (the c2c
 *   lock/reader example).  One CPU takes and releases the lock in a loop and
 *   counts switches under it; another CPU reads the guarded fields without
 *   the lock, so every lock write steals the line from the reader.
 *
 * refshare: a reference count next to read-mostly fields, laid out like
 *   struct dst_entry was before the __refcnt false sharing fix: the
 *   read-mostly fields fill cache line 0, __refcnt starts line 1 and
 *   lwtstate, read under a reference, shares line 1 with it.  Every CPU takes
 *   a reference, reads the fields and drops the reference.
 *
 * roleshare: the perf c2c talk's program: a lock thread and a reader thread
 *   run one function, whose argument picks the role, on a global struct
 *   whose lock word and lock-protected counter share a cache line with the
 *   fields the reader reads.  The sampled code is the same for both roles:
 *   only the samples tell the writer from the reader.
 *
 *   perf test -w lockshare|refshare|roleshare [<msecs> [addr] [global] [migrate]]
 *
 * 'addr' prints the addresses of the object's fields and of the functions
 * that access it, the ground truth for tests.  'global' uses a static
 * variable (in .bss) instead of an allocated object; lockshare's allocated
 * object is in the global pointer lockshare_cur while the workers run (as
 * a program keeps its singletons).  'migrate' moves the
 * workers between the first two CPUs every few milliseconds, each still
 * on a CPU of its own: every CPU then writes the lock (or the reference
 * count), but one thread does.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/compiler.h>
#include "../tests.h"
#include "pin.h"

#define NR_WORKERS	2

struct lockshare_rq {
	int		lock;
	unsigned int	nr_running;
	unsigned long	clock;
	unsigned long	load_avg;
	unsigned long	util_avg;
	unsigned long	flags;
	unsigned int	cpu;
	int		online;
	char		name[16];
	unsigned long	nr_switches;
};

struct refshare_dst {
	void		*dev;
	void		*ops;
	unsigned long	_metrics;
	unsigned long	expires;
	void		*xfrm;
	int		(*input)(void *skb);
	int		(*output)(void *skb);
	unsigned short	flags;
	short		obsolete;
	unsigned short	header_len;
	unsigned short	trailer_len;
	int		__refcnt;
	int		__use;
	unsigned long	lastuse;
	void		*lwtstate;
	short		error;
	short		__pad;
	unsigned int	tclassid;
};

struct field_addr {
	const char	*name;
	size_t		 offset;
	size_t		 size;
};

#define FIELD(type, f) { #f, offsetof(type, f), sizeof(((type *)0)->f) }

static const struct field_addr lockshare_fields[] = {
	FIELD(struct lockshare_rq, lock),
	FIELD(struct lockshare_rq, nr_running),
	FIELD(struct lockshare_rq, clock),
	FIELD(struct lockshare_rq, load_avg),
	FIELD(struct lockshare_rq, util_avg),
	FIELD(struct lockshare_rq, flags),
	FIELD(struct lockshare_rq, nr_switches),
	{ NULL, 0, 0 },
};

static const struct field_addr refshare_fields[] = {
	FIELD(struct refshare_dst, dev),
	FIELD(struct refshare_dst, ops),
	FIELD(struct refshare_dst, expires),
	FIELD(struct refshare_dst, flags),
	FIELD(struct refshare_dst, obsolete),
	FIELD(struct refshare_dst, header_len),
	FIELD(struct refshare_dst, __refcnt),
	FIELD(struct refshare_dst, __use),
	FIELD(struct refshare_dst, lwtstate),
	{ NULL, 0, 0 },
};

struct roleshare_buf {
	long		lock0;
	long		held;
	long		reader1;
	long		reader2;
};

static int done;
static unsigned long sink;
static struct roleshare_buf roleshare_global __aligned(64);
static struct lockshare_rq lockshare_global __aligned(64);
static struct refshare_dst refshare_global __aligned(64);
static struct lockshare_rq *lockshare_cur;

static bool has_arg(int argc, const char **argv, const char *arg)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], arg))
			return true;
	}
	return false;
}

static noinline void lockshare_switch(struct lockshare_rq *rq)
{
	while (__atomic_exchange_n(&rq->lock, 1, __ATOMIC_ACQUIRE))
		while (READ_ONCE(rq->lock))
			;
	WRITE_ONCE(rq->nr_switches, rq->nr_switches + 1);
	__atomic_store_n(&rq->lock, 0, __ATOMIC_RELEASE);
}

static noinline unsigned long lockshare_read(const struct lockshare_rq *rq)
{
	unsigned long v;

	v = READ_ONCE(rq->nr_running) + READ_ONCE(rq->clock);
	v += READ_ONCE(rq->load_avg) + READ_ONCE(rq->util_avg);
	return v + READ_ONCE(rq->flags);
}

/*
 * The struct pointers are typed parameters of the functions above: gcc gives
 * a 'struct x *p = arg;' local no DWARF location when p is just arg, and then
 * no tool can tell which type the accesses are to.
 */
static noinline void *lockshare_writer(void *arg)
{
	while (!READ_ONCE(done))
		lockshare_switch(arg);
	return NULL;
}

static noinline void *lockshare_reader(void *arg)
{
	unsigned long sum = 0;

	while (!READ_ONCE(done))
		sum += lockshare_read(arg);
	WRITE_ONCE(sink, sum);
	return NULL;
}

static noinline unsigned long refshare_use(struct refshare_dst *dst)
{
	unsigned long v;

	__atomic_fetch_add(&dst->__refcnt, 1, __ATOMIC_ACQUIRE);
	v = (unsigned long)READ_ONCE(dst->dev) + (unsigned long)READ_ONCE(dst->ops);
	v += READ_ONCE(dst->expires) + READ_ONCE(dst->flags) + READ_ONCE(dst->header_len);
	v += READ_ONCE(dst->obsolete) + (unsigned long)READ_ONCE(dst->lwtstate);
	WRITE_ONCE(dst->__use, dst->__use + 1);
	__atomic_fetch_sub(&dst->__refcnt, 1, __ATOMIC_RELEASE);
	return v;
}

static noinline void *refshare_worker(void *arg)
{
	unsigned long sum = 0;

	while (!READ_ONCE(done))
		sum += refshare_use(arg);
	WRITE_ONCE(sink, sum);
	return NULL;
}

/* The @idx-th CPU this process may run on (modulo their number), or -1 */
/* One function, both roles: the lock taker's or the reader's */
static noinline unsigned long roleshare_loop(struct roleshare_buf *buf, bool locker)
{
	unsigned long sum = 0;

	while (!READ_ONCE(done)) {
		if (locker) {
			while (__atomic_exchange_n(&buf->lock0, 1, __ATOMIC_ACQUIRE))
				;
			WRITE_ONCE(buf->held, buf->held + 1);
			__atomic_store_n(&buf->lock0, 0, __ATOMIC_RELEASE);
		} else {
			sum += READ_ONCE(buf->reader1) + READ_ONCE(buf->reader2);
		}
	}
	return sum;
}

static noinline void *roleshare_locker(void *arg)
{
	WRITE_ONCE(sink, roleshare_loop(arg, true));
	return NULL;
}

static noinline void *roleshare_reader(void *arg)
{
	WRITE_ONCE(sink, roleshare_loop(arg, false));
	return NULL;
}

/* 'migrate': swap the workers' CPUs every 5 ms until @msecs have passed */
static void workers__migrate(pthread_t *th, int n, int msecs)
{
	struct timespec ts = { .tv_nsec = 5000000L, };

	for (int round = 0; round < msecs / 5; round++) {
		for (int i = 0; i < n; i++) {
			workload__pin(th[i], i + round);
		}
		nanosleep(&ts, NULL);
	}
}

struct func_addr {
	const char	*name;
	void		*addr;
};

static void print_fields(const char *type, void *obj, size_t size,
			 const struct field_addr *f, const struct func_addr *fn)
{
	printf("%s %p %zu\n", type, obj, size);
	for (; f->name; f++)
		printf("field %s %p %zu %zu\n", f->name, (char *)obj + f->offset,
		       f->offset, f->size);
	for (; fn->name; fn++)
		printf("func %s %p\n", fn->name, fn->addr);
	fflush(stdout);
}

static int run_workers(int argc, const char **argv, void *(*fn[NR_WORKERS])(void *),
		       void *obj)
{
	struct timespec ts;
	pthread_t th[NR_WORKERS];
	int msecs = argc > 0 ? atoi(argv[0]) : 1000;
	bool migrate = has_arg(argc, argv, "migrate");
	int i, n = 0;

	if (msecs <= 0) {
		fprintf(stderr, "usage: perf test -w <workload> [<msecs> [addr]]\n");
		return -1;
	}
	for (i = 0; i < NR_WORKERS; i++) {
		/* each on a CPU of its own, so that the cache lines really move */
		if (pthread_create(&th[n], NULL, fn[i], obj) == 0)
			workload__pin(th[n++], i);
	}
	ts.tv_sec = msecs / 1000;
	ts.tv_nsec = (msecs % 1000) * 1000000L;
	if (migrate)
		workers__migrate(th, n, msecs);
	else
		nanosleep(&ts, NULL);
	WRITE_ONCE(done, 1);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return n == NR_WORKERS ? 0 : -1;
}

/*
 * An object at the start of a cache line.  C11's aligned_alloc() takes a
 * size that is a multiple of the alignment: the sanitizers' returns NULL
 * for any other.
 */
static void *line_alloc(size_t size)
{
	return aligned_alloc(64, (size + 63) & ~(size_t)63);
}

static int lockshare(int argc, const char **argv)
{
	void *(*fn[NR_WORKERS])(void *) = { lockshare_writer, lockshare_reader };
	bool global = has_arg(argc, argv, "global");
	struct lockshare_rq *rq = global ? &lockshare_global : line_alloc(sizeof(*rq));
	int err;

	if (!rq)
		return -1;
	memset(rq, 0, sizeof(*rq));
	rq->nr_running = 2;
	rq->online = 1;
	if (has_arg(argc, argv, "addr")) {
		const struct func_addr funcs[] = {
			{ "lockshare_switch", lockshare_switch },
			{ "lockshare_read", lockshare_read },
			{ NULL, NULL },
		};

		print_fields("lockshare_rq", rq, sizeof(*rq), lockshare_fields, funcs);
	}
	WRITE_ONCE(lockshare_cur, rq);
	err = run_workers(argc, argv, fn, rq);
	WRITE_ONCE(lockshare_cur, NULL);
	if (!global)
		free(rq);
	return err;
}

static int refshare(int argc, const char **argv)
{
	void *(*fn[NR_WORKERS])(void *) = { refshare_worker, refshare_worker };
	bool global = has_arg(argc, argv, "global");
	struct refshare_dst *dst = global ? &refshare_global : line_alloc(sizeof(*dst));
	int err;

	if (!dst)
		return -1;
	memset(dst, 0, sizeof(*dst));
	dst->dev = dst;
	dst->header_len = 14;
	if (has_arg(argc, argv, "addr")) {
		const struct func_addr funcs[] = {
			{ "refshare_use", refshare_use },
			{ NULL, NULL },
		};

		print_fields("refshare_dst", dst, sizeof(*dst), refshare_fields, funcs);
	}
	err = run_workers(argc, argv, fn, dst);
	if (!global)
		free(dst);
	return err;
}

static int roleshare(int argc, const char **argv)
{
	void *(*fn[NR_WORKERS])(void *) = { roleshare_locker, roleshare_reader };

	if (has_arg(argc, argv, "addr"))
		printf("roleshare_buf %p %zu\n", (void *)&roleshare_global,
		       sizeof(roleshare_global));
	return run_workers(argc, argv, fn, &roleshare_global);
}

DEFINE_WORKLOAD(lockshare);
DEFINE_WORKLOAD(refshare);
DEFINE_WORKLOAD(roleshare);
