/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attribute memory accesses to struct fields:
 *
 * - the instruction: perf's data-type profiling (symbol__get_data_type())
 *   gives the type the accessing instruction's pointer points to and the
 *   offset in it; instance base = address - offset (- index), memoized per
 *   DSO and instruction;
 * - the data address: inside a global or static variable (an ELF data
 *   symbol, so PIE data segments come out right), its DWARF type and the
 *   offset in the variable; exact, and checked against the above;
 * - field labelled tracepoints name the type and field.
 *
 * Every access that cannot be attributed is counted by reason.  For the
 * code context method, the sampled weight of every function is kept and
 * the fields each function accesses are found by attributing all its
 * memory operands the same way.
 */
#ifndef __PERF_AFFINITY_ATTR_H
#define __PERF_AFFINITY_ATTR_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include "../accumulate/arrays.h"
#include "dlines.h"
#include "../accumulate/instances.h"
#include "../accumulate/matrix.h"
#include "../accumulate/owner.h"
#include "pending.h"
#include "session.h"
#include "../../mutex.h"
#include "../accumulate/type.h"

struct dso;
struct fa_access;
struct fa_decoder;
struct fa_func;
struct fa_origin;
struct fa_memo;
struct fa_site;
struct fa_struct;
struct fa_worker;
struct hashmap;
struct machine;
struct strlist;

enum fa_attr_fail {
	FA_ATTR_NO_SYM,		/* the instruction is in no symbol */
	FA_ATTR_NO_DBGINFO,	/* no debug info for its DSO */
	FA_ATTR_ASM,		/* written in assembly: no variables */
	FA_ATTR_NO_INSN,	/* its function was not disassembled */
	FA_ATTR_NO_MEM_OP,	/* no memory operand found in it */
	FA_ATTR_NO_VAR,		/* no variable for its address register */
	FA_ATTR_NO_TYPE,	/* a void * or char *: the type is not known */
	FA_ATTR_BAD_OFFSET,	/* offset outside the type */
	FA_ATTR_STACK,		/* a stack slot or the stack canary */
	FA_ATTR_TLS,		/* fs:/gs: relative: a TLS or per-CPU variable */
	FA_ATTR_NOT_STRUCT,	/* a type, but no struct (int, pointer, ...) */
	FA_ATTR_PADDING,	/* an offset in padding */
	FA_ATTR_TP_TYPE,	/* a tracepoint's type or field is not known */
	FA_ATTR_FILTERED,	/* not the type asked for */
	FA_ATTR_MAX,
	FA_ATTR_NONE = FA_ATTR_MAX,	/* attributed: no failure */
};

/**
 * struct fa_attr_stats - What attribution made of the accesses
 * @accesses: Accesses seen
 * @resolved: Attributed to a field
 * @by_address: Of those, by the data address (global or static variable)
 * @by_instance: Of those, by the address of an instance other accesses
 *               identified, where the instruction gave no struct
 * @by_later: Of those, to an instance identified after the access came
 *            (it waited, see pending.h)
 * @by_enclosing: Of those, to the instance a struct the instruction gave is
 *                embedded in (&rq->__lock passed to a spin lock function)
 * @watched: Of those, watchpoint hits: their roles count, not their weight
 * @agree: Attributed both ways, to the same field
 * @disagree: Attributed both ways, to different fields (the address wins)
 * @failed: Accesses not attributed, by reason
 */
struct fa_attr_stats {
	u64	accesses;
	u64	resolved;	/* field parts: see fa_attr_stats__unattributed() */
	u64	by_address;
	u64	watched;
	u64	by_instance;
	u64	by_later;
	u64	by_enclosing;
	u64	by_tls;		/* of a thread-local variable of struct type */
	u64	tls;		/* %fs: relative in user space */
	u64	tls_found;	/* of them, to a thread-local variable found */
	u64	tls_array;	/* of them, to an element of an array of scalars */
	u64	tls_ptr;	/* of them, through a pointer code computed (tls-reg.h) */
	u64	by_array;	/* to an element of an array variable of scalars */
	u64	agree;
	u64	disagree;
	u64	system;		/* of @resolved, to types left out: see fa_attr__drop_system() */
	u32	system_types;
	u64	failed[FA_ATTR_MAX];
};

