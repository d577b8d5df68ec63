// SPDX-License-Identifier: GPL-2.0
/*
 * The perf affinity engine on planted access patterns, without perf.data:
 * co-access, windows per scope, classes, clustering under constraints,
 * layouts, the cost of layouts, and printing them as pahole does.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include "affinity/access.h"
#include "affinity/analyze.h"
#include "affinity/attr.h"
#include "affinity/fields.h"
#include "affinity/hists.h"
#include "affinity/json.h"
#include "affinity/report.h"
#include "affinity/type.h"
#include "debug.h"
#include "tests.h"

#define T(text, cond) TEST_ASSERT_VAL(text, cond)
#define BASE	0x10000ULL

static const struct fa_config test_config = {
	.line_size = 64, .nr_cpus = 4, .scope = FA_SCOPE_CPU, .window = 4,
	.xfer_ns = 1000000, .replay_max = 1 << 16,
};

/* A flat struct of @n longs named f0, f1, ... */
static struct fa_struct *longs__new(int n)
{
	struct fa_struct *st = fa_struct__new("struct longs", n * 8, 8);
	char name[16];

	for (int i = 0; st && i < n; i++) {
		struct fa_field f = {
			.name = name, .type = (char *)"long int", .offset = i * 8, .size = 8,
			.align = 8, .parent = -1, .group = -1, .leaf = true,
		};

		snprintf(name, sizeof(name), "f%d", i);
		if (fa_struct__add_field(st, &f)) {
			fa_struct__delete(st);
			return NULL;
		}
	}
	if (st && fa_struct__finish(st)) {
		fa_struct__delete(st);
		return NULL;
	}
	return st;
}

static int access(struct fa_type *t, u64 time, u32 cpu, int field, u8 op)
{
	struct fa_sample s = {
		.time = time, .instance = BASE, .base = BASE, .weight = 1, .cpu = cpu, .owner = cpu,
		.tid = 100 + cpu, .field = field, .op = op,
	};

	return fa_type__add(t, &s);
}

/* A struct of @n longs and its accesses, under test_config */
static struct fa_type *longs_type__new(int n)
{
	struct fa_struct *st = longs__new(n);
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;

	if (!t)
		fa_struct__delete(st);
	return t;
}

static int analysis__run(struct fa_analysis *a, struct fa_type *t)
{
	fa_type__flush(t);
	return fa_analysis__run(a, t, FA_METHOD_WINDOW, FA_XFER_COST);
}

/* The end of a test that analyzed @t: @t and its struct go too */
static void analysis__exit(struct fa_analysis *a, struct fa_type *t)
{
	struct fa_struct *st = t->st;

	fa_analysis__exit(a);
	fa_type__delete(t);
	fa_struct__delete(st);
}

