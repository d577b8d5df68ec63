// SPDX-License-Identifier: GPL-2.0
/*
 * Samples of a memory sampling PMU, shaped like PEBS load latency and store
 * samples (ADDR, DATA_SRC with HITM, WEIGHT, CPU, TIME, PERIOD), written to
 * a perf.data file as perf record writes one (util/data-writer.c), read
 * back through perf's session and sample parsing and decoded into
 * accesses: addresses, data sources and weights must arrive intact, in
 * order, with the direction taken from the data source, each pointing to
 * the sample's thread, map, symbol and event.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include "debug.h"
#include "event.h"
#include "evsel.h"
#include "addr_location.h"
#include "affinity/decode/access.h"
#include "affinity/decode/decode.h"
#include "affinity/decode/decode-int.h"
#include "data-writer.h"
#include "data.h"
#include "machine.h"
#include "header.h"
#include "insn-access.h"
#include "sample.h"
#include "session.h"
#include "tests.h"
#include "tool.h"
#include "util.h"

#define PEBS_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			  PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | \
			  PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)

#define NR_SAMPLES	1000
#define TEST_PID	4242
#define TEXT_START	0x400000ULL
#define OBJ_START	0x7f0000001000ULL

#define DSRC(op, lvl, snoop) (PERF_MEM_S(OP, op) | PERF_MEM_S(LVL, lvl) | \
			      PERF_MEM_S(SNOOP, snoop) | PERF_MEM_S(TLB, NA) | \
			      PERF_MEM_S(LOCK, NA))

/* The shapes of samples a PEBS PMU writes, each with the op it implies */
static const struct planted_sample {
	u64	data_src;
	u64	weight;
	u8	op;
} planted[] = {
	{ DSRC(LOAD, HIT | PERF_MEM_LVL_L1, NONE), 4, FA_OP_LOAD },
	{ DSRC(LOAD, HIT | PERF_MEM_LVL_L3, HITM), 180, FA_OP_LOAD },	/* local HITM */
	{ DSRC(LOAD, HIT | PERF_MEM_LVL_REM_CCE1, HITM), 420, FA_OP_LOAD }, /* remote */
	{ DSRC(STORE, HIT | PERF_MEM_LVL_L1, NA), 0, FA_OP_STORE },
	{ DSRC(STORE, MISS | PERF_MEM_LVL_L1, NA), 0, FA_OP_STORE },
	{ DSRC(NA, NA, NA), 0, FA_OP_UNKNOWN },				/* IBS can't tell */
};

struct synth_test {
	struct perf_tool	 tool;
	struct fa_decoder	 decoder;
	int			 nr_seen;
	int			 nr_bad;
};

static u64 planted_addr(int i)
{
	/* fields at offsets 0, 8, 0x40 of objects 128 bytes apart */
	static const u64 off[] = { 0, 8, 0x40 };

	return OBJ_START + (i % 7) * 128 + off[i % ARRAY_SIZE(off)];
}

static int write_comm_mmap(struct perf_data_writer *f)
{
	char buf[sizeof(union perf_event) + 64];
	union perf_event *event = (union perf_event *)buf;

	memset(buf, 0, sizeof(buf));
	event->comm.header.type = PERF_RECORD_COMM;
	event->comm.header.misc = PERF_RECORD_MISC_USER;
	event->comm.header.size = offsetof(struct perf_record_comm, comm) + 16;
	event->comm.pid = event->comm.tid = TEST_PID;
	memcpy(event->comm.comm, "pebs-shaped", sizeof("pebs-shaped"));
	if (perf_data_writer__write_side(f, event, TEST_PID, TEST_PID))
		return -1;

	memset(buf, 0, sizeof(buf));
	event->mmap.header.type = PERF_RECORD_MMAP;
	event->mmap.header.misc = PERF_RECORD_MISC_USER;
	event->mmap.header.size = offsetof(struct perf_record_mmap, filename) + 16;
	event->mmap.pid = event->mmap.tid = TEST_PID;
	event->mmap.start = TEXT_START;
	event->mmap.len = 0x10000;
	memcpy(event->mmap.filename, "/nonexistent", sizeof("/nonexistent"));
	return perf_data_writer__write_side(f, event, TEST_PID, TEST_PID);
}

static int write_samples(struct perf_data_writer *f)
{
	for (int i = 0; i < NR_SAMPLES; i++) {
		const struct planted_sample *p = &planted[i % ARRAY_SIZE(planted)];
		struct perf_sample sample = {
			.ip = TEXT_START + 0x100 + i % 16,
			.pid = TEST_PID, .tid = TEST_PID + i % 2,
			.time = 1000000 + i * 1000ULL,
			.addr = planted_addr(i),
			.cpu = i % 4,
			.period = 1000 + i,
			.weight = p->weight,
			.data_src = p->data_src,
		};

		if (perf_data_writer__write_sample(f, &sample))
			return -1;
	}
	return 0;
}

