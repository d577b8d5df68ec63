// SPDX-License-Identifier: GPL-2.0
/*
 * Memory operands of x86 instructions: direction, size and the effective
 * address computed from sampled registers.  The encodings are GNU as output.
 */
#include <inttypes.h>
#include <string.h>
#include <linux/kernel.h>
#include "debug.h"
#include "insn-access.h"
#include "sample.h"
#include "tests.h"
#include "../../arch/x86/include/uapi/asm/perf_regs.h"

#define IP	0x1000ULL

#define LD	INSN_ACCESS_OP_LOAD
#define ST	INSN_ACCESS_OP_STORE
#define RMW	INSN_ACCESS_OP_RMW
#define PF	INSN_ACCESS_OP_PREFETCH
#define OK	INSN_ACCESS__OK

struct insn_case {
	const char	*text;
	u8		 code[15];
	u8		 len;
	u8		 result;
	u8		 op;
	u16		 size;
	u16		 flags;
	u64		 addr;
};

#define C(t, b, r, o, sz, fl, a) { t, b, sizeof((u8[])b), r, o, sz, fl, a }
#define B(...) { __VA_ARGS__ }

static const struct insn_case insn_cases[] = {
C("mov 0x8(%rdi),%rax", B(0x48, 0x8b, 0x47, 0x08), OK, LD, 8, 0, 0x600008),
C("mov %eax,0x10(%rsi,%rcx,4)", B(0x89, 0x44, 0x8e, 0x10), OK, ST, 4, 0, 0x50001c),
C("addq $0x1,(%rdi)", B(0x48, 0x83, 0x07, 0x01), OK, RMW, 8, 0, 0x600000),
C("lock xadd %eax,0x40(%rbx)", B(0xf0, 0x0f, 0xc1, 0x43, 0x40), OK, RMW, 4,
	INSN_ACCESS_F_LOCK, 0x200040),
C("xchg %eax,(%rdi)", B(0x87, 0x07), OK, RMW, 4, INSN_ACCESS_F_LOCK, 0x600000),
C("movzbl 0x3(%r12),%edx", B(0x41, 0x0f, 0xb6, 0x54, 0x24, 0x03), OK, LD, 1, 0, 0x840003),
C("cmpl $0x5,0x20(%r13)", B(0x41, 0x83, 0x7d, 0x20, 0x05), OK, LD, 4, 0, 0x850020),
C("mov 0x1234(%rip),%rax", B(0x48, 0x8b, 0x05, 0x34, 0x12, 0x00, 0x00), OK, LD, 8, 0,
	IP + 7 + 0x1234),
C("movsd 0x18(%rax),%xmm0", B(0xf2, 0x0f, 0x10, 0x40, 0x18), OK, LD, 8, 0, 0x100018),
C("movdqu %xmm1,(%rdx)", B(0xf3, 0x0f, 0x7f, 0x0a), OK, ST, 16, 0, 0x400000),
C("vmovdqu (%rcx),%ymm2", B(0xc5, 0xfe, 0x6f, 0x11), OK, LD, 32, 0, 0x3),
C("vmovdqu64 %zmm16,(%rdi)", B(0x62, 0xe1, 0xfe, 0x48, 0x7f, 0x07), OK, ST, 64, 0, 0x600000),
C("vmovdqu8 %zmm16,(%rax){%k1}", B(0x62, 0xe1, 0x7f, 0x49, 0x7f, 0x00), OK, ST, 64,
	INSN_ACCESS_F_MASKED, 0x100000),
C("lea 0x8(%rdi),%rax", B(0x48, 0x8d, 0x47, 0x08), INSN_ACCESS__NO_MEM, 0, 0, 0, 0),
C("nopw (%rax,%rax,1)", B(0x66, 0x0f, 0x1f, 0x04, 0x00), INSN_ACCESS__NO_MEM, 0, 0, 0, 0),
C("push %rbp", B(0x55), INSN_ACCESS__STACK, 0, 0, 0, 0),
C("call *0x10(%rax)", B(0xff, 0x50, 0x10), OK, LD, 8, 0, 0x100010),
C("rep movsb", B(0xf3, 0xa4), OK, LD, 1, INSN_ACCESS_F_STRING | INSN_ACCESS_F_REP,
	0x500000),
C("mov %fs:0x28,%rax", B(0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00), OK, LD, 8,
	INSN_ACCESS_F_SEG_FS, 0x28),
C("mov %gs:0x18,%rax", B(0x65, 0x48, 0x8b, 0x04, 0x25, 0x18, 0x00, 0x00, 0x00), OK, LD, 8,
	INSN_ACCESS_F_SEG_GS, 0x18),
C("prefetcht0 (%rdi)", B(0x0f, 0x18, 0x0f), OK, PF, 1, 0, 0x600000),
C("vpgatherdd %ymm0,(%rax,%ymm1,4),%ymm2", B(0xc4, 0xe2, 0x7d, 0x90, 0x14, 0x88),
	INSN_ACCESS__VSIB, 0, 0, 0, 0),
C("movabs 0x1122334455667788,%eax", B(0xa1, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11),
	OK, LD, 4, INSN_ACCESS_F_ABS, 0x1122334455667788ULL),
C("mov (%rax),%ah", B(0x8a, 0x20), OK, LD, 1, 0, 0x100000),
C("testb $0x1,0x7(%rbx)", B(0xf6, 0x43, 0x07, 0x01), OK, LD, 1, 0, 0x200007),
C("lock cmpxchg %rcx,(%rdx)", B(0xf0, 0x48, 0x0f, 0xb1, 0x0a), OK, RMW, 8,
	INSN_ACCESS_F_LOCK, 0x400000),
C("bts %rax,(%rdi)", B(0x48, 0x0f, 0xab, 0x07), OK, RMW, 8, INSN_ACCESS_F_BITOFF, 0x600000),
C("mov 0x8(,%rax,8),%rdx", B(0x48, 0x8b, 0x14, 0xc5, 0x08, 0x00, 0x00, 0x00), OK, LD, 8, 0,
	0x800008),
C("mov (%rsp),%rax", B(0x48, 0x8b, 0x04, 0x24), OK, LD, 8, INSN_ACCESS_F_FRAME, 0x7ff000),
C("mov 0x0(%rbp),%rax", B(0x48, 0x8b, 0x45, 0x00), OK, LD, 8, INSN_ACCESS_F_FRAME, 0x700000),
C("add 0x8(%rdi),%rdi", B(0x48, 0x03, 0x7f, 0x08), OK, LD, 8, 0, 0x600008),
C("movss %xmm3,0x4(%r8)", B(0xf3, 0x41, 0x0f, 0x11, 0x58, 0x04), OK, ST, 4, 0, 0x800004),
C("vmovsd 0x10(%r9),%xmm4", B(0xc4, 0xc1, 0x7b, 0x10, 0x61, 0x10), OK, LD, 8, 0, 0x810010),
C("incl 0x4(%r10)", B(0x41, 0xff, 0x42, 0x04), OK, RMW, 4, 0, 0x820004),
C("setne 0x1(%r11)", B(0x41, 0x0f, 0x95, 0x43, 0x01), OK, ST, 1, 0, 0x830001),
C("mov %r14w,0x2(%r15)", B(0x66, 0x45, 0x89, 0x77, 0x02), OK, ST, 2, 0, 0x870002),
C("movq %xmm0,0x8(%rsi)", B(0x66, 0x0f, 0xd6, 0x46, 0x08), OK, ST, 8, 0, 0x500008),
C("jne .", B(0x75, 0xfe), INSN_ACCESS__NO_MEM, 0, 0, 0, 0),
C("ret", B(0xc3), INSN_ACCESS__STACK, 0, 0, 0, 0),
};

