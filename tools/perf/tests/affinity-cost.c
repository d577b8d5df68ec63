// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model of perf affinity on planted access patterns: the cache
 * lines a window touches and the transfers of lines between CPUs, under
 * the recorded layout and under one that moves a single field; the local
 * search that lowers it, what every layout must keep, the smallest edit
 * that lowers it, and the hot/cold split of a small struct in an array.
 */
#include <errno.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity-planted.h"
#include "affinity/advice/cost.h"
#include "affinity/advice/edit.h"
#include "affinity/advice/refine.h"
#include "affinity/advice/split.h"
#include "affinity/layout/classify.h"
#include "affinity/layout/keep.h"
#include "affinity/layout/layout.h"
#include "debug.h"
#include "tests.h"

#define NR_LONGS	16	/* two cache lines */

/* 1000 rounds: field @fa by @cpu_a with @op_a, then field @fb by @cpu_b with @op_b */
static int plant_pairs(struct fa_type *t, u32 cpu_a, int fa, u8 op_a, u32 cpu_b, int fb, u8 op_b)
{
	u64 time = 0;
	int err = 0;

	for (int i = 0; i < 1000 && !err; i++) {
		err = planted_access(t, time++, cpu_a, fa, op_a) ?:
		      planted_access(t, time++, cpu_b, fb, op_b);
	}
	return err;
}

/* The longs at their offsets, but fields @a and @b swapped */
static int layout__swapped(struct fa_layout *l, const struct fa_struct *st, int a, int b)
{
	u32 offset[NR_LONGS];

	for (int u = 0; u < NR_LONGS; u++)
		offset[u] = u * 8;
	offset[a] = b * 8;
	offset[b] = a * 8;
	return fa_layout__from_offsets(l, st, offset, 64);
}

/* The cost of @t's accesses under its recorded layout and with @a and @b swapped */
static int cost__now_swapped(struct fa_type *t, int a, int b, struct fa_cost *now,
			     struct fa_cost *swapped)
{
	struct fa_cost_model m;
	struct fa_layout l;
	int err;

	fa_type__flush(t);
	err = fa_cost_model__init(&m, t, FA_XFER_COST, /*visits=*/false);
	if (err)
		return err;
	err = fa_layout__current(&l, t->st, 64);
	if (!err) {
		fa_cost_model__eval(&m, &l, now);
		fa_layout__exit(&l);
		err = layout__swapped(&l, t->st, a, b);
	}
	if (!err) {
		fa_cost_model__eval(&m, &l, swapped);
		fa_layout__exit(&l);
	}
	fa_cost_model__exit(&m);
	return err;
}

/* f0 and f8, a line apart, read together by one CPU: two lines, one with f8 next to f0 */
static int test__affinity_cost_lines(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(NR_LONGS);
	struct fa_cost now, swapped;

	T("type", t);
	T("accesses", !plant_pairs(t, 0, 0, FA_OP_LOAD, 0, 8, FA_OP_LOAD));
	T("cost", !cost__now_swapped(t, 1, 8, &now, &swapped));
	pr_debug("lines per window: %.2f recorded, %.2f with f8 next to f0\n",
		 now.lines_per_window, swapped.lines_per_window);
	T("two lines a window as recorded", now.lines_per_window > 1.9);
	T("one with f8 next to f0", swapped.lines_per_window < 1.1);
	T("no transfers with one CPU", now.xfers_per_window == 0 && swapped.xfers_per_window == 0);
	T("the cost follows", swapped.total < now.total);
	planted_type__delete(t);
	return TEST_OK;
}

/* f0 written on CPU 0, f1 read on CPU 1: the line moves; with f1 a line away it does not */
static int test__affinity_cost_transfers(struct test_suite *test __maybe_unused,
					 int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(NR_LONGS);
	struct fa_cost now, apart;

	T("type", t);
	T("accesses", !plant_pairs(t, 0, 0, FA_OP_STORE, 1, 1, FA_OP_LOAD));
	T("cost", !cost__now_swapped(t, 1, 8, &now, &apart));
	pr_debug("transfers per 1k accesses: %.1f recorded, %.1f with f1 a line away\n",
		 now.xfers_per_kacc, apart.xfers_per_kacc);
	T("transfers as recorded", now.xfers_per_kacc > 100);
	T("none with f1 a line away", apart.xfers_per_kacc == 0);
	T("the cost follows", apart.total < now.total);
	planted_type__delete(t);
	return TEST_OK;
}

