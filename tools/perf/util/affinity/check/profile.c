// SPDX-License-Identifier: GPL-2.0
/* A report saved with --json, read back for perf affinity check (profile.h) */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include <api/fs/fs.h>
#include "../layout/classify.h"
#include "../layout/cluster.h"
#include "../advice/cost.h"
#include "../fields/fields.h"
#include "../../json-reader.h"
#include "../layout/layout.h"
#include "profile.h"
#include "../../debug.h"

/* What a type's JSON is read with */
struct fa_profile_ctx {
	struct fa_profile	*p;
	const char		*path;
	u32			 line_size;
	int			 nr_cpus;
	double			 xfer_cost;
	bool			 threads;
	int			 nr_owners;
};

/* A JSON report starts with '{', a perf.data with "PERFILE2" */
bool fa_profile__is_json(const char *path)
{
	FILE *fp = fopen(path, "r");
	int c = EOF;

	if (!fp)
		return false;
	do {
		c = fgetc(fp);
	} while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	fclose(fp);
	return c == '{';
}

static int fa_profile__bad(const struct fa_profile_ctx *ctx, const char *type, const char *what)
{
	pr_err("%s: %s%s%s\n", ctx->path, type ?: "", type ? ": " : "", what);
	return -EINVAL;
}

/* No struct is bigger: a number past it in a layout is a damaged file */
#define FA_PROFILE_MAX_SIZE	(1U << 30)
/* A set's count, by group: shares of samples now, as large as a u32 was */
#define FA_PROFILE_MAX_COUNT	4294967295.0

/* @v is a whole number from @lo to @hi */
static bool fa_profile__in(double v, double lo, double hi)
{
	return v >= lo && v <= hi && v == (double)(long long)v;
}

/* The natural alignment of a member of @size bytes (the JSON has none) */
static u32 fa_profile__align(u32 size)
{
	return size && size <= 8 && !(size & (size - 1)) ? size : 1;
}

/* Field @index of a struct of @size bytes, as the report wrote it */
static int fa_profile__field(const struct json_value *jf, int index, u32 size_of,
			     struct fa_field *f)
{
	const struct json_value *parent = json_value__get(jf, "parent"), *bits = json_value__get(jf, "bitfield");
	const struct json_value *leaf = json_value__get(jf, "leaf");
	double offset, size, depth, bit_offset = 0, bit_size = 0;
	int kind = fa_field_kind__parse(json_value__string(jf, "kind"));

	if (!json_value__string(jf, "name") || kind < 0 || !json_value__number(jf, "offset", &offset) ||
	    !json_value__number(jf, "size", &size) || !json_value__number(jf, "depth", &depth) ||
	    !parent || !leaf || leaf->type != JSON_VALUE_BOOL ||
	    (kind == FA_FIELD_BITFIELD && (!json_value__number(bits, "bit_offset", &bit_offset) ||
					   !json_value__number(bits, "bit_size", &bit_size))))
		return -EINVAL;
	/* within the struct, nested under a field before it */
	if (!fa_profile__in(offset, 0, size_of) || !fa_profile__in(size, 0, size_of - offset) ||
	    !fa_profile__in(depth, 0, 16) || !fa_profile__in(bit_offset, 0, 8 * size) ||
	    !fa_profile__in(bit_size, 0, 8 * size - bit_offset) ||
	    (parent->type == JSON_VALUE_NUMBER ? !fa_profile__in(parent->num, 0, index - 1) || !depth :
	     parent->type != JSON_VALUE_NULL || depth))
		return -EINVAL;
	*f = (struct fa_field){
		.name = (char *)json_value__string(jf, "name"),
		.type = (char *)json_value__string(jf, "type"),
		.suffix = (char *)json_value__string(jf, "suffix"),
		.offset = offset, .size = size, .align = fa_profile__align(size),
		.bit_offset = bit_offset, .bit_size = bit_size, .kind = kind, .depth = depth,
		.parent = parent->type == JSON_VALUE_NUMBER ? (int)parent->num : -1,
		.group = -1, .leaf = leaf->b,
	};
	return 0;
}

