// SPDX-License-Identifier: GPL-2.0
/* perf affinity record --watch: what the watchpoints' helpers decide */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include "affinity/watch/watch.h"
#include "debug.h"
#include "debuginfo.h"
#include "event.h"
#include "sample.h"
#include "tests.h"
#include "util.h"

/* A variable of perf itself to resolve: this file is built with -g */
static struct watch_test {
	long	a;
	int	lock;
	long	b[2];
} watch_test_var;

/* How many ranges --watch @spec resolves to with @r, in @w */
static int watch_resolve(struct fa_watch_resolver *r, const char *spec, struct fa_watch *w,
			 int room, char *err, size_t size)
{
	int n;

	*err = '\0';
	n = fa_watch__resolve(r, spec, w, room, err, size);
	pr_debug("--watch %s: %d %s\n", spec, n, err);
	return n;
}

/*
 * --watch finds a variable in the symbol table, a member through the
 * DWARF, watches as many bytes as the member's size and alignment allow,
 * and says what is wrong with a spec it cannot resolve
 */
static int test__affinity_watch_resolve(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct fa_watch var[1], lock[1], all[FA_WATCH_TARGETS];
	char err[256], path[PATH_MAX];
	/* one for all the specs, as record has: it keeps the type read */
	struct fa_watch_resolver r = { .exe = path, };
	struct debuginfo *di;
	int n;

	/* referenced, so that the compiler keeps it */
	WRITE_ONCE(watch_test_var.lock, 1);
#if !defined(__x86_64__) || !defined(HAVE_DWARF_SUPPORT)
	return TEST_SKIP;
#endif
	/* a stripped perf has nothing to resolve against */
	perf_exe(path, sizeof(path));
	di = debuginfo__new(path);
	if (!di)
		return TEST_SKIP;
	debuginfo__delete(di);
	TEST_ASSERT_VAL("the variable", watch_resolve(&r, "watch_test_var", var, 1, err,
						      sizeof(err)) == 1);
	TEST_ASSERT_VAL("all of it, 8 bytes watched", var[0].size == sizeof(watch_test_var) &&
			var[0].len == 8 && !strcmp(var[0].spec, "watch_test_var"));
	TEST_ASSERT_VAL("a member", watch_resolve(&r, "watch_test_var.lock", lock, 1, err,
						  sizeof(err)) == 1);
	TEST_ASSERT_VAL("at its offset, its 4 bytes",
			lock[0].addr - var[0].addr == offsetof(struct watch_test, lock) &&
			lock[0].len == 4 && !strcmp(lock[0].spec, "watch_test_var.lock"));
	n = watch_resolve(&r, "watch_test_var.*", all, ARRAY_SIZE(all), err, sizeof(err));
	TEST_ASSERT_VAL("every member", n == 3 && !strcmp(all[2].spec, "watch_test_var.b"));
	fa_watch__free_specs(var, 1);
	fa_watch__free_specs(lock, 1);
	fa_watch__free_specs(all, max(n, 0));
	TEST_ASSERT_VAL("no such member", watch_resolve(&r, "watch_test_var.nosuch", lock, 1,
							err, sizeof(err)) == -ENOENT &&
			strstr(err, "no member 'nosuch'"));
	TEST_ASSERT_VAL("no such variable", watch_resolve(&r, "no_such_watch_var", lock, 1,
							  err, sizeof(err)) == -ENOENT &&
			strstr(err, "no variable 'no_such_watch_var'"));
	TEST_ASSERT_VAL("a length watchpoints do not have",
			watch_resolve(&r, "watch_test_var/3", lock, 1, err,
				      sizeof(err)) == -EINVAL &&
			strstr(err, "then /1, /2, /4 or /8"));
	fa_watch_resolver__exit(&r);
	return TEST_OK;
}

/*
 * What --watch auto takes a sample at @off of @code (in this process) to
 * access: the addresses, the first in the low half, the second in the high;
 * which are of the stack in @frame
 */
static u64 learn_addr_frame(const u8 *code, u32 off, u8 *frame)
{
	/* %rax (bit 0), %rbx (bit 1) and %rsp (bit 7), as sampled */
	u64 vals[3] = { 0x2000, 0x1000, 0x3000 }, addrs[2] = { 0, 0 };
	struct regs_dump regs = {
		.abi = PERF_SAMPLE_REGS_ABI_64, .mask = 3 | 1 << 7, .regs = vals,
	};
	int n = fa_watch_learn__addrs(getpid(), (uintptr_t)code + off, &regs, addrs, frame);

	return n <= 0 ? 0 : n == 1 ? addrs[0] : addrs[0] | addrs[1] << 32;
}

static u64 learn_addr(const u8 *code, u32 off)
{
	u8 frame;

	return learn_addr_frame(code, off, &frame);
}

/*
 * --watch auto learns the line from samples decoded in the running
 * workload: the instruction at the IP and the one before it whose address
 * registers still hold (a timer interrupt after the access, as on AMD,
 * lands on the loop's next load); a stack slot said to be one.
 */
