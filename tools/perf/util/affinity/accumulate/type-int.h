/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interfaces between the parts of struct fa_type (see type.h). */
#ifndef __PERF_AFFINITY_TYPE_INT_H
#define __PERF_AFFINITY_TYPE_INT_H

#include <linux/types.h>
#include "type.h"

#define FA_INST_WRITES		8	/* written fields remembered per instance */
#define FA_INST_SEEN		4	/* accesses a write is a transfer to */
#define FA_INST_CPUS		8	/* CPUs an instance remembers the windows of */
#define FA_INST_SWEEP		(1 << 16)
#define FA_WIN_INSTS		8	/* instances one cost window tells apart */
#define FA_MAX_SETS		(1 << 20)
#define FA_REPLAY_CHUNK		4096

/* The units a cost window touched in one instance */
struct fa_win_inst {
	u64	instance;
	int	nr_units;
	u16	units[FA_MAX_WINDOW];
};

struct fa_window {
	u64			key;
	u64			last_time;
	int			head;
	int			n;
	int			field[FA_MAX_WINDOW];
	u64			time[FA_MAX_WINDOW];
	/* the current tumbling window of the cost model */
	int			set_accesses;
	u64			set_start;
	u32			set_cpu;	/* CPU of its last access */
	double			set_weight;
	int			nr_insts;
	struct fa_win_inst	insts[FA_WIN_INSTS];
};

/* The last writes of a field of an instance, by the two last CPUs writing it */
struct fa_write {
	int	field;
	int	nr;
	u32	cpu[2];		/* newest first */
	u64	time[2];
	int	nr_seen;
	u32	seen[FA_INST_SEEN];	/* (cpu, field) it was already a transfer to */
};

/*
 * Who accessed one field of one instance, to tell a field that owners share
 * from one that each owner has in its own instance (per-thread slots): the
 * first FA_IF_OWNERS owners, each with the first two functions it accessed
 * the field in, and when it accessed the instance (any field).  Whether a
 * function stores to the field is known from the code context only after
 * the last sample (fa_type__inst_fields_flush()).  Two owners share the
 * field only while both access the instance: a queue whose consumer
 * thread ends, and another's starts, on one stack address, hands it over.
 */
#define FA_IF_OWNERS		3
#define FA_IF_MAX		(1 << 18)	/* (instance, field) pairs per type */

struct fa_if_owner {
	u32	owner;
	u32	func[2];
	bool	stored;		/* a sampled store */
	u64	first;		/* its first access to the instance */
	u64	last;		/* and its last */
};

/* When an owner accessed an instance: its first and last access */
struct fa_inst_owner {
	u32	owner;
	u64	first;
	u64	last;
};

struct fa_inst_field {
	int			field;
	int			nr;
	struct fa_if_owner	owners[FA_IF_OWNERS];
};

/* An instance as fa_type__accumulate() sees it */
struct fa_inst {
	u64			base;
	int			nr_writes;
	struct fa_write		writes[FA_INST_WRITES];
	int			nr_cpus;
	u32			cpu[FA_INST_CPUS];
	u64			fetched[FA_INST_CPUS];	/* when the CPU last touched it */
	u64			since[FA_INST_CPUS];	/* and the touch before that */
	struct fa_inst_field	*fields;	/* of the fields accessed */
	int			nr_fields;
	int			nr_owners;
	struct fa_inst_owner	owners[FA_INST_CPUS];	/* the first ones */
};

/*
 * An instance a type has seen lately (fa_type__instance()), and what its
 * accesses built, apart: with a worker thread, the main thread writes the
 * identity at every access and the worker the rest.  One allocation, not
 * to follow a pointer at every access; padded, as it is only 16 bytes
 * aligned.
 */
struct fa_inst_id {
	u64			key;
	u64			last_time;
	u8			apart[FA_APART - 2 * sizeof(u64)];
	struct fa_inst		inst;
};

/* Units of a set: a window's, or an access's and those written before it */
#define FA_SET_MAX_UNITS	(FA_MAX_WINDOW + 1 + FA_INST_WRITES)

int fa_counts__init(struct fa_counts *c, int nr_fields, int nr_owners);
void fa_counts__exit(struct fa_counts *c, int nr_fields);
void fa_type__count(struct fa_type *t, const struct fa_sample *s);

int fa_cost_sets__init(struct fa_cost_sets *cs);
void fa_cost_sets__exit(struct fa_cost_sets *cs);
void fa_cost_sets__record(struct fa_cost_sets *cs, struct hashmap *map, u16 *units, int nr,
			  int nr_w, int group, double count, double weight);

int fa_windows__init(struct fa_windows *win, int nr_fields);
void fa_windows__exit(struct fa_windows *win);
int fa_type__window(struct fa_type *t, const struct fa_sample *s);
void fa_type__end_windows(struct fa_type *t);

int fa_transfers__init(struct fa_transfers *x, int nr_fields);
void fa_transfers__exit(struct fa_transfers *x);
int fa_type__transfers(struct fa_type *t, struct fa_inst *inst, const struct fa_sample *s);
void fa_type__inst_fields_flush(struct fa_type *t);

int fa_code_ctx__init(struct fa_code_ctx *code);
void fa_code_ctx__exit(struct fa_code_ctx *code, int nr_fields);
void fa_code_ctx__flush(struct fa_code_ctx *code);

int fa_replay__init(struct fa_replay *r, size_t max);
void fa_replay__exit(struct fa_replay *r);
int fa_replay__add(struct fa_replay *r, const struct fa_sample *s);

#endif /* __PERF_AFFINITY_TYPE_INT_H */
