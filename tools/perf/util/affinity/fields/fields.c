// SPDX-License-Identifier: GPL-2.0
/* A struct's fields, leaves and layout units (see fields.h). */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "fields.h"
#include "../../debug.h"
#include "../../strbuf.h"

struct fa_struct *fa_struct__new(const char *name, u32 size, u32 align)
{
	struct fa_struct *st = zalloc(sizeof(*st));

	if (!st)
		return NULL;
	st->name = strdup(name);
	if (!st->name) {
		free(st);
		return NULL;
	}
	st->size = size;
	st->align = align ?: 1;
	return st;
}

/**
 * fa_nest__delete - Free @nr lines of an anonymous member and their text
 */
void fa_nest__delete(struct fa_nest *nest, int nr)
{
	for (int i = 0; nest && i < nr; i++) {
		free(nest[i].type);
		free(nest[i].name);
	}
	free(nest);
}

/* Whether @a and @b lay a type out alike: the same members where they were */
bool fa_struct__same_layout(const struct fa_struct *a, const struct fa_struct *b)
{
	if (!a || !b)
		return a == b;
	if (a->size != b->size || a->nr_fields != b->nr_fields)
		return false;
	for (int i = 0; i < a->nr_fields; i++) {
		const struct fa_field *fa = &a->fields[i], *fb = &b->fields[i];

		if (fa->offset != fb->offset || fa->size != fb->size ||
		    fa->bit_offset != fb->bit_offset || fa->bit_size != fb->bit_size ||
		    strcmp(fa->name ?: "", fb->name ?: ""))
			return false;
	}
	return true;
}

void fa_struct__delete(struct fa_struct *st)
{
	if (!st)
		return;
	for (int i = 0; i < st->nr_fields; i++) {
		fa_nest__delete(st->fields[i].nest, st->fields[i].nr_nest);
		zfree(&st->fields[i].name);
		zfree(&st->fields[i].type);
		zfree(&st->fields[i].suffix);
		zfree(&st->fields[i].c_type);
		zfree(&st->fields[i].cxx_decl);
	}
	zfree(&st->fields);
	zfree(&st->units);
	zfree(&st->leaves);
	zfree(&st->name);
	zfree(&st->c_open);
	zfree(&st->c_typedef);
	zfree(&st->abi_decl);
	zfree(&st->cxx_open);
	zfree(&st->cxx_name);
	zfree(&st->cxx_line_name);
	free(st);
}

/* Append a copy of @field: its strings are copied, its @nest taken (or freed on error) */
int fa_struct__add_field(struct fa_struct *st, const struct fa_field *field)
{
	struct fa_field *f;

	/* grow by doubling: structs with thousands of fields exist */
	if (!(st->nr_fields & (st->nr_fields - 1))) {
		size_t n = st->nr_fields ? st->nr_fields * 2 : 8;

		f = realloc(st->fields, n * sizeof(*f));
		if (!f) {
			fa_nest__delete(field->nest, field->nr_nest);
			return -ENOMEM;
		}
		st->fields = f;
	}
	f = &st->fields[st->nr_fields];
	*f = *field;
	f->name = strdup(field->name ?: "");
	f->type = strdup(field->type ?: "");
	f->suffix = strdup(field->suffix ?: "");
	f->c_type = field->c_type ? strdup(field->c_type) : NULL;
	f->cxx_decl = field->cxx_decl ? strdup(field->cxx_decl) : NULL;
	if (!f->name || !f->type || !f->suffix || (field->c_type && !f->c_type) ||
	    (field->cxx_decl && !f->cxx_decl)) {
		free(f->name);
		free(f->type);
		free(f->suffix);
		free(f->c_type);
		free(f->cxx_decl);
		fa_nest__delete(field->nest, field->nr_nest);
		return -ENOMEM;
	}
	if (!f->align)
		f->align = 1;
	st->nr_fields++;
	return 0;
}

static bool same_storage(const struct fa_field *a, const struct fa_field *b)
{
	return a->kind == FA_FIELD_BITFIELD && b->kind == FA_FIELD_BITFIELD &&
	       a->parent == b->parent && a->offset == b->offset && a->size == b->size;
}

/* One leaf for the bitfields [first, last] of a storage unit: their byte span. */
static int fa_struct__add_bitgroup(struct fa_struct *st, int first, int last)
{
	struct fa_field group = {
		.kind = FA_FIELD_BITGROUP,
		.parent = st->fields[first].parent,
		.depth = st->fields[first].depth,
		.align = 1,
		.leaf = true,
	};
	u32 lo = ~0U, hi = 0;
	struct strbuf sb;
	int err;

	if (strbuf_init(&sb, 64))
		return -ENOMEM;
	for (int i = first; i <= last; i++) {
		const struct fa_field *f = &st->fields[i];
		u32 bit = f->offset * 8 + f->bit_offset;

		lo = min(lo, bit / 8);
		hi = max(hi, (bit + f->bit_size + 7) / 8);
		strbuf_addf(&sb, "%s%s", i > first ? "," : "", f->name);
	}
	group.name = sb.buf;
	group.offset = lo;
	group.size = hi > lo ? hi - lo : 1;
	group.group = first;
	err = fa_struct__add_field(st, &group);
	strbuf_release(&sb);
	for (int i = first; !err && i <= last; i++)
		st->fields[i].group = st->nr_fields - 1;
	return err;
}

