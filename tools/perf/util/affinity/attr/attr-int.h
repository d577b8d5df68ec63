/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of attribution share (attr.h is what the rest of perf
 * affinity sees): the memos of instructions and data symbols, the debug
 * info of a DSO, the sampled functions, and the lookups attr.c and
 * attr-vars.c (by the data address) do for attribute.c (the access to its
 * type, field and instance), attr-lines.c (the data lines) and
 * code-context.c.
 */
#ifndef __PERF_AFFINITY_ATTR_INT_H
#define __PERF_AFFINITY_ATTR_INT_H

#include <stdbool.h>
#include <linux/types.h>
#include <linux/bits.h>
#include "../decode/access.h"
#include "../decode/decode.h"
#include "../decode/key.h"
#include "../accumulate/boot.h"
#include "tls.h"

struct addr_location;
struct annotated_member;
struct debuginfo;
struct dso;
struct evsel;
struct fa_array;
struct fa_attr;
struct fa_origin;
struct fa_type_entry;
struct hashmap;
struct map;
struct map_symbol;
struct symbol;
struct thread;

/* What an instruction or a data symbol is an access to */
struct fa_memo {
	struct fa_dso_key	 key;
	struct fa_type_entry	*te;
	int			 offset;
	int			 field;		/* the leaf at @offset, of an instruction */
	u8			 reason;	/* enum fa_attr_fail */
	bool			 array;		/* a variable: an array of @te */
	struct fa_array		*arr;		/* a variable: an array of a scalar type */
	const struct fa_type_entry *outer;	/* the type @te was last found embedded in */
	u32			 outer_delta;	/* and where */
};

struct fa_dbg {
	struct fa_dso_key	 key;		/* offset 0 */
	struct fa_dbg		*file;		/* the entry with the file's debug info */
	struct debuginfo	*di;
	struct fa_dwarf_vars	*vars;		/* its variables by address, once asked */
	struct fa_tls		 tls;		/* an executable's thread-local variables */
	bool			 tls_read;
	bool			 has_tls;
};

/* The source line of an instruction, that the data lines borrow */
struct fa_srcline {
	struct fa_dso_key	 key;		/* offset: the objdump address */
	char			*line;		/* "file.c:12", or NULL */
};

/* A sampled function, for the code context method */
#define FA_FUNC_IPS	32	/* sampled instructions a function keeps */

struct fa_func_ip {
	u32	off;
	u32	samples;
};

struct fa_func {
	struct fa_dso_key	 key;		/* offset: the symbol's start */
	struct map		*map;
	struct symbol		*sym;
	struct thread		*thread;
	struct evsel		*evsel;
	unsigned long		*cpus;		/* CPUs it was sampled on */
	unsigned long		*tids;		/* threads (fa_owners indexes) it was sampled in */
	u32			 id;		/* 1, 2, ...: the accesses' fa_sample::func */
	u64			 samples;
	/* where they were: offsets into the function, and those past FA_FUNC_IPS */
	struct fa_func_ip	 ips[FA_FUNC_IPS];
	int			 nr_ips;
	u64			 other_ips;
	u32			 by_group[FA_BOOT_GROUPS];	/* @samples (boot.h) */
	bool			 threads;	/* sampled in several threads */
	u8			 cpumode;
	double			 weight;
};

void *fa_attr__findnew(struct hashmap *map, struct dso *dso, u64 offset, size_t size,
		       bool *created);
struct fa_dbg *fa_attr__dbg(struct fa_attr *a, struct dso *dso);
struct dso *fa_attr__same_dso(struct fa_attr *a, struct dso *dso);
bool fa_map_name__heap(const char *name);
bool fa_map_name__stack(const char *name);
struct debuginfo *fa_attr__debuginfo(struct fa_attr *a, struct dso *dso);
struct fa_dbg *fa_attr__tls(struct fa_attr *a, struct dso *dso);
struct fa_type_entry *fa_attr__type(struct fa_attr *a, struct dso *dso, const char *name,
				    u32 size, u64 die_offset, struct annotated_member *members);
struct fa_memo *fa_attr__insn(struct fa_attr *a, struct map_symbol *ms, u64 ip,
			      struct thread *thread, u8 cpumode, struct evsel *evsel);
struct symbol *fa_thread__find_data_symbol(struct thread *thread, u8 cpumode, u64 addr,
					   struct addr_location *al);
struct fa_memo *fa_attr__tls_memo(struct fa_attr *a, struct dso *dso, s64 tpoff,
				  u64 *off);
struct fa_memo *fa_attr__tls_var(struct fa_attr *a, const struct fa_access *acc,
				 int *var_off, u64 *tpoff);
struct fa_memo *fa_attr__var(struct fa_attr *a, struct thread *thread, u8 cpumode,
			     u64 addr, int *offset);
void fa_attr__fail(struct fa_attr *a, int reason);
void fa_attr__fail_at(struct fa_attr *a, int reason, const struct fa_origin *o);
int fa_attr__add_line(struct fa_attr *a, const struct fa_access *acc);

/* The address space of a data address: the recording's process or kernel */
static inline u32 fa_access__space(const struct fa_access *acc)
{
	return fa_space__of(acc->origin->rec, acc->flags & FA_ACC_KERNEL, acc->origin->pid);
}

/* A data address, not a segment offset (fs:/gs: relative) nor none */
static inline bool fa_access__has_addr(const struct fa_access *acc)
{
	return acc->addr && !(acc->flags & FA_ACC_SEG);
}

/* An access relative to %fs in user space: to a thread-local variable */
static inline bool fa_access__is_tls(const struct fa_access *acc)
{
	return (acc->flags & FA_ACC_SEG) && !(acc->flags & FA_ACC_KERNEL) &&
	       !fa_x86__tcb(acc->addr);
}

/*
 * The instance of a thread-local variable, where the lines are: the thread
 * pointer is line aligned, the threads' blocks never share a line
 */
static inline u64 fa_tls__base(u32 tid, u64 tpoff)
{
	return (u64)tid << 40 | (tpoff & GENMASK_ULL(39, 0));
}

#endif /* __PERF_AFFINITY_ATTR_INT_H */
