// SPDX-License-Identifier: GPL-2.0
/*
 * Variables from DWARF, by address: the struct type of a global or static
 * variable (or of the elements of an array of them), the element of an
 * array of scalars, the virtual address of a file offset, whether code is
 * assembly, and the source line of an address.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "fields.h"
#include "fields-int.h"
#include "../../debug.h"
#include "../../dwarf-aux.h"
#include "../../strbuf.h"

/* The address of a variable that has one: DW_OP_addr */
static bool fa_die__addr(Dwarf_Die *die, u64 *addr)
{
	Dwarf_Attribute attr;
	Dwarf_Op *expr;
	size_t nexpr;

	if (!dwarf_attr(die, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &expr, &nexpr) != 0 || nexpr < 1 ||
	    expr[0].atom != DW_OP_addr)
		return false;
	*addr = expr[0].number;
	return true;
}

/* Whether variable @var is named @name, or declared so */
static bool fa_die__var_named(Dwarf_Die *var, const char *name)
{
	const char *n = dwarf_diename(var);

	if (!n) {
		/* a definition refers to its declaration for the name */
		Dwarf_Attribute attr;
		Dwarf_Die decl;

		if (dwarf_attr(var, DW_AT_specification, &attr) &&
		    dwarf_formref_die(&attr, &decl))
			n = dwarf_diename(&decl);
	}
	return n && !strcmp(n, name);
}

