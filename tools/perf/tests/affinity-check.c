// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity check and diff on a planted recording: a lock written on
 * CPU 0 in the cache line of the fields CPU 1 reads, checked against
 * layouts of the type changed since (fixed, fields added, removed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity-analysis.h"
#include "affinity-planted.h"
#include "affinity/check/check.h"
#include "affinity/check/check-lines.h"
#include "affinity/check/diff.h"
#include "affinity/layout/layout.h"
#include "debug.h"
#include "tests.h"

struct test_member {
	const char	*name;
	u32		 offset;
	u32		 size;
	u32		 align;		/* forced, or 0 */
};

/* "struct longs" as a later commit has it: @m, ended by a NULL name */
static struct fa_struct *members__new(const struct test_member *m, u32 size, u32 align)
{
	struct fa_struct *st = fa_struct__new("struct longs", size, align);
	int err = 0;

	for (int i = 0; st && !err && m[i].name; i++) {
		struct fa_field f = {
			.name = (char *)m[i].name, .offset = m[i].offset, .size = m[i].size,
			.type = (char *)(m[i].size == 8 ? "long int" : "char"),
			.align = m[i].align ?: m[i].size, .forced_align = m[i].align,
			.parent = -1, .group = -1, .leaf = true,
		};

		err = fa_struct__add_field(st, &f);
	}
	return planted__finish(st, err);
}

/* The lock (f0) on a line of its own (aligned to it), the readers first: the fix */
static const struct test_member fixed[] = {
	{ "f1", 0, 8, 0 }, { "f2", 8, 8, 0 }, { "f3", 16, 8, 0 }, { "f4", 24, 8, 0 }, { "f5", 32, 8, 0 },
	{ "f6", 40, 8, 0 }, { "f7", 48, 8, 0 }, { "f0", 64, 8, 64 }, { NULL, 0, 0, 0 },
};

/* The fix, and a field nothing accessed when recorded */
static const struct test_member fixed_cold[] = {
	{ "f1", 0, 8, 0 }, { "f2", 8, 8, 0 }, { "f3", 16, 8, 0 }, { "f4", 24, 8, 0 }, { "f5", 32, 8, 0 },
	{ "f6", 40, 8, 0 }, { "f7", 48, 8, 0 }, { "f0", 64, 8, 64 }, { "stats", 72, 8, 0 }, { NULL, 0, 0, 0 },
};

/* The fix, f5 removed, and a byte put between the readers and f4 */
static const struct test_member fixed_byte[] = {
	{ "f1", 0, 8, 0 }, { "f2", 8, 8, 0 }, { "f3", 16, 8, 0 }, { "state", 24, 1, 0 }, { "f4", 32, 8, 0 },
	{ "f6", 40, 8, 0 }, { "f7", 48, 8, 0 }, { "f0", 64, 8, 64 }, { NULL, 0, 0, 0 },
};

/*
 * lock (f0) written on CPU 0 between CPU 1's reads of f@first_read-f3
 * (with f0: the lock is of their group), f4-f7 cold
 */
static int lock_reader__plant(struct fa_type *t, const struct fa_struct *st, int first_read)
{
	int field[4];
	u64 time = 0;

	for (int f = 0; f < 4; f++) {
		char name[16];

		snprintf(name, sizeof(name), "f%d", f);
		field[f] = -1;
		for (int i = 0; i < st->nr_fields; i++) {
			if (!strcmp(st->fields[i].name, name))
				field[f] = i;
		}
		if (field[f] < 0)
			return -1;
	}
	for (int i = 0; i < 2000; i++) {
		for (int f = first_read; f < 4; f++) {
			if (planted_access(t, time++, 0, field[0], FA_OP_RMW) ||
			    planted_access(t, time++, 1, field[f], FA_OP_LOAD))
				return -1;
		}
	}
	return 0;
}

/* A recording of @st (lock_reader__plant()), analyzed as the report does */
static struct fa_type *recording__new_from(struct fa_struct *st, struct fa_analysis *a,
					   int first_read)
{
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;

	if (t && !lock_reader__plant(t, st, first_read) && !analysis__run(a, t))
		return t;
	if (t)
		fa_type__delete(t);
	fa_struct__delete(st);
	return NULL;
}

static struct fa_type *recording__new(struct fa_struct *st, struct fa_analysis *a)
{
	return recording__new_from(st, a, 0);
}

/* What the check says of @st, as text, with @text in it */
static bool check__says(const struct fa_check *c, const char *text)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	bool has;

	if (!fp)
		return false;
	fa_check__fprintf(c, "test", fp);
	fclose(fp);
	pr_debug("%s", buf);
	has = strstr(buf, text) != NULL;
	free(buf);
	return has;
}

