// SPDX-License-Identifier: GPL-2.0
/*
 * The struct and field tables of perf affinity report as perf hists, in
 * the manner of builtin-c2c.c: each column is a dimension with a header, a
 * printer and an order; -F picks the columns, --sort the order, -x the
 * separator, for both tables, and the TUI browses them as hists.
 *
 * An entry is a struct type or a field, made once from the analysis: the
 * hists only order, filter and print them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include "../advice/analyze.h"
#include "../attr/attr.h"
#include "../layout/classify.h"
#include "../fields/fields.h"
#include "hists.h"
#include "../accumulate/matrix.h"
#include "../accumulate/owner.h"
#include "report.h"
#include "../accumulate/type.h"
#include "../../addr_location.h"
#include "../../debug.h"
#include "../../sort.h"
#include "../../symbol_conf.h"
#include "../../thread.h"

/* How a column orders its entries */
enum fa_order {
	FA_ORDER_DESC,		/* numbers: the most first */
	FA_ORDER_ASC,		/* offsets, names */
};

/*
 * A column: numbers come from @value and are printed with @format, text
 * from @text.  Several tables may have a column of the same name (size,
 * stores): -F and --sort then apply to each.
 */
struct fa_dim {
	const char	*name;
	const char	*header;
	enum fa_order	 order;
	const char	*format;
	double		(*value)(const struct fa_hist_entry *fe);
	int		(*text)(const struct fa_hist_entry *fe, char *buf, size_t size);
};

struct fa_fmt {
	struct perf_hpp_fmt	 fmt;
	const struct fa_dim	*dim;
	int			 width;	/* of the widest entry or the header */
};

static const struct fa_type *fe__type(const struct fa_hist_entry *fe)
{
	return fe->te->t;
}

static const struct fa_field_stats *fe__stats(const struct fa_hist_entry *fe)
{
	return &fe->te->t->counts.stats[fe->field];
}

static const struct fa_field *fe__field(const struct fa_hist_entry *fe)
{
	return &fe->te->st->fields[fe->field];
}

/* The struct table */

static int fa_struct__name(const struct fa_hist_entry *fe, char *buf, size_t size)
{
	return scnprintf(buf, size, "%s", fe->te->name);
}

static double fa_struct__size(const struct fa_hist_entry *fe)
{
	return fe->te->size;
}

static double fa_struct__accesses(const struct fa_hist_entry *fe)
{
	return fe__type(fe)->counts.nr_accesses;
}

static double fa_struct__stores(const struct fa_hist_entry *fe)
{
	return fa_type__stores(fe__type(fe));
}

static double fa_struct__hitm(const struct fa_hist_entry *fe)
{
	return fe__type(fe)->counts.hitm;
}

static double fa_struct__fs(const struct fa_hist_entry *fe)
{
	return fa_matrix__nr_cells(&fe__type(fe)->xfer.fs);
}

static double fa_struct__lines(const struct fa_hist_entry *fe)
{
	return fe->an->cost.now.model.lines_per_window;
}

/* What the advice saves: reorder, pad, align or split */
static double fa_struct__gain(const struct fa_hist_entry *fe)
{
	return 100 * fa_analysis__saving(fe->an);
}

/* "77.1% to 81.9%": where the gain has an interval (fa_analysis__saving_interval()) */
static int fa_struct__gain_interval(const struct fa_hist_entry *fe, char *buf, size_t size)
{
	struct fa_interval ci;

	if (!fa_analysis__saving_interval(fe->an, &ci))
		return scnprintf(buf, size, "-");
	return scnprintf(buf, size, "%.1f%% to %.1f%%", 100 * ci.lo, 100 * ci.hi);
}

#define FA_NUM(_name, _header, _order, _format, _value)				\
	{ .name = _name, .header = _header, .order = _order, .format = _format, .value = _value }
#define FA_TEXT(_name, _header, _order, _text)						\
	{ .name = _name, .header = _header, .order = _order, .text = _text }

