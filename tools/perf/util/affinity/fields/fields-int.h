/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helpers of the DWARF readers of fields/: DIEs as C lays them out
 * (die.c), declarations (fields-dwarf.c), as pahole prints them
 * (fields-pahole.c).
 */
#ifndef __PERF_AFFINITY_FIELDS_INT_H
#define __PERF_AFFINITY_FIELDS_INT_H

#include <elfutils/libdw.h>
#include <linux/types.h>
#include "../../strbuf.h"

struct fa_field;
struct fa_nest;

#define FA_MAX_DEPTH	8

bool fa_die__type(Dwarf_Die *die, Dwarf_Die *type);
bool fa_die__is_record(int tag);
bool fa_die__anon_record(Dwarf_Die *type);
u32 fa_die__explicit_align(Dwarf_Die *die);
u32 fa_die__align(Dwarf_Die *type, int depth);
bool fa_die__packed(Dwarf_Die *type);
void fa_die__array_dims(Dwarf_Die *array, struct strbuf *post);
void fa_die__decl(Dwarf_Die *type, struct strbuf *pre, struct strbuf *post, bool *funcptr,
		  int depth);
void fa_member__bits(Dwarf_Die *member, u32 storage, struct fa_field *f);
char *fa_die__cxx_decl(Dwarf_Die *member);
char *fa_die__cxx_open(Dwarf_Die *record);
char *fa_die__cxx_line_name(Dwarf_Die *record);
u8 fa_die__access(Dwarf_Die *member, u8 def);

void fa_pahole__member_type(Dwarf_Die *type, struct strbuf *pre, struct strbuf *post,
			    bool *funcptr, u8 *prefix);
u32 fa_pahole__padding(Dwarf_Die *type);
int fa_pahole__nest(Dwarf_Die *record, struct fa_nest **nest, int *nr);

/* A strbuf's text; an initialized but empty strbuf need not be terminated. */
static inline const char *sb_str(const struct strbuf *sb)
{
	return sb->len ? sb->buf : "";
}

#endif /* __PERF_AFFINITY_FIELDS_INT_H */
