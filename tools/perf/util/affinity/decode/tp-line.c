// SPDX-License-Identifier: GPL-2.0
/*
 * The access a field labelled tracepoint's line or 'op' field names: plain
 * string parsing, for decode-tp.c and the tests, with or without
 * libtraceevent.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "access.h"
#include "decode.h"

u8 fa_op__parse(const char *name)
{
	static const struct {
		const char	*name;
		u8		 op;
	} ops[] = {
		{ "read", FA_OP_LOAD }, { "access", FA_OP_LOAD }, { "load", FA_OP_LOAD },
		{ "write", FA_OP_STORE }, { "store", FA_OP_STORE },
		{ "modify", FA_OP_RMW }, { "rmw", FA_OP_RMW },
	};

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		if (!strcmp(name, ops[i].name))
			return ops[i].op;
	}
	return FA_OP_UNKNOWN;
}

static int copy_word(char *dst, size_t sz, const char *start, const char *end)
{
	size_t len = end - start;

	if (!len || len >= sz)
		return -1;
	memcpy(dst, start, len);
	dst[len] = '\0';
	return 0;
}

/**
 * fa_tp_line__parse - Parse "Accessed rq[111]->clock in update_rq_clock (modify)"
 *
 * Return: 0 and the parts, or -1 if @line is not of that form.
 */
int fa_tp_line__parse(const char *line, char *type, size_t type_sz,
		      char *field, size_t field_sz, u64 *instance, u8 *op)
{
	const char *p = strstr(line, "Accessed "), *q;
	char opname[16];
	char *end;

	if (!p)
		return -1;
	p += strlen("Accessed ");
	q = strchr(p, '[');
	if (!q || copy_word(type, type_sz, p, q))
		return -1;
	*instance = strtoull(q + 1, &end, 0);
	if (end == q + 1 || strncmp(end, "]->", 3))
		return -1;
	p = end + 3;
	q = p + strcspn(p, " (");
	if (copy_word(field, field_sz, p, q))
		return -1;
	p = strrchr(q, '(');
	q = p ? strchr(p, ')') : NULL;
	if (!q || copy_word(opname, sizeof(opname), p + 1, q))
		return -1;
	*op = fa_op__parse(opname);
	return 0;
}
