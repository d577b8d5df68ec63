/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A struct type as perf affinity sees it: its fields, with the leaves that
 * accesses are attributed to, and the units a layout moves around.
 *
 *   struct s {                      fields (depth)      leaf   unit
 *           long a;                 a (0)               yes    0
 *           struct {                stats (0)           no     1
 *                   int nr;         stats.nr (1)        yes    1
 *                   int load;       stats.load (1)      yes    1
 *           } stats;
 *           unsigned x:3, y:5;      x, y (0)            no     2
 *                                   {x,y} (group)       yes    2
 *           char tail[];            tail (0)            yes    3 (flexible)
 *   };
 *
 * Arrays and unions are single leaves; a bitfield access cannot be told
 * from an access to the other bitfields of its storage unit, so the unit's
 * bitfields share one (synthetic, unprinted) group leaf.
 */
#ifndef __PERF_AFFINITY_FIELDS_H
#define __PERF_AFFINITY_FIELDS_H

#include <stdbool.h>
#include <linux/types.h>

enum fa_field_kind {
	FA_FIELD_SCALAR,	/* base type, pointer, enum */
	FA_FIELD_ARRAY,
	FA_FIELD_UNION,
	FA_FIELD_STRUCT,	/* nested struct: a block, its members follow it */
	FA_FIELD_BITFIELD,	/* one bitfield */
	FA_FIELD_BITGROUP,	/* the bitfields of one storage unit (synthetic leaf) */
	FA_FIELD_FLEX,		/* flexible array member */
};

enum fa_nest_kind {
	FA_NEST_MEMBER,
	FA_NEST_START,		/* "struct {" or "union {" */
	FA_NEST_END,		/* "}", what follows it, the block's offset and size */
};

/**
 * struct fa_nest - A line of an anonymous struct or union member, as pahole
 * prints it expanded: one of its members, or where a block starts or ends
 * @type: A member: its type ("struct sk_buff *"); a start: "struct", "union"
 * @name: A member: name, bits, suffix, attribute; an end: what follows the
 *        '}' (the outermost end: the type's attribute only)
 * @offset: Bytes from the start of the anonymous member
 * @size: Bytes
 * @padding: Tail padding of the member's struct type, for a note
 * @hole: Bytes after it to the next member of its struct block
 * @bit_hole: Bits of its storage unit left after it (bitfields)
 * @name_len: An end: the length pahole pads after (its name and attribute)
 * @bit_offset: Bitfields: first bit in the storage unit
 * @bit_size: Bitfields: width in bits, else 0
 * @depth: 0 for the anonymous member's own start and end
 * @kind: enum fa_nest_kind
 * @prefix: Bytes of @type printed at their own width ("struct ", "const ")
 * @force: A bitfield pahole says is forced to a new storage unit
 * @in_union: The block it is in is a union: pahole gives no notes there
 */
struct fa_nest {
	char	*type;
	char	*name;
	u32	 offset;
	u32	 size;
	u32	 padding;
	u32	 hole;
	u32	 bit_hole;
	int	 name_len;
	u16	 bit_offset;
	u16	 bit_size;
	u8	 depth;
	u8	 kind;
	u8	 prefix;
	bool	 force;
	bool	 in_union;
};

/* A C++ member's access, as DWARF's DW_ACCESS_* */
enum fa_member_access {
	FA_MEMBER_PUBLIC = 1,
	FA_MEMBER_PROTECTED = 2,
	FA_MEMBER_PRIVATE = 3,
};

