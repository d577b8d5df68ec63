// SPDX-License-Identifier: GPL-2.0
/*
 * The accumulation of the accesses to a struct type on planted patterns:
 * co-access within the windows of a scope, HITMs as perf c2c counts them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include "affinity-planted.h"
#include "affinity/advice/lines.h"
#include "affinity/decode/key.h"
#include "affinity/accumulate/type-int.h"
#include "affinity/accumulate/worker.h"
#include "hashmap.h"
#include "debug.h"
#include "tests.h"

static int test__affinity_planted_pairs(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct fa_config cfg = test_config;
	struct fa_type *t;
	struct fa_cell *cells;
	u64 time = 0;
	int n;

	/* accesses within 10 ns are together; bursts are 1000 ns apart */
	cfg.window_ns = 10;
	t = longs_type__new_cfg(16, &cfg);
	T("type", t);
	/* f3 and f11 always together, f5 and f6 too; random pairs as noise */
	srand(1);
	for (int round = 0; round < 500; round++) {
		planted_access(t, time, 0, 3, FA_OP_LOAD);
		planted_access(t, time + 1, 0, 11, FA_OP_LOAD);
		planted_access(t, time + 1000, 0, 5, FA_OP_LOAD);
		planted_access(t, time + 1001, 0, 6, FA_OP_LOAD);
		planted_access(t, time + 2000, 0, rand() % 16, FA_OP_LOAD);
		planted_access(t, time + 2001, 0, rand() % 16, FA_OP_LOAD);
		planted_access(t, time + 2002, 0, rand() % 16, FA_OP_LOAD);
		time += 3000;
	}
	n = fa_matrix__cells(&t->win.co, &cells);
	T("cells", n >= 2);
	pr_debug("top pairs: f%u-f%u %.0f, f%u-f%u %.0f, f%u-f%u %.0f\n", cells[0].i, cells[0].j,
		 cells[0].w, cells[1].i, cells[1].j, cells[1].w, cells[2].i, cells[2].j,
		 cells[2].w);
	T("the two planted pairs on top",
	  ((cells[0].i == 3 && cells[0].j == 11) || (cells[0].i == 5 && cells[0].j == 6)) &&
	  ((cells[1].i == 3 && cells[1].j == 11) || (cells[1].i == 5 && cells[1].j == 6)));
	T("clearly", cells[1].w > 2 * cells[2].w);
	free(cells);
	planted_type__delete(t);
	return TEST_OK;
}

/* The fields before an access in its window pair with it once each, past field 63 too */
static int test__affinity_window_once(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	static const int fields[] = { 64, 63, 64, 63, 70, };
	struct fa_config cfg = test_config;
	struct fa_type *t;

	cfg.window = 8;
	t = longs_type__new_cfg(80, &cfg);
	T("type", t);
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		T("access", !planted_access(t, i + 1, 0, fields[i], FA_OP_LOAD));
	pr_debug("co(63, 64) %.0f, co(63, 70) %.0f, co(64, 70) %.0f, total %.0f\n",
		 fa_matrix__get(&t->win.co, 63, 64), fa_matrix__get(&t->win.co, 63, 70),
		 fa_matrix__get(&t->win.co, 64, 70), t->win.co.total);
	T("63 and 64 paired by each of the later three",
	  fa_matrix__get(&t->win.co, 63, 64) == 3);
	T("70 with each once", fa_matrix__get(&t->win.co, 63, 70) == 1 &&
	  fa_matrix__get(&t->win.co, 64, 70) == 1);
	T("nothing else", t->win.co.total == 5);
	planted_type__delete(t);
	return TEST_OK;
}