static int test__affinity_planted_pairs(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct fa_config cfg = test_config;
	struct fa_struct *st = longs__new(16);
	struct fa_type *t;
	struct fa_cell *cells;
	u64 time = 0;
	int n;

	/* accesses within 10 ns are together; bursts are 1000 ns apart */
	cfg.window_ns = 10;
	t = st ? fa_type__new(st, &cfg) : NULL;
	T("type", t);
	/* f3 and f11 always together, f5 and f6 too; random pairs as noise */
	srand(1);
	for (int round = 0; round < 500; round++) {
		access(t, time, 0, 3, FA_OP_LOAD);
		access(t, time + 1, 0, 11, FA_OP_LOAD);
		access(t, time + 1000, 0, 5, FA_OP_LOAD);
		access(t, time + 1001, 0, 6, FA_OP_LOAD);
		access(t, time + 2000, 0, rand() % 16, FA_OP_LOAD);
		access(t, time + 2001, 0, rand() % 16, FA_OP_LOAD);
		access(t, time + 2002, 0, rand() % 16, FA_OP_LOAD);
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
	fa_type__delete(t);
	fa_struct__delete(st);
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
			access(t, time++, 0, 0, FA_OP_LOAD);
			access(t, time++, 1, 1, FA_OP_LOAD);
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
			access(t, time++, 0, 0, FA_OP_RMW);
			access(t, time++, 1, f, FA_OP_LOAD);
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
	T("the lock is shared-written", a.classes.field_cls[0] == FA_CLASS_SHARED_WRITTEN);
	T("its readers read-mostly", a.classes.field_cls[1] == FA_CLASS_READ_MOSTLY);
	T("f4 is cold", a.classes.field_cls[4] == FA_CLASS_COLD);
	T("false sharing seen", fa_matrix__get(&t->xfer.fs, 0, 1) > 0);
	lock_line = fa_layout__line(&a.suggested, st, 0);
	for (int f = 1; f <= 3; f++)
		T("the lock is on another line than its readers",
		  fa_layout__line(&a.suggested, st, f) != lock_line);
	T("the readers share a line", fa_layout__line(&a.suggested, st, 1) ==
	  fa_layout__line(&a.suggested, st, 3));
	T("the struct becomes cache line aligned", a.suggested.align == 64);
	T("C for user space aligns with GCC's attribute",
	  layout_c__has(&a.suggested, st, &a.classes, false, "} __attribute__((aligned(64)));") &&
	  !layout_c__has(&a.suggested, st, &a.classes, false, "____cacheline_aligned"));
	T("C for the kernel with its macro",
	  layout_c__has(&a.suggested, st, &a.classes, true, "} ____cacheline_aligned;"));
	pr_debug("model: %.2f -> %.2f, replay transfers/window %.3f -> %.3f\n",
		 a.model[0].total, a.model[1].total, a.replay[0].xfers_per_window,
		 a.replay[1].xfers_per_window);
	T("the model predicts a gain", a.model[1].total < a.model[0].total);
	T("so does the replay", a.replay[1].xfers_per_window < a.replay[0].xfers_per_window);
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
		access(t, time++, i % 2, f, op);
	}
	T("analysis", !analysis__run(&a, t));
	T("f1 is shared-written", a.classes.field_cls[1] == FA_CLASS_SHARED_WRITTEN);
	T("f0 and f1 stay together",
	  fa_layout__line(&a.suggested, t->st, 0) == fa_layout__line(&a.suggested, t->st, 1));
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
		access(t, time++, 0, order[i % ARRAY_SIZE(order)], FA_OP_LOAD);
	T("analysis", !analysis__run(&a, t));
	pr_debug("cost %.3f -> %.3f\n", a.model[0].total, a.model[1].total);
	T("the current layout is kept", !a.changed && a.kept);
	T("and no gain is claimed", fa_analysis__gain(&a) == 0);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* A long name (a bitfield unit's members) is cut in the tables, once */
static int test__affinity_long_names(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	static const char long_name[] = "has_srcline,hit,annotate_warned,auxtrace_warned,is_64_bit";
	struct fa_report_opts opts = { .top_pairs = 10, };
	struct fa_struct *st = longs__new(2);
	struct fa_type *t = NULL;
	struct fa_type_entry te = { .name = (char *)"struct longs", };
	struct fa_hist_entry fe = { .te = &te, .field = -1, };
	struct fa_analysis a;
	char *buf = NULL;
	size_t size;
	FILE *fp;

	T("struct", st);
	free(st->fields[0].name);
	st->fields[0].name = strdup(long_name);
	T("name", st->fields[0].name);
	t = fa_type__new(st, &test_config);
	T("type", t);
	for (int i = 0; i < 400; i++)
		access(t, i, 0, i % 2, FA_OP_LOAD);
	T("analysis", !analysis__run(&a, t));
	te.st = st;
	te.t = t;
	fe.an = &a;
	fp = open_memstream(&buf, &size);
	T("memstream", fp);
	fa_report__section(fp, FA_REPORT_FIELDS, &fe, &opts);
	fa_report__section(fp, FA_REPORT_PAIRS, &fe, &opts);
	fclose(fp);
	if (fe.fields) {
		fa_hists__exit(fe.fields);
		free(fe.fields);
	}
	pr_debug("%s", buf);
	T("the name is cut", strstr(buf, "has_srcline,hit,annotate_warned,auxtra.. "));
	T("in both tables", strstr(strstr(buf, "auxtra.. ") + 1, "auxtra.. "));
	T("nowhere whole", !strstr(buf, long_name));
	free(buf);
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
	T("the lock is write-hot", a.classes.field_cls[0] == FA_CLASS_WRITE_HOT);
	for (int f = 1; f <= 3; f++)
		T("the lock may share a line with f1-f3",
		  !fa_classes__conflict(&a.classes, t->st->fields[0].unit, t->st->fields[f].unit));
	T("no padding suggested", a.suggested.size <= t->st->size);
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
		access(t, time += 1000000, 0, 0, FA_OP_STORE);
		access(t, time += 1000000, 1, 1 + i % 3, FA_OP_LOAD);
		if (i < 40)
			access(t, time += 1000000, i % 2, 10, FA_OP_LOAD);
	}
	T("code", !fa_type__add_code_access(t, 10, false, 200, &cpus) &&
	  !fa_type__add_code_access(t, 10, true, 200, &cpus));
	T("code", !fa_type__add_code_access(t, 0, true, 200, &cpu0) &&
	  !fa_type__add_code_access(t, 9, true, 200, &cpu0));
	for (int f = 1; f <= 3; f++)
		T("code", !fa_type__add_code_access(t, f, false, 200, &cpu1));
	T("code", !fa_type__add_code_access(t, 8, false, 200, &cpu1));
	T("analysis", !analysis__run(&a, t));
	T("f8 is read, by the code", a.classes.field_cls[8] == FA_CLASS_READ_MOSTLY);
	T("f9 is written, by the code", a.classes.field_cls[9] == FA_CLASS_WRITE_HOT);
	T("f8 is read on CPU 1", test_bit(1, a.classes.fields[8].readers));
	T("f8 is not on the lock's line",
	  fa_layout__line(&a.suggested, t->st, 8) != fa_layout__line(&a.suggested, t->st, 0));
	T("f9 is not on the readers' line",
	  fa_layout__line(&a.suggested, t->st, 9) != fa_layout__line(&a.suggested, t->st, 1));
	T("f10 is written on both CPUs, by the code",
	  a.classes.field_cls[10] == FA_CLASS_SHARED_WRITTEN);
	T("f10 is not on the readers' line",
	  fa_layout__line(&a.suggested, t->st, 10) != fa_layout__line(&a.suggested, t->st, 1));
	analysis__exit(&a, t);
	return TEST_OK;
}

static int add_fields(struct fa_struct *st, const struct fa_field *f, int n)
{
	for (int i = 0; i < n; i++) {
		if (fa_struct__add_field(st, &f[i]))
			return -1;
	}
	return fa_struct__finish(st);
}

/* long a; unsigned x:3, y:5; union { int i; char c[4]; } u; long b; long c; */
static struct fa_struct *blocks__new(void)
{
	static const struct fa_field f[] = {
		{ .name = (char *)"a", .type = (char *)"long int", .offset = 0, .size = 8,
		  .align = 8, .parent = -1, .group = -1, .leaf = true, },
		{ .name = (char *)"x", .type = (char *)"unsigned int", .offset = 8, .size = 4,
		  .align = 4, .parent = -1, .group = -1, .kind = FA_FIELD_BITFIELD,
		  .bit_size = 3, },
		{ .name = (char *)"y", .type = (char *)"unsigned int", .offset = 8, .size = 4,
		  .align = 4, .parent = -1, .group = -1, .kind = FA_FIELD_BITFIELD,
		  .bit_offset = 3, .bit_size = 5, },
		{ .name = (char *)"u", .type = (char *)"union {...}", .offset = 12, .size = 4,
		  .align = 4, .parent = -1, .group = -1, .kind = FA_FIELD_UNION, .leaf = true, },
		{ .name = (char *)"b", .type = (char *)"long int", .offset = 16, .size = 8,
		  .align = 8, .parent = -1, .group = -1, .leaf = true, },
		{ .name = (char *)"c", .type = (char *)"long int", .offset = 24, .size = 8,
		  .align = 8, .parent = -1, .group = -1, .leaf = true, },
	};
	struct fa_struct *st = fa_struct__new("struct blocks", 32, 8);

	if (st && add_fields(st, f, ARRAY_SIZE(f))) {
		fa_struct__delete(st);
		return NULL;
	}
	return st;
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
		access(t, time++, 0, group, FA_OP_RMW);
		access(t, time++, 0, 5, FA_OP_LOAD);
		access(t, time++, 1, 3, FA_OP_LOAD);
		access(t, time++, 1, 0, FA_OP_LOAD);
	}
	T("analysis", !analysis__run(&a, t));
	T("x and y stay in one storage unit",
	  fa_layout__field_offset(&a.suggested, st, 1) ==
	  fa_layout__field_offset(&a.suggested, st, 2));
	T("the union is one block", a.suggested.offset[st->fields[3].unit] % 4 == 0);
	for (int u = 0; u < st->nr_units; u++) {
		T("units stay aligned", a.suggested.offset[u] % st->units[u].align == 0);
		for (int v = 0; v < st->nr_units; v++) {
			bool overlap = u != v &&
				a.suggested.offset[u] < a.suggested.offset[v] + st->units[v].size &&
				a.suggested.offset[v] < a.suggested.offset[u] + st->units[u].size;

			T("units do not overlap", !overlap);
		}
	}
	analysis__exit(&a, t);
	return TEST_OK;
}

