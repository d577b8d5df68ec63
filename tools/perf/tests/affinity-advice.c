// SPDX-License-Identifier: GPL-2.0
/*
 * The advice perf affinity gives on planted access patterns: the smallest
 * edit that removes the cost, not a reorder, and never one that moves what
 * must stay (--keep, --keep-order, a first member that is a struct).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity-analysis.h"
#include "affinity/advice/try.h"
#include "affinity-planted.h"
#include "debug.h"
#include "tests.h"

/*
 * refshare's shape in 12 longs: f8 (a reference count) written on CPU 0,
 * f10, f0 and f1 read on CPU 1 (f10 on the count's line, read first after
 * each write); the rest cold
 */
static struct fa_type *refcount__new(struct fa_struct *st)
{
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	u64 time = 0;

	for (int i = 0; t && i < 2000; i++) {
		planted_access(t, time++, 0, 8, FA_OP_RMW);
		planted_access(t, time++, 1, 10, FA_OP_LOAD);
		planted_access(t, time++, 1, 0, FA_OP_LOAD);
		planted_access(t, time++, 1, 1, FA_OP_LOAD);
	}
	if (!t)
		fa_struct__delete(st);
	return t;
}

static int advice__run(struct fa_analysis *a, struct fa_type *t, const char *keep,
		       const char *keep_order)
{
	struct fa_keep_opts o = { .keep = keep, .keep_order = keep_order };

	fa_type__flush(t);
	return fa_analysis__run(a, t, FA_METHOD_WINDOW, FA_XFER_COST, &o);
}

static void advice__debug(const struct fa_analysis *a, const struct fa_struct *st)
{
	char buf[256];

	for (int i = 0; i < a->advice.edits.nr; i++) {
		fa_edit__snprintf(&a->advice.edits.edit[i], st, buf, sizeof(buf));
		pr_debug("edit %d: %s\n", i + 1, buf);
	}
	pr_debug("advice %d, judged %.3f %.3f %.3f, moved %d (reorder %d)\n", a->advice.kind,
		 a->cost.judged.current, a->cost.judged.edit, a->cost.judged.reorder,
		 a->advice.moved, a->reorder.moved);
}

static bool separated(const struct fa_analysis *a, const struct fa_struct *st, int f, int g)
{
	return fa_layout__line(&a->advice.suggested, st, f) !=
	       fa_layout__line(&a->advice.suggested, st, g);
}

static int test__affinity_smallest_edit(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(12);
	struct fa_type *t = refcount__new(st);
	struct fa_analysis a;

	T("type", t);
	T("analysis", !advice__run(&a, t, NULL, NULL));
	advice__debug(&a, st);
	T("the smallest edit is advised", a.advice.kind == FA_ADVICE_EDIT);
	T("one edit: a swap", a.advice.edits.nr == 1 && a.advice.edits.edit[0].op == FA_EDIT_SWAP);
	T("of f10 with a cold field of the first line",
	  a.advice.edits.edit[0].unit == 10 && a.advice.edits.edit[0].other >= 2 &&
	  a.advice.edits.edit[0].other <= 7);
	T("two members move, two offsets change", a.advice.moved == 2 && a.advice.shifted == 2);
	T("the size stays", a.advice.suggested.size == 96 && a.advice.suggested.align == 8);
	T("the count leaves its readers", separated(&a, st, 8, 10) && separated(&a, st, 8, 0));
	T("judged better than the full reorder", a.cost.judged.edit <= a.cost.judged.reorder);
	T("the model and the replay see the gain",
	  a.cost.advised.model.total < a.cost.now.model.total &&
	  a.cost.advised.replay.total < a.cost.now.replay.total && !a.advice.unsure);
	T("apart only in instances that start a line: said", a.advice.needs_line_start);
	analysis__exit(&a, t);
	return TEST_OK;
}