static int fa_struct__bitgroups(struct fa_struct *st)
{
	int nr = st->nr_fields;

	for (int i = 0; i < nr; i++) {
		int last = i;

		if (st->fields[i].kind != FA_FIELD_BITFIELD)
			continue;
		while (last + 1 < nr && same_storage(&st->fields[i], &st->fields[last + 1]))
			last++;
		if (fa_struct__add_bitgroup(st, i, last))
			return -ENOMEM;
		i = last;
	}
	return 0;
}

/* The top-level member field @i is, or is in */
int fa_field__top(const struct fa_struct *st, int i)
{
	while (st->fields[i].parent >= 0)
		i = st->fields[i].parent;
	return i;
}

/* Top-level members become units; the bitfields of a storage unit one unit. */
static int fa_struct__units(struct fa_struct *st)
{
	st->units = calloc(st->nr_fields + 1, sizeof(*st->units));
	if (!st->units)
		return -ENOMEM;
	for (int i = 0; i < st->nr_fields; i++) {
		struct fa_field *f = &st->fields[i];
		struct fa_unit *u;

		if (f->depth != 0 || f->kind == FA_FIELD_BITGROUP)
			continue;
		if (i > 0 && st->nr_units && same_storage(&st->fields[i - 1], f) &&
		    st->fields[i - 1].depth == 0) {
			st->units[st->nr_units - 1].nr_fields++;
			f->unit = st->nr_units - 1;
			continue;
		}
		u = &st->units[st->nr_units];
		u->offset = f->offset;
		u->size = f->size;
		u->align = f->align;
		u->field = i;
		u->nr_fields = 1;
		u->flex = f->kind == FA_FIELD_FLEX;
		f->unit = st->nr_units++;
	}
	for (int i = 0; i < st->nr_fields; i++) {
		struct fa_field *f = &st->fields[i];

		if (f->kind == FA_FIELD_BITGROUP)
			f->unit = st->fields[fa_field__top(st, f->group)].unit;
		else if (f->depth)
			f->unit = st->fields[fa_field__top(st, i)].unit;
	}
	return 0;
}

static const struct fa_struct *sort_st;

static int leaf_cmp(const void *a, const void *b)
{
	const struct fa_field *fa = &sort_st->fields[*(const int *)a];
	const struct fa_field *fb = &sort_st->fields[*(const int *)b];

	if (fa->offset != fb->offset)
		return fa->offset < fb->offset ? -1 : 1;
	return fa->size < fb->size ? -1 : fa->size > fb->size;
}

/**
 * fa_struct__finish - Derive the bitfield group leaves, units and the leaf
 * index once all fields are added
 */
int fa_struct__finish(struct fa_struct *st)
{
	if (fa_struct__bitgroups(st) || fa_struct__units(st))
		return -ENOMEM;
	st->leaves = calloc(st->nr_fields + 1, sizeof(int));
	if (!st->leaves)
		return -ENOMEM;
	for (int i = 0; i < st->nr_fields; i++) {
		if (st->fields[i].leaf)
			st->leaves[st->nr_leaves++] = i;
	}
	sort_st = st;
	qsort(st->leaves, st->nr_leaves, sizeof(int), leaf_cmp);
	return 0;
}

/**
 * fa_struct__embeds - Whether a struct of @size bytes can be embedded at @offset
 *
 * Return: true if a struct or union member of @st starts at @offset and
 * holds @size bytes.
 */
bool fa_struct__embeds(const struct fa_struct *st, u32 offset, u32 size)
{
	for (int i = 0; i < st->nr_fields; i++) {
		const struct fa_field *f = &st->fields[i];

		if (f->offset == offset && f->size >= size &&
		    (f->kind == FA_FIELD_STRUCT || f->kind == FA_FIELD_UNION))
			return true;
	}
	return false;
}

/**
 * fa_struct__find_leaf - The leaf an access at @offset is to
 *
 * Return: the field index of the smallest leaf containing @offset, or -1
 * (padding, or past the struct and a flexible array member it ends with).
 */