static int test__affinity_window_scope(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_config cfg = test_config;
	struct fa_struct *st = longs__new(4);

	T("struct", st);
	for (int scope = FA_SCOPE_CPU; scope <= FA_SCOPE_INSTANCE; scope += 2) {
		struct fa_type *t;
		u64 time = 0;

		cfg.scope = scope;
		t = fa_type__new(st, &cfg);
		T("type", t);
		/* f0 on CPU 0 and f1 on CPU 1, interleaved in time */
		for (int i = 0; i < 100; i++) {
			planted_access(t, time++, 0, 0, FA_OP_LOAD);
			planted_access(t, time++, 1, 1, FA_OP_LOAD);
		}
		pr_debug("scope %d: co(f0, f1) = %.0f\n", scope, fa_matrix__get(&t->win.co, 0, 1));
		if (scope == FA_SCOPE_CPU)
			T("per CPU windows never pair CPUs", fa_matrix__get(&t->win.co, 0, 1) == 0);
		else
			T("per instance windows do", fa_matrix__get(&t->win.co, 0, 1) > 0);
		fa_type__delete(t);
	}
	fa_struct__delete(st);
	return TEST_OK;
}

#define DSRC(op, lvl, snoop) (PERF_MEM_S(OP, op) | PERF_MEM_S(LVL, lvl) | \
			      PERF_MEM_S(SNOOP, snoop))

/*
 * HITMs as perf c2c counts them: loads that hit a modified line in the LLC
 * or in a remote cache, or on POWER remote without hops; not a HITM snoop
 * of a store, nor of a load served by L2.
 */
static int test__affinity_hitm(struct test_suite *test __maybe_unused,
			       int subtest __maybe_unused)
{
	union perf_mem_data_src power = { .val = DSRC(LOAD, HIT, HITM), };
	const u64 dsrc[] = {
		DSRC(LOAD, HIT | PERF_MEM_LVL_L3, HITM),	/* local HITM */
		DSRC(LOAD, HIT | PERF_MEM_LVL_REM_CCE1, HITM),	/* remote HITM */
		DSRC(LOAD, HIT | PERF_MEM_LVL_L2, HITM),	/* no c2c HITM */
		DSRC(STORE, HIT | PERF_MEM_LVL_L1, HITM),	/* a store: none */
		DSRC(LOAD, HIT | PERF_MEM_LVL_L3, HIT),		/* clean */
		0,						/* power, below */
	};
	struct fa_type *t = longs_type__new(4);

	power.mem_remote = 1;
	power.mem_hops = 0;
	T("type", t);
	for (size_t i = 0; i < ARRAY_SIZE(dsrc); i++) {
		struct fa_sample s = {
			.time = i, .instance = BASE, .base = BASE, .weight = 1,
			.cpu = i % 2, .owner = i % 2,
			.tid = 100 + i % 2, .field = 0,
			.op = dsrc[i] & PERF_MEM_S(OP, STORE) ? FA_OP_STORE : FA_OP_LOAD,
			.data_src = dsrc[i] ?: power.val,
		};

		T("add", !fa_type__add(t, &s));
	}
	pr_debug("HITM: field %" PRIu64 ", type %" PRIu64 "\n", t->counts.stats[0].hitm,
		 t->counts.hitm);
	T("local, remote and POWER's remote HITMs",
	  t->counts.stats[0].hitm == 3 && t->counts.hitm == 3);
	planted_type__delete(t);
	return TEST_OK;
}

/*
 * A write on CPU 0, then accesses on CPU 1: to the field written (true
 * sharing), to another on its line (false sharing), to one on the next
 * line.  No transfer: the writer's own access, a second access by CPU 1 to
 * a field already paired with that write, an access too long after it.
 */
