// SPDX-License-Identifier: GPL-2.0
/*
 * Layouts of a struct: the walk of their members, printing them as pahole
 * does, and as C that compiles to the layout printed.
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity/layout/layout.h"
#include "affinity-planted.h"
#include "debug.h"
#include "tests.h"
#include "util.h"
#ifdef HAVE_DWARF_SUPPORT
#include "debuginfo.h"
#endif

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
"\t/* sum members: 28 */\n"
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

#ifdef HAVE_DWARF_SUPPORT
/*
 * A zoo of member types --emit-c must print as C that compiles: read back
 * from perf's own DWARF (this file is built with -g), laid out as they are
 * and in reverse, emitted for user space and for the kernel, compiled with
 * a static assert of the size and of every member's offset.
 *
 * The types the zoo refers to, as code and as text for the compiler:
 */
#define ZOO_DEPS(...)	__VA_ARGS__ static const char zoo_deps[] = #__VA_ARGS__

/* typedefs as user space has them: the emitted C must name them right */
ZOO_DEPS(
enum zoo_color { ZOO_RED, ZOO_GREEN };
struct zoo_inner { int a; long b; };
typedef unsigned long zoo_word_t;
);

typedef struct {
	int x;
	long y;
} zoo_anon_t;

struct zoo_atomic {
	_Atomic int refs;
	long v;
	_Atomic(long *) p;
};

struct zoo_funcptr {
	void (*cb)(void *, int);
	int (*ops[2])(long);
	char *names[4];
	const char *const *argv;
};

/* what randstruct shuffles unasked */
struct zoo_ops {
	void (*open)(void *);
	int (*close)(void *, int);
	long (*ioctl)(void *, unsigned int, unsigned long);
};

struct zoo_union {
	int kind;
	union {
		int i;
		char c[8];
	} u;
	union {
		long l;
		void *p;
	};
};

struct zoo_bits {
	unsigned int a:3, b:5;
	int c:7;
	int d;
};

struct zoo_cv {
	const int ci;
	volatile long vl;
	const char *const name;
	volatile int *const vp;
};

struct zoo_misc {
	enum zoo_color color;
	zoo_word_t w;
	struct zoo_inner in;
	struct {
		int p, q;
	} pq;
	long arr[2][3];
};

/* One object of every type: their DWARF is kept */
static struct {
	zoo_anon_t anon;
	struct zoo_atomic atomic;
	struct zoo_funcptr funcptr;
	struct zoo_ops ops;
	struct zoo_union onion;
	struct zoo_bits bits;
	struct zoo_cv cv;
	struct zoo_misc misc;
} zoo;

static const struct {
	const char	*name;		/* as data-type profiling names it */
	u32		 size;
} zoo_types[] = {
	{ "zoo_anon_t", sizeof(zoo.anon) },
	{ "struct zoo_atomic", sizeof(zoo.atomic) },
	{ "struct zoo_funcptr", sizeof(zoo.funcptr) },
	{ "struct zoo_ops", sizeof(zoo.ops) },
	{ "struct zoo_union", sizeof(zoo.onion) },
	{ "struct zoo_bits", sizeof(zoo.bits) },
	{ "struct zoo_cv", sizeof(zoo.cv) },
	{ "struct zoo_misc", sizeof(zoo.misc) },
};

/*
 * What the kernel's headers define, for the kernel flavour: the cache line
 * groups as empty arrays, and their check a static assertion of where the
 * member is
 */
static const char zoo_kernel[] =
	"#define __aligned(x) __attribute__((__aligned__(x)))\n"
	"#define ____cacheline_aligned __aligned(64)\n"
	"#define __init\n"
	"#define __no_randomize_layout\n"
	"#define __cacheline_group_begin(g) unsigned char __cacheline_group_begin__##g[0]\n"
	"#define __cacheline_group_end(g) unsigned char __cacheline_group_end__##g[0]\n"
	"#define CACHELINE_ASSERT_GROUP_MEMBER(t, g, m) _Static_assert(\\\n"
	"\toffsetof(t, m) >= offsetof(t, __cacheline_group_begin__##g) && \\\n"
	"\toffsetof(t, m) + sizeof(((t *)0)->m) <= offsetof(t, __cacheline_group_end__##g), #m)\n";

/* The C of @st laid out as @l, and static asserts of where its members are */
static int zoo__write(const char *path, const struct fa_struct *st, const struct fa_layout *l,
		      bool kernel)
{
	/* a typedef name is the type; "struct foo" too */
	const char *type = st->name;
	FILE *fp = fopen(path, "w");

	if (!fp)
		return -1;
	fprintf(fp, "#include <stddef.h>\n%s%s\n", kernel ? zoo_kernel : "", zoo_deps);
	fa_layout__fprintf_c(l, st, /*c=*/NULL, kernel, fp);
	fprintf(fp, "_Static_assert(sizeof(%s) == %u, \"size\");\n", type, l->size);
	for (int i = 0; i < st->nr_fields; i++) {
		const struct fa_field *f = &st->fields[i];

		if (f->kind == FA_FIELD_BITFIELD || f->kind == FA_FIELD_BITGROUP ||
		    f->anon || strchr(f->name, '(') || strchr(f->name, '{'))
			continue;
		fprintf(fp, "_Static_assert(offsetof(%s, %s) == %u, \"%s\");\n", type, f->name,
			fa_layout__field_offset(l, st, i), f->name);
	}
	return fclose(fp);
}

