/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything perf affinity learns about one struct type from the accesses
 * attributed to its fields, in bounded memory whatever the number of
 * samples, one member of struct fa_type per concern:
 *
 * - counts (counts.c): per leaf field loads, stores, HITM/peer snoops,
 *   reader and writer owners;
 * - win (window.c): co-access, fields accessed within the same window of
 *   the same scope (CPU, thread or instance), never across scopes;
 * - xfer (xfer.c): cross-owner transfers, an access to field j by owner b
 *   shortly after field i of the same instance was written by owner a != b
 *   (X[i][j]); when i and j are on the same real cache line that is false
 *   (i != j) or true (i == j) sharing;
 * - sets (sets.c): the sets of units windows, transfers and sampled
 *   functions touch, for the cost of any layout;
 * - code (code.c): what the sampled code accesses (code context method);
 * - replay (replay.c): a bounded sample of the access stream, to replay
 *   layouts exactly.
 */
#ifndef __PERF_AFFINITY_TYPE_H
#define __PERF_AFFINITY_TYPE_H

#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include "boot.h"
#include "../decode/key.h"
#include "matrix.h"

struct fa_exact;
struct fa_exact_lines;
struct fa_inst;
struct fa_inst_id;
struct mem_info;
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
 * @boot_ns: Blocks of time of the bootstrap, 0 for FA_BOOT_BLOCK_NS (boot.h)
 * @replay_max: Accesses kept for replaying layouts
 * @by_thread: The owners of cache lines are threads, not CPUs (user space)
 * @kernel: Kernel data, owned by CPUs: who shares a field is told per
 *          instance, as for threads (a per-CPU rq written by its CPU is
 *          not written by every CPU)
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
	u64	boot_ns;
	size_t	replay_max;
	bool	by_thread;
	bool	kernel;
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
 * @exact: What watchpoints saw of it, NULL if they did not watch it
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
	struct fa_exact	*exact;
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
	bool	watched;	/* a watchpoint's hit: exact.h, not a sample */
	bool	held;		/* accounted to the class holding it too */
	u16	siblings;	/* other accesses decoded from the same sample */
	u8	rec;		/* the recording, of several */
};

/*
 * The part of its sample an access stands for: a block walk that gives
 * several accesses from one sample must weigh them as if each had been
 * sampled on its own, whatever CPU placed the sample
 */
static inline double fa_sample__share(const struct fa_sample *s)
{
	return 1.0 / (1 + s->siblings);
}

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
	u8	rec;		/* fa_sample::rec */
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
	struct fa_keymap instances;	/* instance key -> struct fa_replay_inst */
	u64		 last_instance;	/* the instance of the last event kept */
	u32		 last_index;
	u32		 nr_bases;
	u32		 seed;
};

/*
 * A set of units and how often it was seen: the units a window touched in
 * one instance (fa_cost_sets::windows, @nr_w is 0), or the unit an access
 * touched and the @nr_w units other CPUs wrote to the instance since that
 * CPU last touched it (fa_cost_sets::moves, @nr is 1).  @group: @count by
 * group of the bootstrap (boot.h).  A move of an access that shares its
 * sample with others counts its share of the sample (fa_sample__share()).
 */
struct fa_set {
	double	count;
	double	weight;
	double	group[FA_BOOT_GROUPS];
	u16	nr;
	u16	nr_w;
	u16	units[];
};

/*
 * What was seen of the fields (counts.c): accesses, HITMs and the threads
 * accessing the type.
 */