/* The variable @name at @addr among the children of @scope */
static bool fa_die__find_var(Dwarf_Die *scope, const char *name, u64 addr, Dwarf_Die *out)
{
	Dwarf_Die child;
	u64 at;

	if (dwarf_child(scope, &child) != 0)
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_variable && fa_die__addr(&child, &at) &&
		    at == addr && fa_die__var_named(&child, name)) {
			*out = child;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

struct fa_dwarf_var {
	u64		 addr;
	Dwarf_Off	 die;
};

/* The global and static variables of a DWARF, by address and then DIE */
struct fa_dwarf_vars {
	struct fa_dwarf_var	*vars;
	size_t			 nr;
	size_t			 alloc;
};

static int fa_dwarf_vars__add(struct fa_dwarf_vars *v, u64 addr, Dwarf_Off die)
{
	if (v->nr == v->alloc) {
		size_t alloc = v->alloc ? v->alloc * 2 : 1024;
		struct fa_dwarf_var *vars = realloc(v->vars, alloc * sizeof(*vars));

		if (!vars)
			return -ENOMEM;
		v->vars = vars;
		v->alloc = alloc;
	}
	v->vars[v->nr++] = (struct fa_dwarf_var){ .addr = addr, .die = die, };
	return 0;
}

static int fa_dwarf_var__cmp(const void *pa, const void *pb)
{
	const struct fa_dwarf_var *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

/**
 * fa_dwarf_vars__new - Index the variables at the top of every compilation
 * unit of @dbg by address
 *
 * Looking one up walked all the compilation units: 130 ms in a vmlinux,
 * for each variable a kernel recording's samples touch.  The index finds
 * the same DIE, the first in DIE order, as the walk did.
 */
struct fa_dwarf_vars *fa_dwarf_vars__new(Dwarf *dbg)
{
	struct fa_dwarf_vars *v = zalloc(sizeof(*v));
	Dwarf_Off off = 0, next;
	size_t header_size;

	if (!v)
		return NULL;
	while (dwarf_nextcu(dbg, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		u64 addr;

		if (dwarf_offdie(dbg, off + header_size, &cu) && dwarf_child(&cu, &child) == 0) {
			do {
				if (dwarf_tag(&child) == DW_TAG_variable &&
				    fa_die__addr(&child, &addr) &&
				    fa_dwarf_vars__add(v, addr, dwarf_dieoffset(&child))) {
					fa_dwarf_vars__delete(v);
					return NULL;
				}
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	/* none: a NULL array, which qsort() may not be given */
	if (v->nr)
		qsort(v->vars, v->nr, sizeof(*v->vars), fa_dwarf_var__cmp);
	return v;
}

void fa_dwarf_vars__delete(struct fa_dwarf_vars *v)
{
	if (v) {
		free(v->vars);
		free(v);
	}
}

static bool fa_dwarf_vars__find(const struct fa_dwarf_vars *v, Dwarf *dbg, const char *name,
				u64 addr, Dwarf_Die *out)
{
	size_t lo = 0, hi = v->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->vars[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < v->nr && v->vars[lo].addr == addr; lo++) {
		if (dwarf_offdie(dbg, v->vars[lo].die, out) && fa_die__var_named(out, name))
			return true;
	}
	return false;
}

/**
 * fa_dwarf__vaddr - The link time address of a file offset in a loaded segment
 *
 * perf keeps the symbols of ELF DSOs as file offsets (symbol-elf.c); DWARF
 * has link time addresses, and segments differ in the difference.
 */
u64 fa_dwarf__vaddr(Dwarf *dbg, u64 offset)
{
	Elf *elf = dwarf_getelf(dbg);
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n))
		return offset;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		/* up to p_memsz: .bss is after the end of the file part */
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD &&
		    offset >= ph.p_offset && offset < ph.p_offset + ph.p_memsz)
			return offset + ph.p_vaddr - ph.p_offset;
	}
	return offset;
}

/* Whether the code at @vaddr was written in assembly: no variables to find */
bool fa_dwarf__is_asm(Dwarf *dbg, u64 vaddr)
{
	Dwarf_Die cu;

	return dwarf_addrdie(dbg, vaddr, &cu) && dwarf_srclang(&cu) == DW_LANG_Mips_Assembler;
}

/*
 * The struct type of variable @var, or of the elements of an array: named
 * "struct foo", or by its typedef when it has no name of its own
 */
static int fa_die__var_record(Dwarf_Die *var, struct strbuf *type_name, u32 *size, bool *array,
			      u64 *die_offset, bool deref)
{
	const char *typedef_name = NULL;
	Dwarf_Die die = *var, type;
	Dwarf_Attribute attr;
	bool derefd = false;
	int tag;

	*array = false;
	while (dwarf_attr_integrate(&die, DW_AT_type, &attr) && dwarf_formref_die(&attr, &type)) {
		tag = dwarf_tag(&type);
		if (tag == DW_TAG_typedef)
			typedef_name = dwarf_diename(&type);
		/* @deref: a pointer to the record, once */
		if (tag == DW_TAG_pointer_type) {
			if (!deref || derefd || *array)
				return -ENOTSUP;
			derefd = true;
			typedef_name = NULL;
			die = type;
			continue;
		}
		/* the elements of an array are the instances: slots[i].field */
		if (tag == DW_TAG_array_type) {
			if (*array)
				return -ENOTSUP;
			*array = true;
		}
		if (fa_die__is_record(tag)) {
			if (deref != derefd)
				return -ENOTSUP;
			if (dwarf_diename(&type))
				strbuf_addf(type_name, "%s %s", tag == DW_TAG_union_type ? "union" :
					    tag == DW_TAG_class_type ? "class" : "struct",
					    dwarf_diename(&type));
			else if (typedef_name)
				strbuf_addstr(type_name, typedef_name);
			else
				return -ENOTSUP;
			*size = dwarf_bytesize(&type);
			*die_offset = dwarf_dieoffset(&type);
			return 0;
		}
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_array_type &&
		    tag != DW_TAG_atomic_type)
			return -ENOTSUP;
		die = type;
	}
	return -ENOTSUP;
}

/* The DIE of global or static variable @var at @addr, from @vars if indexed */
static bool fa_dwarf__find_var(Dwarf *dbg, const struct fa_dwarf_vars *vars, const char *var,
			       u64 addr, Dwarf_Die *die)
{
	Dwarf_Off off = 0, next;
	size_t header_size;

	if (vars)
		return fa_dwarf_vars__find(vars, dbg, var, addr, die);
	while (dwarf_nextcu(dbg, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dbg, off + header_size, &cu) &&
		    fa_die__find_var(&cu, var, addr, die))
			return true;
		off = next;
	}
	return false;
}

/**
 * fa_dwarf__var_type - The struct type of a global or static variable
 * @vars: The index of @dbg's variables, or NULL to search them
 * @var: Its name
 * @addr: Its address, as in the ELF symbol table (static variables of
 *        different compilation units may share a name)
 * @type_name: Result: "struct foo" (as fa_struct__from_dwarf() takes it)
 * @size: Result: its size
 * @array: Result: the variable is an array of them, of any dimensions
 * @die_offset: Result: where the DIE of the type is
 * @var_die: Result: where the DIE of the variable is
 *
 * Return: 0, -ENOENT if there is no such variable, -ENOTSUP if it is no
 * struct nor an array of structs.
 */
int fa_dwarf__var_type(Dwarf *dbg, const struct fa_dwarf_vars *vars, const char *var, u64 addr,
		       struct strbuf *type_name, u32 *size, bool *array, u64 *die_offset,
		       u64 *var_die)
{
	Dwarf_Die die;

	if (!fa_dwarf__find_var(dbg, vars, var, addr, &die))
		return -ENOENT;
	*var_die = dwarf_dieoffset(&die);
	return fa_die__var_record(&die, type_name, size, array, die_offset, /*deref=*/false);
}