/* The replay of the access sample sees the line the written field moves, and f1 a line away */
static int test__affinity_cost_replay(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(NR_LONGS);
	struct fa_cost now, apart;
	struct fa_layout l;

	T("type", t);
	T("accesses", !plant_pairs(t, 0, 0, FA_OP_STORE, 1, 1, FA_OP_LOAD));
	fa_type__flush(t);
	T("layout", !fa_layout__current(&l, t->st, 64));
	T("replay as recorded", !fa_cost__replay(t, &l, FA_BASES_RECORDED, FA_XFER_COST,
						 &now, NULL));
	fa_layout__exit(&l);
	T("layout", !layout__swapped(&l, t->st, 1, 8));
	T("replay with f1 a line away", !fa_cost__replay(t, &l, FA_BASES_RECORDED,
							 FA_XFER_COST, &apart, NULL));
	fa_layout__exit(&l);
	pr_debug("replayed transfers per 1k accesses: %.1f recorded, %.1f with f1 a line away\n",
		 now.xfers_per_kacc, apart.xfers_per_kacc);
	T("every access replayed", now.accesses == 2000 && apart.accesses == 2000);
	T("transfers as recorded", now.xfers_per_kacc > 100);
	T("none with f1 a line away", apart.xfers_per_kacc == 0);
	T("the cost follows", apart.total < now.total);
	T("a layout the replay prices higher is contradicted",
	  fa_cost__replay_contradicts(&apart, &now) && !fa_cost__replay_contradicts(&now, &apart));
	planted_type__delete(t);
	return TEST_OK;
}

/* f0 and f8 a line apart, read together: the local search puts them on one line */
static int test__affinity_refine(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(NR_LONGS);
	struct fa_cost_model m;
	struct fa_classes c;
	struct fa_layout l;
	double before, after;

	T("type", t);
	T("accesses", !plant_pairs(t, 0, 0, FA_OP_LOAD, 0, 8, FA_OP_LOAD));
	fa_type__flush(t);
	T("model", !fa_cost_model__init(&m, t, FA_XFER_COST, /*visits=*/false));
	T("classes", !fa_classes__init(&c, t) && !fa_cost_model__set_moving(&m, &c));
	T("layout", !fa_layout__current(&l, t->st, 64));
	before = fa_cost_model__eval(&m, &l, NULL);
	T("refine", !fa_layout__refine(&l, t->st, &c, &m));
	after = fa_cost_model__eval(&m, &l, NULL);
	pr_debug("refined: cost %.3f -> %.3f, f0 on line %d, f8 on line %d\n", before, after,
		 fa_layout__line(&l, t->st, 0), fa_layout__line(&l, t->st, 8));
	T("cheaper", after < before);
	T("f0 and f8 on one line", fa_layout__line(&l, t->st, 0) == fa_layout__line(&l, t->st, 8));
	fa_layout__exit(&l);
	fa_classes__exit(&c);
	fa_cost_model__exit(&m);
	planted_type__delete(t);
	return TEST_OK;
}

/* --keep f1 and --keep-order f4-f6: the layouts that move them are not taken */
static int test__affinity_keep(struct test_suite *test __maybe_unused,
			       int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(NR_LONGS);
	struct fa_keep_opts o = { .keep = "f1", .keep_order = "f4-f6", };
	static const int allowed[][2] = { { 2, 9 }, { 7, 12 } }, refused[][2] = { { 1, 9 }, { 5, 9 } };
	struct fa_layout cur, l;
	struct fa_keep k;

	T("struct", st);
	T("layout", !fa_layout__current(&cur, st, 64));
	T("what to keep", fa_keep__init(&k, st, &cur, &o) == 2);
	T("the recorded layout", fa_keep__allows(&k, &cur, &cur));
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++) {
		T("swap", !layout__swapped(&l, st, allowed[i][0], allowed[i][1]));
		T("others may move", fa_keep__allows(&k, &cur, &l));
		fa_layout__exit(&l);
		T("swap", !layout__swapped(&l, st, refused[i][0], refused[i][1]));
		T("f1 and f4 to f6 may not", !fa_keep__allows(&k, &cur, &l));
		fa_layout__exit(&l);
	}
	fa_keep__exit(&k);
	fa_layout__exit(&cur);
	fa_struct__delete(st);
	return TEST_OK;
}