static const char blocks_pahole[] =
"struct blocks {\n"
"\tlong int                   a;                    /*     0     8 */\n"
"\tunsigned int               x:3;                  /*     8: 0  4 */\n"
"\tunsigned int               y:5;                  /*     8: 3  4 */\n"
"\n"
"\t/* XXX 24 bits hole, try to pack */\n"
"\n"
"\tunion {...}                u;                    /*    12     4 */\n"
"\tlong int                   b;                    /*    16     8 */\n"
"\tlong int                   c;                    /*    24     8 */\n"
"\n"
"\t/* size: 32, cachelines: 1, members: 6 */\n"
"\t/* sum bitfield members: 8 bits, bit holes: 1, sum bit holes: 24 bits */\n"
"\t/* last cacheline: 32 bytes */\n"
"};\n";

static int test__affinity_pahole_format(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct fa_struct *st = blocks__new();
	struct fa_layout l;
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	T("struct", st && fp);
	T("layout", !fa_layout__current(&l, st, 64));
	fa_layout__fprintf(&l, st, fp);
	fclose(fp);
	pr_debug("%s", buf);
	T("pahole's format", !strcmp(buf, blocks_pahole));
	free(buf);
	fa_layout__exit(&l);
	fa_struct__delete(st);
	return TEST_OK;
}

