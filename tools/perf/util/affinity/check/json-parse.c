// SPDX-License-Identifier: GPL-2.0
/* A JSON document read back into memory (json-parse.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "json-parse.h"

struct fa_jv_parser {
	const char	*text;
	const char	*p;
	char		*err;
	size_t		 err_size;
};

/* Where the text is wrong, as a line number, and what was expected there */
static int fa_jv_parser__error(struct fa_jv_parser *ps, const char *what)
{
	int line = 1;

	for (const char *q = ps->text; q < ps->p; q++)
		line += *q == '\n';
	scnprintf(ps->err, ps->err_size, "line %d: %s", line, what);
	return -EINVAL;
}

static void fa_jv_parser__space(struct fa_jv_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static bool fa_jv_parser__word(struct fa_jv_parser *ps, const char *word)
{
	size_t len = strlen(word);

	if (strncmp(ps->p, word, len))
		return false;
	ps->p += len;
	return true;
}

static int hex4(const char *p)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		int c = p[i], d = c >= '0' && c <= '9' ? c - '0' :
				  c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				  c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* A \u escape (a surrogate pair whole) as UTF-8 at @out: its length, or -1 */
static int fa_jv_parser__unicode(struct fa_jv_parser *ps, char *out)
{
	int c = hex4(ps->p + 2), n = 0;

	if (c < 0)
		return -1;
	ps->p += 6;
	if (c >= 0xd800 && c < 0xdc00) {
		int lo = ps->p[0] == '\\' && ps->p[1] == 'u' ? hex4(ps->p + 2) : -1;

		if (lo < 0xdc00 || lo >= 0xe000)
			return -1;
		c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
		ps->p += 6;
	}
	if (c < 0x80) {
		out[n++] = c;
	} else if (c < 0x800) {
		out[n++] = 0xc0 | c >> 6;
		out[n++] = 0x80 | (c & 0x3f);
	} else if (c < 0x10000) {
		out[n++] = 0xe0 | c >> 12;
		out[n++] = 0x80 | ((c >> 6) & 0x3f);
		out[n++] = 0x80 | (c & 0x3f);
	} else {
		out[n++] = 0xf0 | c >> 18;
		out[n++] = 0x80 | ((c >> 12) & 0x3f);
		out[n++] = 0x80 | ((c >> 6) & 0x3f);
		out[n++] = 0x80 | (c & 0x3f);
	}
	return n;
}

/* A string at ps->p (its opening quote): no longer decoded than written */
static int fa_jv_parser__string(struct fa_jv_parser *ps, char **str)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	const char *end = ps->p + 1;
	char *out;
	size_t n = 0;

	while (*end && *end != '"')
		end += *end == '\\' && end[1] ? 2 : 1;
	if (*end != '"')
		return fa_jv_parser__error(ps, "a string does not end");
	out = malloc(end - ps->p + 1);
	if (!out)
		return -ENOMEM;
	ps->p++;
	while (*ps->p != '"') {
		const char *e;
		int len;

		if ((unsigned char)*ps->p < 0x20) {
			free(out);
			return fa_jv_parser__error(ps, "a control character in a string");
		}
		if (*ps->p != '\\') {
			out[n++] = *ps->p++;
			continue;
		}
		e = ps->p[1] ? strchr(esc, ps->p[1]) : NULL;
		if (e && (e - esc) % 2 == 0) {
			out[n++] = e[1];
			ps->p += 2;
			continue;
		}
		len = ps->p[1] == 'u' ? fa_jv_parser__unicode(ps, out + n) : -1;
		if (len < 0) {
			free(out);
			return fa_jv_parser__error(ps, "a bad escape in a string");
		}
		n += len;
	}
	ps->p++;
	out[n] = '\0';
	*str = out;
	return 0;
}

static int fa_jv_parser__value(struct fa_jv_parser *ps, struct fa_jv *v, int depth);

/* One more element or member, in the array @items of @v */
static struct fa_jv *fa_jv__grow(struct fa_jv *v)
{
	struct fa_jv *items = realloc(v->items, (v->nr + 1) * sizeof(*items));

	if (!items)
		return NULL;
	v->items = items;
	memset(&items[v->nr], 0, sizeof(*items));
	return &items[v->nr];
}

static int fa_jv_parser__member(struct fa_jv_parser *ps, struct fa_jv *v, int depth)
{
	char **keys, *key;
	struct fa_jv *item;
	int err;

	fa_jv_parser__space(ps);
	if (*ps->p != '"')
		return fa_jv_parser__error(ps, "expected a member name");
	err = fa_jv_parser__string(ps, &key);
	if (err)
		return err;
	keys = realloc(v->keys, (v->nr + 1) * sizeof(*keys));
	item = keys ? (v->keys = keys, fa_jv__grow(v)) : NULL;
	if (!item) {
		free(key);
		return -ENOMEM;
	}
	v->keys[v->nr] = key;
	fa_jv_parser__space(ps);
	if (*ps->p++ != ':') {
		ps->p--;
		v->nr++;
		return fa_jv_parser__error(ps, "expected ':'");
	}
	err = fa_jv_parser__value(ps, item, depth + 1);
	v->nr++;
	return err;
}

