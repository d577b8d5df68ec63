// SPDX-License-Identifier: GPL-2.0
/*
 * The declaration of a C++ data member as its source spells it: what
 * --emit-c prints for a C++ class.  DWARF has neither the namespaces of a
 * member's type as the code spells them (std::string) nor its default
 * member initializer ('= 1000', '{0}'), which a class whose members are
 * pasted back must keep.  The line DW_AT_decl_line names is taken when it
 * holds that member alone, whole; else the caller prints what DWARF says.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "fields.h"
#include "fields-int.h"

/* Line @lineno of file @path, without its newline, or NULL */
static char *fa_file__line(const char *path, int lineno)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t size = 0;
	ssize_t len = -1;

	if (!fp)
		return NULL;
	for (int i = 0; i < lineno && (len = getline(&line, &size, fp)) >= 0; i++)
		;
	fclose(fp);
	if (len < 0) {
		free(line);
		return NULL;
	}
	line[strcspn(line, "\n")] = '\0';
	return line;
}

/* Whether @c can be in an identifier */
static bool fa_ident__char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether @name is in @s as a whole identifier */
static bool fa_decl__names(const char *s, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = strstr(s, name); p; p = strstr(p + 1, name)) {
		bool before = p > s && fa_ident__char(p[-1]);
		bool after = fa_ident__char(p[len]);

		if (!before && !after)
			return true;
	}
	return false;
}

/*
 * The declaration in @text, up to its ';', if it is one declarator whole:
 * no ',' outside brackets, no second statement, no access specifier.
 * Cut at the ';' in place; NULL if it is not so.
 */
static char *fa_decl__one(char *text)
{
	int depth = 0;
	char *p;

	text = skip_spaces(text);
	if (strstarts(text, "public:") || strstarts(text, "private:") ||
	    strstarts(text, "protected:") || strstarts(text, "static "))
		return NULL;
	for (p = text; *p; p++) {
		if (strchr("<([{", *p))
			depth++;
		else if (strchr(">)]}", *p))
			depth--;
		else if (*p == ',' && !depth)
			return NULL;
		else if (*p == ';' && !depth)
			break;
		else if (p[0] == '/' && (p[1] == '/' || p[1] == '*'))
			return NULL;
	}
	/* after it, nothing but a comment */
	if (*p != ';' || (*skip_spaces(p + 1) && !strstarts(skip_spaces(p + 1), "//") &&
			  !strstarts(skip_spaces(p + 1), "/*")))
		return NULL;
	*p = '\0';
	return text;
}

/*
 * The source path of @member's declaration: DW_AT_decl_file, under the
 * compilation directory when it is relative
 */
static char *fa_die__decl_path(Dwarf_Die *member)
{
	const char *file = dwarf_decl_file(member);
	Dwarf_Attribute attr;
	const char *dir;
	Dwarf_Die cu;
	char *path;

	if (!file)
		return NULL;
	if (file[0] == '/')
		return strdup(file);
	if (!dwarf_diecu(member, &cu, NULL, NULL) || !dwarf_attr(&cu, DW_AT_comp_dir, &attr))
		return NULL;
	dir = dwarf_formstring(&attr);
	if (!dir)
		return NULL;
	return asprintf(&path, "%s/%s", dir, file) < 0 ? NULL : path;
}

/**
 * fa_die__cxx_decl - @member's declaration as its source line spells it,
 * without the ';'
 *
 * Return: an allocated string, or NULL when the source is not at hand or
 * its line is not that member alone.
 */
char *fa_die__cxx_decl(Dwarf_Die *member)
{
	const char *name = dwarf_diename(member);
	char *path = name ? fa_die__decl_path(member) : NULL;
	char *line = NULL, *decl = NULL;
	int lineno;

	if (path && !dwarf_decl_line(member, &lineno))
		line = fa_file__line(path, lineno);
	if (line) {
		decl = fa_decl__one(line);
		decl = decl && fa_decl__names(decl, name) ? strdup(decl) : NULL;
	}
	free(line);
	free(path);
	return decl;
}