/* The struct of the fields; the bitfield groups are made again, as they were */
static struct fa_struct *fa_profile__struct(const struct json_value *jt, const char *name)
{
	const struct json_value *fields = json_value__get(jt, "fields");
	struct fa_struct *st;
	double size, align = 1;
	int err = 0;

	if (!json_value__number(jt, "size", &size) || !fa_profile__in(size, 1, FA_PROFILE_MAX_SIZE) ||
	    !fields || fields->type != JSON_VALUE_ARRAY)
		return NULL;
	json_value__number(json_value__get(jt, "current"), "align", &align);
	if (!fa_profile__in(align, 1, 4096) || ((u32)align & ((u32)align - 1)))
		return NULL;
	st = fa_struct__new(name, size, align);
	for (int i = 0; st && !err && i < fields->nr; i++) {
		const struct json_value *jf = json_value__at(fields, i, JSON_VALUE_OBJECT);
		struct fa_field f;

		err = jf ? fa_profile__field(jf, i, size, &f) : -EINVAL;
		if (!err && f.kind != FA_FIELD_BITGROUP)
			err = fa_struct__add_field(st, &f);
	}
	if (st && (err || fa_struct__finish(st) || st->nr_fields != fields->nr)) {
		fa_struct__delete(st);
		return NULL;
	}
	for (int i = 0; i < st->nr_fields; i++) {
		if (strcmp(st->fields[i].name, json_value__string(json_value__at(fields, i, JSON_VALUE_OBJECT),
							      "name"))) {
			fa_struct__delete(st);
			return NULL;
		}
	}
	return st;
}

/* The bit of owner @id (a thread ID, or a CPU), or -1 */
static int fa_profile__owner(struct fa_profile_ctx *ctx, double id)
{
	if (ctx->threads)
		return fa_profile__in(id, 0, UINT_MAX) ?
		       fa_owners__index(&ctx->p->owners, 0, id) : -1;
	return fa_profile__in(id, 0, ctx->nr_owners - 1) ? (int)id : -1;
}

static int fa_profile__owners(struct fa_profile_ctx *ctx, const struct json_value *ids,
			      unsigned long *bits)
{
	for (int i = 0; ids && i < ids->nr; i++) {
		const struct json_value *id = json_value__at(ids, i, JSON_VALUE_NUMBER);
		int bit = id ? fa_profile__owner(ctx, id->num) : -1;

		if (bit < 0)
			return -EINVAL;
		__set_bit(bit, bits);
	}
	return 0;
}

/* The classes and owners of the leaves, as the report gave them */
static int fa_profile__classes(struct fa_profile_ctx *ctx, const struct json_value *jt,
			       const struct fa_struct *st, struct fa_classes *c)
{
	const struct json_value *fields = json_value__get(jt, "fields"), *shared = json_value__get(jt, "shared");
	int err;

	if (!shared || shared->type != JSON_VALUE_BOOL)
		return -EINVAL;
	err = fa_classes__init_given(c, st, ctx->nr_owners, shared->b);
	for (int k = 0; !err && k < st->nr_leaves; k++) {
		int f = st->leaves[k];
		const struct json_value *jf = json_value__at(fields, f, JSON_VALUE_OBJECT);
		int cls = fa_class__parse(json_value__string(jf, "class"));
		const struct json_value *readers = json_value__get(jf, "readers");
		const struct json_value *writers = json_value__get(jf, "writers");

		if (cls < 0 || !readers || !writers)
			return -EINVAL;
		c->field_cls[f] = cls;
		json_value__number(jf, "weight", &c->fields[f].weight);
		err = fa_profile__owners(ctx, readers, c->fields[f].readers) ?:
		      fa_profile__owners(ctx, writers, c->fields[f].writers);
	}
	if (!err)
		fa_classes__sum(c, st);
	return err;
}