int fa_struct__find_leaf(const struct fa_struct *st, u32 offset)
{
	int lo = 0, hi = st->nr_leaves, best = -1;

	/* first leaf starting after @offset */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (st->fields[st->leaves[mid]].offset <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* leaves overlap only a little (unions are one leaf): look back a few */
	for (int i = lo - 1; i >= 0 && i >= lo - 16; i--) {
		const struct fa_field *f = &st->fields[st->leaves[i]];

		if (offset < f->offset + f->size && (best < 0 || f->size < st->fields[best].size))
			best = st->leaves[i];
	}
	if (best >= 0 || !lo)
		return best;
	/*
	 * no member holds it: the elements of a flexible array member that
	 * starts there or before, with no member between (a zero-length
	 * array that marks a group of members holds none of theirs)
	 */
	return st->fields[st->leaves[lo - 1]].kind == FA_FIELD_FLEX ? st->leaves[lo - 1] : -1;
}

/**
 * fa_struct__next_leaves - The leaves after @field that the bytes from it to
 * @end (an offset into the struct) cover too, into @more
 * @max: Room in @more
 *
 * Return: how many.
 */
int fa_struct__next_leaves(const struct fa_struct *st, int field, u32 end, int *more, int max)
{
	const struct fa_field *f = &st->fields[field];
	int n = 0;

	for (u32 off = f->offset + f->size; off < end && n < max; ) {
		int leaf = fa_struct__find_leaf(st, off);

		/* padding: on to the next byte */
		if (leaf < 0 || leaf == field || (n && leaf == more[n - 1])) {
			off++;
			continue;
		}
		more[n++] = leaf;
		off = max(off + 1, st->fields[leaf].offset + st->fields[leaf].size);
	}
	return n;
}

/* The leaves of @unit, up to @max of them, in @leaves; returns how many. */
int fa_struct__unit_leaves(const struct fa_struct *st, int unit, int *leaves, int max)
{
	int n = 0;

	for (int i = 0; i < st->nr_leaves; i++) {
		int f = st->leaves[i];

		if (st->fields[f].unit == unit) {
			if (n < max)
				leaves[n] = f;
			n++;
		}
	}
	return n;
}

/* The name of unit @u: that of its first field */
const char *fa_unit__name(const struct fa_struct *st, int u)
{
	return st->fields[st->units[u].field].name;
}

static const char * const fa_field_kind_names[] = {
	[FA_FIELD_SCALAR]	= "scalar",
	[FA_FIELD_ARRAY]	= "array",
	[FA_FIELD_UNION]	= "union",
	[FA_FIELD_STRUCT]	= "struct",
	[FA_FIELD_BITFIELD]	= "bitfield",
	[FA_FIELD_BITGROUP]	= "bitgroup",
	[FA_FIELD_FLEX]		= "flex",
};

/* enum fa_field_kind as the JSON report names it, or NULL */
const char *fa_field_kind__name(u8 kind)
{
	return kind < ARRAY_SIZE(fa_field_kind_names) ? fa_field_kind_names[kind] : NULL;
}

/* The kind named @name, or -1 */
int fa_field_kind__parse(const char *name)
{
	for (int k = 0; name && k < (int)ARRAY_SIZE(fa_field_kind_names); k++) {
		if (!strcmp(fa_field_kind_names[k], name))
			return k;
	}
	return -1;
}

/* The struct's name without "struct ": the base of names made from it */
const char *fa_struct__bare_name(const struct fa_struct *st)
{
	return strstarts(st->name, "struct ") ? st->name + 7 : st->name;
}

/* @name without its keyword: "struct rq" -> "rq", "class Foo" -> "Foo" */
static const char *fa_type_name__bare(const char *name)
{
	static const char * const kws[] = { "struct ", "union ", "class " };

	for (size_t i = 0; i < ARRAY_SIZE(kws); i++) {
		if (strstarts(name, kws[i]))
			return name + strlen(kws[i]);
	}
	return name;
}

/* The keyword of a C++ access (enum fa_member_access, DWARF's DW_ACCESS_*) */
const char *fa_member_access__name(u8 access)
{
	return access == FA_MEMBER_PRIVATE ? "private" :
	       access == FA_MEMBER_PROTECTED ? "protected" : "public";
}

/* The name of @st as its language spells it: C++'s with its scopes */
const char *fa_struct__printed_name(const struct fa_struct *st)
{
	return st->cxx_name ?: st->name;
}

/* The last component of a C++ qualified name: "ns::Queue<a::b>" -> "Queue<a::b>" */
const char *fa_type_name__last(const char *name)
{
	const char *last = name;
	int depth = 0;

	for (const char *p = name; *p; p++) {
		if (*p == '<')
			depth++;
		else if (*p == '>')
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':')
			last = p + 2;
	}
	return last;
}

/**
 * fa_type_name__matches - Whether type @name (as data-type profiling names
 * it: "struct rq", "Admission", "atomic<bool>", or C++ qualified:
 * "svc::Admission") is what a user asked for with @want: the name with or
 * without its keyword ("rq", "class Admission"), with or without its
 * namespaces (both qualified: the same ones), or a template's name
 * without its arguments ("Queue": all its instantiations)
 */
