/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data cache lines shared between threads, whatever lives on them: every
 * sampled data address by its line, typed or not (struct fields, array
 * elements, scalars, untyped heap).  A line that two or more owners
 * (threads; CPUs in the kernel) accessed, one of them writing, is what
 * perf c2c lists as contended; attribution names what each owner accessed
 * there as precisely as it can.
 *
 * A line costs a small entry until a second owner comes; only then is the
 * rest kept.  Transfers are counted as for fields (xfer.c): an access on
 * one CPU to a line another CPU wrote less than fa_config::xfer_ns before,
 * here only where the writer was another owner (not a thread migrating).
 * They are also counted as if each owner's bytes had a line of their own
 * (the bytes belong to the owner that writes them; those no owner writes
 * are read-only, on a line of their own): what giving each thread its own
 * line would leave, the true sharing.  An access that covers the bytes of several owners (a vector
 * load summing per-thread slots) touches each of their lines.
 */
#ifndef __PERF_AFFINITY_DLINES_H
#define __PERF_AFFINITY_DLINES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "../accumulate/boot.h"
#include "../decode/key.h"

#define FA_DL_OWNERS	4		/* owners named per line */
#define FA_DL_READ	(FA_DL_OWNERS + 1)	/* the home of bytes no owner wrote */
#define FA_DL_GRAINS	64		/* a line's bytes are tracked in this many grains */
#define FA_DL_MAX	(1 << 18)	/* lines tracked; more are counted, not kept */

/*
 * What an access was to, as attribution found it: a struct field, an
 * element of an array variable, or a value of a scalar type at an index
 * from the base the instruction's index register gives.  Borrowed names.
 */
struct fa_dl_what {
	const char	*type;		/* NULL: not known */
	const char	*field;		/* of a struct */
	const char	*inner;		/* the C++ class @type holds @field in, or NULL */
	const char	*var;		/* an array variable */
	u64		 base;		/* 0: no index known */
	s64		 index;
	u32		 size;		/* of an element */
};

/* The code of an access: a borrowed DSO, its objdump address, its symbol */
struct fa_dl_code {
	const void	*dso;
	u64		 addr;
	const void	*symbol;	/* struct symbol, borrowed */
	const char	*sym;
	u64		 sym_off;
	const char	*srcline;	/* "file.c:12", or NULL */
};

/**
 * struct fa_dl_access - One access, as the data lines see it
 * @addr: Data address
 * @space: Address space (process ID, 0: the kernel)
 * @owner: Thread ID, or the CPU
 * @cpu: CPU
 * @time: Sample time
 * @size: Bytes (0: not known, taken as 1)
 * @store: Whether it writes
 */
struct fa_dl_access {
	u64			 addr;
	u32			 space;
	u32			 owner;
	u32			 cpu;
	u64			 time;
	u16			 size;
	bool			 store;
	struct fa_dl_what	 what;
};

#define FA_DL_SHOWN	10	/* lines the stdio report shows */

/* An owner of a shared line: what it did there */
struct fa_dl_owner {
	u32			 id;
	u64			 loads;
	u64			 stores;
	u64			 grains;	/* bit g: grain g accessed */
	u64			 written;	/* bit g: grain g written */
	struct fa_dl_what	 what;		/* its first access since the line was shared */
	s64			 index_lo;	/* element indexes, when @what has a base */
	s64			 index_hi;
	bool			 more_what;	/* it accessed other things too */
	struct fa_dl_code	 code;		/* of its first access */
	struct fa_dl_code	 wcode;		/* of its first store */
	struct fa_dl_code	 rcode;		/* of its first load */
	u8			 asked;		/* enum fa_line_name_kind: names asked for */
};

/* When a line was last written and by which owner, and which CPUs fetched it since */
struct fa_dl_state {
	u64	wtime;
	u32	wowner;
	u32	nr_seen;
	u32	seen[FA_DL_OWNERS];
};

/*
 * Where a shared line is, filled in by attribution when it becomes shared:
 * the map and the variable there; for heap memory, the global pointer the
 * code loaded the base of its accesses from.  Borrowed names.
 */
