// SPDX-License-Identifier: GPL-2.0
/* The JSON writer and reader (util/json-writer.h, util/json-reader.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <math.h>
#include <stdint.h>
#include "json-reader.h"
#include "json-writer.h"
#include "debug.h"
#include "tests.h"

/* Quotes, controls, bytes that are no UTF-8 (a lone 0xff, an overlong 0xe0 0x80 0x80) */
static const char json_input[] = "q\"b\\\n\t\x01\xff\xc3\xa9\xe0\x80\x80";

static const char json_expected[] =
"{\n"
"  \"s\": \"q\\\"b\\\\\\n\\t\\u0001\\ufffd\xc3\xa9\\ufffd\\ufffd\\ufffd\",\n"
"  \"nan\": null,\n"
"  \"inf\": null,\n"
"  \"x\": 0.5,\n"
"  \"a\": [-1, 18446744073709551615, null, true, {\"k\": []}],\n"
"  \"null\": null,\n"
"  \"empty\": []\n"
"}\n";

/* Writes the document of json_expected to @fp: returns the writer's count */
static size_t json_test__write(FILE *fp)
{
	struct json_writer j;

	json_writer__init(&j, fp);
	json_writer__begin_object(&j, NULL, /*flat=*/false);
	json_writer__string(&j, "s", json_input);
	json_writer__double(&j, "nan", NAN);
	json_writer__double(&j, "inf", -INFINITY);
	json_writer__double(&j, "x", 0.5);
	json_writer__begin_array(&j, "a", /*flat=*/true);
	json_writer__int(&j, NULL, -1);
	json_writer__u64(&j, NULL, UINT64_MAX);
	json_writer__null(&j, NULL);
	json_writer__bool(&j, NULL, true);
	json_writer__begin_object(&j, NULL, /*flat=*/false);
	json_writer__begin_array(&j, "k", /*flat=*/false);
	json_writer__end_array(&j);
	json_writer__end_object(&j);
	json_writer__end_array(&j);
	json_writer__string(&j, "null", NULL);
	json_writer__begin_array(&j, "empty", /*flat=*/false);
	json_writer__end_array(&j);
	json_writer__end_object(&j);
	return j.printed;
}

static int test__json_writer_valid(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	char *buf = NULL;
	size_t size = 0, printed;
	FILE *fp = open_memstream(&buf, &size);

	TEST_ASSERT_VAL("memstream", fp);
	printed = json_test__write(fp);
	fclose(fp);
	pr_debug("%s", buf);
	TEST_ASSERT_VAL("escaped, NaN and infinity null, nested", !strcmp(buf, json_expected));
	TEST_ASSERT_VAL("bytes counted", printed == size);
	free(buf);
	return TEST_OK;
}

/* What the writer writes reads back as it was, but for what JSON cannot hold */
static int test__json_read_written(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	const struct json_value *a, *k;
	struct json_value v;
	char *buf = NULL, err[128];
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	int ret;

	TEST_ASSERT_VAL("memstream", fp);
	json_test__write(fp);
	fclose(fp);
	ret = json_value__parse(&v, buf, err, sizeof(err));
	free(buf);
	TEST_ASSERT_VAL("parse", !ret);
	a = json_value__get(&v, "a");
	k = json_value__get(json_value__at(a, 4, JSON_VALUE_OBJECT), "k");
	TEST_ASSERT_VAL("an array of 5", a && a->type == JSON_VALUE_ARRAY && a->nr == 5);
	TEST_ASSERT_VAL("numbers", json_value__at(a, 0, JSON_VALUE_NUMBER)->num == -1 &&
			json_value__at(a, 1, JSON_VALUE_NUMBER)->num == (double)UINT64_MAX);
	TEST_ASSERT_VAL("NaN, infinity and a NULL string are null",
			json_value__get(&v, "nan")->type == JSON_VALUE_NULL &&
			json_value__get(&v, "inf")->type == JSON_VALUE_NULL &&
			json_value__at(a, 2, JSON_VALUE_NULL) &&
			json_value__get(&v, "null")->type == JSON_VALUE_NULL);
	/* the bytes that are no UTF-8 come back as U+FFFD, 0xef 0xbf 0xbd */
	TEST_ASSERT_VAL("strings, bad bytes as U+FFFD",
			!strcmp(json_value__string(&v, "s"), "q\"b\\\n\t\x01\xef\xbf\xbd\xc3\xa9"
				"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"));
	TEST_ASSERT_VAL("nested, empty", k && k->type == JSON_VALUE_ARRAY && !k->nr &&
			json_value__at(a, 3, JSON_VALUE_BOOL)->b);
	json_value__exit(&v);
	return TEST_OK;
}

