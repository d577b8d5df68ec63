// SPDX-License-Identifier: GPL-2.0
/*
 * perf bench affinity synth: write a perf.data file of any number of memory
 * samples shaped like those of Intel PEBS load latency and store events
 * (IP, TID, TIME, ADDR, CPU, PERIOD, WEIGHT, DATA_SRC, PHYS_ADDR), to time
 * and size perf affinity report, perf c2c report and perf mem report on the
 * same input without a PMU.
 *
 * The samples are accesses of this perf binary's false sharing workloads
 * (tests/workloads/falseshare.c, built with -g -O2) to their structs: every
 * IP is one of their memory instructions and every data address is the
 * field that instruction accesses in a heap instance or in the workload's
 * static variable, so that data-type profiling and the data address find
 * the same fields as in a real recording.  Loads of a cache line last
 * written on another CPU are HITMs.  The header has what perf c2c and perf
 * mem need: CPU and NUMA topology, caches, build IDs.  Each CPU's samples
 * are written a round at a time, as perf record drains its ring buffers,
 * followed by a FINISHED_ROUND.
 *
 *   perf bench affinity synth -n 10000000 -o perf.data
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/zalloc.h>
#include <internal/lib.h>
#include <subcmd/parse-options.h>
#include "bench.h"
#include "affinity-lines.h"
#include "../util/data-writer.h"
#include "../util/build-id.h"
#include "../util/data.h"
#include "../util/debug.h"
#include "../util/dso.h"
#include "../util/dsos.h"
#include "../util/event.h"
#include "../util/evlist.h"
#include "../util/evsel.h"
#include "../util/header.h"
#include "../util/insn-access.h"
#include "../util/machine.h"
#include "../util/map.h"
#include "../util/sample.h"
#include "../util/session.h"
#include "../util/symbol.h"
#include "../util/synthetic-events.h"
#include "../util/tool.h"

#define SYNTH_PID	31337
#define SYNTH_HEAP	0x7f2a40000000ULL	/* the anonymous memory of the instances */
#define SYNTH_PHYS	0x180000000ULL
#define SYNTH_STRIDE	128			/* bytes between heap instances */
#define SYNTH_LINES	(SYNTH_STRIDE / 64)
#define SYNTH_MAX_CPUS	SYNTH_LINES_MAX_CPUS
#define SYNTH_MAX_INSNS	64
#define SYNTH_HOT	16			/* instances every CPU keeps coming back to */

enum synth_obj {
	SYNTH_LOCK,	/* struct lockshare_rq */
	SYNTH_REF,	/* struct refshare_dst */
	SYNTH_NR_OBJS,
};

/* A memory instruction of a workload function and the field it accesses */
struct synth_insn {
	u64	ip;
	u32	disp;
	u8	op;	/* enum insn_access_op */
	bool	lock;
};

struct synth_func {
	const char		*name;
	enum synth_obj		 obj;
	int			 nr_insns;
	struct synth_insn	 insns[SYNTH_MAX_INSNS];
};

/* What each CPU runs: the writer and the readers of the c2c lock example */
static struct synth_func synth_funcs[] = {
	{ .name = "lockshare_switch",	.obj = SYNTH_LOCK, },
	{ .name = "lockshare_read",	.obj = SYNTH_LOCK, },
	{ .name = "refshare_use",	.obj = SYNTH_REF, },
};

static const char * const synth_globals[SYNTH_NR_OBJS] = {
	[SYNTH_LOCK]	= "lockshare_global",
	[SYNTH_REF]	= "refshare_global",
};

/* Where a CPU is: in which call of which function, on which instance */
struct synth_cpu {
	u64			 clock;
	const struct synth_func	*func;
	int			 pos;
	int			 inst;
};

struct synth {
	char			 exe[PATH_MAX];
	u64			 bias;		/* where this perf is loaded */
	const Elf64_Phdr	*phdr;
	int			 phnum;
	u64			 globals[SYNTH_NR_OBJS];
	int			 nr_cpus;
	u32			 nr_insts;	/* per struct, besides the global */
	struct synth_lines	 lines;		/* of the instances */
	struct synth_cpu	 cpus[SYNTH_MAX_CPUS];
	struct perf_data_writer	 file;
};

static unsigned int nr_samples = 1000000;
static unsigned int nr_instances = 4096;
static unsigned int round_samples = 1000;
static unsigned int synth_seed = 1;
static const char *output_name;

