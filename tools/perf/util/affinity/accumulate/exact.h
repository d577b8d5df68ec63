/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What hardware watchpoints saw of a field (perf affinity record --watch):
 * every access to the watched bytes, or one in the event's period, with its
 * thread and direction, in order.  Samples say how hot a field is and what
 * is accessed with it; the hits say who reads and writes it.  They are kept
 * apart: a hit is not a sample of the time spent, and counting it as one
 * would make a watched field the hottest of all.
 *
 * An owner reads the field when its hits are at least FA_COLD_SHARE of the
 * field's, writes it when its stores are at least FA_WRITE_SHARE of its own
 * hits and FA_COLD_SHARE of the field's: the thread that initializes a
 * lock once is no writer of a lock another thread takes a million times,
 * and each of four CPUs that store to a field in one of 16 accesses is
 * (fa_exact__roles(), in classify.h).
 *
 * The hits of a type are kept in order, so that they can be replayed with
 * the fields where another layout puts them (advice/watched.h).
 */
#ifndef __PERF_AFFINITY_EXACT_H
#define __PERF_AFFINITY_EXACT_H

#include <stdbool.h>
#include <linux/types.h>

struct hashmap;

/**
 * struct fa_holder - Who holds watched bytes, as a cache line moves
 * @last_owner: Owner of the last access, -1 before the first
 * @last_field: The field it accessed
 * @dirty_owner: Owner whose store no other owner saw since, or -1
 * @dirty_field: The field it stored to
 */
struct fa_holder {
	int	last_owner;
	int	last_field;
	int	dirty_owner;
	int	dirty_field;
};

/**
 * struct fa_exact - The watchpoint hits of one field
 * @owner_accesses: Accesses by owner (the hits' periods summed)
 * @owner_writes: Of those, stores and read-modify-writes
 * @accesses: All owners' accesses
 * @writes: All owners' stores and read-modify-writes
 * @transfers: Accesses that took the watched bytes from another owner: a
 *             store after another owner's access, an access after another
 *             owner's store (exact at period 1, an estimate above)
 * @hits: Hits recorded
 * @period: The largest period of a hit: 1 when every access was recorded
 * @holder: Who holds the field's bytes
 */
struct fa_exact {
	u64	*owner_accesses;
	u64	*owner_writes;
	u64	 accesses;
	u64	 writes;
	u64	 transfers;
	u64	 hits;
	u64		 period;
	struct fa_holder holder;
};

#define FA_EXACT_HITS	(1 << 20)	/* hits of a type kept to replay layouts */
#define FA_EXACT_FIELDS	32	/* fields in the pair counts (as many as --watch) */
#define FA_EXACT_GAP_NS	1000000	/* between two slices armed: no transfer seen */
#define FA_EXACT_TOP_PAIRS	8	/* pairs of fields transfers went between, reported */

/* A watched cache line (its index: the key of a map): who holds it since @time */
struct fa_exact_line {
	u64			line;
	u64			time;
	struct fa_holder	holder;
	bool			seen;
};

/* A hit of a field of the instance at @base, kept to replay other layouts */
struct fa_exact_hit {
	u64	time;
	u64	base;
	u32	owner;
	u16	field;
	bool	store;
};

/**
 * struct fa_exact_lines - The transfers of a type's watched lines between
 * owners, by the fields they went from and to
 * @lines: The lines, by address: struct fa_exact_line
 * @hits: The first FA_EXACT_HITS hits, in order
 * @nr_hits: How many
 * @alloc_hits: Room in @hits
 * @hits_left: Hits after those, not kept
 * @slot: By field index: its row and column in @pairs, or -1
 * @nr_slots: Rows used
 * @pairs: Transfers from the field the last owner accessed (wrote, if it
 *         did since) to the field the next one accessed, [from][to]
 * @transfers: All transfers seen
 * @false_sharing: Of those, between different fields
 */
struct fa_exact_lines {
	struct hashmap		*lines;
	struct fa_exact_hit	*hits;
	size_t			 nr_hits;
	size_t			 alloc_hits;
	u64			 hits_left;
	int			*slot;
	int			 nr_slots;
	u64			 pairs[FA_EXACT_FIELDS][FA_EXACT_FIELDS];
	u64			 transfers;
	u64			 false_sharing;
};

struct fa_exact_lines *fa_exact_lines__new(int nr_fields);
void fa_exact_lines__delete(struct fa_exact_lines *xl);
int fa_exact_lines__add(struct fa_exact_lines *xl, const struct fa_exact_hit *h, u64 line);
struct fa_exact_line *fa_exact_line__find(struct hashmap *lines, u64 line);
int fa_exact_line__hit(struct fa_exact_line *l, const struct fa_exact_hit *h);
bool fa_exact_lines__pair(const struct fa_exact_lines *xl, int from, int to, u64 *transfers);

/* Transfers the hits saw from field @from to another field @to */
struct fa_exact_pair {
	int	from;
	int	to;
	u64	transfers;
};

int fa_exact_lines__top(const struct fa_exact_lines *xl, int nr_fields,
			struct fa_exact_pair *pairs, int max);


struct fa_exact *fa_exact__new(int nr_owners);
void fa_exact__delete(struct fa_exact *ex);
void fa_exact__add(struct fa_exact *ex, int owner, bool store, u64 period);

#endif /* __PERF_AFFINITY_EXACT_H */