struct fa_counts {
	struct fa_field_stats	*stats;		/* by field index */
	u64			 nr_accesses;
	double			 weight;
	u64			 hitm;
	/* of the accesses, those counted by the class holding it too (fa_sample::held) */
	struct {
		u64		 loads;		/* and of unknown direction */
		u64		 stores;	/* and read-modify-writes */
		u64		 hitm;
	} held;
	struct mem_info		*mi;		/* c2c_decode_stats()'s view of a sample */
	u32			 tid;		/* the first thread seen accessing it */
	u32			 nr_threads;	/* 0, 1 or 2: several */
	struct fa_exact_lines	*exact_lines;	/* of the watchpoint hits, or NULL */
	/* by group of the bootstrap (boot.h), for diff's intervals */
	struct fa_field_groups	*field_groups;	/* by field index */
	struct fa_boot_sum	 weight_by_group;
	struct fa_boot_sum	 accesses_by_group;
	struct fa_boot_sum	 loads_by_group;	/* and of unknown direction */
	struct fa_boot_sum	 hitm_by_group;
};

/* A field's accesses by group of the bootstrap (boot.h): diff's and the classes' */
struct fa_field_groups {
	struct fa_boot_sum	 weight;
	struct fa_boot_sum	 accesses;
	struct fa_boot_sum	 writes;	/* stores and read-modify-writes */
};

/* The transfers between a falsely shared pair of fields, by group (boot.h) */
struct fa_pair_groups {
	u64			 key;		/* writer << 32 | reader */
	struct fa_boot_sum	 sum;
};

/* Co-access within the windows of a scope (window.c) */
struct fa_windows {
	struct fa_matrix	 co;		/* symmetric, i < j */
	struct fa_keymap	 map;		/* scope key -> struct fa_window */
	struct fa_window	*cache[FA_CACHE_SIZE];	/* accesses of a few CPUs interleave */
	u64			 nr;		/* tumbling windows ended, for the cost */
	struct fa_boot_sum	 nr_by_group;	/* of those, by group (boot.h) */
	u64			 gap_hist[64];	/* log2 of ns between accesses of a scope */
};

/*
 * Apart: what the main thread writes and what a worker thread writes
 * (worker.h), not to move cache lines between them at every access.
 * Twice the line, as CPUs fetch lines in pairs.
 */
#define FA_APART	128

/*
 * Lines moving between owners, per instance (xfer.c).  With a worker, the
 * instances are the main thread's, the rest the worker's.
 */
struct fa_transfers {
	struct fa_keymap	 insts;		/* instance -> struct fa_inst_id */
	struct fa_inst_id	*cache[FA_CACHE_SIZE];
	u64			 nr_instances;
	u64			 misaligned;	/* instances not on a line boundary */
	size_t			 sweep_at;	/* forget old instances when this many */
	u64			 nr_sweeps;
	struct fa_matrix	 pairs __aligned(FA_APART); /* write i on a, access j on b != a */
	struct fa_matrix	 fs;		/* of those, i != j on one real line */
	struct fa_keymap	 fs_by_group;	/* (i << 32 | j) -> struct fa_pair_groups */
	struct fa_boot_sum	 fs_total_by_group;
	/* who accessed the fields of the instances swept from @insts */
	struct fa_inst_field	*retired;
	size_t			 nr_retired;
	size_t			 alloc_retired;
	u64			 nr_inst_fields;	/* tracked, live and retired */
	u64			 inst_fields_dropped;
};

/* The sets of units the cost of any layout is computed from (sets.c) */
struct fa_cost_sets {
	struct hashmap		*windows;	/* units a window touched -> struct fa_set */
	struct hashmap		*moves;		/* access + units written since -> fa_set */
	struct hashmap		*visits;	/* units a sampled function touches -> fa_set */
	u64			 nr_visits;	/* samples of those functions */
	struct fa_boot_sum	 visits_by_group;
	u64			 dropped;	/* sets that found no room */
};

/* What the sampled code says (code context, code.c) */
struct fa_code_ctx {
	struct fa_code_stats	*stats;		/* by field index, NULL until known */
	struct fa_matrix	 co;		/* fields accessed by the same function */
	/* (function, field) pairs the sampled code stores to, sorted by the flush */
	u64			*stores;
	size_t			 nr_stores;
	struct hashmap		*sites;		/* struct fa_site by field and function */
	struct hashmap		*by_func;	/* function -> the fields sampled in it */
	struct fa_site		*site_cache[FA_CACHE_SIZE];
};

