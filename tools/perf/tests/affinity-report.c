// SPDX-License-Identifier: GPL-2.0
/* The tables of perf affinity report on planted access patterns. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity/attr/attr.h"
#include "affinity/attr/session.h"
#include "affinity/decode/decode.h"
#include "affinity/output/hists.h"
#include "affinity/output/memory.h"
#include "affinity/output/report.h"
#include "affinity-analysis.h"
#include "affinity-planted.h"
#include "debug.h"
#include "tests.h"

/* An access by @cpu to field 0 of the instance at @base */
static int instance_access(struct fa_type *t, u64 time, u32 cpu, u64 base)
{
	struct fa_sample s = {
		.time = time, .instance = base, .base = base, .weight = 1, .cpu = cpu,
		.owner = cpu, .tid = 100 + cpu, .field = 0, .op = FA_OP_LOAD,
	};

	return fa_type__add(t, &s);
}

/*
 * The per-CPU copies of a kernel variable, each at one offset into its
 * page, are aligned by their type (struct rq in runqueues): not by an
 * allocation, which a kmem_cache would be.  Nor are a C++ class's heap
 * instances: new gives an over-aligned class storage so aligned.
 */
static int test__affinity_per_cpu(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(8), *t2 = longs_type__new(8);
	struct fa_type_entry te = { .name = (char *)"struct longs", .t = t, .kernel = true, };
	struct fa_type_entry heap = te;
	struct fa_analysis a = { .seen.current = { .size = 64, .line_size = 64, }, };

	T("types", t && t2);
	heap.t = t2;
	for (int i = 0; i < 400; i++) {
		T("access", !instance_access(t, i, i % 4, 0xffff888000041040ULL + (i % 4) * 0x8000));
		T("access", !instance_access(t2, i, i % 4, 0xffff888000041040ULL + (i % 4) * 0x1040));
	}
	T("per-CPU copies", fa_type_entry__per_cpu(&te));
	T("aligned by the type", fa_type_entry__align_by(&te, &a) == FA_ALIGN_BY_TYPE);
	T("heap objects are not", !fa_type_entry__per_cpu(&heap));
	T("allocated aligned", fa_type_entry__align_by(&heap, &a) == FA_ALIGN_BY_ALLOC);
	/* the pt_regs at the top of kernel stacks: one offset into their pages too */
	te.nr_accounted = 400;
	te.nr_in_frames = 400;
	T("on stacks: not per-CPU copies", fa_type_entry__on_stacks(&te) &&
	  !fa_type_entry__per_cpu(&te));
	T("aligned by the type there", fa_type_entry__align_by(&te, &a) == FA_ALIGN_BY_TYPE);
	te.nr_in_frames = 99;
	T("a quarter of the accesses near the stack pointer, not less",
	  !fa_type_entry__on_stacks(&te) && fa_type_entry__per_cpu(&te));
	te.nr_in_frames = 0;
	te.kernel = false;
	T("not in user space", !fa_type_entry__per_cpu(&te));
	/* a C++ class: new and std::allocator align it as its type (C++17) */
	heap.kernel = false;
	heap.st = t2->st;
	t2->st->cxx = true;
	T("a C++ class on the heap: alignas on the class",
	  fa_type_entry__align_by(&heap, &a) == FA_ALIGN_BY_TYPE);
	/* and their structs: longs_type__new() made them */
	planted_type__delete(t);
	planted_type__delete(t2);
	return TEST_OK;
}

/*
 * The memory price of a layout is what its instances take where they
 * live: a malloc() chunk, a kmalloc() class, a variable, each per-CPU
 * copy; not the bytes the struct grows by
 */
