// SPDX-License-Identifier: GPL-2.0
/*
 * Macro-fusion joins a compare, test or ALU instruction with the conditional
 * jump right after it.  Data-type profiling takes the memory operand of the
 * instruction before the sampled one when the two are fused: taking any
 * instruction after an 'add' as fused gave a stack canary load the type of
 * the add's operand ('movq %fs:0x28,%rax' after 'addq 0x8(%rdi),%rsi' was
 * 'struct slot_stats +0x8').
 */
#include <stdio.h>
#include <string.h>
#include <linux/kernel.h>
#include "debug.h"
#include "disasm.h"
#include "tests.h"

/* The x86 arch as on a CPU of @cpuid ("vendor,family,model,stepping") */
static struct arch *x86__init(const char *cpuid)
{
	struct arch *arch = arch__find("x86");
	char buf[64];

	if (!arch || !arch->init)
		return NULL;
	snprintf(buf, sizeof(buf), "%s", cpuid);
	arch->initialized = false;
	return arch->init(arch, buf) ? NULL : arch;
}

static int test__disasm_fused(struct test_suite *test __maybe_unused,
			      int subtest __maybe_unused)
{
	static const char * const cpuids[] = {
		"AuthenticAMD,25,17,1",		/* family 19h: ALU + branch fusion */
		"GenuineIntel,6,85,4",		/* Skylake server */
	};
	static const struct {
		const char	*ins1, *ins2;
		bool		 fused;
	} pairs[] = {
		{ "cmpq",  "jne",  true },
		{ "testl", "je",   true },
		{ "addq",  "jae",  true },
		{ "addq",  "movq", false },	/* the stack canary load above */
		{ "subl",  "movl", false },
		{ "cmpq",  "jmp",  false },
		{ "andl",  "callq", false },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cpuids); c++) {
		struct arch *arch = x86__init(cpuids[c]);

		TEST_ASSERT_VAL("x86 annotation arch", arch && arch->ins_is_fused);
		for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
			bool fused = ins__is_fused(arch, pairs[i].ins1, pairs[i].ins2);

			if (fused != pairs[i].fused) {
				pr_debug("%s: '%s' + '%s' %s\n", cpuids[c], pairs[i].ins1,
					 pairs[i].ins2, fused ? "fused" : "not fused");
				return TEST_FAIL;
			}
		}
	}
	return TEST_OK;
}

DEFINE_SUITE("Disassembler fuses only a conditional jump with the insn before", disasm_fused);