/* Does the C of @st laid out as @l compile, with its static asserts? */
static bool zoo__compiles(const struct fa_struct *st, const struct fa_layout *l, bool kernel)
{
	char path[PATH_MAX], cmd[2 * PATH_MAX];
	bool ok;

	snprintf(path, sizeof(path), "/tmp/perf-affinity-zoo-%d.c", getpid());
	if (zoo__write(path, st, l, kernel))
		return false;
	snprintf(cmd, sizeof(cmd), "cc -std=gnu11 -fsyntax-only -Werror %s%s", path,
		 verbose > 0 ? "" : " 2> /dev/null");
	ok = !system(cmd);
	if (!ok && verbose > 0) {
		snprintf(cmd, sizeof(cmd), "cat %s >&2", path);
		if (system(cmd))
			pr_debug("cannot show %s\n", path);
	}
	unlink(path);
	return ok;
}

/* The kernel's C of @st says __no_randomize_layout */
static bool zoo__randomizable(const struct fa_struct *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct fa_layout l;
	bool says;

	if (!fp || fa_layout__current(&l, st, 64)) {
		if (fp)
			fclose(fp);
		free(buf);
		return false;
	}
	fa_layout__fprintf_c(&l, st, NULL, /*kernel=*/true, fp);
	fclose(fp);
	says = strstr(buf, "} __no_randomize_layout;") != NULL;
	pr_debug("%s: %s__no_randomize_layout\n", st->name, says ? "" : "no ");
	free(buf);
	fa_layout__exit(&l);
	return says;
}

/* @st as it is and with its units in reverse, each on a line of its own */
static int zoo__check(const struct fa_struct *st)
{
	int group[st->nr_units];
	struct fa_layout l;
	int bad = 0;

	for (int u = 0; u < st->nr_units; u++)
		group[u] = st->nr_units - 1 - u;
	for (int reversed = 0; reversed <= 1; reversed++) {
		if (reversed ? fa_layout__from_groups(&l, st, group, st->nr_units, 64) :
			       fa_layout__current(&l, st, 64))
			return -1;
		for (int kernel = 0; kernel <= 1; kernel++) {
			if (!zoo__compiles(st, &l, kernel)) {
				pr_debug("%s%s, %s: the C does not compile\n", st->name,
					 reversed ? " reversed" : "", kernel ? "kernel" : "user");
				bad++;
			}
		}
		fa_layout__exit(&l);
	}
	return bad;
}
#endif

static int test__affinity_emit_c(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
#ifdef HAVE_DWARF_SUPPORT
	char path[PATH_MAX];
	struct debuginfo *di;
	int bad = 0;

	if (system("cc --version > /dev/null 2>&1"))
		return TEST_SKIP;
	perf_exe(path, sizeof(path));
	di = debuginfo__new(path);
	if (!di)
		return TEST_SKIP;
	pr_debug("zoo at %p\n", &zoo);
	for (size_t i = 0; i < ARRAY_SIZE(zoo_types); i++) {
		struct fa_struct *st = fa_struct__from_dwarf(di->dbg, zoo_types[i].name,
							     zoo_types[i].size, 0);

		if (!st) {
			pr_debug("%s: not in perf's DWARF\n", zoo_types[i].name);
			bad++;
			continue;
		}
		bad += zoo__check(st);
		bad += zoo__randomizable(st) != !strcmp(st->name, "struct zoo_ops");
		fa_struct__delete(st);
	}
	debuginfo__delete(di);
	T("the C of every layout of every type compiles, only the ops say __no_randomize_layout",
	  bad == 0);
	return TEST_OK;
#else
	return TEST_SKIP;
#endif
}

static int test__affinity_kernel_groups(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(16);
	struct fa_layout l;
	char *buf = NULL, *one = NULL;
	size_t len = 0, len1 = 0;
	FILE *fp;

	T("struct", st && !fa_layout__current(&l, st, 64));
	fp = open_memstream(&buf, &len);
	T("stream", fp);
	fa_layout__fprintf_c(&l, st, /*c=*/NULL, /*kernel=*/true, fp);
	fclose(fp);
	pr_debug("%s", buf);
	T("line 0 is a group", strstr(buf, "\t__cacheline_group_begin(longs_line_0);\n\tlong int f0;"));
	T("which ends before line 1",
	  strstr(buf, "long int f7;\t/* cold */\n\t__cacheline_group_end(longs_line_0);"));
	T("the last ends the struct", strstr(buf, "__cacheline_group_end(longs_line_1);\n};"));
	T("every member is checked", strstr(buf, "CACHELINE_ASSERT_GROUP_MEMBER(struct longs, longs_line_0, f0);") &&
	  strstr(buf, "CACHELINE_ASSERT_GROUP_MEMBER(struct longs, longs_line_1, f15);"));
	fp = open_memstream(&one, &len1);
	T("stream", fp);
	fa_layout__fprintf_c(&l, st, NULL, /*kernel=*/false, fp);
	fclose(fp);
	T("no groups in user space", !strstr(one, "__cacheline_group"));
	free(buf);
	free(one);
	fa_layout__exit(&l);
	fa_struct__delete(st);
	return TEST_OK;
}

static struct test_case tests__affinity_layout[] = {
	TEST_CASE("Layouts print in pahole's format", affinity_pahole_format),
	TEST_CASE("The members of a layout and their holes, in offset order", affinity_layout_walk),
	TEST_CASE("The C of a layout compiles to the layout", affinity_emit_c),
	TEST_CASE("The C of a kernel type guards its cache line groups", affinity_kernel_groups),
	{	.name = NULL, }
};

struct test_suite suite__affinity_layout = {
	.desc = "perf affinity: layouts",
	.test_cases = tests__affinity_layout,
};