static int write_perf_data(const char *path)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_RAW,
		.config = 0x1cd,	/* the shape of cpu/mem-loads,ldlat=30/P */
		.sample_type = PEBS_SAMPLE_TYPE,
		.sample_period = 1000,
		.precise_ip = 3,
		.sample_id_all = 1,
	};
	struct perf_data data = { .path = path, .mode = PERF_DATA_MODE_WRITE, .force = true, };
	struct perf_data_writer f;
	int err = perf_data_writer__open(&f, &data, &attr, /*dso_path=*/NULL);

	if (!err)
		err = write_comm_mmap(&f);
	if (!err)
		err = write_samples(&f);
	return perf_data_writer__close(&f, err);
}

static int check_sample(const struct perf_tool *tool, union perf_event *event __maybe_unused,
			struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct synth_test *st = container_of(tool, struct synth_test, tool);
	struct fa_access acc[FA_DECODE_MAX_ACC];
	struct fa_origin o;
	int i = st->nr_seen++;
	const struct planted_sample *p = &planted[i % ARRAY_SIZE(planted)];
	struct addr_location al;
	int n;

	addr_location__init(&al);
	machine__resolve(machine, &al, sample);
	n = fa_decoder__decode(&st->decoder, evsel, sample, &al, &o, acc);

	/* the record carries its sample: attribution needs nothing else */
	if (n != 1 || o.source != FA_SRC_MEM || acc[0].origin != &o ||
	    acc[0].addr != planted_addr(i) ||
	    acc[0].data_src != p->data_src || acc[0].weight != p->weight ||
	    acc[0].op != p->op || o.cpu != (u32)(i % 4) || o.period != 1000ULL + i ||
	    o.time != 1000000 + i * 1000ULL || o.tid != (u32)(TEST_PID + i % 2) ||
	    o.thread != al.thread || o.map != al.map || o.sym != al.sym || o.evsel != evsel ||
	    o.cpumode != sample->cpumode) {
		pr_debug("sample %d: n %d src %d addr %#" PRIx64 " dsrc %#" PRIx64 " weight %"
			 PRIu64 " op %d cpu %u\n", i, n, o.source,
			 acc[0].addr, acc[0].data_src, acc[0].weight, acc[0].op, o.cpu);
		st->nr_bad++;
	}
	addr_location__exit(&al);
	return 0;
}

static int read_perf_data(struct synth_test *st, const char *path)
{
	struct perf_data data = { .path = path, .mode = PERF_DATA_MODE_READ, };
	struct perf_session *session;
	int err;

	perf_tool__init(&st->tool, /*ordered_events=*/true);
	st->tool.sample = check_sample;
	st->tool.comm = perf_event__process_comm;
	st->tool.mmap = perf_event__process_mmap;
	session = perf_session__new(&data, &st->tool);
	if (IS_ERR(session))
		return PTR_ERR(session);
	err = fa_decoder__init(&st->decoder, &session->header.env, &session->machines.host);
	if (!err)
		err = perf_session__process_events(session);
	pr_debug("decoded %d samples, %d wrong, %" PRIu64 " accesses\n", st->nr_seen, st->nr_bad,
		 st->decoder.stats.accesses[FA_SRC_MEM]);
	if (!err && st->decoder.stats.samples[FA_SRC_MEM] != NR_SAMPLES)
		err = -1;
	fa_decoder__exit(&st->decoder);
	perf_session__delete(session);
	return err;
}

static int test__affinity_decode_mem(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	char path[] = "/tmp/perf-test-affinity-pebs.XXXXXX";
	struct synth_test st = { .nr_seen = 0, };
	int fd = mkstemp(path);
	int err;

	if (fd < 0)
		return TEST_FAIL;
	close(fd);
	err = write_perf_data(path);
	if (!err)
		err = read_perf_data(&st, path);
	unlink(path);
	TEST_ASSERT_VAL("cannot write or read the PEBS-shaped perf.data", !err);
	TEST_ASSERT_VAL("not every sample was seen", st.nr_seen == NR_SAMPLES);
	TEST_ASSERT_VAL("samples decoded wrong", st.nr_bad == 0);
	return TEST_OK;
}

/*
 * A function swept from its start: where its instructions start, where its
 * jumps go, the condition of a rotated loop, the body's one jump back
 */