/* Where the accesses to a field come from: a function, and what it did */
struct fa_site {
	u64		 key;		/* field and symbol */
	int		 field;
	const char	*sym;
	u64		 loads;
	u64		 stores;
};

/*
 * One object per struct type, one member per concern; aligned to FA_APART
 * (fa_type__new()): only the instances of @xfer are the main thread's with
 * a worker, it reads @st and @cfg, written by neither.
 */
struct fa_type {
	struct fa_struct	*st;
	struct fa_config	 cfg;
	int			 worker;	/* of fa_workers: the main thread's, once set */
	struct fa_counts	 counts __aligned(FA_APART);
	struct fa_windows	 win;
	struct fa_transfers	 xfer;
	struct fa_cost_sets	 sets;
	struct fa_code_ctx	 code;
	struct fa_replay	 replay;
};

/* The scope an access's window is of (enum fa_scope) */
static inline u64 fa_scope__of(int scope, u8 rec, u32 cpu, u32 tid, u64 instance)
{
	/* an instance is of one recording already (fa_space__of()) */
	switch (scope) {
	case FA_SCOPE_THREAD:
		return (u64)rec << 32 | tid;
	case FA_SCOPE_INSTANCE:
		return instance;
	case FA_SCOPE_CPU:
	default:
		return (u64)rec << 32 | cpu;
	}
}

/* Whether a tumbling window of @accesses since @start is full at @now */
static inline bool fa_window__full(const struct fa_config *cfg, u64 start, int accesses, u64 now)
{
	return accesses && (cfg->window_ns ? now - start > cfg->window_ns :
			    accesses >= cfg->window);
}

const char *fa_scope__key(int scope);
const char *fa_scope__text(int scope);
int fa_scope__parse(const char *key);
struct fa_type *fa_type__new(struct fa_struct *st, const struct fa_config *cfg);
double fa_type__field_share(const struct fa_type *t, int field);
u64 fa_type__loads(const struct fa_type *t);
u64 fa_type__stores(const struct fa_type *t);
void fa_type__delete(struct fa_type *t);
int fa_type__add(struct fa_type *t, const struct fa_sample *s);
int fa_type__check(const struct fa_type *t, const struct fa_sample *s);
bool fa_type__sweep_due(const struct fa_type *t);
struct fa_inst *fa_type__instance(struct fa_type *t, const struct fa_sample *s);
int fa_type__accumulate(struct fa_type *t, struct fa_inst *inst, const struct fa_sample *s);
int fa_type__watched(struct fa_type *t, const struct fa_sample *s);
void fa_type__add_thread(struct fa_type *t, u32 tid, bool several);
bool fa_type__shared(const struct fa_type *t);
void fa_type__flush(struct fa_type *t);
u64 fa_type__median_gap_ns(const struct fa_type *t);
int fa_type__add_code_fields(struct fa_type *t, const int *fields, int nr, double weight);
int fa_type__add_code_visit(struct fa_type *t, const int *fields, int nr, const u32 *by_group,
			    double weight);
int fa_type__add_code_store(struct fa_type *t, u32 func, int field);
bool fa_type__code_stores(const struct fa_type *t, u32 func, int field);
int fa_type__add_code_access(struct fa_type *t, int field, bool store, double weight,
			     const unsigned long *cpus);
int fa_type__add_site(struct fa_type *t, int field, const char *sym, u8 op);
int fa_type__sites(const struct fa_type *t, int field, struct fa_site **sites);
double fa_type__fs_share(const struct fa_type *t, int writer, int reader, struct fa_interval *ci);
int fa_type__sampled_pairs(const struct fa_type *t, struct fa_matrix *m);
int fa_type__sampled_fields(struct fa_type *t, const char *sym, int *fields, bool *stored,
			    int max);

#endif /* __PERF_AFFINITY_TYPE_H */