static int test__affinity_transfers(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(16);
	const struct fa_field_stats *f0, *f9;
	const struct fa_matrix *pairs;
	struct fa_interval ci;

	T("type", t);
	pairs = &t->xfer.pairs;
	T("write", !planted_access(t, 1, 0, 0, FA_OP_STORE));
	T("true sharing", !planted_access(t, 2, 1, 0, FA_OP_LOAD));
	T("false sharing", !planted_access(t, 3, 1, 1, FA_OP_LOAD));
	T("again", !planted_access(t, 4, 1, 1, FA_OP_LOAD));
	T("the next line", !planted_access(t, 5, 1, 9, FA_OP_LOAD));
	T("the writer", !planted_access(t, 6, 0, 2, FA_OP_LOAD));
	T("too late", !planted_access(t, 7 + test_config.xfer_ns, 1, 3, FA_OP_LOAD));
	fa_type__flush(t);
	pr_debug("transfers %.0f: f0 %.0f, f1 %.0f, f9 %.0f; falsely shared %.0f\n",
		 pairs->total, fa_matrix__get(pairs, 0, 0), fa_matrix__get(pairs, 0, 1),
		 fa_matrix__get(pairs, 0, 9), t->xfer.fs.total);
	T("three transfers", pairs->total == 3 && fa_matrix__get(pairs, 0, 0) == 1 &&
	  fa_matrix__get(pairs, 0, 1) == 1 && fa_matrix__get(pairs, 0, 9) == 1);
	T("one on one line", t->xfer.fs.total == 1 && fa_matrix__get(&t->xfer.fs, 0, 1) == 1);
	T("all from f0 to f1", fa_type__fs_share(t, 0, 1, &ci) == 100);
	T("one aligned instance", t->xfer.nr_instances == 1 && !t->xfer.misaligned);
	f0 = &t->counts.stats[0];
	f9 = &t->counts.stats[9];
	T("f0 written by one CPU, read by another",
	  f0->inst_seen == 1 && f0->inst_shared == 1 && !f0->inst_writers);
	T("f9 read by one", f9->inst_seen == 1 && !f9->inst_shared);
	planted_type__delete(t);
	return TEST_OK;
}

/*
 * One instance, field 0 written by CPU 0 then, once CPU 0 is done with the
 * instance, by CPU 1 (a queue's consumer thread ends, another starts on
 * the same stack address); CPU 2 reads it all along: shared, but not
 * written by several at once.  Then CPU 0 writes it again while CPU 1
 * still does: written by several.
 */
static int test__affinity_handover(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(16);
	const struct fa_field_stats *f0;

	T("type", t);
	for (u64 i = 0; i < 10; i++) {
		T("the first writer", !planted_access(t, 10 + i, 0, 0, FA_OP_STORE));
		T("the reader", !planted_access(t, 11 + i, 2, 0, FA_OP_LOAD));
	}
	for (u64 i = 0; i < 10; i++) {
		T("the second writer", !planted_access(t, 100 + i, 1, 0, FA_OP_STORE));
		T("the reader", !planted_access(t, 101 + i, 2, 0, FA_OP_LOAD));
	}
	fa_type__flush(t);
	f0 = &t->counts.stats[0];
	pr_debug("handed over: seen %" PRIu64 ", shared %" PRIu64 ", writers %" PRIu64 "\n",
		 f0->inst_seen, f0->inst_shared, f0->inst_writers);
	T("shared with the reader", f0->inst_seen == 1 && f0->inst_shared == 1);
	T("not written by two at once", !f0->inst_writers);
	T("the first writer again", !planted_access(t, 120, 0, 0, FA_OP_STORE));
	T("the second", !planted_access(t, 121, 1, 0, FA_OP_STORE));
	fa_type__flush(t);
	T("written by two at once", f0->inst_writers == 1);
	planted_type__delete(t);
	return TEST_OK;
}

static int coded_access(struct fa_type *t, u64 time, u32 owner, u32 func, u8 op)
{
	struct fa_sample s = {
		.time = time, .instance = BASE, .base = BASE, .weight = 1, .cpu = owner,
		.owner = owner, .tid = 100 + owner, .field = 0, .op = op, .func = func,
	};

	return fa_type__add(t, &s);
}

/*
 * Function 5 stores field 0 (of another instance: one function producer
 * of one queue and consumer of another).  Here CPU 0 stores it, CPU 1 only
 * loads it in function 5.  With few sampled stores the code says CPU 1
 * writes it too; with FA_STORES_SAMPLED of them, the samples say who does.
 */