static int test__affinity_sweep(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	static const u8 code[] = {
		0xeb, 0x07,			/* 00 jmp cond */
		0x48, 0x8b, 0x0f,		/* 02 body: mov (%rdi),%rcx */
		0x48, 0x83, 0xc0, 0x01,		/* 05 add $0x1,%rax */
		0x48, 0x39, 0xc6,		/* 09 cond: cmp %rax,%rsi */
		0x75, 0xf4,			/* 0c jne body */
		0xc3,				/* 0e ret */
	};
	/* mov %fs:0x0,%rax; jmp *%rax */
	static const u8 tp_jump[] = { 0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0, 0xff, 0xe0 };
	unsigned long starts[1] = { 0 }, targets[1] = { 0 }, rotated[1] = { 0 };
	struct fa_code fn = {
		.len = sizeof(code), .code = (u8 *)code, .starts = starts, .targets = targets,
		.rotated = rotated,
	};
	struct insn_access_insn probe;

	insn_access__decode(&probe, "x86", code, sizeof(code), 0, true);
	if (probe.result == INSN_ACCESS__UNSUPPORTED)
		return TEST_SKIP;
	fa_code__sweep(&fn, "x86", /*is64=*/true);
	TEST_ASSERT_VAL("instruction starts", starts[0] == (BIT(0x0) | BIT(0x2) | BIT(0x5) |
							     BIT(0x9) | BIT(0xc) | BIT(0xe)));
	TEST_ASSERT_VAL("jump targets", targets[0] == (BIT(0x2) | BIT(0x9)));
	TEST_ASSERT_VAL("the rotated loop's condition", rotated[0] == BIT(0x9));
	TEST_ASSERT_VAL("the body's one jump back", fa_code__back_edge(&fn, 0x2) == 0xc &&
			fa_code__back_edge(&fn, 0x9) == -1);
	TEST_ASSERT_VAL("no indirect jump, no thread pointer", !fn.indirect && !fn.loads_tp);
	free(fn.back_edges);

	starts[0] = targets[0] = rotated[0] = 0;
	fn = (struct fa_code){
		.len = sizeof(tp_jump), .code = (u8 *)tp_jump, .starts = starts,
		.targets = targets, .rotated = rotated,
	};
	fa_code__sweep(&fn, "x86", /*is64=*/true);
	TEST_ASSERT_VAL("an indirect jump, the thread pointer loaded",
			fn.indirect && fn.loads_tp && starts[0] == (BIT(0) | BIT(9)));
	free(fn.back_edges);
	return TEST_OK;
}

static int test__affinity_tp_line(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	char type[32], field[32];
	u64 inst;
	u8 op;

	TEST_ASSERT_VAL("rq line", !fa_tp_line__parse(
		"Accessed rq[111]->clock_update_flags in rq_pin_lock (modify)",
		type, sizeof(type), field, sizeof(field), &inst, &op));
	TEST_ASSERT_VAL("rq type", !strcmp(type, "rq") && inst == 111);
	TEST_ASSERT_VAL("rq field", !strcmp(field, "clock_update_flags") && op == FA_OP_RMW);
	TEST_ASSERT_VAL("access", !fa_tp_line__parse(
		"Accessed rq[3]->cpu in update_rq_clock (access)",
		type, sizeof(type), field, sizeof(field), &inst, &op));
	TEST_ASSERT_VAL("access op", !strcmp(field, "cpu") && inst == 3 && op == FA_OP_LOAD);
	TEST_ASSERT_VAL("not an access line", fa_tp_line__parse(
		"prev_comm=perf prev_pid=8472", type, sizeof(type), field, sizeof(field),
		&inst, &op));
	TEST_ASSERT_VAL("no instance", fa_tp_line__parse(
		"Accessed rq[]->cpu in f (access)", type, sizeof(type), field, sizeof(field),
		&inst, &op));
	TEST_ASSERT_VAL("type too long", fa_tp_line__parse(
		"Accessed a_very_long_struct_name_that_does_not_fit[1]->f in g (access)",
		type, sizeof(type), field, sizeof(field), &inst, &op));
	return TEST_OK;
}

/* Does a software sample at the x86-64 instruction @code wait for the one before? */
static int waits(const u8 *code, size_t len)
{
	struct insn_access_insn insn;

	if (insn_access__decode(&insn, "x86", code, len, 0x1000, /*is64bit=*/true) < 0)
		return -1;
	return fa_insn__waits(&insn, "x86");
}