/* The clusters, from fields to the units they are in */
static int fa_profile__clusters(const struct json_value *jt, const struct fa_struct *st,
				struct fa_clusters *cl)
{
	const struct json_value *jcl = json_value__get(jt, "clusters");

	if (!jcl || jcl->type != JSON_VALUE_ARRAY)
		return -EINVAL;
	cl->clusters = calloc(jcl->nr + 1, sizeof(*cl->clusters));
	cl->of_unit = malloc((st->nr_units + 1) * sizeof(*cl->of_unit));
	if (!cl->clusters || !cl->of_unit)
		return -ENOMEM;
	for (int u = 0; u < st->nr_units; u++)
		cl->of_unit[u] = -1;
	for (int k = 0; k < jcl->nr; k++) {
		const struct json_value *fields = json_value__get(json_value__at(jcl, k, JSON_VALUE_OBJECT), "fields");
		struct fa_cluster *c = &cl->clusters[cl->nr++];

		if (!fields || fields->type != JSON_VALUE_ARRAY)
			return -EINVAL;
		c->units = calloc(fields->nr + 1, sizeof(*c->units));
		if (!c->units)
			return -ENOMEM;
		for (int i = 0; i < fields->nr; i++) {
			const struct json_value *f = json_value__at(fields, i, JSON_VALUE_NUMBER);
			int u = f && fa_profile__in(f->num, 0, st->nr_fields - 1) ?
				st->fields[(int)f->num].unit : -1;

			if (u < 0)
				return -EINVAL;
			if (cl->of_unit[u] == k)
				continue;
			cl->of_unit[u] = k;
			c->units[c->nr++] = u;
			c->size += st->units[u].size;
		}
	}
	return 0;
}

/* A layout the report printed ("current", "suggested"): where each unit is */
static int fa_profile__layout(struct fa_profile_ctx *ctx, const struct json_value *jl,
			      const struct fa_struct *st, struct fa_layout *l)
{
	const struct json_value *members = json_value__get(jl, "members");
	u32 *offset = calloc(st->nr_units + 1, sizeof(*offset));
	double size, align;
	int err = -EINVAL;

	if (!offset)
		return -ENOMEM;
	if (!members || members->type != JSON_VALUE_ARRAY || !json_value__number(jl, "size", &size) ||
	    !json_value__number(jl, "align", &align) ||
	    !fa_profile__in(size, st->size, FA_PROFILE_MAX_SIZE) ||
	    !fa_profile__in(align, 1, 4096) || ((u32)align & ((u32)align - 1)))
		goto out;
	for (int u = 0; u < st->nr_units; u++)
		offset[u] = st->units[u].offset;
	for (int i = 0; i < members->nr; i++) {
		const struct json_value *m = json_value__at(members, i, JSON_VALUE_OBJECT);
		double field, off;
		const struct fa_field *f;

		if (!json_value__number(m, "field", &field) || !json_value__number(m, "offset", &off) ||
		    !fa_profile__in(field, 0, st->nr_fields - 1))
			goto out;
		f = &st->fields[(int)field];
		/* the unit within the layout */
		off -= f->offset - st->units[f->unit].offset;
		if (!fa_profile__in(off, 0, size - st->units[f->unit].size))
			goto out;
		offset[f->unit] = off;
	}
	err = fa_layout__from_offsets(l, st, offset, ctx->line_size);
	if (!err) {
		l->size = size;
		l->align = align;
	}
out:
	free(offset);
	return err;
}