static const struct fa_dim fa_struct_dims[] = {
	FA_TEXT("name", "Struct", FA_ORDER_ASC, fa_struct__name),
	FA_NUM("size", "Size", FA_ORDER_DESC, "%.0f", fa_struct__size),
	FA_NUM("accesses", "Accesses", FA_ORDER_DESC, "%.0f", fa_struct__accesses),
	FA_NUM("stores", "Stores", FA_ORDER_DESC, "%.0f", fa_struct__stores),
	FA_NUM("hitm", "Hitm", FA_ORDER_DESC, "%.0f", fa_struct__hitm),
	FA_NUM("fs", "FS pairs", FA_ORDER_DESC, "%.0f", fa_struct__fs),
	FA_NUM("lines", "Lines/win", FA_ORDER_DESC, "%.2f", fa_struct__lines),
	FA_NUM("gain", "Gain", FA_ORDER_DESC, "%.1f%%", fa_struct__gain),
	FA_TEXT("gain_interval", "Gain 95%", FA_ORDER_DESC, fa_struct__gain_interval),
	{ },
};

/* The field table */

static int fa_field__name(const struct fa_hist_entry *fe, char *buf, size_t size)
{
	char cut[FA_FIELD_NAME_MAX + 1];

	const char *name = fe__field(fe)->name;

	return scnprintf(buf, size, "%s",
			 fa_field__short_name(name, FA_FIELD_NAME_MAX, cut, sizeof(cut)));
}

static double fa_field__offset(const struct fa_hist_entry *fe)
{
	return fe__field(fe)->offset;
}

static double fa_field__size(const struct fa_hist_entry *fe)
{
	return fe__field(fe)->size;
}

static double fa_field__line(const struct fa_hist_entry *fe)
{
	return fe__field(fe)->offset / fe__type(fe)->cfg.line_size;
}

static double fa_field__loads(const struct fa_hist_entry *fe)
{
	return fe__stats(fe)->loads + fe__stats(fe)->other;
}

static double fa_field__stores(const struct fa_hist_entry *fe)
{
	return fe__stats(fe)->stores + fe__stats(fe)->rmws;
}

static double fa_field__hitm(const struct fa_hist_entry *fe)
{
	return fe__stats(fe)->hitm;
}

static double fa_field__share(const struct fa_hist_entry *fe)
{
	return fa_type__field_share(fe__type(fe), fe->field);
}

/* Owners: "0-3,8" as perf prints CPU lists, thread IDs "1201,1202", "-" */
static int fa_field__owners(const struct fa_hist_entry *fe, const unsigned long *owners,
			    char *buf, size_t size)
{
	const struct fa_type *t = fe__type(fe);

	return fa_owners__scnprintf(t->cfg.owners, owners, t->cfg.nr_owners, buf, size);
}

static int fa_field__readers(const struct fa_hist_entry *fe, char *buf, size_t size)
{
	return fa_field__owners(fe, fe->an->seen.classes.fields[fe->field].readers, buf, size);
}

static int fa_field__writers(const struct fa_hist_entry *fe, char *buf, size_t size)
{
	return fa_field__owners(fe, fe->an->seen.classes.fields[fe->field].writers, buf, size);
}

static int fa_field__class(const struct fa_hist_entry *fe, char *buf, size_t size)
{
	const struct fa_classes *c = &fe->an->seen.classes;

	const struct fa_field_info *fi = &c->fields[fe->field];

	return scnprintf(buf, size, "%s%s%s", fa_class__name(c->field_cls[fe->field]),
			 fi->agree < FA_CLASS_SURE ? "?" : "",
			 fi->exact ? " (exact)" : fi->class_by_code ? " (code)" : "");
}

