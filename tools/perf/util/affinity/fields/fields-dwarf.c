// SPDX-License-Identifier: GPL-2.0
/*
 * A struct's fields from DWARF: members flattened with their paths,
 * offsets, sizes, alignments and bitfields, and their declarations in the
 * form pahole prints them.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include "fields.h"
#include "fields-int.h"
#include "../../annotate-data.h"
#include "../../debug.h"
#include "../../dwarf-aux.h"
#include "../../strbuf.h"

struct fa_type_query {
	int		 tag;		/* DW_TAG_*_type, or 0 for a typedef name */
	const char	*name;
	u32		 size;
};

static bool fa_die__matches(Dwarf_Die *die, const struct fa_type_query *q, Dwarf_Die *out)
{
	int tag = dwarf_tag(die);
	Dwarf_Attribute attr;
	const char *name;

	if (q->tag ? (tag != q->tag && !(q->tag == DW_TAG_structure_type &&
					  tag == DW_TAG_class_type)) : tag != DW_TAG_typedef)
		return false;
	name = dwarf_diename(die);
	if (!name || strcmp(name, q->name))
		return false;
	if (!q->tag) {
		if (!die_get_real_type(die, out) || !fa_die__is_record(dwarf_tag(out)))
			return false;
	} else {
		if (dwarf_attr(die, DW_AT_declaration, &attr))
			return false;
		*out = *die;
	}
	/* size 0: any size (a tracepoint names the type only) */
	return !q->size || dwarf_bytesize(out) == (int)q->size;
}

