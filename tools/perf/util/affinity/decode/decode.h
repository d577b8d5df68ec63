/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decode perf samples into memory accesses (struct fa_access): memory
 * sampling PMU samples as recorded, software samples by decoding the
 * instruction at the sampled IP with the sampled registers, field labelled
 * tracepoints from their fields.  Counts every sample that gives no access,
 * by reason.
 *
 * The names of util/affinity/ carry the prefix fa_, "field affinity": the
 * affinity of struct fields in time, not util/affinity.c's CPU affinity.
 */
#ifndef __PERF_AFFINITY_DECODE_H
#define __PERF_AFFINITY_DECODE_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "access.h"
#include "key.h"

struct addr_location;
struct evsel;
struct fa_insn;
struct hashmap;
struct machine;
struct map;
struct perf_env;
struct perf_sample;
struct strlist;
struct symbol;

enum fa_drop {
	FA_DROP_NO_MEM,		/* no memory operand, nor before it */
	FA_DROP_STACK,		/* only implicit stack accesses */
	FA_DROP_VSIB,		/* gather/scatter */
	FA_DROP_DECODE,		/* instruction not decoded */
	FA_DROP_NO_MAP,		/* IP outside every known map */
	FA_DROP_NO_CODE,	/* code bytes not readable */
	FA_DROP_NO_REGS,	/* sample without registers */
	FA_DROP_NO_REG,		/* a register the address needs was not sampled */
	FA_DROP_ARCH,		/* no decoder for the recording's architecture */
	FA_DROP_NO_ADDR,	/* memory sample without a data address */
	FA_DROP_TP_FORMAT,	/* tracepoint that does not describe accesses */
	FA_DROP_CHANGED,	/* the binary is not the one recorded (build ID) */
	FA_DROP_NO_SYM,		/* no memory operand, and no symbol to find the one before */
	FA_DROP_MAX,
	FA_DROP_NONE = FA_DROP_MAX,	/* the sample gave accesses */
};

/*
 * Why the walk back from a software sample's IP through its basic block
 * stopped: the accesses before that point may not have executed, or not
 * with the sampled registers' values
 */
enum fa_walk_stop {
	FA_WALK_ENTRY,		/* a jump goes there: the block may be entered there */
	FA_WALK_CALL,		/* after a call: the callee ran in between */
	FA_WALK_BRANCH,		/* after a jump or return: another block */
	FA_WALK_START,		/* the function's first instruction */
	FA_WALK_INDIRECT,	/* the function has indirect jumps: entries unknown */
	FA_WALK_UNKNOWN,	/* an instruction whose written registers are unknown */
	FA_WALK_LIMIT,		/* FA_BLOCK_MAX_ACC accesses or FA_BLOCK_MAX_INSNS */
	FA_WALK_NO_CODE,	/* no symbol or code to walk */
	FA_WALK_MAX,
};

/* Where a software sample is taken to be (place.c): as recorded, or as another CPU would */
enum fa_place {
	FA_PLACE_RECORDED,
	FA_PLACE_ONE,		/* one access of the sample's (an Intel timer) */
	FA_PLACE_LATER,		/* a later instruction of the block (an AMD timer) */
	FA_PLACE_MAX,
};

/* Accesses taken from a sample's block before its IP, instructions walked at most */
#define FA_BLOCK_MAX_ACC	8
#define FA_BLOCK_MAX_INSNS	64

/**
 * struct fa_decode_stats - What decoding made of the samples
 * @samples: Samples per source
 * @accesses: Access records made per source
 * @dropped: Samples that gave no access, per reason
 * @skid: Accesses of the instruction before the sampled IP
 * @block: Accesses of instructions further back in the sample's basic block
 * @block_lost: Accesses in the block whose address registers were written
 *              before the IP: not recoverable
 * @walk_stop: Software samples by where the walk back through the block stopped
 * @seg: fs:/gs: relative accesses (TLS, per-CPU)
 * @string: Elements of string operations
 * @unknown_op: Accesses in an unknown direction
 * @kernel: Accesses in kernel mode
 * @allocs: Allocation tracepoint samples (kmem:kmalloc...)
 * @frees: Free tracepoint samples (kmem:kfree...)
 * @other: Samples of events that are no source of accesses
 * @code_cut: Functions read for their code that were longer than
 *            FA_FUNC_MAX_SIZE: cut there
 */
struct fa_decode_stats {
	u64	samples[FA_SRC_MAX];
	u64	accesses[FA_SRC_MAX];
	u64	dropped[FA_DROP_MAX];
	u64	skid;
	u64	watch;
	u64	block;
	u64	block_lost;
	u64	walk_stop[FA_WALK_MAX];
	u64	seg;
	u64	string;
	u64	unknown_op;
	u64	kernel;
	u64	allocs;
	u64	frees;
	u64	other;
	u64	code_cut;
};

