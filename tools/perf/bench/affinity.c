// SPDX-License-Identifier: GPL-2.0
/*
 * perf bench affinity: the perf affinity layout engine on generated structs
 * with planted access patterns.
 *
 *   cluster   time the analysis (classes, clustering, layout, cost) of one
 *             struct of many fields
 *   optimum   compare the predicted cost of the suggested layout with the
 *             exact optimum under the same cost model (every grouping of
 *             the fields into cache lines), with the declared order and,
 *             when pahole is installed, with 'pahole --reorganize'
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include <subcmd/parse-options.h>
#include "bench.h"
#include "../util/affinity/decode/access.h"
#include "../util/affinity/advice/analyze.h"
#include "../util/affinity/layout/classify.h"
#include "../util/affinity/advice/cost.h"
#include "../util/affinity/fields/fields.h"
#include "../util/affinity/layout/layout.h"
#include "../util/affinity/accumulate/type.h"

#define LINE_SIZE	64
#define NR_CPUS		4
#define MAX_PATH_FIELDS	6

static unsigned int nr_fields = 2000;
static unsigned int nr_accesses = 1000000;
static unsigned int nr_struct_accesses = 100000;
static unsigned int nr_structs = 50;
static unsigned int max_fields = 10;
static unsigned int seed = 1;
static bool no_pahole;

static const struct option cluster_options[] = {
	OPT_UINTEGER('n', "fields", &nr_fields, "fields of the struct"),
	OPT_UINTEGER('a', "accesses", &nr_accesses, "accesses to feed"),
	OPT_UINTEGER('s', "seed", &seed, "random seed"),
	OPT_END()
};

static const struct option optimum_options[] = {
	OPT_UINTEGER('n', "structs", &nr_structs, "structs to generate"),
	OPT_UINTEGER('f', "max-fields", &max_fields, "at most this many fields (2-12)"),
	OPT_UINTEGER('a', "accesses", &nr_struct_accesses, "accesses per struct"),
	OPT_UINTEGER('s', "seed", &seed, "random seed"),
	OPT_BOOLEAN(0, "no-pahole", &no_pahole, "do not compare with pahole --reorganize"),
	OPT_END()
};

static const char * const cluster_usage[] = {
	"perf bench affinity cluster <options>",
	NULL
};

static const char * const optimum_usage[] = {
	"perf bench affinity optimum <options>",
	NULL
};

static u32 rnd_state;

static u32 rnd(void)
{
	/* xorshift32: the same structs on every machine for a seed */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static double elapsed_ms(const struct timeval *start)
{
	struct timeval now, diff;

	gettimeofday(&now, NULL);
	timersub(&now, start, &diff);
	return diff.tv_sec * 1000.0 + diff.tv_usec / 1000.0;
}

static const u32 field_sizes[] = { 1, 2, 4, 8, 8, 8, 16 };

static const char *size__ctype(u32 size)
{
	switch (size) {
	case 1:	return "char";
	case 2:	return "short";
	case 4:	return "int";
	case 8:	return "long";
	default: return "long double";
	}
}

/* A struct of @n fields of random sizes, declared in random order */
static struct fa_struct *bench_struct__new(const char *name, int n)
{
	struct fa_struct *st;
	u32 off = 0, align = 1;
	u32 size[n];
	char fname[16];

	for (int i = 0; i < n; i++) {
		size[i] = field_sizes[rnd() % ARRAY_SIZE(field_sizes)];
		off = roundup(off, size[i]) + size[i];
		align = max(align, size[i]);
	}
	st = fa_struct__new(name, roundup(off, align), align);
	off = 0;
	for (int i = 0; st && i < n; i++) {
		struct fa_field f = {
			.name = fname, .type = (char *)size__ctype(size[i]), .size = size[i],
			.align = size[i], .parent = -1, .group = -1, .leaf = true,
		};

		off = roundup(off, size[i]);
		f.offset = off;
		off += size[i];
		snprintf(fname, sizeof(fname), "f%d", i);
		if (fa_struct__add_field(st, &f))
			goto out_delete;
	}
	if (st && fa_struct__finish(st))
		goto out_delete;
	return st;

out_delete:
	fa_struct__delete(st);
	return NULL;
}

