// SPDX-License-Identifier: GPL-2.0
/*
 * Samples of a memory sampling PMU, shaped like PEBS load latency and store
 * samples (ADDR, DATA_SRC with HITM, WEIGHT, CPU, TIME, PERIOD), written to
 * a perf.data file, read back through perf's session and sample parsing and
 * decoded into accesses: addresses, data sources and weights must arrive
 * intact, in order, with the direction taken from the data source.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <internal/lib.h>
#include "debug.h"
#include "event.h"
#include "addr_location.h"
#include "affinity/access.h"
#include "affinity/decode.h"
#include "data.h"
#include "machine.h"
#include "header.h"
#include "sample.h"
#include "session.h"
#include "synthetic-events.h"
#include "tests.h"
#include "tool.h"
#include "util.h"

#define PEBS_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			  PERF_SAMPLE_ADDR | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CPU | \
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
	int			 fd;
	/* reading */
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

static int write_event(const struct perf_tool *tool, union perf_event *event,
		       struct perf_sample *sample __maybe_unused,
		       struct machine *machine __maybe_unused)
{
	struct synth_test *st = container_of(tool, struct synth_test, tool);

	return writen(st->fd, event, event->header.size) == event->header.size ? 0 : -1;
}

static int write_comm_mmap(struct synth_test *st)
{
	char buf[sizeof(struct perf_record_mmap) + 64];
	struct perf_record_comm comm = {
		.header = { .type = PERF_RECORD_COMM, .misc = PERF_RECORD_MISC_USER,
			    .size = sizeof(comm), },
		.pid = TEST_PID, .tid = TEST_PID, .comm = "pebs-shaped",
	};
	struct perf_record_mmap *mmap = (struct perf_record_mmap *)buf;

	memset(buf, 0, sizeof(buf));
	mmap->header.type = PERF_RECORD_MMAP;
	mmap->header.misc = PERF_RECORD_MISC_USER;
	mmap->header.size = sizeof(*mmap) - sizeof(mmap->filename) + 16;
	mmap->pid = mmap->tid = TEST_PID;
	mmap->start = TEXT_START;
	mmap->len = 0x10000;
	strcpy(mmap->filename, "/nonexistent");
	if (writen(st->fd, &comm, sizeof(comm)) != sizeof(comm) ||
	    writen(st->fd, mmap, mmap->header.size) != mmap->header.size)
		return -1;
	return 0;
}

static int write_samples(struct synth_test *st, u64 id)
{
	char buf[PERF_SAMPLE_MAX_SIZE];
	union perf_event *event = (union perf_event *)buf;

	for (int i = 0; i < NR_SAMPLES; i++) {
		const struct planted_sample *p = &planted[i % ARRAY_SIZE(planted)];
		struct perf_sample sample = {
			.ip = TEXT_START + 0x100 + i % 16,
			.pid = TEST_PID, .tid = TEST_PID + i % 2,
			.time = 1000000 + i * 1000ULL,
			.addr = planted_addr(i),
			.id = id,
			.cpu = i % 4,
			.period = 1000 + i,
			.weight = p->weight,
			.data_src = p->data_src,
		};

		event->header.type = PERF_RECORD_SAMPLE;
		event->header.misc = PERF_RECORD_MISC_USER;
		event->header.size = perf_event__sample_event_size(&sample, PEBS_SAMPLE_TYPE, 0);
		if (perf_event__synthesize_sample(event, PEBS_SAMPLE_TYPE, 0, &sample) ||
		    write_event(&st->tool, event, &sample, NULL))
			return -1;
	}
	return 0;
}

static int write_perf_data(struct synth_test *st, const char *path)
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
	u64 id = 7;
	int err = -1;

	st->fd = creat(path, 0600);
	if (st->fd < 0)
		return -1;
	perf_tool__init(&st->tool, /*ordered_events=*/false);
	if (!perf_header__write_pipe(st->fd) &&
	    !perf_event__synthesize_attr(&st->tool, &attr, 1, &id, write_event) &&
	    !write_comm_mmap(st) && !write_samples(st, id))
		err = 0;
	close(st->fd);
	return err;
}

static int check_sample(const struct perf_tool *tool, union perf_event *event __maybe_unused,
			struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct synth_test *st = container_of(tool, struct synth_test, tool);
	struct fa_access acc[FA_DECODE_MAX_ACC];
	int i = st->nr_seen++;
	const struct planted_sample *p = &planted[i % ARRAY_SIZE(planted)];
	struct addr_location al;
	int n;

	addr_location__init(&al);
	machine__resolve(machine, &al, sample);
	n = fa_decoder__decode(&st->decoder, evsel, sample, &al, acc);
	addr_location__exit(&al);

	if (n != 1 || acc[0].source != FA_SRC_MEM || acc[0].addr != planted_addr(i) ||
	    acc[0].data_src != p->data_src || acc[0].weight != p->weight ||
	    acc[0].op != p->op || acc[0].cpu != (u32)(i % 4) || acc[0].period != 1000ULL + i ||
	    acc[0].time != 1000000 + i * 1000ULL || acc[0].tid != (u32)(TEST_PID + i % 2)) {
		pr_debug("sample %d: n %d src %d addr %#" PRIx64 " dsrc %#" PRIx64 " weight %"
			 PRIu64 " op %d cpu %u\n", i, n, n ? acc[0].source : -1,
			 acc[0].addr, acc[0].data_src, acc[0].weight, acc[0].op, acc[0].cpu);
		st->nr_bad++;
	}
	return 0;
}

static int read_perf_data(struct synth_test *st, const char *path)
{
	struct perf_data data = { .path = path, .mode = PERF_DATA_MODE_READ, };
	struct perf_session *session;
	int err;

	perf_tool__init(&st->tool, /*ordered_events=*/true);
	st->tool.sample = check_sample;
	st->tool.attr = perf_event__process_attr;
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
	struct synth_test st = { .fd = -1, };
	int fd = mkstemp(path);
	int err;

	if (fd < 0)
		return TEST_FAIL;
	close(fd);
	err = write_perf_data(&st, path);
	if (!err)
		err = read_perf_data(&st, path);
	unlink(path);
	TEST_ASSERT_VAL("cannot write or read the PEBS-shaped perf.data", !err);
	TEST_ASSERT_VAL("not every sample was seen", st.nr_seen == NR_SAMPLES);
	TEST_ASSERT_VAL("samples decoded wrong", st.nr_bad == 0);
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

static struct test_case tests__affinity_decode[] = {
	TEST_CASE("PEBS-shaped samples keep address, data source and weight",
		  affinity_decode_mem),
	TEST_CASE("Field labelled tracepoint lines", affinity_tp_line),
	{	.name = NULL, }
};

struct test_suite suite__affinity_decode = {
	.desc = "perf affinity: memory access decoding",
	.test_cases = tests__affinity_decode,
};
