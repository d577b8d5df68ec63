// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity field tables: a struct built by hand, and a struct with
 * every awkward kind of member read from perf's own DWARF and checked
 * against what the compiler says (offsetof, sizeof, alignof).
 */
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity/fields/fields.h"
#include "affinity-planted.h"
#include "annotate-data.h"
#include "debug.h"
#include "debuginfo.h"
#include "strbuf.h"
#include "tests.h"
#include "util.h"

struct fa_test_inner {
	int	nr;
	int	load;
};

struct fa_test_layout {
	char			c;
	long			l;
	struct fa_test_inner	inner;
	unsigned int		x:3, y:5;
	unsigned int		z:20;
	union {
		int	a;
		char	b[8];
	} u;
	union {
		long	ua;
		void	*ub;
		struct {
			int	lo, hi;
		};
	};
	struct {
		short	sa, sb;
	};
	int			(*fn)(void *arg, int n);
	char			name[16];
	const char		*cname;
	long			aligned __aligned(64);
	char			tail[];
};

/* An instance the compiler must keep, and with it the type in perf's DWARF */
static struct fa_test_layout fa_test_layout_instance __used;

static int field_index(const struct fa_struct *st, const char *name)
{
	for (int i = 0; i < st->nr_fields; i++) {
		if (!strcmp(st->fields[i].name, name))
			return i;
	}
	return -1;
}

#define T(text, cond) TEST_ASSERT_VAL(text, cond)

static int test__affinity_fields_manual(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	static const struct fa_field fields[] = {
		{ .name = (char *)"a", .type = (char *)"long", .offset = 0, .size = 8,
		  .align = 8, .parent = -1, .leaf = true, },
		{ .name = (char *)"stats", .type = (char *)"struct stats", .offset = 8,
		  .size = 8, .align = 4, .parent = -1, .kind = FA_FIELD_STRUCT, },
		{ .name = (char *)"stats.nr", .type = (char *)"int", .offset = 8, .size = 4,
		  .align = 4, .parent = 1, .depth = 1, .leaf = true, },
		{ .name = (char *)"stats.load", .type = (char *)"int", .offset = 12, .size = 4,
		  .align = 4, .parent = 1, .depth = 1, .leaf = true, },
		{ .name = (char *)"x", .type = (char *)"unsigned int", .offset = 16, .size = 4,
		  .align = 4, .parent = -1, .kind = FA_FIELD_BITFIELD, .bit_size = 3, },
		{ .name = (char *)"y", .type = (char *)"unsigned int", .offset = 16, .size = 4,
		  .align = 4, .parent = -1, .kind = FA_FIELD_BITFIELD, .bit_offset = 3,
		  .bit_size = 5, },
		{ .name = (char *)"tail", .type = (char *)"char", .suffix = (char *)"[]",
		  .offset = 20, .size = 0, .align = 1, .parent = -1, .kind = FA_FIELD_FLEX,
		  .leaf = true, },
	};
	struct fa_struct *st = fa_struct__new("struct s", 24, 8);
	int leaves[8];

	T("new", st);
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		T("add", !fa_struct__add_field(st, &fields[i]));
	T("finish", !fa_struct__finish(st));

	T("units: a, stats, {x,y}, tail", st->nr_units == 4);
	T("stats is one unit", st->units[1].offset == 8 && st->units[1].size == 8);
	T("bitfields share a unit", st->units[2].nr_fields == 2 && st->units[2].size == 4);
	T("tail is flexible", st->units[3].flex);
	T("leaves: a, stats.nr, stats.load, {x,y}, tail", st->nr_leaves == 5);
	T("leaf of 3 is a", fa_struct__find_leaf(st, 3) == 0);
	T("leaf of 13 is stats.load", fa_struct__find_leaf(st, 13) == 3);
	T("leaf of 16 is the bitfield group",
	  st->fields[fa_struct__find_leaf(st, 16)].kind == FA_FIELD_BITGROUP &&
	  !strcmp(st->fields[fa_struct__find_leaf(st, 16)].name, "x,y"));
	T("the group is in the bitfields' unit",
	  st->fields[fa_struct__find_leaf(st, 16)].unit == 2);
	T("17 is padding", fa_struct__find_leaf(st, 17) == -1);
	T("stats.load is in unit 1", st->fields[3].unit == 1);
	T("unit 1 has two leaves", fa_struct__unit_leaves(st, 1, leaves, 8) == 2);
	/* where the instance of an embedded struct can be */
	T("stats embeds a struct of 8 bytes", fa_struct__embeds(st, 8, 8));
	T("not of 12", !fa_struct__embeds(st, 8, 12));
	T("a long holds no struct", !fa_struct__embeds(st, 0, 4));
	T("nor an int in a struct", !fa_struct__embeds(st, 12, 4));
	fa_struct__delete(st);
	return TEST_OK;
}

