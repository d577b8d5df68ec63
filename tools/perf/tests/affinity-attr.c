// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of perf affinity's attribution on planted accesses: the data
 * lines threads share, typed or not, the thread-local variables of an
 * executable (this test's own, in perf's DWARF), the accesses that wait
 * for their instance, and the types a session wants.
 */
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "affinity/accumulate/type.h"
#include "affinity/attr/attr.h"
#include "affinity/attr/dlines.h"
#include "affinity/attr/pending.h"
#include "affinity/fields/fields.h"
#include "affinity/attr/session.h"
#include "affinity/attr/tls.h"
#include "affinity/accumulate/boot.h"
#include "debug.h"
#include "debuginfo.h"
#include "tests.h"
#include "util.h"

#define T(text, cond) TEST_ASSERT_VAL(text, cond)

/* @n rounds of: owner 1 on CPU 0 and owner 2 on CPU 1 each write @size bytes at @off[i] */
static int dlines__plant(struct fa_dlines *dl, const u32 *off, u16 size, int n, bool migrate)
{
	struct fa_dl_access acc = { .space = 7, .size = size, .store = true,
				    .what = { .type = "int", }, };
	struct fa_dl_owner *owner;
	u64 time = 0;
	bool shared;

	for (int i = 0; i < n; i++) {
		for (u32 o = 0; o < 2; o++) {
			acc.addr = 0x1000 + off[o];
			acc.owner = o + 1;
			/* a migrating owner 1 changes CPU every round */
			acc.cpu = migrate && !o ? 2U + (i & 1) : o;
			acc.time = time += 100;
			fa_dlines__add(dl, &acc, &shared, &owner);
			/* one instruction of one function for both */
			if (owner && !owner->code.sym)
				owner->code = (struct fa_dl_code){ .dso = dl, .sym = "count", };
		}
	}
	return dl->nr_shared;
}

/* Whether the saving of a line per owner on @l is sure */
static bool dline__sure(const struct fa_dline *l)
{
	struct fa_interval ci;
	int nr;

	return fa_dline__saving(l, &ci, &nr);
}

/* Lines threads share: false sharing, true sharing, one thread on two CPUs */
static int test__affinity_data_lines(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	static const u32 apart[] = { 0, 4 }, same[] = { 8, 8 };
	struct fa_dlines dl;
	struct fa_dline *l;
	bool shared;

	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	T("one shared line", dlines__plant(&dl, apart, 4, 100, false) == 1);
	l = dl.shared[0];
	T("contended", fa_dline__contended(l) && l->nr_owners == 2);
	T("false sharing", fa_dline__false_sharing(l));
	/* counted from the second owner's first write on */
	T("a transfer per write after that", l->xfers == 198);
	T("none with a line per owner", l->xfers_apart == 0);
	T("one instruction, 4 bytes apart", fa_dline__stride(l, 64) == 4);
	T("pad the stride", fa_dline__advice(l, 64) == FA_DL_ADV_STRIDE);
	T("surely", dline__sure(l));
	/* fields of one type: its analysis weighs them; of two, no type's does */
	l->owners[0].what = (struct fa_dl_what){ .type = "struct a", .field = "x", };
	l->owners[1].what = (struct fa_dl_what){ .type = "struct a", .field = "y", };
	T("fields of one type: the type's advice", fa_dline__advice(l, 64) == FA_DL_ADV_TYPE);
	T("that type's", !strcmp(fa_dline__type(l), "struct a"));
	/* both in the C++ class the type holds: that class's advice */
	l->owners[0].what.inner = l->owners[1].what.inner = "Meter<long int>";
	T("the class held", !strcmp(fa_dline__type(l), "Meter<long int>"));
	l->owners[1].what.inner = NULL;
	T("one owner's outside it: the holder's", !strcmp(fa_dline__type(l), "struct a"));
	l->owners[1].what.type = "struct b";
	T("fields of two types: the line's", fa_dline__advice(l, 64) != FA_DL_ADV_TYPE);
	fa_dlines__exit(&dl);

	/* three rounds: transfers in too few blocks of time to be sure */
	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	T("one shared line", dlines__plant(&dl, apart, 4, 3, false) == 1);
	T("the same edit", fa_dline__advice(dl.shared[0], 64) == FA_DL_ADV_STRIDE);
	T("not sure", !dline__sure(dl.shared[0]));
	fa_dlines__exit(&dl);

	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	T("one shared line", dlines__plant(&dl, same, 4, 100, false) == 1);
	l = dl.shared[0];
	T("true sharing", !fa_dline__false_sharing(l));
	T("every transfer stays", l->xfers == 198 && l->xfers_apart == 198);
	T("no layout advice", fa_dline__advice(l, 64) == FA_DL_ADV_NONE);
	fa_dlines__exit(&dl);

	/* owner 1 alone on two CPUs: its line moves, but no owner shares it */
	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	for (int i = 0; i < 100; i++) {
		struct fa_dl_access acc = { .addr = 0x2000, .space = 7, .owner = 1, .cpu = i & 1,
					    .time = 100 * i, .size = 8, .store = true, };
		struct fa_dl_owner *owner;

		T("one owner: not shared", !fa_dlines__add(&dl, &acc, &shared, &owner) && !shared);
	}
	T("no shared line", dl.nr_shared == 0);
	/* the migrations of a thread on its own bytes are no transfers */
	T("one shared line", dlines__plant(&dl, apart, 4, 100, true) == 1);
	l = dl.shared[0];
	T("none left with a line per owner", l->xfers_apart == 0);
	fa_dlines__exit(&dl);
	return TEST_OK;
}

