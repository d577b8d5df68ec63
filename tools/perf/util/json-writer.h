/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A streaming JSON writer: values are printed as they are given, objects
 * and arrays nested, each member on its own indented line or, for a
 * container begun 'flat', all on one line.  Strings are escaped, bytes
 * that are not UTF-8 printed as U+FFFD, NaN and infinities as null, so
 * that what names and numbers come from never makes the document invalid.
 */
#ifndef __PERF_JSON_WRITER_H
#define __PERF_JSON_WRITER_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

#define JSON_WRITER_MAX_DEPTH	16

/**
 * struct json_writer - A streaming JSON writer
 * @fp: Where it goes
 * @printed: Bytes written
 * @depth: Open objects and arrays
 * @nr: Members written so far at each depth
 * @flat: The container at each depth is written on one line
 */
struct json_writer {
	FILE	*fp;
	size_t	 printed;
	int	 depth;
	int	 nr[JSON_WRITER_MAX_DEPTH];
	bool	 flat[JSON_WRITER_MAX_DEPTH];
};

/* @key is NULL for the values of an array and for the document itself */
void json_writer__init(struct json_writer *j, FILE *fp);
void json_writer__begin_object(struct json_writer *j, const char *key, bool flat);
void json_writer__end_object(struct json_writer *j);
void json_writer__begin_array(struct json_writer *j, const char *key, bool flat);
void json_writer__end_array(struct json_writer *j);
void json_writer__string(struct json_writer *j, const char *key, const char *str);
void json_writer__u64(struct json_writer *j, const char *key, u64 val);
void json_writer__int(struct json_writer *j, const char *key, int val);
void json_writer__double(struct json_writer *j, const char *key, double val);
void json_writer__bool(struct json_writer *j, const char *key, bool val);
void json_writer__null(struct json_writer *j, const char *key);
size_t json_writer__fprintf_str(FILE *fp, const char *str);

#endif /* __PERF_JSON_WRITER_H */