/*
 * Zero-length arrays that mark where a group of members begins or ends
 * (the kernel's __cacheline_group_begin()) hold no access: the member at
 * their offset does.  Only the last one, a flexible array, holds what
 * follows it.
 */
static int test__affinity_fields_markers(struct test_suite *test __maybe_unused,
					 int subtest __maybe_unused)
{
	static const struct fa_field fields[] = {
		{ .name = (char *)"begin_hot", .type = (char *)"__u8", .suffix = (char *)"[0]",
		  .offset = 0, .align = 1, .parent = -1, .kind = FA_FIELD_FLEX, .leaf = true, },
		{ .name = (char *)"a", .type = (char *)"long", .offset = 0, .size = 8,
		  .align = 8, .parent = -1, .leaf = true, },
		{ .name = (char *)"end_hot", .type = (char *)"__u8", .suffix = (char *)"[0]",
		  .offset = 8, .align = 1, .parent = -1, .kind = FA_FIELD_FLEX, .leaf = true, },
		{ .name = (char *)"b", .type = (char *)"int", .offset = 8, .size = 4,
		  .align = 4, .parent = -1, .leaf = true, },
		{ .name = (char *)"c", .type = (char *)"char", .offset = 12, .size = 1,
		  .align = 1, .parent = -1, .leaf = true, },
		{ .name = (char *)"tail", .type = (char *)"char", .suffix = (char *)"[]",
		  .offset = 13, .align = 1, .parent = -1, .kind = FA_FIELD_FLEX, .leaf = true, },
	};
	struct fa_struct *st = fa_struct__new("struct s", 16, 8);

	T("new", st);
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		T("add", !fa_struct__add_field(st, &fields[i]));
	T("finish", !fa_struct__finish(st));
	T("0 is a, not the marker before it", fa_struct__find_leaf(st, 0) == 1);
	T("7 is a", fa_struct__find_leaf(st, 7) == 1);
	T("8 is b, not the marker after a", fa_struct__find_leaf(st, 8) == 3);
	T("11 is b", fa_struct__find_leaf(st, 11) == 3);
	T("12 is c", fa_struct__find_leaf(st, 12) == 4);
	T("13 is the flexible array", fa_struct__find_leaf(st, 13) == 5);
	T("past the struct is the flexible array", fa_struct__find_leaf(st, 40) == 5);
	fa_struct__delete(st);
	return TEST_OK;
}

static int check_field(const struct fa_struct *st, const char *name, u32 offset, u32 size)
{
	int i = field_index(st, name);

	if (i < 0) {
		pr_debug("no field %s\n", name);
		return -1;
	}
	if (st->fields[i].offset != offset || st->fields[i].size != size) {
		pr_debug("%s: offset %u size %u, compiler says %u %u\n", name,
			 st->fields[i].offset, st->fields[i].size, offset, size);
		return -1;
	}
	return i;
}

#define F(name, member) check_field(st, name, offsetof(struct fa_test_layout, member), \
				    sizeof(((struct fa_test_layout *)0)->member))