/* Search the top level of a CU and of its namespaces. */
static bool fa_die__find(Dwarf_Die *scope, const struct fa_type_query *q, Dwarf_Die *out,
			 int depth)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child) != 0)
		return false;
	do {
		if (fa_die__matches(&child, q, out))
			return true;
		if (dwarf_tag(&child) == DW_TAG_namespace && depth < FA_MAX_DEPTH &&
		    fa_die__find(&child, q, out, depth + 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static bool fa_dwarf__find_type(Dwarf *dbg, const struct fa_type_query *q, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t header_size;

	while (dwarf_nextcu(dbg, off, &next, &header_size, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dbg, off + header_size, &cu) && fa_die__find(&cu, q, out, 0))
			return true;
		off = next;
	}
	return false;
}

/* A pointer to a function */
static bool fa_die__funcptr(Dwarf_Die *pointer)
{
	Dwarf_Die inner;

	return fa_die__type(pointer, &inner) && dwarf_tag(&inner) == DW_TAG_subroutine_type;
}

static void fa_die__params(Dwarf_Die *func, struct strbuf *sb)
{
	Dwarf_Die child, ptype;
	Dwarf_Attribute attr;
	bool first = true;

	strbuf_addstr(sb, "(");
	if (dwarf_child(func, &child) == 0) {
		do {
			struct strbuf p, q;
			bool fp = false;

			if (dwarf_tag(&child) == DW_TAG_unspecified_parameters) {
				strbuf_addf(sb, "%s...", first ? "" : ", ");
				first = false;
				continue;
			}
			if (dwarf_tag(&child) != DW_TAG_formal_parameter)
				continue;
			strbuf_init(&p, 32);
			strbuf_init(&q, 8);
			if (fa_die__type(&child, &ptype))
				fa_die__decl(&ptype, &p, &q, &fp, 1);
			else
				strbuf_addstr(&p, "void");
			strbuf_addf(sb, "%s%s%s", first ? "" : ", ", sb_str(&p), sb_str(&q));
			strbuf_release(&p);
			strbuf_release(&q);
			first = false;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (first && dwarf_attr(func, DW_AT_prototyped, &attr))
		strbuf_addstr(sb, "void");
	strbuf_addstr(sb, ")");
}

/*
 * The declaration of a member of @type, the way pahole prints it: @pre
 * before the name ("unsigned int", "struct list_head *"), @post after it
 * ("[16]"), and for function pointers '(*' before and ')(params)' after.
 */
void fa_die__decl(Dwarf_Die *type, struct strbuf *pre, struct strbuf *post, bool *funcptr,
		  int depth)
{
	const char *name = dwarf_diename(type);
	Dwarf_Die inner;

	if (depth > 16) {
		strbuf_addstr(pre, "?");
		return;
	}
	switch (dwarf_tag(type)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		strbuf_addf(pre, "%s %s", dwarf_tag(type) == DW_TAG_union_type ? "union" :
			    dwarf_tag(type) == DW_TAG_enumeration_type ? "enum" :
			    dwarf_tag(type) == DW_TAG_class_type ? "class" : "struct",
			    name ?: "{...}");
		break;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_atomic_type: {
		const char *qual = dwarf_tag(type) == DW_TAG_const_type ? "const" :
				   dwarf_tag(type) == DW_TAG_volatile_type ? "volatile" : "_Atomic";

		if (!fa_die__type(type, &inner)) {
			strbuf_addf(pre, "%s void", qual);
		} else if (dwarf_tag(&inner) == DW_TAG_pointer_type && !fa_die__funcptr(&inner)) {
			/* a qualified pointer: "char *const" */
			fa_die__decl(&inner, pre, post, funcptr, depth + 1);
			strbuf_addstr(pre, qual);
		} else {
			strbuf_addf(pre, "%s ", qual);
			fa_die__decl(&inner, pre, post, funcptr, depth + 1);
		}
		break;
	}
	case DW_TAG_pointer_type:
		if (!fa_die__type(type, &inner)) {
			strbuf_addstr(pre, "void *");
		} else if (dwarf_tag(&inner) == DW_TAG_subroutine_type) {
			Dwarf_Die ret;

			if (fa_die__type(&inner, &ret))
				fa_die__decl(&ret, pre, post, funcptr, depth + 1);
			else
				strbuf_addstr(pre, "void");
			strbuf_addstr(post, ")");
			fa_die__params(&inner, post);
			*funcptr = true;
		} else {
			fa_die__decl(&inner, pre, post, funcptr, depth + 1);
			strbuf_addstr(pre, pre->len && pre->buf[pre->len - 1] == '*' ? "*" : " *");
		}
		break;
	case DW_TAG_array_type:
		fa_die__array_dims(type, post);
		if (fa_die__type(type, &inner))
			fa_die__decl(&inner, pre, post, funcptr, depth + 1);
		break;
	default:	/* base types, typedefs */
		strbuf_addstr(pre, name ?: "?");
		break;
	}
}

/*
 * The C definition of an anonymous struct or union, for --emit-c: pahole
 * prints "union {...}", which does not compile.
 */
static void fa_die__record_c(Dwarf_Die *record, struct strbuf *sb, int indent, int depth)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t";
	int nr_tabs = min(indent + 1, (int)sizeof(tabs) - 1);
	Dwarf_Die child, type;

	strbuf_addf(sb, "%s {\n", dwarf_tag(record) == DW_TAG_union_type ? "union" : "struct");
	if (dwarf_child(record, &child) == 0) {
		do {
			const char *name = dwarf_diename(&child);
			struct strbuf pre, post;
			bool fp = false;
			u32 align;

			if (dwarf_tag(&child) != DW_TAG_member || !fa_die__type(&child, &type))
				continue;
			strbuf_init(&pre, 32);
			strbuf_init(&post, 8);
			if (fa_die__anon_record(&type) && depth < FA_MAX_DEPTH)
				fa_die__record_c(&type, &pre, indent + 1, depth + 1);
			else
				fa_die__decl(&type, &pre, &post, &fp, 0);
			strbuf_addf(sb, "%.*s%s%s%s%s%s", nr_tabs, tabs, sb_str(&pre),
				    !name || (pre.len && pre.buf[pre.len - 1] == '*') ? "" : " ",
				    fp ? "(*" : "", name ?: "", sb_str(&post));
			if (dwarf_hasattr(&child, DW_AT_bit_size))
				strbuf_addf(sb, ":%d", dwarf_bitsize(&child));
			align = fa_die__explicit_align(&child);
			if (align)
				strbuf_addf(sb, " __attribute__((aligned(%u)))", align);
			strbuf_addstr(sb, ";\n");
			strbuf_release(&pre);
			strbuf_release(&post);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	strbuf_addf(sb, "%.*s}", nr_tabs - 1, tabs);
}

struct fa_walk {
	Dwarf			*dbg;
	struct fa_struct	*st;
	bool			 packed;
	u8			 access;	/* a C++ member's by default */
};

static int fa_walk__record(struct fa_walk *w, struct annotated_member *record,
			   const char *prefix, int parent, int depth);

/*
 * An anonymous union is named after its members, "{node|rcu}"; an
 * anonymous struct among them after its own, "{val|locked,pending}".
 */
static void fa_die__member_names(Dwarf_Die *record, struct strbuf *sb, int depth)
{
	bool is_union = dwarf_tag(record) == DW_TAG_union_type;
	Dwarf_Die child, type;
	bool first = true;

	if (is_union)
		strbuf_addch(sb, '{');
	if (dwarf_child(record, &child) == 0) {
		do {
			const char *name = dwarf_diename(&child);

			if (dwarf_tag(&child) != DW_TAG_member)
				continue;
			strbuf_addstr(sb, first ? "" : is_union ? "|" : ",");
			first = false;
			if (name)
				strbuf_addstr(sb, name);
			else if (depth < FA_MAX_DEPTH && fa_die__type(&child, &type) &&
				 fa_die__anon_record(&type))
				fa_die__member_names(&type, sb, depth + 1);
			else
				strbuf_addch(sb, '?');
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (is_union)
		strbuf_addch(sb, '}');
}

/*
 * An anonymous member's name: a union's "{node|rcu}", a struct's "{a,b}"
 * (not "": a name the JSON and the advice can give)
 */
static void fa_die__anon_name(Dwarf_Die *record, struct strbuf *sb)
{
	bool is_union = dwarf_tag(record) == DW_TAG_union_type;

	strbuf_addstr(sb, is_union ? "" : "{");
	fa_die__member_names(record, sb, 0);
	strbuf_addstr(sb, is_union ? "" : "}");
}

static u8 fa_type__kind(Dwarf_Die *real, int size)
{
	switch (dwarf_tag(real)) {
	case DW_TAG_array_type:
		return size ? FA_FIELD_ARRAY : FA_FIELD_FLEX;
	case DW_TAG_union_type:
		return FA_FIELD_UNION;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
		return FA_FIELD_STRUCT;
	default:
		return FA_FIELD_SCALAR;
	}
}

/* Whether @die is of a C++ compilation unit */
static bool fa_die__cxx(Dwarf_Die *die)
{
	Dwarf_Die cu;
	int lang;

	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return false;
	lang = dwarf_srclang(&cu);
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

/*
 * Whether @die is declared in namespace std (or __gnu_cxx, libstdc++'s
 * own), in a namespace or class inside it (std::__1, std::thread)
 */
static bool fa_die__in_std(Dwarf_Die *die)
{
	Dwarf_Die *scopes = NULL;
	const char *outer = NULL;
	int n;

	/* C has no namespaces: no walk of its (kernel sized) units */
	if (!fa_die__cxx(die))
		return false;
	n = dwarf_getscopes_die(die, &scopes);
	/* scopes[0] is @die, the last its compilation unit */
	for (int i = 1; i < n - 1; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_namespace)
			outer = dwarf_diename(&scopes[i]);
	}
	free(scopes);
	return outer && (!strcmp(outer, "std") || !strcmp(outer, "__gnu_cxx"));
}

/*
 * @record's name as C++ spells it: with the namespaces and classes it is
 * declared in ("lf::Meter<long int>"), without a keyword; NULL if unnamed
 */
static char *fa_die__cxx_name(Dwarf_Die *record)
{
	const char *name = dwarf_diename(record);
	Dwarf_Die *scopes = NULL;
	struct strbuf sb;
	int n;

	if (!name)
		return NULL;
	strbuf_init(&sb, 64);
	n = dwarf_getscopes_die(record, &scopes);
	/* scopes[0] is @record, the last its compilation unit */
	for (int i = n - 2; i >= 1; i--) {
		int tag = dwarf_tag(&scopes[i]);
		const char *scope = dwarf_diename(&scopes[i]);

		if (tag == DW_TAG_namespace)
			strbuf_addf(&sb, "%s::", scope ?: "(anonymous namespace)");
		else if (fa_die__is_record(tag) && scope)
			strbuf_addf(&sb, "%s::", scope);
	}
	free(scopes);
	strbuf_addstr(&sb, name);
	return strbuf_detach(&sb, NULL);
}

/* A base class's member name, "(base lf::Stats)": C++ gives it none */
static void fa_die__base_name(Dwarf_Die *real, struct strbuf *sb)
{
	char *name = fa_die__cxx_name(real);

	strbuf_addf(sb, "(base %s)", name ?: "?");
	free(name);
}

/*
 * The bases of a C++ record as its head declares them, " : public Stats",
 * with the names DWARF gives them, as pahole prints them
 */
static int fa_die__bases(Dwarf_Die *record, struct strbuf *sb)
{
	u8 def = dwarf_tag(record) == DW_TAG_class_type ? DW_ACCESS_private : DW_ACCESS_public;
	Dwarf_Die child, type;
	int n = 0;

	if (dwarf_child(record, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_inheritance || !fa_die__type(&child, &type))
			continue;
		strbuf_addf(sb, "%s %s%s %s", n++ ? "," : " :",
			    dwarf_hasattr(&child, DW_AT_virtuality) ? "virtual " : "",
			    fa_member_access__name(fa_die__access(&child, def)),
			    dwarf_diename(&type) ?: "?");
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

/*
 * A named class of the user's (not the library's, not a lambda's closure):
 * held by value in another, it is analysed as itself too
 */
static bool fa_die__user_class(Dwarf_Die *real)
{
	const char *name = dwarf_diename(real);

	return name && !strstarts(name, "<lambda") && !fa_die__in_std(real);
}

/*
 * Whether a template argument of @record is a user's record (std::vector<Foo>
 * holds the user's Foo) other than a lambda's closure (a std::thread's state
 * runs the user's lambda but is the library's)
 */
static bool fa_die__user_args(Dwarf_Die *record)
{
	Dwarf_Die child, type;

	if (dwarf_child(record, &child))
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_template_type_parameter &&
		    fa_die__type(&child, &type) && die_get_real_type(&child, &type) &&
		    fa_die__is_record(dwarf_tag(&type)) && fa_die__user_class(&type))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * A type of the C++ standard library that holds none of the user's types,
 * or one a system header declares (libc's struct timespec on main's
 * stack): its layout is not the user's to change
 */
static bool fa_die__std_lib(Dwarf_Die *record)
{
	const char *file;

	if (fa_die__in_std(record))
		return !fa_die__user_args(record);
	file = dwarf_decl_file(record);
	return file && strstarts(file, "/usr/include/");
}

/*
 * The header of a type declared in an arch's asm headers or a uapi header,
 * else NULL: assembly (asm-offsets) or user space has its offsets, and its
 * layout is not the report's to change (struct pt_regs)
 */
static char *fa_die__abi_decl(Dwarf_Die *record)
{
	const char *file = dwarf_decl_file(record);
	bool arch, uapi;

	if (!file)
		return NULL;
	/* a kernel's DWARF names them from its tree: "./arch/x86/include/asm/ptrace.h" */
	arch = (strstr(file, "/arch/") || strstarts(file, "arch/")) && strstr(file, "/include/asm/");
	uapi = strstr(file, "/include/uapi/") || strstarts(file, "include/uapi/");
	return arch || uapi ? strdup(file) : NULL;
}

/*
 * A C++ standard library type that is one value to its user, whose
 * members are the library's: a std::atomic<int> member is the counter, not
 * its _M_i, a std::string the name, not its _M_dataplus._M_p.  Those that
 * hold the user's values by value (std::array, std::pair, ...) are walked
 * into: a user's elements are in them.
 */
static bool fa_die__std_value(Dwarf_Die *real)
{
	static const char * const holders[] = {
		"array<", "pair<", "tuple<", "optional<", "variant<", "_Head_base<",
		"_Tuple_impl<", "_Optional_base<", "_Optional_payload<",
	};
	const char *name;

	if (!fa_die__is_record(dwarf_tag(real)))
		return false;
	name = dwarf_diename(real);
	if (!name)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(holders); i++) {
		if (strstarts(name, holders[i]))
			return false;
	}
	return fa_die__in_std(real);
}

/*
 * A record that holds no data: no members, bases that hold none
 * (std::allocator, a comparator, a tag): a member of its type, even at
 * another's offset ([[no_unique_address]]), is never what code accesses
 */
static bool fa_die__empty_record(Dwarf_Die *real, int depth)
{
	Dwarf_Die child, base;

	if (!fa_die__is_record(dwarf_tag(real)) || dwarf_child(real, &child))
		return fa_die__is_record(dwarf_tag(real));
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_member && !dwarf_hasattr(&child, DW_AT_external))
			return false;
		if (tag == DW_TAG_inheritance &&
		    (depth >= FA_MAX_DEPTH || !die_get_real_type(&child, &base) ||
		     !fa_die__empty_record(&base, depth + 1)))
			return false;
	} while (dwarf_siblingof(&child, &child) == 0);
	return true;
}

/*
 * A member as data-type profiling finds it (@m, its name, offset and nested
 * members), with its type, alignment and bits from its DIE (@member);
 * @base is the offset of the record it is in.
 */
static int fa_walk__member(struct fa_walk *w, struct annotated_member *m, Dwarf_Die *member,
			   u32 base, const char *prefix, int parent, int depth)
{
	const char *name = dwarf_diename(member);
	struct fa_field f = { .parent = parent, .depth = depth, .group = -1, };
	struct strbuf path, pre, post, c_pre, c_type;
	Dwarf_Word size = 0;
	Dwarf_Die type, real;
	bool is_base = dwarf_tag(member) == DW_TAG_inheritance;
	bool anon = !name && !is_base, c_funcptr = false;
	int err;

	if (!fa_die__type(member, &type) || !die_get_real_type(member, &real))
		return 0;
	if (dwarf_aggregate_size(&type, &size))
		size = 0;
	strbuf_init(&path, 64);
	strbuf_init(&pre, 64);
	strbuf_init(&post, 16);
	strbuf_init(&c_pre, 64);
	strbuf_init(&c_type, 0);
	strbuf_addstr(&path, prefix);
	if (name)
		strbuf_addstr(&path, name);
	else if (is_base)
		fa_die__base_name(&real, &path);
	else if (dwarf_tag(&real) == DW_TAG_union_type || fa_die__anon_record(&real))
		fa_die__anon_name(&real, &path);
	fa_pahole__member_type(&type, &pre, &post, &f.funcptr, &f.type_prefix);
	/* C spells qualified pointers otherwise: "const struct cred *" */
	fa_die__decl(&type, &c_pre, &c_type, &c_funcptr, 0);
	strbuf_setlen(&c_type, 0);
	if (strcmp(sb_str(&pre), sb_str(&c_pre)))
		f.c_type = (char *)sb_str(&c_pre);
	if (fa_die__anon_record(&type)) {
		fa_die__record_c(&type, &c_type, 1, depth);
		f.c_type = (char *)sb_str(&c_type);
		err = fa_pahole__nest(&type, &f.nest, &f.nr_nest);
		if (err)
			goto out;
	}
	f.type_padding = fa_pahole__padding(&type);

	if (w->st->cxx && !depth) {
		f.cxx_decl = fa_die__cxx_decl(member);
		f.access = fa_die__access(member, w->access);
	}
	f.anon = anon;
	f.base = is_base;
	f.name = (char *)sb_str(&path);
	f.type = (char *)sb_str(&pre);
	f.suffix = (char *)sb_str(&post);
	f.offset = m->offset;
	f.size = size;
	f.kind = fa_die__std_value(&real) ? FA_FIELD_SCALAR : fa_type__kind(&real, size);
	f.align = fa_die__explicit_align(member);
	f.forced_align = f.align != 0;
	if (!f.align)
		f.align = w->packed ? 1 : fa_die__align(&type, 0);
	f.leaf = f.kind != FA_FIELD_STRUCT && !fa_die__empty_record(&real, 0);
	if (dwarf_hasattr(member, DW_AT_bit_size)) {
		/* in its storage unit, not at the byte of its first bit */
		f.kind = FA_FIELD_BITFIELD;
		f.leaf = false;
		f.offset = base;
		fa_member__bits(member, size, &f);
	}
	if (w->st->cxx && !depth && f.kind == FA_FIELD_STRUCT && fa_die__user_class(&real))
		f.type_die = dwarf_dieoffset(&real);
	err = fa_struct__add_field(w->st, &f);
	if (!err && f.kind == FA_FIELD_STRUCT && depth < FA_MAX_DEPTH) {
		/* members of an anonymous struct or a base are named as the enclosing ones */
		if (!anon && !is_base)
			strbuf_addch(&path, '.');
		err = fa_walk__record(w, m, anon || is_base ? prefix : sb_str(&path),
				      w->st->nr_fields - 1, depth + 1);
	}
out:
	free(f.cxx_decl);
	strbuf_release(&path);
	strbuf_release(&pre);
	strbuf_release(&post);
	strbuf_release(&c_pre);
	strbuf_release(&c_type);
	return err;
}

static int fa_walk__record(struct fa_walk *w, struct annotated_member *record,
			   const char *prefix, int parent, int depth)
{
	struct annotated_member *m;
	Dwarf_Die die;
	int err = 0;

	list_for_each_entry(m, &record->children, node) {
		if (!dwarf_offdie(w->dbg, m->die_offset, &die))
			return -EINVAL;
		err = fa_walk__member(w, m, &die, record->offset, prefix, parent, depth);
		if (err)
			break;
	}
	return err;
}

/*
 * An array of no elements is "[]" as the struct's last member, "[0]"
 * anywhere else, as pahole prints it and as C allows it.
 */
static int fa_struct__zero_arrays(struct fa_struct *st)
{
	int last = -1;

	for (int i = 0; i < st->nr_fields; i++)
		last = st->fields[i].depth ? last : i;
	for (int i = 0; i < st->nr_fields; i++) {
		struct fa_field *f = &st->fields[i];
		const char *want = i == last ? "[]" : "[0]";

		if (f->depth || (strcmp(f->suffix, "[]") && strcmp(f->suffix, "[0]")) ||
		    !strcmp(f->suffix, want))
			continue;
		free(f->suffix);
		f->suffix = strdup(want);
		if (!f->suffix)
			return -ENOMEM;
	}
	return 0;
}

/*
 * C++ names a class or struct without a keyword ("Derived", "ns::Derived"),
 * as C names a typedef: the DIE is named without the namespaces, which
 * the search walks into.
 */
static bool fa_struct__find_dwarf(Dwarf *dbg, struct fa_type_query *q, Dwarf_Die *die)
{
	static const int tags[] = { DW_TAG_structure_type, DW_TAG_union_type, };
	/* an anonymous struct: only its DIE tells which, not a walk of them all */
	if (!*q->name)
		return false;
	if (fa_dwarf__find_type(dbg, q, die))
		return true;
	if (q->tag)
		return false;
	q->name = fa_type_name__last(q->name);
	for (size_t i = 0; i < ARRAY_SIZE(tags); i++) {
		q->tag = tags[i];
		if (fa_dwarf__find_type(dbg, q, die))
			return true;
	}
	return false;
}

enum fa_die_found {
	FA_DIE_UNKNOWN,		/* not known there: search by name */
	FA_DIE_RECORD,		/* the struct, union or class asked for */
	FA_DIE_OTHER,		/* a type of that size, but no record */
};

/*
 * What is at the DIE data-type profiling found the type at.  It may be of
 * another file (a dwz alternate debug info file): only a type of the size
 * asked for is taken.
 */
static enum fa_die_found fa_die__at_offset(Dwarf *dbg, u64 offset,
					   const struct fa_type_query *q, Dwarf_Die *die)
{
	size_t len = strlen(q->name);
	Dwarf_Die found;
	Dwarf_Word size;

	if (!offset || !q->size || !dwarf_offdie(dbg, offset, &found) ||
	    dwarf_hasattr(&found, DW_AT_declaration))
		return FA_DIE_UNKNOWN;
	/* an array of no bound ("uint8_t[]") has no size of its own */
	if (dwarf_tag(&found) == DW_TAG_array_type && len && q->name[len - 1] == ']')
		return FA_DIE_OTHER;
	if (dwarf_aggregate_size(&found, &size) || size != q->size)
		return FA_DIE_UNKNOWN;
	/* "struct foo *", "long int", an enum: no record to search for */
	if (!fa_die__is_record(dwarf_tag(&found)))
		return FA_DIE_OTHER;
	/* a typedef name: the offset is of the record it names */
	if (q->tag && !fa_die__matches(&found, q, die))
		return FA_DIE_UNKNOWN;
	*die = found;
	return FA_DIE_RECORD;
}

/* The name of a typedef at the top of @record's compilation unit that names it */
static const char *fa_die__typedef_of(Dwarf_Die *record)
{
	Dwarf_Off off = dwarf_dieoffset(record);
	Dwarf_Die cu, child, type;
	Dwarf_Attribute attr;

	if (!dwarf_diecu(record, &cu, NULL, NULL) || dwarf_child(&cu, &child))
		return NULL;
	do {
		if (dwarf_tag(&child) == DW_TAG_typedef &&
		    dwarf_attr_integrate(&child, DW_AT_type, &attr) &&
		    dwarf_formref_die(&attr, &type) && dwarf_dieoffset(&type) == off)
			return dwarf_diename(&child);
	} while (dwarf_siblingof(&child, &child) == 0);
	return NULL;
}

/*
 * How the C definition of a type starts: the record's own name, or the
 * typedef for an anonymous record, when it was found by a typedef name;
 * and the typedef name that the definition declares too, if any, so that
 * --emit-c replaces 'typedef struct x {...} y;' as well as 'struct x {...};'
 * (where a separate 'typedef struct x y;' then declares y again, as C11
 * allows).
 */
static int fa_struct__c_open(struct fa_struct *st, Dwarf_Die *record, const char *type_name)
{
	const char *name = dwarf_diename(record);
	const char *kw = dwarf_tag(record) == DW_TAG_union_type ? "union" :
			 dwarf_tag(record) == DW_TAG_class_type ? "class" : "struct";
	bool by_typedef = !strchr(type_name, ' ') && !strstr(type_name, "::") &&
			  (!name || strcmp(name, type_name));
	const char *td = by_typedef ? type_name : NULL;

	if (!td && name && dwarf_tag(record) != DW_TAG_class_type)
		td = fa_die__typedef_of(record);
	/* a C++ class is named without its keyword, which pahole prints, and its bases */
	if (!by_typedef && name && st->cxx) {
		struct strbuf sb;

		strbuf_init(&sb, 64);
		strbuf_addf(&sb, "%s %s", kw, name);
		if (fa_die__bases(record, &sb) || dwarf_tag(record) == DW_TAG_class_type) {
			strbuf_addstr(&sb, " {");
			st->c_open = strbuf_detach(&sb, NULL);
			return st->c_open ? 0 : -ENOMEM;
		}
		strbuf_release(&sb);
	}
	if (td) {
		st->c_typedef = strdup(td);
		if (!st->c_typedef)
			return -ENOMEM;
	}
	if (!by_typedef)
		return 0;
	if (name ? asprintf(&st->c_open, "%s %s {", kw, name) < 0 :
		   asprintf(&st->c_open, "typedef %s {", kw) < 0) {
		st->c_open = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * fa_struct__from_dwarf - The fields of a struct, union or class
 * @dbg: Debug info to search
 * @type_name: "struct foo", "union foo", "class foo", or a typedef name
 * @size: Its size, to tell definitions of the same name apart
 * @die_offset: Where its DIE is in @dbg when known (else 0): then no
 *              compilation unit needs to be searched for it
 *
 * Return: the finished struct, or NULL if there is no such type.
 */
struct fa_struct *fa_struct__from_dwarf(Dwarf *dbg, const char *type_name, u32 size,
					u64 die_offset)
{
	return fa_struct__from_members(dbg, type_name, size, die_offset, NULL);
}

/*
 * The same, with the members data-type profiling built for the type
 * (annotated_data_type::self), if it did: they are not built again.
 */
struct fa_struct *fa_struct__from_members(Dwarf *dbg, const char *type_name, u32 size,
					  u64 die_offset, struct annotated_member *members)
{
	static const struct { const char *prefix; int tag; } kinds[] = {
		{ "struct ", DW_TAG_structure_type },
		{ "union ", DW_TAG_union_type },
		{ "class ", DW_TAG_class_type },
	};
	struct fa_type_query q = { .name = type_name, .size = size, };
	struct annotated_member self = { .offset = 0, };
	struct fa_walk w = { .dbg = dbg, };
	Dwarf_Die die;
	bool failed;

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (!strncmp(type_name, kinds[i].prefix, strlen(kinds[i].prefix))) {
			q.tag = kinds[i].tag;
			q.name = type_name + strlen(kinds[i].prefix);
		}
	}
	switch (fa_die__at_offset(dbg, die_offset, &q, &die)) {
	case FA_DIE_RECORD:
		pr_debug2("perf affinity: %s from its DIE at %#" PRIx64 "\n", type_name, die_offset);
		break;
	case FA_DIE_OTHER:
		return NULL;
	case FA_DIE_UNKNOWN:
	default:
		/* @members are those of the DIE at @die_offset, not of this one */
		members = NULL;
		if (fa_struct__find_dwarf(dbg, &q, &die))
			break;
		/* an anonymous one is not searched for: no name to say it was missed by */
		if (*q.name)
			pr_debug("perf affinity: no DWARF type %s of size %u\n", type_name, size);
		else
			pr_debug2("perf affinity: %s of size %u: anonymous, not at the DIE given\n",
				  type_name, size);
		return NULL;
	}
	w.packed = fa_die__packed(&die);
	w.st = fa_struct__new(type_name, size ?: (u32)dwarf_bytesize(&die),
			      w.packed ? 1 : fa_die__align(&die, 0));
	if (!w.st)
		return NULL;
	w.st->packed = w.packed;
	w.st->forced_align = !w.packed && fa_die__explicit_align(&die);
	w.st->std_lib = fa_die__std_lib(&die);
	w.st->abi_decl = fa_die__abi_decl(&die);
	w.st->cxx = fa_die__cxx(&die);
	if (w.st->cxx) {
		w.st->cxx_open = fa_die__cxx_open(&die);
		w.st->cxx_line_name = fa_die__cxx_line_name(&die);
		w.st->cxx_name = fa_die__cxx_name(&die);
	}
	w.access = dwarf_tag(&die) == DW_TAG_class_type ? DW_ACCESS_private : DW_ACCESS_public;
	w.st->die_offset = dwarf_dieoffset(&die);
	/* the members as data-type profiling has them */
	INIT_LIST_HEAD(&self.children);
	if (!members || list_empty(&members->children))
		members = &self;
	failed = fa_struct__c_open(w.st, &die, type_name) ||
		 (members == &self && annotated_member__add_children(&self, &die)) ||
		 fa_walk__record(&w, members, "", -1, 0) ||
		 fa_struct__zero_arrays(w.st) || fa_struct__finish(w.st);
	annotated_member__delete_children(&self);
	if (failed) {
		fa_struct__delete(w.st);
		return NULL;
	}
	return w.st;
}

/**
 * fa_struct__from_dwarf_named - A type named as pahole -C names it: "rq"
 * is struct rq, else a typedef or union of that name; "struct rq" is taken
 * as it is
 *
 * Return: the finished struct, or NULL if there is no such type.
 */
struct fa_struct *fa_struct__from_dwarf_named(Dwarf *dbg, const char *name)
{
	static const char * const kinds[] = { "struct ", "", "union " };
	struct fa_struct *st = NULL;
	char buf[256];

	if (strchr(name, ' '))
		return fa_struct__from_dwarf(dbg, name, 0, 0);
	for (size_t i = 0; !st && i < ARRAY_SIZE(kinds); i++) {
		scnprintf(buf, sizeof(buf), "%s%s", kinds[i], name);
		st = fa_struct__from_dwarf(dbg, buf, 0, 0);
	}
	return st;
}