static int test__affinity_sampled_writers(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	for (int nr = 4; nr <= 64; nr += 60) {
		struct fa_type *t = longs_type__new(16);
		const struct fa_field_stats *f0;

		T("type", t);
		T("function 5 stores field 0", !fa_type__add_code_store(t, 5, 0));
		for (int i = 0; i < nr; i++) {
			T("the writer", !coded_access(t, 10 + 2 * i, 0, 4, FA_OP_STORE));
			T("the reader", !coded_access(t, 11 + 2 * i, 1, 5, FA_OP_LOAD));
		}
		fa_type__flush(t);
		f0 = &t->counts.stats[0];
		pr_debug("%d stores: shared %" PRIu64 ", writers %" PRIu64 "\n", nr,
			 f0->inst_shared, f0->inst_writers);
		T("shared", f0->inst_shared == 1);
		T("few stores: the code's writers; many: the samples'",
		  f0->inst_writers == (nr < 64));
		planted_type__delete(t);
	}
	return TEST_OK;
}

/* An access of the stream both types get: instances come and go */
static struct fa_sample worker__sample(u32 k)
{
	u64 base = BASE + (u64)(k * 7919 % 80000) * 256;

	return (struct fa_sample){
		.time = 1000 + 20ULL * k, .instance = base, .base = base + (k % 3 ? 0 : 8),
		.weight = 1 + k % 5, .cpu = k % 4, .owner = k % 4, .tid = 100 + k % 4,
		.field = k * 31 % 16, .op = k % 7 ? FA_OP_LOAD : FA_OP_STORE,
	};
}

static bool matrices__same(const struct fa_matrix *a, const struct fa_matrix *b)
{
	struct fa_cell *ca = NULL, *cb = NULL;
	int na = fa_matrix__cells(a, &ca), nb = fa_matrix__cells(b, &cb);
	bool same = na >= 0 && na == nb && !memcmp(ca, cb, na * sizeof(*ca)) &&
		    a->total == b->total;

	free(ca);
	free(cb);
	return same;
}

static bool sites__same(const struct fa_type *a, const struct fa_type *b, int field)
{
	struct fa_site *sa = NULL, *sb = NULL;
	int na = fa_type__sites(a, field, &sa), nb = fa_type__sites(b, field, &sb);
	bool same = na > 0 && na == nb;

	for (int i = 0; same && i < na; i++) {
		same = !strcmp(sa[i].sym, sb[i].sym) && sa[i].loads == sb[i].loads &&
		       sa[i].stores == sb[i].stores;
	}
	free(sa);
	free(sb);
	return same;
}

static bool types__same(const struct fa_type *a, const struct fa_type *b)
{
	const struct fa_replay *ra = &a->replay, *rb = &b->replay;

	for (int f = 0; f < a->st->nr_fields; f++) {
		const struct fa_field_stats *fa = &a->counts.stats[f], *fb = &b->counts.stats[f];

		if (fa->loads != fb->loads || fa->stores != fb->stores || fa->weight != fb->weight ||
		    !sites__same(a, b, f))
			return false;
	}
	return a->counts.nr_accesses == b->counts.nr_accesses &&
	       matrices__same(&a->win.co, &b->win.co) && a->win.nr == b->win.nr &&
	       matrices__same(&a->xfer.pairs, &b->xfer.pairs) &&
	       matrices__same(&a->xfer.fs, &b->xfer.fs) &&
	       a->xfer.nr_instances == b->xfer.nr_instances &&
	       a->xfer.misaligned == b->xfer.misaligned &&
	       a->xfer.nr_retired == b->xfer.nr_retired &&
	       a->xfer.nr_inst_fields == b->xfer.nr_inst_fields &&
	       hashmap__size(a->sets.windows) == hashmap__size(b->sets.windows) &&
	       hashmap__size(a->sets.moves) == hashmap__size(b->sets.moves) &&
	       ra->nr == rb->nr && ra->nr_bases == rb->nr_bases &&
	       !memcmp(ra->events, rb->events, min(ra->nr, ra->max) * sizeof(*ra->events));
}