/*
 * The accesses not attributed, but to other types than -T's: counted by
 * their reasons, as @resolved counts parts (a 16-byte load of two members,
 * an access to a class held by value and to its holder) and can be more
 * than @accesses
 */
static inline u64 fa_attr_stats__unattributed(const struct fa_attr_stats *st)
{
	u64 n = 0;

	for (int i = 0; i < FA_ATTR_MAX; i++)
		n += i == FA_ATTR_FILTERED ? 0 : st->failed[i];
	return n;
}

/* Where accesses could not be attributed: a function and the reason */
struct fa_fail_site {
	u64		 key;
	struct dso	*dso;
	const char	*sym;
	u64		 count;
	int		 reason;
};

/* What the last access was attributed to, for --dump-raw-accesses */
struct fa_attr_last {
	const struct fa_type_entry	*te;	/* NULL: not attributed, for @reason */
	int				 field;
	u64				 base;
	int				 reason;
	bool				 pending;	/* waits for its instance */
	const struct fa_array		*arr;	/* or element @index of an array */
	u32				 index;
	const struct fa_type_entry	*scalar;	/* or the type the code gave, no struct */
	const struct fa_type_entry	*inner;	/* the C++ class @te holds @field in */
};

/*
 * A range of data addresses of one address space, and the variable there
 * (NULL: anonymous memory, no variable): most accesses by address are to
 * a few heap areas and variables, each found once by its maps.
 */
#define FA_DATA_RANGES	8

struct fa_data_range {
	const struct maps	*maps;
	u64			 start, end;
	u64			 var_start;	/* the address of the variable */
	struct fa_memo		*var;
};

/*
 * Attribution: what it learned of the debug info, the instructions and
 * the variables, memoized, and the accesses it could not attribute; what
 * it attributes goes to the session
 */
#define FA_PTR_MEMO	64

/* The pointer variable the store at @addr of @dso reaches its data by */
struct fa_ptr_memo {
	const void	*dso;
	u64		 addr;
	const char	*name;		/* NULL: none the code shows */
};

/*
 * The sample of an access a data line's name comes from (attr-lines.c), as
 * values: no reference of the sample's is kept past it
 */
struct fa_line_origin {
	struct machine		*machine;	/* of the thread, NULL: none */
	pid_t			 pid;
	pid_t			 tid;
	struct fa_dl_code	 code;		/* of the sampled instruction, .sym NULL: none */
	u64			 rip;		/* its address in its DSO */
	u64			 unmap;		/* where the DSO's address 0 is in the process */
	u8			 cpumode;
	u8			 data_cpumode;	/* of the data address */
};

enum fa_line_name_kind {
	FA_NAME_WHERE	= 1,	/* the map and variable of a line just shared */
	FA_NAME_CODE	= 2,	/* the code of an owner's first access */
	FA_NAME_WCODE	= 4,	/* of its first store, and the pointer it reached the line by */
	FA_NAME_RCODE	= 8,	/* of its first load */
};

/* What the data lines ask the main thread to name, as of one access */
struct fa_line_name {
	int			 kind;
	struct fa_dline		*l;
	struct fa_dl_owner	*owner;
	struct fa_line_origin	 o;
};

/*
 * The data lines are counted where the workers are, and name nothing:
 * what is to be named is asked here and named by the main thread, in the
 * order asked (fa_attr__name_lines())
 */
struct fa_line_names {
	struct mutex		 lock;
	struct fa_line_name	*v;
	size_t			 nr;
	size_t			 alloc;
	size_t			 asked;		/* @nr, read without the lock */
};