static int test__affinity_skid(struct test_suite *test __maybe_unused,
			       int subtest __maybe_unused)
{
	static const u8 spill[] = { 0x48, 0x89, 0x44, 0x24, 0x30 };	/* mov %rax,0x30(%rsp) */
	static const u8 local[] = { 0x48, 0x8b, 0x44, 0x24, 0x08 };	/* mov 0x8(%rsp),%rax */
	static const u8 field[] = { 0x0f, 0xb7, 0x43, 0x06 };		/* movzwl 0x6(%rbx),%eax */
	static const u8 canary[] = { 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0 };
	static const u8 add[] = { 0x48, 0x01, 0xd8 };			/* add %rbx,%rax */
	static const u8 tls[] = { 0x64, 0x48, 0x8b, 0x04, 0x24 };	/* mov %fs:(%rsp),%rax */

	if (waits(field, sizeof(field)) < 0)
		return TEST_SKIP;
	TEST_ASSERT_VAL("a store to a spill slot waits", waits(spill, sizeof(spill)) == 1);
	TEST_ASSERT_VAL("a load of a local waits", waits(local, sizeof(local)) == 1);
	TEST_ASSERT_VAL("the canary waits", waits(canary, sizeof(canary)) == 1);
	TEST_ASSERT_VAL("no memory operand waits", waits(add, sizeof(add)) == 1);
	TEST_ASSERT_VAL("a load of a field is the access", waits(field, sizeof(field)) == 0);
	TEST_ASSERT_VAL("%fs: based on the stack pointer is not", waits(tls, sizeof(tls)) == 0);
	return TEST_OK;
}

/* The accesses a walk back from @off of @code finds: how many, and how far back */
static int walk(const u8 *code, u32 len, u32 off, int *back, u8 *nr, u8 *lost)
{
	struct fa_block_insn found[FA_BLOCK_MAX_ACC];
	unsigned long starts[1] = { 0 }, targets[1] = { 0 }, rotated[1] = { 0 };
	struct fa_code fn = {
		.len = len, .code = (u8 *)code, .starts = starts, .targets = targets,
		.rotated = rotated,
	};
	int stop;

	fa_code__sweep(&fn, "x86", /*is64=*/true);
	stop = fa_code__walk(&fn, off, "x86", /*is64=*/true, found, nr, lost);
	for (int i = 0; i < *nr; i++)
		back[i] = found[i].back;
	free(fn.back_edges);
	return stop;
}

static int test__affinity_block(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	static const u8 code[] = {
		0x48, 0x8b, 0x0f,		/* 00 loop: mov (%rdi),%rcx */
		0x48, 0x83, 0xc0, 0x01,		/* 03 add $0x1,%rax */
		0x48, 0x01, 0xca,		/* 07 add %rcx,%rdx */
		0x48, 0x39, 0xc6,		/* 0a cmp %rax,%rsi */
		0x75, 0xf1,			/* 0d jne loop */
		0x90,				/* 0f nop */
		0x48, 0x8b, 0x47, 0x08,		/* 10 mov 0x8(%rdi),%rax */
		0x48, 0x89, 0xc7,		/* 14 mov %rax,%rdi */
		0x48, 0x8b, 0x4e, 0x10,		/* 17 mov 0x10(%rsi),%rcx */
		0x90,				/* 1b nop */
		0x48, 0x8b, 0x07,		/* 1c mov (%rdi),%rax */
		0x48, 0x8b, 0x0e,		/* 1f l2: mov (%rsi),%rcx */
		0x48, 0x01, 0xc1,		/* 22 add %rax,%rcx */
		0xeb, 0xf8,			/* 25 jmp l2 */
		0x48, 0x8b, 0x07,		/* 27 mov (%rdi),%rax */
		0xe8, 0xed, 0xff, 0xff, 0xff,	/* 2a call 0x1c */
		0x90,				/* 2f nop */
	};
	struct insn_access_insn probe;
	int back[FA_BLOCK_MAX_ACC];
	u8 nr, lost;
	int stop;

	insn_access__decode(&probe, "x86", code, sizeof(code), 0, true);
	if (probe.result == INSN_ACCESS__UNSUPPORTED)
		return TEST_SKIP;
	/* a sample at the loop's branch: its load, back to the loop's start */
	stop = walk(code, sizeof(code), 0x0d, back, &nr, &lost);
	TEST_ASSERT_VAL("the loop's load", nr == 1 && back[0] == 0x0d && !lost);
	TEST_ASSERT_VAL("stops at the loop's start", stop == FA_WALK_ENTRY);
	/*
	 * a register written since the access: its address is gone; on
	 * through the loop's branch, not taken, to the loop's start
	 */
	stop = walk(code, sizeof(code), 0x1b, back, &nr, &lost);
	pr_debug("walk from 0x1b: %d accesses, %d lost, stop %d\n", nr, lost, stop);
	TEST_ASSERT_VAL("rsi kept, rdi redefined", nr == 1 && back[0] == 4 && lost == 2);
	TEST_ASSERT_VAL("stops at the loop's start", stop == FA_WALK_ENTRY);
	/*
	 * a sample after a conditional jump not taken (TCG takes the timer at
	 * the end of a block): the load before the jump
	 */
	stop = walk(code, sizeof(code), 0x10, back, &nr, &lost);
	TEST_ASSERT_VAL("through the jne to the loop's load",
			nr == 1 && back[0] == 0x10 && !lost && stop == FA_WALK_ENTRY);
	/* never through an unconditional jump */
	stop = walk(code, sizeof(code), 0x27, back, &nr, &lost);
	TEST_ASSERT_VAL("stops at the jmp", nr == 0 && stop == FA_WALK_BRANCH);
	/* a jump target inside the range: what is before it may not have run */
	stop = walk(code, sizeof(code), 0x22, back, &nr, &lost);
	pr_debug("walk from 0x22: %d accesses, %d lost, stop %d\n", nr, lost, stop);
	TEST_ASSERT_VAL("only from the jump target", nr == 1 && back[0] == 3 && !lost);
	TEST_ASSERT_VAL("stops at the jump target", stop == FA_WALK_ENTRY);
	/* right after a call: the callee ran in between */
	stop = walk(code, sizeof(code), 0x2f, back, &nr, &lost);
	TEST_ASSERT_VAL("nothing before a call", nr == 0 && stop == FA_WALK_CALL);
	/* the sampled IP is the jump target itself */
	stop = walk(code, sizeof(code), 0x1f, back, &nr, &lost);
	TEST_ASSERT_VAL("nothing before a jump target", nr == 0 && stop == FA_WALK_ENTRY);
	return TEST_OK;
}

