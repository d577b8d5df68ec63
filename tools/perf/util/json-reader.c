// SPDX-License-Identifier: GPL-2.0
/* A JSON document read into memory (json-reader.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "json-reader.h"

struct json_reader {
	const char	*text;
	const char	*p;
	char		*err;
	size_t		 err_size;
};

/* Where the text is wrong, as a line number, and what was expected there */
static int json_reader__error(struct json_reader *ps, const char *what)
{
	int line = 1;

	for (const char *q = ps->text; q < ps->p; q++)
		line += *q == '\n';
	scnprintf(ps->err, ps->err_size, "line %d: %s", line, what);
	return -EINVAL;
}

static void json_reader__space(struct json_reader *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static bool json_reader__word(struct json_reader *ps, const char *word)
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
static int json_reader__unicode(struct json_reader *ps, char *out)
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
static int json_reader__string(struct json_reader *ps, char **str)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	const char *end = ps->p + 1;
	char *out;
	size_t n = 0;

	while (*end && *end != '"')
		end += *end == '\\' && end[1] ? 2 : 1;
	if (*end != '"')
		return json_reader__error(ps, "a string does not end");
	out = malloc(end - ps->p + 1);
	if (!out)
		return -ENOMEM;
	ps->p++;
	while (*ps->p != '"') {
		const char *e;
		int len;

		if ((unsigned char)*ps->p < 0x20) {
			free(out);
			return json_reader__error(ps, "a control character in a string");
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
		len = ps->p[1] == 'u' ? json_reader__unicode(ps, out + n) : -1;
		if (len < 0) {
			free(out);
			return json_reader__error(ps, "a bad escape in a string");
		}
		n += len;
	}
	ps->p++;
	out[n] = '\0';
	*str = out;
	return 0;
}

static int json_reader__value(struct json_reader *ps, struct json_value *v, int depth);

/* One more element or member, in the array @items of @v */
static struct json_value *json_value__grow(struct json_value *v)
{
	struct json_value *items = realloc(v->items, (v->nr + 1) * sizeof(*items));

	if (!items)
		return NULL;
	v->items = items;
	memset(&items[v->nr], 0, sizeof(*items));
	return &items[v->nr];
}

static int json_reader__member(struct json_reader *ps, struct json_value *v, int depth)
{
	char **keys, *key;
	struct json_value *item;
	int err;

	json_reader__space(ps);
	if (*ps->p != '"')
		return json_reader__error(ps, "expected a member name");
	err = json_reader__string(ps, &key);
	if (err)
		return err;
	keys = realloc(v->keys, (v->nr + 1) * sizeof(*keys));
	item = keys ? (v->keys = keys, json_value__grow(v)) : NULL;
	if (!item) {
		free(key);
		return -ENOMEM;
	}
	v->keys[v->nr] = key;
	json_reader__space(ps);
	if (*ps->p++ != ':') {
		ps->p--;
		v->nr++;
		return json_reader__error(ps, "expected ':'");
	}
	err = json_reader__value(ps, item, depth + 1);
	v->nr++;
	return err;
}

/* An array or an object, its opening bracket at ps->p */
static int json_reader__container(struct json_reader *ps, struct json_value *v, int depth)
{
	char close = *ps->p == '[' ? ']' : '}';
	int err = 0;

	v->type = close == ']' ? JSON_VALUE_ARRAY : JSON_VALUE_OBJECT;
	ps->p++;
	json_reader__space(ps);
	if (*ps->p == close) {
		ps->p++;
		return 0;
	}
	while (!err) {
		if (v->type == JSON_VALUE_OBJECT) {
			err = json_reader__member(ps, v, depth);
		} else {
			struct json_value *item = json_value__grow(v);

			err = item ? json_reader__value(ps, item, depth + 1) : -ENOMEM;
			v->nr += item != NULL;
		}
		if (err)
			break;
		json_reader__space(ps);
		if (*ps->p == close) {
			ps->p++;
			return 0;
		}
		if (*ps->p++ != ',') {
			ps->p--;
			err = json_reader__error(ps, close == ']' ? "expected ',' or ']'" :
							  "expected ',' or '}'");
		}
	}
	return err;
}

static const char *json_reader__digits(const char *p)
{
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

/*
 * Only what RFC 8259 calls a number: strtod() alone would take hex,
 * "inf", "nan", a leading '+' or zero
 */
static int json_reader__number(struct json_reader *ps, struct json_value *v)
{
	const char *p = ps->p + (*ps->p == '-'), *q;

	v->type = JSON_VALUE_NUMBER;
	q = *p == '0' ? p + 1 : json_reader__digits(p);
	if (q == p)
		return json_reader__error(ps, "expected a value");
	if (*q == '.') {
		p = q + 1;
		q = json_reader__digits(p);
		if (q == p)
			return json_reader__error(ps, "expected a digit");
	}
	if (*q == 'e' || *q == 'E') {
		p = q + 1 + (q[1] == '+' || q[1] == '-');
		q = json_reader__digits(p);
		if (q == p)
			return json_reader__error(ps, "expected a digit");
	}
	v->num = strtod(ps->p, NULL);
	ps->p = q;
	return 0;
}

static int json_reader__value(struct json_reader *ps, struct json_value *v, int depth)
{
	if (depth > JSON_MAX_DEPTH)
		return json_reader__error(ps, "nested too deep");
	json_reader__space(ps);
	switch (*ps->p) {
	case '{':
	case '[':
		return json_reader__container(ps, v, depth);
	case '"':
		v->type = JSON_VALUE_STRING;
		return json_reader__string(ps, &v->str);
	case 't':
	case 'f':
		v->type = JSON_VALUE_BOOL;
		v->b = *ps->p == 't';
		if (json_reader__word(ps, v->b ? "true" : "false"))
			return 0;
		break;
	case 'n':
		v->type = JSON_VALUE_NULL;
		if (json_reader__word(ps, "null"))
			return 0;
		break;
	default:
		return json_reader__number(ps, v);
	}
	return json_reader__error(ps, "expected a value");
}

/**
 * json_value__parse - Read the JSON document @text into @v
 * @err: Gets what is wrong, and where, when it is not JSON
 *
 * Return: 0, -EINVAL if @text is not one JSON value, or -ENOMEM.  @v is to
 * be freed with json_value__exit() in any case.
 */
int json_value__parse(struct json_value *v, const char *text, char *err, size_t err_size)
{
	struct json_reader ps = { .text = text, .p = text, .err = err, .err_size = err_size, };
	int ret;

	memset(v, 0, sizeof(*v));
	ret = json_reader__value(&ps, v, 0);
	if (ret)
		return ret;
	json_reader__space(&ps);
	return *ps.p ? json_reader__error(&ps, "more after the document") : 0;
}

void json_value__exit(struct json_value *v)
{
	for (int i = 0; i < v->nr; i++) {
		json_value__exit(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	zfree(&v->items);
	zfree(&v->keys);
	zfree(&v->str);
	v->nr = 0;
}

/* Member @key of @obj, or NULL if it is no object or has no such member */
const struct json_value *json_value__get(const struct json_value *obj, const char *key)
{
	for (int i = 0; obj && obj->type == JSON_VALUE_OBJECT && i < obj->nr; i++) {
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	}
	return NULL;
}

/* Element @i of the array @arr if it is a @type, else NULL */
const struct json_value *json_value__at(const struct json_value *arr, int i, u8 type)
{
	if (!arr || arr->type != JSON_VALUE_ARRAY || i < 0 || i >= arr->nr ||
	    arr->items[i].type != type)
		return NULL;
	return &arr->items[i];
}

/* Member @key of @obj as a number: false if there is no such number */
bool json_value__number(const struct json_value *obj, const char *key, double *num)
{
	const struct json_value *v = json_value__get(obj, key);

	if (!v || v->type != JSON_VALUE_NUMBER)
		return false;
	*num = v->num;
	return true;
}

/* Member @key of @obj as a string, or NULL */
const char *json_value__string(const struct json_value *obj, const char *key)
{
	const struct json_value *v = json_value__get(obj, key);

	return v && v->type == JSON_VALUE_STRING ? v->str : NULL;
}