/* What the smallest edit and the split are weighed with: @t's model, classes, layout */
struct judged {
	struct fa_cost_model	m;
	struct fa_classes	c;
	struct fa_layout	cur;
	struct fa_keep		keep;
};

static int judged__init(struct judged *jd, struct fa_type *t, bool visits)
{
	memset(jd, 0, sizeof(*jd));
	fa_type__flush(t);
	if (fa_cost_model__init(&jd->m, t, FA_XFER_COST, visits))
		return -ENOMEM;
	if (fa_classes__init(&jd->c, t) || fa_cost_model__set_moving(&jd->m, &jd->c) ||
	    fa_layout__current(&jd->cur, t->st, 64) ||
	    fa_keep__init(&jd->keep, t->st, &jd->cur, NULL) < 0)
		return -ENOMEM;
	return 0;
}

static void judged__exit(struct judged *jd)
{
	fa_keep__exit(&jd->keep);
	fa_layout__exit(&jd->cur);
	fa_classes__exit(&jd->c);
	fa_cost_model__exit(&jd->m);
}

/* The smallest edit of @t's layout: how many edits, into @out */
static int edits__search(struct fa_type *t, struct judged *jd, struct fa_layout *out,
			 double *cost0, double *cost)
{
	struct fa_judge j = {
		.st = t->st, .cur = &jd->cur, .m = &jd->m, .keep = &jd->keep, .c = &jd->c,
		.nr_instances = t->xfer.nr_instances,
		.cost0 = fa_cost_model__eval(&jd->m, &jd->cur, NULL),
	};
	struct fa_edits e;

	if (fa_edits__search(&e, out, &j, &jd->c))
		return -ENOMEM;
	*cost0 = j.cost0;
	*cost = fa_judge__cost(&j, out);
	for (int i = 0; i < e.nr; i++) {
		char buf[128];

		fa_edit__snprintf(&e.edit[i], t->st, buf, sizeof(buf));
		pr_debug("edit %d: %s\n", i, buf);
	}
	return e.nr;
}

/*
 * f0 written on CPU 0 next to f1, which CPU 1 reads: an edit or two take
 * them apart, not a reorder of the struct
 */
static int test__affinity_edit_apart(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(NR_LONGS);
	struct fa_layout out = { .size = 0, };
	struct judged jd;
	double cost0, cost;
	int nr;

	T("type", t);
	T("accesses", !plant_pairs(t, 0, 0, FA_OP_STORE, 1, 1, FA_OP_LOAD));
	T("judge", !judged__init(&jd, t, /*visits=*/false));
	nr = edits__search(t, &jd, &out, &cost0, &cost);
	pr_debug("%d edits: judged cost %.3f -> %.3f\n", nr, cost0, cost);
	T("one edit or two", nr >= 1 && nr <= 2);
	T("f0 and f1 apart", fa_layout__line(&out, t->st, 0) != fa_layout__line(&out, t->st, 1));
	T("it saves", cost < cost0 * (1 - FA_MIN_GAIN));
	T("two members moved at most", fa_layout__moved(&jd.cur, &out) <= 2);
	fa_layout__exit(&out);
	judged__exit(&jd);
	planted_type__delete(t);
	return TEST_OK;
}

/* f0 and f1 read together on one CPU, on one line: nothing is worth an edit */
static int test__affinity_edit_none(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(NR_LONGS);
	struct fa_layout out = { .size = 0, };
	struct judged jd;
	double cost0, cost;

	T("type", t);
	T("accesses", !plant_pairs(t, 0, 0, FA_OP_LOAD, 0, 1, FA_OP_LOAD));
	T("judge", !judged__init(&jd, t, /*visits=*/false));
	T("no edit", edits__search(t, &jd, &out, &cost0, &cost) == 0);
	T("the recorded layout", fa_layout__same(&out, &jd.cur));
	fa_layout__exit(&out);
	judged__exit(&jd);
	planted_type__delete(t);
	return TEST_OK;
}