/*
 * A loop gcc rotates: entered by a jump to its condition, whose block the
 * body falls through to on every turn.  A sample at the condition (AMD
 * takes the timer after the body's locked add) is the body's store; at the
 * join of an if/else, what is before may not have run.
 */
static int test__affinity_block_rotated(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	static const u8 code[] = {
		0xeb, 0x08,			/* 00 jmp cond */
		0x48, 0x8b, 0x47, 0x08,		/* 02 body: mov 0x8(%rdi),%rax */
		0xf0, 0x83, 0x00, 0x01,		/* 06 lock addl $0x1,(%rax) */
		0x0f, 0xb6, 0x06,		/* 0a cond: movzbl (%rsi),%eax */
		0x84, 0xc0,			/* 0d test %al,%al */
		0x74, 0xf1,			/* 0f je body */
		0x85, 0xd2,			/* 11 test %edx,%edx */
		0x74, 0x05,			/* 13 je else */
		0x48, 0x8b, 0x07,		/* 15 mov (%rdi),%rax */
		0xeb, 0x03,			/* 18 jmp join */
		0x48, 0x8b, 0x06,		/* 1a else: mov (%rsi),%rax */
		0x48, 0x01, 0xc1,		/* 1d join: add %rax,%rcx */
		0xc3,				/* 20 ret */
	};
	struct insn_access_insn probe;
	int back[FA_BLOCK_MAX_ACC];
	u8 nr, lost;
	int stop;

	insn_access__decode(&probe, "x86", code + 6, 4, 6, true);
	if (probe.result == INSN_ACCESS__UNSUPPORTED)
		return TEST_SKIP;
	stop = walk(code, sizeof(code), 0x0a, back, &nr, &lost);
	pr_debug("walk from the condition: %d accesses, %d lost, stop %d\n", nr, lost, stop);
	TEST_ASSERT_VAL("the body's store and load", nr == 2 && back[0] == 4 && back[1] == 8);
	TEST_ASSERT_VAL("stops at the body's start", stop == FA_WALK_ENTRY);
	stop = walk(code, sizeof(code), 0x1d, back, &nr, &lost);
	TEST_ASSERT_VAL("nothing before an if/else's join", nr == 0 && stop == FA_WALK_ENTRY);
	return TEST_OK;
}

/*
 * A loop gcc enters by falling through to its head after a guard, and
 * tests at the bottom: a sample at the head (AMD takes the timer after the
 * body's loads) follows the body's end on every turn but the first, so the
 * walk goes on once through the jump back, up to the sampled instruction.
 */