/* Values the writer never writes, and errors where they are */
static int test__json_read_errors(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	static const char doc[] =
		"{\"a\": [1, -2.5e3, 0.125E+1, 0, -0],\n"
		" \"s\": \"\\u00e9\\ud83d\\ude00\\/\\b\", \"o\": {}, \"e\": []}";
	static const char * const bad[][2] = {
		{ "{\"a\": 1,\n \"b\" 2}", "line 2: expected ':'" },
		{ "[1, 2", "line 1: expected ',' or ']'" },
		{ "\"abc", "line 1: a string does not end" },
		{ "{\"a\": \"\\x\"}", "line 1: a bad escape in a string" },
		{ "\"\\ud83d\"", "line 1: a bad escape in a string" },
		{ "\"a\tb\"", "line 1: a control character in a string" },
		{ "[tru]", "line 1: expected a value" },
		{ "{} {}", "line 1: more after the document" },
		{ "", "line 1: expected a value" },
		{ "{1: 2}", "line 1: expected a member name" },
		/* what strtod() would take, JSON not */
		{ "0x10", "line 1: more after the document" },
		{ "[01]", "line 1: expected ',' or ']'" },
		{ "-inf", "line 1: expected a value" },
		{ "+1", "line 1: expected a value" },
		{ "1.", "line 1: expected a digit" },
		{ "1e+", "line 1: expected a digit" },
	};
	char deep[2 * JSON_MAX_DEPTH + 8], err[128];
	const struct json_value *a;
	struct json_value v;

	TEST_ASSERT_VAL("parse", !json_value__parse(&v, doc, err, sizeof(err)));
	a = json_value__get(&v, "a");
	TEST_ASSERT_VAL("numbers", json_value__at(a, 1, JSON_VALUE_NUMBER)->num == -2500 &&
			json_value__at(a, 2, JSON_VALUE_NUMBER)->num == 1.25);
	TEST_ASSERT_VAL("escapes to UTF-8", !strcmp(json_value__string(&v, "s"),
						    "\xc3\xa9\xf0\x9f\x98\x80/\b"));
	TEST_ASSERT_VAL("empty containers", json_value__get(&v, "o")->nr == 0 &&
			json_value__get(&v, "e")->nr == 0);
	TEST_ASSERT_VAL("no such member", !json_value__get(&v, "x") &&
			!json_value__string(&v, "a") && !json_value__at(a, 5, JSON_VALUE_NUMBER));
	json_value__exit(&v);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		TEST_ASSERT_VAL("bad JSON is an error",
				json_value__parse(&v, bad[i][0], err, sizeof(err)) == -EINVAL);
		pr_debug("'%s': %s\n", bad[i][0], err);
		TEST_ASSERT_VAL("saying where", !strcmp(err, bad[i][1]));
		json_value__exit(&v);
	}
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	TEST_ASSERT_VAL("nested too deep",
			json_value__parse(&v, deep, err, sizeof(err)) == -EINVAL &&
			strstr(err, "nested too deep"));
	json_value__exit(&v);
	return TEST_OK;
}

static struct test_case tests__json[] = {
	TEST_CASE("JSON is valid whatever the strings and numbers", json_writer_valid),
	TEST_CASE("The reader reads what the writer writes", json_read_written),
	TEST_CASE("The reader takes RFC 8259 only, saying where it is not", json_read_errors),
	{	.name = NULL, }
};

struct test_suite suite__json = {
	.desc = "JSON writer and reader",
	.test_cases = tests__json,
};
