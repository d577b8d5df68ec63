// SPDX-License-Identifier: GPL-2.0
/*
 * The callers of dso__data_type_debuginfo() share data-type profiling's
 * instance of a DSO's debug info, which lives until the last reference
 * to it is put.
 */
#include <limits.h>
#include <linux/compiler.h>
#include "annotate.h"
#include "debug.h"
#include "debuginfo.h"
#include "dso.h"
#include "tests.h"
#include "util.h"

static int test__debuginfo_shared(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
#ifdef HAVE_DWARF_SUPPORT
	struct debuginfo *first, *second;
	char path[PATH_MAX];
	struct dso *dso;
	Dwarf_Off off = 0, next;
	size_t header_size;
	int ret = TEST_OK;

	perf_exe(path, sizeof(path));
	dso = dso__new(path);
	if (!dso)
		return TEST_FAIL;
	first = dso__data_type_debuginfo(dso);
	if (!first) {
		dso__put(dso);
		return TEST_SKIP;
	}
	second = dso__data_type_debuginfo(dso);
	if (second != first)
		ret = TEST_FAIL;
	/* the cache's reference and ours stay: the instance still reads */
	debuginfo__delete(second);
	debuginfo_cache__delete();
	if (dwarf_nextcu(first->dbg, off, &next, &header_size, NULL, NULL, NULL) != 0)
		ret = TEST_FAIL;
	debuginfo__delete(first);
	dso__put(dso);
	return ret;
#else
	return TEST_SKIP;
#endif
}

DEFINE_SUITE("Data-type profiling shares its debug info with its callers", debuginfo_shared);