static int test__affinity_learn_addr(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	static const u8 code[] = {
		/* 48 bytes of nops: the decode before the IP reads them */
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x48, 0x8b, 0x4b, 0x08,		/* 48: mov 0x8(%rbx),%rcx */
		0x48, 0x8b, 0x50, 0x10,		/* 52: mov 0x10(%rax),%rdx */
		0x48, 0x01, 0xd9,		/* 56: add %rbx,%rcx */
		0x48, 0x8b, 0x40, 0x10,		/* 59: mov 0x10(%rax),%rax */
		0x48, 0x01, 0xd8,		/* 63: add %rbx,%rax */
		0x48, 0x8b, 0x44, 0x24, 0x08,	/* 66: mov 0x8(%rsp),%rax */
		0xc3,				/* 71: ret */
		0xf0, 0x83, 0x40, 0x20, 0x01,	/* 72: lock addl $0x1,0x20(%rax) */
		0x0f, 0xb6, 0x43, 0x10,		/* 77: movzbl 0x10(%rbx),%eax */
		0xc3,				/* 81: ret */
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
	};
	u8 frame;

	TEST_ASSERT_VAL("the load at the IP", learn_addr(code, 48) == 0x1008);
	TEST_ASSERT_VAL("the load at the IP and the one before",
			learn_addr(code, 52) == (0x2010 | 0x1008ULL << 32));
	TEST_ASSERT_VAL("the load before, after an interrupt", learn_addr(code, 56) == 0x2010);
	TEST_ASSERT_VAL("the load before overwrote its base", learn_addr(code, 63) == 0);
	TEST_ASSERT_VAL("a stack slot", learn_addr_frame(code, 66, &frame) == 0x3008 &&
			frame == 1);
	TEST_ASSERT_VAL("no memory, a stack slot before",
			learn_addr_frame(code, 71, &frame) == 0x3008 && frame == 1);
	TEST_ASSERT_VAL("not of the stack", learn_addr_frame(code, 48, &frame) == 0x1008 &&
			frame == 0);
	/* '20 01' also ends at 77: 'and %al,(%rcx)', no instruction of this code */
	TEST_ASSERT_VAL("the locked add before the loop's load, not a tail of it",
			learn_addr(code, 77) == (0x1010 | 0x2020ULL << 32));
	return TEST_OK;
}

/*
 * --watch auto prefers a line of the program's own data (its globals, its
 * heap) to one of the main thread's stack, and that to one of a system
 * library's (libc's lock), whatever the samples of each
 */
static int test__affinity_learn_kind(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	static const struct {
		const char	*line;
		int		 kind;
	} maps[] = {
		{ "55d0c1a00000-55d0c1a01000 rw-p 00003000 fd:01 1234   /usr/bin/prog\n",
		  FA_LEARN_OWN },
		{ "55d0c2b00000-55d0c2b21000 rw-p 00000000 00:00 0      [heap]\n", FA_LEARN_OWN },
		{ "7f0e5c000000-7f0e5c021000 rw-p 00000000 00:00 0 \n", FA_LEARN_OWN },
		{ "7f0e5e1f4000-7f0e5e1f6000 rw-p 001f3000 fd:01 5678   /usr/lib/x86_64-linux-gnu/libc.so.6\n",
		  FA_LEARN_SYSTEM },
		{ "7ffc8e5f0000-7ffc8e611000 rw-p 00000000 00:00 0      [stack]\n", FA_LEARN_STACK },
		{ "7ffc8e7f0000-7ffc8e7f2000 r-xp 00000000 00:00 0      [vdso]\n", FA_LEARN_SYSTEM },
	};
	u64 start, end;

	for (size_t i = 0; i < ARRAY_SIZE(maps); i++) {
		TEST_ASSERT_VAL("the kind of a mapping",
				fa_learn__map_kind(maps[i].line, "/usr/bin/prog", &start, &end) ==
				maps[i].kind && start < end);
	}
	TEST_ASSERT_VAL("not a line of maps", fa_learn__map_kind("garbage", NULL, &start, &end) < 0);
	TEST_ASSERT_VAL("the program's line over libc's, more sampled",
			fa_learn_line__better(10, 2, FA_LEARN_OWN, 500, 1, FA_LEARN_SYSTEM, 10));
	TEST_ASSERT_VAL("the heap over a thread's stack, more sampled",
			fa_learn_line__better(192, 2, FA_LEARN_OWN, 504, 1, FA_LEARN_STACK, 504));
	TEST_ASSERT_VAL("not a stray heap line over the stack line the threads share",
			!fa_learn_line__better(2, 2, FA_LEARN_OWN, 6043, 1, FA_LEARN_STACK, 6043) &&
			fa_learn_line__better(6043, 1, FA_LEARN_STACK, 2, 2, FA_LEARN_OWN, 6043));
	TEST_ASSERT_VAL("nor a library's line over a stray line of the program",
			fa_learn_line__better(2, 2, FA_LEARN_OWN, 500, 1, FA_LEARN_SYSTEM, 6043));
	TEST_ASSERT_VAL("of one kind, the most sampled",
			fa_learn_line__better(20, 2, FA_LEARN_OWN, 10, 1, FA_LEARN_OWN, 20) &&
			!fa_learn_line__better(10, 1, FA_LEARN_OWN, 20, 2, FA_LEARN_OWN, 20));
	TEST_ASSERT_VAL("a tie: the lower line",
			fa_learn_line__better(10, 1, FA_LEARN_OWN, 10, 2, FA_LEARN_OWN, 10));
	return TEST_OK;
}

static struct test_case tests__affinity_watch[] = {
	TEST_CASE("--watch resolves variables and members of perf itself",
		  affinity_watch_resolve),
	TEST_CASE("--watch auto decodes the sample and the access before it", affinity_learn_addr),
	TEST_CASE("--watch auto prefers the program's own lines", affinity_learn_kind),
	{	.name = NULL, }
};

struct test_suite suite__affinity_watch = {
	.desc = "perf affinity: watchpoints",
	.test_cases = tests__affinity_watch,
};
