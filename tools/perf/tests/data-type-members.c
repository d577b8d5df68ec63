// SPDX-License-Identifier: GPL-2.0
/*
 * The members data-type profiling finds in a struct read from perf's own
 * DWARF: their offsets as the compiler has them, nested ones under their
 * struct or union, and the DIE of each, which a tool reading more of a
 * member than its name and size finds again by its offset.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include "annotate-data.h"
#include "debug.h"
#include "debuginfo.h"
#include "tests.h"
#include "util.h"

#ifdef HAVE_DWARF_SUPPORT
struct member_test_inner {
	int	nr;
	int	load;
};

struct member_test {
	char				c;
	struct member_test_inner	inner;
	unsigned int			x:3, y:5;
	union {
		long	ua;
		void	*ub;
	};
	long				last;
};

/* The test reads it, so the type is in perf's DWARF */
static struct member_test member_test_instance;

static int member_test__match(Dwarf_Die *die, void *arg __maybe_unused)
{
	const char *name = dwarf_diename(die);

	if (dwarf_tag(die) == DW_TAG_structure_type && name &&
	    !strcmp(name, "member_test") && !dwarf_hasattr(die, DW_AT_declaration))
		return DIE_FIND_CB_END;
	return DIE_FIND_CB_SIBLING;
}

/* The definition of struct member_test in one of perf's compilation units */
static bool member_test__find(Dwarf *dbg, Dwarf_Die *type)
{
	Dwarf_Off off = 0, next;
	size_t header_size;
	Dwarf_Die cu;

	while (dwarf_nextcu(dbg, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dbg, off + header_size, &cu) &&
		    die_find_child(&cu, member_test__match, NULL, type))
			return true;
		off = next;
	}
	return false;
}

/* @m is at @offset, named @name (NULL: anonymous), and its DIE says so too */
static bool member_test__is(Dwarf *dbg, struct annotated_member *m, const char *name,
			    int offset)
{
	Dwarf_Die die;
	const char *die_name;

	if (m->offset != offset || !dwarf_offdie(dbg, m->die_offset, &die) ||
	    dwarf_tag(&die) != DW_TAG_member)
		return false;
	die_name = dwarf_diename(&die);
	if (!name)
		return !m->var_name && !die_name;
	/* a bitfield's var_name has its width: "x:3" */
	return m->var_name && die_name && !strcmp(die_name, name) &&
	       !strncmp(m->var_name, name, strlen(name));
}

static struct annotated_member *member_test__next(struct annotated_member *parent,
						  struct annotated_member *m)
{
	return list_is_last(&m->node, &parent->children) ? NULL : list_next_entry(m, node);
}

#define OFF(member) offsetof(struct member_test, member)

static int member_test__check(Dwarf *dbg, struct annotated_member *self)
{
	struct annotated_member *m, *inner, *anon;

	m = list_first_entry(&self->children, struct annotated_member, node);
	TEST_ASSERT_VAL("c", member_test__is(dbg, m, "c", 0));
	inner = m = member_test__next(self, m);
	TEST_ASSERT_VAL("inner", m && member_test__is(dbg, m, "inner", OFF(inner)));
	/* a bitfield is at the byte of its first bit, right after inner here */
	m = member_test__next(self, m);
	TEST_ASSERT_VAL("x", m && member_test__is(dbg, m, "x", OFF(inner) + 8));
	m = member_test__next(self, m);
	TEST_ASSERT_VAL("y", m && member_test__is(dbg, m, "y", OFF(inner) + 8));
	anon = m = member_test__next(self, m);
	TEST_ASSERT_VAL("the anonymous union", m && member_test__is(dbg, m, NULL, OFF(ua)));
	m = member_test__next(self, m);
	TEST_ASSERT_VAL("last", m && member_test__is(dbg, m, "last", OFF(last)));
	TEST_ASSERT_VAL("nothing after last", !member_test__next(self, m));

	m = list_first_entry(&inner->children, struct annotated_member, node);
	TEST_ASSERT_VAL("inner.nr", member_test__is(dbg, m, "nr", OFF(inner.nr)));
	m = member_test__next(inner, m);
	TEST_ASSERT_VAL("inner.load", m && member_test__is(dbg, m, "load", OFF(inner.load)));
	m = list_first_entry(&anon->children, struct annotated_member, node);
	TEST_ASSERT_VAL("ua", member_test__is(dbg, m, "ua", OFF(ua)));
	m = member_test__next(anon, m);
	TEST_ASSERT_VAL("ub", m && member_test__is(dbg, m, "ub", OFF(ub)));
	return TEST_OK;
}

static int test__data_type_members(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct annotated_member self = { .offset = 0, };
	char path[PATH_MAX];
	struct debuginfo *di;
	Dwarf_Die type;
	int ret;

	perf_exe(path, sizeof(path));
	di = debuginfo__new(path);
	if (!di) {
		pr_debug("no debuginfo for %s\n", path);
		return TEST_SKIP;
	}
	INIT_LIST_HEAD(&self.children);
	pr_debug("struct member_test at %p\n", &member_test_instance);
	if (!member_test__find(di->dbg, &type)) {
		pr_debug("no struct member_test in %s\n", path);
		ret = TEST_FAIL;
		goto out;
	}
	ret = annotated_member__add_children(&self, &type) ? TEST_FAIL :
	      member_test__check(di->dbg, &self);
	annotated_member__delete_children(&self);
out:
	debuginfo__delete(di);
	return ret;
}
#else
static int test__data_type_members(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	return TEST_SKIP;
}
#endif

DEFINE_SUITE("perf data-type profiling finds the members of a type and their DIEs",
	     data_type_members);