static int test__affinity_worker(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	static const char * const syms[] = { "rq_lock", "update_curr", "pick_next" };
	struct fa_type *queued = longs_type__new(16), *now = longs_type__new(16);
	struct fa_worker *w = fa_worker__new();
	struct fa_sample bad;

	T("types", queued && now);
	T("a worker", w);
	/* 80,000 instances, each accessed every 1.6 ms, forgotten after 1 ms */
	for (u32 k = 0; k < 400000; k++) {
		struct fa_sample s = worker__sample(k);
		const char *sym = syms[k % ARRAY_SIZE(syms)];

		T("queued", !fa_worker__add(w, queued, sym, &s));
		T("accumulated", !fa_worker__add(NULL, now, sym, &s));
	}
	bad = worker__sample(1);
	bad.field = 16;
	T("a field past the struct: now", fa_worker__add(w, queued, NULL, &bad) == -EINVAL);
	T("all done", !fa_worker__drain(w));
	T("instances were forgotten", now->xfer.nr_retired > 0);
	T("instances counted again when seen again", now->xfer.nr_instances > 80000);
	T("the same as without the worker", types__same(queued, now));
	for (u32 k = 400000; k < 401000; k++) {
		struct fa_sample s = worker__sample(k);

		T("queued after a drain", !fa_worker__add(w, queued, NULL, &s));
		T("accumulated", !fa_worker__add(NULL, now, NULL, &s));
	}
	T("stopped", !fa_worker__delete(w));
	T("the same still", types__same(queued, now));
	T("no worker to stop", !fa_worker__delete(NULL));
	planted_type__delete(queued);
	planted_type__delete(now);
	return TEST_OK;
}

/*
 * Four types over three workers: each stays with the least loaded worker
 * when its first access came, and accumulates as it would in line
 */
static int test__affinity_workers(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	struct fa_type *sharded[4], *now[4];
	struct fa_workers *ws = fa_workers__new(3);
	int err = 0;

	T("three workers", ws && fa_workers__nr(ws) == 3);
	for (int i = 0; i < 4; i++) {
		sharded[i] = longs_type__new(16);
		now[i] = longs_type__new(16);
		T("types", sharded[i] && now[i] && sharded[i]->worker == -1);
	}
	/* type 0 first and most: its worker takes the most */
	for (u32 k = 0; !err && k < 200000; k++) {
		struct fa_sample s = worker__sample(k);
		int i = k < 100 ? 0 : k % 5 ? (int)(k % 5) % 4 : 0;

		err = fa_workers__add(ws, sharded[i], "f", &s) ?: fa_workers__add(NULL, now[i], "f", &s);
	}
	T("accumulated", !err);
	T("type 0 to worker 0, the next types to the others", sharded[0]->worker == 0 &&
	  sharded[1]->worker != 0 && sharded[2]->worker != 0 &&
	  sharded[1]->worker != sharded[2]->worker);
	T("the least loaded then: not type 0's", sharded[3]->worker != 0);
	T("stopped", !fa_workers__delete(ws));
	for (int i = 0; i < 4; i++) {
		T("the same as in line", types__same(sharded[i], now[i]));
		planted_type__delete(sharded[i]);
		planted_type__delete(now[i]);
	}
	T("none to stop", !fa_workers__delete(NULL));
	return TEST_OK;
}

/* What the calls of one key did, in the order they ran */
struct call_log {
	u32	seq[3000];
	u32	nr;
};

struct call_arg {
	struct call_log	*log;
	u32		 seq;
	int		 ret;
};

static int call_log__add(void *arg)
{
	struct call_arg *c = arg;

	c->log->seq[c->log->nr++] = c->seq;
	return c->ret;
}

/*
 * Calls (the data lines' work) go with the accesses to the workers: the
 * calls of a key run in one worker, in order, on a copy of their argument
 * (the caller's is gone by then); an error of one comes back later
 */