struct fa_attr {
	struct fa_session	 *s;
	struct fa_attr_last	  last;
	struct hashmap		 *memo;		/* (dso, offset) -> struct fa_memo */
	struct hashmap		 *vars;		/* (dso, data symbol) -> struct fa_memo */
	struct hashmap		 *debuginfo;	/* dso -> struct fa_dbg */
	struct hashmap		 *srclines;	/* dso, objdump addr -> struct fa_srcline */
	struct hashmap		 *funcs;	/* (dso, symbol) -> struct fa_func */
	struct hashmap		 *same_dsos;	/* dso -> struct fa_same_dso */
	struct hashmap		 *dsos;		/* dso -> its reference the data lines' code keeps */
	struct hashmap		 *layouts;	/* (dso, entry) -> struct fa_layout_memo */
	struct hashmap		 *fail_sites;	/* (reason, symbol) -> struct fa_fail_site */
	struct fa_attr_stats	  stats;
	u32			  bad_cpu;	/* of a sample past the CPUs of the header: -ERANGE */
	/* every sample looks these up: recent ones in front of the hash maps */
	struct fa_memo		 *insn_cache[FA_CACHE_SIZE];
	struct fa_func		 *func_cache[FA_CACHE_SIZE];
	struct fa_func		 *cur_func;	/* of the sample being attributed */
	struct fa_data_range	  ranges[FA_DATA_RANGES];
	int			  next_range;
	struct hashmap		 *tps;		/* tid -> the thread pointer learned */
	struct fa_decoder	 *dec;		/* reads the code heap lines are named from */
	struct fa_ptr_memo	  ptrs[FA_PTR_MEMO];	/* the pointer variable a store reaches */
	struct fa_line_names	  names;
	bool			  lines_queued;	/* since the last fa_attr__sync_lines() */
	bool			  code_context;
	bool			  several;	/* of several recordings (their DSOs) */
};

#ifdef HAVE_DWARF_SUPPORT
int fa_attr__init(struct fa_attr *a, struct fa_session *s);
void fa_attr__exit(struct fa_attr *a);
int fa_attr__add(struct fa_attr *a, const struct fa_access *acc);
int fa_attr__add_code(struct fa_attr *a, const struct fa_origin *o);
int fa_attr__code_context(struct fa_attr *a, struct fa_decoder *dec);
void fa_attr__drop_system(struct fa_attr *a);
bool fa_attr__left_out(const struct fa_attr *a, const char *name);
void fa_attr__flush_ranges(struct fa_attr *a);
void fa_attr__flush_pending(struct fa_attr *a);
void fa_attr__name_lines(struct fa_attr *a);
int fa_attr__sync_lines(struct fa_attr *a);
void fa_attr__dl_srclines(struct fa_attr *a);
const char *fa_attr_fail__name(enum fa_attr_fail reason);
const char *fa_attr_fail__key(enum fa_attr_fail reason);
#else
/* Without libdw there are no data types: fa_attr__init() says so. */
static inline int fa_attr__init(struct fa_attr *a __maybe_unused,
				struct fa_session *s __maybe_unused)
{
	return -EOPNOTSUPP;
}

static inline void fa_attr__exit(struct fa_attr *a __maybe_unused)
{
}

static inline void fa_attr__flush_ranges(struct fa_attr *a __maybe_unused)
{
}

static inline void fa_attr__flush_pending(struct fa_attr *a __maybe_unused)
{
}

static inline void fa_attr__name_lines(struct fa_attr *a __maybe_unused)
{
}

static inline int fa_attr__sync_lines(struct fa_attr *a __maybe_unused)
{
	return 0;
}

static inline void fa_attr__dl_srclines(struct fa_attr *a __maybe_unused)
{
}

static inline void fa_attr__drop_system(struct fa_attr *a __maybe_unused)
{
}

static inline bool fa_attr__left_out(const struct fa_attr *a __maybe_unused,
				     const char *name __maybe_unused)
{
	return false;
}

static inline int fa_attr__add(struct fa_attr *a __maybe_unused,
			       const struct fa_access *acc __maybe_unused)
{
	return -EOPNOTSUPP;
}

static inline int fa_attr__add_code(struct fa_attr *a __maybe_unused,
				    const struct fa_origin *o __maybe_unused)
{
	return -EOPNOTSUPP;
}

static inline int fa_attr__code_context(struct fa_attr *a __maybe_unused,
					struct fa_decoder *dec __maybe_unused)
{
	return -EOPNOTSUPP;
}

static inline const char *fa_attr_fail__name(enum fa_attr_fail reason __maybe_unused)
{
	return "no DWARF support";
}

static inline const char *fa_attr_fail__key(enum fa_attr_fail reason __maybe_unused)
{
	return "?";
}
#endif /* HAVE_DWARF_SUPPORT */

#endif /* __PERF_AFFINITY_ATTR_H */
