// SPDX-License-Identifier: GPL-2.0
/*
 * Split and merge advice on planted access patterns: a small struct in an
 * array whose visits touch a hot half is split, one whose cold members the
 * same visits touch is not; parallel arrays the same code indexes by the
 * same register merge, arrays unrelated code accesses do not.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity-analysis.h"
#include "affinity-planted.h"
#include "affinity/accumulate/arrays.h"
#include "affinity/advice/merge.h"
#include "debug.h"
#include "tests.h"

#define NR_INST		32

/* Bytes between instances: an array of 32-byte structs, or heap objects */
static u64 stride = 32;

static struct fa_type *visits__new(struct fa_struct *st, int nr_inst, int cold, bool both)
{
	return planted_visits__new(st, nr_inst, stride, cold, both);
}

static void split__debug(const struct fa_split *s)
{
	pr_debug("split: why %s, hot %u cold %u bytes, cold share %.3f, cost %.3f %.3f %.3f\n",
		 fa_split_why__key(s->why), s->hot_size, s->cold_size, s->cold_share, s->now.cost,
		 s->unsplit.cost, s->split.cost);
}

static int test__affinity_split(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	struct fa_type *t = visits__new(longs__new(4), NR_INST, 1, true);
	struct fa_analysis a;

	T("type", t);
	T("analysis", !analysis__run(&a, t));
	split__debug(&a.advice.split);
	T("the split is advised", a.advice.kind == FA_ADVICE_SPLIT &&
	  a.advice.split.why == FA_SPLIT_ADVISED);
	T("f0 and f1 are hot", a.advice.split.hot[0] && a.advice.split.hot[1] &&
	  a.advice.split.nr_hot == 2);
	T("two structs of 16 bytes", a.advice.split.hot_size == 16 &&
	  a.advice.split.cold_size == 16);
	T("the cold members in 1% of the visits",
	  a.advice.split.cold_share > 0.005 && a.advice.split.cold_share < 0.02);
	T("half the bytes per visit", a.advice.split.now.bytes == 32 &&
	  a.advice.split.split.bytes < 17);
	T("no more lines per window",
	  a.advice.split.split.lines <= a.advice.split.now.lines * 1.05);
	T("the layout stays", !a.advice.changed &&
	  fa_layout__same(&a.advice.suggested, &a.seen.current));
	analysis__exit(&a, t);
	return TEST_OK;
}

static int test__affinity_split_hurts(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fa_type *t = visits__new(longs__new(4), NR_INST, 60, true);
	struct fa_analysis a;

	T("type", t);
	T("analysis", !analysis__run(&a, t));
	split__debug(&a.advice.split);
	T("a split was considered", a.advice.split.hot);
	T("and not advised: f2 and f3 are in the visits of f0 and f1",
	  a.advice.split.why == FA_SPLIT_NO_GAIN && a.advice.kind != FA_ADVICE_SPLIT);
	T("it would cost more than now", a.advice.split.split.cost > a.advice.split.now.cost);
	analysis__exit(&a, t);
	return TEST_OK;
}

static int test__affinity_split_one(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fa_type *t = visits__new(longs__new(4), 1, 1, true);
	struct fa_analysis a;

	T("type", t);
	T("analysis", !analysis__run(&a, t));
	T("no split of a struct seen in one instance",
	  a.advice.split.why == FA_SPLIT_NOT_CONSIDERED && a.advice.kind != FA_ADVICE_SPLIT);
	analysis__exit(&a, t);
	return TEST_OK;
}