static int __maybe_unused check_layout(const struct fa_struct *st)
{
	const struct fa_field *fn, *name, *al, *tail;
	int i;

	T("struct size", st->size == sizeof(struct fa_test_layout));
	T("struct align", st->align == __alignof__(struct fa_test_layout));
	T("c", F("c", c) >= 0);
	T("l", F("l", l) >= 0);
	T("inner", F("inner", inner) >= 0);
	T("inner.load", check_field(st, "inner.load", offsetof(struct fa_test_layout, inner) +
				    offsetof(struct fa_test_inner, load), sizeof(int)) >= 0);
	T("u", F("u", u) >= 0);
	i = field_index(st, "u");
	T("an anonymous union declared as C", st->fields[i].c_type &&
	  !strncmp(st->fields[i].c_type, "union {\n", 8) &&
	  strstr(st->fields[i].c_type, "char b[8];"));
	i = F("{ua|ub|lo,hi}", ua);
	T("anonymous union, its anonymous struct", i >= 0);
	T("expanded as pahole prints it", st->fields[i].nr_nest > 0 &&
	  st->fields[i].nest[0].kind == FA_NEST_START &&
	  st->fields[i].nest[st->fields[i].nr_nest - 1].kind == FA_NEST_END);
	i = check_field(st, "{sa,sb}", offsetof(struct fa_test_layout, sa), 2 * sizeof(short));
	T("anonymous struct, named after its members", i >= 0 && st->fields[i].anon);
	i = F("fn", fn);
	T("fn", i >= 0);
	fn = &st->fields[i];
	T("fn is a function pointer", fn->funcptr && !strcmp(fn->type, "int") &&
	  !strcmp(fn->suffix, ")(void *, int)"));
	i = F("name", name);
	T("name", i >= 0);
	name = &st->fields[i];
	T("name is char[16]", !strcmp(name->type, "char") && !strcmp(name->suffix, "[16]"));
	i = F("cname", cname);
	T("cname", i >= 0);
	T("a pointer to const as pahole and as C spell it",
	  !strcmp(st->fields[i].type, "const char  *") &&
	  st->fields[i].c_type && !strcmp(st->fields[i].c_type, "const char *"));
	i = F("aligned", aligned);
	T("aligned", i >= 0);
	al = &st->fields[i];
	T("aligned(64)", al->align == 64);
	i = field_index(st, "tail");
	T("tail", i >= 0);
	tail = &st->fields[i];
	T("tail is flexible", tail->kind == FA_FIELD_FLEX &&
	  tail->offset == offsetof(struct fa_test_layout, tail));
	i = field_index(st, "x,y,z");
	T("x, y and z share their storage unit", i >= 0 &&
	  st->fields[i].kind == FA_FIELD_BITGROUP);
	T("y is 5 bits after x", st->fields[field_index(st, "y")].bit_offset == 3 &&
	  st->fields[field_index(st, "y")].bit_size == 5);
	T("units", st->nr_units == 12);
	T("leaf of the middle of l", fa_struct__find_leaf(st,
		offsetof(struct fa_test_layout, l) + 3) == field_index(st, "l"));
	T("padding after c", fa_struct__find_leaf(st, 1) == -1);
	/* perf is C: nothing of C++ */
	T("a C struct is not C++", !st->cxx && !st->cxx_name && !st->cxx_open &&
	  !st->fields[0].cxx_decl && !st->std_lib);
	return TEST_OK;
}

#ifdef HAVE_DWARF_SUPPORT
/*
 * The members data-type profiling built for a type are the ones taken:
 * without the first, the struct has all fields but that one; not when the
 * type is not at the DIE they were built from.
 */