/* A register file where every general purpose register points somewhere else. */
static void fake_regs__init(struct regs_dump *regs, u64 *vals)
{
	static const struct { int id; u64 val; } gprs[] = {
		{ PERF_REG_X86_AX, 0x100000 }, { PERF_REG_X86_BX, 0x200000 },
		{ PERF_REG_X86_CX, 0x3 },      { PERF_REG_X86_DX, 0x400000 },
		{ PERF_REG_X86_SI, 0x500000 }, { PERF_REG_X86_DI, 0x600000 },
		{ PERF_REG_X86_BP, 0x700000 }, { PERF_REG_X86_SP, 0x7ff000 },
		{ PERF_REG_X86_IP, IP },
		{ PERF_REG_X86_R8, 0x800000 }, { PERF_REG_X86_R9, 0x810000 },
		{ PERF_REG_X86_R10, 0x820000 }, { PERF_REG_X86_R11, 0x830000 },
		{ PERF_REG_X86_R12, 0x840000 }, { PERF_REG_X86_R13, 0x850000 },
		{ PERF_REG_X86_R14, 0x860000 }, { PERF_REG_X86_R15, 0x870000 },
	};
	int n = 0;

	memset(regs, 0, sizeof(*regs));
	regs->abi = PERF_SAMPLE_REGS_ABI_64;
	for (size_t i = 0; i < ARRAY_SIZE(gprs); i++)
		regs->mask |= 1ULL << gprs[i].id;
	/* Sample register values come in the order of their mask bits. */
	for (int id = 0; id < PERF_REG_X86_64_MAX; id++) {
		for (size_t i = 0; i < ARRAY_SIZE(gprs); i++) {
			if (gprs[i].id == id)
				vals[n++] = gprs[i].val;
		}
	}
	regs->regs = vals;
}