/**
 * fa_dwarf__pointee_type - The struct type a global or static pointer
 * variable points to, as fa_dwarf__var_type() gives a variable's
 */
int fa_dwarf__pointee_type(Dwarf *dbg, const char *var, u64 addr, struct strbuf *type_name,
			   u32 *size, u64 *die_offset)
{
	Dwarf_Die die;
	bool array;

	if (!fa_dwarf__find_var(dbg, NULL, var, addr, &die))
		return -ENOENT;
	return fa_die__var_record(&die, type_name, size, &array, die_offset, /*deref=*/true);
}

/**
 * fa_dwarf__var_die_type - fa_dwarf__var_type() of the variable at DIE
 * offset @var_die
 */
int fa_dwarf__var_die_type(Dwarf *dbg, u64 var_die, struct strbuf *type_name, u32 *size,
			   bool *array, u64 *die_offset)
{
	Dwarf_Die die;

	if (!dwarf_offdie(dbg, var_die, &die))
		return -ENOENT;
	return fa_die__var_record(&die, type_name, size, array, die_offset, /*deref=*/false);
}

/**
 * fa_dwarf__srcline - "file.c:12" of the instruction at link-time address
 * @addr, as perf's srcline names it (the file without its directories)
 *
 * Return: an allocated string, or NULL
 */
char *fa_dwarf__srcline(Dwarf *dbg, u64 addr)
{
	const char *file, *base;
	Dwarf_Line *line;
	Dwarf_Die cu;
	int lineno;
	char *s;

	if (!dwarf_addrdie(dbg, addr, &cu))
		return NULL;
	line = dwarf_getsrc_die(&cu, addr);
	if (!line || dwarf_lineno(line, &lineno))
		return NULL;
	file = dwarf_linesrc(line, NULL, NULL);
	if (!file)
		return NULL;
	base = strrchr(file, '/');
	if (asprintf(&s, "%s:%d", base ? base + 1 : file, lineno) < 0)
		return NULL;
	return s;
}

/* A type that is no record nor array: its typedefs and qualifiers skipped into @real */
static bool fa_die__scalar(Dwarf_Die *type, Dwarf_Die *real)
{
	*real = *type;
	for (int depth = 0; depth < 16; depth++) {
		switch (dwarf_tag(real)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_atomic_type:
			if (!fa_die__type(real, real))
				return false;
			continue;
		case DW_TAG_base_type:
		case DW_TAG_enumeration_type:
		case DW_TAG_pointer_type:
			return true;
		default:
			return false;
		}
	}
	return false;
}

/**
 * fa_dwarf__var_array - What a variable at DIE offset @var_die is, if it is
 * an array of one dimension of a scalar type (int, enum, pointer)
 * @ai: Result: its name, the C type, size and alignment of an element, and
 *      the number of elements; the strings are the caller's to free
 *
 * Return: 0, -ENOTSUP if it is not such an array, -ENOMEM.
 */
int fa_dwarf__var_array(Dwarf *dbg, u64 var_die, struct fa_array_info *ai)
{
	Dwarf_Die var, type, elem, real, child;
	struct strbuf pre, post;
	Dwarf_Attribute attr;
	Dwarf_Word n = 0;
	bool funcptr = false;
	int err = -ENOTSUP, dims = 0;

	memset(ai, 0, sizeof(*ai));
	if (!dwarf_offdie(dbg, var_die, &var) || !dwarf_diename(&var) ||
	    !fa_die__type(&var, &type))
		return -ENOTSUP;
	while (dwarf_tag(&type) == DW_TAG_typedef || dwarf_tag(&type) == DW_TAG_const_type ||
	       dwarf_tag(&type) == DW_TAG_volatile_type) {
		if (!fa_die__type(&type, &type))
			return -ENOTSUP;
	}
	if (dwarf_tag(&type) != DW_TAG_array_type || !fa_die__type(&type, &elem) ||
	    !fa_die__scalar(&elem, &real) || dwarf_child(&type, &child) != 0)
		return -ENOTSUP;
	do {
		if (dwarf_tag(&child) != DW_TAG_subrange_type)
			continue;
		dims++;
		if (dwarf_attr(&child, DW_AT_count, &attr))
			dwarf_formudata(&attr, &n);
		else if (dwarf_attr(&child, DW_AT_upper_bound, &attr) &&
			 !dwarf_formudata(&attr, &n))
			n++;
	} while (dwarf_siblingof(&child, &child) == 0);
	ai->elem_size = dwarf_tag(&real) == DW_TAG_pointer_type && dwarf_bytesize(&real) <= 0 ?
			8 : (u32)dwarf_bytesize(&real);
	if (dims != 1 || !n || n > UINT32_MAX || (int)ai->elem_size <= 0)
		return -ENOTSUP;
	ai->nr_elems = n;
	ai->elem_align = fa_die__align(&elem, 0);
	strbuf_init(&pre, 32);
	strbuf_init(&post, 8);
	fa_die__decl(&elem, &pre, &post, &funcptr, 0);
	/* a function pointer's declaration wraps the name: not an element type */
	if (!funcptr && !post.len) {
		ai->name = strdup(dwarf_diename(&var));
		ai->elem_type = strdup(sb_str(&pre));
		err = ai->name && ai->elem_type ? 0 : -ENOMEM;
	}
	strbuf_release(&pre);
	strbuf_release(&post);
	if (err) {
		zfree(&ai->name);
		zfree(&ai->elem_type);
	}
	return err;
}

