// SPDX-License-Identifier: GPL-2.0
/*
 * The maps the accumulation is built on: hash map keys, the co-access
 * matrix, the owners of cache lines and the instances by address.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include "affinity/accumulate/instances.h"
#include "affinity/accumulate/owner.h"
#include "affinity/decode/key.h"
#include "affinity/accumulate/matrix.h"
#include "debug.h"
#include "tests.h"

#define T(text, cond) TEST_ASSERT_VAL(text, cond)

static bool keymap__keep_even(void *value, void *ctx)
{
	u64 *v = value;

	if (*v / 4096 % 2 == 0)
		return true;
	(*(int *)ctx)++;
	free(v);
	return false;
}

static bool keymap__is(const void *value, const void *ctx)
{
	return ((const u64 *)value)[1] == *(const u64 *)ctx;
}

static int test__affinity_keymap(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	struct fa_keymap m;
	struct fa_keymap_slot *slot;
	u64 *v, *x, *y, which;
	int dropped = 0, seen = 0;

	T("map", !fa_keymap__init(&m));
	for (u64 k = 0; k < 10000; k++) {
		v = fa_keymap__findnew(&m, k * 4096, sizeof(*v));
		T("new", v && *v == k * 4096);
	}
	T("size", fa_keymap__size(&m) == 10000);
	T("found", fa_keymap__findnew(&m, 4096 * 77, sizeof(*v)) == fa_keymap__find(&m, 4096 * 77));
	T("not there", !fa_keymap__find(&m, 4095));
	fa_keymap__for_each(&m, slot)
		seen++;
	T("each once", seen == 10000);
	T("filter", !fa_keymap__filter(&m, keymap__keep_even, &dropped));
	T("half dropped", dropped == 5000 && fa_keymap__size(&m) == 5000);
	T("odd gone", !fa_keymap__find(&m, 4096) && fa_keymap__find(&m, 8192));
	/* two values of one key (a hash): told apart by the compare */
	x = calloc(2, sizeof(*x));
	y = calloc(2, sizeof(*y));
	T("values", x && y);
	x[1] = 1;
	y[1] = 2;
	T("add", !fa_keymap__add(&m, 3, x) && !fa_keymap__add(&m, 3, y));
	which = 2;
	T("the second", fa_keymap__find_eq(&m, 3, keymap__is, &which) == y);
	which = 1;
	T("the first", fa_keymap__find_eq(&m, 3, keymap__is, &which) == x);
	which = 5;
	T("neither", !fa_keymap__find_eq(&m, 3, keymap__is, &which));
	fa_keymap__free_values(&m);
	T("emptied", !m.slots && !fa_keymap__size(&m));
	return TEST_OK;
}

/* An access of the stream both types get: instances come and go */
/* Adds in one order; the same cells, heaviest first, whatever the matrix */
static int matrix__fill(struct fa_matrix *m, u32 n)
{
	srand(7);
	for (int k = 0; k < 5000; k++) {
		u32 i = rand() % n, j = rand() % n;

		if (fa_matrix__add(m, i, j, rand() % 3))
			return -1;
	}
	return 0;
}

static int test__affinity_matrix_dense(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fa_matrix sparse, dense;
	struct fa_cell *a = NULL, *b = NULL;
	int na, nb;

	T("sparse", !fa_matrix__init(&sparse) && !matrix__fill(&sparse, 40));
	T("dense", !fa_matrix__init_n(&dense, 40) && dense.dense && !matrix__fill(&dense, 40));
	T("an index past n", fa_matrix__add(&dense, 40, 0, 1) == -EINVAL);
	na = fa_matrix__cells(&sparse, &a);
	nb = fa_matrix__cells(&dense, &b);
	T("cells", na > 1000 && na == nb && (size_t)nb == fa_matrix__nr_cells(&dense));
	T("the same cells", !memcmp(a, b, na * sizeof(*a)));
	T("the same total", sparse.total == dense.total);
	T("the same get", fa_matrix__get_sym(&sparse, 3, 5) == fa_matrix__get_sym(&dense, 3, 5));
	T("get past n", fa_matrix__get(&dense, 41, 0) == 0);
	free(a);
	free(b);
	fa_matrix__exit(&sparse);
	fa_matrix__exit(&dense);
	T("a large type's is sparse", !fa_matrix__init_n(&dense, FA_MATRIX_DENSE + 1) &&
	  !dense.dense && dense.cells);
	fa_matrix__exit(&dense);
	return TEST_OK;
}

/*
 * Threads get indexes in the order they are seen; past FA_MAX_THREADS - 1
 * they share the last one, each counted once however often it is seen.
 * Sets print as CPU ranges or thread IDs.
 */