/*
 * Two threads count in slots of their own, 8 bytes apart, with one
 * instruction; the first also sums both with a 16-byte load every
 * @every rounds: false sharing still, the sum alone true sharing
 */
static struct fa_dline *dlines__plant_sum(struct fa_dlines *dl, int n, int every)
{
	struct fa_dl_access acc = { .space = 7, .size = 8, .store = true,
				    .what = { .type = "long", .base = 0x1000, .size = 8, }, };
	static const struct fa_dl_code count = { .sym = "count", .addr = 0x10, };
	static const struct fa_dl_code sum = { .sym = "sum", .addr = 0x20, };
	struct fa_dl_owner *owner;
	struct fa_dline *l = NULL;
	u64 time = 0;
	bool shared;

	for (int i = 0; i < n; i++) {
		for (u32 o = 0; o < 2; o++) {
			bool load = !o && every && i % every == every - 1;

			acc.addr = 0x1000 + 8 * o;
			acc.what.index = o;
			acc.owner = o + 1;
			acc.cpu = o;
			acc.time = time += 100;
			acc.size = load ? 16 : 8;
			acc.store = !load;
			l = fa_dlines__add(dl, &acc, &shared, &owner) ?: l;
			if (owner && load && !owner->rcode.sym)
				owner->rcode = sum;
			if (owner && !load && !owner->wcode.sym)
				owner->wcode = count;
			if (owner && !owner->code.sym)
				owner->code = load ? sum : count;
		}
	}
	return l;
}

