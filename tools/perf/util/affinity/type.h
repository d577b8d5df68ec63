/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything perf affinity learns about one struct type from the accesses
 * attributed to its fields, in bounded memory whatever the number of
 * samples:
 *
 * - per leaf field: loads, stores, HITM/peer snoops, reader and writer CPUs;
 * - co-access: fields accessed within the same window of the same scope
 *   (CPU, thread or instance), never across scopes;
 * - cross-CPU transfers: an access to field j on CPU b shortly after field
 *   i of the same instance was written on CPU a != b (X[i][j]); when i and
 *   j are on the same real cache line that is false (i != j) or true
 *   (i == j) sharing;
 * - the set of units every window touched (for the cost of any layout);
 * - a bounded sample of the access stream, to replay layouts exactly;
 * - sampled weight per function, for the code context method.
 */
#ifndef __PERF_AFFINITY_TYPE_H
#define __PERF_AFFINITY_TYPE_H

#include <stdbool.h>
#include <linux/types.h>
#include "key.h"
#include "matrix.h"

struct fa_inst;
struct fa_inst_field;
struct fa_owners;
struct fa_struct;
struct fa_window;
struct hashmap;

enum fa_scope {
	FA_SCOPE_CPU,
	FA_SCOPE_THREAD,
	FA_SCOPE_INSTANCE,
	FA_SCOPE_MAX,
};

#define FA_MAX_WINDOW	64

/**
 * struct fa_config - How accesses are grouped
 * @line_size: Cache line size of the machine that recorded
 * @nr_cpus: CPUs of that machine
 * @scope: enum fa_scope of the windows
 * @window: Accesses per window (when @window_ns is 0)
 * @window_ns: Or: window length in time
 * @xfer_ns: Longest time between a write on one CPU and an access on another
 *           that counts as a transfer of the line between them
 * @replay_max: Accesses kept for replaying layouts
 * @by_thread: The owners of cache lines are threads, not CPUs (user space)
 * @nr_owners: Bits of the sets of owners: FA_MAX_THREADS or @nr_cpus
 * @owners: The threads, when @by_thread
 */
struct fa_config {
	u32	line_size;
	int	nr_cpus;
	int	scope;
	int	window;
	u64	window_ns;
	u64	xfer_ns;
	size_t	replay_max;
	bool	by_thread;
	int	nr_owners;
	const struct fa_owners *owners;
};

/**
 * struct fa_field_stats - What was seen of one leaf field
 * @loads: Load samples
 * @stores: Store samples
 * @rmws: Read-modify-write samples (atomics, increments)
 * @other: Samples of unknown direction
 * @weight: Sum of the samples' periods
 * @hitm: Loads that hit a modified line in another cache (data source)
 * @peer: Loads served by a peer cache (data source)
 * @readers: Owners (threads or CPUs, see owner.h) that read it
 * @writers: Owners that wrote it
 * @inst_seen: Instances whose field was accessed (fa_inst::fields)
 * @inst_shared: Of those, written by one owner and accessed by another
 * @inst_writers: Of those, written by several owners
 */
struct fa_field_stats {
	u64		 loads;
	u64		 stores;
	u64		 rmws;
	u64		 other;
	double		 weight;
	u64		 hitm;
	u64		 peer;
	unsigned long	*readers;
	unsigned long	*writers;
	u64		 inst_seen;
	u64		 inst_shared;
	u64		 inst_writers;
};

/*
 * What the sampled code says of a field (code context): the weight of the
 * functions accessing it, and the CPUs those functions ran on, split by
 * whether they load or store it.
 */
struct fa_code_stats {
	double		 weight;
	double		 store_weight;	/* of the functions that store to it */
	unsigned long	*readers;
	unsigned long	*writers;
};

/* An access to a field of one instance of the type, in time order. */
struct fa_sample {
	u64	time;
	u64	instance;	/* identity: base address + address space */
	u64	base;		/* base address, for the real cache lines */
	double	weight;
	u64	data_src;
	u32	cpu;
	u32	tid;
	u32	owner;		/* index of the thread, or the CPU (fa_config::by_thread) */
	u32	func;		/* the sampled function (code context), 0 */
	int	field;		/* leaf field index */
	u8	op;		/* enum fa_op */
};

/* fa_event::op: an access by code that stores the field (set by the flush) */
#define FA_EV_CODE_STORE	(1 << 7)

/* One access of the replay sample */
struct fa_event {
	u64	time;
	u32	instance;	/* index into fa_replay::bases */
	u32	tid;
	u32	func;		/* fa_sample::func */
	u16	cpu;
	u16	field;
	u8	op;
};