/* Samples a DSO's code gave no access for, by reason: what to tell the user */
struct fa_drop_dso {
	u64		 key;		/* reason and dso */
	struct dso	*dso;
	int		 reason;
	u64		 count;
};

/* Accesses one sample can give: its instruction's (movs) and its block's */
#define FA_DECODE_MAX_ACC	(2 + FA_BLOCK_MAX_ACC)
/*
 * Bytes of a function read, to find the instruction before a sample and
 * the fields of the code context: longer functions are cut (and counted)
 */
#define FA_FUNC_MAX_SIZE	(64 * 1024)

/* The stack canary: %fs:0x28 in x86-64 user space, %gs:0x28 in the kernel */
#define FA_X86_CANARY		0x28
/* The thread pointer, which the TCB holds at %fs:0x0 */
#define FA_X86_TCB_SELF		0x0

/* The thread control block: the canary or the thread pointer, always in the cache */
static inline bool fa_x86__tcb(u64 off)
{
	return off == FA_X86_CANARY || off == FA_X86_TCB_SELF;
}

/* A loop's head and the one jump back to it, offsets in their function */
struct fa_back_edge {
	u32	head;
	u32	jump;
};

/**
 * struct fa_code - A function's code, swept from its start
 * @key: Its DSO and start
 * @len: Bytes read: at most FA_FUNC_MAX_SIZE, 0 if not readable
 * @indirect: It has indirect jumps: the jump targets are not known
 * @starts: Bit per byte: an instruction starts there
 * @targets: Bit per byte: a jump goes there
 * @rotated: Bit per byte: of those, the condition of a rotated loop (its
 *           body falls through to it each turn, a jump enters it once)
 * @back_edges: Of those, the heads of loops with one jump back to them, by
 *              head: what ran before the head on every turn but the first
 * @nr_back_edges: Their number
 * @code: The bytes
 * @loads_tp: It loads the thread pointer (tls-reg.h)
 */
struct fa_code {
	struct fa_dso_key	 key;
	u32			 len;
	bool			 indirect;
	bool			 loads_tp;
	unsigned long		*starts;
	unsigned long		*targets;
	unsigned long		*rotated;
	struct fa_back_edge	*back_edges;
	int			 nr_back_edges;
	u8			*code;
};

struct fa_decoder {
	struct perf_env		*env;
	const char		*arch;		/* perf_env__arch() of the recording */
	struct machine		*machine;
	struct hashmap		*insns;		/* (dso, offset) -> struct fa_insn */
	struct fa_insn		*insn_cache[FA_CACHE_SIZE];
	struct hashmap		*funcs;		/* (dso, start) -> struct fa_code */
	struct strlist		*names;		/* tracepoint type and field names */
	struct hashmap		*dsos;		/* (dso, 0) -> struct fa_dso_code */
	struct hashmap		*drop_dsos;	/* (reason, dso) -> struct fa_drop_dso */
	struct fa_decode_stats	 stats;
	int			 last_drop;	/* why the last sample gave none, FA_DROP_NONE */
	bool			 is64;		/* code is 64-bit unless its DSO says */
	bool			 no_skid;	/* never use the instruction before the IP */
	u8			 place;		/* enum fa_place of software samples */
	u64			 place_seed;
	u64			 placed;	/* samples re-placed */
	u8			 rec;		/* the recording read, of several */
};

int fa_decoder__init(struct fa_decoder *dec, struct perf_env *env, struct machine *machine);
void fa_decoder__exit(struct fa_decoder *dec);
void fa_decoder__recording(struct fa_decoder *dec, struct perf_env *env, struct machine *machine,
			   u8 rec);
int fa_evsel__source(struct evsel *evsel);
void fa_decoder__drop(struct fa_decoder *dec, enum fa_drop reason);
void fa_decoder__drop_at(struct fa_decoder *dec, enum fa_drop reason, struct dso *dso);
int fa_decoder__decode(struct fa_decoder *dec, struct evsel *evsel,
		       struct perf_sample *sample, struct addr_location *al,
		       struct fa_origin *origin, struct fa_access *acc);
const struct fa_code *fa_decoder__code(struct fa_decoder *dec, struct map *map,
				       struct symbol *sym);
u64 fa_decoder__base_global(struct fa_decoder *dec, struct dso *dso, struct symbol *sym, u32 off);
const char *fa_drop__name(enum fa_drop reason);
const char *fa_drop__key(enum fa_drop reason);
const char *fa_walk_stop__name(enum fa_walk_stop stop);
const char *fa_walk_stop__key(enum fa_walk_stop stop);
u64 fa_decode_stats__samples(const struct fa_decode_stats *st);
int fa_tp_line__parse(const char *line, char *type, size_t type_sz,
		      char *field, size_t field_sz, u64 *instance, u8 *op);
u8 fa_op__parse(const char *name);
int fa_place__parse(const char *str, u64 *seed);
const char *fa_place__text(enum fa_place place);

#endif /* __PERF_AFFINITY_DECODE_H */