/* A sum of per-thread slots: the slots' writers own them, the reader shares truly */
static int test__affinity_data_lines_sum(struct test_suite *test __maybe_unused,
					 int subtest __maybe_unused)
{
	struct fa_dlines dl;
	struct fa_dline *l;

	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	/* the sum comes first: its bytes are still the writers' */
	l = dlines__plant_sum(&dl, 400, 1);
	l = dlines__plant_sum(&dl, 400, 0) ?: l;
	l = dlines__plant_sum(&dl, 400, 4) ?: l;
	T("one shared line", l && dl.nr_shared == 1);
	T("false sharing, and the reads of the sum true sharing", fa_dline__sharing(l) == FA_DL_MIXED);
	pr_debug("transfers %" PRIu64 ", apart %" PRIu64 "\n", l->xfers, l->xfers_apart);
	/* each of the 500 reads of the other's slot moves its line, no write does */
	T("a line per slot keeps the sum's transfers", l->xfers_apart > 0 && l->xfers_apart <= 500);
	T("and no other", l->xfers > 3 * l->xfers_apart);
	T("the slots of one store instruction, 8 bytes apart", fa_dline__stride(l, 64) == 8);
	T("a line per thread's elements", fa_dline__advice(l, 64) == FA_DL_ADV_ELEMENTS);
	fa_dlines__exit(&dl);

	/* two write a counter of both beside their own slots: that part true sharing */
	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	for (int i = 0; i < 400; i++) {
		static const u32 own[] = { 0, 8 }, both[] = { 32, 32 };

		dlines__plant(&dl, i % 10 ? own : both, 8, 1, false);
	}
	l = dl.shared[0];
	T("false sharing beside the true", fa_dline__sharing(l) == FA_DL_MIXED);
	T("a line per owner removes most", l->xfers_apart > 0 && l->xfers > 3 * l->xfers_apart);
	T("so a line per owner is advised", fa_dline__advice(l, 64) != FA_DL_ADV_NONE);
	fa_dlines__exit(&dl);

	/*
	 * a thread counts in its slot on every round, two others mostly read
	 * theirs: the counter's slot alone on a line removes nearly all
	 */
	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	for (int i = 0; i < 400; i++) {
		for (u32 o = 0; o < 3; o++) {
			struct fa_dl_access acc = { .addr = 0x3000 + 8 * o, .space = 7, .owner = o + 1,
						    .cpu = o, .time = 300 * i + 100 * o, .size = 8,
						    .store = !o || i % 50 == 0, };
			struct fa_dl_owner *owner;
			bool shared;

			fa_dlines__add(&dl, &acc, &shared, &owner);
		}
	}
	l = dl.shared[0];
	pr_debug("transfers %" PRIu64 ", apart %" PRIu64 ", alone %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		 l->xfers, l->xfers_apart, l->xfers_alone[0], l->xfers_alone[1], l->xfers_alone[2]);
	T("three owners", l->nr_owners == 3);
	T("the counter's slot alone is the smaller edit", fa_dline__alone(l) == 0);
	T("the others' alone are not",
	  l->xfers_alone[1] > l->xfers / 2 && l->xfers_alone[2] > l->xfers / 2);
	fa_dlines__exit(&dl);

	/*
	 * a flag and a pointer both threads only read, beside a counter one
	 * of them writes: read-only bytes move no line, the counter alone
	 * on a line leaves nothing (was true sharing, no edit)
	 */
	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	for (int i = 0; i < 200; i++) {
		for (u32 o = 0; o < 2; o++) {
			struct fa_dl_access acc = { .addr = 0x4000, .space = 7, .owner = o + 1,
						    .cpu = o, .time = 200 * i + 100 * o, .size = 16, };
			struct fa_dl_owner *owner;
			bool shared;

			fa_dlines__add(&dl, &acc, &shared, &owner);
			if (o)
				continue;
			acc.addr = 0x4010;
			acc.size = 8;
			acc.store = true;
			acc.time += 50;
			fa_dlines__add(&dl, &acc, &shared, &owner);
		}
	}
	l = dl.shared[0];
	T("read-only bytes beside a counter: false sharing", fa_dline__sharing(l) == FA_DL_FALSE);
	T("none left with the counter on a line of its own", l->xfers > 100 && l->xfers_apart == 0);
	T("an edit", fa_dline__advice(l, 64) == FA_DL_ADV_BYTES);
	fa_dlines__exit(&dl);

	/* two owners: a line for one is a line for each, no smaller edit */
	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	dlines__plant(&dl, (const u32[]){ 0, 4 }, 4, 100, false);
	T("two owners: none smaller", fa_dline__alone(dl.shared[0]) < 0);
	fa_dlines__exit(&dl);

	/* the index step that starts every slot a whole number of lines apart */
	T("4-byte slots: x16", fa_dl_slot__step(4, 64) == 16);
	T("8-byte slots: x8", fa_dl_slot__step(8, 64) == 8);
	T("24-byte slots: x8, 192 bytes", fa_dl_slot__step(24, 64) == 8);
	T("48-byte slots: x4, 192 bytes", fa_dl_slot__step(48, 64) == 4);
	T("64-byte slots: x1", fa_dl_slot__step(64, 64) == 1);
	T("100-byte slots: x16", fa_dl_slot__step(100, 64) == 16);
	return TEST_OK;
}

/* Four threads each write every 4th int of an array of eight lines: one finding */
static int test__affinity_data_lines_groups(struct test_suite *test __maybe_unused,
					    int subtest __maybe_unused)
{
	struct fa_dl_access acc = { .space = 7, .size = 4, .store = true,
				    .what = { .type = "int", .base = 0x10000, .size = 4, }, };
	struct fa_dl_group *groups;
	struct fa_dline **lines;
	struct fa_dl_owner *owner;
	struct fa_dlines dl;
	int nr, nr_groups;
	u64 time = 0;
	bool shared;

	T("init", !fa_dlines__init(&dl, 64, 1000, 64));
	for (int round = 0; round < 50; round++) {
		for (int e = 0; e < 8 * 16; e++) {
			acc.addr = 0x10000 + 4 * e;
			acc.what.index = e;
			acc.owner = 100 + e % 4;
			acc.cpu = e % 2;
			acc.time = time += 100;
			fa_dlines__add(&dl, &acc, &shared, &owner);
		}
	}
	/* and a line of another array, two threads */
	acc.what.base = 0x20000;
	for (int i = 0; i < 200; i++) {
		acc.addr = 0x20000 + 8 * (i & 1);
		acc.what.index = 2 * (i & 1);
		acc.owner = 100 + (i & 1);
		acc.cpu = i & 1;
		acc.time = time += 100;
		fa_dlines__add(&dl, &acc, &shared, &owner);
	}
	nr = fa_dlines__contended(&dl, &lines);
	T("nine contended lines", nr == 9);
	nr_groups = fa_dlines__groups(lines, nr, &groups);
	T("two findings", nr_groups == 2);
	T("the array's eight lines one", groups[0].nr == 8 || groups[1].nr == 8);
	for (int k = 0; k < nr_groups; k++) {
		const struct fa_dl_group *g = &groups[k];

		if (g->nr != 8)
			continue;
		T("four threads", g->nr_ids == 4);
		T("interleaved, every 4th element", g->stride == 4);
		for (u32 i = 0; i < g->nr_ids; i++)
			T("each from its own", g->residue[i] == (g->ids[i] - 100) % 4);
		T("elements 0 to 127", g->index_lo == 0 && g->index_hi == 127);
		T("every transfer goes with a line per thread", g->xfers > 0 && g->xfers_apart == 0);
	}
	fa_dl_groups__free(groups, nr_groups);
	free(lines);
	fa_dlines__exit(&dl);
	return TEST_OK;
}

#define FA_TEST_LONE_LINES	4096

/* The heap in use, the large blocks glibc maps apart too */
static size_t heap__in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/*
 * Thousands of contended lines of no array: a finding each, in memory of
 * the lines, not of the lines squared (each had room for all lines after it)
 */
static int test__affinity_data_lines_lone(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	struct fa_dline *l = calloc(FA_TEST_LONE_LINES, sizeof(*l));
	struct fa_dline **lines = calloc(FA_TEST_LONE_LINES, sizeof(*lines));
	struct fa_dl_group *groups = NULL;
	size_t before, after;
	int nr_groups;

	T("lines", l && lines);
	for (int i = 0; i < FA_TEST_LONE_LINES; i++) {
		l[i].addr = 0x10000 + 64 * i;
		lines[i] = &l[i];
	}
	before = heap__in_use();
	nr_groups = fa_dlines__groups(lines, FA_TEST_LONE_LINES, &groups);
	after = heap__in_use();
	pr_debug("%d groups of %d lines: %zd bytes\n", nr_groups, FA_TEST_LONE_LINES,
		 (ssize_t)(after - before));
	T("a finding each", nr_groups == FA_TEST_LONE_LINES);
	T("in their order", groups[1].nr == 1 && groups[1].lines[0] == &l[1]);
	T("of no array", l[7].array == -1);
	/* a group, its line, malloc's headers: 1 KB a line is plenty, not 64 MB in all */
	T("memory linear in the lines", after < before + FA_TEST_LONE_LINES * 1024);
	fa_dl_groups__free(groups, nr_groups);
	free(lines);
	free(l);
	return TEST_OK;
}

#if defined(HAVE_DWARF_SUPPORT) && defined(__x86_64__)
/* This test's own thread-local array, found in perf's DWARF */
static __thread long tls_test_var[4];

/* Where @p is from the thread pointer, which the TCB holds at %fs:0 */
static s64 tls__tpoff(const void *p)
{
	unsigned long tp;

	asm("mov %%fs:0, %0" : "=r"(tp));
	return (s64)((unsigned long)p - tp);
}
#endif

/*
 * A thread-local array of this test is at its offset from the thread
 * pointer, the one local-exec code uses (TLS variant II), with the offset
 * into it of an element; past the block is nothing
 */
static int test__affinity_tls(struct test_suite *test __maybe_unused,
			      int subtest __maybe_unused)
{
#if defined(HAVE_DWARF_SUPPORT) && defined(__x86_64__)
	const struct fa_tls_var *v;
	char path[PATH_MAX];
	struct debuginfo *di;
	struct fa_tls tls;
	u64 off = ~0ULL;
	int err;

	tls_test_var[2] = 1;
	perf_exe(path, sizeof(path));
	di = debuginfo__new(path);
	if (!di) {
		pr_debug("no debuginfo for %s\n", path);
		return TEST_SKIP;
	}
	err = fa_tls__init(&tls, di->dbg);
	debuginfo__delete(di);
	T("perf's thread-local variables", !err && tls.nr > 0 && tls.start < 0);
	v = fa_tls__find(&tls, tls__tpoff(&tls_test_var[2]), &off);
	pr_debug("block at %" PRId64 ", %d variables; tls_test_var[2] at %" PRId64 ": %s, +%" PRIu64 "\n",
		 tls.start, tls.nr, tls__tpoff(&tls_test_var[2]), v ? "found" : "not found", off);
	T("this test's array, 16 bytes in", v && v->size == sizeof(tls_test_var) && off == 16);
	T("nothing past the block", !fa_tls__find(&tls, 8, &off));
	fa_tls__exit(&tls);
	return TEST_OK;
#else
	return TEST_SKIP;
#endif
}

/* Let an access at @addr of @space, of the sample at @time, wait */
static int pending__push(struct fa_pending *p, u64 addr, u32 space, u64 time,
			 struct fa_pending_access *evicted)
{
	struct fa_origin o = { .time = time, .tid = 100, };
	struct fa_access acc = { .addr = addr, .size = 8, .op = FA_OP_STORE, .origin = &o, };

	return fa_pending__push(p, &acc, /*func=*/NULL, space, /*reason=*/1, evicted);
}

/*
 * Accesses wait for an instance at their address: they come out in their
 * order when one is found in their address space, the others keep
 * theirs, and a full ring lets the oldest go
 */
static int test__affinity_pending(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	struct fa_pending p = { .nr = 0, };
	struct fa_pending_access pa, evicted;
	u32 from = 0;

	T("wait", !pending__push(&p, 0x1000, 1, 1, &evicted));
	T("wait", !pending__push(&p, 0x1008, 2, 2, &evicted));
	T("wait", !pending__push(&p, 0x1010, 1, 3, &evicted));
	T("wait", !pending__push(&p, 0x2000, 1, 4, &evicted));
	T("the first in the instance", fa_pending__take(&p, 1, 0x1000, 0x1040, &from, &pa) &&
	  pa.acc.addr == 0x1000 && pa.origin.time == 1 && pa.acc.origin == &pa.origin);
	fa_pending_access__exit(&pa);
	T("then the next", fa_pending__take(&p, 1, 0x1000, 0x1040, &from, &pa) &&
	  pa.acc.addr == 0x1010 && pa.origin.time == 3);
	fa_pending_access__exit(&pa);
	T("not another address space's", !fa_pending__take(&p, 1, 0x1000, 0x1040, &from, &pa));
	fa_pending__compact(&p);
	T("two left, in their order", p.nr == 2 && fa_pending__pop(&p, &pa) &&
	  pa.acc.addr == 0x1008 && fa_pending__pop(&p, &evicted) && evicted.acc.addr == 0x2000);
	fa_pending_access__exit(&pa);
	fa_pending_access__exit(&evicted);

	for (int i = 0; i < FA_PENDING_MAX; i++)
		T("wait", !pending__push(&p, 0x3000 + 8 * i, 1, 10 + i, &evicted));
	T("one more lets the oldest go",
	  pending__push(&p, 0x9000, 1, 9999, &evicted) == 1 && evicted.origin.time == 10 &&
	  evicted.acc.addr == 0x3000 && p.nr == FA_PENDING_MAX);
	fa_pending_access__exit(&evicted);
	fa_pending__exit(&p);
	T("none left", p.nr == 0 && !p.ring);
	return TEST_OK;
}

#ifdef HAVE_DWARF_SUPPORT
/* A registry entry of @name and @size, without fields */
static struct fa_type_entry *session__type(const char *name, u32 size)
{
	struct fa_type_entry *te = zalloc(sizeof(*te));

	if (te) {
		te->name = strdup(name);
		te->size = size;
	}
	if (te && !te->name)
		zfree(&te);
	return te;
}
#endif

/*
 * A session wants the types of -T only, "struct x" or "x", every type
 * without -T; it finds its types by name and size
 */
static int test__affinity_session(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
#ifdef HAVE_DWARF_SUPPORT
	struct fa_config cfg = { .line_size = 64, .xfer_ns = 1000000, };
	const char *types = "foo,struct bar";
	struct fa_type_entry *a8, *a16, *q, *alias;
	struct fa_type_filter *f;
	struct fa_session s;

	T("a session of every type", !fa_session__init(&s, &cfg, NULL) &&
	  fa_session__wanted(&s, "struct rq"));
	fa_session__exit(&s);
	T("of -T foo,struct bar", !fa_session__init(&s, &cfg, types));
	T("struct foo, by its name without 'struct'", fa_session__wanted(&s, "struct foo"));
	T("struct bar, by its whole name", fa_session__wanted(&s, "struct bar"));
	T("not struct baz", !fa_session__wanted(&s, "struct baz"));
	T("not struct foobar", !fa_session__wanted(&s, "struct foobar"));
	/* C++: data-type profiling names a class without keyword nor namespaces */
	T("a class by its name", fa_type_name__matches("Admission", "Admission"));
	T("by its keyword", fa_type_name__matches("Admission", "class Admission"));
	T("by its namespace", fa_type_name__matches("Admission", "svc::Admission"));
	T("a template's instantiation by its whole name",
	  fa_type_name__matches("Queue<unsigned int>", "ns::Queue<unsigned int>"));
	T("every instantiation by the template's name",
	  fa_type_name__matches("struct atomic<bool>", "atomic"));
	T("not another instantiation",
	  !fa_type_name__matches("Queue<int>", "Queue<unsigned int>"));
	T("not a longer name", !fa_type_name__matches("Queues<int>", "Queue"));
	T("a template argument's namespace is no scope",
	  fa_type_name__matches("Queue<a::b>", "ns::Queue<a::b>"));
	/* a C++ record named with its scopes */
	T("a qualified class by its name", fa_type_name__matches("svc::Admission", "Admission"));
	T("not in another namespace", !fa_type_name__matches("svc::Admission", "x::Admission"));
	T("a qualified template by its name", fa_type_name__matches("lf::Meter<long int>", "Meter"));
	T("and by its qualified name", fa_type_name__matches("lf::Meter<long int>", "lf::Meter"));
	T("not in another namespace either", !fa_type_name__matches("lf::Meter<long int>", "x::Meter"));
	/* -T's list: a comma in template arguments separates nothing; regexes */
	f = fa_type_filter__new(" lf::Meter<long int, 8>, ^Se.*e$,rq");
	T("a filter of three", !IS_ERR_OR_NULL(f));
	T("the template with two arguments", fa_type_filter__wants(f, "Meter<long int, 8>"));
	T("not the list's pieces", !fa_type_filter__wants(f, "Meter<long int"));
	T("a regex on the name", fa_type_filter__wants(f, "Service"));
	T("a regex on the name without its keyword", fa_type_filter__wants(f, "struct Service"));
	T("a regex not matching", !fa_type_filter__wants(f, "Services"));
	T("a name after a regex", fa_type_filter__wants(f, "struct rq"));
	fa_type_filter__delete(f);
	T("no filter wants all", !fa_type_filter__new(NULL) && fa_type_filter__wants(NULL, "x"));
	T("a broken regex", IS_ERR(fa_type_filter__new("Meter(")));
	T("no name", IS_ERR(fa_type_filter__new(" , ")));
	T("its configuration, not a copy", s.cfg == &cfg);
	a8 = session__type("struct a", 8);
	a16 = session__type("struct a", 16);
	T("entries", a8 && a16);
	T("two sizes of one name", !fa_session__add_type(&s, a8) &&
	  !fa_session__add_type(&s, a16) && s.nr_types == 2);
	T("each by its size, the newest without one",
	  fa_session__find_type(&s, "struct a", 8) == s.types[0] &&
	  fa_session__find_type(&s, "struct a", 16) == s.types[1] &&
	  fa_session__find_type(&s, "struct a", 0) == s.types[1]);
	T("not another size or name", !fa_session__find_type(&s, "struct a", 4) &&
	  !fa_session__find_type(&s, "struct b", 8));
	/* a C++ class by an alias ('MPMCQueue<int>' for 'rigtorp::mpmc::Queue<int, ...>') */
	q = session__type("Queue<int>", 32);
	alias = session__type("MPMCQueue<int>", 32);
	T("entries", q && alias);
	q->st = fa_struct__new("Queue<int>", 32, 8);
	alias->st = fa_struct__new("MPMCQueue<int>", 32, 8);
	T("structs", q->st && alias->st);
	q->st->cxx_name = strdup("ns::Queue<int>");
	alias->st->cxx_name = strdup("ns::Queue<int>");
	T("the class", !fa_session__add_type(&s, q));
	T("the alias's type is the class", fa_session__find_same(&s, alias) == q);
	T("its name finds it", !fa_session__add_alias(&s, "MPMCQueue<int>", q) &&
	  fa_session__find_type(&s, "MPMCQueue<int>", 32) == q &&
	  !fa_session__find_type(&s, "MPMCQueue<int>", 16));
	alias->st->cxx_name[1] = 'x';
	T("not a class of another scope", !fa_session__find_same(&s, alias));
	fa_type_entry__delete(alias);
	fa_session__exit(&s);
	T("nothing left", !s.only && !s.types && !s.type_names);
	return TEST_OK;
#else
	return TEST_SKIP;
#endif
}

/*
 * Accesses not attributed are those that failed, not the decoded less the
 * attributed: a 16-byte load of two members is two parts of one access
 */
static int test__affinity_unattributed(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_attr_stats st = { .accesses = 4, .resolved = 3, };

	/* a 16-byte load of two members, one of a member, a stack slot, another type */
	st.failed[FA_ATTR_STACK] = 1;
	st.failed[FA_ATTR_FILTERED] = 1;
	T("one not attributed", fa_attr_stats__unattributed(&st) == 1);
	/* two 16-byte loads of two members each */
	st = (struct fa_attr_stats){ .accesses = 2, .resolved = 4, };
	T("none, not a negative count", fa_attr_stats__unattributed(&st) == 0);
	return TEST_OK;
}

/*
 * What attribution cannot attribute is counted by reason: a sampled
 * instruction in no symbol (its data address not known either), a
 * tracepoint's type that no DSO describes
 */
static int test__affinity_attr_fail(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
#ifdef HAVE_DWARF_SUPPORT
	struct fa_config cfg = { .line_size = 64, .xfer_ns = 1000000, };
	struct fa_origin o = { .source = FA_SRC_SW, .ip = 0x401000, };
	struct fa_access acc = { .origin = &o, .size = 8, };
	struct fa_session s;
	struct fa_attr a;
	int ok;

	T("a session", !fa_session__init(&s, &cfg, NULL));
	if (fa_attr__init(&a, &s)) {
		fa_session__exit(&s);
		T("an attribution", false);
	}
	ok = !fa_attr__add(&a, &acc) && a.stats.accesses == 1 &&
	     a.stats.failed[FA_ATTR_NO_SYM] == 1 && !a.stats.resolved;
	o.source = FA_SRC_TP;
	acc.type_name = "rq";
	acc.field_name = "clock";
	ok = ok && !fa_attr__add(&a, &acc) && a.stats.accesses == 2 &&
	     a.stats.failed[FA_ATTR_TP_TYPE] == 1 && !a.stats.resolved &&
	     fa_attr_stats__unattributed(&a.stats) == 2;
	fa_attr__exit(&a);
	fa_session__exit(&s);
	T("no symbol, then no type: each counted, nothing attributed", ok);
	return TEST_OK;
#else
	return TEST_SKIP;
#endif
}

static struct test_case tests__affinity_attr[] = {
	TEST_CASE("Cache lines threads share, typed or not", affinity_data_lines),
	TEST_CASE("Per-thread slots: a byte is its writer's, the smaller edit", affinity_data_lines_sum),
	TEST_CASE("The lines of an array threads interleave are one finding", affinity_data_lines_groups),
	TEST_CASE("Thousands of lone lines take memory of the lines", affinity_data_lines_lone),
	TEST_CASE("A thread-local variable from the thread pointer", affinity_tls),
	TEST_CASE("Accesses wait for their instance in their order", affinity_pending),
	TEST_CASE("A session wants the types -T asks for, and finds them", affinity_session),
	TEST_CASE("Accesses not attributed: those that failed", affinity_unattributed),
	TEST_CASE("What attribution cannot attribute, counted by reason", affinity_attr_fail),
	{	.name = NULL, }
};

struct test_suite suite__affinity_attr = {
	.desc = "perf affinity: attribution",
	.test_cases = tests__affinity_attr,
};