static int test__affinity_block_loop_head(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	static const u8 code[] = {
		0x48, 0x85, 0xc9,		/* 00 test %rcx,%rcx */
		0x7e, 0x0d,			/* 03 jle out */
		0x48, 0x8b, 0x06,		/* 05 head: mov (%rsi),%rax */
		0x48, 0x89, 0x47, 0x08,		/* 08 mov %rax,0x8(%rdi) */
		0x48, 0x83, 0xe9, 0x01,		/* 0c sub $0x1,%rcx */
		0x75, 0xf3,			/* 10 jne head */
		0xc3,				/* 12 out: ret */
	};
	struct insn_access_insn probe;
	int back[FA_BLOCK_MAX_ACC];
	u8 nr, lost;
	int stop;

	insn_access__decode(&probe, "x86", code + 8, 4, 8, true);
	if (probe.result == INSN_ACCESS__UNSUPPORTED)
		return TEST_SKIP;
	stop = walk(code, sizeof(code), 0x05, back, &nr, &lost);
	pr_debug("walk from the head: %d accesses, %d lost, stop %d\n", nr, lost, stop);
	TEST_ASSERT_VAL("the store of the turn before", nr == 1 && back[0] == -3 && !lost);
	TEST_ASSERT_VAL("stops where it started", stop == FA_WALK_ENTRY);
	stop = walk(code, sizeof(code), 0x08, back, &nr, &lost);
	TEST_ASSERT_VAL("in the body: its load only, not the turn before's store",
			nr == 1 && back[0] == 3 && stop == FA_WALK_ENTRY);
	stop = walk(code, sizeof(code), 0x12, back, &nr, &lost);
	TEST_ASSERT_VAL("after the loop: no jump back to the guard's target",
			nr == 0 && stop == FA_WALK_ENTRY);
	return TEST_OK;
}

/*
 * glibc's memset for AVX-512: an EVEX store with a compressed displacement
 * (its address not computed) before the masked store of the short tail.
 * The sweep goes on past it: the tail's store is found from the ret after
 * it.  It stopped there, and every later sample was 'stack access only'.
 */
static int test__affinity_block_evex(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	static const u8 code[] = {
		/* 00 vmovdqu64 %zmm16,-0x40(%rdi,%rdx,1) */
		0x62, 0xe1, 0xfe, 0x48, 0x7f, 0x44, 0x17, 0xff,
		0xc3,						/* 08 ret */
		0xc4, 0xe1, 0xfb, 0x92, 0xc9,			/* 09 kmovq %rcx,%k1 */
		0x62, 0xe1, 0x7f, 0x49, 0x7f, 0x00,		/* 0e vmovdqu8 %zmm16,(%rax){%k1} */
		0xc3,						/* 14 ret */
	};
	struct insn_access_insn probe;
	int back[FA_BLOCK_MAX_ACC];
	u8 nr, lost;
	int stop;

	insn_access__decode(&probe, "x86", code + 0xe, 6, 0, true);
	if (probe.result == INSN_ACCESS__UNSUPPORTED)
		return TEST_SKIP;
	TEST_ASSERT_VAL("a masked store", probe.result == INSN_ACCESS__OK &&
			(probe.ops[0].flags & INSN_ACCESS_F_MASKED));
	stop = walk(code, sizeof(code), 0x14, back, &nr, &lost);
	TEST_ASSERT_VAL("the tail's store", nr == 1 && back[0] == 6 && !lost);
	TEST_ASSERT_VAL("stops at the kmovq", stop == FA_WALK_UNKNOWN);
	return TEST_OK;
}

/* The source of a sample of an event of @type and @config, with @sample_type */
static int source_of(u32 type, u64 config, u64 sample_type)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = config,
		.sample_type = sample_type,
	};
	struct evsel *evsel = evsel__new(&attr);
	int source;

	if (!evsel)
		return -ENOMEM;
	source = fa_evsel__source(evsel);
	evsel__delete(evsel);
	return source;
}

/* The hit of a watchpoint on [@bp_addr, +8) at @off of @code, with %rax and %rbx */
static int watch_hit(const u8 *code, u32 len, u32 off, bool with_regs, u64 bp_addr,
		     struct fa_access *acc)
{
	unsigned long starts[1] = { 0 }, targets[1] = { 0 };
	struct fa_code fn = {
		.len = len, .code = (u8 *)code, .starts = starts, .targets = targets,
	};
	/* the registers after the access: %rax (bit 0) and %rbx (bit 1) */
	u64 vals[2] = { 0x2000, 0x1000 };
	struct regs_dump regs = {
		.abi = PERF_SAMPLE_REGS_ABI_64, .mask = 3, .regs = vals,
	};
	int drop, ret;

	memset(acc, 0, sizeof(*acc));
	fa_code__sweep(&fn, "x86", /*is64=*/true);
	ret = fa_code__watch(&fn, off, 0x400000 + off, "x86", /*is64=*/true,
			     with_regs ? &regs : NULL, bp_addr, 8, acc, &drop);
	free(fn.back_edges);
	return ret;
}

/*
 * A data breakpoint traps after the access: the access is the instruction
 * before the hit's IP, its address the registers' if they still give one
 * in the watched range, else the watched address.  Before, hits were
 * decoded at the IP: the instruction after the access.
 */
