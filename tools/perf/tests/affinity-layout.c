// SPDX-License-Identifier: GPL-2.0
/* Layouts of a struct: the walk of their members, printing them as pahole does. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity/layout.h"
#include "affinity-planted.h"
#include "debug.h"
#include "tests.h"

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

static struct test_case tests__affinity_layout[] = {
	TEST_CASE("Layouts print in pahole's format", affinity_pahole_format),
	TEST_CASE("The members of a layout and their holes, in offset order", affinity_layout_walk),
	{	.name = NULL, }
};

struct test_suite suite__affinity_layout = {
	.desc = "perf affinity: layouts",
	.test_cases = tests__affinity_layout,
};