static int test__affinity_worker_calls(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	static struct call_log logs[3], now;
	struct fa_workers *ws = fa_workers__new(3);
	struct fa_type *t = longs_type__new(16);
	u8 big[FA_WORK_CALL_MAX + 1] = { 0 };
	int err = 0;

	T("workers and a type", ws && t);
	for (u32 k = 0; !err && k < 9000; k++) {
		struct fa_sample s = worker__sample(k);
		struct call_arg c = { .log = &logs[k % 3], .seq = k, };

		err = fa_workers__add(ws, t, NULL, &s) ?:
		      fa_workers__call(ws, k % 3, call_log__add, &c, sizeof(c));
		/* the caller's argument changes at once: the worker has a copy */
		c.seq = ~0U;
	}
	T("queued", !err);
	T("drained", !fa_workers__drain(ws));
	for (int i = 0; i < 3; i++) {
		T("every call of the key", logs[i].nr == 3000);
		for (u32 j = 0; j < logs[i].nr; j++)
			T("in order, with its argument", logs[i].seq[j] == j * 3 + i);
	}
	T("too large an argument", fa_workers__call(ws, 0, call_log__add, big, sizeof(big)) ==
	  -EINVAL);
	{
		struct call_arg c = { .log = &now, .seq = 7, .ret = -ENOSPC, };

		T("an error: later", !fa_workers__call(ws, 1, call_log__add, &c, sizeof(c)));
		T("by the drain", fa_workers__drain(ws) == -ENOSPC);
		T("without workers: at once", fa_workers__call(NULL, 1, call_log__add, &c,
							       sizeof(c)) == -ENOSPC &&
		  now.nr == 2 && now.seq[1] == 7);
	}
	fa_workers__delete(ws);
	planted_type__delete(t);
	return TEST_OK;
}

static int test__affinity_sweep(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(4);

	T("type", t);
	/* 70,000 instances, each accessed every 0.7 ms: all live (1 ms) */
	for (u32 k = 0; k < 300000; k++) {
		u64 base = BASE + (u64)(k % 70000) * 64;
		struct fa_sample s = {
			.time = 10ULL * k, .instance = base, .base = base, .weight = 1,
			.field = k % 4, .op = FA_OP_LOAD,
		};

		T("add", !fa_type__add(t, &s));
	}
	pr_debug("%" PRIu64 " sweeps, %zu instances\n", t->xfer.nr_sweeps,
		 fa_keymap__size(&t->xfer.insts));
	T("one sweep, not one per access", t->xfer.nr_sweeps == 1);
	T("none forgotten", fa_keymap__size(&t->xfer.insts) == 70000 && !t->xfer.nr_retired);
	planted_type__delete(t);
	return TEST_OK;
}

/*
 * The replay sample: every access while below its bound, then whole
 * chunks of consecutive accesses, never more than the bound
 */
static int test__affinity_replay(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	struct fa_config cfg = test_config;
	const struct fa_replay *r;
	struct fa_type *t;
	u64 n = 20 * FA_REPLAY_CHUNK;

	cfg.replay_max = 2 * FA_REPLAY_CHUNK;
	t = longs_type__new_cfg(4, &cfg);
	T("type", t);
	r = &t->replay;
	for (u64 time = 0; time < n; time++) {
		T("access", !planted_access(t, time, time % 2, time % 4, FA_OP_LOAD));
		if (time == 99)
			T("all kept below the bound", r->nr == 100 && r->events[99].time == 99);
	}
	T("all seen, the bound kept", r->nr == n && r->alloc == r->max);
	for (size_t c = 0; c < r->max / r->chunk; c++) {
		const struct fa_event *e = &r->events[c * r->chunk];
		bool consecutive = e[0].time % r->chunk == 0;

		for (size_t k = 1; k < r->chunk; k++)
			consecutive &= e[k].time == e[0].time + k;
		T("whole chunks of consecutive accesses", consecutive);
	}
	T("one instance", r->nr_bases == 1 && r->bases[0] == BASE);
	planted_type__delete(t);
	return TEST_OK;
}

/* An access by @cpu to @field of the instance at @base */
static int lines__access(struct fa_type *t, u64 *time, u32 cpu, u64 base, int field, u8 op)
{
	struct fa_sample s = {
		.time = (*time)++, .instance = base, .base = base, .weight = 1, .cpu = cpu,
		.owner = cpu, .tid = 100 + cpu, .field = field, .op = op,
	};

	return fa_type__add(t, &s);
}

/*
 * The lines of several instances of a 16-byte struct: listed when two
 * owners access two instances there and one writes, not for one owner,
 * one instance or no writer
 */