/* --try @text, scored: 0, or what parsing it returned */
static int try__score(struct fa_try *tr, const struct fa_analysis *a, const struct fa_type *t,
		      const char *text)
{
	char msg[256];
	int err = fa_try__parse(tr, t->st, &a->seen.current, text, msg, sizeof(msg));

	pr_debug("--try '%s': %d %s\n", text, err, msg);
	return err ?: fa_try__score(tr, t, a);
}

/*
 * The advice pasted into --try makes the advice's layout and scores as it;
 * other words make what they say, and names or words it does not know
 * are refused
 */
static int test__affinity_try(struct test_suite *test __maybe_unused, int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(12);
	struct fa_type *t = refcount__new(st);
	struct fa_analysis a;
	struct fa_try tr;
	char words[256], msg[256];

	T("type", t);
	T("analysis", !advice__run(&a, t, NULL, NULL));
	T("one edit advised", a.advice.kind == FA_ADVICE_EDIT && a.advice.edits.nr == 1);
	fa_edit__snprintf(&a.advice.edits.edit[0], st, words, sizeof(words));
	T("the advice's words parse and score", !try__score(&tr, &a, t, words));
	T("into the advice's layout", fa_layout__same(&tr.layout, &a.advice.suggested) &&
	  tr.layout.size == a.advice.suggested.size);
	T("with the advice's saving and interval",
	  fabs(tr.gain_ci.est - a.cost.gain_ci.est) < 1e-9 &&
	  fabs(tr.gain_ci.lo - a.cost.gain_ci.lo) < 1e-9 &&
	  fabs(tr.gain_ci.hi - a.cost.gain_ci.hi) < 1e-9);
	T("and the advice's replay",
	  fabs(tr.replay_gain_ci.est - a.cost.replay_gain_ci.est) < 1e-9);
	T("moving what it moves", tr.moved == a.advice.moved && !tr.breaks);
	fa_try__exit(&tr);

	T("move after", !try__score(&tr, &a, t, "move f0 after f10"));
	T("puts the member right after the other", fa_layout__field_offset(&tr.layout, st, 0) ==
	  fa_layout__field_offset(&tr.layout, st, 10) + 8);
	T("the size stays", tr.layout.size == 96);
	fa_try__exit(&tr);

	T("a line of its own, then aligned", !try__score(&tr, &a, t,
	  "give f8 a cache line of its own ; align the struct to 128"));
	T("apart from its readers, aligned", fa_layout__line(&tr.layout, st, 8) !=
	  fa_layout__line(&tr.layout, st, 10) && tr.layout.align == 128 && tr.layout.size == 256);
	T("and saves", tr.gain_ci.est > 0);
	fa_try__exit(&tr);

	T("a member the struct has not",
	  fa_try__parse(&tr, st, &a.seen.current, "move f99 to the end",
			msg, sizeof(msg)) == -ENOENT &&
	  strstr(msg, "no member 'f99'"));
	T("a nested member's path is not its top-level member",
	  fa_try__parse(&tr, st, &a.seen.current, "move f1.x to the end", msg, sizeof(msg)) ==
	  -ENOENT);
	T("words it does not know", fa_try__syntax("frob f1", msg, sizeof(msg)) == -EINVAL &&
	  strstr(msg, "'frob f1' not understood"));
	T("half an edit", fa_try__syntax("swap f1 and", msg, sizeof(msg)) == -EINVAL);
	T("no alignment", fa_try__syntax("align the struct to 48", msg, sizeof(msg)) == -ERANGE);
	T("no edit", fa_try__syntax(" ; ", msg, sizeof(msg)) == -EINVAL);
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * memset(&p->f2, 0, sizeof(*p) - offsetof(typeof(*p), f2)): f2 to the end
 * stay together and in order; f8 and f10 are both in that range
 */
static int test__affinity_keep_order(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(12);
	struct fa_type *t = refcount__new(st);
	struct fa_analysis a;

	T("type", t);
	T("analysis", !advice__run(&a, t, NULL, "f2-"));
	advice__debug(&a, st);
	T("one range kept", a.advice.keep.nr_ranges == 1);
	T("the full reorder crosses the range: not advised",
	  a.reorder.breaks && a.advice.kind != FA_ADVICE_REORDER);
	T("the advice keeps the range",
	  fa_keep__allows(&a.advice.keep, &a.seen.current, &a.advice.suggested));
	for (int f = 3; f < 12; f++)
		T("f2 to f11 keep their distances",
		  fa_layout__field_offset(&a.advice.suggested, st, f) -
		  fa_layout__field_offset(&a.advice.suggested, st, 2) == (u32)(f - 2) * 8);
	T("and the count still leaves its readers", a.advice.changed && separated(&a, st, 8, 10));
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * --keep f10: the reader stays where it is.  The count cannot leave its
 * line then without moving f10 or joining the other readers: no advice.
 */
static int test__affinity_keep_field(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(12);
	struct fa_type *t = refcount__new(st);
	struct fa_analysis a;

	T("type", t);
	T("analysis", !advice__run(&a, t, "f10,nosuchfield", NULL));
	advice__debug(&a, st);
	T("f10 pinned", a.advice.keep.nr_pins == 1 && a.advice.keep.pin[10] == FA_PIN_ASKED);
	T("f10 keeps its offset", fa_layout__field_offset(&a.advice.suggested, st, 10) == 80);
	T("the count does not join f0 and f1", !separated(&a, st, 8, 10) ||
	  (separated(&a, st, 8, 0) && separated(&a, st, 8, 1)));
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * struct { struct { long a; long b; } base; long f3 ... f9; }: code casts
 * it to its first member.  base.a is a lock written on CPU 0, f3 to f5 are
 * read on CPU 1.
 */
static struct fa_struct *based__new_n(const char *base_type, int n)
{
	struct fa_struct *st = fa_struct__new("struct based", (n - 1) * 8, 8);
	struct fa_field base = {
		.name = (char *)"base", .type = (char *)base_type, .size = 16, .align = 8,
		.parent = -1, .group = -1, .kind = FA_FIELD_STRUCT,
	};
	char name[16];
	int err = st ? fa_struct__add_field(st, &base) : 0;

	for (int i = 1; st && !err && i < n; i++) {
		struct fa_field f = {
			.name = name, .type = (char *)"long int", .offset = (i - 1) * 8, .size = 8,
			.align = 8, .parent = -1, .group = -1, .leaf = true,
		};

		if (i < 3) {
			f.parent = 0;
			f.depth = 1;
		}
		snprintf(name, sizeof(name), i < 3 ? "base.%c" : "f%d", i < 3 ? 'a' + i - 1 : i);
		err = fa_struct__add_field(st, &f);
	}
	return planted__finish(st, err);
}

static struct fa_struct *based__new(const char *base_type)
{
	return based__new_n(base_type, 10);
}

/* base.a, a lock, written on CPU 0; f3 to f5 read on CPU 1 */
static void based__lock_readers(struct fa_type *t)
{
	u64 time = 0;

	for (int i = 0; i < 2000; i++) {
		planted_access(t, time++, 0, 1, FA_OP_RMW);
		for (int f = 3; f <= 5; f++)
			planted_access(t, time++, 1, f, FA_OP_LOAD);
	}
}

static int test__affinity_keep_base(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fa_struct *st = based__new("struct base");
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	struct fa_analysis a;

	T("type", t);
	based__lock_readers(t);
	T("analysis", !advice__run(&a, t, NULL, NULL));
	advice__debug(&a, st);
	T("the first member, a struct, is pinned", a.advice.keep.pin[0] == FA_PIN_BASE);
	T("it stays first", a.advice.suggested.offset[0] == 0);
	T("a line started: the struct is aligned, nothing to say",
	  a.advice.suggested.align == 64 && !a.advice.needs_line_start);
	T("the lock leaves its readers", a.advice.changed && separated(&a, st, 1, 3) &&
	  separated(&a, st, 1, 5));
	analysis__exit(&a, t);
	return TEST_OK;
}

/* struct rq's first member is its lock: a lock is no base, it may move */
static int test__affinity_lock_first(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_struct *st = based__new("raw_spinlock_t");
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	struct fa_analysis a;

	T("type", t);
	based__lock_readers(t);
	T("analysis", !advice__run(&a, t, NULL, NULL));
	advice__debug(&a, st);
	T("the lock is not pinned", !a.advice.keep.nr_pins && !a.advice.keep.pin[0]);
	T("the lock leaves its readers", a.advice.changed && separated(&a, st, 1, 3) &&
	  separated(&a, st, 1, 5));
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * f1 and f2 are read in nearly every window of CPU 1, f2 first after each
 * write of f0 on CPU 0; f0 and f1 must stay.  The model's edit takes f2 off
 * the writer's line: the fields every window reads then take two lines,
 * and the replay sees that CPU 1 still takes the line from CPU 0 for f1.
 * It costs more: the edit is only a candidate, not advice.
 */
static int test__affinity_every_call(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(12);
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	struct fa_analysis a;
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 3000; i++) {
		planted_access(t, time++, 0, 0, FA_OP_RMW);
		for (int k = 0; k < 12; k++)
			planted_access(t, time++, 1, k % 2 ? 1 : 2, FA_OP_LOAD);
	}
	T("analysis", !advice__run(&a, t, "f0,f1", NULL));
	advice__debug(&a, st);
	T("no advice", !a.advice.changed && a.advice.kind == FA_ADVICE_NONE);
	T("the replay contradicts the model", a.candidate.insufficient &&
	  a.candidate.contradicted && a.candidate.replay.total > a.cost.now.replay.total);
	T("the candidate takes f2 off the writer's line",
	  fa_layout__line(&a.candidate.layout, st, 0) !=
	  fa_layout__line(&a.candidate.layout, st, 2));
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * The replay's windows do not see the lines of a visit, the lines per
 * visit do not see transfers: either confirms the model's gain
 */
static int test__affinity_unsure(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	struct fa_analysis a = {
		.advice.changed = true,
		.cost.now = { .model = { .total = 2.0 }, .replay = { .total = 4.0 },
			      .visit_lines = 1.5, },
		.cost.advised = { .model = { .total = 1.8 }, .replay = { .total = 1.0 },
				  .visit_lines = 1.5, },
	};

	T("the replay confirms", !fa_analysis__unsure(&a));
	a.cost.advised.replay.total = 4.0;
	T("neither confirms", fa_analysis__unsure(&a));
	a.cost.advised.visit_lines = 1.2;
	T("the lines per visit confirm", !fa_analysis__unsure(&a));
	a.cost.now.visit_lines = a.cost.advised.visit_lines = 0;
	T("no lines per visit, no replay gain", fa_analysis__unsure(&a));
	a.cost.advised.model.total = 2.0;
	T("no gain predicted: nothing to be unsure of", !fa_analysis__unsure(&a));
	return TEST_OK;
}

/* A compiler lays the recorded order out as the struct is: edits start from it */
static int test__affinity_edit_order(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fa_struct *st = blocks__new();
	struct fa_layout cur, l;
	bool line_start[8] = { false };

	T("struct", st);
	T("current", !fa_layout__current(&cur, st, 64));
	T("from its order", !fa_layout__from_order(&l, st, cur.order, NULL, 64));
	T("the same offsets and size", fa_layout__same(&cur, &l) && l.size == cur.size);
	T("nothing moved", fa_layout__moved(&cur, &l) == 0 && fa_layout__shifted(&cur, &l) == 0);
	fa_layout__exit(&l);
	line_start[cur.order[2]] = true;
	T("a line started", !fa_layout__from_order(&l, st, cur.order, line_start, 64));
	T("at the line", l.offset[cur.order[2]] == 64 && l.align == 64 && l.size == 128);
	T("one edit, three offsets changed",
	  fa_layout__moved(&cur, &l) == 1 && fa_layout__shifted(&cur, &l) == 3);
	fa_layout__exit(&l);
	fa_layout__exit(&cur);
	fa_struct__delete(st);
	return TEST_OK;
}

/* A load of @field by CPU 1, one of @nr accesses of its sample */
static int roles__load(struct fa_type *t, u64 time, int field, int nr)
{
	struct fa_sample s = {
		.time = time, .instance = BASE, .base = BASE, .weight = 1.0 / nr, .cpu = 1,
		.owner = 1, .tid = 101, .field = field, .op = FA_OP_LOAD, .siblings = nr - 1,
	};

	return fa_type__add(t, &s);
}

/*
 * rolefn's shape: f0 (a lock) and f1 written on CPU 0, f2 and f3 read on
 * CPU 1.  @per_sample 2: the reader's two loads come from one sample (an
 * AMD timer lands after both, the block walk gives them), in program order
 * or @reversed; 1: each sample gives one, f2 and f3 in turn (Intel).
 */
static struct fa_type *roles__new(struct fa_struct *st, int per_sample, bool reversed)
{
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	int err = 0;
	u64 time = 0;

	for (int i = 0; t && !err && i < 2000; i++) {
		planted_access(t, time++, 0, 0, FA_OP_RMW);
		planted_access(t, time++, 0, 1, FA_OP_STORE);
		if (per_sample == 1) {
			err = roles__load(t, time++, 2 + i % 2, 1);
			continue;
		}
		err = roles__load(t, time, reversed ? 3 : 2, 2) ||
		      roles__load(t, time, reversed ? 2 : 3, 2);
		time++;
	}
	if (err) {
		fa_type__delete(t);
		t = NULL;
	}
	if (!t)
		fa_struct__delete(st);
	return t;
}

/* The code context of roles__new(): one function reads and writes all four */
static int roles__visits(struct fa_type *t)
{
	static const int fields[] = { 0, 1, 2, 3 };
	u32 by_group[FA_BOOT_GROUPS];

	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		by_group[g] = 4000 / FA_BOOT_GROUPS;
	if (fa_type__add_code_fields(t, fields, 4, 4000))
		return -ENOMEM;
	return fa_type__add_code_visit(t, fields, 4, by_group, 4000);
}

/*
 * Several accesses from one sample weigh and move lines as if sampled one
 * at a time: the advice starts a line at f2, the first the reader reads,
 * whatever shape its loads came in
 */
static int test__affinity_one_shape(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	static const struct { int per_sample; bool reversed; } shapes[] = {
		{ 1, false }, { 2, false }, { 2, true },
	};
	double gain[ARRAY_SIZE(shapes)];

	for (size_t k = 0; k < ARRAY_SIZE(shapes); k++) {
		struct fa_struct *st = longs__new(4);
		struct fa_type *t = roles__new(st, shapes[k].per_sample, shapes[k].reversed);
		struct fa_analysis a;

		T("type", t);
		T("one function, both roles: every visit touches all four",
		  !roles__visits(t));
		fa_type__flush(t);
		T("analysis", !fa_analysis__run(&a, t, FA_METHOD_CODE, FA_XFER_COST, NULL));
		advice__debug(&a, st);
		pr_debug("shape %zu: model %.3f -> %.3f, replay %.3f -> %.3f\n", k,
			 a.cost.now.model.total, a.cost.advised.model.total,
			 a.cost.now.replay.total, a.cost.advised.replay.total);
		T("an edit is advised", a.advice.kind == FA_ADVICE_EDIT && a.advice.changed &&
		  !a.candidate.insufficient);
		T("the lock leaves both readers",
		  separated(&a, st, 0, 2) && separated(&a, st, 0, 3) && !separated(&a, st, 2, 3));
		gain[k] = fa_analysis__gain(&a);
		analysis__exit(&a, t);
	}
	T("the same gain whatever the shape",
	  fabs(gain[1] - gain[0]) < 0.02 && fabs(gain[2] - gain[0]) < 0.02);
	return TEST_OK;
}

/* An access of @field of the one instance, 16 bytes past a cache line */
static int heap16__access(struct fa_type *t, u64 time, u32 cpu, int field, u8 op)
{
	struct fa_sample s = {
		.time = time, .instance = BASE + 16, .base = BASE + 16, .weight = 1,
		.cpu = cpu, .owner = cpu, .tid = 100 + cpu, .field = field, .op = op,
	};

	return fa_type__add(t, &s);
}

/*
 * A counter (f0) written on CPU 0 before f1 to f7, read on CPU 1, and f8,
 * in one heap instance 16 bytes past a line: moving the counter to the end
 * (the smallest edit, the size stays) leaves it on f6 and f7's line in
 * that instance.
 * The advice is the move with the instance aligned, which the replay
 * confirms, not the move alone, which it does not.
 */
static int test__affinity_heap16(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	struct fa_struct *st = longs__new(9);
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	struct fa_analysis a;
	u64 time = 0;
	int err = 0;

	T("type", t);
	for (int i = 0; !err && i < 2000; i++) {
		err = heap16__access(t, time++, 0, 0, FA_OP_RMW);
		for (int f = 1; !err && f < 8; f++)
			err = heap16__access(t, time++, 1, f, FA_OP_LOAD);
	}
	T("accesses", !err);
	T("analysis", !advice__run(&a, t, NULL, NULL));
	advice__debug(&a, st);
	pr_debug("replay %.3f -> %.3f, align %u\n", a.cost.now.replay.total,
		 a.cost.advised.replay.total, a.advice.suggested.align);
	T("an edit, and the instance aligned", a.advice.changed && a.advice.spread &&
	  a.advice.suggested.align == 64);
	T("the replay confirms it", !a.advice.unsure &&
	  a.cost.advised.replay.xfers_per_kacc < a.cost.now.replay.xfers_per_kacc / 10);
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * A sparse sample of one owner's access to f0 or f2 of a queue (f0 head,
 * f1 tail, f2 capacity, f3 cold), its walk decoding 7 other accesses to
 * other data: its share of the sample is an eighth
 */
static int queue__access(struct fa_type *t, u64 time, u32 owner, int field, u8 op)
{
	struct fa_sample s = {
		.time = time, .instance = BASE, .base = BASE, .weight = 1, .cpu = owner,
		.owner = owner, .tid = 100 + owner, .field = field, .op = op, .siblings = 7,
	};

	return fa_type__add(t, &s);
}

/*
 * MPMCQueue's head and tail: a producer increments f0 and reads f2, a
 * consumer increments f1 and reads f2, each access of theirs sampled one
 * in a million, in a walk with seven others.  The producer's reads of f2
 * and the consumer's writes of f1 find the line moved by the other's
 * write: a visit moves it once on average (not a sixteenth of a time, the
 * moves of an eighth of a sample each over the visits), and the head and
 * the tail part.
 */
static int test__affinity_sparse_xfers(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	static const int producer[] = { 0, 2 }, consumer[] = { 1, 2 };
	struct fa_struct *st = longs__new(4);
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	u32 by_group[FA_BOOT_GROUPS];
	struct fa_analysis a;
	u64 time = 0;
	int err = !t;

	for (int i = 0; i < 2000 && !err; i++) {
		err = queue__access(t, time++, 0, i % 2 ? 2 : 0, i % 2 ? FA_OP_LOAD : FA_OP_RMW) ||
		      queue__access(t, time++, 1, i % 2 ? 2 : 1, i % 2 ? FA_OP_LOAD : FA_OP_RMW);
	}
	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		by_group[g] = 2000 / FA_BOOT_GROUPS;
	T("type and accesses", !err);
	T("the producer's and the consumer's code",
	  !fa_type__add_code_fields(t, producer, 2, 2000) &&
	  !fa_type__add_code_fields(t, consumer, 2, 2000) &&
	  !fa_type__add_code_visit(t, producer, 2, by_group, 2000) &&
	  !fa_type__add_code_visit(t, consumer, 2, by_group, 2000));
	fa_type__flush(t);
	T("analysis", !fa_analysis__run(&a, t, FA_METHOD_CODE, FA_XFER_COST, NULL));
	advice__debug(&a, st);
	pr_debug("transfers per visit %.3f -> %.3f\n", a.cost.now.model.xfers_per_window,
		 a.cost.advised.model.xfers_per_window);
	T("a visit moves the line once", fabs(a.cost.now.model.xfers_per_window - 1) < 0.01);
	T("an edit is advised", a.advice.kind == FA_ADVICE_EDIT && a.advice.changed);
	T("the head and the tail part", separated(&a, st, 0, 1));
	T("and no more transfers", a.cost.advised.model.xfers_per_window < 0.1);
	analysis__exit(&a, t);
	return TEST_OK;
}

/*
 * The lock of a struct's first member (it stays first), base.a, written on
 * CPU 0; right after it f3, read on CPU 1 after every write, f4 and f5
 * after one in ten; 136 bytes.  A line started at f3 parts them all (+56
 * bytes); a swap of f3 with a cold member of the next line saves nine
 * tenths of that, at no cost in memory.
 */
static int test__affinity_unpadded(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct fa_struct *st = based__new_n("struct base", 18);
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	struct fa_analysis a;
	u64 time = 0;

	T("type", t);
	for (int i = 0; i < 4000; i++) {
		planted_access(t, time++, 0, 1, FA_OP_RMW);
		planted_access(t, time++, 1, 3, FA_OP_LOAD);
		if (i % 10)
			continue;
		planted_access(t, time++, 1, 4, FA_OP_LOAD);
		planted_access(t, time++, 1, 5, FA_OP_LOAD);
	}
	T("analysis", !advice__run(&a, t, NULL, NULL));
	advice__debug(&a, st);
	T("an edit is advised", a.advice.kind == FA_ADVICE_EDIT);
	T("moves only: nothing padded", !fa_edits__pad(&a.advice.edits));
	T("the size stays", a.advice.suggested.size == 136);
	T("the lock leaves its hot reader", separated(&a, st, 1, 3));
	analysis__exit(&a, t);
	return TEST_OK;
}

static struct test_case tests__affinity_advice[] = {
	TEST_CASE("The smallest edit, not the full reorder", affinity_smallest_edit),
	TEST_CASE("What-if: the advice's own words score as the advice", affinity_try),
	TEST_CASE("An offsetof() range stays together", affinity_keep_order),
	TEST_CASE("A field kept stays where it is", affinity_keep_field),
	TEST_CASE("A first member that is a struct stays first", affinity_keep_base),
	TEST_CASE("A first member that is a lock may move", affinity_lock_first),
	TEST_CASE("An edit the replay says costs more is only a candidate", affinity_every_call),
	TEST_CASE("Unsure only when neither the replay nor the visits confirm", affinity_unsure),
	TEST_CASE("Edits start from the recorded order", affinity_edit_order),
	TEST_CASE("Accesses of one sample count as if sampled one at a time", affinity_one_shape),
	TEST_CASE("A move a heap object 16 bytes past a line undoes comes aligned", affinity_heap16),
	TEST_CASE("Sparse samples' transfers count for every visit of the line", affinity_sparse_xfers),
	TEST_CASE("No padding where moves save as much", affinity_unpadded),
	{	.name = NULL, }
};

struct test_suite suite__affinity_advice = {
	.desc = "perf affinity: advice",
	.test_cases = tests__affinity_advice,
};