struct fa_dl_where {
	const char	*map;
	u64		 map_off;
	const char	*var;
	u64		 var_off;
	const char	*ptr;		/* the pointer variable the code reaches it by */
};

/**
 * struct fa_dline - A data cache line
 * @addr: Its address
 * @space: Its address space
 * @loads: Sampled accesses that do not write, @stores those that do
 * @owners: Those seen, the first FA_DL_OWNERS of @nr_owners named
 * @home: Per grain, the owner slot that wrote it first (FA_DL_OWNERS: an
 *        owner not named; FA_DL_READ: no owner wrote it yet; 0xff: none
 *        accessed it)
 * @homed: The grains that have one, @homew: those whose home wrote them
 * @xfers: Transfers of the line between CPUs
 * @xfers_apart: Those left when every owner's grains are on a line of their own
 * @xfers_g: @xfers by group of the bootstrap (boot.h), @apart_g: @xfers_apart
 * @exact: Counted from watchpoint hits, every access to the bytes watched
 * @xfers_alone: Per named owner, the transfers left when its bytes alone
 *               have a line of their own, the others' staying together
 * @alone: The two lines of each of those layouts: the owner's, the rest
 * @array: The array finding of fa_dlines__groups() it is one line of
 *         (counting those of two lines or more), -1: none
 */
struct fa_dline {
	u64			 addr;
	u32			 space;
	bool			 exact;
	bool			 several;	/* of several recordings: tid@recording */
	u32			 nr_owners;
	u64			 loads;
	u64			 stores;
	u64			 xfers;
	u64			 xfers_apart;
	u32			 xfers_g[FA_BOOT_GROUPS];
	u32			 apart_g[FA_BOOT_GROUPS];
	struct fa_dl_owner	 owners[FA_DL_OWNERS];
	u8			 home[FA_DL_GRAINS];
	u64			 homed;
	u64			 homew;
	struct fa_dl_state	 line;
	struct fa_dl_state	 apart[FA_DL_OWNERS + 2];
	u64			 xfers_alone[FA_DL_OWNERS];
	int			 array;
	struct fa_dl_state	 alone[FA_DL_OWNERS][2];
	struct fa_dl_where	 where;
};

/* A line while one owner has accessed it */
struct fa_dl_first {
	u64		 addr;
	u32		 space;
	u32		 owner;
	u64		 grains;
	u64		 written;
	u32		 loads;
	u32		 stores;
	struct fa_dline	*shared;	/* the whole line, once a second owner came */
};

struct fa_dlines {
	struct fa_keymap	 lines;		/* key: fa_dlines__key() -> struct fa_dl_first */
	struct fa_dl_first	*cache[FA_CACHE_SIZE];	/* the lines last found */
	struct fa_dline		**shared;
	int			  nr_shared;
	int			  alloc_shared;
	u32			  line_size;
	u32			  line_shift;
	u32			  grain_shift;	/* bytes per grain, as a shift */
	u64			  xfer_ns;
	u64			  boot_ns;
	u64			  untracked;	/* accesses to lines past FA_DL_MAX */
	bool			  exact;	/* of watchpoint hits */
	bool			  several;	/* of several recordings */
};

/* How the owners of a line share it */
enum fa_dl_sharing {
	FA_DL_FALSE,		/* each accesses bytes the others do not */
	FA_DL_MIXED,		/* bytes two access, one writing, and bytes apart */
	FA_DL_TRUE,		/* a line per owner would move as often */
};

/* What takes a contended line's transfers away */
enum fa_dl_advice {
	FA_DL_ADV_NONE,		/* nothing: true sharing, or no transfer seen */
	FA_DL_ADV_TYPE,		/* struct fields: the type's own advice */
	FA_DL_ADV_ELEMENTS,	/* array elements: a line per thread's elements */
	FA_DL_ADV_STRIDE,	/* one instruction, a slot per thread: pad the stride */
	FA_DL_ADV_BYTES,	/* other bytes: a line per thread's bytes */
};