/*
 * The walk the pahole printer, --emit-c and the JSON share: members in
 * offset order, the bit hole of a storage unit before the member after it
 */
static int test__affinity_layout_walk(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	static const char * const names[] = { "a", "x", "y", "u", "b", "c" };
	struct fa_struct *st = blocks__new();
	struct fa_layout_walk w;
	struct fa_layout l;
	int n = 0;

	T("struct", st);
	T("layout", !fa_layout__current(&l, st, 64));
	fa_layout_walk__init(&w, &l, st);
	while (fa_layout_walk__next(&w)) {
		const char *name = st->fields[w.field].name;

		T("a member too many", n < (int)ARRAY_SIZE(names));
		pr_debug("%s at %u: hole %u, bit hole %u\n", name, w.offset, w.hole, w.bit_hole);
		T("members in offset order", !strcmp(name, names[n]));
		T("no byte hole", w.hole == 0);
		T("y in x's storage unit", w.same_bit_unit == (n == 2));
		T("24 bits unused before u", w.bit_hole == (n == 3 ? 24 : 0));
		T("first of its unit", w.first == (n != 2));
		n++;
	}
	T("every member", n == (int)ARRAY_SIZE(names));
	T("no bit hole at the end", fa_layout_walk__end_bits(&w) == 0);
	T("the members end with the struct", w.end == 32);
	fa_layout__exit(&l);
	fa_struct__delete(st);
	return TEST_OK;
}

/* Quotes, controls, bytes that are no UTF-8 (a lone 0xff, an overlong 0xe0 0x80 0x80) */
static const char json_input[] = "q\"b\\\n\t\x01\xff\xc3\xa9\xe0\x80\x80";

static const char json_expected[] =
"{\n"
"  \"s\": \"q\\\"b\\\\\\n\\t\\u0001\\ufffd\xc3\xa9\\ufffd\\ufffd\\ufffd\",\n"
"  \"nan\": null,\n"
"  \"inf\": null,\n"
"  \"x\": 0.5,\n"
"  \"a\": [-1, 18446744073709551615, null, true, {\"k\": []}],\n"
"  \"null\": null,\n"
"  \"empty\": []\n"
"}\n";

