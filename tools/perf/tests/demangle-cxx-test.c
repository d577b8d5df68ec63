// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "tests.h"
#include "debug.h"
#include "demangle-cxx.h"

/*
 * Names that are no C++ symbol's encoding stay as they are: __cxa_demangle()
 * would take 'w' for wchar_t, a C program's function w() showing as
 * 'wchar_t' in every report.
 */
static int test__demangle_cxx(struct test_suite *test __maybe_unused,
			      int subtest __maybe_unused)
{
	static const char * const plain[] = { "w", "i", "c", "x", "main", "St6vector" };
	char *buf = cxx_demangle_sym("_Z3fooi", false, false);
	int ret = TEST_OK;

	if (!buf) {
		pr_debug("no C++ demangler in this perf\n");
		return TEST_SKIP;
	}
	if (strncmp(buf, "foo", 3)) {
		pr_debug("FAILED: _Z3fooi: %s\n", buf);
		ret = TEST_FAIL;
	}
	free(buf);
	for (size_t i = 0; i < ARRAY_SIZE(plain); i++) {
		buf = cxx_demangle_sym(plain[i], false, false);
		if (buf) {
			pr_debug("FAILED: %s: %s, not left as it is\n", plain[i], buf);
			ret = TEST_FAIL;
		}
		free(buf);
	}
	return ret;
}

DEFINE_SUITE("Demangle C++", demangle_cxx);
