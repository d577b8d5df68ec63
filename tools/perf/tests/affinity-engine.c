// SPDX-License-Identifier: GPL-2.0
/*
 * The perf affinity analysis on planted access patterns, without perf.data:
 * classes, clustering under constraints, layouts, the cost of layouts and
 * the replay.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/bitops.h>
#include "affinity-analysis.h"
#include "affinity-planted.h"
#include "affinity/accumulate/exact.h"
#include "debug.h"
#include "tests.h"

/*
 * lock (f0) written on CPU 0 all the time; CPU 1 reads it with f1-f3, the
 * writer's writes landing between the reader's accesses; f4-f7 cold
 */
static struct fa_type *lock_reader__new(struct fa_struct *st)
{
	struct fa_type *t = fa_type__new(st, &test_config);
	u64 time = 0;

	for (int i = 0; t && i < 2000; i++) {
		for (int f = 0; f < 4; f++) {
			planted_access(t, time++, 0, 0, FA_OP_RMW);
			planted_access(t, time++, 1, f, FA_OP_LOAD);
		}
	}
	return t;
}

/* Does the C of @l, for a kernel type or not, have @text? */
static bool layout_c__has(const struct fa_layout *l, const struct fa_struct *st,
			  const struct fa_classes *c, bool kernel, const char *text)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	bool has;

	if (!fp)
		return false;
	fa_layout__fprintf_c(l, st, c, kernel, fp);
	fclose(fp);
	pr_debug("%s", buf);
	has = strstr(buf, text) != NULL;
	free(buf);
	return has;
}