/* An array or an object, its opening bracket at ps->p */
static int fa_jv_parser__container(struct fa_jv_parser *ps, struct fa_jv *v, int depth)
{
	char close = *ps->p == '[' ? ']' : '}';
	int err = 0;

	v->type = close == ']' ? FA_JV_ARRAY : FA_JV_OBJECT;
	ps->p++;
	fa_jv_parser__space(ps);
	if (*ps->p == close) {
		ps->p++;
		return 0;
	}
	while (!err) {
		if (v->type == FA_JV_OBJECT) {
			err = fa_jv_parser__member(ps, v, depth);
		} else {
			struct fa_jv *item = fa_jv__grow(v);

			err = item ? fa_jv_parser__value(ps, item, depth + 1) : -ENOMEM;
			v->nr += item != NULL;
		}
		if (err)
			break;
		fa_jv_parser__space(ps);
		if (*ps->p == close) {
			ps->p++;
			return 0;
		}
		if (*ps->p++ != ',') {
			ps->p--;
			err = fa_jv_parser__error(ps, close == ']' ? "expected ',' or ']'" :
							  "expected ',' or '}'");
		}
	}
	return err;
}

static int fa_jv_parser__number(struct fa_jv_parser *ps, struct fa_jv *v)
{
	char *end;

	v->type = FA_JV_NUMBER;
	v->num = strtod(ps->p, &end);
	if (end == ps->p || !(*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')))
		return fa_jv_parser__error(ps, "expected a value");
	ps->p = end;
	return 0;
}

static int fa_jv_parser__value(struct fa_jv_parser *ps, struct fa_jv *v, int depth)
{
	if (depth > FA_JV_MAX_DEPTH)
		return fa_jv_parser__error(ps, "nested too deep");
	fa_jv_parser__space(ps);
	switch (*ps->p) {
	case '{':
	case '[':
		return fa_jv_parser__container(ps, v, depth);
	case '"':
		v->type = FA_JV_STRING;
		return fa_jv_parser__string(ps, &v->str);
	case 't':
	case 'f':
		v->type = FA_JV_BOOL;
		v->b = *ps->p == 't';
		if (fa_jv_parser__word(ps, v->b ? "true" : "false"))
			return 0;
		break;
	case 'n':
		v->type = FA_JV_NULL;
		if (fa_jv_parser__word(ps, "null"))
			return 0;
		break;
	default:
		return fa_jv_parser__number(ps, v);
	}
	return fa_jv_parser__error(ps, "expected a value");
}

/**
 * fa_jv__parse - Read the JSON document @text into @v
 * @err: Gets what is wrong, and where, when it is not JSON
 *
 * Return: 0, -EINVAL if @text is not one JSON value, or -ENOMEM.  @v is to
 * be freed with fa_jv__exit() in any case.
 */
int fa_jv__parse(struct fa_jv *v, const char *text, char *err, size_t err_size)
{
	struct fa_jv_parser ps = { .text = text, .p = text, .err = err, .err_size = err_size, };
	int ret;

	memset(v, 0, sizeof(*v));
	ret = fa_jv_parser__value(&ps, v, 0);
	if (ret)
		return ret;
	fa_jv_parser__space(&ps);
	return *ps.p ? fa_jv_parser__error(&ps, "more after the document") : 0;
}

void fa_jv__exit(struct fa_jv *v)
{
	for (int i = 0; i < v->nr; i++) {
		fa_jv__exit(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	zfree(&v->items);
	zfree(&v->keys);
	zfree(&v->str);
	v->nr = 0;
}

/* Member @key of @obj, or NULL if it is no object or has no such member */
const struct fa_jv *fa_jv__get(const struct fa_jv *obj, const char *key)
{
	for (int i = 0; obj && obj->type == FA_JV_OBJECT && i < obj->nr; i++) {
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	}
	return NULL;
}

/* Element @i of the array @arr if it is a @type, else NULL */
const struct fa_jv *fa_jv__at(const struct fa_jv *arr, int i, u8 type)
{
	if (!arr || arr->type != FA_JV_ARRAY || i < 0 || i >= arr->nr ||
	    arr->items[i].type != type)
		return NULL;
	return &arr->items[i];
}

/* Member @key of @obj as a number: false if there is no such number */
bool fa_jv__number(const struct fa_jv *obj, const char *key, double *num)
{
	const struct fa_jv *v = fa_jv__get(obj, key);

	if (!v || v->type != FA_JV_NUMBER)
		return false;
	*num = v->num;
	return true;
}

/* Member @key of @obj as a string, or NULL */
const char *fa_jv__string(const struct fa_jv *obj, const char *key)
{
	const struct fa_jv *v = fa_jv__get(obj, key);

	return v && v->type == FA_JV_STRING ? v->str : NULL;
}