bool fa_type_name__matches(const char *name, const char *want)
{
	const char *n = fa_type_name__bare(name);
	const char *w = fa_type_name__bare(want);
	size_t len;

	if (!strcmp(name, want) || !strcmp(n, w))
		return true;
	/* one without its scopes: the names without them */
	if (fa_type_name__last(n) == n || fa_type_name__last(w) == w) {
		n = fa_type_name__last(n);
		w = fa_type_name__last(w);
		if (!strcmp(n, w))
			return true;
	}
	len = strlen(w);
	/* a template by its name: every instantiation */
	return !strchr(w, '<') && !strncmp(n, w, len) && n[len] == '<';
}

/* A -T entry: a type's name, or a regular expression its name matches */
struct fa_type_want {
	char	*name;
	regex_t	 re;
	bool	 is_re;
};

struct fa_type_filter {
	struct fa_type_want	*wants;
	int			 nr;
};

/* Characters no C or C++ type name has outside its template arguments */
static bool fa_type_want__regex(const char *s)
{
	return !strchr(s, '<') && strpbrk(s, "^$*+?[]|\\.(){}");
}

static int fa_type_filter__add(struct fa_type_filter *f, const char *s, size_t len)
{
	struct fa_type_want *w, *wants = realloc(f->wants, (f->nr + 1) * sizeof(*wants));
	char err[128];
	int ret;

	if (!wants)
		return -ENOMEM;
	f->wants = wants;
	w = &wants[f->nr];
	w->name = strndup(s, len);
	if (!w->name)
		return -ENOMEM;
	f->nr++;
	w->is_re = fa_type_want__regex(w->name);
	if (!w->is_re)
		return 0;
	ret = regcomp(&w->re, w->name, REG_EXTENDED | REG_NOSUB);
	if (!ret)
		return 0;
	w->is_re = false;
	regerror(ret, &w->re, err, sizeof(err));
	pr_err("-T '%s': not a type name nor a regular expression: %s\n", w->name, err);
	return -EINVAL;
}

/**
 * fa_type_filter__new - What -T @list asks for: names or regular expressions,
 * separated by commas outside template arguments ("Queue<int, 8>,rq")
 *
 * Return: the filter, NULL for no @list, an ERR_PTR() if one is wrong.
 */
struct fa_type_filter *fa_type_filter__new(const char *list)
{
	struct fa_type_filter *f;
	int depth = 0, err = 0;
	const char *p, *start;

	if (!list)
		return NULL;
	f = zalloc(sizeof(*f));
	if (!f)
		return ERR_PTR(-ENOMEM);
	for (p = start = list; !err; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth)
			depth--;
		if (*p && (*p != ',' || depth))
			continue;
		while (start < p && isspace(*start))
			start++;
		if (p > start)
			err = fa_type_filter__add(f, start, p - start);
		start = p + 1;
		if (!*p)
			break;
	}
	if (!err && !f->nr) {
		pr_err("-T '%s': no type named\n", list);
		err = -EINVAL;
	}
	if (err) {
		fa_type_filter__delete(f);
		return ERR_PTR(err);
	}
	return f;
}

void fa_type_filter__delete(struct fa_type_filter *f)
{
	if (IS_ERR_OR_NULL(f))
		return;
	for (int i = 0; i < f->nr; i++) {
		if (f->wants[i].is_re)
			regfree(&f->wants[i].re);
		free(f->wants[i].name);
	}
	free(f->wants);
	free(f);
}

/*
 * Whether -T's @f wants type @name: a name as fa_type_name__matches() takes
 * it, or a regular expression that matches the name with or without its
 * keyword; no filter wants every type
 */
bool fa_type_filter__wants(const struct fa_type_filter *f, const char *name)
{
	if (!f)
		return true;
	for (int i = 0; i < f->nr; i++) {
		const struct fa_type_want *w = &f->wants[i];

		if (fa_type_name__matches(name, w->name))
			return true;
		if (w->is_re && (!regexec(&w->re, name, 0, NULL, 0) ||
				 !regexec(&w->re, fa_type_name__bare(name), 0, NULL, 0)))
			return true;
	}
	return false;
}

/**
 * fa_field__short_name - @name, or its first @max - 2 characters and ".."
 * @buf: Where a cut name is made, of at least @max + 1 bytes
 *
 * A bitfield unit is named by all its members, a nested field by its path:
 * tables and labels cut them.
 */
const char *fa_field__short_name(const char *name, int max, char *buf, size_t size)
{
	if (strlen(name) <= (size_t)max)
		return name;
	scnprintf(buf, size, "%.*s..", max - 2, name);
	return buf;
}
