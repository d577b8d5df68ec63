// SPDX-License-Identifier: GPL-2.0
/* The JSON writer of perf affinity report. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <math.h>
#include <stdint.h>
#include "affinity/output/json.h"
#include "affinity-planted.h"
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

static int test__affinity_json_valid(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	T("memstream", fp);
	fa_json__init(&j, fp);
	fa_json__begin_object(&j, NULL, /*flat=*/false);
	fa_json__string(&j, "s", json_input);
	fa_json__double(&j, "nan", NAN);
	fa_json__double(&j, "inf", -INFINITY);
	fa_json__double(&j, "x", 0.5);
	fa_json__begin_array(&j, "a", /*flat=*/true);
	fa_json__int(&j, NULL, -1);
	fa_json__u64(&j, NULL, UINT64_MAX);
	fa_json__null(&j, NULL);
	fa_json__bool(&j, NULL, true);
	fa_json__begin_object(&j, NULL, /*flat=*/false);
	fa_json__begin_array(&j, "k", /*flat=*/false);
	fa_json__end_array(&j);
	fa_json__end_object(&j);
	fa_json__end_array(&j);
	fa_json__string(&j, "null", NULL);
	fa_json__begin_array(&j, "empty", /*flat=*/false);
	fa_json__end_array(&j);
	fa_json__end_object(&j);
	fclose(fp);
	pr_debug("%s", buf);
	T("escaped, NaN and infinity null, nested", !strcmp(buf, json_expected));
	T("bytes counted", j.printed == size);
	free(buf);
	return TEST_OK;
}

static struct test_case tests__affinity_json[] = {
	TEST_CASE("perf affinity JSON is valid whatever the strings and numbers",
		  affinity_json_valid),
	{	.name = NULL, }
};

struct test_suite suite__affinity_json = {
	.desc = "perf affinity: JSON",
	.test_cases = tests__affinity_json,
};
