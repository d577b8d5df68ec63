/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One memory access, whatever recorded it: a memory sampling PMU (PEBS, IBS,
 * SPE, POWER), a software sample decoded from its registers, or a field
 * labelled tracepoint.  Everything after decoding sees only this.
 *
 * perf affinity's library (util/affinity/) names its types and functions
 * fa_ (field affinity): affinity_ alone is util/affinity.c's CPU affinity.
 */
#ifndef __PERF_AFFINITY_ACCESS_H
#define __PERF_AFFINITY_ACCESS_H

#include <stdbool.h>
#include <linux/types.h>

enum fa_source {
	FA_SRC_MEM,	/* memory sampling PMU: the recorded data address */
	FA_SRC_SW,	/* software address sampling: decoded from the registers */
	FA_SRC_TP,	/* field labelled tracepoint: type and field are given */
	FA_SRC_MAX,
};

/* What the access did (a bit mask, as in insn-access.h) */
enum fa_op {
	FA_OP_LOAD	= 1 << 0,
	FA_OP_STORE	= 1 << 1,
	FA_OP_RMW	= FA_OP_LOAD | FA_OP_STORE,
	FA_OP_PREFETCH	= 1 << 2,
	FA_OP_UNKNOWN	= 1 << 3,
};

#define FA_ACC_SKID	(1 << 0)	/* by the instruction before the sampled IP */
#define FA_ACC_SEG	(1 << 1)	/* fs:/gs: relative: @addr is the segment offset */
#define FA_ACC_LOCK	(1 << 2)	/* atomic */
#define FA_ACC_STRING	(1 << 3)	/* one element of a string operation */
#define FA_ACC_KERNEL	(1 << 4)	/* kernel mode */
#define FA_ACC_FRAME	(1 << 5)	/* based on the stack or frame pointer */
#define FA_ACC_BLOCK	(1 << 6)	/* further back in the sampled basic block */
#define FA_ACC_INDEX	(1 << 7)	/* @index_off is known: the operand has an index */
#define FA_ACC_WATCH	(1 << 8)	/* a hardware watchpoint's hit: exact */

struct evsel;
struct map;
struct symbol;
struct thread;

/**
 * struct fa_origin - The sample accesses were decoded from: when, on which
 * CPU, in which thread and by which code, resolved once by the decoder
 * @time: Sample time
 * @period: Sample period: how many accesses (or ns) each stands for
 * @nr_accesses: Accesses decoded from the sample: they share @period
 * @cpu: CPU
 * @pid: Process
 * @tid: Thread
 * @cpumode: PERF_RECORD_MISC_* of the sampled IP
 * @source: enum fa_source, or -1: an event that is no source of accesses
 * @watch: A hardware watchpoint's hit: every access (or one in @period), not
 *         a sample of the time spent (exact.h)
 * @thread: The sampled thread (borrowed: valid while the sample is)
 * @map: The map of the sampled IP, NULL outside every known map
 * @sym: The function of the sampled IP, NULL if in no symbol
 * @evsel: The sampled event
 * @rec: The recording, of those a report reads (0 of one)
 */
struct fa_origin {
	u64		 time;
	u64		 ip;		/* sampled */
	u64		 period;
	u32		 nr_accesses;
	u32		 cpu;
	u32		 pid;
	u32		 tid;
	u8		 cpumode;
	s8		 source;
	bool		 watch;
	struct thread	*thread;
	struct map	*map;
	struct symbol	*sym;
	struct evsel	*evsel;
	u8		 rec;
};

/*
 * An address space: the recording in the top bits, the process below them
 * (none: the kernel's), so that no two recordings share an instance or a line
 */
#define FA_SPACE_REC_SHIFT	24

static inline u32 fa_space__of(u8 rec, bool kernel, u32 pid)
{
	u32 mask = (1U << FA_SPACE_REC_SHIFT) - 1;

	return (u32)rec << FA_SPACE_REC_SHIFT | (kernel ? 0 : pid & mask);
}

static inline u32 fa_space__pid(u32 space)
{
	return space & ((1U << FA_SPACE_REC_SHIFT) - 1);
}

static inline bool fa_space__kernel(u32 space)
{
	return !fa_space__pid(space);
}

static inline u8 fa_space__rec(u32 space)
{
	return space >> FA_SPACE_REC_SHIFT;
}

/**
 * struct fa_access - A memory access: all attribution needs to know
 * @ip: Address of the accessing instruction (the one before the sampled
 *      IP when FA_ACC_SKID, one further back in its block when FA_ACC_BLOCK)
 * @addr: Data address (0 for tracepoints that do not give one)
 * @weight: Access cost when recorded (load latency), else 0
 * @data_src: union perf_mem_data_src, PERF_MEM_* NA when not recorded
 * @index_off: The index register part of @addr (index * scale), when known
 * @tp: The thread pointer, when @addr is an address relative to it that
 *      code computed (tls-reg.h), else 0
 * @instance: Tracepoint: the instance the tracepoint named (rq[N] -> N)
 * @size: Access size in bytes, 0 when not known
 * @op: enum fa_op
 * @flags: FA_ACC_*
 * @type_name: Tracepoint: the struct the access is to
 * @field_name: Tracepoint: the field the access is to
 * @origin: The sample it was decoded from
 */
struct fa_access {
	u64			 ip;
	u64			 addr;
	u64			 weight;
	u64			 data_src;
	u64			 index_off;
	u64			 tp;
	u64			 instance;
	u16			 size;
	u8			 op;
	u16			 flags;
	const char		*type_name;
	const char		*field_name;
	const struct fa_origin	*origin;
};

/*
 * The names of an enum's values: @key in the JSON, options and scripts,
 * @text in what people read.  One table per enum.
 */
struct fa_label {
	const char	*key;
	const char	*text;
};

const char *fa_label__key(const struct fa_label *labels, int nr, int value);
const char *fa_label__text(const struct fa_label *labels, int nr, int value);
int fa_label__parse(const struct fa_label *labels, int nr, const char *key);

const char *fa_source__name(enum fa_source src);
const char *fa_source__text(enum fa_source src);
const char *fa_op__name(u8 op);

#endif /* __PERF_AFFINITY_ACCESS_H */
