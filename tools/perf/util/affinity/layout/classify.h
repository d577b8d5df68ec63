/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each field is, from its accesses:
 *
 *   cold            at most FA_COLD_SHARE of the hottest field's weight
 *   read-mostly     writes are less than FA_WRITE_SHARE of its accesses
 *   write-hot       written, and only ever accessed on the CPUs writing it
 *   shared-written  written on one CPU and accessed on another: its cache
 *                   line moves between them whatever the layout
 *
 * A type that one thread alone accesses has no shared lines, whatever CPUs
 * the thread ran on (fa_type__shared()): its written fields are write-hot.
 *
 * Threads as owners (user space): a field written by one thread and
 * accessed by another counts when they do so in one instance, so that
 * per-thread slots of an array are write-hot (fa_field_stats::inst_shared),
 * given FA_MIN_SAMPLES samples of the field.
 *
 * Affinity says what to put together; these classes say whether it may
 * be: a field written on one CPU must not share a cache line with a field
 * accessed on another (fa_classes__conflict()).
 *
 * Sparse samples miss fields the sampled code accesses every time it runs:
 * with the code context (fa_type::code_stats) a field is also as hot as the
 * share of the code's samples it stands for.  Who reads and writes a field
 * its samples saw comes from them: one function may serve several roles,
 * taking a lock in one thread and reading the fields next to it in
 * another.  Of such a field, an owner that the code storing to it ran in,
 * and whose samples accessed it, writes it; a field never sampled has the
 * owners of its code.  With fewer than FA_MIN_SAMPLES samples of its own,
 * a field is written when it has a writer so.  A field that
 * the functions with FA_WRITE_SHARE of the code's weight store to is
 * written in any case, if there is one: time based samples seldom land on
 * a store (fa_field_info__init()).
 *
 * Of a field hardware watchpoints saw, their hits give the readers, the
 * writers and whether it is read-mostly (exact.h), not its samples nor its
 * code.
 */
#ifndef __PERF_AFFINITY_CLASSIFY_H
#define __PERF_AFFINITY_CLASSIFY_H

#include <stdbool.h>
#include <linux/types.h>

struct fa_struct;
struct fa_type;

#define FA_COLD_SHARE	0.01
#define FA_WRITE_SHARE	0.05
#define FA_MIN_SAMPLES	8

enum fa_class {
	FA_CLASS_COLD,
	FA_CLASS_READ_MOSTLY,
	FA_CLASS_WRITE_HOT,
	FA_CLASS_SHARED_WRITTEN,
	FA_CLASS_MAX,
};

/* A layout unit as clustering and packing see it */
struct fa_unit_info {
	double		 weight;	/* sum of its leaves' weights */
	u8		 cls;		/* the strongest class of its leaves */
	bool		 writer;	/* its writes count (write-hot or shared-written) */
	bool		 moving;	/* written on several CPUs (see cost.h) */
	unsigned long	*accessors;	/* owners (threads or CPUs) accessing it */
	unsigned long	*writers;	/* owners writing it (when @writer) */
};

/* A leaf field as the classes see it: its samples and its code */
struct fa_field_info {
	double		 weight;
	u64		 accesses;
	u64		 writes;
	unsigned long	*readers;
	unsigned long	*writers;
	bool		 by_code;	/* the code context added to what was sampled */
	bool		 class_by_code;	/* and its class comes from the code */
	/* threads: sampled enough to tell owners sharing an instance's field */
	bool		 by_instance;
	bool		 inst_shared;	/* written by one, accessed by another */
	bool		 inst_writers;	/* written by several */
	bool		 exact;		/* readers, writers and class from watchpoints */
	/* of the bootstrap's replicates (boot.h), those giving it this class */
	float		 agree;
};

/* A class given in fewer of the replicates is not sure (fa_field_info::agree) */
#define FA_CLASS_SURE	0.95

struct fa_classes {
	int			 nr_units;
	int			 nr_fields;
	u8			*field_cls;	/* by field index, leaves only */
	struct fa_field_info	*fields;	/* by field index, leaves only */
	struct fa_unit_info	*units;
	int			 nr_owners;	/* bits of the sets of owners */
	bool			 shared;	/* accessed by several threads */
};

int fa_classes__init(struct fa_classes *c, struct fa_type *t);
int fa_classes__init_given(struct fa_classes *c, const struct fa_struct *st, int nr_owners,
			   bool shared);
void fa_classes__sum(struct fa_classes *c, const struct fa_struct *st);
void fa_classes__exit(struct fa_classes *c);
bool fa_classes__conflict(const struct fa_classes *c, int u, int v);
const char *fa_class__name(u8 cls);
int fa_class__parse(const char *name);

struct fa_exact;

/* Who reads and writes a field, from the watchpoints' hits (exact.h) */
bool fa_exact__enough(const struct fa_exact *ex);
void fa_exact__roles(const struct fa_exact *ex, int nr_owners, unsigned long *readers,
		     unsigned long *writers);

#endif /* __PERF_AFFINITY_CLASSIFY_H */