static int check_case(const struct insn_case *c, struct regs_dump *regs)
{
	struct insn_access_insn insn;
	u64 addr = 0;

	if (insn_access__decode(&insn, "x86", c->code, c->len, IP, /*is64bit=*/true)) {
		pr_debug("%s: not decoded\n", c->text);
		return TEST_FAIL;
	}
	pr_debug("%-40s result %d ops %d length %d\n", c->text, insn.result, insn.nr_ops,
		 insn.length);
	if (insn.result != c->result || insn.length != c->len)
		return TEST_FAIL;
	if (c->result != INSN_ACCESS__OK)
		return TEST_OK;
	if (insn_access__addr(&insn, &insn.ops[0], IP, regs, &addr))
		return TEST_FAIL;
	pr_debug("%-40s op %d size %d flags %#x addr %#" PRIx64 "\n", "", insn.ops[0].op,
		 insn.ops[0].size, insn.ops[0].flags, addr);
	if (insn.ops[0].op != c->op || insn.ops[0].size != c->size ||
	    insn.ops[0].flags != c->flags || addr != c->addr)
		return TEST_FAIL;
	return TEST_OK;
}

static int test__insn_access_x86(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	u64 vals[PERF_REG_X86_64_MAX];
	struct insn_access_insn probe;
	struct regs_dump regs;

	insn_access__decode(&probe, "x86", insn_cases[0].code, insn_cases[0].len, IP, true);
	if (probe.result == INSN_ACCESS__UNSUPPORTED) {
		pr_debug("perf built without the x86 instruction decoder (NO_AUXTRACE=1)\n");
		return TEST_SKIP;
	}
	fake_regs__init(&regs, vals);
	for (size_t i = 0; i < ARRAY_SIZE(insn_cases); i++) {
		if (check_case(&insn_cases[i], &regs) != TEST_OK) {
			pr_debug("FAILED: %s\n", insn_cases[i].text);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

static int test__insn_access_lea(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	/* lea -0x200(%rax,%rbx,8),%r12; lea 0x1(%rcx),%edx; mov 0x8(%rdi),%rax */
	static const u8 lea64[] = { 0x4c, 0x8d, 0xa4, 0xd8, 0x00, 0xfe, 0xff, 0xff };
	static const u8 lea32[] = { 0x8d, 0x51, 0x01 };
	static const u8 mov_load[] = { 0x48, 0x8b, 0x47, 0x08 };
	/* mov %esi,%edx; cmp %rax,%rbx */
	static const u8 mov_reg[] = { 0x89, 0xf2 };
	static const u8 cmp_reg[] = { 0x48, 0x39, 0xc3 };
	struct insn_access_insn insn;

	if (insn_access__decode(&insn, "x86", lea64, sizeof(lea64), IP, true) ||
	    insn.result == INSN_ACCESS__UNSUPPORTED)
		return TEST_SKIP;
	TEST_ASSERT_VAL("no access", insn.result == INSN_ACCESS__NO_MEM && !insn.nr_ops);
	TEST_ASSERT_VAL("writes r12", insn.lea_dst == PERF_REG_X86_R12 &&
			insn.written_regs == 1ULL << PERF_REG_X86_R12);
	TEST_ASSERT_VAL("of -0x200(%rax,%rbx,8)",
			insn.lea.base == PERF_REG_X86_AX && insn.lea.index == PERF_REG_X86_BX &&
			insn.lea.scale == 8 && insn.lea.disp == -0x200);
	insn_access__decode(&insn, "x86", lea32, sizeof(lea32), IP, true);
	TEST_ASSERT_VAL("32-bit lea: arithmetic", insn.lea_dst == INSN_ACCESS_REG_NONE &&
			insn.written_regs == 1ULL << PERF_REG_X86_DX);
	insn_access__decode(&insn, "x86", mov_load, sizeof(mov_load), IP, true);
	TEST_ASSERT_VAL("no lea", insn.lea_dst == INSN_ACCESS_REG_NONE);
	insn_access__decode(&insn, "x86", mov_reg, sizeof(mov_reg), IP, true);
	TEST_ASSERT_VAL("mov %esi,%edx writes rdx", insn.result == INSN_ACCESS__NO_MEM &&
			insn.written_regs == 1ULL << PERF_REG_X86_DX);
	insn_access__decode(&insn, "x86", cmp_reg, sizeof(cmp_reg), IP, true);
	TEST_ASSERT_VAL("cmp %rax,%rbx writes none", !insn.written_regs);
	return TEST_OK;
}

static int test__insn_access_other(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	static const u8 rep_movsb[] = { 0xf3, 0xa4 };
	static const u8 mov_load[] = { 0x48, 0x8b, 0x47, 0x08 };
	u64 vals[PERF_REG_X86_64_MAX], addr;
	struct insn_access_insn insn;
	struct regs_dump regs;

	fake_regs__init(&regs, vals);

	/* movs reads at rsi and writes at rdi */
	TEST_ASSERT_VAL("rep movsb", !insn_access__decode(&insn, "x86", rep_movsb,
							   sizeof(rep_movsb), IP, true));
	TEST_ASSERT_VAL("movsb has two operands", insn.nr_ops == 2);
	TEST_ASSERT_VAL("movsb store", !insn_access__addr(&insn, &insn.ops[1], IP, &regs, &addr));
	TEST_ASSERT_VAL("movsb store at rdi", addr == 0x600000 && insn.ops[1].op == ST);

	/* an unsampled base register is an error, not address 0 */
	regs.mask &= ~(1ULL << PERF_REG_X86_DI);
	regs.cache_mask = 0;
	TEST_ASSERT_VAL("mov", !insn_access__decode(&insn, "x86", mov_load, sizeof(mov_load),
						    IP, true));
	TEST_ASSERT_VAL("no rdi", insn_access__addr(&insn, &insn.ops[0], IP, &regs, &addr));

	/* truncated instruction, other architectures */
	insn_access__decode(&insn, "x86", mov_load, 2, IP, true);
	TEST_ASSERT_VAL("truncated", insn.result == INSN_ACCESS__DECODE);
	insn_access__decode(&insn, "arm64", mov_load, sizeof(mov_load), IP, true);
	TEST_ASSERT_VAL("arm64", insn.result == INSN_ACCESS__UNSUPPORTED);
	return TEST_OK;
}

#define R(r)	(1ULL << PERF_REG_X86_##r)

/* The registers instructions without a memory operand write, as a walk back needs them */
static const struct {
	const char	*text;
	u8		 code[6];
	u8		 len;
	u64		 written;
} written_cases[] = {
#define W(t, b, w) { t, b, sizeof((u8[])b), w }
W("push %rbx", B(0x53), R(SP)),
W("pop %r12", B(0x41, 0x5c), R(SP) | R(R12)),
W("mov $0x5,%eax", B(0xb8, 0x05, 0x00, 0x00, 0x00), R(AX)),
W("mov $0x1,%ah", B(0xb4, 0x01), R(AX)),
W("nop", B(0x90), 0),
W("xchg %rax,%rcx", B(0x48, 0x91), R(AX) | R(CX)),
W("cltq", B(0x48, 0x98), R(AX)),
W("cqto", B(0x48, 0x99), R(DX)),
W("add $0x12345,%eax", B(0x05, 0x45, 0x23, 0x01, 0x00), R(AX)),
W("cmp $0x12345,%eax", B(0x3d, 0x45, 0x23, 0x01, 0x00), 0),
W("add $0x10,%eax", B(0x83, 0xc0, 0x10), R(AX)),
W("cmp $0x10,%eax", B(0x83, 0xf8, 0x10), 0),
W("mov %al,%ah", B(0x88, 0xc4), R(AX)),
W("add %cl,%bh", B(0x00, 0xcf), R(BX)),
W("mov $0x7,%r9d", B(0x41, 0xb9, 0x07, 0x00, 0x00, 0x00), R(R9)),
W("neg %rsi", B(0x48, 0xf7, 0xde), R(SI)),
W("imul %rcx", B(0x48, 0xf7, 0xe9), R(AX) | R(DX)),
W("inc %r8", B(0x49, 0xff, 0xc0), R(R8)),
W("cmovne %rdx,%rdi", B(0x48, 0x0f, 0x45, 0xfa), R(DI)),
W("sete %cl", B(0x0f, 0x94, 0xc1), R(CX)),
W("pxor %xmm0,%xmm1", B(0x66, 0x0f, 0xef, 0xc8), 0),
W("movd %xmm0,%eax", B(0x66, 0x0f, 0x7e, 0xc0), ~0ULL),
W("bswap %r11", B(0x49, 0x0f, 0xcb), R(R11)),
W("leave", B(0xc9), R(SP) | R(BP)),
W("xadd %rax,%rbx", B(0x48, 0x0f, 0xc1, 0xc3), R(AX) | R(BX)),
W("rdtsc", B(0x0f, 0x31), ~0ULL),
W("jne .+0x10", B(0x75, 0x0e), 0),
W("je .+0x100", B(0x0f, 0x84, 0xfa, 0x00, 0x00, 0x00), 0),
W("loop .-0x2", B(0xe2, 0xfc), R(CX)),
#undef W
};

static int test__insn_access_written(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct insn_access_insn insn;

	for (size_t i = 0; i < ARRAY_SIZE(written_cases); i++) {
		if (insn_access__decode(&insn, "x86", written_cases[i].code, written_cases[i].len,
					IP, true) || insn.result == INSN_ACCESS__UNSUPPORTED)
			return TEST_SKIP;
		pr_debug("%-24s writes %#" PRIx64 "\n", written_cases[i].text, insn.written_regs);
		if (insn.length != written_cases[i].len ||
		    insn.written_regs != written_cases[i].written ||
		    (insn.branch && !insn.cond)) {
			pr_debug("FAILED: %s, wanted %#" PRIx64 "\n", written_cases[i].text,
				 written_cases[i].written);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

static struct test_case tests__insn_access[] = {
	TEST_CASE("x86 memory operands, sizes and addresses", insn_access_x86),
	TEST_CASE("The address a lea computes, the register others write", insn_access_lea),
	TEST_CASE("Strings, missing registers, other architectures", insn_access_other),
	TEST_CASE("The registers register-only instructions write", insn_access_written),
	{	.name = NULL, }
};

struct test_suite suite__insn_access = {
	.desc = "perf affinity: instruction memory operands",
	.test_cases = tests__insn_access,
};