/*
 * A code path: fields accessed together, on some CPUs, maybe writing one
 * of them.  Paths are picked with weights 1, 1/2, 1/3, ... (Zipf).
 */
struct bench_path {
	int	fields[MAX_PATH_FIELDS];
	int	nr;
	int	written;	/* index in @fields, or -1 */
	u32	cpus;		/* mask */
};

static void bench_paths__init(struct bench_path *paths, int nr_paths, int n)
{
	for (int p = 0; p < nr_paths; p++) {
		struct bench_path *path = &paths[p];

		path->nr = 2 + rnd() % min(MAX_PATH_FIELDS - 1, max(n - 1, 1));
		for (int i = 0; i < path->nr; i++)
			path->fields[i] = rnd() % n;
		/* a third write a field, on one CPU; the others read, anywhere */
		if (rnd() % 3 == 0) {
			path->written = rnd() % path->nr;
			path->cpus = 1U << (rnd() % NR_CPUS);
		} else {
			path->written = -1;
			path->cpus = (1U << NR_CPUS) - 1;
		}
	}
}

static int bench_path__pick(int nr_paths)
{
	double total = 0, x;

	for (int p = 0; p < nr_paths; p++)
		total += 1.0 / (p + 1);
	x = total * (rnd() % 1000000) / 1000000.0;
	for (int p = 0; p < nr_paths; p++) {
		x -= 1.0 / (p + 1);
		if (x <= 0)
			return p;
	}
	return nr_paths - 1;
}

static int bench_path__cpu(const struct bench_path *path)
{
	for (;;) {
		int cpu = rnd() % NR_CPUS;

		if (path->cpus & (1U << cpu))
			return cpu;
	}
}

static const struct fa_config bench_config = {
	.line_size = LINE_SIZE, .nr_cpus = NR_CPUS, .scope = FA_SCOPE_CPU, .window = 8,
	.xfer_ns = 1000000, .replay_max = 1 << 16,
};

/* Feed @nr accesses of @nr_paths random paths over the fields of @st */
static struct fa_type *bench_type__new(struct fa_struct *st, int nr_paths, unsigned int nr)
{
	struct fa_type *t = fa_type__new(st, &bench_config);
	struct bench_path *paths = calloc(nr_paths, sizeof(*paths));
	u64 time = 0;

	if (!t || !paths)
		goto out_err;
	bench_paths__init(paths, nr_paths, st->nr_leaves);
	for (unsigned int done = 0; done < nr;) {
		const struct bench_path *path = &paths[bench_path__pick(nr_paths)];
		int cpu = bench_path__cpu(path);

		for (int i = 0; i < path->nr; i++, done++) {
			struct fa_sample s = {
				.time = time += 10, .instance = 0x10000, .base = 0x10000,
				.weight = 1, .cpu = cpu, .owner = cpu, .tid = 100 + cpu,
				.field = st->leaves[path->fields[i]],
				.op = i == path->written ? FA_OP_STORE : FA_OP_LOAD,
			};

			if (fa_type__add(t, &s))
				goto out_err;
		}
		time += 1000;
	}
	free(paths);
	fa_type__flush(t);
	return t;

out_err:
	free(paths);
	fa_type__delete(t);
	return NULL;
}

