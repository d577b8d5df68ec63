// SPDX-License-Identifier: GPL-2.0
/*
 * A streaming JSON writer (see json-writer.h).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "json-writer.h"

void json_writer__init(struct json_writer *j, FILE *fp)
{
	memset(j, 0, sizeof(*j));
	j->fp = fp;
}

/* The length of the valid UTF-8 sequence at @s, or 0 */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	u32 cp = s[0] & (0x7f >> n);

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	for (int i = 1; i < n; i++) {
		/* also stops at the terminating NUL */
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/**
 * json_writer__fprintf_str - Print @str as a JSON string
 *
 * Bytes that are not UTF-8 become U+FFFD: names come from debug info and
 * host names, and one bad byte must not make the whole document invalid.
 */
size_t json_writer__fprintf_str(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t printed = fprintf(fp, "\"");

	while (*s) {
		int n;

		if (*s == '"' || *s == '\\') {
			printed += fprintf(fp, "\\%c", *s++);
		} else if (*s < 0x20) {
			const char *esc = *s == '\n' ? "\\n" : *s == '\t' ? "\\t" :
					  *s == '\r' ? "\\r" : *s == '\b' ? "\\b" :
					  *s == '\f' ? "\\f" : NULL;

			printed += esc ? fprintf(fp, "%s", esc) : fprintf(fp, "\\u%04x", *s);
			s++;
		} else if (*s < 0x80) {
			printed += fprintf(fp, "%c", *s++);
		} else if (utf8_len(s)) {
			n = utf8_len(s);
			printed += fwrite(s, 1, n, fp);
			s += n;
		} else {
			printed += fprintf(fp, "\\ufffd");
			s++;
		}
	}
	return printed + fprintf(fp, "\"");
}

/* Before a value: the comma, a new line and indent or a space, the key */
static void json_writer__member(struct json_writer *j, const char *key)
{
	int d = j->depth - 1;

	if (d < 0)
		return;
	if (j->nr[d]++)
		j->printed += fprintf(j->fp, ",%s", j->flat[d] ? " " : "");
	if (!j->flat[d])
		j->printed += fprintf(j->fp, "\n%*s", 2 * j->depth, "");
	if (key) {
		j->printed += json_writer__fprintf_str(j->fp, key);
		j->printed += fprintf(j->fp, ": ");
	}
}

static void json_writer__open(struct json_writer *j, const char *key, bool flat, char c)
{
	json_writer__member(j, key);
	j->printed += fprintf(j->fp, "%c", c);
	/* deeper than that, the indentation is no longer tracked */
	if (j->depth >= JSON_WRITER_MAX_DEPTH)
		return;
	/* what is inside a one line container is on that line too */
	j->flat[j->depth] = flat || (j->depth && j->flat[j->depth - 1]);
	j->nr[j->depth++] = 0;
}

static void json_writer__close(struct json_writer *j, char c)
{
	int d = --j->depth;

	if (!j->flat[d] && j->nr[d])
		j->printed += fprintf(j->fp, "\n%*s", 2 * d, "");
	j->printed += fprintf(j->fp, "%c%s", c, d ? "" : "\n");
}

void json_writer__begin_object(struct json_writer *j, const char *key, bool flat)
{
	json_writer__open(j, key, flat, '{');
}

void json_writer__end_object(struct json_writer *j)
{
	json_writer__close(j, '}');
}

void json_writer__begin_array(struct json_writer *j, const char *key, bool flat)
{
	json_writer__open(j, key, flat, '[');
}

void json_writer__end_array(struct json_writer *j)
{
	json_writer__close(j, ']');
}

void json_writer__string(struct json_writer *j, const char *key, const char *str)
{
	if (!str) {
		json_writer__null(j, key);
		return;
	}
	json_writer__member(j, key);
	j->printed += json_writer__fprintf_str(j->fp, str);
}

void json_writer__u64(struct json_writer *j, const char *key, u64 val)
{
	json_writer__member(j, key);
	j->printed += fprintf(j->fp, "%" PRIu64, val);
}

void json_writer__int(struct json_writer *j, const char *key, int val)
{
	json_writer__member(j, key);
	j->printed += fprintf(j->fp, "%d", val);
}

/* JSON has no NaN nor infinity: those are null */
void json_writer__double(struct json_writer *j, const char *key, double val)
{
	json_writer__member(j, key);
	if (isfinite(val))
		j->printed += fprintf(j->fp, "%.10g", val);
	else
		j->printed += fprintf(j->fp, "null");
}

void json_writer__bool(struct json_writer *j, const char *key, bool val)
{
	json_writer__member(j, key);
	j->printed += fprintf(j->fp, "%s", val ? "true" : "false");
}

void json_writer__null(struct json_writer *j, const char *key)
{
	json_writer__member(j, key);
	j->printed += fprintf(j->fp, "null");
}