static const struct fa_dim fa_field_dims[] = {
	FA_TEXT("name", "Field", FA_ORDER_ASC, fa_field__name),
	FA_NUM("offset", "Off", FA_ORDER_ASC, "%.0f", fa_field__offset),
	FA_NUM("size", "Size", FA_ORDER_DESC, "%.0f", fa_field__size),
	FA_NUM("line", "Line", FA_ORDER_ASC, "%.0f", fa_field__line),
	FA_NUM("loads", "Loads", FA_ORDER_DESC, "%.0f", fa_field__loads),
	FA_NUM("stores", "Stores", FA_ORDER_DESC, "%.0f", fa_field__stores),
	FA_NUM("hitm", "Hitm", FA_ORDER_DESC, "%.0f", fa_field__hitm),
	FA_NUM("share", "Acc%", FA_ORDER_DESC, "%.1f%%", fa_field__share),
	FA_TEXT("readers", "Readers", FA_ORDER_ASC, fa_field__readers),
	FA_TEXT("writers", "Writers", FA_ORDER_ASC, fa_field__writers),
	FA_TEXT("class", "Class", FA_ORDER_ASC, fa_field__class),
	{ },
};

static const struct fa_dim * const fa_dims[FA_TABLE_MAX] = {
	[FA_TABLE_STRUCTS]	= fa_struct_dims,
	[FA_TABLE_FIELDS]	= fa_field_dims,
};

/* What a table shows and how it is sorted unless -F and --sort say */
static const char * const fa_default_fields[FA_TABLE_MAX] = {
	[FA_TABLE_STRUCTS]	= "name,size,accesses,stores,hitm,fs,lines,gain,gain_interval",
	[FA_TABLE_FIELDS]	=
		"name,offset,size,line,loads,stores,hitm,share,readers,writers,class",
};

static const char * const fa_default_sort[FA_TABLE_MAX] = {
	[FA_TABLE_STRUCTS]	= "accesses",
	[FA_TABLE_FIELDS]	= "offset",
};

static const struct fa_dim *fa_dim__find(enum fa_table table, const char *name)
{
	for (const struct fa_dim *d = fa_dims[table]; d->name; d++) {
		if (!strcmp(d->name, name))
			return d;
	}
	return NULL;
}

static int fa_dim__snprintf(const struct fa_dim *d, const struct fa_hist_entry *fe,
			    char *buf, size_t size)
{
	if (d->text)
		return d->text(fe, buf, size);
	return scnprintf(buf, size, d->format, d->value(fe));
}

static struct fa_fmt *fa_fmt(struct perf_hpp_fmt *fmt)
{
	return container_of(fmt, struct fa_fmt, fmt);
}

/* Numbers to the right, text to the left of their column, none after the last */
static int fa_fmt__print(struct perf_hpp_fmt *fmt, struct hists *hists, struct perf_hpp *hpp,
			 const char *s)
{
	struct fa_fmt *ff = fa_fmt(fmt);

	if (ff->dim->text && list_is_last(&fmt->list, &hists->hpp_list->fields))
		return scnprintf(hpp->buf, hpp->size, "%s", s);
	if (ff->dim->text)
		return scnprintf(hpp->buf, hpp->size, "%-*s", ff->width, s);
	return scnprintf(hpp->buf, hpp->size, "%*s", ff->width, s);
}

static int fa_fmt__header(struct perf_hpp_fmt *fmt, struct perf_hpp *hpp, struct hists *hists,
			  int line __maybe_unused, int *span __maybe_unused)
{
	return fa_fmt__print(fmt, hists, hpp, fa_fmt(fmt)->dim->header);
}

static int fa_fmt__width(struct perf_hpp_fmt *fmt, struct perf_hpp *hpp __maybe_unused,
			 struct hists *hists __maybe_unused)
{
	return fa_fmt(fmt)->width;
}

static int fa_fmt__entry(struct perf_hpp_fmt *fmt, struct perf_hpp *hpp, struct hist_entry *he)
{
	char buf[128];

	fa_dim__snprintf(fa_fmt(fmt)->dim, fa_hist_entry(he), buf, sizeof(buf));
	return fa_fmt__print(fmt, he->hists, hpp, buf);
}

/* > 0: @a is shown before @b */
static int64_t fa_fmt__sort(struct perf_hpp_fmt *fmt, struct hist_entry *a, struct hist_entry *b)
{
	const struct fa_dim *d = fa_fmt(fmt)->dim;
	struct fa_hist_entry *x = fa_hist_entry(a), *y = fa_hist_entry(b);
	int64_t cmp;

	if (d->text) {
		char bx[128], by[128];

		fa_dim__snprintf(d, x, bx, sizeof(bx));
		fa_dim__snprintf(d, y, by, sizeof(by));
		cmp = strcmp(by, bx);
	} else {
		double vx = d->value(x), vy = d->value(y);

		cmp = vx > vy ? 1 : vx < vy ? -1 : 0;
		if (d->order == FA_ORDER_ASC)
			cmp = -cmp;
	}
	return cmp;
}