int bench_affinity_cluster(int argc, const char **argv)
{
	struct fa_struct *st;
	struct fa_type *t;
	struct fa_analysis a;
	struct timeval start;
	double feed_ms, analyze_ms;
	int err;

	argc = parse_options(argc, argv, cluster_options, cluster_usage, 0);
	if (argc || nr_fields < 2 || nr_fields > 65535)
		usage_with_options(cluster_usage, cluster_options);
	rnd_state = seed ?: 1;
	st = bench_struct__new("struct bench", nr_fields);
	if (!st)
		return -ENOMEM;
	gettimeofday(&start, NULL);
	t = bench_type__new(st, nr_fields / 2, nr_accesses);
	feed_ms = elapsed_ms(&start);
	if (!t) {
		fa_struct__delete(st);
		return -ENOMEM;
	}
	gettimeofday(&start, NULL);
	err = fa_analysis__run(&a, t, FA_METHOD_WINDOW, FA_XFER_COST, NULL);
	analyze_ms = elapsed_ms(&start);
	if (!err) {
		printf("# %u fields (%d units, %u bytes), %u accesses\n", nr_fields,
		       st->nr_units, st->size, nr_accesses);
		printf("%14.3f ms to add the accesses (%.0f ns each)\n", feed_ms,
		       feed_ms * 1e6 / nr_accesses);
		printf("%14.3f ms to classify, cluster, lay out and cost (%d clusters)\n",
		       analyze_ms, a.advice.clusters.nr);
		printf("%14.2f -> %.2f predicted cost\n", a.cost.now.model.total,
		       a.cost.advised.model.total);
		fa_analysis__exit(&a);
	}
	fa_type__delete(t);
	fa_struct__delete(st);
	return err;
}

/*
 * Exact optimum: every grouping of the units into lines (restricted growth
 * strings), each group fitting one line.
 */
struct bench_search {
	const struct fa_struct		*st;
	const struct fa_cost_model	*model;
	const struct fa_classes		*classes;	/* NULL: no constraints */
	int				 group[16];
	int				 units[16][16];
	int				 nr_in[16];
	double				 best;
	u64				 evaluated;
};

/* Whether @u may not join group @g: the constraints the suggestion keeps */
static bool bench_search__conflict(const struct bench_search *s, int g, int u)
{
	for (int i = 0; s->classes && i < s->nr_in[g]; i++) {
		if (fa_classes__conflict(s->classes, s->units[g][i], u))
			return true;
	}
	return false;
}

static void bench_search__rec(struct bench_search *s, int u, int nr_groups)
{
	if (u == s->st->nr_units) {
		struct fa_layout l;

		if (fa_layout__from_groups(&l, s->st, s->group, nr_groups, LINE_SIZE))
			return;
		s->best = min(s->best, fa_cost_model__eval(s->model, &l, NULL));
		s->evaluated++;
		fa_layout__exit(&l);
		return;
	}
	for (int g = 0; g <= nr_groups; g++) {
		s->units[g][s->nr_in[g]] = u;
		if (fa_units__packed_size(s->st, s->units[g], s->nr_in[g] + 1) > LINE_SIZE ||
		    bench_search__conflict(s, g, u))
			continue;
		s->nr_in[g]++;
		s->group[u] = g;
		bench_search__rec(s, u + 1, g == nr_groups ? nr_groups + 1 : nr_groups);
		s->nr_in[g]--;
	}
}

static double bench_optimum(const struct fa_struct *st, const struct fa_cost_model *m,
			    const struct fa_classes *c, u64 *evaluated)
{
	struct bench_search s = { .st = st, .model = m, .classes = c, .best = 1e300, };

	bench_search__rec(&s, 0, 0);
	*evaluated = s.evaluated;
	return s.best;
}

/* Declare the structs in C, for pahole */
static int bench_write_c(FILE *fp, struct fa_struct **sts, int n)
{
	for (int k = 0; k < n; k++) {
		const struct fa_struct *st = sts[k];

		fprintf(fp, "struct bench_%d {\n", k);
		for (int u = 0; u < st->nr_units; u++) {
			const struct fa_field *f = &st->fields[st->units[u].field];

			fprintf(fp, "\t%s %s;\n", f->type, f->name);
		}
		fprintf(fp, "} bench_var_%d;\n\n", k);
	}
	return ferror(fp) ? -EIO : 0;
}