static const struct option synth_options[] = {
	OPT_UINTEGER('n', "samples", &nr_samples, "samples to write"),
	OPT_UINTEGER('I', "instances", &nr_instances, "heap instances of each struct"),
	OPT_UINTEGER('r', "round", &round_samples, "samples of a CPU between FINISHED_ROUNDs"),
	OPT_UINTEGER('s', "seed", &synth_seed, "random seed"),
	OPT_STRING('o', "output", &output_name, "file",
		   "the perf.data to write (default: a temporary file, removed)"),
	OPT_END()
};

static const char * const synth_usage[] = {
	"perf bench affinity synth <options>",
	NULL
};

static u32 synth__rnd(struct synth *s)
{
	return synth_lines__rnd(&s->lines);
}

static int synth__phdr_cb(struct dl_phdr_info *info, size_t size __maybe_unused, void *arg)
{
	struct synth *s = arg;

	/* the first object is the executable */
	s->bias = info->dlpi_addr;
	s->phdr = info->dlpi_phdr;
	s->phnum = info->dlpi_phnum;
	return 1;
}

/*
 * Where a symbol of this perf is in memory: perf keeps the symbols of
 * executables as file offsets, in the segment with @flags.
 */
static u64 synth__runtime(const struct synth *s, u64 offset, u32 flags)
{
	for (int i = 0; i < s->phnum; i++) {
		const Elf64_Phdr *ph = &s->phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & flags) == flags &&
		    offset >= ph->p_offset && offset < ph->p_offset + ph->p_memsz)
			return s->bias + offset - ph->p_offset + ph->p_vaddr;
	}
	return 0;
}

/* The memory instructions of @fn with a struct pointer in a register */
static int synth_func__decode(struct synth_func *fn, u64 start, size_t len)
{
	const u8 *code = (const u8 *)(unsigned long)start;
	struct insn_access_insn insn;

	fn->nr_insns = 0;
	for (size_t off = 0; off < len; off += insn.length) {
		const struct insn_mem_operand *op = &insn.ops[0];

		if (insn_access__decode(&insn, "x86", code + off, len - off, start + off, true) ||
		    !insn.length)
			break;
		if (insn.result != INSN_ACCESS__OK || op->base < 0 ||
		    op->index != INSN_ACCESS_REG_NONE || op->disp < 0 ||
		    op->disp >= SYNTH_STRIDE || (op->flags & (INSN_ACCESS_F_FRAME |
				INSN_ACCESS_F_SEG_FS | INSN_ACCESS_F_SEG_GS)))
			continue;
		if (fn->nr_insns == SYNTH_MAX_INSNS)
			break;
		fn->insns[fn->nr_insns++] = (struct synth_insn){
			.ip = start + off, .disp = op->disp, .op = op->op,
			.lock = op->flags & INSN_ACCESS_F_LOCK,
		};
	}
	return fn->nr_insns ? 0 : -ENOENT;
}

/* Find the workload functions and variables in this perf binary */
static int synth__load(struct synth *s)
{
	struct dso *dso;
	struct map *map;
	int err = -ENOENT;

	if (!realpath("/proc/self/exe", s->exe))
		return -errno;
	dl_iterate_phdr(synth__phdr_cb, s);
	dso = dso__new(s->exe);
	if (!dso)
		return -ENOMEM;
	map = map__new2(0, dso);
	if (!map || dso__load(dso, map) <= 0) {
		pr_err("cannot read the symbols of %s\n", s->exe);
		goto out;
	}
	dso__sort_by_name(dso);
	for (size_t i = 0; i < ARRAY_SIZE(synth_funcs); i++) {
		struct symbol *sym = dso__find_symbol_by_name(dso, synth_funcs[i].name, NULL);
		u64 start = sym ? synth__runtime(s, sym->start, PF_X) : 0;

		if (!start || synth_func__decode(&synth_funcs[i], start, sym->end - sym->start)) {
			pr_err("no memory access found in %s of %s\n", synth_funcs[i].name,
			       s->exe);
			goto out;
		}
	}
	for (int i = 0; i < SYNTH_NR_OBJS; i++) {
		struct symbol *sym = dso__find_symbol_by_name(dso, synth_globals[i], NULL);

		s->globals[i] = sym ? synth__runtime(s, sym->start, PF_W) : 0;
		if (!s->globals[i]) {
			pr_err("no %s in %s\n", synth_globals[i], s->exe);
			goto out;
		}
	}
	err = 0;
out:
	map__put(map);
	dso__put(dso);
	return err;
}