static int test__affinity_json_valid(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	T("memstream", fp);
	fa_json__init(&j, fp);
	fa_json__begin_object(&j, NULL, /*flat=*/false);
	fa_json__string(&j, "s", json_input);
	fa_json__double(&j, "nan", NAN);
	fa_json__double(&j, "inf", -INFINITY);
	fa_json__double(&j, "x", 0.5);
	fa_json__begin_array(&j, "a", /*flat=*/true);
	fa_json__int(&j, NULL, -1);
	fa_json__u64(&j, NULL, UINT64_MAX);
	fa_json__null(&j, NULL);
	fa_json__bool(&j, NULL, true);
	fa_json__begin_object(&j, NULL, /*flat=*/false);
	fa_json__begin_array(&j, "k", /*flat=*/false);
	fa_json__end_array(&j);
	fa_json__end_object(&j);
	fa_json__end_array(&j);
	fa_json__string(&j, "null", NULL);
	fa_json__begin_array(&j, "empty", /*flat=*/false);
	fa_json__end_array(&j);
	fa_json__end_object(&j);
	fclose(fp);
	pr_debug("%s", buf);
	T("escaped, NaN and infinity null, nested", !strcmp(buf, json_expected));
	T("bytes counted", j.printed == size);
	free(buf);
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
		if (access(t, 2 * i, 0, 0, FA_OP_RMW) ||
		    access(t, 2 * i + 1, reader, 1 + i % 3, FA_OP_LOAD))
			goto out_err;
	}
	if (analysis__run(&a, t))
		goto out_err;
	*xfers = a.replay[0].xfers_per_kacc;
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
	struct fa_struct *st;

	power.mem_remote = 1;
	power.mem_hops = 0;
	T("type", t);
	for (size_t i = 0; i < ARRAY_SIZE(dsrc); i++) {
		struct fa_sample s = {
			.time = i, .instance = BASE, .base = BASE, .weight = 1, .cpu = i % 2, .owner = i % 2,
			.tid = 100 + i % 2, .field = 0,
			.op = dsrc[i] & PERF_MEM_S(OP, STORE) ? FA_OP_STORE : FA_OP_LOAD,
			.data_src = dsrc[i] ?: power.val,
		};

		T("add", !fa_type__add(t, &s));
	}
	pr_debug("HITM: field %" PRIu64 ", type %" PRIu64 "\n", t->counts.stats[0].hitm, t->counts.hitm);
	T("local, remote and POWER's remote HITMs", t->counts.stats[0].hitm == 3 && t->counts.hitm == 3);
	st = t->st;
	fa_type__delete(t);
	fa_struct__delete(st);
	return TEST_OK;
}

static struct test_case tests__affinity_engine[] = {
	TEST_CASE("Planted co-access pairs come out on top", affinity_planted_pairs),
	TEST_CASE("Per CPU windows never pair accesses of two CPUs", affinity_window_scope),
	TEST_CASE("A field written on one CPU is isolated from its readers",
		  affinity_isolate_writer),
	TEST_CASE("Fields seen only in the sampled code keep their CPUs and class",
		  affinity_code_classes),
	TEST_CASE("One thread on two CPUs shares no cache line", affinity_one_thread),
	TEST_CASE("Fields written on several CPUs stay together", affinity_written_together),
	TEST_CASE("A layout that saves nothing is not suggested", affinity_no_churn),
	TEST_CASE("Long field names are cut in the tables", affinity_long_names),
	TEST_CASE("Bitfields and unions move as blocks", affinity_blocks_stay),
	TEST_CASE("Layouts print in pahole's format", affinity_pahole_format),
	TEST_CASE("JSON is valid whatever the strings and numbers", affinity_json_valid),
	TEST_CASE("The replay tells CPU 64 from CPU 0", affinity_many_cpus),
	TEST_CASE("The members of a layout and their holes, in offset order", affinity_layout_walk),
	TEST_CASE("HITMs are counted as perf c2c counts them", affinity_hitm),
	{	.name = NULL, }
};

struct test_suite suite__affinity_engine = {
	.desc = "perf affinity: engine",
	.test_cases = tests__affinity_engine,
};