/* Offsets of the members of struct bench_@k as 'pahole --reorganize' lays them out */
static int bench_pahole(const char *obj, int k, const struct fa_struct *st, u32 *offset)
{
	char cmd[PATH_MAX + 64], line[256];
	int found = 0;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "pahole --reorganize -C bench_%d %s 2>/dev/null", k, obj);
	fp = popen(cmd, "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned int field, off, size;
		char *name = strstr(line, " f");

		/* a member: "<type> f3;  followed by its offset and size in a comment */
		if (!name || sscanf(name, " f%u; /* %u %u */", &field, &off, &size) != 3 ||
		    field >= (unsigned int)st->nr_units)
			continue;
		offset[st->fields[field].unit] = off;
		found++;
	}
	pclose(fp);
	return found == st->nr_units ? 0 : -ENOENT;
}

/* Compile the structs with debug info; the object's path in @obj */
static int bench_compile(struct fa_struct **sts, int n, char *obj, size_t size)
{
	char src[] = "/tmp/perf-bench-affinity-XXXXXX.c", cmd[2 * sizeof(src) + 32];
	int fd = mkstemps(src, 2), err;
	FILE *fp;

	if (fd < 0)
		return -errno;
	fp = fdopen(fd, "w");
	if (!fp) {
		close(fd);
		unlink(src);
		return -errno;
	}
	err = bench_write_c(fp, sts, n);
	fclose(fp);
	snprintf(obj, size, "%.*s.o", (int)strlen(src) - 2, src);
	snprintf(cmd, sizeof(cmd), "cc -g -c -o %.*s.o %s", (int)strlen(src) - 2, src, src);
	if (!err && system(cmd))
		err = -ENOENT;
	unlink(src);
	return err;
}

struct bench_result {
	double	current, suggested, optimum, free_optimum, pahole;
	u64	evaluated;
	int	nr;
	bool	have_pahole;
};

static int bench_one(struct fa_struct *st, struct bench_result *r)
{
	struct fa_type *t = bench_type__new(st, 2 + st->nr_units / 2, nr_struct_accesses);
	struct fa_cost_model m;
	struct fa_analysis a;
	int err = -ENOMEM;

	if (!t)
		return err;
	if (fa_analysis__run(&a, t, FA_METHOD_WINDOW, FA_XFER_COST, NULL))
		goto out_type;
	/* the model the analysis used */
	if (fa_cost_model__init(&m, t, a.cost.xfer_cost, /*visits=*/false))
		goto out_analysis;
	if (fa_cost_model__set_moving(&m, &a.seen.classes))
		goto out_model;
	r->nr = st->nr_units;
	r->current = a.cost.now.model.total;
	r->suggested = a.cost.advised.model.total;
	/* keeping the declared layout is always an answer */
	r->optimum = min(r->current, bench_optimum(st, &m, &a.seen.classes, &r->evaluated));
	r->free_optimum = bench_optimum(st, &m, NULL, &r->evaluated);
	err = 0;
out_model:
	fa_cost_model__exit(&m);
out_analysis:
	fa_analysis__exit(&a);
out_type:
	fa_type__delete(t);
	return err;
}

/* The cost model an analysis of @t uses (see fa_analysis__run()) */
static int bench_model__init(struct fa_cost_model *m, struct fa_type *t)
{
	struct fa_classes c;
	int err;

	if (fa_classes__init(&c, t))
		return -ENOMEM;
	err = fa_cost_model__init(m, t, FA_XFER_COST, /*visits=*/false);
	if (!err)
		err = fa_cost_model__set_moving(m, &c);
	if (err)
		fa_cost_model__exit(m);
	fa_classes__exit(&c);
	return err;
}

/* pahole's layout of every struct, costed by the same model */
static void bench_pahole_all(struct fa_struct **sts, struct bench_result *res, int n)
{
	char obj[PATH_MAX];

	if (no_pahole || bench_compile(sts, n, obj, sizeof(obj))) {
		if (!no_pahole)
			printf("# no pahole comparison: cc failed\n");
		return;
	}
	for (int k = 0; k < n; k++) {
		u32 offset[16];
		struct fa_type *t;
		struct fa_cost_model m;
		struct fa_layout l;

		if (bench_pahole(obj, k, sts[k], offset)) {
			if (!k)
				printf("# no pahole comparison: is pahole (dwarves) installed?\n");
			break;
		}
		/* the same accesses again: the generator is reseeded per struct */
		rnd_state = seed + k * 7919;
		t = bench_type__new(sts[k], 2 + sts[k]->nr_units / 2, nr_struct_accesses);
		if (t && !bench_model__init(&m, t)) {
			if (!fa_layout__from_offsets(&l, sts[k], offset, LINE_SIZE)) {
				res[k].pahole = fa_cost_model__eval(&m, &l, NULL);
				res[k].have_pahole = true;
				fa_layout__exit(&l);
			}
			fa_cost_model__exit(&m);
		}
		fa_type__delete(t);
	}
	unlink(obj);
}