static int test__affinity_memory_price(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_type *t = longs_type__new(8), *per_cpu = longs_type__new(8);
	struct fa_type_entry te = { .name = (char *)"struct longs", .t = t, };
	struct fa_layout now = { .size = 72, .align = 8, }, then = { .size = 80, .align = 8, };
	struct fa_mem_price p;

	T("types", t && per_cpu);
	T("malloc() chunks", fa_malloc__chunk(0) == 32 && fa_malloc__chunk(24) == 32 &&
	  fa_malloc__chunk(72) == 80 && fa_malloc__chunk(80) == 96 &&
	  fa_malloc__chunk(120) == 128);
	T("kmalloc() classes", fa_kmalloc__class(72, 8) == 96 && fa_kmalloc__class(96, 8) == 96 &&
	  fa_kmalloc__class(100, 8) == 128 && fa_kmalloc__class(129, 8) == 192 &&
	  fa_kmalloc__class(8192, 8) == 8192 && fa_kmalloc__class(8193, 8) == 16384);
	T("aligned: no 96 or 192", fa_kmalloc__class(72, 64) == 128 &&
	  fa_kmalloc__class(129, 128) == 256);
	for (int i = 0; i < 40; i++)
		T("access", !instance_access(t, i, i % 2, 0x7f0000001000ULL + (i % 2) * 0x1040));
	te.nr_inst_heap = 2;
	fa_mem_price__init(&p, &te, &now, &then);
	T("two heap objects: a chunk of 80 -> 96 each", p.home == FA_MEM_MALLOC &&
	  p.alloc_now == 80 && p.alloc_then == 96 && p.copies == 2 && p.total == 32);
	te.kernel = true;
	fa_mem_price__init(&p, &te, &now, &then);
	T("in the kernel: kmalloc-96 either way", p.home == FA_MEM_KMALLOC && p.total == 0 &&
	  !p.crosses);
	T("in a kmem_cache of its own: 56 -> 51 objects a 4 KiB slab",
	  p.slab_now.order == 0 && p.slab_now.objects == 56 && p.slab_then.objects == 51);
	then.size = 100;
	fa_mem_price__init(&p, &te, &now, &then);
	T("kmalloc-96 -> kmalloc-128 crosses a boundary", p.alloc_then == 128 && p.crosses);
	then.size = 80;
	te.nr_inst_heap = 0;
	te.nr_inst_data = 2;
	fa_mem_price__init(&p, &te, &now, &then);
	T("variables: the bytes they grow by", p.home == FA_MEM_VARS && p.total == 16 &&
	  !p.array_var);
	te.array_elems = 1024;
	strcpy(te.array_var, "table");
	fa_mem_price__init(&p, &te, &now, &then);
	T("elements of an array variable: every one", p.copies == 1024 && p.total == 8 * 1024 &&
	  p.array_var && !strcmp(p.array_var, "table"));
	te.array_elems = 0;
	/* the copies of a kernel per-CPU variable: at one offset into their pages */
	te.t = per_cpu;
	for (int i = 0; i < 40; i++)
		T("access", !instance_access(per_cpu, i, i % 2,
					     0xffff888000041040ULL + (i % 2) * 0x8000));
	fa_mem_price__init(&p, &te, &now, &then);
	T("per-CPU copies: once a possible CPU", p.home == FA_MEM_PER_CPU &&
	  p.copies == (u64)test_config.nr_cpus && p.total == 8 * test_config.nr_cpus);
	planted_type__delete(t);
	planted_type__delete(per_cpu);
	return TEST_OK;
}

/* SLUB's slab of a kmem_cache of its own: its order and objects */
static int test__affinity_slab_price(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_slab s;

	fa_slub__slab(&s, 64, 8, 4);
	T("64 bytes: 64 objects a page", s.order == 0 && s.objects == 64 && s.per_object == 64);
	fa_slub__slab(&s, 9792, 64, 4);
	T("a task_struct: 3 objects an order-3 slab", s.order == 3 && s.objects == 3 &&
	  s.per_object == 10922);
	fa_slub__slab(&s, 11000, 64, 4);
	T("11000 bytes: 2 objects an order-3 slab", s.order == 3 && s.objects == 2 &&
	  s.per_object == 16384);
	fa_slub__slab(&s, 60, 64, 4);
	T("aligned to 64: 64 objects a page", s.order == 0 && s.objects == 64);
	fa_slub__slab(&s, 40000, 8, 4);
	T("past an order-3 slab: the pages it needs", s.order == 4 && s.objects == 1);
	return TEST_OK;
}

static const char long_name[] = "has_srcline,hit,annotate_warned,auxtrace_warned,is_64_bit";

/* A struct of @n longs, the first with a long name: a bitfield unit's members */
static struct fa_struct *long_name__new(int n)
{
	struct fa_struct *st = longs__new(n);
	char *name = strdup(long_name);

	if (!st || !name) {
		free(name);
		fa_struct__delete(st);
		return NULL;
	}
	free(st->fields[0].name);
	st->fields[0].name = name;
	return st;
}

/* @fh as the stdio report prints it, in a buffer to free */
static char *table_text(struct fa_hists *fh)
{
	char *buf = NULL;
	size_t size;
	FILE *fp = open_memstream(&buf, &size);

	if (!fp)
		return NULL;
	fa_hists__fprintf(fh, fp);
	fclose(fp);
	pr_debug("%s", buf);
	return buf;
}

/*
 * The field table: made once, in offset order, a long name cut and never
 * printed whole, a field below --percent-limit hidden
 */