static bool fields__from_members(Dwarf *dbg, const struct fa_struct *st)
{
	struct annotated_member self = { .offset = 0, }, cut = { .offset = 0, };
	struct fa_struct *built = NULL, *elsewhere = NULL;
	struct annotated_member *first;
	Dwarf_Die die;
	bool ok;

	INIT_LIST_HEAD(&self.children);
	INIT_LIST_HEAD(&cut.children);
	if (dwarf_offdie(dbg, st->die_offset, &die) &&
	    !annotated_member__add_children(&self, &die) && !list_empty(&self.children)) {
		first = list_first_entry(&self.children, struct annotated_member, node);
		list_move(&first->node, &cut.children);
		built = fa_struct__from_members(dbg, "struct fa_test_layout", st->size,
						st->die_offset, &self);
		elsewhere = fa_struct__from_members(dbg, "struct fa_test_layout", st->size,
						    st->die_offset + 1, &self);
	}
	ok = built && built->nr_fields == st->nr_fields - 1 &&
	     !strcmp(built->fields[0].name, st->fields[1].name) &&
	     elsewhere && elsewhere->nr_fields == st->nr_fields;
	fa_struct__delete(built);
	fa_struct__delete(elsewhere);
	annotated_member__delete_children(&self);
	annotated_member__delete_children(&cut);
	return ok;
}
#endif

static int test__affinity_fields_dwarf(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
#ifdef HAVE_DWARF_SUPPORT
	char path[PATH_MAX];
	struct debuginfo *di;
	struct fa_struct *st, *by_die, *bad_die;
	bool from_members;
	int err;

	perf_exe(path, sizeof(path));
	di = debuginfo__new(path);
	if (!di) {
		pr_debug("no debuginfo for %s\n", path);
		return TEST_SKIP;
	}
	st = fa_struct__from_dwarf(di->dbg, "struct fa_test_layout",
				   sizeof(struct fa_test_layout), /*die_offset=*/0);
	T("struct fa_test_layout in perf's DWARF", st);
	/* data-type profiling gives the DIE: no search; a wrong one is not taken */
	by_die = fa_struct__from_dwarf(di->dbg, "struct fa_test_layout",
				       sizeof(struct fa_test_layout), st->die_offset);
	bad_die = fa_struct__from_dwarf(di->dbg, "struct fa_test_layout",
					sizeof(struct fa_test_layout), st->die_offset + 1);
	from_members = fields__from_members(di->dbg, st);
	debuginfo__delete(di);
	T("the same struct from its DIE", by_die && by_die->die_offset == st->die_offset &&
	  by_die->nr_fields == st->nr_fields &&
	  !memcmp(by_die->leaves, st->leaves, st->nr_leaves * sizeof(*st->leaves)));
	T("and by its name from a wrong DIE", bad_die && bad_die->die_offset == st->die_offset);
	T("from the members data-type profiling built", from_members);
	fa_struct__delete(by_die);
	fa_struct__delete(bad_die);
	for (int i = 0; i < st->nr_fields; i++)
		pr_debug("%-12s %-14s%-16s off %3u size %2u align %2u bits %2u:%-2u kind %d unit %d\n",
			 st->fields[i].name, st->fields[i].type, st->fields[i].suffix,
			 st->fields[i].offset, st->fields[i].size, st->fields[i].align,
			 st->fields[i].bit_offset, st->fields[i].bit_size, st->fields[i].kind,
			 st->fields[i].unit);
	err = check_layout(st);
	fa_struct__delete(st);
	return err;
#else
	return TEST_SKIP;
#endif
}

#ifdef HAVE_DWARF_SUPPORT
static int exe__load_base(struct dl_phdr_info *info, size_t size __maybe_unused, void *data)
{
	/* the first object is the executable */
	*(u64 *)data = info->dlpi_addr;
	return 1;
}
#endif

