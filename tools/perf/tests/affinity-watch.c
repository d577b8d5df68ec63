// SPDX-License-Identifier: GPL-2.0
/* perf affinity record --watch: what the watchpoints' helpers decide */
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include "affinity/watch/watch.h"
#include "debug.h"
#include "event.h"
#include "sample.h"
#include "tests.h"

/* What --watch auto takes a sample at @off of @code (in this process) to access */
static u64 learn_addr(const u8 *code, u32 off)
{
	/* %rax (bit 0) and %rbx (bit 1), as sampled */
	u64 vals[2] = { 0x2000, 0x1000 };
	struct regs_dump regs = {
		.abi = PERF_SAMPLE_REGS_ABI_64, .mask = 3, .regs = vals,
	};

	return fa_watch_learn__addr(getpid(), (uintptr_t)code + off, &regs);
}

/*
 * --watch auto learns the line from samples decoded in the running
 * workload: the instruction at the IP, else the one before it whose
 * address registers still hold (a timer interrupt after the access, as
 * on AMD); never a stack slot.
 */
static int test__affinity_learn_addr(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	static const u8 code[] = {
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x48, 0x8b, 0x4b, 0x08,		/* 16: mov 0x8(%rbx),%rcx */
		0x48, 0x01, 0xd9,		/* 20: add %rbx,%rcx */
		0x48, 0x8b, 0x40, 0x10,		/* 23: mov 0x10(%rax),%rax */
		0x48, 0x01, 0xd8,		/* 27: add %rbx,%rax */
		0x48, 0x8b, 0x44, 0x24, 0x08,	/* 30: mov 0x8(%rsp),%rax */
		0xc3,				/* 35: ret */
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
	};

	TEST_ASSERT_VAL("the load at the IP", learn_addr(code, 16) == 0x1008);
	TEST_ASSERT_VAL("the load before, after an interrupt", learn_addr(code, 20) == 0x1008);
	TEST_ASSERT_VAL("the load before overwrote its base", learn_addr(code, 27) == 0);
	TEST_ASSERT_VAL("a stack slot", learn_addr(code, 30) == 0);
	TEST_ASSERT_VAL("no memory, nothing before", learn_addr(code, 35) == 0);
	return TEST_OK;
}

static struct test_case tests__affinity_watch[] = {
	TEST_CASE("--watch auto decodes the sample, or the access before it", affinity_learn_addr),
	{	.name = NULL, }
};

struct test_suite suite__affinity_watch = {
	.desc = "perf affinity: watchpoints",
	.test_cases = tests__affinity_watch,
};