/* A bounded sample of the access stream: chunks of consecutive accesses. */
struct fa_replay {
	struct fa_event	*events;
	size_t		 nr;		/* accesses seen */
	size_t		 alloc;
	size_t		 max;
	size_t		 chunk;		/* events per chunk */
	size_t		 target;	/* where the chunk being kept goes, or SIZE_MAX */
	u64		 nr_chunks_seen;
	u64		*bases;		/* instance base addresses */
	struct hashmap	*instances;	/* instance key -> index */
	u64		 last_instance;	/* the instance of the last event kept */
	u32		 last_index;
	u32		 nr_bases;
	u32		 seed;
};

/*
 * A set of units and how often it was seen: the units a window touched in
 * one instance (fa_type::sets, @nr_w is 0), or the unit an access touched
 * and the @nr_w units other CPUs wrote to the instance since that CPU last
 * touched it (fa_type::moves, @nr is 1).
 */
struct fa_set {
	u64	count;
	double	weight;
	u16	nr;
	u16	nr_w;
	u16	units[];
};

struct fa_type {
	struct fa_struct	*st;
	struct fa_config	 cfg;
	struct fa_field_stats	*stats;		/* by field index */
	struct fa_code_stats	*code_stats;	/* by field index, code context only */
	struct fa_matrix	 co;		/* window co-access, symmetric i < j */
	struct fa_matrix	 xfer;		/* write i on a, then access j on b != a */
	struct fa_matrix	 fs;		/* xfer with i, j on one real line */
	struct hashmap		*windows;	/* scope key -> struct fa_window */
	struct hashmap		*insts;		/* instance -> struct fa_inst */
	struct hashmap		*sets;		/* window unit sets -> struct fa_set */
	struct hashmap		*moves;		/* access + units written since -> fa_set */
	struct hashmap		*visits;	/* units a sampled function touches -> fa_set */
	/* who accessed the fields of the instances swept from @insts */
	struct fa_inst_field	*retired;
	size_t			 nr_retired;
	size_t			 alloc_retired;
	u64			 nr_inst_fields;	/* tracked, live and retired */
	u64			 inst_fields_dropped;
	u64			 nr_visits;	/* samples of those functions */
	struct fa_replay	 replay;
	/* (function, field) pairs the sampled code stores to, sorted by the flush */
	u64			*code_stores;
	size_t			 nr_code_stores;
	/* recent windows and instances: accesses of a few CPUs interleave */
	struct fa_window	*window_cache[FA_CACHE_SIZE];
	struct fa_inst		*inst_cache[FA_CACHE_SIZE];
	u64			 nr_accesses;
	double			 weight;
	u64			 nr_windows;
	u64			 sets_dropped;	/* windows whose unit set found no room */
	u64			 gap_hist[64];	/* log2 of ns between accesses of a scope */
	u64			 misaligned;	/* instances not on a line boundary */
	u64			 nr_instances;
	u64			 hitm;
	struct mem_info		*mi;		/* c2c_decode_stats()'s view of a sample */
	u32			 tid;		/* the first thread seen accessing it */
	u32			 nr_threads;	/* 0, 1 or 2: several */
};

const char *fa_scope__key(int scope);
const char *fa_scope__text(int scope);
int fa_scope__parse(const char *key);
struct fa_type *fa_type__new(struct fa_struct *st, const struct fa_config *cfg);
double fa_type__field_share(const struct fa_type *t, int field);
u64 fa_type__stores(const struct fa_type *t);
void fa_type__delete(struct fa_type *t);
int fa_type__add(struct fa_type *t, const struct fa_sample *s);
void fa_type__add_thread(struct fa_type *t, u32 tid, bool several);
bool fa_type__shared(const struct fa_type *t);
void fa_type__flush(struct fa_type *t);
u64 fa_type__median_gap_ns(const struct fa_type *t);
int fa_type__add_code_fields(struct fa_type *t, const int *fields, int nr, double weight,
			     struct fa_matrix *m);
int fa_type__add_code_visit(struct fa_type *t, const int *fields, int nr, u64 samples,
			    double weight);
int fa_type__add_code_store(struct fa_type *t, u32 func, int field);
bool fa_type__code_stores(const struct fa_type *t, u32 func, int field);
int fa_type__add_code_access(struct fa_type *t, int field, bool store, double weight,
			     const unsigned long *cpus);

#endif /* __PERF_AFFINITY_TYPE_H */