/**
 * fa_die__cxx_open - How @record's definition opens in its source, up to its
 * '{': "template <typename T>\nclass Meter" for an instantiation DWARF names
 * "Meter<long int>", "struct Derived : public Base" with its bases
 *
 * Return: an allocated string, or NULL when the source is not at hand or
 * its line does not open that class.
 */
char *fa_die__cxx_open(Dwarf_Die *record)
{
	const char *name = dwarf_diename(record);
	char *path = name ? fa_die__decl_path(record) : NULL;
	char *bare = name ? strndup(name, strcspn(name, "<")) : NULL;
	char *line = NULL, *prev = NULL, *head = NULL, *open = NULL;
	int lineno;

	if (path && bare && !dwarf_decl_line(record, &lineno) && lineno > 1) {
		line = fa_file__line(path, lineno);
		prev = fa_file__line(path, lineno - 1);
	}
	if (line && prev) {
		head = skip_spaces(line);
		head[strcspn(head, "{")] = '\0';
		strim(head);
	}
	if (head && (strstarts(head, "class ") || strstarts(head, "struct ")) &&
	    fa_decl__names(head, bare)) {
		char *tmpl = strim(prev);

		/* a template's header is the line before, whole */
		if (strstarts(tmpl, "template") && tmpl[strlen(tmpl) - 1] == '>')
			open = asprintf(&open, "%s\n%s", tmpl, head) < 0 ? NULL : open;
		else
			open = strdup(head);
	}
	free(line);
	free(prev);
	free(bare);
	free(path);
	return open;
}

/* The identifier that ends right before @end in @text, or NULL */
static char *fa_decl__name_before(const char *text, const char *end)
{
	const char *start = end;

	while (start > text && fa_ident__char(start[-1]))
		start--;
	return start < end && !isdigit((unsigned char)*start) ? strndup(start, end - start) : NULL;
}

/*
 * The name @text gives std::hardware_destructive_interference_size in its
 * first 'NAME = std::hardware_destructive_interference_size', or NULL
 */
static char *fa_decl__line_name(const char *text)
{
	static const char std_name[] = "std::hardware_destructive_interference_size";
	size_t len = sizeof(std_name) - 1;

	for (const char *p = strstr(text, std_name); p; p = strstr(p + len, std_name)) {
		const char *end = p;

		if (fa_ident__char(p[len]))
			continue;
		while (end > text && isspace((unsigned char)end[-1]))
			end--;
		if (end == text || end[-1] != '=')
			continue;
		for (end--; end > text && isspace((unsigned char)end[-1]);)
			end--;
		return fa_decl__name_before(text, end);
	}
	return NULL;
}

/**
 * fa_die__cxx_line_name - The name @record's source file gives the
 * destructive interference size ('static constexpr size_t kCacheLineSize =
 * std::hardware_destructive_interference_size;'), which --emit-c aligns
 * to where the code does: the first such definition in the file
 *
 * Return: an allocated string, or NULL when the file has none.
 */
char *fa_die__cxx_line_name(Dwarf_Die *record)
{
	char *path = dwarf_diename(record) ? fa_die__decl_path(record) : NULL;
	FILE *fp = path ? fopen(path, "r") : NULL;
	char *text = NULL, *name = NULL;
	size_t size = 0;

	/* the whole file: the definition may break its line after the '=' */
	if (fp && getdelim(&text, &size, '\0', fp) > 0)
		name = fa_decl__line_name(text);
	if (fp)
		fclose(fp);
	free(text);
	free(path);
	return name;
}

/* The access of @member in its record (DW_ACCESS_*): DWARF says it when not @def */
u8 fa_die__access(Dwarf_Die *member, u8 def)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (dwarf_attr(member, DW_AT_accessibility, &attr) && !dwarf_formudata(&attr, &v))
		return v;
	return def;
}
