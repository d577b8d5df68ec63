/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a perf affinity report holds across its samples: the configuration
 * (the command's), the struct types seen with what their accesses showed,
 * the owners and instances of the accesses, the accesses waiting for their
 * instance, the arrays of scalars, the data lines and the worker thread.
 * Attribution (attr.h) resolves each access with the debug info and adds
 * it here; the outputs read it.
 */
#ifndef __PERF_AFFINITY_SESSION_H
#define __PERF_AFFINITY_SESSION_H

#include <stdbool.h>
#include <linux/types.h>
#include "../accumulate/arrays.h"
#include "../accumulate/instances.h"
#include "../accumulate/owner.h"
#include "dlines.h"
#include "pending.h"

struct fa_config;
struct fa_struct;
struct fa_type;
struct fa_workers;
struct hashmap;
struct fa_type_filter;

/*
 * A struct type seen in the accesses, merged by name and size across DSOs:
 * its layout from DWARF (@st) and what its accesses showed (@t)
 */
struct fa_type_entry {
	char			*name;		/* as C++ spells it (lf::Meter<long int>), C as perf */
	char			*key;		/* perf's name when not @name (Meter<long int>) */
	u32			 size;
	struct fa_struct	*st;	/* NULL: no struct, or no fields found */
	bool			 kernel;	/* of vmlinux or a module: C in its macros */
	bool			 system;	/* only system libraries' code accessed it */
	struct fa_type		*t;	/* created on its first access */
	struct fa_type_entry	*same_name;	/* another size of the name */
	u64			 nr_accounted;	/* accesses attributed to it */
	u64			 nr_in_vars;	/* of them, to a variable (or TLS) of it */
	u64			 nr_in_frames;	/* of them, near the stack pointer: on a stack */
	/* the instances identified, by where their address is mapped */
	u64			 nr_inst_data;	/* a DSO's data: variables */
	u64			 nr_inst_stack;
	u64			 nr_inst_heap;	/* the heap, anonymous memory, the kernel's direct map */
	/* the longest array variable an instance was an element of */
	u64			 array_elems;
	char			 array_var[48];
	/* by field: a C++ class held by value, accounted to as itself too */
	struct fa_type_entry	**embeds;
	bool			 wanted;	/* -T asks for it (or there is no -T) */
	bool			 holds_wanted;	/* a class it holds by value is wanted */
	bool			 held;		/* a C++ class holds it by value */
	int			 layout;	/* of several in the recordings, from 1; 0 */
};

struct fa_session {
	const struct fa_config	 *cfg;
	struct fa_type_entry	**types;	/* in the order they were seen */
	struct hashmap		 *type_names;	/* name -> struct fa_type_entry */
	struct hashmap		 *type_aliases;	/* another name (a typedef) -> the same */
	int			  nr_types;
	struct fa_type_filter	 *only;		/* attribute only these types (-T) */
	struct fa_owners	  owners;	/* the threads that accessed user space types */
	struct fa_inst_map	  instances;	/* the instances identified, by address */
	struct fa_pending	  pending;	/* accesses waiting for their instance */
	struct fa_arrays	  arrays;	/* array variables of scalars */
	struct fa_dlines	  dlines;	/* every access by its data line */
	struct fa_dlines	  watched;	/* every watchpoint hit by its data line */
	struct fa_workers	 *workers;	/* accumulate the types, NULL: in line */
};

#ifdef HAVE_DWARF_SUPPORT
int fa_session__init(struct fa_session *s, const struct fa_config *cfg, const char *only_types);
void fa_session__exit(struct fa_session *s);
void fa_type_entry__delete(struct fa_type_entry *te);
bool fa_session__wanted(const struct fa_session *s, const char *name);
struct fa_type_entry *fa_session__find_type(const struct fa_session *s, const char *name,
					    u32 size);
int fa_session__add_type(struct fa_session *s, struct fa_type_entry *te);
struct fa_type_entry *fa_session__find_same(const struct fa_session *s,
					    const struct fa_type_entry *te);
int fa_session__add_alias(struct fa_session *s, const char *name, struct fa_type_entry *te);
#else
#include <string.h>
#include <linux/compiler.h>

/* Without libdw nothing is attributed: fa_attr__init() says why */
static inline int fa_session__init(struct fa_session *s, const struct fa_config *cfg,
				   const char *only_types __maybe_unused)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	return 0;
}

static inline void fa_session__exit(struct fa_session *s __maybe_unused)
{
}
#endif

#endif /* __PERF_AFFINITY_SESSION_H */
