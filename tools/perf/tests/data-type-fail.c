// SPDX-License-Identifier: GPL-2.0
/*
 * symbol__get_data_type() says why it found no data type: a caller that
 * needs the reason of one lookup had to compare ann_data_stat's counters
 * before and after it.
 */
#include <elf.h>
#include <linux/compiler.h>
#include "annotate.h"
#include "debug.h"
#include "dso.h"
#include "map.h"
#include "map_symbol.h"
#include "symbol.h"
#include "tests.h"

static int test__data_type_fail(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	bool init_annotation = symbol_conf.init_annotation;
	enum data_type_fail fail = DATA_TYPE_FOUND;
	struct map_symbol ms = { .map = NULL, };
	struct dso *dso;
	int offset = 0, ret = TEST_OK;

	TEST_ASSERT_VAL("no symbol", !symbol__get_data_type(&ms, 0, NULL, 0, NULL, &offset,
							     &fail) &&
			fail == DATA_TYPE_NO_SYM);

	dso = dso__new("/nonexistent/perf-test-no-debuginfo");
	ms.map = dso ? map__new2(0x1000, dso) : NULL;
	ms.sym = symbol__new(0, 16, STB_GLOBAL, STT_FUNC, "f");
	if (!ms.map || !ms.sym) {
		ret = TEST_FAIL;
		goto out;
	}
	symbol_conf.init_annotation = true;
	fail = DATA_TYPE_FOUND;
	if (symbol__get_data_type(&ms, 0x1004, NULL, 0, NULL, &offset, &fail) ||
	    fail != DATA_TYPE_NO_DBGINFO)
		ret = TEST_FAIL;
	/* the reason is optional */
	if (symbol__get_data_type(&ms, 0x1004, NULL, 0, NULL, &offset, NULL))
		ret = TEST_FAIL;
	symbol_conf.init_annotation = init_annotation;
out:
	symbol__delete(ms.sym);
	map__put(ms.map);
	dso__put(dso);
	return ret;
}

DEFINE_SUITE("perf data-type profiling says why it found no type", data_type_fail);