/*
 * The identity of an entry, to make it once, and the order of entries the
 * --sort keys leave equal: that of the types or of the fields.
 */
static int64_t fa_fmt__id(struct perf_hpp_fmt *fmt __maybe_unused, struct hist_entry *a,
			  struct hist_entry *b)
{
	return a->ip < b->ip ? 1 : a->ip > b->ip ? -1 : 0;
}

static bool fa_fmt__equal(struct perf_hpp_fmt *a, struct perf_hpp_fmt *b)
{
	return a->header == fa_fmt__header && b->header == fa_fmt__header &&
	       fa_fmt(a)->dim == fa_fmt(b)->dim;
}

static void fa_fmt__free(struct perf_hpp_fmt *fmt)
{
	free(fa_fmt(fmt));
}

static struct perf_hpp_fmt *fa_fmt__new(const struct fa_dim *d)
{
	struct fa_fmt *ff = zalloc(sizeof(*ff));

	if (!ff)
		return NULL;
	ff->dim = d;
	INIT_LIST_HEAD(&ff->fmt.list);
	INIT_LIST_HEAD(&ff->fmt.sort_list);
	ff->fmt.name = d->name;
	ff->fmt.header = fa_fmt__header;
	ff->fmt.width = fa_fmt__width;
	ff->fmt.entry = fa_fmt__entry;
	ff->fmt.sort = fa_fmt__sort;
	ff->fmt.cmp = fa_fmt__sort;
	ff->fmt.collapse = fa_fmt__sort;
	ff->fmt.equal = fa_fmt__equal;
	ff->fmt.free = fa_fmt__free;
	return &ff->fmt;
}

static void fa_fmt__free_id(struct perf_hpp_fmt *fmt)
{
	free(fmt);
}

/* A sort only key: no header, no entry */
static struct perf_hpp_fmt *fa_fmt__new_id(void)
{
	struct perf_hpp_fmt *fmt = zalloc(sizeof(*fmt));

	if (!fmt)
		return NULL;
	INIT_LIST_HEAD(&fmt->list);
	INIT_LIST_HEAD(&fmt->sort_list);
	fmt->name = "id";
	fmt->cmp = fa_fmt__id;
	fmt->collapse = fa_fmt__id;
	fmt->sort = fa_fmt__id;
	fmt->free = fa_fmt__free_id;
	return fmt;
}

/* The column keys of all tables, each once: "name, size, ..." */
static int fa_hists__keys(char *buf, size_t size)
{
	int len = 0;

	for (int t = 0; t < FA_TABLE_MAX; t++) {
		for (const struct fa_dim *d = fa_dims[t]; d->name; d++) {
			if (t && fa_dim__find(FA_TABLE_STRUCTS, d->name))
				continue;
			len += scnprintf(buf + len, size - len, "%s%s", len ? ", " : "", d->name);
		}
	}
	return len;
}

/**
 * fa_hists__check_keys - Are all the -F or --sort @keys columns of a table?
 * @option: "-F" or "--sort", for the error
 *
 * Return: 0, or -EINVAL with the error printed.
 */
int fa_hists__check_keys(const char *option, const char *keys)
{
	char *s = strdup(keys), *tmp, *tok, all[256];
	int err = s ? 0 : -ENOMEM;

	for (tok = strtok_r(s, ", ", &tmp); !err && tok; tok = strtok_r(NULL, ", ", &tmp)) {
		if (fa_dim__find(FA_TABLE_STRUCTS, tok) || fa_dim__find(FA_TABLE_FIELDS, tok))
			continue;
		fa_hists__keys(all, sizeof(all));
		pr_err("%s %s: use %s\n", option, tok, all);
		err = -EINVAL;
	}
	free(s);
	return err;
}