static int test__affinity_shared_lines(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(2);
	struct fa_shared_line *sl = NULL;
	u64 time = 1;
	int err = 0, n;

	T("type", t);
	for (int i = 0; i < 10 && !err; i++) {
		/* A and B share a line: A written on CPU 0, B read on CPU 1 */
		err = lines__access(t, &time, 0, BASE, 0, FA_OP_STORE) ?:
		      lines__access(t, &time, 1, BASE + 16, 1, FA_OP_LOAD) ?:
		      /* C: one owner; D: one instance; E and F: no writer */
		      lines__access(t, &time, 0, BASE + 64, 1, FA_OP_STORE) ?:
		      lines__access(t, &time, 0, BASE + 80, 0, FA_OP_LOAD) ?:
		      lines__access(t, &time, 1, BASE + 4096, 0, FA_OP_STORE) ?:
		      lines__access(t, &time, 0, BASE + 4096, 1, FA_OP_LOAD) ?:
		      lines__access(t, &time, 0, BASE + 128, 0, FA_OP_LOAD) ?:
		      lines__access(t, &time, 1, BASE + 144, 1, FA_OP_LOAD);
	}
	T("accesses", !err);
	n = fa_shared_lines__find(t, &sl);
	pr_debug("%d shared lines, the first at %#" PRIx64 ": %d instances, %d owners, %" PRIu64
		 " loads, %" PRIu64 " writes\n", n, n > 0 ? sl[0].addr : 0,
		 n > 0 ? sl[0].nr_insts : 0, n > 0 ? sl[0].nr_owners : 0, n > 0 ? sl[0].loads : 0,
		 n > 0 ? sl[0].writes : 0);
	T("the line of A and B only", n == 1 && sl[0].addr == BASE);
	T("its instances, owners and accesses", sl[0].nr_insts == 2 && sl[0].nr_owners == 2 &&
	  sl[0].writes == 10 && sl[0].loads == 10);
	T("A and B, by their array index", sl[0].base[0] == BASE && sl[0].base[1] == BASE + 16 &&
	  sl[0].index[0] == 0 && sl[0].index[1] == 1);
	T("the fields each accessed there", sl[0].fields[0] == 1 && sl[0].fields[1] == 2);
	free(sl);
	planted_type__delete(t);
	return TEST_OK;
}

/*
 * What the sampled code accesses: the functions that store to a field,
 * each function's sites and fields, and the pairs of a function's fields
 */
static int test__affinity_sampled_code(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	static const char reader[] = "reader", writer[] = "writer";
	static const int visit[] = { 0, 1, 1, };
	struct fa_type *t = longs_type__new(4);
	struct fa_site *sites = NULL;
	int fields[4], n, err = 0;
	bool stored[4];

	T("type", t);
	T("stores", !fa_type__add_code_store(t, 7, 1) && !fa_type__add_code_store(t, 3, 0));
	for (int i = 0; i < 3 && !err; i++)
		err = fa_type__add_site(t, 0, reader, FA_OP_LOAD);
	err = err ?: fa_type__add_site(t, 1, reader, FA_OP_LOAD) ?:
	      fa_type__add_site(t, 1, writer, FA_OP_STORE) ?:
	      fa_type__add_site(t, 1, writer, FA_OP_STORE) ?:
	      fa_type__add_code_fields(t, visit, ARRAY_SIZE(visit), 2);
	T("sites", !err);
	fa_type__flush(t);
	T("function 7 stores to field 1, not to 0", fa_type__code_stores(t, 7, 1) &&
	  !fa_type__code_stores(t, 7, 0) && fa_type__code_stores(t, 3, 0));
	T("no function (0) stores", !fa_type__code_stores(t, 0, 1));
	n = fa_type__sites(t, 1, &sites);
	T("field 1's sites, most accesses first", n == 2 && sites[0].sym == writer &&
	  sites[0].stores == 2 && sites[1].sym == reader && sites[1].loads == 1);
	free(sites);
	n = fa_type__sampled_fields(t, reader, fields, stored, ARRAY_SIZE(fields));
	T("the reader's fields, not stored", n == 2 && fields[0] + fields[1] == 1 &&
	  !stored[0] && !stored[1]);
	n = fa_type__sampled_fields(t, writer, fields, stored, ARRAY_SIZE(fields));
	T("the writer's field, stored", n == 1 && fields[0] == 1 && stored[0]);
	T("a visit's pairs, each distinct pair of its fields",
	  fa_matrix__get(&t->code.co, 0, 1) == 4 && t->code.co.total == 4);
	planted_type__delete(t);
	return TEST_OK;
}

