// SPDX-License-Identifier: GPL-2.0
/* The streaming JSON writer (util/json-writer.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <math.h>
#include <stdint.h>
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

static int test__json_writer_valid(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct json_writer j;
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	TEST_ASSERT_VAL("memstream", fp);
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
	fclose(fp);
	pr_debug("%s", buf);
	TEST_ASSERT_VAL("escaped, NaN and infinity null, nested", !strcmp(buf, json_expected));
	TEST_ASSERT_VAL("bytes counted", j.printed == size);
	free(buf);
	return TEST_OK;
}

static struct test_case tests__json_writer[] = {
	TEST_CASE("JSON is valid whatever the strings and numbers", json_writer_valid),
	{	.name = NULL, }
};

struct test_suite suite__json_writer = {
	.desc = "JSON writer",
	.test_cases = tests__json_writer,
};