/**
 * struct fa_dl_group - Contended lines of one array, accessed alike
 * @lines: The lines, most transfers first (borrowed)
 * @nr: How many
 * @loads, @stores, @xfers, @xfers_apart, @xfers_g, @apart_g: Their sums
 * @nr_ids: Owners named on them, @ids those, @id_lo and @id_hi their elements
 * @stride: Each owner accesses every @stride-th element from its own
 *          @residue (interleaved), 0: not so
 * @index_lo, @index_hi: The elements accessed
 * @what: What they are, NULL: lines of no array (a group of one line)
 */
struct fa_dl_group {
	struct fa_dline	**lines;
	const struct fa_dl_what *what;
	int		  nr;
	u64		  loads;
	u64		  stores;
	u64		  xfers;
	u64		  xfers_apart;
	u32		  xfers_g[FA_BOOT_GROUPS];
	u32		  apart_g[FA_BOOT_GROUPS];
	u32		  nr_ids;
	u32		  ids[FA_DL_OWNERS];
	u32		  residue[FA_DL_OWNERS];
	s64		  id_lo[FA_DL_OWNERS];	/* the elements of each owner */
	s64		  id_hi[FA_DL_OWNERS];
	u32		  stride;
	s64		  index_lo;
	s64		  index_hi;
};

/* The contended lines of a recording together: what diff compares */
struct fa_dl_sum {
	int	nr;		/* lines */
	int	nr_false;	/* of those, with transfers a line per owner removes */
	u64	xfers;
	u64	xfers_apart;
};

void fa_dlines__sum(const struct fa_dlines *dl, const struct fa_dlines *exact,
		    struct fa_dl_sum *sum);
int fa_dlines__groups(struct fa_dline **lines, int nr, struct fa_dl_group **groups);
void fa_dl_groups__free(struct fa_dl_group *groups, int nr);
bool fa_dl_group__saving(const struct fa_dl_group *g, struct fa_interval *ci, int *nr_groups);

int fa_dlines__init(struct fa_dlines *dl, u32 line_size, u64 xfer_ns, u64 boot_ns);
void fa_dlines__exit(struct fa_dlines *dl);
struct fa_dline *fa_dlines__add(struct fa_dlines *dl, const struct fa_dl_access *acc,
				bool *new_shared, struct fa_dl_owner **owner);
bool fa_dline__contended(const struct fa_dline *l);
bool fa_dline__false_sharing(const struct fa_dline *l);
enum fa_dl_sharing fa_dline__sharing(const struct fa_dline *l);
int fa_dlines__contended(const struct fa_dlines *dl, struct fa_dline ***lines);
int fa_dlines__contended_all(const struct fa_dlines *dl, const struct fa_dlines *exact,
			     struct fa_dline ***lines);
const struct fa_dl_first *fa_dlines__find(const struct fa_dlines *dl, u64 addr, u32 space);
void fa_dl_owner__bytes(const struct fa_dl_owner *o, u32 line_size, u32 *lo, u32 *hi);
enum fa_dl_advice fa_dline__advice(const struct fa_dline *l, u32 line_size);
const char *fa_dline__type(const struct fa_dline *l);
int fa_dline__watch_scnprintf(const struct fa_dline *l, u32 line_size, char *buf, size_t size);
u32 fa_dline__stride(const struct fa_dline *l, u32 line_size);
u32 fa_dline__width(const struct fa_dline *l, u32 line_size);
int fa_dline__alone(const struct fa_dline *l);
u32 fa_dl_slot__step(u32 size, u32 line_size);
const char *fa_dl_advice__key(enum fa_dl_advice adv);
const char *fa_dl_sharing__key(enum fa_dl_sharing sharing);
bool fa_dline__saving(const struct fa_dline *l, struct fa_interval *ci, int *nr_groups);
int fa_dl_owner__what_scnprintf(const struct fa_dl_owner *o, char *buf, size_t size);

#endif /* __PERF_AFFINITY_DLINES_H */
