// SPDX-License-Identifier: GPL-2.0
/*
 * die_get_cfa() frees the frame libdw gives it.  Data-type profiling asks
 * for the CFA of the function of every instruction it types whose frame
 * base is DW_OP_call_frame_cfa; in a vmlinux (which has .debug_frame) the
 * frames it kept took 160 MB in a report of 31 k samples.
 *
 * It needs a binary with .debug_frame: 'perf test --dso FILE', as the
 * shell test data_type_cfa.sh gives it.
 */
#include <inttypes.h>
#include <malloc.h>
#include <linux/compiler.h>
#include "debug.h"
#include "debuginfo.h"
#include "tests.h"

#define NR_CALLS 10000

#if defined(HAVE_DWARF_SUPPORT) && defined(HAVE_DWARF_CFI_SUPPORT)
/* The start of the first function of @dbg that has a CFA */
static bool first_cfa(Dwarf *dbg, Dwarf_Addr *pc)
{
	Dwarf_Off off = 0, next;
	size_t header_size;
	int reg, offset;

	while (dwarf_nextcu(dbg, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(dbg, off + header_size, &cu) && dwarf_child(&cu, &die) == 0) {
			do {
				if (dwarf_tag(&die) == DW_TAG_subprogram &&
				    dwarf_lowpc(&die, pc) == 0 &&
				    die_get_cfa(dbg, *pc, &reg, &offset) == 0)
					return true;
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	return false;
}

static int test__dwarf_cfa(struct test_suite *test __maybe_unused, int subtest __maybe_unused)
{
	struct debuginfo *di;
	size_t before, after;
	int reg, offset;
	Dwarf_Addr pc;

	if (dso_to_test == NULL) {
		pr_debug("needs --dso: a binary with .debug_frame\n");
		return TEST_SKIP;
	}
	di = debuginfo__new(dso_to_test);
	if (di == NULL)
		return TEST_SKIP;
	if (!first_cfa(di->dbg, &pc)) {
		pr_debug("%s: no function with a CFA in .debug_frame\n", dso_to_test);
		debuginfo__delete(di);
		return TEST_SKIP;
	}
	before = mallinfo2().uordblks;
	for (int i = 0; i < NR_CALLS; i++)
		die_get_cfa(di->dbg, pc, &reg, &offset);
	after = mallinfo2().uordblks;
	debuginfo__delete(di);
	pr_debug("CFA at %#" PRIx64 ": %zd bytes more after %d calls\n", (u64)pc,
		 (ssize_t)(after - before), NR_CALLS);
	/* a frame is a few hundred bytes: what is left must not grow per call */
	TEST_ASSERT_VAL("memory kept by the calls", after < before + NR_CALLS * 8);
	return TEST_OK;
}
#else
static int test__dwarf_cfa(struct test_suite *test __maybe_unused, int subtest __maybe_unused)
{
	return TEST_SKIP;
}
#endif

DEFINE_SUITE("die_get_cfa() frees the frame of the CFA", dwarf_cfa);