/* The split of @t's struct of 4 longs in 32 instances 32 bytes apart */
static int split__consider(struct fa_type *t, struct fa_split *sp)
{
	struct judged jd;
	int err = judged__init(&jd, t, /*visits=*/false);
	struct fa_split_in in = {
		.st = t->st, .cur = &jd.cur, .best = &jd.cur, .m = &jd.m, .keep = &jd.keep,
		.nr_instances = t->xfer.nr_instances, .bases = t->replay.bases,
		.nr_bases = t->replay.nr_bases,
	};

	memset(sp, 0, sizeof(*sp));
	err = err ?: fa_split__consider(sp, &in);
	pr_debug("split: why %d, hot %u cold %u bytes, cold share %.3f, cost %.3f -> %.3f\n",
		 sp->why, sp->hot_size, sp->cold_size, sp->cold_share, sp->unsplit.cost,
		 sp->split.cost);
	judged__exit(&jd);
	return err;
}

/*
 * An array of 32-byte structs whose visits touch f0 and f1, and f2 and f3
 * in 1 of 100: two structs of 16 bytes, a visit brings in half the bytes.
 * When the same visits touch f2 and f3 60 times in 100, no split.
 */
static int test__affinity_split_hot(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fa_type *t = planted_visits__new(longs__new(4), 32, 32, 1, true);
	struct fa_struct *st;
	struct fa_split sp;

	T("type", t);
	T("split", !split__consider(t, &sp));
	T("advised", sp.why == FA_SPLIT_ADVISED);
	T("f0 and f1 hot", sp.hot && sp.hot[0] && sp.hot[1] && sp.nr_hot == 2);
	T("two structs of 16 bytes", sp.hot_size == 16 && sp.cold_size == 16);
	T("half the bytes per visit", sp.now.bytes == 32 && sp.split.bytes < 17);
	fa_split__exit(&sp);
	planted_type__delete(t);

	t = planted_visits__new(longs__new(4), 32, 32, 60, true);
	T("type", t);
	T("split", !split__consider(t, &sp));
	T("not advised: the cold members are in the hot ones' visits",
	  sp.why == FA_SPLIT_NO_GAIN && sp.split.cost > sp.now.cost);
	fa_split__exit(&sp);
	planted_type__delete(t);

	/* aligned to a line by its programmer, each instance on its own: MPMCQueue's slots */
	st = longs__new(4);
	if (st) {
		st->size = 64;
		st->align = 64;
	}
	t = planted_visits__new(st, 32, 64, 1, true);
	T("type", t);
	T("split", !split__consider(t, &sp));
	T("not considered: packing its hot parts shares the lines its alignment keeps apart",
	  sp.why == FA_SPLIT_NOT_CONSIDERED);
	fa_split__exit(&sp);
	planted_type__delete(t);
	return TEST_OK;
}

static struct test_case tests__affinity_cost[] = {
	TEST_CASE("Fields accessed together on one line cost one line", affinity_cost_lines),
	TEST_CASE("A written field moves the line of the fields others read",
		  affinity_cost_transfers),
	TEST_CASE("The replay of the accesses sees the same transfers", affinity_cost_replay),
	TEST_CASE("The local search puts fields read together on one line", affinity_refine),
	TEST_CASE("Layouts keep what --keep and --keep-order name", affinity_keep),
	TEST_CASE("The smallest edit takes a written field from what others read",
		  affinity_edit_apart),
	TEST_CASE("No edit where nothing is saved", affinity_edit_none),
	TEST_CASE("A small struct in an array splits its hot members from the cold",
		  affinity_split_hot),
	{ .name = NULL, }
};

struct test_suite suite__affinity_cost = {
	.desc = "perf affinity: cost model and edits",
	.test_cases = tests__affinity_cost,
};