static int check__count(const struct fa_check *c, int kind, bool note)
{
	int n = 0;

	for (int i = 0; i < c->nr_findings; i++)
		n += c->findings[i].kind == kind && c->findings[i].note == note;
	return n;
}

static int test__affinity_check_layouts(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct fa_struct *now[3] = { longs__new(8), members__new(fixed, 128, 64),
				     members__new(fixed_cold, 128, 64), };
	struct fa_analysis a;
	struct fa_type *t = recording__new(longs__new(8), &a);
	struct fa_check c;

	T("recording", t && now[0] && now[1] && now[2]);

	T("check as recorded", !fa_check__run(&c, t, &a, now[0], 0.01));
	T("the lock next to its readers does not hold", c.nr_failed);
	T("three pairs", check__count(&c, FA_CHECK_SHARED, false) == 3);
	T("as recorded", c.findings[0].as_recorded);
	T("the same cost", c.change == 0);
	T("said with its readers and CPUs",
	  check__says(&c, "f0 (written on CPU 0) shares cache line 0 with f1, f2, f3 (read on CPU 1)"));
	T("and the line in pahole's format",
	  check__says(&c, "\tlong int                   f0;                   /*     0     8 */"));
	fa_check__exit(&c);

	T("check the fix", !fa_check__run(&c, t, &a, now[1], 0.01));
	T("the fix holds", !c.nr_failed);
	T("and costs less", c.cost_now.total < c.cost_recorded.total);
	T("every member matched", c.old_unit[7] == 0 && c.new_unit[0] == 7);
	fa_check__exit(&c);

	T("check the fix with a new field", !fa_check__run(&c, t, &a, now[2], 0.01));
	T("a cold field added holds", !c.nr_failed);
	T("the field is new", c.old_unit[8] == -1);
	T("and listed", check__says(&c, "new, not in the recording: stats (8 bytes, line 1"));
	fa_check__exit(&c);

	for (int i = 0; i < 3; i++)
		fa_struct__delete(now[i]);
	analysis__exit(&a, t);
	return TEST_OK;
}

