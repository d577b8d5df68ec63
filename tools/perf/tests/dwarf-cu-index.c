// SPDX-License-Identifier: GPL-2.0
/*
 * The index of the top level of a compile unit answers what the walks it
 * replaces answer: die_get_scopes() and die_find_func_rettype(), on the
 * functions of perf's own debug info.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <linux/compiler.h>
#include "debug.h"
#include "debuginfo.h"
#include "tests.h"
#include "util.h"

#ifdef HAVE_DWARF_SUPPORT
static bool same_scopes(const Dwarf_Die *a, int nr_a, const Dwarf_Die *b, int nr_b)
{
	if (nr_a != nr_b)
		return false;
	for (int i = 0; i < nr_a; i++) {
		if (a[i].addr != b[i].addr)
			return false;
	}
	return true;
}

static bool check_scopes(struct die_cu_index *idx, Dwarf_Die *cu, Dwarf_Addr pc)
{
	Dwarf_Die *walked = NULL, *indexed = NULL;
	int nr_walked = die_get_scopes(cu, pc, &walked);
	int nr_indexed = die_cu_index__get_scopes(idx, cu, pc, &indexed);
	bool same = same_scopes(walked, nr_walked, indexed, nr_indexed);

	if (!same)
		pr_debug("%s: %d scopes at %#" PRIx64 ", %d indexed\n", dwarf_diename(cu),
			 nr_walked, (u64)pc, nr_indexed);
	free(walked);
	free(indexed);
	return same;
}

static bool check_rettype(struct die_cu_index *idx, Dwarf_Die *cu, const char *name)
{
	Dwarf_Die walked, indexed;
	bool found = die_find_func_rettype(cu, name, &walked) != NULL;

	if (die_cu_index__find_func_rettype(idx, cu, name, &indexed) != NULL)
		return found && walked.addr == indexed.addr;
	return !found;
}

/* The first, middle and last byte of every range of every function, and past it */
static bool check_cu(Dwarf_Die *cu, int *nr_funcs)
{
	struct die_cu_index *idx = die_cu_index__new(cu);
	bool ok = idx != NULL;
	Dwarf_Die die;

	if (!ok || dwarf_child(cu, &die) != 0)
		goto out;
	do {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;

		if (dwarf_tag(&die) != DW_TAG_subprogram)
			continue;
		while (ok && (off = dwarf_ranges(&die, off, &base, &start, &end)) > 0) {
			ok = check_scopes(idx, cu, start) &&
			     check_scopes(idx, cu, start + (end - start) / 2) &&
			     check_scopes(idx, cu, end - 1) && check_scopes(idx, cu, end);
		}
		if (ok && dwarf_diename(&die)) {
			ok = check_rettype(idx, cu, dwarf_diename(&die));
			if (!ok)
				pr_debug("%s: return type of %s\n", dwarf_diename(cu),
					 dwarf_diename(&die));
		}
		(*nr_funcs)++;
	} while (ok && dwarf_siblingof(&die, &die) == 0);
	if (ok && check_rettype(idx, cu, "no function has this name") == false) {
		pr_debug("%s: a function that does not exist\n", dwarf_diename(cu));
		ok = false;
	}
out:
	die_cu_index__delete(idx);
	return ok;
}

static int test__dwarf_cu_index(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	Dwarf_Off off = 0, next;
	char path[PATH_MAX];
	struct debuginfo *di;
	size_t header_size;
	int nr_cus = 0, nr_funcs = 0, ret = TEST_OK;

	perf_exe(path, sizeof(path));
	di = debuginfo__new(path);
	if (!di) {
		pr_debug("no debuginfo for %s\n", path);
		return TEST_SKIP;
	}
	while (ret == TEST_OK &&
	       dwarf_nextcu(di->dbg, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(di->dbg, off + header_size, &cu)) {
			if (!check_cu(&cu, &nr_funcs))
				ret = TEST_FAIL;
			/* made once per CU, then kept */
			if (debuginfo__cu_index(di, &cu) != debuginfo__cu_index(di, &cu))
				ret = TEST_FAIL;
			nr_cus++;
		}
		off = next;
	}
	pr_debug("%d compile units, %d functions\n", nr_cus, nr_funcs);
	debuginfo__delete(di);
	if (ret == TEST_OK && nr_funcs == 0)
		return TEST_SKIP;
	return ret;
}
#else
static int test__dwarf_cu_index(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	return TEST_SKIP;
}
#endif

DEFINE_SUITE("DWARF scopes and return types from an index of the compile unit",
	     dwarf_cu_index);