static int test__affinity_split_heap(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_type *t;
	struct fa_analysis a;

	/* malloc(32) gives 48-byte chunks */
	stride = 48;
	t = visits__new(longs__new(4), NR_INST, 1, true);
	stride = 32;
	T("type", t);
	T("analysis", !analysis__run(&a, t));
	T("no split of instances that are not in an array",
	  a.advice.split.why == FA_SPLIT_NOT_CONSIDERED && a.advice.kind != FA_ADVICE_SPLIT);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* long f0, f1, f2; char data[1]: the header of variable length data */
static struct fa_struct *header__new(void)
{
	struct fa_struct *st = fa_struct__new("struct header", 32, 8);
	struct fa_field f = {
		.type = (char *)"long int", .size = 8, .align = 8, .parent = -1, .group = -1,
		.leaf = true, .suffix = (char *)"",
	};
	static const char * const names[] = { "f0", "f1", "f2", "data" };
	int err = 0;

	for (int i = 0; st && !err && i < 4; i++) {
		f.name = (char *)names[i];
		f.offset = i * 8;
		if (i == 3) {
			f.type = (char *)"char";
			f.size = 1;
			f.align = 1;
			f.kind = FA_FIELD_ARRAY;
			f.suffix = (char *)"[1]";
		}
		err = fa_struct__add_field(st, &f);
	}
	return planted__finish(st, err);
}

static int test__affinity_split_header(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_type *t = visits__new(header__new(), NR_INST, 1, true);
	struct fa_analysis a;

	T("type", t);
	T("analysis", !analysis__run(&a, t));
	T("no split of a struct that ends in an array of one element",
	  a.advice.split.why == FA_SPLIT_NOT_CONSIDERED && a.advice.kind != FA_ADVICE_SPLIT);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* An array of @nr elements of @size bytes at @start, accessed by @func indexing by @reg */
static struct fa_array *array__new(struct fa_arrays *as, const char *name, const char *type,
				   u32 size, s64 start, u32 func, int reg)
{
	struct fa_array_info ai = {
		.name = strdup(name), .elem_type = strdup(type), .elem_size = size,
		.elem_align = size, .nr_elems = 64,
	};
	struct fa_array *arr;

	if (!ai.name || !ai.elem_type) {
		free(ai.name);
		free(ai.elem_type);
		return NULL;
	}
	arr = fa_arrays__new(as, &ai, /*tls=*/true, start);
	for (u32 i = 0; arr && i < 64; i++) {
		for (u32 k = 0; k <= i % 4; k++)
			fa_array__access(arr, i, FA_OP_RMW);
	}
	if (arr)
		fa_array__func(arr, func, func == 1 ? "alloc" : "stats", 1000, reg, false);
	return arr;
}

static int test__affinity_merge(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	struct fa_arrays as = { .nr = 0, };
	struct fa_array *head = array__new(&as, "tiny_head", "void *", 8, -1024, 1, 5);
	struct fa_array *count = array__new(&as, "tiny_count", "unsigned int", 4, -512, 1, 5);
	struct fa_merge m;
	char name[64];

	T("arrays", head && count);
	T("merged", fa_merge__judge(&m, head, count, 64) == 1);
	fa_merge__name(&m, name, sizeof(name));
	pr_debug("merge %s: lines %.2f -> %.2f, cost %.1f -> %.1f\n", name, m.lines_now,
		 m.lines_merged, m.cost_now, m.cost_merged);
	T("named after both", !strcmp(name, "tiny_head_count"));
	T("one struct of 16 bytes", m.size == 16 && m.offset[1] == 8);
	T("two lines per visit, then one", m.lines_now == 2 && m.lines_merged == 1);
	T("by the function that indexes both", m.nr_funcs == 1 && m.both == 1000 &&
	  !m.one[0] && !m.one[1]);
	fa_arrays__exit(&as);
	return TEST_OK;
}

static int test__affinity_merge_unrelated(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	struct fa_arrays as = { .nr = 0, };
	struct fa_array *head = array__new(&as, "tiny_head", "void *", 8, -1024, 1, 5);
	struct fa_array *count = array__new(&as, "tiny_count", "unsigned int", 4, -512, 2, 5);
	struct fa_array *other = array__new(&as, "tiny_other", "unsigned int", 4, -256, 1, 6);
	struct fa_merge *merges;
	struct fa_merge m;

	T("arrays", head && count && other);
	T("not by unrelated functions", fa_merge__judge(&m, head, count, 64) == 0);
	T("not at different indexes", fa_merge__judge(&m, head, other, 64) == 0);
	T("no merge found", fa_merges__find(&as, 64, &merges) == 0);
	free(merges);
	fa_arrays__exit(&as);
	return TEST_OK;
}

static int test__affinity_merge_once(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_arrays as = { .nr = 0, };
	struct fa_merge *merges;
	int nr;

	T("arrays", array__new(&as, "a_head", "void *", 8, -1024, 1, 5) &&
	  array__new(&as, "a_count", "unsigned int", 4, -512, 1, 5) &&
	  array__new(&as, "a_flags", "unsigned int", 4, -256, 1, 5));
	nr = fa_merges__find(&as, 64, &merges);
	T("each array in one merge at most", nr == 1);
	free(merges);
	fa_arrays__exit(&as);
	return TEST_OK;
}

static int test__affinity_array_funcs(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fa_arrays as = { .nr = 0, };
	struct fa_array *arr = array__new(&as, "a", "int", 4, 0, 1, 5);

	T("array", arr);
	/* the functions' samples are known after the last sample: only their accesses before */
	for (u32 func = 2; func < 2 + FA_ARRAY_FUNCS; func++) {
		for (int k = 0; k < 5; k++)
			fa_array__func(arr, func, "busy", 0, FA_ARRAY_NO_INDEX, /*sampled=*/true);
	}
	fa_array__func(arr, 100, "once", 0, FA_ARRAY_NO_INDEX, /*sampled=*/true);
	T("a function sampled once does not push out one sampled 5 times",
	  !fa_array__find_func(arr, 100) && fa_array__find_func(arr, 2));
	fa_arrays__exit(&as);
	return TEST_OK;
}

/* A 16-byte load of 8-byte slots reads two of them; one past the end, none */
static int test__affinity_array_wide(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_arrays as = { .nr = 0, };
	struct fa_array *arr = array__new(&as, "slots", "long", 8, 0, 1, 5);
	u64 before;

	T("array", arr);
	before = arr->accesses;
	T("a 16-byte load at [2]", fa_array__access_bytes(arr, 16, 16, FA_OP_LOAD) == 2);
	T("reads [2] and [3]", arr->accesses == before + 2 &&
	  fa_array__count(arr, 2) == 4 && fa_array__count(arr, 3) == 5);
	T("a 32-byte load at [62] reads [62] and [63] only",
	  fa_array__access_bytes(arr, 62 * 8, 32, FA_OP_LOAD) == 62 &&
	  arr->accesses == before + 4);
	T("of no size: the element at the offset",
	  fa_array__access_bytes(arr, 8, 0, FA_OP_LOAD) == 1 && arr->accesses == before + 5);
	T("past the end: none", fa_array__access_bytes(arr, 64 * 8, 8, FA_OP_LOAD) < 0 &&
	  arr->accesses == before + 5);
	fa_arrays__exit(&as);
	return TEST_OK;
}

static struct test_case tests__affinity_splice[] = {
	TEST_CASE("A small struct in arrays with a hot half is split", affinity_split),
	TEST_CASE("No split where the visits touch hot and cold together", affinity_split_hurts),
	TEST_CASE("No split of a struct seen in one instance", affinity_split_one),
	TEST_CASE("No split of instances not in an array", affinity_split_heap),
	TEST_CASE("No split of a header of variable length data", affinity_split_header),
	TEST_CASE("Arrays one function indexes alike merge", affinity_merge),
	TEST_CASE("Arrays unrelated code accesses do not merge", affinity_merge_unrelated),
	TEST_CASE("An array is in one merge at most", affinity_merge_once),
	TEST_CASE("The functions of an array keep the most accessing", affinity_array_funcs),
	TEST_CASE("A wide access reads every element it covers", affinity_array_wide),
	{	.name = NULL, }
};

struct test_suite suite__affinity_splice = {
	.desc = "perf affinity: split and merge",
	.test_cases = tests__affinity_splice,
};