/**
 * struct fa_field - A member of a struct, or of a struct nested in it
 * @name: Path from the outermost struct: "stats.nr_running"
 * @type: Declaration before the name: "unsigned int", "void *"
 * @suffix: Declaration after the name: "[16]", ")(void *)"
 * @offset: Bytes from the start of the outermost struct
 * @size: Bytes (bitfields: their storage unit)
 * @align: Alignment in bytes
 * @bit_offset: Bitfields: first bit in the storage unit
 * @bit_size: Bitfields: width in bits
 * @parent: Index of the enclosing nested struct, or -1
 * @unit: Index of the layout unit the field is part of
 * @group: Bitfields: index of their group leaf; groups: of their first bitfield
 * @kind: enum fa_field_kind
 * @depth: Nesting depth, 0 for members of the outermost struct
 * @leaf: Accesses are attributed to it
 * @c_type: An anonymous struct or union: its definition, for C; a type C
 *          spells other than pahole (@type): the C; else NULL
 * @nest: An anonymous struct or union: its lines as pahole prints them
 * @nr_nest: Lines in @nest
 * @type_padding: Tail padding of its type, if a struct (pahole notes it)
 * @type_prefix: Bytes of @type pahole pads apart ("const ", "struct ")
 * @funcptr: A function pointer: printed as '(*name)' + @suffix
 * @forced_align: @align was asked for (__aligned__), not natural
 * @anon: An anonymous member: @name is made up ("{a|b}", "{a,b}"), C gives none
 * @base: A C++ base class: named "(base ns::B)", its members as the class's,
 *        placed by the compiler (pahole prints it as "<ancestor>")
 * @cxx_decl: A member of a C++ record: its declaration as its source line
 *            spells it (without ';'), NULL if not at hand
 * @access: A member of a C++ record: enum fa_member_access
 * @type_die: A member of a C++ record that is a user's class held by value:
 *            the DIE of the class, analysed as itself too; else 0
 */
struct fa_field {
	char	*name;
	char	*type;
	char	*suffix;
	char	*c_type;
	struct fa_nest *nest;
	int	 nr_nest;
	u32	 type_padding;
	u8	 type_prefix;
	u32	 offset;
	u32	 size;
	u32	 align;
	u16	 bit_offset;
	u16	 bit_size;
	int	 parent;
	int	 unit;
	int	 group;
	u8	 kind;
	u8	 depth;
	bool	 leaf;
	bool	 funcptr;
	bool	 forced_align;
	bool	 anon;
	bool	 base;
	char	*cxx_decl;
	u8	 access;
	u64	 type_die;
};

/**
 * struct fa_unit - What a layout moves as a whole: a top-level member, or
 * the bitfields of one storage unit
 * @offset: Offset in the struct as recorded
 * @size: Bytes
 * @align: Alignment
 * @field: Its first top-level field
 * @nr_fields: Its top-level fields (several for a bitfield storage unit)
 * @flex: A flexible array member: stays last
 */
struct fa_unit {
	u32	 offset;
	u32	 size;
	u32	 align;
	int	 field;
	int	 nr_fields;
	bool	 flex;
};

struct fa_struct {
	char		*name;		/* "struct rq", or a typedef name */
	/* how its C starts, if not "<name> {": "typedef struct {" for a typedef of an
	 * anonymous record, "struct foo {" for a typedef of struct foo
	 */
	char		*c_open;
	/* --emit-c: the typedef name its definition declares too, or NULL */
	char		*c_typedef;
	u32		 size;
	u32		 align;
	bool		 packed;
	bool		 forced_align;	/* __aligned__ on the struct itself */
	/* the C++ standard library's, of none of the user's types, or a system header's */
	bool		 std_lib;
	/* declared where assembly or user space has its offsets: the file, else NULL */
	char		*abi_decl;
	bool		 cxx;		/* a record of a C++ unit: --emit-c prints C++ */
	/* C++: how its source opens it, up to '{' ("template <typename T>\nclass Meter") */
	char		*cxx_open;
	/* C++: its name as C++ spells it, with its scopes ("lf::Meter<long int>") */
	char		*cxx_name;
	/* C++: the name its source gives std::hardware_destructive_interference_size */
	char		*cxx_line_name;
	int		 nr_fields;
	int		 nr_units;
	int		 nr_leaves;
	struct fa_field	*fields;
	struct fa_unit	*units;
	int		*leaves;	/* field indexes of the leaves, by offset */
	u64		 die_offset;	/* of its DWARF type, 0 if not from DWARF */
};