static int test__affinity_field_table(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fa_report_opts opts = { .percent_limit = 1, };
	struct fa_struct *st = long_name__new(3);
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	struct fa_type_entry te = { .name = (char *)"struct longs", .st = st, .t = t, };
	struct fa_hist_entry fe = { .te = &te, .field = -1, }, *field;
	int last = -1, nr = 0;
	struct fa_analysis a;
	struct fa_hists *fh;
	char *buf;

	T("type", t);
	/* f0 and f1 half of the accesses each, f2 one in 401: below 1% */
	for (int i = 0; i < 400; i++)
		T("access", !planted_access(t, i, 0, i % 2, FA_OP_LOAD));
	T("access", !planted_access(t, 400, 0, 2, FA_OP_LOAD));
	T("analysis", !analysis__run(&a, t));
	fe.an = &a;
	fh = fa_hists__fields(&fe, &opts);
	T("the table, made once", fh && fa_hists__fields(&fe, &opts) == fh);
	fa_hists__for_each_entry(fh, field) {
		T("in offset order", field->field > last);
		last = field->field;
		nr++;
	}
	T("f2 below --percent-limit", nr == 2 && last == 1 && fh->nr_hidden == 1);
	buf = table_text(fh);
	T("printed", buf);
	T("the name is cut", strstr(buf, "has_srcline,hit,annotate_warned,auxtra.. "));
	T("nowhere whole", !strstr(buf, long_name));
	T("f2 not printed", strstr(buf, "f1 ") && !strstr(buf, "f2 "));
	free(buf);
	fa_hists__exit(fh);
	free(fh);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* A long name is cut in the field and pair tables, once */
static int test__affinity_long_names(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_report_opts opts = { .top_pairs = 10, };
	struct fa_struct *st = long_name__new(2);
	struct fa_type *t = NULL;
	struct fa_type_entry te = { .name = (char *)"struct longs", };
	struct fa_hist_entry fe = { .te = &te, .field = -1, };
	struct fa_analysis a;
	char *buf = NULL;
	size_t size;
	FILE *fp;

	T("struct", st);
	t = fa_type__new(st, &test_config);
	T("type", t);
	for (int i = 0; i < 400; i++)
		planted_access(t, i, 0, i % 2, FA_OP_LOAD);
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
 * A struct that grows grows in every struct embedding an array of it: the
 * advice says by how much, for the largest such array
 */
static int test__affinity_embedder(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(2);
	struct fa_struct *outer = fa_struct__new("struct outer", 8 + 16 * 32, 8);
	struct fa_field head = {
		.name = (char *)"head", .type = (char *)"long int", .size = 8, .align = 8,
		.parent = -1, .group = -1, .leaf = true,
	};
	struct fa_field few = {
		.name = (char *)"few", .type = (char *)"struct longs", .suffix = (char *)"[4]",
		.offset = 8, .size = 16 * 4, .align = 8, .parent = -1, .group = -1,
		.kind = FA_FIELD_ARRAY, .leaf = true,
	};
	struct fa_field many = few;
	struct fa_type_entry te = { .name = (char *)"struct longs", .st = st, };
	struct fa_type_entry to = { .name = (char *)"struct outer", };
	struct fa_type_entry *types[] = { &te, &to, };
	const struct fa_type_entry *found = NULL;
	int f;

	many.name = (char *)"many";
	many.suffix = (char *)"[28]";
	many.offset = 8 + 16 * 4;
	many.size = 16 * 28;
	T("structs", st && outer && !fa_struct__add_field(outer, &head) &&
	  !fa_struct__add_field(outer, &few) && !fa_struct__add_field(outer, &many));
	outer = planted__finish(outer, 0);
	to.st = outer;
	T("finished", outer);
	f = fa_types__embedder(types, 2, &te, &found);
	T("the largest array", f >= 0 && found == &to && !strcmp(outer->fields[f].name, "many"));
	T("nothing embeds the outer struct", fa_types__embedder(types, 2, &to, &found) < 0);
	fa_struct__delete(outer);
	fa_struct__delete(st);
	return TEST_OK;
}

#ifdef HAVE_DWARF_SUPPORT
/* Whether the reason fa_report__why() gives begins with @start (NULL: none given) */
static bool why__is(const struct fa_decoder *dec, const struct fa_attr *a, const char *start)
{
	char buf[256];
	int len = fa_report__why(dec, a, "ip,sp", buf, sizeof(buf));

	pr_debug("why: '%s'\n", len ? buf : "");
	return start ? len > 0 && !strncmp(buf, start, strlen(start)) : len == 0;
}

/* The counts of 1000 samples that gave 10 accesses, none attributed */
static void why__reset(struct fa_decoder *dec, struct fa_attr *a)
{
	memset(&dec->stats, 0, sizeof(dec->stats));
	memset(&a->stats, 0, sizeof(a->stats));
	dec->stats.samples[FA_SRC_SW] = 1000;
	a->stats.accesses = 10;
}

static int why__check(struct fa_decoder *dec, struct fa_attr *a)
{
	char want[128];

	why__reset(dec, a);
	dec->stats.dropped[FA_DROP_NO_REGS] = 990;
	T("samples without registers", why__is(dec, a, "the samples have no registers"));
	dec->stats.dropped[FA_DROP_NO_REGS] = 0;
	dec->stats.dropped[FA_DROP_NO_REG] = 990;
	T("without the registers the addresses need, and which they have",
	  why__is(dec, a, "the samples lack the registers the addresses need (sampled: ip,sp)"));
	why__reset(dec, a);
	a->stats.failed[FA_ATTR_NO_DBGINFO] = 900;
	T("code without debug info", why__is(dec, a, "no debug info for the hot DSOs"));
	a->stats.resolved = 500;
	T("none when more than 1 in 100 were attributed", why__is(dec, a, NULL));
	why__reset(dec, a);
	a->stats.accesses = 0;
	dec->stats.dropped[FA_DROP_NO_MEM] = 1000;
	T("no memory access at all", why__is(dec, a, "no sample gave a memory access: most"));
	why__reset(dec, a);
	a->stats.failed[FA_ATTR_PADDING] = 10;
	scnprintf(want, sizeof(want), "10 of 10 accesses not attributed: most '%s'",
		  fa_attr_fail__name(FA_ATTR_PADDING));
	T("none a user can act on: the counts, as --stats says them", why__is(dec, a, want));
	return TEST_OK;
}
#endif

/*
 * Why nothing was attributed, in the words of the one reason for most
 * samples, and nothing when enough were
 */
static int test__affinity_why(struct test_suite *test __maybe_unused,
			      int subtest __maybe_unused)
{
#ifdef HAVE_DWARF_SUPPORT
	struct fa_config cfg = { .line_size = 64, .xfer_ns = 1000000, };
	struct fa_decoder dec;
	struct fa_session s;
	struct fa_attr a;
	int ret = TEST_FAIL;

	if (fa_session__init(&s, &cfg, NULL))
		goto out_session;
	if (fa_attr__init(&a, &s))
		goto out_attr;
	if (!fa_decoder__init(&dec, NULL, NULL))
		ret = why__check(&dec, &a);
	fa_decoder__exit(&dec);
out_attr:
	fa_attr__exit(&a);
out_session:
	fa_session__exit(&s);
	return ret;
#else
	return TEST_SKIP;
#endif
}

/* -F picks the columns of a table and --sort its order; a sort key -F lacks is shown too */
static int test__affinity_table_keys(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_report_opts opts = { .fields = "name", .sort_keys = "loads", };
	struct fa_type *t = longs_type__new(2);
	struct fa_type_entry te = { .name = (char *)"struct longs", .t = t, };
	struct fa_hist_entry fe = { .te = &te, .field = -1, }, *first;
	struct fa_analysis a;
	struct fa_hists *fh;
	char *buf;

	T("type", t);
	te.st = t->st;
	/* f1 three times as often as f0 */
	for (int i = 0; i < 400; i++)
		T("access", !planted_access(t, i, 0, i % 4 != 0, FA_OP_LOAD));
	T("analysis", !analysis__run(&a, t));
	fe.an = &a;
	fh = fa_hists__fields(&fe, &opts);
	T("table", fh);
	first = fa_hists__next(fh, NULL);
	T("the most loaded first", first && first->field == 1 &&
	  fa_hists__next(fh, first) && fa_hists__next(fh, first)->field == 0);
	buf = table_text(fh);
	T("printed", buf);
	T("-F's column and --sort's", strstr(buf, "Field") && strstr(buf, "Loads"));
	T("no other", !strstr(buf, "Off") && !strstr(buf, "Class"));
	fa_hists__exit(fh);
	free(fh);
	free(buf);
	analysis__exit(&a, t);
	T("keys of either table", !fa_hists__check_keys("-F", "name,gain,class"));
	T("no other key", fa_hists__check_keys("--sort", "name,bogus") == -EINVAL);
	return TEST_OK;
}

static struct test_case tests__affinity_report[] = {
	TEST_CASE("A struct embedded in an array of another", affinity_embedder),
	TEST_CASE("Per-CPU copies of a kernel variable are aligned by their type", affinity_per_cpu),
	TEST_CASE("A layout's memory price is where its instances live", affinity_memory_price),
	TEST_CASE("A slab of its own is priced as SLUB sizes it", affinity_slab_price),
	TEST_CASE("The field table", affinity_field_table),
	TEST_CASE("-F and --sort", affinity_table_keys),
	TEST_CASE("perf affinity report cuts long field names in its tables",
		  affinity_long_names),
	TEST_CASE("Why nothing was attributed, in one reason", affinity_why),
	{	.name = NULL, }
};

struct test_suite suite__affinity_report = {
	.desc = "perf affinity: report tables",
	.test_cases = tests__affinity_report,
};