/*
 * The columns of @keys that @fh's table has, as output fields or as sort
 * keys; none: the table's default ones.
 */
static int fa_hists__add_keys(struct fa_hists *fh, const char *keys, bool sort)
{
	const char *dflt = sort ? fa_default_sort[fh->table] : fa_default_fields[fh->table];
	char *s = strdup(keys ?: dflt), *tmp, *tok;
	int nr = 0, err = s ? 0 : -ENOMEM;

	for (tok = strtok_r(s, ", ", &tmp); !err && tok; tok = strtok_r(NULL, ", ", &tmp)) {
		const struct fa_dim *d = fa_dim__find(fh->table, tok);
		struct perf_hpp_fmt *fmt = d ? fa_fmt__new(d) : NULL;

		if (!d)
			continue;
		if (!fmt) {
			err = -ENOMEM;
			break;
		}
		if (sort)
			perf_hpp_list__register_sort_field(&fh->list, fmt);
		else
			perf_hpp_list__column_register(&fh->list, fmt);
		nr++;
	}
	free(s);
	if (!err && !nr && keys)
		return fa_hists__add_keys(fh, NULL, sort);
	return err;
}

/* The sort keys that are not columns become columns, as in perf report */
static int fa_hists__sort_columns(struct fa_hists *fh)
{
	struct perf_hpp_fmt *fmt, *pos, *col;

	perf_hpp_list__for_each_sort_list(&fh->list, fmt) {
		if (!fmt->entry)
			continue;
		perf_hpp_list__for_each_format(&fh->list, pos) {
			if (fmt->equal(fmt, pos))
				goto next;
		}
		col = fa_fmt__new(fa_fmt(fmt)->dim);
		if (!col)
			return -ENOMEM;
		perf_hpp_list__column_register(&fh->list, col);
next:
		continue;
	}
	return 0;
}

/* Columns as wide as their widest entry or their header */
static void fa_hists__set_widths(struct fa_hists *fh)
{
	struct perf_hpp_fmt *fmt;
	struct fa_hist_entry *fe;
	char buf[128];

	perf_hpp_list__for_each_format(&fh->list, fmt) {
		struct fa_fmt *ff = fa_fmt(fmt);

		ff->width = strlen(ff->dim->header);
		fa_hists__for_each_entry(fh, fe)
			ff->width = max(ff->width, fa_dim__snprintf(ff->dim, fe, buf, sizeof(buf)));
	}
}

static void *fa_hist_entry__zalloc(size_t size)
{
	struct fa_hist_entry *fe = zalloc(size + sizeof(*fe));

	return fe ? &fe->he : NULL;
}

static void fa_hist_entry__free(void *ptr)
{
	struct fa_hist_entry *fe = fa_hist_entry(ptr);

	if (fe->fields) {
		fa_hists__exit(fe->fields);
		free(fe->fields);
	}
	free(fe);
}

static struct hist_entry_ops fa_hist_entry_ops = {
	.new	= fa_hist_entry__zalloc,
	.free	= fa_hist_entry__free,
};

static int fa_hists__init(struct fa_hists *fh, enum fa_table table)
{
	struct perf_hpp_fmt *id = fa_fmt__new_id();

	memset(fh, 0, sizeof(*fh));
	fh->table = table;
	__hists__init(&fh->hists, &fh->list);
	perf_hpp_list__init(&fh->list);
	fh->list.nr_header_lines = 1;
	fh->thread = thread__new(-1, -1);
	/* empty maps: hists__fprintf() prints them at -vv for entries without a map */
	if (!id || !fh->thread || thread__init_maps(fh->thread, /*machine=*/NULL)) {
		free(id);
		thread__zput(fh->thread);
		return -ENOMEM;
	}
	perf_hpp_list__register_sort_field(&fh->list, id);
	return 0;
}

void fa_hists__exit(struct fa_hists *fh)
{
	hists__delete_entries(&fh->hists);
	perf_hpp__reset_output_field(&fh->list);
	thread__zput(fh->thread);
}