/* Sets [count, unit...] of the model, from set @m->nr_sets on */
static int fa_profile__sets(const struct json_value *sets, struct fa_cost_model *m, bool moves,
			    int nr_units, size_t *used)
{
	for (int s = 0; s < sets->nr; s++) {
		const struct json_value *set = json_value__at(sets, s, JSON_VALUE_ARRAY);
		struct fa_cost_set *cs = &m->sets[m->nr_sets++];

		/* a window's units are counted in a buffer of FA_MAX_WINDOW */
		if (!set || set->nr < 2 || set->items[0].type != JSON_VALUE_NUMBER ||
		    set->nr > USHRT_MAX || (!moves && set->nr - 1 > FA_MAX_WINDOW))
			return -EINVAL;
		cs->count = set->items[0].num;
		cs->nr = moves ? 1 : set->nr - 1;
		cs->nr_w = moves ? set->nr - 2 : 0;
		cs->first = *used;
		for (int k = 1; k < set->nr; k++) {
			const struct json_value *u = json_value__at(set, k, JSON_VALUE_NUMBER);

			if (!u || !fa_profile__in(u->num, 0, nr_units - 1))
				return -EINVAL;
			m->units[(*used)++] = u->num;
		}
	}
	return 0;
}

/* Units written on several CPUs, whose line moves wherever it is */
static int fa_profile__moving(const struct json_value *moving, struct fa_cost_model *m, int nr_units)
{
	m->moving = calloc(nr_units + 1, sizeof(*m->moving));
	if (!m->moving)
		return -ENOMEM;
	for (int i = 0; moving && i < moving->nr; i++) {
		const struct json_value *u = json_value__at(moving, i, JSON_VALUE_NUMBER);

		if (!u || !fa_profile__in(u->num, 0, nr_units - 1))
			return -EINVAL;
		m->moving[(int)u->num] = true;
	}
	return 0;
}

/*
 * The groups of the bootstrap, where the report saved them: the windows of
 * each, and [group, count...] of each set; without them, no intervals
 */
static int fa_profile__groups(const struct json_value *jm, struct fa_profile_type *pt)
{
	const struct json_value *wg = json_value__get(jm, "windows_by_group");
	const struct json_value *sg = json_value__get(jm, "set_groups");
	struct fa_cost_model *m = &pt->an.cost.model;

	if (!wg && !sg)
		return 0;
	if (!wg || !sg || wg->type != JSON_VALUE_ARRAY || sg->type != JSON_VALUE_ARRAY ||
	    wg->nr != FA_BOOT_GROUPS || sg->nr != m->nr_sets)
		return -EINVAL;
	pt->groups = calloc((size_t)m->nr_sets * FA_BOOT_GROUPS + 1, sizeof(*pt->groups));
	if (!pt->groups)
		return -ENOMEM;
	for (int g = 0; g < FA_BOOT_GROUPS; g++) {
		const struct json_value *n = json_value__at(wg, g, JSON_VALUE_NUMBER);

		if (!n || !(n->num >= 0))
			return -EINVAL;
		m->nr_by_group.g[g] = n->num;
	}
	for (int s = 0; s < m->nr_sets; s++) {
		const struct json_value *set = json_value__at(sg, s, JSON_VALUE_ARRAY);
		double *group = pt->groups + (size_t)s * FA_BOOT_GROUPS;

		if (!set || set->nr % 2)
			return -EINVAL;
		for (int k = 0; k < set->nr; k += 2) {
			const struct json_value *g = json_value__at(set, k, JSON_VALUE_NUMBER);
			const struct json_value *n = json_value__at(set, k + 1, JSON_VALUE_NUMBER);

			if (!g || !n || !fa_profile__in(g->num, 0, FA_BOOT_GROUPS - 1) ||
			    !(n->num >= 0 && n->num <= FA_PROFILE_MAX_COUNT))
				return -EINVAL;
			group[(int)g->num] = n->num;
		}
		m->sets[s].group = group;
	}
	return 0;
}