/* The windows and the moves record the units they touched, each set once */
static int test__affinity_cost_sets(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(4);
	struct hashmap_entry *cur;
	struct fa_set *set;
	size_t bkt;

	T("a type", t);
	/* CPU 0 writes f0, CPU 1 reads f1 just after: 100 times, in one instance */
	for (u64 i = 0; i < 100; i++) {
		T("store", !planted_access(t, 1000 + 10 * i, 0, 0, FA_OP_STORE));
		T("load", !planted_access(t, 1001 + 10 * i, 1, 1, FA_OP_LOAD));
	}
	fa_type__flush(t);
	/* windows of 4 accesses per CPU: 25 of f0 alone, 25 of f1 alone */
	T("windows ended", t->win.nr == 50);
	T("two window sets", hashmap__size(t->sets.windows) == 2);
	hashmap__for_each_entry(t->sets.windows, cur, bkt) {
		set = cur->pvalue;
		T("a window set of one unit, 25 times", set->nr == 1 && !set->nr_w &&
		  set->count == 25);
	}
	/*
	 * every load of f1 follows a write of f0 by the other CPU; no store
	 * follows one: counted as an access after nothing written, to tell
	 * the share of the accesses that moved their line
	 */
	T("two move sets", hashmap__size(t->sets.moves) == 2);
	hashmap__for_each_entry(t->sets.moves, cur, bkt) {
		set = cur->pvalue;
		if (set->units[0] == 1)
			T("f1 after f0 written, 100 times", set->nr == 1 && set->nr_w == 1 &&
			  set->units[1] == 0 && set->count == 100);
		else
			T("f0 after nothing written, 100 times", set->nr == 1 && !set->nr_w &&
			  set->units[0] == 0 && set->count == 100);
	}
	T("nothing dropped", !t->sets.dropped);
	planted_type__delete(t);
	return TEST_OK;
}

static struct test_case tests__affinity_type[] = {
	TEST_CASE("Planted co-access pairs come out on top", affinity_planted_pairs),
	TEST_CASE("Per CPU windows never pair accesses of two CPUs", affinity_window_scope),
	TEST_CASE("A window pairs each field before an access once", affinity_window_once),
	TEST_CASE("HITMs are counted as perf c2c counts them", affinity_hitm),
	TEST_CASE("Writes are transfers to other owners, false sharing on one line",
		  affinity_transfers),
	TEST_CASE("A field handed over between writers is not written by several",
		  affinity_handover),
	TEST_CASE("Sampled stores, when there are enough, say who writes an instance",
		  affinity_sampled_writers),
	TEST_CASE("Windows and moves record the sets of units they touched",
		  affinity_cost_sets),
	TEST_CASE("The replay sample keeps whole chunks within its bound", affinity_replay),
	TEST_CASE("What the sampled code accesses is kept per function", affinity_sampled_code),
	TEST_CASE("A worker thread accumulates what the main thread would", affinity_worker),
	TEST_CASE("Calls run in a worker in order, on a copy of their argument",
		  affinity_worker_calls),
	TEST_CASE("Types sharded over worker threads accumulate as in line", affinity_workers),
	TEST_CASE("Live instances are not swept at every access", affinity_sweep),
	TEST_CASE("The lines of several instances, two owners and a writer are found",
		  affinity_shared_lines),
	{	.name = NULL, }
};

struct test_suite suite__affinity_type = {
	.desc = "perf affinity: accumulation",
	.test_cases = tests__affinity_type,
};