/* Entry @id of @fh, or NULL */
static struct fa_hist_entry *fa_hists__add(struct fa_hists *fh, u64 id, bool shown)
{
	struct addr_location al;
	struct perf_sample sample = { .period = 1, };
	struct hist_entry *he;

	addr_location__init(&al);
	al.thread = thread__get(fh->thread);
	al.addr = id;
	he = hists__add_entry_ops(&fh->hists, &fa_hist_entry_ops, &al, NULL, NULL, NULL, NULL,
				  &sample, true);
	addr_location__exit(&al);
	if (!he)
		return NULL;
	he->filtered = !shown;
	fh->nr_shown += shown;
	fh->nr_hidden += !shown;
	return fa_hist_entry(he);
}

/* Columns and order from -F and --sort, then the entries in that order */
static int fa_hists__resort(struct fa_hists *fh, const struct fa_report_opts *o)
{
	int err;

	/* the identity key made the entries, the columns order them */
	perf_hpp__reset_output_field(&fh->list);
	err = fa_hists__add_keys(fh, o->fields, /*sort=*/false);
	if (!err)
		err = fa_hists__add_keys(fh, o->sort_keys, /*sort=*/true);
	if (!err)
		err = fa_hists__sort_columns(fh);
	if (!err) {
		struct perf_hpp_fmt *id = fa_fmt__new_id();

		if (id)
			perf_hpp_list__register_sort_field(&fh->list, id);
		else
			err = -ENOMEM;
	}
	/* even so: the entries to free are those in the output */
	hists__collapse_resort(&fh->hists, NULL);
	hists__output_resort(&fh->hists, NULL);
	fa_hists__set_widths(fh);
	return err;
}

/*
 * A field is shown when it has its share of the samples, or when the code
 * context says it is accessed by the code that was sampled: then its CPUs
 * and class are those the code says, marked so.
 */
bool fa_hists__field_shown(const struct fa_type *t, const struct fa_analysis *an, int field,
			   double percent_limit)
{
	double share = fa_type__field_share(t, field);

	if (an->seen.classes.field_cls[field] != FA_CLASS_COLD)
		return true;
	return share && share >= percent_limit;
}

/**
 * fa_hists__structs - The struct table: the types with accesses
 * @an: The analyses, in the order of @s's types
 *
 * Types below --percent-limit are entries too, filtered out.
 */
int fa_hists__structs(struct fa_hists *fh, struct fa_session *s, struct fa_analysis *an,
		      const struct fa_report_opts *o)
{
	int err = fa_hists__init(fh, FA_TABLE_STRUCTS);
	u64 total = 0;

	fh->percent_limit = o->percent_limit;
	for (int i = 0; i < s->nr_types; i++)
		total += s->types[i]->t ? s->types[i]->t->counts.nr_accesses : 0;
	for (int i = 0; !err && i < s->nr_types; i++) {
		const struct fa_type *t = s->types[i]->t;
		struct fa_hist_entry *fe;

		if (!t)
			continue;
		/* --percent-limit: the share of the accesses attributed to all types */
		fe = fa_hists__add(fh, i, 100.0 * t->counts.nr_accesses >= o->percent_limit * total);
		if (!fe) {
			err = -ENOMEM;
			break;
		}
		fe->te = s->types[i];
		fe->an = &an[i];
		fe->index = i;
		fe->field = -1;
	}
	if (!err)
		err = fa_hists__resort(fh, o);
	return err;
}

/**
 * fa_hists__fields - The field table of a struct type, made once
 * @fe: The struct's entry in the struct table
 *
 * Return: the table, that @fe owns, or NULL when memory ran out.
 */
struct fa_hists *fa_hists__fields(struct fa_hist_entry *fe, const struct fa_report_opts *o)
{
	const struct fa_struct *st = fe->te->st;
	struct fa_hists *fh;