static int synth__write_comms(struct synth *s)
{
	union perf_event event;

	for (int cpu = -1; cpu < s->nr_cpus; cpu++) {
		u32 tid = SYNTH_PID + 1 + cpu;

		memset(&event.comm, 0, sizeof(event.comm));
		event.comm.header.type = PERF_RECORD_COMM;
		event.comm.header.size = offsetof(struct perf_record_comm, comm) + 16;
		event.comm.pid = SYNTH_PID;
		event.comm.tid = tid;
		memcpy(event.comm.comm, "perf", sizeof("perf"));
		if (perf_data_writer__write_side(&s->file, &event, SYNTH_PID, tid))
			return -EIO;
	}
	return 0;
}

static int synth__write_mmap2(struct synth *s, u64 start, u64 len, u64 pgoff, u32 prot,
			      const char *name, const struct stat *st)
{
	union perf_event event;
	size_t name_len = PERF_ALIGN(strlen(name) + 1, sizeof(u64));

	memset(&event.mmap2, 0, sizeof(event.mmap2));
	event.mmap2.header.type = PERF_RECORD_MMAP2;
	event.mmap2.header.misc = PERF_RECORD_MISC_USER;
	if (!(prot & PROT_EXEC))
		event.mmap2.header.misc |= PERF_RECORD_MISC_MMAP_DATA;
	event.mmap2.header.size = sizeof(event.mmap2) - sizeof(event.mmap2.filename) + name_len;
	event.mmap2.pid = SYNTH_PID;
	event.mmap2.tid = SYNTH_PID;
	event.mmap2.start = start;
	event.mmap2.len = len;
	event.mmap2.pgoff = pgoff;
	event.mmap2.prot = prot;
	event.mmap2.flags = MAP_PRIVATE | (st ? 0 : MAP_ANONYMOUS);
	if (st) {
		event.mmap2.maj = major(st->st_dev);
		event.mmap2.min = minor(st->st_dev);
		event.mmap2.ino = st->st_ino;
	}
	memcpy(event.mmap2.filename, name, strlen(name) + 1);
	return perf_data_writer__write_side(&s->file, &event, SYNTH_PID, SYNTH_PID);
}

static int synth__phdr_mmap_cb(struct dl_phdr_info *info, size_t size __maybe_unused,
			       void *arg)
{
	struct synth *s = arg;
	struct stat st;

	if (stat(s->exe, &st))
		return -errno;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];
		u64 start = info->dlpi_addr + (ph->p_vaddr & ~0xfffULL);
		u64 end = PERF_ALIGN(info->dlpi_addr + ph->p_vaddr + ph->p_memsz, 4096);
		u32 prot = (ph->p_flags & PF_R ? PROT_READ : 0) |
			   (ph->p_flags & PF_W ? PROT_WRITE : 0) |
			   (ph->p_flags & PF_X ? PROT_EXEC : 0);

		if (ph->p_type == PT_LOAD &&
		    synth__write_mmap2(s, start, end - start, ph->p_offset & ~0xfffULL, prot,
				       s->exe, &st))
			return -EIO;
	}
	return 1;
}

static int synth__write_mmaps(struct synth *s)
{
	if (dl_iterate_phdr(synth__phdr_mmap_cb, s) != 1)
		return -EIO;
	return synth__write_mmap2(s, SYNTH_HEAP,
				  PERF_ALIGN((u64)2 * s->nr_insts * SYNTH_STRIDE, 4096), 0,
				  PROT_READ | PROT_WRITE, "//anon", NULL);
}

/* Instances: the heap ones of each struct, then the two static variables */
static u64 synth__inst_base(const struct synth *s, int inst)
{
	if ((u32)inst >= 2 * s->nr_insts)
		return s->globals[inst - 2 * s->nr_insts];
	return SYNTH_HEAP + (u64)inst * SYNTH_STRIDE;
}

static int synth__pick_inst(struct synth *s, enum synth_obj obj)
{
	u32 r = synth__rnd(s);

	if (r % 8 == 0)
		return 2 * s->nr_insts + obj;
	r >>= 3;
	if (r & 1)
		return obj * s->nr_insts + (r >> 1) % min_t(u32, s->nr_insts, SYNTH_HOT);
	return obj * s->nr_insts + (r >> 1) % s->nr_insts;
}

/* Even CPUs take the lock, odd ones read under it; all take references */
static void synth_cpu__call(struct synth *s, struct synth_cpu *c, int cpu)
{
	c->func = &synth_funcs[synth__rnd(s) & 1 ? 2 : cpu & 1];
	c->pos = 0;
	c->inst = synth__pick_inst(s, c->func->obj);
}

