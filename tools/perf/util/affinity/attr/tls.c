// SPDX-License-Identifier: GPL-2.0
/* Thread-local variables of an executable, by thread pointer offset (see tls.h). */
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "tls.h"

/* Whether the dynamic section of @ph says a position independent executable */
static bool fa_elf__pie(Elf *elf, const GElf_Phdr *ph)
{
	Elf_Data *data = elf_getdata_rawchunk(elf, ph->p_offset, ph->p_filesz, ELF_T_DYN);
	GElf_Dyn dyn;

	for (size_t i = 0; data && gelf_getdyn(data, i, &dyn); i++) {
		if (dyn.d_tag == DT_FLAGS_1)
			return dyn.d_un.d_val & DF_1_PIE;
	}
	return false;
}

/*
 * The size of the executable's TLS block as the linker lays it out, or 0
 * for a shared library (libc.so.6 runs too, but is no PIE)
 */
static u64 fa_elf__tls_size(Elf *elf)
{
	bool exec = false;
	u64 size = 0;
	GElf_Ehdr eh;
	size_t n;

	if (!elf || !gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n))
		return 0;
	exec = eh.e_type == ET_EXEC;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph))
			continue;
		if (ph.p_type == PT_DYNAMIC && eh.e_type == ET_DYN)
			exec = fa_elf__pie(elf, &ph);
		if (ph.p_type == PT_TLS)
			size = roundup(ph.p_memsz, ph.p_align ?: 1);
	}
	return exec ? size : 0;
}

/* The block offset of a thread-local variable's DIE, if it is one */
static bool fa_die__tls_offset(Dwarf_Die *die, u64 *offset)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(die, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &ops, &nops) || nops != 2)
		return false;
	if (ops[0].atom != DW_OP_const8u && ops[0].atom != DW_OP_const4u)
		return false;
	if (ops[1].atom != DW_OP_form_tls_address && ops[1].atom != DW_OP_GNU_push_tls_address)
		return false;
	*offset = ops[0].number;
	return true;
}

static bool fa_die__var_size(Dwarf_Die *die, u64 *size)
{
	Dwarf_Attribute attr;
	Dwarf_Word bytes;
	Dwarf_Die type;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type) ||
	    dwarf_aggregate_size(&type, &bytes))
		return false;
	*size = bytes;
	return true;
}

static int fa_tls__add(struct fa_tls *tls, Dwarf_Die *die, u64 offset, u64 size)
{
	struct fa_tls_var *vars;

	vars = realloc(tls->vars, (tls->nr + 1) * sizeof(*vars));
	if (!vars)
		return -ENOMEM;
	tls->vars = vars;
	tls->vars[tls->nr++] = (struct fa_tls_var){
		.offset = offset, .size = size, .die = dwarf_dieoffset(die),
	};
	return 0;
}

/* The thread-local variables at the top level of compilation unit @cu */
static int fa_tls__cu(struct fa_tls *tls, Dwarf_Die *cu)
{
	Dwarf_Die child;
	u64 offset, size;

	if (dwarf_child(cu, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_variable && fa_die__tls_offset(&child, &offset) &&
		    fa_die__var_size(&child, &size) && size &&
		    fa_tls__add(tls, &child, offset, size))
			return -ENOMEM;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int tls_var_cmp(const void *a, const void *b)
{
	const struct fa_tls_var *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return 0;
}

/**
 * fa_tls__init - The thread-local variables of the executable of @dbg
 *
 * Return: 0, -ENOENT if it is no executable or has none, -ENOMEM.
 */
int fa_tls__init(struct fa_tls *tls, Dwarf *dbg)
{
	u64 block = fa_elf__tls_size(dwarf_getelf(dbg));
	Dwarf_Off off = 0, next;
	size_t header_size;

	memset(tls, 0, sizeof(*tls));
	if (!block)
		return -ENOENT;
	tls->start = -(s64)block;
	while (dwarf_nextcu(dbg, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dbg, off + header_size, &cu) && fa_tls__cu(tls, &cu)) {
			fa_tls__exit(tls);
			return -ENOMEM;
		}
		off = next;
	}
	if (!tls->nr)
		return -ENOENT;
	qsort(tls->vars, tls->nr, sizeof(*tls->vars), tls_var_cmp);
	return 0;
}

void fa_tls__exit(struct fa_tls *tls)
{
	zfree(&tls->vars);
	tls->nr = 0;
}

/* The variable at @tpoff from the thread pointer, and the @offset in it */
const struct fa_tls_var *fa_tls__find(const struct fa_tls *tls, s64 tpoff, u64 *offset)
{
	s64 in_block = tpoff - tls->start;
	int lo = 0, hi = tls->nr;

	if (in_block < 0)
		return NULL;
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (tls->vars[mid].offset <= (u64)in_block)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || (u64)in_block >= tls->vars[lo - 1].offset + tls->vars[lo - 1].size)
		return NULL;
	*offset = in_block - tls->vars[lo - 1].offset;
	return &tls->vars[lo - 1];
}
