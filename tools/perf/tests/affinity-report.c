// SPDX-License-Identifier: GPL-2.0
/* The tables of perf affinity report on planted access patterns. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity/attr.h"
#include "affinity/hists.h"
#include "affinity/report.h"
#include "affinity-analysis.h"
#include "affinity-planted.h"
#include "debug.h"
#include "tests.h"

/* A long name (a bitfield unit's members) is cut in the tables, once */
static int test__affinity_long_names(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	static const char long_name[] = "has_srcline,hit,annotate_warned,auxtrace_warned,is_64_bit";
	struct fa_report_opts opts = { .top_pairs = 10, };
	struct fa_struct *st = longs__new(2);
	struct fa_type *t = NULL;
	struct fa_type_entry te = { .name = (char *)"struct longs", };
	struct fa_hist_entry fe = { .te = &te, .field = -1, };
	struct fa_analysis a;
	char *buf = NULL;
	size_t size;
	FILE *fp;

	T("struct", st);
	free(st->fields[0].name);
	st->fields[0].name = strdup(long_name);
	T("name", st->fields[0].name);
	t = fa_type__new(st, &test_config);
	T("type", t);
	for (int i = 0; i < 400; i++)
		planted_access(t, i, 0, i % 2, FA_OP_LOAD);
	T("analysis", !analysis__run(&a, t));
	te.st = st;
	te.t = t;
	fe.an = &a;
	fp = open_memstream(&buf, &size);
	T("memstream", fp);
	fa_report__section(fp, FA_REPORT_FIELDS, &fe, &opts);
	fa_report__section(fp, FA_REPORT_PAIRS, &fe, &opts);
	fclose(fp);
	if (fe.fields) {
		fa_hists__exit(fe.fields);
		free(fe.fields);
	}
	pr_debug("%s", buf);
	T("the name is cut", strstr(buf, "has_srcline,hit,annotate_warned,auxtra.. "));
	T("in both tables", strstr(strstr(buf, "auxtra.. ") + 1, "auxtra.. "));
	T("nowhere whole", !strstr(buf, long_name));
	free(buf);
	analysis__exit(&a, t);
	return TEST_OK;
}

static struct test_case tests__affinity_report[] = {
	TEST_CASE("perf affinity report cuts long field names in its tables",
		  affinity_long_names),
	{	.name = NULL, }
};

struct test_suite suite__affinity_report = {
	.desc = "perf affinity: report tables",
	.test_cases = tests__affinity_report,
};