/* The cost model as the report compiled it, if it has one */
static int fa_profile__model(const struct json_value *jt, struct fa_profile_type *pt)
{
	const struct json_value *jm = json_value__get(jt, "cost_model");
	const struct json_value *ws = json_value__get(jm, "window_sets"), *ms = json_value__get(jm, "move_sets");
	struct fa_cost_model *m = &pt->an.cost.model;
	int nr_units = pt->t.st->nr_units, err;
	size_t nr = 0, used = 0;
	double windows, accesses = 0;

	if (!jm)
		return 0;
	if (!ws || !ms || ws->type != JSON_VALUE_ARRAY || ms->type != JSON_VALUE_ARRAY ||
	    !json_value__number(jm, "windows", &windows) || !(windows >= 0) ||
	    !json_value__number(jm, "xfer_cost", &m->xfer_cost) ||
	    !(m->xfer_cost >= 0 && m->xfer_cost <= 1e6))
		return -EINVAL;
	for (int s = 0; s < ws->nr + ms->nr; s++) {
		const struct json_value *set = s < ws->nr ? &ws->items[s] : &ms->items[s - ws->nr];

		nr += set->type == JSON_VALUE_ARRAY ? set->nr : 0;
	}
	json_value__number(jt, "accesses", &accesses);
	pt->t.counts.nr_accesses = accesses;
	m->t = &pt->t;
	m->nr_windows = windows;
	m->sets = calloc(ws->nr + ms->nr + 1, sizeof(*m->sets));
	m->units = calloc(nr + 1, sizeof(*m->units));
	if (!m->sets || !m->units)
		return -ENOMEM;
	err = fa_profile__sets(ws, m, /*moves=*/false, nr_units, &used);
	m->nr_window_sets = m->nr_sets;
	err = err ?: fa_profile__sets(ms, m, /*moves=*/true, nr_units, &used) ?:
	      fa_profile__moving(json_value__get(jm, "moving"), m, nr_units) ?:
	      fa_profile__groups(jm, pt);
	return err;
}

/* The leading candidate of insufficient evidence: check says it cannot tell */
static int fa_profile__candidate(struct fa_profile_ctx *ctx, const struct json_value *jt,
				 const struct fa_struct *st, struct fa_analysis *an)
{
	const struct json_value *jc = json_value__get(jt, "candidate");

	/* reports saved before there was a candidate have none */
	if (!jc || jc->type == JSON_VALUE_NULL)
		return 0;
	an->candidate.insufficient = true;
	return fa_profile__layout(ctx, jc, st, &an->candidate.layout);
}

static int fa_profile__type(struct fa_profile_ctx *ctx, const struct json_value *jt,
			    struct fa_profile_type *pt)
{
	const char *name = json_value__string(jt, "name"), *owners = json_value__string(jt, "owners");
	const struct json_value *per_visit = json_value__get(jt, "per_visit");
	struct fa_struct *st = name ? fa_profile__struct(jt, name) : NULL;
	struct fa_analysis *an = &pt->an;
	int err;

	if (!st || !owners || !per_visit)
		return fa_profile__bad(ctx, name, "not a struct type of perf affinity report --json");
	ctx->threads = !strcmp(owners, "threads");
	ctx->nr_owners = ctx->threads ? FA_MAX_THREADS : ctx->nr_cpus;
	pt->t.st = st;
	pt->t.cfg = (struct fa_config){
		.line_size = ctx->line_size, .nr_cpus = ctx->nr_cpus, .by_thread = ctx->threads,
		.nr_owners = ctx->nr_owners, .owners = ctx->threads ? &ctx->p->owners : NULL,
	};
	an->cost.per_visit = per_visit->type == JSON_VALUE_BOOL && per_visit->b;
	an->cost.model.per_visit = an->cost.per_visit;
	an->cost.xfer_cost = ctx->xfer_cost;
	err = fa_profile__classes(ctx, jt, st, &an->seen.classes) ?:
	      fa_profile__clusters(jt, st, &an->advice.clusters) ?:
	      fa_profile__layout(ctx, json_value__get(jt, "current"), st, &an->seen.current) ?:
	      fa_profile__layout(ctx, json_value__get(jt, "suggested"), st,
				 &an->advice.suggested) ?:
	      fa_profile__candidate(ctx, jt, st, an) ?:
	      fa_profile__model(jt, pt);
	if (err == -EINVAL)
		return fa_profile__bad(ctx, name,
				       "its classes, clusters, layouts or cost model are not readable");
	return err;
}