	if (fe->fields)
		return fe->fields;
	fh = malloc(sizeof(*fh));
	if (!fh || fa_hists__init(fh, FA_TABLE_FIELDS)) {
		free(fh);
		return NULL;
	}
	fh->percent_limit = o->percent_limit;
	fh->parent = fe;
	for (int i = 0; i < st->nr_leaves; i++) {
		int f = st->leaves[i];
		struct fa_hist_entry *field;

		field = fa_hists__add(fh, i, fa_hists__field_shown(fe->te->t, fe->an, f,
								   o->percent_limit));
		if (!field)
			goto out_err;
		field->te = fe->te;
		field->an = fe->an;
		field->index = fe->index;
		field->field = f;
	}
	if (fa_hists__resort(fh, o))
		goto out_err;
	fe->fields = fh;
	return fh;
out_err:
	fa_hists__exit(fh);
	free(fh);
	return NULL;
}

/**
 * fa_hists__next - The entry after @fe above --percent-limit, in --sort order
 * @fe: An entry of @fh, or NULL for the first
 *
 * Return: the entry, or NULL after the last.
 */
struct fa_hist_entry *fa_hists__next(struct fa_hists *fh, struct fa_hist_entry *fe)
{
	struct rb_node *nd = fe ? rb_next(&fe->he.rb_node) : rb_first_cached(&fh->hists.entries);

	for (; nd; nd = rb_next(nd)) {
		fe = fa_hist_entry(rb_entry(nd, struct hist_entry, rb_node));
		if (!fe->he.filtered)
			return fe;
	}
	return NULL;
}

/*
 * Does a field of the table have the class the code context gave it, the
 * watchpoints, or one the samples are not sure of (@mark)?
 */
bool fa_hists__marked(struct fa_hists *fh, enum fa_mark mark)
{
	struct fa_hist_entry *fe;

	fa_hists__for_each_entry(fh, fe) {
		const struct fa_field_info *fi;

		if (fe->field < 0)
			continue;
		fi = &fe->an->seen.classes.fields[fe->field];
		if (mark == FA_MARK_EXACT ? fi->exact : mark == FA_MARK_CODE ? fi->class_by_code :
		    fi->agree < FA_CLASS_SURE)
			return true;
	}
	return false;
}

/* One field of -x: "1201,1202" with -x , is one field, quoted as in CSV */
static size_t fa_sep__field(FILE *fp, const char *sep, bool first, const char *text)
{
	bool quote = *sep && strstr(text, sep);

	return fprintf(fp, "%s%s%s%s", first ? "" : sep, quote ? "\"" : "", text,
		       quote ? "\"" : "");
}

/**
 * fa_hists__fprintf_sep - -x: the keys of the columns (with @header), then
 * the entries, with nothing but the separator between fields
 * (hists__fprintf() pads them to the columns)
 * @key: NULL, or the key of a first column, whose value is @value on
 *       every line: the field tables of several types in one
 */
size_t fa_hists__fprintf_sep(struct fa_hists *fh, FILE *fp, const char *key, const char *value,
			     bool header)
{
	const char *sep = symbol_conf.field_sep ?: ",";
	struct perf_hpp_fmt *fmt;
	struct fa_hist_entry *fe;
	size_t printed = 0;
	char buf[128];

	if (header) {
		if (key)
			printed += fa_sep__field(fp, sep, true, key);
		perf_hpp_list__for_each_format(&fh->list, fmt)
			printed += fa_sep__field(fp, sep, !key && fmt->list.prev == &fh->list.fields,
						 fa_fmt(fmt)->dim->name);
		printed += fprintf(fp, "\n");
	}
	fa_hists__for_each_entry(fh, fe) {
		if (key)
			printed += fa_sep__field(fp, sep, true, value);
		perf_hpp_list__for_each_format(&fh->list, fmt) {
			fa_dim__snprintf(fa_fmt(fmt)->dim, fe, buf, sizeof(buf));
			printed += fa_sep__field(fp, sep, !key && fmt->list.prev == &fh->list.fields,
						 buf);
		}
		printed += fprintf(fp, "\n");
	}
	return printed;
}

size_t fa_hists__fprintf(struct fa_hists *fh, FILE *fp)
{
	if (symbol_conf.field_sep)
		return fa_hists__fprintf_sep(fh, fp, NULL, NULL, /*header=*/true);
	return hists__fprintf(&fh->hists, /*show_header=*/true, 0, 0, 0, fp,
			      /*ignore_callchains=*/true);
}
