/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON document read back into memory: perf affinity check takes the
 * report's --json output as its profile.  RFC 8259, nested at most
 * FA_JV_MAX_DEPTH deep; no more is needed of it than of what json.c writes.
 */
#ifndef __PERF_AFFINITY_JSON_PARSE_H
#define __PERF_AFFINITY_JSON_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define FA_JV_MAX_DEPTH	64

enum fa_jv_type {
	FA_JV_NULL,
	FA_JV_BOOL,
	FA_JV_NUMBER,
	FA_JV_STRING,
	FA_JV_ARRAY,
	FA_JV_OBJECT,
};

/**
 * struct fa_jv - A JSON value
 * @type: enum fa_jv_type
 * @b: A bool's value
 * @num: A number's
 * @str: A string's, NUL-terminated (a \u0000 in it ends it)
 * @nr: Elements of an array, members of an object
 * @items: Their values
 * @keys: An object's member names, in @items' order
 */
struct fa_jv {
	u8		 type;
	bool		 b;
	double		 num;
	char		*str;
	int		 nr;
	struct fa_jv	*items;
	char		**keys;
};

int fa_jv__parse(struct fa_jv *v, const char *text, char *err, size_t err_size);
void fa_jv__exit(struct fa_jv *v);
const struct fa_jv *fa_jv__get(const struct fa_jv *obj, const char *key);
const struct fa_jv *fa_jv__at(const struct fa_jv *arr, int i, u8 type);
bool fa_jv__number(const struct fa_jv *obj, const char *key, double *num);
const char *fa_jv__string(const struct fa_jv *obj, const char *key);

#endif /* __PERF_AFFINITY_JSON_PARSE_H */