static int test__affinity_fields_var(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
#ifdef HAVE_DWARF_SUPPORT
	const char *var = "fa_test_layout_instance";
	u64 die[2] = { 0, 1 }, var_die[2] = { 0, 1 }, base = 0, addr;
	struct fa_dwarf_vars *vars;
	char path[PATH_MAX];
	struct debuginfo *di;
	struct strbuf name;
	int err[2], miss[2];
	bool array;
	u32 size;

	perf_exe(path, sizeof(path));
	di = debuginfo__new(path);
	if (!di)
		return TEST_SKIP;
	vars = fa_dwarf_vars__new(di->dbg);
	dl_iterate_phdr(exe__load_base, &base);
	/* the link-time address DWARF has */
	addr = (u64)(uintptr_t)&fa_test_layout_instance - base;
	strbuf_init(&name, 64);
	for (int i = 0; i < 2; i++) {
		const struct fa_dwarf_vars *v = i ? vars : NULL;

		strbuf_setlen(&name, 0);
		err[i] = fa_dwarf__var_type(di->dbg, v, var, addr, &name, &size, &array, &die[i],
					    &var_die[i]);
		miss[i] = fa_dwarf__var_type(di->dbg, v, var, addr + 8, &name, &size, &array,
					     &die[i], &var_die[i]);
	}
	strbuf_release(&name);
	fa_dwarf_vars__delete(vars);
	debuginfo__delete(di);
	T("the index of variables", vars);
	T("a struct variable found by the walk", !err[0]);
	T("and by the index, at the same DIE", !err[1] && die[1] == die[0] &&
	  var_die[1] == var_die[0]);
	T("none at another address", miss[0] == -ENOENT && miss[1] == -ENOENT);
	return TEST_OK;
#else
	return TEST_SKIP;
#endif
}

/*
 * The leaves a wide access covers after the first: a 16-byte vector load
 * of two longs reads both; a bitfield's storage unit and a union are one
 * leaf each; nothing past the struct
 */
static int test__affinity_fields_wide(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(4), *bl = blocks__new();
	int more[8], n;

	TEST_ASSERT_VAL("structs", st && bl);
	n = fa_struct__next_leaves(st, 0, 16, more, 8);
	TEST_ASSERT_VAL("16 bytes at f0: f1 too", n == 1 && more[0] == 1);
	n = fa_struct__next_leaves(st, 1, 40, more, 8);
	TEST_ASSERT_VAL("32 bytes at f1: f2 and f3, not past the end",
			n == 2 && more[0] == 2 && more[1] == 3);
	n = fa_struct__next_leaves(st, 2, 24, more, 8);
	TEST_ASSERT_VAL("8 bytes at f2: no more", n == 0);
	n = fa_struct__next_leaves(st, 0, 32, more, 1);
	TEST_ASSERT_VAL("no more than room for", n == 1);
	/* a (0, 8), x:3 y:5 in the unit at 8, u (12), b (16) */
	n = fa_struct__next_leaves(bl, 0, 24, more, 8);
	for (int i = 0; i < n; i++)
		pr_debug("16 bytes at a: %s at %u\n", bl->fields[more[i]].name,
			 bl->fields[more[i]].offset);
	TEST_ASSERT_VAL("16 bytes at a: the bitfields, u and b",
			n == 3 && bl->fields[more[0]].offset == 8 &&
			bl->fields[more[1]].offset == 12 && bl->fields[more[2]].offset == 16);
	fa_struct__delete(st);
	fa_struct__delete(bl);
	return TEST_OK;
}

static struct test_case tests__affinity_fields[] = {
	TEST_CASE("Fields, units and leaves of a struct", affinity_fields_manual),
	TEST_CASE("Zero-length group markers hold no access", affinity_fields_markers),
	TEST_CASE("The leaves a wide access covers", affinity_fields_wide),
	TEST_CASE("A struct from DWARF matches the compiler's layout", affinity_fields_dwarf),
	TEST_CASE("A variable by address, indexed as walked", affinity_fields_var),
	{	.name = NULL, }
};

struct test_suite suite__affinity_fields = {
	.desc = "perf affinity: field tables",
	.test_cases = tests__affinity_fields,
};