/* Whether compilation unit @cu is of source file @file, its directories aside */
static bool fa_die__cu_of(Dwarf_Die *cu, const char *file)
{
	const char *name = dwarf_diename(cu), *base;

	if (!name || !file)
		return false;
	base = strrchr(name, '/');
	return !strcmp(base ? base + 1 : name, file);
}

/*
 * The global or static variable named @name that has an address: the one
 * of the compilation unit of @file (a static variable's name may be in
 * several), else the first
 */
static bool fa_dwarf__find_var_named(Dwarf *dbg, const char *name, const char *file,
				     Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t header_size;
	bool found = false;

	while (dwarf_nextcu(dbg, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		u64 addr;

		if (dwarf_offdie(dbg, off + header_size, &cu) && dwarf_child(&cu, &child) == 0) {
			do {
				if (dwarf_tag(&child) != DW_TAG_variable ||
				    !fa_die__addr(&child, &addr) || !fa_die__var_named(&child, name))
					continue;
				if (fa_die__cu_of(&cu, file)) {
					*out = child;
					return true;
				}
				if (!found)
					*out = child;
				found = true;
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	return found;
}

/* @type with its typedefs and qualifiers skipped, the first typedef's name kept */
static bool fa_die__strip(Dwarf_Die *type)
{
	for (int depth = 0; depth < 16; depth++) {
		int tag = dwarf_tag(type);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_atomic_type)
			return true;
		if (!fa_die__type(type, type))
			return false;
	}
	return false;
}

/**
 * fa_dwarf__var_elem - What the elements a variable reaches are: those of
 * a global or static array, or those a global or static pointer points to
 * (the slots of an allocation it holds)
 * @name: The variable
 * @file: The source file of the code that accesses them ("prog.c"), whose
 *        variable of that name it is, NULL: not known
 * @ai: Result: the C type, size and alignment of an element, and the
 *      number of elements (0: through a pointer); the strings are the
 *      caller's to free
 *
 * The alignment is the type's, explicit (alignas, aligned()) or natural:
 * what the elements of an array get; a pointer's allocation may give less.
 *
 * Return: 0, -ENOENT if there is no such variable, -ENOTSUP if it is no
 * array nor pointer, -ENOMEM.
 */
int fa_dwarf__var_elem(Dwarf *dbg, const char *name, const char *file,
		       struct fa_array_info *ai)
{
	Dwarf_Die var, type, elem, strip;
	struct strbuf pre, post;
	bool funcptr = false;
	Dwarf_Word size;
	int err = -ENOTSUP;

	memset(ai, 0, sizeof(*ai));
	if (!fa_dwarf__find_var_named(dbg, name, file, &var))
		return -ENOENT;
	if (!fa_die__type(&var, &type) || !fa_die__strip(&type))
		return -ENOTSUP;
	if (dwarf_tag(&type) == DW_TAG_array_type) {
		if (dwarf_aggregate_size(&type, &size) == 0)
			ai->nr_elems = size;
	} else if (dwarf_tag(&type) != DW_TAG_pointer_type) {
		return -ENOTSUP;
	}
	if (!fa_die__type(&type, &elem))
		return -ENOTSUP;	/* void * */
	strip = elem;
	if (!fa_die__strip(&strip) || dwarf_aggregate_size(&strip, &size) || !size ||
	    size > UINT32_MAX)
		return -ENOTSUP;
	ai->elem_size = size;
	ai->nr_elems /= size;
	ai->elem_align = fa_die__align(&elem, 0);
	strbuf_init(&pre, 32);
	strbuf_init(&post, 8);
	fa_die__decl(&elem, &pre, &post, &funcptr, 0);
	ai->name = strdup(name);
	ai->elem_type = strbuf_detach(&pre, NULL);
	err = ai->name && ai->elem_type ? 0 : -ENOMEM;
	strbuf_release(&post);
	if (err) {
		zfree(&ai->name);
		zfree(&ai->elem_type);
	}
	return err;
}
