/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Planted access patterns for the unit tests of the perf affinity engine:
 * structs of longs, accesses to their fields, analyses of them.
 */
#ifndef __PERF_TESTS_AFFINITY_PLANTED_H
#define __PERF_TESTS_AFFINITY_PLANTED_H

#include <stdio.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include "affinity/decode/access.h"
#include "affinity/fields/fields.h"
#include "affinity/accumulate/type.h"

#define T(text, cond) TEST_ASSERT_VAL(text, cond)
#define BASE	0x10000ULL

static const struct fa_config test_config = {
	.line_size = 64, .nr_cpus = 4, .scope = FA_SCOPE_CPU, .window = 4,
	.xfer_ns = 1000000, .replay_max = 1 << 16,
	/* planted accesses are a nanosecond apart: blocks of the bootstrap as short */
	.boot_ns = 64,
};

/* @st finished, or NULL if adding its fields failed (@err) or finishing it */
static inline struct fa_struct *planted__finish(struct fa_struct *st, int err)
{
	if (st && (err || fa_struct__finish(st))) {
		fa_struct__delete(st);
		return NULL;
	}
	return st;
}

/* A flat struct of @n longs named f0, f1, ... */
static inline struct fa_struct *longs__new(int n)
{
	struct fa_struct *st = fa_struct__new("struct longs", n * 8, 8);
	char name[16];
	int err = 0;

	for (int i = 0; st && !err && i < n; i++) {
		struct fa_field f = {
			.name = name, .type = (char *)"long int", .offset = i * 8, .size = 8,
			.align = 8, .parent = -1, .group = -1, .leaf = true,
		};

		snprintf(name, sizeof(name), "f%d", i);
		err = fa_struct__add_field(st, &f);
	}
	return planted__finish(st, err);
}

static inline int planted_access(struct fa_type *t, u64 time, u32 cpu, int field, u8 op)
{
	struct fa_sample s = {
		.time = time, .instance = BASE, .base = BASE, .weight = 1, .cpu = cpu, .owner = cpu,
		.tid = 100 + cpu, .field = field, .op = op,
	};

	return fa_type__add(t, &s);
}

/* A struct of @n longs and its accesses, under @cfg */
static inline struct fa_type *longs_type__new_cfg(int n, const struct fa_config *cfg)
{
	struct fa_struct *st = longs__new(n);
	struct fa_type *t = st ? fa_type__new(st, cfg) : NULL;

	if (!t)
		fa_struct__delete(st);
	return t;
}

/* A struct of @n longs and its accesses, under test_config */
static inline struct fa_type *longs_type__new(int n)
{
	return longs_type__new_cfg(n, &test_config);
}

/* A visit of the instance at @base: f0 and f1, then f2 if @cold, and f3 if @cold2 */
static inline int planted_visit(struct fa_type *t, u64 *time, u64 base, bool cold, bool cold2)
{
	struct fa_sample s = {
		.instance = base, .base = base, .weight = 1, .tid = 100, .op = FA_OP_LOAD,
	};
	int nr = 2 + cold + cold2, err = 0;

	for (int k = 0; k < nr && !err; k++) {
		s.time = (*time)++;
		s.field = k;
		err = fa_type__add(t, &s);
	}
	return err;
}

#define PLANTED_VISITS	4000

/*
 * Visits of @st in @nr_inst instances @stride bytes apart (an array of
 * them, or heap objects): @cold of 100 visits touch f2, and f3 too if @both
 */
static inline struct fa_type *planted_visits__new(struct fa_struct *st, int nr_inst, u64 stride,
						  int cold, bool both)
{
	struct fa_type *t = st ? fa_type__new(st, &test_config) : NULL;
	u64 time = 0;

	for (int v = 0; t && v < PLANTED_VISITS; v++) {
		if (planted_visit(t, &time, BASE + (v % nr_inst) * stride, v % 100 < cold,
				  both && v % 100 < cold)) {
			fa_type__delete(t);
			t = NULL;
		}
	}
	if (!t)
		fa_struct__delete(st);
	return t;
}

/* @t and the struct it was made of, as longs_type__new() makes them */
static inline void planted_type__delete(struct fa_type *t)
{
	struct fa_struct *st = t->st;

	fa_type__delete(t);
	fa_struct__delete(st);
}

/* long a; unsigned x:3, y:5; union { int i; char c[4]; } u; long b; long c; */
static inline struct fa_struct *blocks__new(void)
{
	static const struct fa_field f[] = {
		{ .name = (char *)"a", .type = (char *)"long int", .offset = 0, .size = 8,
		  .align = 8, .parent = -1, .group = -1, .leaf = true, },
		{ .name = (char *)"x", .type = (char *)"unsigned int", .offset = 8, .size = 4,
		  .align = 4, .parent = -1, .group = -1, .kind = FA_FIELD_BITFIELD,
		  .bit_size = 3, },
		{ .name = (char *)"y", .type = (char *)"unsigned int", .offset = 8, .size = 4,
		  .align = 4, .parent = -1, .group = -1, .kind = FA_FIELD_BITFIELD,
		  .bit_offset = 3, .bit_size = 5, },
		{ .name = (char *)"u", .type = (char *)"union {...}", .offset = 12, .size = 4,
		  .align = 4, .parent = -1, .group = -1, .kind = FA_FIELD_UNION, .leaf = true, },
		{ .name = (char *)"b", .type = (char *)"long int", .offset = 16, .size = 8,
		  .align = 8, .parent = -1, .group = -1, .leaf = true, },
		{ .name = (char *)"c", .type = (char *)"long int", .offset = 24, .size = 8,
		  .align = 8, .parent = -1, .group = -1, .leaf = true, },
	};
	struct fa_struct *st = fa_struct__new("struct blocks", 32, 8);
	int err = 0;

	for (size_t i = 0; st && !err && i < ARRAY_SIZE(f); i++)
		err = fa_struct__add_field(st, &f[i]);
	return planted__finish(st, err);
}

#endif /* __PERF_TESTS_AFFINITY_PLANTED_H */
