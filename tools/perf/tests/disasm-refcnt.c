// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving the target of a call or jump while disassembling must leave the
 * reference counts of the maps it looks at as they were.  Data-type
 * profiling disassembles every sampled function, so a reference dropped per
 * out-of-map target freed a DSO's map while it was still in the thread's
 * maps ('perf report -s type,typeoff' crashed in maps__find()).
 */
#include <elf.h>
#include <string.h>
#include <linux/refcount.h>
#include <linux/zalloc.h>
#include "debug.h"
#include "disasm.h"
#include "dso.h"
#include "map.h"
#include "map_symbol.h"
#include "maps.h"
#include "symbol.h"
#include "tests.h"

#define TEXT_START	0x400000ULL
#define OTHER_START	0x500000ULL
#define MAP_SIZE	0x1000ULL

struct fake_process {
	struct maps	*maps;
	struct map	*text;	/* holds the function being disassembled */
	struct map	*other;	/* a second DSO a call can land in */
	struct symbol	*func;
};

static struct map *fake_map__new(struct maps *maps, const char *name, u64 start,
				 const char *sym_name)
{
	struct dso *dso = dso__new(name);
	struct symbol *sym;
	struct map *map;

	if (!dso)
		return NULL;
	map = map__new2(start, dso);
	dso__put(dso);
	if (!map)
		return NULL;
	map__set_end(map, start + MAP_SIZE);
	sym = symbol__new(0x100, 0x40, STB_GLOBAL, STT_FUNC, sym_name);
	if (!sym)
		goto out_put;
	if (maps__insert(maps, map))
		goto out_delete;
	/*
	 * Symbols are all there is: never try to load /fake/... from disk.
	 * The map's reference to the DSO: ours was put above.
	 */
	dso__insert_symbol(map__dso(map), sym);
	dso__set_loaded(map__dso(map));
	return map;

out_delete:
	symbol__delete(sym);
out_put:
	map__put(map);
	return NULL;
}

static void fake_process__exit(struct fake_process *p)
{
	map__zput(p->text);
	map__zput(p->other);
	maps__zput(p->maps);
}

static int fake_process__init(struct fake_process *p)
{
	memset(p, 0, sizeof(*p));
	p->maps = maps__new(/*machine=*/NULL);
	if (!p->maps)
		return -1;
	p->text = fake_map__new(p->maps, "/fake/text", TEXT_START, "func");
	p->other = fake_map__new(p->maps, "/fake/other", OTHER_START, "other_func");
	if (!p->text || !p->other) {
		fake_process__exit(p);
		return -1;
	}
	p->func = map__find_symbol(p->text, 0x110);
	return p->func ? 0 : -1;
}

/* Parse one "insn target" line the way disasm_line__init_ins() does. */
static int parse_target(struct fake_process *p, const char *insn, const char *raw)
{
	struct arch *arch = arch__find("x86");
	struct map_symbol ms = {
		.maps = p->maps,
		.map = p->text,
		.sym = p->func,
	};
	struct ins_operands ops = { .raw = NULL, };
	struct ins_ops *iops;
	unsigned int text_refs = refcount_read(map__refcnt(p->text));
	unsigned int other_refs = refcount_read(map__refcnt(p->other));
	int err = TEST_FAIL;

	TEST_ASSERT_VAL("no x86 arch", arch);
	iops = ins__find(arch, insn, /*dl=*/NULL);
	TEST_ASSERT_VAL("no call/jump ops", iops && iops->parse);
	ops.raw = strdup(raw);
	if (!ops.raw)
		return TEST_FAIL;

	iops->parse(arch, &ops, &ms, /*dl=*/NULL);
	pr_debug("%s %s: text refs %u -> %u, other refs %u -> %u\n", insn, raw, text_refs,
		 refcount_read(map__refcnt(p->text)), other_refs,
		 refcount_read(map__refcnt(p->other)));
	if (refcount_read(map__refcnt(p->text)) == text_refs &&
	    refcount_read(map__refcnt(p->other)) == other_refs)
		err = TEST_OK;

	zfree(&ops.target.name);
	free(ops.raw);
	return err;
}

static int test__disasm_target_refcnt(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	/* objdump addresses are map relative here: 0x100000 is OTHER_START. */
	static const char * const lines[][2] = {
		{ "callq", "c00000 <nowhere>" },	/* outside every map */
		{ "callq", "100110 <other_func>" },	/* into the other DSO */
		{ "jmp",   "c00000 <nowhere>" },
		{ "jmp",   "100110 <other_func>" },
		{ "callq", "110 <func>" },		/* inside its own map */
	};
	struct fake_process p;
	int err = TEST_OK;

	TEST_ASSERT_VAL("cannot set up fake maps", fake_process__init(&p) == 0);
	for (size_t i = 0; i < ARRAY_SIZE(lines) && err == TEST_OK; i++) {
		err = parse_target(&p, lines[i][0], lines[i][1]);
		if (err)
			pr_debug("map reference count changed by '%s %s'\n",
				 lines[i][0], lines[i][1]);
	}
	fake_process__exit(&p);
	return err;
}

DEFINE_SUITE("Disassembler call/jump targets keep map references", disasm_target_refcnt);