/* What the header says: the cache line size, the CPUs, the cost of a transfer */
static int fa_profile__header(struct fa_profile_ctx *ctx, const struct json_value *doc)
{
	const struct json_value *h = json_value__get(doc, "header");
	double line = 0, cpus = 0, xfer = FA_XFER_COST, version;

	if (!json_value__number(doc, "schema_version", &version) || !h ||
	    !json_value__number(json_value__get(h, "cacheline"), "size", &line) ||
	    !json_value__number(h, "nr_cpus", &cpus))
		return fa_profile__bad(ctx, NULL, "not the JSON of perf affinity report --json");
	json_value__number(json_value__get(h, "options"), "xfer_cost", &xfer);
	if (!fa_profile__in(line, 16, 4096) || ((u32)line & ((u32)line - 1)) ||
	    !fa_profile__in(cpus, 1, 1 << 16) || !(xfer >= 0 && xfer <= 1e6))
		return fa_profile__bad(ctx, NULL, "its header has no cache line size or CPUs");
	ctx->line_size = line;
	ctx->nr_cpus = cpus;
	ctx->xfer_cost = xfer;
	return 0;
}

static int fa_profile__types(struct fa_profile_ctx *ctx, const struct json_value *doc)
{
	const struct json_value *types = json_value__get(doc, "types");
	struct fa_profile *p = ctx->p;
	double total = 0;
	int err = 0;

	if (!types || types->type != JSON_VALUE_ARRAY)
		return fa_profile__bad(ctx, NULL, "not the JSON of perf affinity report --json");
	p->types = calloc(types->nr + 1, sizeof(*p->types));
	if (!p->types)
		return -ENOMEM;
	for (int i = 0; i < types->nr; i++) {
		double acc = 0;

		json_value__number(json_value__at(types, i, JSON_VALUE_OBJECT), "accesses", &acc);
		total += acc;
	}
	for (int i = 0; !err && i < types->nr; i++) {
		const struct json_value *jt = json_value__at(types, i, JSON_VALUE_OBJECT);
		struct fa_profile_type *pt = &p->types[p->nr_types++];
		double acc = 0;

		err = jt ? fa_profile__type(ctx, jt, pt) :
			   fa_profile__bad(ctx, NULL, "a type is not an object");
		json_value__number(jt, "accesses", &acc);
		pt->share = total ? 100 * acc / total : 0;
	}
	return err;
}

/**
 * fa_profile__read - Read the report perf affinity report --json saved
 *
 * Return: 0, or an error said in one line (and nothing left to free).
 */
int fa_profile__read(struct fa_profile *p, const char *path)
{
	struct fa_profile_ctx ctx = { .p = p, .path = path, };
	char *text, err_text[128];
	struct json_value doc;
	size_t len;
	int err;

	memset(p, 0, sizeof(*p));
	if (fa_owners__init(&p->owners))
		return -ENOMEM;
	err = filename__read_str(path, &text, &len);
	if (err) {
		pr_err("%s: %s\n", path, strerror(-err));
		fa_profile__exit(p);
		return err;
	}
	err = json_value__parse(&doc, text, err_text, sizeof(err_text));
	if (err == -EINVAL)
		pr_err("%s: not JSON, %s\n", path, err_text);
	if (!err)
		err = fa_profile__header(&ctx, &doc) ?: fa_profile__types(&ctx, &doc);
	json_value__exit(&doc);
	free(text);
	if (err)
		fa_profile__exit(p);
	return err;
}

void fa_profile__exit(struct fa_profile *p)
{
	for (int i = 0; p->types && i < p->nr_types; i++) {
		zfree(&p->types[i].groups);
		fa_analysis__exit(&p->types[i].an);
		fa_struct__delete(p->types[i].t.st);
	}
	zfree(&p->types);
	p->nr_types = 0;
	fa_owners__exit(&p->owners);
}
