/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON document read into memory whole, the counterpart of
 * json-writer.h for documents perf wrote and reads back (perf affinity
 * check takes a saved report as its profile).  RFC 8259, nested at most
 * JSON_MAX_DEPTH deep; errors say what was expected and on which line.
 */
#ifndef __PERF_JSON_READER_H
#define __PERF_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define JSON_MAX_DEPTH	64

enum json_value_type {
	JSON_VALUE_NULL,
	JSON_VALUE_BOOL,
	JSON_VALUE_NUMBER,
	JSON_VALUE_STRING,
	JSON_VALUE_ARRAY,
	JSON_VALUE_OBJECT,
};

/**
 * struct json_value - A JSON value
 * @type: enum json_value_type
 * @b: A bool's value
 * @num: A number's
 * @str: A string's, NUL-terminated (a \u0000 in it ends it)
 * @nr: Elements of an array, members of an object
 * @items: Their values
 * @keys: An object's member names, in @items' order
 */
struct json_value {
	u8		 type;
	bool		 b;
	double		 num;
	char		*str;
	int		 nr;
	struct json_value	*items;
	char		**keys;
};

int json_value__parse(struct json_value *v, const char *text, char *err, size_t err_size);
void json_value__exit(struct json_value *v);
const struct json_value *json_value__get(const struct json_value *obj, const char *key);
const struct json_value *json_value__at(const struct json_value *arr, int i, u8 type);
bool json_value__number(const struct json_value *obj, const char *key, double *num);
const char *json_value__string(const struct json_value *obj, const char *key);

#endif /* __PERF_JSON_READER_H */