static int test__affinity_owners(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	DECLARE_BITMAP(bits, FA_MAX_THREADS) = { 0, };
	struct fa_owners o;
	char buf[64];

	T("owners", !fa_owners__init(&o));
	T("first", fa_owners__index(&o, 0, 1201) == 0);
	T("second", fa_owners__index(&o, 0, 1202) == 1);
	T("the first again", fa_owners__index(&o, 0, 1201) == 0);
	for (u32 tid = 2000; tid < 2000 + FA_MAX_THREADS + 40; tid++) {
		int idx = fa_owners__index(&o, 0, tid);

		T("seen twice, the same", fa_owners__index(&o, 0, tid) == idx);
		T("in range", idx >= 0 && idx < FA_MAX_THREADS);
	}
	pr_debug("%u owners, %" PRIu64 " folded\n", o.nr, o.folded);
	T("all indexes given", o.nr == FA_MAX_THREADS);
	T("42 threads folded, each once", o.folded == 42);
	T("told apart still", fa_owners__index(&o, 0, 1202) == 1);

	T("none", fa_owners__scnprintf(NULL, bits, 8, buf, sizeof(buf)) == 1 && !strcmp(buf, "-"));
	__set_bit(0, bits);
	__set_bit(1, bits);
	T("threads", fa_owners__scnprintf(&o, bits, FA_MAX_THREADS, buf, sizeof(buf)) > 0 &&
	  !strcmp(buf, "1201,1202"));
	__set_bit(2, bits);
	__set_bit(3, bits);
	__set_bit(7, bits);
	fa_owners__scnprintf(NULL, bits, 8, buf, sizeof(buf));
	T("CPU ranges", !strcmp(buf, "0-3,7"));
	bitmap_zero(bits, FA_MAX_THREADS);
	__set_bit(FA_MAX_THREADS - 1, bits);
	fa_owners__scnprintf(&o, bits, FA_MAX_THREADS, buf, sizeof(buf));
	pr_debug("the last index: %s\n", buf);
	T("the last index says it holds more", buf[strlen(buf) - 1] == '+');
	bitmap_fill(bits, FA_MAX_THREADS);
	fa_owners__scnprintf(&o, bits, FA_MAX_THREADS, buf, 16);
	T("too long for the buffer: cut with a '+'", !strcmp(buf, "1201,1202,2000+"));
	fa_owners__exit(&o);

	/* two recordings: one thread ID is two threads, named by recording */
	T("owners", !fa_owners__init(&o));
	T("a thread of the first recording", fa_owners__index(&o, 0, 1201) == 0);
	T("its ID in the second: another thread", fa_owners__index(&o, 1, 1201) == 1);
	T("the first's again", fa_owners__index(&o, 0, 1201) == 0);
	o.several = true;
	bitmap_zero(bits, FA_MAX_THREADS);
	__set_bit(0, bits);
	__set_bit(1, bits);
	fa_owners__scnprintf(&o, bits, FA_MAX_THREADS, buf, sizeof(buf));
	T("printed with their recordings", !strcmp(buf, "1201@1,1201@2"));
	fa_owners__exit(&o);
	return TEST_OK;
}

/*
 * struct rq of 3456 bytes at 0x1000 in the kernel, its lock (a 4 byte
 * struct) at its start, a lock of its own at 0x2000: an address in the
 * rq's lock is in both instances, the innermost is the lock, the outermost
 * the rq.  A C++ class can hold a class of its own size: the outer lookup
 * skips the inner's type.
 */
static int test__affinity_enclosing(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	static const char rq[] = "struct rq", lock[] = "struct qspinlock";
	static const char service[] = "Service", meter[] = "Meter<long int>";
	struct fa_inst_map m;
	const void *type;
	u64 base = 0;
	u32 size = 0;

	T("map", !fa_inst_map__init(&m));
	fa_inst_map__add(&m, 0, 0x1000, 3456, rq);
	fa_inst_map__add(&m, 0, 0x1000, 4, lock);
	fa_inst_map__add(&m, 0, 0x2000, 4, lock);
	T("the largest instance", m.max_size == 3456);
	type = fa_inst_map__find(&m, 0, 0x1002, &base);
	T("innermost: the lock", type == lock && base == 0x1000);
	type = fa_inst_map__find_outer(&m, 0, 0x1002, NULL, &base, &size);
	T("outermost: the rq", type == rq && base == 0x1000 && size == 3456);
	type = fa_inst_map__find_outer(&m, 0, 0x2000, NULL, &base, &size);
	T("a lock of its own", type == lock && size == 4);
	T("not in another address space", !fa_inst_map__find_outer(&m, 42, 0x1002, NULL, &base, &size));
	/* a C++ class holding one member, a class of its size, seen second */
	fa_inst_map__add(&m, 0, 0x3000, 32, service);
	fa_inst_map__add(&m, 0, 0x3000, 32, meter);
	type = fa_inst_map__find_outer(&m, 0, 0x3008, meter, &base, &size);
	T("the holder of the same size", type == service && base == 0x3000 && size == 32);
	fa_inst_map__exit(&m);
	return TEST_OK;
}

static struct test_case tests__affinity_maps[] = {
	TEST_CASE("The open addressing map finds, filters and tells values apart",
		  affinity_keymap),
	TEST_CASE("Dense and sparse matrices hold the same cells", affinity_matrix_dense),
	TEST_CASE("Threads get owner indexes, the ones past the last counted once",
		  affinity_owners),
	TEST_CASE("An embedded struct's instance is in its enclosing one", affinity_enclosing),
	{	.name = NULL, }
};

struct test_suite suite__affinity_maps = {
	.desc = "perf affinity: maps",
	.test_cases = tests__affinity_maps,
};