struct fa_struct *fa_struct__new(const char *name, u32 size, u32 align);
void fa_struct__delete(struct fa_struct *st);
bool fa_struct__same_layout(const struct fa_struct *a, const struct fa_struct *b);
void fa_nest__delete(struct fa_nest *nest, int nr);
int fa_struct__add_field(struct fa_struct *st, const struct fa_field *field);
int fa_struct__finish(struct fa_struct *st);
int fa_struct__find_leaf(const struct fa_struct *st, u32 offset);
int fa_struct__next_leaves(const struct fa_struct *st, int field, u32 end, int *more, int max);
bool fa_struct__embeds(const struct fa_struct *st, u32 offset, u32 size);
int fa_field__top(const struct fa_struct *st, int i);
int fa_struct__unit_leaves(const struct fa_struct *st, int unit, int *leaves, int max);
/* Wider names (a bitfield unit's members, deep paths) are cut in tables */
#define FA_FIELD_NAME_MAX	40

const char *fa_field__short_name(const char *name, int max, char *buf, size_t size);
const char *fa_unit__name(const struct fa_struct *st, int u);
const char *fa_field_kind__name(u8 kind);
int fa_field_kind__parse(const char *name);
const char *fa_struct__bare_name(const struct fa_struct *st);
bool fa_type_name__matches(const char *name, const char *want);
const char *fa_type_name__last(const char *name);
const char *fa_member_access__name(u8 access);
const char *fa_struct__printed_name(const struct fa_struct *st);
struct fa_type_filter;
struct fa_type_filter *fa_type_filter__new(const char *list);
void fa_type_filter__delete(struct fa_type_filter *f);
bool fa_type_filter__wants(const struct fa_type_filter *f, const char *name);

/* An array variable of a scalar type (fa_dwarf__var_array()) */
struct fa_array_info {
	char	*name;
	char	*elem_type;	/* as C: "void *", "unsigned int" */
	u32	 elem_size;
	u32	 elem_align;
	u32	 nr_elems;
};

#ifdef HAVE_DWARF_SUPPORT
#include <elfutils/libdw.h>
struct annotated_member;
struct strbuf;
struct fa_struct *fa_struct__from_dwarf(Dwarf *dbg, const char *type_name, u32 size,
					u64 die_offset);
struct fa_struct *fa_struct__from_members(Dwarf *dbg, const char *type_name, u32 size,
					  u64 die_offset, struct annotated_member *members);
struct fa_struct *fa_struct__from_dwarf_named(Dwarf *dbg, const char *name);
u64 fa_dwarf__vaddr(Dwarf *dbg, u64 offset);
bool fa_dwarf__is_asm(Dwarf *dbg, u64 vaddr);
char *fa_dwarf__srcline(Dwarf *dbg, u64 addr);
struct fa_dwarf_vars;
struct fa_dwarf_vars *fa_dwarf_vars__new(Dwarf *dbg);
void fa_dwarf_vars__delete(struct fa_dwarf_vars *vars);
int fa_dwarf__var_type(Dwarf *dbg, const struct fa_dwarf_vars *vars, const char *var, u64 addr,
		       struct strbuf *type_name, u32 *size, bool *array, u64 *die_offset,
		       u64 *var_die);
int fa_dwarf__pointee_type(Dwarf *dbg, const char *var, u64 addr, struct strbuf *type_name,
			   u32 *size, u64 *die_offset);
int fa_dwarf__var_die_type(Dwarf *dbg, u64 var_die, struct strbuf *type_name, u32 *size,
			   bool *array, u64 *die_offset);
int fa_dwarf__var_array(Dwarf *dbg, u64 var_die, struct fa_array_info *ai);
int fa_dwarf__var_elem(Dwarf *dbg, const char *name, const char *file,
		       struct fa_array_info *ai);
#endif

#endif /* __PERF_AFFINITY_FIELDS_H */