/* The next access of @cpu as a sample */
static int synth__write_sample(struct synth *s, int cpu)
{
	struct synth_cpu *c = &s->cpus[cpu];
	const struct synth_insn *in;
	struct perf_sample sample = { .pid = SYNTH_PID, .tid = SYNTH_PID + 1 + cpu,
				      .cpu = cpu, .period = 1000, };
	u64 base;

	if (!c->func || c->pos == c->func->nr_insns)
		synth_cpu__call(s, c, cpu);
	in = &c->func->insns[c->pos++];
	base = synth__inst_base(s, c->inst);
	c->clock += 200 + synth__rnd(s) % 400;
	sample.time = c->clock;
	sample.ip = in->ip;
	sample.addr = base + in->disp;
	sample.phys_addr = SYNTH_PHYS + (sample.addr & 0x3fffffffULL);
	sample.data_src = synth_lines__access(&s->lines, c->inst * SYNTH_LINES +
					      (sample.addr / 64 - base / 64), cpu,
					      in->op & INSN_ACCESS_OP_STORE, in->lock,
					      &sample.weight);
	return perf_data_writer__write_sample(&s->file, &sample);
}

/* Each CPU's samples of a round, then the end of the round */
static int synth__write_samples(struct synth *s)
{
	struct perf_event_header round = { .type = PERF_RECORD_FINISHED_ROUND,
					   .size = sizeof(round), };
	u64 left = nr_samples;
	int err = 0;

	while (left && !err) {
		for (int cpu = 0; cpu < s->nr_cpus && left && !err; cpu++) {
			for (u32 k = 0; k < round_samples && left && !err; k++, left--)
				err = synth__write_sample(s, cpu);
		}
		if (!err)
			err = perf_data_writer__write(&s->file, &round, sizeof(round));
	}
	return err;
}

static int synth__write_file(struct synth *s, struct perf_data *data)
{
	struct perf_event_attr attr;
	int err;

	perf_data_writer__mem_attr(&attr, /*kernel=*/false);
	err = perf_data_writer__open(&s->file, data, &attr, s->exe);
	if (!err)
		err = synth__write_comms(s);
	if (!err)
		err = synth__write_mmaps(s);
	if (!err)
		err = synth__write_samples(s);
	return perf_data_writer__close(&s->file, err);
}

static int synth__init(struct synth *s)
{
	s->nr_insts = max(nr_instances, 1U);
	s->nr_cpus = clamp(sysconf(_SC_NPROCESSORS_ONLN), 2L, (long)SYNTH_MAX_CPUS);
	return synth_lines__init(&s->lines, (2 * s->nr_insts + SYNTH_NR_OBJS) * SYNTH_LINES,
				 synth_seed);
}

int bench_affinity_synth(int argc, const char **argv)
{
	char tmp[] = "/tmp/perf-bench-affinity-synth.XXXXXX";
	struct perf_data data = { .mode = PERF_DATA_MODE_WRITE, };
	struct synth s = { .nr_cpus = 0, };
	struct timeval start, now, diff;
	double secs;
	int err;

	argc = parse_options(argc, argv, synth_options, synth_usage, 0);
	if (argc)
		usage_with_options(synth_usage, synth_options);
#ifndef __x86_64__
	pr_err("perf bench affinity synth writes samples of x86-64 code only\n");
	return -ENOTSUP;
#endif
	if (!round_samples)
		round_samples = 1;
	if (!output_name) {
		int fd = mkstemp(tmp);

		if (fd < 0)
			return -errno;
		close(fd);
	}
	data.path = output_name ?: tmp;
	data.force = true;
	/* the samples' binary is perf itself: keep it out of the build ID cache */
	disable_buildid_cache();
	err = symbol__init(NULL);
	if (!err)
		err = synth__init(&s);
	if (!err)
		err = synth__load(&s);
	gettimeofday(&start, NULL);
	if (!err)
		err = synth__write_file(&s, &data);
	gettimeofday(&now, NULL);
	timersub(&now, &start, &diff);
	secs = diff.tv_sec + diff.tv_usec / 1e6;
	if (err)
		pr_err("cannot write %s: %s\n", data.path, strerror(-err));
	else
		printf("# %u samples of %d CPUs, %" PRIu64 " MB, in %.2f s: %.0f samples/s\n",
		       nr_samples, s.nr_cpus, s.file.written >> 20, secs,
		       secs > 0 ? nr_samples / secs : 0);
	if (!output_name)
		unlink(tmp);
	synth_lines__exit(&s.lines);
	return err ? -1 : 0;
}
