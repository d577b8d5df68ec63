// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model of perf affinity on planted access patterns: the cache
 * lines a window touches and the transfers of lines between CPUs, under
 * the recorded layout and under one that moves a single field.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity-planted.h"
#include "affinity/advice/cost.h"
#include "affinity/layout/layout.h"
#include "debug.h"
#include "tests.h"

#define NR_LONGS	16	/* two cache lines */

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
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 1000; i++) {
		T("access", !planted_access(t, time++, 0, 0, FA_OP_LOAD));
		T("access", !planted_access(t, time++, 0, 8, FA_OP_LOAD));
	}
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
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 1000; i++) {
		T("access", !planted_access(t, time++, 0, 0, FA_OP_STORE));
		T("access", !planted_access(t, time++, 1, 1, FA_OP_LOAD));
	}
	T("cost", !cost__now_swapped(t, 1, 8, &now, &apart));
	pr_debug("transfers per 1k accesses: %.1f recorded, %.1f with f1 a line away\n",
		 now.xfers_per_kacc, apart.xfers_per_kacc);
	T("transfers as recorded", now.xfers_per_kacc > 100);
	T("none with f1 a line away", apart.xfers_per_kacc == 0);
	T("the cost follows", apart.total < now.total);
	planted_type__delete(t);
	return TEST_OK;
}

static struct test_case tests__affinity_cost[] = {
	TEST_CASE("Fields accessed together on one line cost one line", affinity_cost_lines),
	TEST_CASE("A written field moves the line of the fields others read",
		  affinity_cost_transfers),
	{ .name = NULL, }
};

struct test_suite suite__affinity_cost = {
	.desc = "perf affinity: cost model",
	.test_cases = tests__affinity_cost,
};