static void bench_summary(const struct bench_result *res, int n)
{
	double gap_sum = 0, gap_max = 0, cur_sum = 0, pah_sum = 0, free_sum = 0;
	int optimal = 0, nr_pahole = 0;

	for (int k = 0; k < n; k++) {
		double gap = res[k].suggested / res[k].optimum - 1;

		gap_sum += gap;
		gap_max = max(gap_max, gap);
		cur_sum += res[k].current / res[k].optimum - 1;
		free_sum += res[k].free_optimum / res[k].optimum - 1;
		optimal += gap < 1e-9;
		if (res[k].have_pahole) {
			pah_sum += res[k].pahole / res[k].optimum - 1;
			nr_pahole++;
		}
	}
	printf("\n# above the optimum that keeps the same constraints, on average (worst):\n");
	printf("  suggested  %6.2f%% (%.2f%%), optimal in %d of %d\n", 100 * gap_sum / n,
	       100 * gap_max, optimal, n);
	printf("  declared   %6.2f%%\n", 100 * cur_sum / n);
	printf("  unconstrained optimum %6.2f%% (what never sharing a line with a writer costs, as modelled)\n",
	       100 * free_sum / n);
	if (nr_pahole)
		printf("  pahole     %6.2f%% (--reorganize)\n", 100 * pah_sum / nr_pahole);
}

int bench_affinity_optimum(int argc, const char **argv)
{
	struct fa_struct **sts;
	struct bench_result *res;
	struct timeval start;
	int err = 0;

	argc = parse_options(argc, argv, optimum_options, optimum_usage, 0);
	if (argc || max_fields < 2 || max_fields > 12 || !nr_structs)
		usage_with_options(optimum_usage, optimum_options);
	sts = calloc(nr_structs, sizeof(*sts));
	res = calloc(nr_structs, sizeof(*res));
	if (!sts || !res) {
		err = -ENOMEM;
		goto out;
	}
	printf("# %u structs of 2-%u fields, %u accesses each; costs: lines per window + %.0f x transfers per window\n",
	       nr_structs, max_fields, nr_struct_accesses, FA_XFER_COST);
	printf("# %6s %10s %10s %10s %13s %10s %10s\n", "fields", "declared", "suggested",
	       "optimum", "unconstrained", "layouts", "ms");
	for (unsigned int k = 0; k < nr_structs; k++) {
		char name[32];

		rnd_state = seed + k * 7919;
		snprintf(name, sizeof(name), "struct bench_%u", k);
		sts[k] = bench_struct__new(name, 2 + rnd() % (max_fields - 1));
		if (!sts[k]) {
			err = -ENOMEM;
			goto out;
		}
		/* the accesses start from a known state, for pahole's turn */
		rnd_state = seed + k * 7919;
		gettimeofday(&start, NULL);
		err = bench_one(sts[k], &res[k]);
		if (err)
			goto out;
		printf("  %6d %10.3f %10.3f %10.3f %13.3f %10" PRIu64 " %10.1f\n", res[k].nr,
		       res[k].current, res[k].suggested, res[k].optimum, res[k].free_optimum,
		       res[k].evaluated, elapsed_ms(&start));
	}
	bench_pahole_all(sts, res, nr_structs);
	bench_summary(res, nr_structs);
out:
	for (unsigned int k = 0; sts && k < nr_structs; k++)
		fa_struct__delete(sts[k]);
	free(sts);
	free(res);
	return err;
}