static int test__affinity_isolate_writer(struct test_suite *test __maybe_unused,
					 int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(8);
	struct fa_type *t = st ? lock_reader__new(st) : NULL;
	struct fa_analysis a;
	int lock_line;

	T("type", t);
	T("analysis", !analysis__run(&a, t));
	T("the lock is shared-written", a.seen.classes.field_cls[0] == FA_CLASS_SHARED_WRITTEN);
	T("its readers read-mostly", a.seen.classes.field_cls[1] == FA_CLASS_READ_MOSTLY);
	T("f4 is cold", a.seen.classes.field_cls[4] == FA_CLASS_COLD);
	T("false sharing seen", fa_matrix__get(&t->xfer.fs, 0, 1) > 0);
	lock_line = fa_layout__line(&a.advice.suggested, st, 0);
	for (int f = 1; f <= 3; f++)
		T("the lock is on another line than its readers",
		  fa_layout__line(&a.advice.suggested, st, f) != lock_line);
	T("the readers share a line", fa_layout__line(&a.advice.suggested, st, 1) ==
	  fa_layout__line(&a.advice.suggested, st, 3));
	T("the struct becomes cache line aligned", a.advice.suggested.align == 64);
	T("C for user space aligns with GCC's attribute",
	  layout_c__has(&a.advice.suggested, st, &a.seen.classes, false,
			"} __attribute__((aligned(64)));") &&
	  !layout_c__has(&a.advice.suggested, st, &a.seen.classes, false, "____cacheline_aligned"));
	T("C for the kernel with its macro",
	  layout_c__has(&a.advice.suggested, st, &a.seen.classes, true,
			"} ____cacheline_aligned;"));
	pr_debug("model: %.2f -> %.2f, replay transfers/window %.3f -> %.3f\n",
		 a.cost.now.model.total, a.cost.advised.model.total,
		 a.cost.now.replay.xfers_per_window, a.cost.advised.replay.xfers_per_window);
	T("the model predicts a gain", a.cost.advised.model.total < a.cost.now.model.total);
	T("so does the replay",
	  a.cost.advised.replay.xfers_per_window < a.cost.now.replay.xfers_per_window);
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * refshare's pattern in sparse samples, the CPUs taking turns: f0
 * (__refcnt) and f1 (__use) are written on both CPUs, f2 is read on both.
 * The samples catch few of f1's stores, so most of its loads follow only
 * f0's writes on the other CPU: f1 must not be taken away from f0 for
 * them (as it was, on a line of its own), its line moves whatever is on
 * it.
 */
static int test__affinity_written_together(struct test_suite *test __maybe_unused,
					   int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(8);
	struct fa_analysis a;
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 12000; i++) {
		int f = i / 2 % 3;
		u8 op = f == 2 ? FA_OP_LOAD : FA_OP_RMW;

		if (f == 1 && i / 6 % 8)
			op = FA_OP_LOAD;
		planted_access(t, time++, i % 2, f, op);
	}
	T("analysis", !analysis__run(&a, t));
	T("f1 is shared-written", a.seen.classes.field_cls[1] == FA_CLASS_SHARED_WRITTEN);
	T("f0 and f1 stay together",
	  fa_layout__line(&a.advice.suggested, t->st, 0) ==
	  fa_layout__line(&a.advice.suggested, t->st, 1));
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * f0 with f3 and f1 with f2, all on one line: clustering pairs them up in
 * another order, but that saves nothing, so the layout must stay as it is.
 */
static int test__affinity_no_churn(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	static const int order[] = { 0, 3, 0, 3, 1, 2, 1, 2 };
	struct fa_type *t = longs_type__new(4);
	struct fa_analysis a;
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 4000; i++)
		planted_access(t, time++, 0, order[i % ARRAY_SIZE(order)], FA_OP_LOAD);
	T("analysis", !analysis__run(&a, t));
	pr_debug("cost %.3f -> %.3f\n", a.cost.now.model.total, a.cost.advised.model.total);
	T("the current layout is kept", !a.advice.changed && a.advice.kept);
	T("and no gain is claimed", fa_analysis__gain(&a) == 0);
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * Per-CPU data of the kernel (struct rq): each CPU writes f0 of its own
 * instance, the other CPU reads f1 of it.  f0 is written by one CPU per
 * instance: write-hot, not written on several; and it conflicts with f1.
 */
static int test__affinity_per_cpu(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	struct fa_config cfg = test_config;
	struct fa_struct *st = longs__new(8);
	struct fa_type *t;
	struct fa_analysis a;
	u64 time = 0;

	cfg.kernel = true;
	t = st ? fa_type__new(st, &cfg) : NULL;
	T("type", t);
	for (int i = 0; i < 2000; i++) {
		for (u32 cpu = 0; cpu < 2; cpu++) {
			u64 base = BASE + cpu * 0x200000;
			struct fa_sample s = {
				.instance = base, .base = base, .weight = 1, .cpu = cpu,
				.owner = cpu, .tid = 100 + cpu, .field = 0, .op = FA_OP_RMW,
			};

			s.time = time++;
			T("add", !fa_type__add(t, &s));
			s = (struct fa_sample){
				.instance = base, .base = base, .weight = 1, .cpu = !cpu,
				.owner = !cpu, .tid = 100 + !cpu, .field = 1, .op = FA_OP_LOAD,
			};
			s.time = time++;
			T("add", !fa_type__add(t, &s));
		}
	}
	T("analysis", !analysis__run(&a, t));
	T("f0 is write-hot", a.seen.classes.field_cls[0] == FA_CLASS_WRITE_HOT);
	T("f0 and f1 conflict",
	  fa_classes__conflict(&a.seen.classes, t->st->fields[0].unit, t->st->fields[1].unit));
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * The lock/reader pattern of one thread, that ran on CPU 0 and then on
 * CPU 1: nothing is shared, the lock may stay with what it protects.
 */
static int test__affinity_one_thread(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(8);
	struct fa_analysis a;
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 2000; i++) {
		for (int f = 0; f < 4; f++) {
			struct fa_sample s = {
				.instance = BASE, .base = BASE, .weight = 1, .cpu = i >= 1000,
				.owner = i >= 1000, .tid = 100, .field = f,
				.op = f ? FA_OP_LOAD : FA_OP_RMW,
			};

			s.time = time++;
			T("add", !fa_type__add(t, &s));
		}
	}
	T("analysis", !analysis__run(&a, t));
	T("one thread shares nothing", !fa_type__shared(t));
	T("the lock is write-hot", a.seen.classes.field_cls[0] == FA_CLASS_WRITE_HOT);
	for (int f = 1; f <= 3; f++)
		T("the lock may share a line with f1-f3",
		  !fa_classes__conflict(&a.seen.classes, t->st->fields[0].unit,
					t->st->fields[f].unit));
	T("no padding suggested", a.advice.suggested.size <= t->st->size);
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * Sparse samples: f0 written on CPU 0 and f1-f3 read on CPU 1 were sampled,
 * f8 never was, but the sampled code of CPU 1 reads it and that of CPU 0
 * writes f9: f8 must not join the lock's line, f9 must not join the readers'.
 * f10 was sampled only as loads, on both CPUs, but the code that loads it
 * also stores to it (as refshare's __use): it is written on both.
 */
static int test__affinity_code_classes(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(16);
	unsigned long cpu0 = 1UL << 0, cpu1 = 1UL << 1, cpus = cpu0 | cpu1;
	struct fa_analysis a;
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 200; i++) {
		planted_access(t, time += 1000000, 0, 0, FA_OP_STORE);
		planted_access(t, time += 1000000, 1, 1 + i % 3, FA_OP_LOAD);
		if (i < 40)
			planted_access(t, time += 1000000, i % 2, 10, FA_OP_LOAD);
	}
	T("code", !fa_type__add_code_access(t, 10, false, 200, &cpus) &&
	  !fa_type__add_code_access(t, 10, true, 200, &cpus));
	T("code", !fa_type__add_code_access(t, 0, true, 200, &cpu0) &&
	  !fa_type__add_code_access(t, 9, true, 200, &cpu0));
	for (int f = 1; f <= 3; f++)
		T("code", !fa_type__add_code_access(t, f, false, 200, &cpu1));
	T("code", !fa_type__add_code_access(t, 8, false, 200, &cpu1));
	T("analysis", !analysis__run(&a, t));
	T("f8 is read, by the code", a.seen.classes.field_cls[8] == FA_CLASS_READ_MOSTLY);
	T("f9 is written, by the code", a.seen.classes.field_cls[9] == FA_CLASS_WRITE_HOT);
	T("f8 is read on CPU 1", test_bit(1, a.seen.classes.fields[8].readers));
	T("f8 is not on the lock's line",
	  fa_layout__line(&a.advice.suggested, t->st, 8) !=
	  fa_layout__line(&a.advice.suggested, t->st, 0));
	T("f9 is not on the readers' line",
	  fa_layout__line(&a.advice.suggested, t->st, 9) !=
	  fa_layout__line(&a.advice.suggested, t->st, 1));
	T("f10 is written on both CPUs, by the code",
	  a.seen.classes.field_cls[10] == FA_CLASS_SHARED_WRITTEN);
	T("f10 is not on the readers' line",
	  fa_layout__line(&a.advice.suggested, t->st, 10) !=
	  fa_layout__line(&a.advice.suggested, t->st, 1));
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * One function, two roles (the perf c2c talk's lock and reader threads):
 * it stores f0 and loads f1-f3 on both CPUs, as its code says, but CPU 0's
 * samples only store f0 and CPU 1's only load f1-f3.  The code must not make
 * CPU 1 a writer of the lock nor CPU 0 a reader of f1: the lock is write-hot,
 * not shared-written, and goes to a line of its own.
 */
static int test__affinity_code_roles(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(8);
	unsigned long cpus = 3;
	struct fa_analysis a;
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 200; i++) {
		planted_access(t, time += 1000000, 0, 0, FA_OP_RMW);
		planted_access(t, time += 1000000, 1, 1 + i % 3, FA_OP_LOAD);
	}
	for (int f = 0; f <= 3; f++)
		T("code", !fa_type__add_code_access(t, f, false, 200, &cpus));
	T("code", !fa_type__add_code_access(t, 0, true, 200, &cpus));
	T("analysis", !analysis__run(&a, t));
	T("the lock is written on CPU 0 only", test_bit(0, a.seen.classes.fields[0].writers) &&
	  !test_bit(1, a.seen.classes.fields[0].writers));
	T("f1 is read on CPU 1 only", test_bit(1, a.seen.classes.fields[1].readers) &&
	  !test_bit(0, a.seen.classes.fields[1].readers));
	T("the lock is write-hot", a.seen.classes.field_cls[0] == FA_CLASS_WRITE_HOT);
	for (int f = 1; f <= 3; f++)
		T("the lock is not on the readers' line",
		  fa_layout__line(&a.advice.suggested, t->st, 0) !=
		  fa_layout__line(&a.advice.suggested, t->st, f));
	analysis__exit(&a, t);
	return TEST_OK;
}

/* A watchpoint's hit of @field by @cpu: every access, not a sample */
static int watched_hit(struct fa_type *t, u64 time, u32 cpu, int field, u8 op)
{
	struct fa_sample s = {
		.time = time, .instance = BASE, .base = BASE, .weight = 1, .cpu = cpu,
		.owner = cpu, .tid = 100 + cpu, .field = field, .op = op, .watched = true,
	};

	return fa_type__add(t, &s);
}

/*
 * Watchpoint hits give the roles, samples the heat (exact.h).  Samples have
 * CPU 0 take the lock f0 and CPU 1 read f1-f3, and CPU 1 store f0 a few
 * times: on samples alone f0 is shared-written.  The watchpoint on f0 saw
 * CPU 1 store it once (initializing it) and CPU 0 write it 10000 times:
 * f0 is write-hot, written by CPU 0 only, its weight is its samples' and
 * it leaves the readers' line.
 */
static int test__affinity_watched_roles(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(8);
	const struct fa_exact *ex;
	struct fa_analysis a;
	u64 time = 0;
	double weight;

	T("type", t);
	for (int i = 0; i < 200; i++) {
		planted_access(t, time += 1000000, 0, 0, FA_OP_RMW);
		planted_access(t, time += 1000000, 1, 1 + i % 3, FA_OP_LOAD);
		if (i % 20 == 0)
			planted_access(t, time += 1000000, 1, 0, FA_OP_STORE);
	}
	weight = t->counts.stats[0].weight;
	T("hit", !watched_hit(t, 1, 1, 0, FA_OP_STORE));
	for (int i = 0; i < 10000; i++)
		T("hit", !watched_hit(t, 2 + i, 0, 0, i % 2 ? FA_OP_STORE : FA_OP_RMW));
	T("analysis", !analysis__run(&a, t));
	ex = t->counts.stats[0].exact;
	T("the hits are kept", ex && ex->hits == 10001 && ex->writes == 10001);
	T("one transfer: from the initializing store", ex->transfers == 1);
	T("the hits add no weight", t->counts.stats[0].weight == weight);
	T("the lock's roles are the hits'", a.seen.classes.fields[0].exact);
	T("the lock is written on CPU 0 only", test_bit(0, a.seen.classes.fields[0].writers) &&
	  !test_bit(1, a.seen.classes.fields[0].writers));
	T("the lock is write-hot", a.seen.classes.field_cls[0] == FA_CLASS_WRITE_HOT);
	T("f1 keeps its sampled roles", !a.seen.classes.fields[1].exact &&
	  test_bit(1, a.seen.classes.fields[1].readers));
	for (int f = 1; f <= 3; f++) {
		T("the lock is not on the readers' line",
		  fa_layout__line(&a.advice.suggested, t->st, 0) !=
		  fa_layout__line(&a.advice.suggested, t->st, f));
	}
	analysis__exit(&a, t);
	return TEST_OK;
}

/* The watched bytes move to an owner that reads what another wrote, or writes */
static int test__affinity_watched_transfers(struct test_suite *test __maybe_unused,
					    int subtest __maybe_unused)
{
	static const struct { int owner; bool store; bool moves; } seq[] = {
		{ 0, true, false }, { 0, false, false }, { 1, false, true }, { 1, false, false },
		{ 0, false, false }, { 1, true, true }, { 1, true, false }, { 0, true, true },
		{ 2, false, true }, { 3, false, false },
	};
	struct fa_exact *ex = fa_exact__new(4);
	unsigned long readers[1], writers[1];
	u64 transfers = 0;

	T("exact", ex);
	for (size_t i = 0; i < ARRAY_SIZE(seq); i++) {
		fa_exact__add(ex, seq[i].owner, seq[i].store, 1);
		transfers += seq[i].moves;
		T("moves as a cache line would", ex->transfers == transfers);
	}
	T("ten hits are enough for roles", fa_exact__enough(ex));
	fa_exact__roles(ex, 4, readers, writers);
	T("all read", readers[0] == 0xf);
	T("two write", writers[0] == 0x3);
	fa_exact__delete(ex);

	/*
	 * Four CPUs each store to it in 1 of 16 of their accesses (rq->curr):
	 * each is a writer, though its stores are 1.6% of all accesses; the
	 * one store of a fifth owner that initialized it is none
	 */
	ex = fa_exact__new(8);
	T("exact", ex);
	for (int i = 0; i < 4 * 160; i++)
		fa_exact__add(ex, i % 4, i / 4 % 16 == 0, 1);
	fa_exact__add(ex, 4, true, 1);
	fa_exact__roles(ex, 8, readers, writers);
	T("four read", readers[0] == 0xf);
	T("the four write, not who stored once", writers[0] == 0xf);
	fa_exact__delete(ex);
	return TEST_OK;
}

/*
 * The hits of a line, by field: thread 0 writes f0, thread 1 reads f1 on
 * the same line (false sharing), then f0 (true sharing); a hit more than
 * a slice's gap later sees no transfer; f2 on another line none either.
 */
static int lines_hit(struct fa_exact_lines *xl, u64 line, u64 time, int owner, int field,
		     bool store)
{
	struct fa_exact_hit h = { .time = time, .base = line * 64, .owner = owner,
				  .field = field, .store = store, };

	return fa_exact_lines__add(xl, &h, line);
}

static int test__affinity_watched_lines(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct fa_exact_lines *xl = fa_exact_lines__new(4);
	u64 n;

	T("lines", xl);
	T("hit", !lines_hit(xl, 0x40, 10, 0, 0, true));
	T("hit", !lines_hit(xl, 0x40, 20, 1, 1, false));	/* f0 -> f1: false */
	T("hit", !lines_hit(xl, 0x40, 30, 0, 0, true));		/* f1 -> f0: false */
	T("hit", !lines_hit(xl, 0x40, 40, 1, 0, false));	/* f0 -> f0: true */
	T("hit", !lines_hit(xl, 0x41, 50, 1, 2, true));
	T("hit", !lines_hit(xl, 0x40, 60 + FA_EXACT_GAP_NS, 0, 0, true));	/* a gap */
	T("every hit kept", xl->nr_hits == 6 && !xl->hits_left);
	T("three transfers", xl->transfers == 3);
	T("two between fields", xl->false_sharing == 2);
	T("f0 -> f1 once", fa_exact_lines__pair(xl, 0, 1, &n) && n == 1);
	T("f1 -> f0 once", fa_exact_lines__pair(xl, 1, 0, &n) && n == 1);
	T("f0 -> f0 once", fa_exact_lines__pair(xl, 0, 0, &n) && n == 1);
	T("f2 watched, on a line of its own", fa_exact_lines__pair(xl, 0, 2, &n) && n == 0);
	T("f3 not watched", !fa_exact_lines__pair(xl, 0, 3, &n));
	fa_exact_lines__delete(xl);
	return TEST_OK;
}

/* A layout of struct longs with fields @a and @b swapped */
static int longs_swapped(struct fa_layout *l, const struct fa_struct *st, int a, int b)
{
	u32 offset[16];

	for (int u = 0; u < st->nr_units; u++)
		offset[u] = u * 8;
	offset[a] = b * 8;
	offset[b] = a * 8;
	return fa_layout__from_offsets(l, st, offset, 64);
}

/* The watched hits of @t replayed with @a and @b swapped */
static int longs_replay(const struct fa_type *t, int a, int b, struct fa_exact_cost *cost)
{
	struct fa_layout l;
	int err = longs_swapped(&l, t->st, a, b);

	if (!err)
		err = fa_exact_lines__replay(t->counts.exact_lines, t->st, &l, false, cost);
	fa_layout__exit(&l);
	return err;
}

/*
 * The hits replayed against other layouts.  CPU 0 writes f0 while CPU 1
 * reads f1 on its line (false sharing) and writes f9 on the next line: the
 * current layout gives the counts of the lines; with f1 moved to the next
 * line (swapped with f15) no line moves.  CPU 0 writes f0 while CPU 1
 * writes f9: no line moves, until f9 joins f0's line (swapped with f1).
 */
static int test__affinity_watched_replay(struct test_suite *test __maybe_unused,
					 int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(16), *t2 = longs_type__new(16);
	struct fa_exact_cost now, then;
	const struct fa_exact_lines *xl;
	u64 time = 0;

	T("types", t && t2);
	for (int i = 0; i < 1000; i++) {
		T("hit", !watched_hit(t, time += 10, 0, 0, FA_OP_STORE));
		T("hit", !watched_hit(t, time += 10, 1, 1, FA_OP_LOAD));
		T("hit", !watched_hit(t, time += 10, 1, 9, FA_OP_STORE));
		T("hit", !watched_hit(t2, time, 0, 0, FA_OP_STORE));
		T("hit", !watched_hit(t2, time, 1, 9, FA_OP_STORE));
	}
	xl = t->counts.exact_lines;
	T("hits kept", xl && xl->nr_hits == 3000);
	T("replay", !longs_replay(t, 0, 0, &now));
	pr_debug("now %" PRIu64 " transfers, %" PRIu64 " false sharing; lines %" PRIu64 ", %" PRIu64 "\n",
		 now.transfers, now.false_sharing, xl->transfers, xl->false_sharing);
	T("the current layout replays as the lines counted", now.hits == 3000 &&
	  now.transfers == xl->transfers && now.false_sharing == xl->false_sharing);
	T("f0 and f1 move their line", now.false_sharing == 1999);
	T("replay", !longs_replay(t, 1, 15, &then));
	T("f1 apart, no line moves", then.transfers == 0);
	T("not worse", !fa_exact_cost__worse(&now, &then));

	T("replay", !longs_replay(t2, 0, 0, &now) && !longs_replay(t2, 1, 9, &then));
	pr_debug("f0 and f9: %" PRIu64 " transfers, together %" PRIu64 "\n", now.transfers,
		 then.transfers);
	T("f0 and f9 apart, no line moves", now.transfers == 0);
	T("together, they move it", then.false_sharing == 1999);
	T("worse", fa_exact_cost__worse(&now, &then));
	/* and their structs: longs_type__new() made them */
	planted_type__delete(t);
	planted_type__delete(t2);
	return TEST_OK;
}

static int test__affinity_blocks_stay(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fa_struct *st = blocks__new();
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	int group = st ? fa_struct__find_leaf(st, 8) : -1;
	struct fa_analysis a;
	u64 time = 0;

	T("type", t && group >= 0);
	/* the bitfields with c, the union with a: both want to move */
	for (int i = 0; i < 1000; i++) {
		planted_access(t, time++, 0, group, FA_OP_RMW);
		planted_access(t, time++, 0, 5, FA_OP_LOAD);
		planted_access(t, time++, 1, 3, FA_OP_LOAD);
		planted_access(t, time++, 1, 0, FA_OP_LOAD);
	}
	T("analysis", !analysis__run(&a, t));
	T("x and y stay in one storage unit",
	  fa_layout__field_offset(&a.advice.suggested, st, 1) ==
	  fa_layout__field_offset(&a.advice.suggested, st, 2));
	T("the union is one block", a.advice.suggested.offset[st->fields[3].unit] % 4 == 0);
	for (int u = 0; u < st->nr_units; u++) {
		T("units stay aligned", a.advice.suggested.offset[u] % st->units[u].align == 0);
		for (int v = 0; v < st->nr_units; v++) {
			bool overlap = u != v &&
				a.advice.suggested.offset[u] <
				a.advice.suggested.offset[v] + st->units[v].size &&
				a.advice.suggested.offset[v] <
				a.advice.suggested.offset[u] + st->units[u].size;

			T("units do not overlap", !overlap);
		}
	}
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * The lock/reader pattern on a 128 CPU machine, the reader on @reader:
 * the replay's transfers per 1000 accesses of the current layout.
 */
static int lock_reader__replay(u32 reader, double *xfers)
{
	struct fa_config cfg = test_config;
	struct fa_struct *st = longs__new(8);
	struct fa_type *t;
	struct fa_analysis a;

	cfg.nr_cpus = 128;
	t = st ? fa_type__new(st, &cfg) : NULL;
	if (!t) {
		fa_struct__delete(st);
		return -1;
	}
	for (int i = 0; i < 1000; i++) {
		if (planted_access(t, 2 * i, 0, 0, FA_OP_RMW) ||
		    planted_access(t, 2 * i + 1, reader, 1 + i % 3, FA_OP_LOAD))
			goto out_err;
	}
	if (analysis__run(&a, t))
		goto out_err;
	*xfers = a.cost.now.replay.xfers_per_kacc;
	analysis__exit(&a, t);
	return 0;

out_err:
	fa_type__delete(t);
	fa_struct__delete(st);
	return -1;
}

static int test__affinity_many_cpus(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	double near, far;

	T("reader on CPU 1", !lock_reader__replay(1, &near));
	T("reader on CPU 64", !lock_reader__replay(64, &far));
	pr_debug("transfers per 1k accesses: CPU 1 %.1f, CPU 64 %.1f\n", near, far);
	T("every read of the lock's line moves it", near > 400);
	T("CPU 64 is not CPU 0", far == near);
	return TEST_OK;
}

/*
 * False sharing at random, as samples land: CPU 0 writes f0 or reads f2,
 * CPU 1 reads f1 or f9, f0 and f1 (on line 0) @permille of the time.  @n
 * accesses about two nanoseconds apart (test_config's blocks of the
 * bootstrap: 64 ns).
 */
static struct fa_type *random_sharing__new(struct fa_struct *st, int n, unsigned int seed,
					   int permille)
{
	struct fa_type *t = fa_type__new(st, &test_config);
	u64 time = 0;

	for (int i = 0; t && i < n; i++) {
		int r = rand_r(&seed), cpu = r & 1, field;
		bool first = (r >> 1) % 1000 < permille;

		field = cpu ? (first ? 1 : 9) : (first ? 0 : 2);
		time += 1 + (r >> 8) % 3;
		planted_access(t, time, cpu, field, !cpu && first ? FA_OP_STORE : FA_OP_LOAD);
	}
	if (t)
		fa_type__flush(t);
	return t;
}

/* f0 moved to the end of the struct: apart from f1 */
static int f0_apart__layout(struct fa_layout *l, const struct fa_struct *st)
{
	int err = fa_layout__current(l, st, test_config.line_size);

	if (!err)
		l->offset[st->fields[0].unit] = st->size;
	return err;
}

/* The model's saving from the current layout to @l, with its interval */
static int saving__of(struct fa_type *t, const struct fa_layout *l, struct fa_interval *ci)
{
	struct fa_boot_sum c[2];
	struct fa_cost_model m;
	struct fa_layout cur;

	if (fa_cost_model__init(&m, t, FA_XFER_COST, false))
		return -1;
	if (fa_layout__current(&cur, t->st, test_config.line_size)) {
		fa_cost_model__exit(&m);
		return -1;
	}
	fa_cost_model__eval_groups(&m, &cur, &c[0], NULL);
	fa_cost_model__eval_groups(&m, l, &c[1], NULL);
	fa_boot__saving(&c[0], &c[1], ci);
	fa_layout__exit(&cur);
	fa_cost_model__exit(&m);
	return 0;
}

/*
 * The interval of a saving covers the saving itself (of a recording 100
 * times as long) at about its level, in seeded trials
 */
static int test__affinity_interval_covers(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(16);
	struct fa_interval truth, ci;
	struct fa_layout apart;
	struct fa_type *t;
	int covered = 0, trials = 200;

	T("struct", st);
	T("layout", !f0_apart__layout(&apart, st));
	t = random_sharing__new(st, 400000, 1, 500);
	T("the long recording", t && !saving__of(t, &apart, &truth));
	fa_type__delete(t);
	pr_debug("saving %.4f (%.4f to %.4f)\n", truth.est, truth.lo, truth.hi);
	T("it saves", truth.est > 0.05);
	for (int seed = 2; seed < trials + 2; seed++) {
		t = random_sharing__new(st, 4000, seed, 500);
		T("a short recording", t && !saving__of(t, &apart, &ci));
		covered += fa_interval__spans(&ci, truth.est);
		T("an interval", ci.lo < ci.est && ci.est < ci.hi);
		fa_type__delete(t);
	}
	pr_debug("%d of %d intervals cover %.4f\n", covered, trials, truth.est);
	T("95% intervals cover the saving in 90% of the trials", covered >= trials * 9 / 10);
	T("and are not so wide that they always do", covered < trials);
	fa_layout__exit(&apart);
	fa_struct__delete(st);
	return TEST_OK;
}

/*
 * CPU 0 writes f0 or reads f4, CPU 1 reads f1 @permille of the time, else
 * f3: two falsely shared pairs, f0 -> f1 and f0 -> f3, all on line 0
 */
static struct fa_type *random_pairs__new(struct fa_struct *st, int n, unsigned int seed,
					 int permille)
{
	struct fa_type *t = fa_type__new(st, &test_config);
	u64 time = 0;

	for (int i = 0; t && i < n; i++) {
		int r = rand_r(&seed), cpu = r & 1;
		bool first = (r >> 1) % 1000 < permille;

		time += 1 + (r >> 8) % 3;
		if (cpu)
			planted_access(t, time, cpu, first ? 1 : 3, FA_OP_LOAD);
		else if (first)
			planted_access(t, time, cpu, 0, FA_OP_STORE);
		else
			planted_access(t, time, cpu, 4, FA_OP_LOAD);
	}
	if (t)
		fa_type__flush(t);
	return t;
}

/*
 * The share of a falsely shared pair covers the share of a recording 100
 * times as long at about the interval's level; the difference of a
 * field's share between two recordings made alike (diff) covers zero
 */
static int test__affinity_share_covers(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(16);
	struct fa_interval ci, diff;
	int covered = 0, zero = 0, trials = 200;
	struct fa_type *t, *prev = NULL;
	double truth;

	T("struct", st);
	t = random_pairs__new(st, 400000, 1, 700);
	T("the long recording", t);
	truth = fa_type__fs_share(t, 0, 1, &ci);
	fa_type__delete(t);
	pr_debug("f0 -> f1: %.2f%% of the false sharing\n", truth);
	T("two pairs share the false sharing", truth > 50 && truth < 90);
	for (int seed = 2; seed < trials + 2; seed++) {
		t = random_pairs__new(st, 4000, seed, 700);
		T("a short recording", t);
		fa_type__fs_share(t, 0, 1, &ci);
		covered += fa_interval__spans(&ci, truth);
		T("an interval", ci.lo < ci.est && ci.est < ci.hi);
		if (prev) {
			T("a difference", fa_boot__diff_apart(&prev->counts.field_groups[1].weight,
							      &prev->counts.weight_by_group,
							      &t->counts.field_groups[1].weight,
							      &t->counts.weight_by_group, &diff));
			zero += fa_interval__spans(&diff, 0);
		}
		fa_type__delete(prev);
		prev = t;
	}
	fa_type__delete(prev);
	pr_debug("%d of %d intervals cover the share, %d of %d differences zero\n", covered,
		 trials, zero, trials - 1);
	T("95% intervals cover the share in 90% of the trials", covered >= trials * 9 / 10);
	T("and are not so wide that they always do", covered < trials);
	T("95% intervals of the difference cover zero in 90% of the pairs",
	  zero >= (trials - 1) * 9 / 10);
	T("and not always", zero < trials - 1);
	fa_struct__delete(st);
	return TEST_OK;
}

/*
 * One thread: f0 stored in @store_permille of its accesses, f1 in 500 of
 * 1000, f2 only loaded; @n accesses to each, in time order
 */
static struct fa_type *writes__new(struct fa_struct *st, int n, int store_permille)
{
	struct fa_type *t = fa_type__new(st, &test_config);
	unsigned int seed = 5;
	u64 time = 0;

	for (int i = 0; t && i < n; i++) {
		int r = rand_r(&seed);
		u8 op = r % 1000 < store_permille ? FA_OP_STORE : FA_OP_LOAD;

		planted_access(t, ++time, 0, 0, op);
		planted_access(t, ++time, 0, 1, (r >> 10) % 2 ? FA_OP_STORE : FA_OP_LOAD);
		planted_access(t, ++time, 0, 2, FA_OP_LOAD);
	}
	if (t)
		fa_type__flush(t);
	return t;
}

/*
 * A field written in about FA_WRITE_SHARE of its accesses is write-hot in
 * some resamples and read-mostly in others: its class is not sure; fields
 * far from the threshold are
 */
static int test__affinity_class_agreement(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(4);
	struct fa_type *t = st ? writes__new(st, 2000, 1000 * FA_WRITE_SHARE) : NULL;
	struct fa_analysis a;

	T("type", t);
	T("analysis", !analysis__run(&a, t));
	pr_debug("agreement: f0 %.3f, f1 %.3f, f2 %.3f\n", a.seen.classes.fields[0].agree,
		 a.seen.classes.fields[1].agree, a.seen.classes.fields[2].agree);
	T("f0, at the threshold, is not sure", a.seen.classes.fields[0].agree < FA_CLASS_SURE);
	T("nor always the other class", a.seen.classes.fields[0].agree > 1 - FA_CLASS_SURE);
	T("f1, written half the time, is write-hot",
	  a.seen.classes.field_cls[1] == FA_CLASS_WRITE_HOT);
	T("and sure", a.seen.classes.fields[1].agree == 1);
	T("f2, never written, is read-mostly and sure",
	  a.seen.classes.field_cls[2] == FA_CLASS_READ_MOSTLY &&
	  a.seen.classes.fields[2].agree == 1);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* The analysis of @n accesses of random_sharing__new() */
static int evidence__run(struct fa_analysis *a, struct fa_struct *st, int n, int permille)
{
	struct fa_type *t = random_sharing__new(st, n, 7, permille);
	int err = t ? analysis__run(a, t) : -1;

	pr_debug("%d accesses, %d per mille shared: saving %.4f (%.4f to %.4f)%s, record %.1fx\n", n,
		 permille, a->cost.gain_ci.est, a->cost.gain_ci.lo, a->cost.gain_ci.hi,
		 a->candidate.insufficient ? ", insufficient" : "", a->candidate.record_more);
	fa_type__delete(t);
	return err;
}

/*
 * Too few samples: the edit is a candidate, not advice, with how much
 * longer to record where that can be told; enough: the edit
 */
static int test__affinity_evidence(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	/* the replay's cost of the current layout, then of the suggested */
	static const struct fa_cost more[2] = {
		{ .total = 1, .accesses = 10, }, { .total = 1.02, .accesses = 10, },
	};
	static const struct fa_cost same[2] = {
		{ .total = 1, .accesses = 10, }, { .total = 1.005, .accesses = 10, },
	};
	static const struct fa_cost none[2] = { { .total = 1, }, { .total = 2, }, };
	struct fa_struct *st = longs__new(16);
	struct fa_analysis a;

	T("struct", st);
	T("analysis of 60 accesses", !evidence__run(&a, st, 60, 500));
	T("few blocks of time: no advice", a.advice.kind == FA_ADVICE_NONE && !a.advice.changed);
	T("a candidate", a.candidate.insufficient && !a.candidate.record_more);
	T("it separates f0 and f1", fa_layout__line(&a.candidate.layout, st, 0) !=
	  fa_layout__line(&a.candidate.layout, st, 1));
	fa_analysis__exit(&a);

	/* an interval as wide again as the estimate's distance to the threshold: 4x */
	T("record longer", fabs(fa_interval__more_samples(&(struct fa_interval){
		.est = 0.05, .lo = -0.03, .hi = 0.13, }, FA_MIN_GAIN) - 4) < 1e-9);
	T("nothing to record for", !fa_interval__more_samples(&(struct fa_interval){
		.est = 0.005, .lo = 0, .hi = 0.01, }, FA_MIN_GAIN));

	/* the model's gain, which the replay of the accesses says is a loss */
	T("a replay that costs 2% more contradicts", fa_cost__replay_contradicts(&more[0], &more[1]));
	T("one that costs as much does not", !fa_cost__replay_contradicts(&same[0], &same[1]));
	T("nor one without accesses", !fa_cost__replay_contradicts(&none[0], &none[1]));

	T("analysis of 20000 accesses", !evidence__run(&a, st, 20000, 500));
	T("the edit is advised", a.advice.kind == FA_ADVICE_EDIT && a.advice.changed &&
	  !a.candidate.insufficient);
	T("surely", a.cost.gain_ci.lo >= FA_MIN_GAIN);
	T("f0 leaves f1", fa_layout__line(&a.advice.suggested, st, 0) !=
	  fa_layout__line(&a.advice.suggested, st, 1));
	fa_analysis__exit(&a);
	fa_struct__delete(st);
	return TEST_OK;
}

static struct test_case tests__affinity_engine[] = {
	TEST_CASE("A field written on one CPU is isolated from its readers",
		  affinity_isolate_writer),
	TEST_CASE("Fields seen only in the sampled code keep their CPUs and class",
		  affinity_code_classes),
	TEST_CASE("The code widens what goes together, not who writes", affinity_code_roles),
	TEST_CASE("One thread on two CPUs shares no cache line", affinity_one_thread),
	TEST_CASE("A per-CPU field its own CPU writes is write-hot", affinity_per_cpu),
	TEST_CASE("Fields written on several CPUs stay together", affinity_written_together),
	TEST_CASE("A layout that saves nothing is not suggested", affinity_no_churn),
	TEST_CASE("Bitfields and unions move as blocks", affinity_blocks_stay),
	TEST_CASE("Watchpoint hits give the roles, samples the heat", affinity_watched_roles),
	TEST_CASE("Watched bytes move as a cache line would", affinity_watched_transfers),
	TEST_CASE("Watched lines tell false from true sharing", affinity_watched_lines),
	TEST_CASE("Watched hits replayed against other layouts", affinity_watched_replay),
	TEST_CASE("The replay tells CPU 64 from CPU 0", affinity_many_cpus),
	TEST_CASE("Intervals of a saving cover it at about their level", affinity_interval_covers),
	TEST_CASE("Intervals of shares cover them at about their level", affinity_share_covers),
	TEST_CASE("A class near its threshold is not sure", affinity_class_agreement),
	TEST_CASE("Advice only on sure evidence, a candidate before", affinity_evidence),
	{	.name = NULL, }
};

struct test_suite suite__affinity_engine = {
	.desc = "perf affinity: engine",
	.test_cases = tests__affinity_engine,
};