static int test__affinity_watch_hit(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	static const u8 code[] = {
		0x48, 0x89, 0x43, 0x08,		/* 0: mov %rax,0x8(%rbx) */
		0x48, 0x8b, 0x40, 0x10,		/* 4: mov 0x10(%rax),%rax */
		0x48, 0x01, 0xd8,		/* 8: add %rbx,%rax */
		0xc3,				/* 11: ret */
	};
	struct fa_access acc[INSN_ACCESS_MAX_OPS];

	TEST_ASSERT_VAL("the store before the IP",
			watch_hit(code, sizeof(code), 4, true, 0x1008, acc) == 1 &&
			acc[0].op == FA_OP_STORE && acc[0].addr == 0x1008 && acc[0].size == 8 &&
			acc[0].ip == 0x400000 && (acc[0].flags & FA_ACC_WATCH));
	TEST_ASSERT_VAL("no registers: the watched address",
			watch_hit(code, sizeof(code), 4, false, 0x1008, acc) == 1 &&
			acc[0].op == FA_OP_STORE && acc[0].addr == 0x1008);
	/* %rax was its base and is the value loaded now: 0x2010 is no address of it */
	TEST_ASSERT_VAL("the base overwritten: the watched address",
			watch_hit(code, sizeof(code), 8, true, 0x3010, acc) == 1 &&
			acc[0].op == FA_OP_LOAD && acc[0].addr == 0x3010 &&
			acc[0].ip == 0x400004);
	TEST_ASSERT_VAL("the instruction before accesses no memory",
			watch_hit(code, sizeof(code), 11, true, 0x1008, acc) == 0);
	TEST_ASSERT_VAL("nothing before the first instruction",
			watch_hit(code, sizeof(code), 0, true, 0x1008, acc) == 0);
	TEST_ASSERT_VAL("not at an instruction",
			watch_hit(code, sizeof(code), 2, true, 0x1008, acc) == 0);
	return TEST_OK;
}

/* A sample at @off of @code re-placed later in its block (place.c), %rdi 0x5000 */
static int place_later(const u8 *code, u32 len, u32 off, u64 time, struct fa_access *acc)
{
	unsigned long starts[1] = { 0 }, targets[1] = { 0 }, rotated[1] = { 0 };
	struct fa_code fn = {
		.len = len, .code = (u8 *)code, .starts = starts, .targets = targets,
		.rotated = rotated,
	};
	struct fa_insn fi = { .readable = true, };
	u64 rdi = 0x5000;
	struct regs_dump regs = {
		.abi = PERF_SAMPLE_REGS_ABI_64, .mask = 1ULL << 5, .regs = &rdi,
	};
	int n;

	memset(acc, 0, sizeof(*acc));
	fa_code__sweep(&fn, "x86", /*is64=*/true);
	n = fa_place__later(&fn, off, &fi, 0x400000 + off, "x86", /*is64=*/true, &regs, time,
			    /*seed=*/1, acc);
	free(fn.back_edges);
	return n;
}

/*
 * --placement: a recording taken as another CPU's timer would have taken
 * it, the same way in every run (a seeded hash of the sample's time)
 */