static int test__affinity_check_hole(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_struct *now = members__new(fixed_byte, 128, 64);
	struct fa_analysis a;
	struct fa_type *t = recording__new(members__new(fixed, 128, 64), &a);
	struct fa_check c;

	T("recording", t && now);
	T("check", !fa_check__run(&c, t, &a, now, 0.01));
	T("a byte put into the readers' line leaves a hole there",
	  check__count(&c, FA_CHECK_HOLE, false) == 1);
	T("7 bytes before f4", c.findings[0].bytes == 7 && c.findings[0].line == 0);
	T("the layout does not hold", c.nr_failed == 1);
	T("f5 is gone", c.new_unit[4] == -1);
	fa_check__exit(&c);
	fa_struct__delete(now);
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * 16 longs, f0 and f@other loaded in turn by one CPU, all in one group of
 * time of the bootstrap: too few for the report to advise anything
 */
static struct fa_type *one_group__new(struct fa_analysis *a, int other)
{
	struct fa_config cfg = test_config;
	struct fa_type *t;

	cfg.boot_ns = 1ULL << 40;
	t = longs_type__new_cfg(16, &cfg);
	for (int i = 0; t && i < 4000; i++) {
		if (planted_access(t, i, 0, i % 2 ? other : 0, FA_OP_LOAD))
			goto out_delete;
	}
	if (t && !analysis__run(a, t))
		return t;
out_delete:
	if (t)
		planted_type__delete(t);
	return NULL;
}

/*
 * f0 and f8: the report's candidate has them on one line, but on too few
 * blocks to advise it
 */
static int test__affinity_check_candidate(struct test_suite *test __maybe_unused,
					  int subtest __maybe_unused)
{
	struct fa_struct *now = longs__new(16);
	struct fa_analysis a;
	struct fa_type *t = one_group__new(&a, 8);
	struct fa_check c;

	T("recording", t && now);
	T("the evidence for the candidate is insufficient", a.candidate.insufficient);
	T("check as recorded", !fa_check__run(&c, t, &a, now, 0.01));
	T("no class conflict, nothing failed", !c.nr_failed);
	T("the spread the candidate mends is undecided", c.nr_undecided == 1 &&
	  c.findings[0].kind == FA_CHECK_SPREAD && c.findings[0].undecided &&
	  c.findings[0].lines_now == 2 && c.findings[0].lines_allowed == 1);
	T("the verdict", !strcmp(fa_check__verdict(&c), "insufficient"));
	T("said with the candidate", check__says(&c, "on 1 with the report's candidate, whose"));
	T("and the fields", check__says(&c, "evidence is insufficient: f0 f8"));
	fa_check__exit(&c);
	fa_struct__delete(now);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* f0 and f1, on one line: no candidate, but it holds nothing */
static int test__affinity_check_few(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fa_struct *now = longs__new(16);
	struct fa_analysis a;
	struct fa_type *t = one_group__new(&a, 1);
	struct fa_check c;

	T("recording", t && now);
	T("no candidate", !a.candidate.insufficient);
	T("check as recorded", !fa_check__run(&c, t, &a, now, 0.01));
	T("undecided for the evidence alone", !c.nr_failed && c.nr_findings == 1 &&
	  c.findings[0].kind == FA_CHECK_EVIDENCE && c.findings[0].groups == 1);
	T("the verdict", !strcmp(fa_check__verdict(&c), "insufficient"));
	T("said", check__says(&c, "are in 1 of 32 groups of time, 8 needed to tell"));
	fa_check__exit(&c);
	fa_struct__delete(now);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* diff of a recording of the shared lock and one of the fix */
static int test__affinity_diff_fix(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct fa_analysis a[2];
	struct fa_type *t[2] = {
		recording__new(longs__new(8), &a[0]),
		recording__new(members__new(fixed, 128, 64), &a[1]),
	};
	struct fa_diff_side s[2] = { { t[0], &a[0], false, 0, }, { t[1], &a[1], false, 0, }, };
	struct fa_diff d;
	char *buf = NULL;
	size_t size = 0;
	FILE *fp;

	T("recordings", t[0] && t[1]);
	T("diff", !fa_diff__init(&d, "struct longs", &s[0], &s[1], 1));
	T("the fix is predicted to cost less",
	  d.have_predicted && d.predicted_now < d.predicted_was);
	T("and measured to", a[1].cost.now.model.total < a[0].cost.now.model.total);
	fp = open_memstream(&buf, &size);
	T("memstream", fp);
	fa_diff__fprintf(&d, fp);
	fclose(fp);
	pr_debug("%s", buf);
	T("the pair is gone", strstr(buf, "  f0 -> f1 ") && strstr(buf, "gone\n"));
	T("the lock moved from line 0 to 1", strstr(buf, "     0     1   no measurable change\n"));
	T("no HITMs measured", strstr(buf, "HITM per 1k loads") &&
	  strstr(buf, "         -          -"));
	T("samples not known: no note", !strstr(buf, "note: "));
	free(buf);

	/* as many accesses per sample, then half as many in the new recording */
	for (int twice = 1; twice <= 2; twice++) {
		const char *note;

		s[0].samples = t[0]->counts.nr_accesses;
		s[1].samples = twice * t[1]->counts.nr_accesses;
		T("diff", !fa_diff__init(&d, "struct longs", &s[0], &s[1], 1));
		buf = NULL;
		fp = open_memstream(&buf, &size);
		T("memstream", fp);
		fa_diff__fprintf(&d, fp);
		fclose(fp);
		note = strstr(buf, "note: 1000 accesses attributed per 1k samples in the old recording, 500 in the new");
		T(twice == 1 ? "the same accesses per sample: no note" :
		  "half the accesses per sample: a note", !note == (twice == 1));
		free(buf);
	}
	analysis__exit(&a[0], t[0]);
	analysis__exit(&a[1], t[1]);
	return TEST_OK;
}

/* The lock two lines after its readers: apart at 64 and at 128 byte lines */
static const struct test_member apart_pair[] = {
	{ "f1", 0, 8, 0 }, { "f2", 8, 8, 0 }, { "f3", 16, 8, 0 }, { "f4", 24, 8, 0 }, { "f5", 32, 8, 0 },
	{ "f6", 40, 8, 0 }, { "f7", 48, 8, 0 }, { "f0", 128, 8, 128 }, { NULL, 0, 0, 0 },
};

/* That layout with f3 on a line of its own, two lines on */
static const struct test_member apart_f3[] = {
	{ "f1", 0, 8, 0 }, { "f2", 8, 8, 0 }, { "f4", 24, 8, 0 }, { "f5", 32, 8, 0 },
	{ "f6", 40, 8, 0 }, { "f7", 48, 8, 0 }, { "f0", 128, 8, 128 }, { "f3", 192, 8, 64 },
	{ NULL, 0, 0, 0 },
};

static int check__count_at(const struct fa_check *c, int kind, u32 line_size)
{
	int n = 0;

	for (int i = 0; i < c->nr_findings; i++)
		n += c->findings[i].kind == kind && c->findings[i].line_size == line_size &&
		     !c->findings[i].note;
	return n;
}

/*
 * A recording of a layout that keeps the lock apart from its readers' group
 * at 64 and at 128 bytes: a later layout that keeps it apart at 64 only, or
 * spreads the group, fails at the size it breaks
 */
static int test__affinity_check_groups(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_struct *now[3] = { members__new(apart_pair, 256, 128),
				     members__new(fixed, 128, 64),
				     members__new(apart_f3, 256, 128), };
	struct fa_analysis a;
	struct fa_type *t = recording__new_from(members__new(apart_pair, 256, 128), &a, 1);
	struct fa_check c;

	T("recording", t && now[0] && now[1] && now[2]);
	T("the readers are a group, the lock is not of it",
	  a.advice.clusters.of_unit[0] >= 0 &&
	  a.advice.clusters.of_unit[0] == a.advice.clusters.of_unit[2] &&
	  a.advice.clusters.clusters[a.advice.clusters.of_unit[0]].nr == 3 &&
	  a.advice.clusters.of_unit[7] != a.advice.clusters.of_unit[0]);

	T("check as recorded", !fa_check__run(&c, t, &a, now[0], 0.01));
	T("holds: no group broken", !c.nr_failed && !check__count(&c, FA_CHECK_GROUP, true));
	fa_check__exit(&c);

	T("check the lock one line after its readers", !fa_check__run(&c, t, &a, now[1], 0.01));
	T("apart at 64 bytes", !check__count_at(&c, FA_CHECK_SHARED, 64) &&
	  !check__count_at(&c, FA_CHECK_GROUP, 64));
	T("joins their 128 byte line", check__count_at(&c, FA_CHECK_GROUP, 128) == 1 &&
	  c.nr_failed == 1);
	T("said", check__says(&c, "f0 (hot) joins the 128 byte cache line 0 of fields accessed together, one side writes what the other accesses: f1 f2 f3"));
	fa_check__exit(&c);

	T("check f3 moved away", !fa_check__run(&c, t, &a, now[2], 0.01));
	T("the group spreads at 64 and at 128 bytes",
	  check__count_at(&c, FA_CHECK_SPREAD, 64) == 1 &&
	  check__count_at(&c, FA_CHECK_SPREAD, 128) == 1);
	T("said at 128", check__says(&c, "are on 2 128 byte cache lines from line 0, not 1:"));
	fa_check__exit(&c);

	for (int i = 0; i < 3; i++)
		fa_struct__delete(now[i]);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* Slots of @size bytes, aligned to @align, where 8-byte slots of @width bytes were */
static enum fa_slots_verdict slots__judge(u32 old, u32 width, u32 size, u32 align)
{
	struct fa_check_slots s = {
		.elem_size = old, .elements = 1, .width = width,
		.now = { .elem_size = size, .elem_align = align, },
	};

	return fa_check_slots__judge(&s, 64);
}

/* Per-thread slots of an array: what their element in a binary keeps apart */
static int test__affinity_check_slots(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	T("an element as recorded: the index may be the fix",
	  slots__judge(8, 8, 8, 8) == FA_SLOTS_UNCHANGED);
	T("a line each, aligned", slots__judge(8, 8, 64, 64) == FA_SLOTS_APART);
	T("a line each, one aligned scalar", slots__judge(8, 8, 64, 8) == FA_SLOTS_APART);
	T("16 bytes: two threads a line", slots__judge(8, 8, 16, 8) == FA_SLOTS_SHARED);
	T("24-byte slots at 72: a line may hold the end of one, the start of the next",
	  slots__judge(24, 24, 72, 8) == FA_SLOTS_SHARED);
	T("24-byte slots at 64, not aligned: one may cross into the next's line",
	  slots__judge(24, 24, 64, 8) == FA_SLOTS_SHARED);
	T("24-byte slots at 64, aligned", slots__judge(24, 24, 64, 64) == FA_SLOTS_APART);
	T("24-byte slots at 88: a line between any two", slots__judge(24, 24, 88, 8) == FA_SLOTS_APART);
	T("an element aligned to a line, the same size", slots__judge(64, 8, 64, 64) == FA_SLOTS_APART);
	T("no element known", slots__judge(8, 8, 0, 0) == FA_SLOTS_UNKNOWN);
	return TEST_OK;
}

static struct test_case tests__affinity_check[] = {
	TEST_CASE("A layout is checked against a recording", affinity_check_layouts),
	TEST_CASE("A member put into a hot line with a hole fails", affinity_check_hole),
	TEST_CASE("A spread only an insufficient candidate mends is undecided",
		  affinity_check_candidate),
	TEST_CASE("A recording of too few groups of time holds nothing", affinity_check_few),
	TEST_CASE("diff predicts and measures a fix", affinity_diff_fix),
	TEST_CASE("Per-thread slots are judged by their element", affinity_check_slots),
	TEST_CASE("Groups are guarded at 64 and at 128 byte lines", affinity_check_groups),
	{	.name = NULL, }
};

struct test_suite suite__affinity_check = {
	.desc = "perf affinity: check and diff",
	.test_cases = tests__affinity_check,
};