static int test__affinity_place(struct test_suite *test __maybe_unused,
				int subtest __maybe_unused)
{
	static const u8 code[] = {
		0x48, 0x8b, 0x0f,		/* 00 loop: mov (%rdi),%rcx */
		0x48, 0x83, 0xc0, 0x01,		/* 03 add $0x1,%rax */
		0x48, 0x01, 0xca,		/* 07 add %rcx,%rdx */
		0x48, 0x39, 0xc6,		/* 0a cmp %rax,%rsi */
		0x75, 0xf1,			/* 0d jne loop */
	};
	struct fa_access acc[FA_DECODE_MAX_ACC], four[4];
	struct insn_access_insn probe;
	bool picked[4] = { false, }, recorded = false;
	u16 flags = 0;
	u64 seed;

	TEST_ASSERT_VAL("recorded", fa_place__parse("recorded", &seed) == FA_PLACE_RECORDED &&
			seed == 1);
	TEST_ASSERT_VAL("later:7", fa_place__parse("later:7", &seed) == FA_PLACE_LATER &&
			seed == 7);
	TEST_ASSERT_VAL("one:", fa_place__parse("one:", &seed) < 0);
	TEST_ASSERT_VAL("one:x", fa_place__parse("one:x", &seed) < 0);
	TEST_ASSERT_VAL("sooner", fa_place__parse("sooner", &seed) < 0);

	/* one of a sample's four accesses, each for some time */
	for (u64 time = 1; time <= 64; time++) {
		for (int i = 0; i < 4; i++)
			four[i] = (struct fa_access){ .addr = 0x1000 * (i + 1), };
		TEST_ASSERT_VAL("one access", fa_place__one(time, 1, four, 4) == 1);
		picked[four[0].addr / 0x1000 - 1] = true;
		TEST_ASSERT_VAL("a single access stays", fa_place__one(time, 1, four, 1) == 1);
	}
	TEST_ASSERT_VAL("each access taken for some time",
			picked[0] && picked[1] && picked[2] && picked[3]);

	insn_access__decode(&probe, "x86", code, sizeof(code), 0, true);
	if (probe.result == INSN_ACCESS__UNSUPPORTED)
		return TEST_SKIP;
	/* at the loop's load, later in the body: the load, from where it lands */
	for (u64 time = 1; time <= 64; time++) {
		int n = place_later(code, sizeof(code), 0, time, acc);

		pr_debug("time %" PRIu64 ": %d accesses, %#" PRIx64 " at %#" PRIx64 ", flags %#x\n",
			 time, n, acc[0].addr, acc[0].ip, acc[0].flags);
		TEST_ASSERT_VAL("the same for the same time",
				place_later(code, sizeof(code), 0, time, &four[0]) == n);
		/* landed where it was: the caller decodes it as recorded */
		if (n < 0) {
			recorded = true;
			continue;
		}
		TEST_ASSERT_VAL("the loop's load", n == 1 && acc[0].addr == 0x5000 &&
				acc[0].op == FA_OP_LOAD && acc[0].ip == 0x400000);
		TEST_ASSERT_VAL("and where", four[0].flags == acc[0].flags);
		flags |= acc[0].flags & (FA_ACC_SKID | FA_ACC_BLOCK);
	}
	TEST_ASSERT_VAL("as recorded, right before where it lands, and further back",
			recorded && flags == (FA_ACC_SKID | FA_ACC_BLOCK));
	return TEST_OK;
}

/*
 * 'perf record -d' asks every event for a data address: only a memory
 * PMU's and a page fault's are one.  Before, context switches and cycles
 * recorded so were taken for memory PMU samples, and every one was dropped
 * as 'no data address'.
 */
static int test__affinity_sources(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	u64 d = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	u64 regs = d | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR;

	TEST_ASSERT_VAL("cpu-clock: registers",
			source_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, regs) == FA_SRC_SW);
	TEST_ASSERT_VAL("context-switches: registers",
			source_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, regs) ==
			FA_SRC_SW);
	TEST_ASSERT_VAL("cycles: registers",
			source_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, regs) == FA_SRC_SW);
	TEST_ASSERT_VAL("a breakpoint: registers",
			source_of(PERF_TYPE_BREAKPOINT, 0, regs) == FA_SRC_SW);
	TEST_ASSERT_VAL("mem-loads: the address recorded",
			source_of(PERF_TYPE_RAW, 0x1cd, regs) == FA_SRC_MEM);
	TEST_ASSERT_VAL("page faults: the address recorded",
			source_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, d) == FA_SRC_MEM);
	TEST_ASSERT_VAL("cycles without registers: nothing",
			source_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, d) < 0);
	TEST_ASSERT_VAL("context-switches without registers: nothing",
			source_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, d) < 0);
	TEST_ASSERT_VAL("a tracepoint", source_of(PERF_TYPE_TRACEPOINT, 1, d) == FA_SRC_TP);
	return TEST_OK;
}

static struct test_case tests__affinity_decode[] = {
	TEST_CASE("Which events are memory PMU samples, which are decoded",
		  affinity_sources),
	TEST_CASE("PEBS-shaped samples keep address, data source and weight",
		  affinity_decode_mem),
	TEST_CASE("A function is swept for its starts, jumps and loops", affinity_sweep),
	TEST_CASE("Field labelled tracepoint lines", affinity_tp_line),
	TEST_CASE("A sample at a spill slot is the stall of the load before",
		  affinity_skid),
	TEST_CASE("A sample's block gives the accesses its registers still address",
		  affinity_block),
	TEST_CASE("The sweep goes past an operand it cannot address", affinity_block_evex),
	TEST_CASE("A rotated loop's condition follows its body", affinity_block_rotated),
	TEST_CASE("A loop's head follows its body's end, once", affinity_block_loop_head),
	TEST_CASE("A watchpoint's hit is the access before the IP", affinity_watch_hit),
	TEST_CASE("A sample taken where another CPU's timer would take it", affinity_place),
	{	.name = NULL, }
};

struct test_suite suite__affinity_decode = {
	.desc = "perf affinity: memory access decoding",
	.test_cases = tests__affinity_decode,
};
