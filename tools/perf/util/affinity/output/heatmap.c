// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report --heatmap (see heatmap.h).  Plain SVG: no script,
 * no external font or style, so that it shows the same in a browser, an
 * image viewer or a mail.  Every cell has a <title> (the tooltip browsers
 * show on hover) with the two fields, the weight and its share.
 *
 * The fields shown are those the stdio report shows (--percent-limit), in
 * the order of the layout of the panel, so that the cache lines are the
 * blocks along the diagonal: a dark cell off the diagonal blocks is a pair
 * that the layout splits over two lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "../advice/analyze.h"
#include "../attr/attr.h"
#include "../fields/fields.h"
#include "heatmap.h"
#include "hists.h"
#include "../advice/lines.h"
#include "../advice/merge.h"
#include "report.h"
#include "../accumulate/type.h"

#define HM_FONT		11	/* px, monospace */
#define HM_CHAR		6.8	/* width of a character at HM_FONT */
#define HM_PAD		16
#define HM_MAX_CELL	18
#define HM_MIN_CELL	3
#define HM_MATRIX	720	/* the matrix is at most this wide, at HM_MIN_CELL */
#define HM_MARKER	8	/* the square with the class of a field */
#define HM_LEGEND	64
#define HM_NAME		32	/* longer names are cut, whole in the tooltip */
#define HM_TITLE	40	/* the title of a struct type */
#define HM_PANEL_TITLE	40	/* the title of a layout */
#define HM_PANEL_VISIT	14	/* its lines per visit where the instances were */
#define HM_SL_SHOWN	8	/* lines of several instances drawn, as in --stdio */
#define HM_SL_TITLE	24
#define HM_SL_ROW	22
#define HM_SL_BAR	512	/* px for the bytes of one cache line */
#define HM_SL_LABEL	(HM_CHAR * 42)

/* Sequential, light to dark (ColorBrewer YlOrRd): the heavier, the darker */
static const unsigned char hm_scale[][3] = {
	{ 0xff, 0xed, 0xa0 }, { 0xfe, 0xb2, 0x4c }, { 0xfd, 0x8d, 0x3c },
	{ 0xe3, 0x1a, 0x1c }, { 0x80, 0x00, 0x26 },
};

static const char * const hm_class_color[FA_CLASS_MAX] = {
	[FA_CLASS_COLD]			= "#bdbdbd",
	[FA_CLASS_READ_MOSTLY]		= "#4c78a8",
	[FA_CLASS_WRITE_HOT]		= "#f58518",
	[FA_CLASS_SHARED_WRITTEN]	= "#9d2bb5",
};

#define HM_FS_COLOR	"#1060d0"

static const char hm_sampled_cells[] =
	"cells: the sampled accesses both fields had in the functions accessing both";

/* One matrix: the shown fields in the order of a layout */
struct fa_hm_panel {
	const struct fa_layout	*l;
	const struct fa_split	*split;		/* the hot part, then the cold one */
	const char		*what;
	const struct fa_cost	*cost;
	int			*fields;
	int			*line;
};

struct fa_hm_type {
	struct fa_type_entry	*te;
	struct fa_analysis	*an;
	struct fa_hm_panel	 panel[2];
	int			 nr_panels;
	int			 n;		/* fields shown */
	double			 cell;
	double			 label_w;	/* room for offsets, names and markers */
	double			 col_h;		/* room for the names over the columns */
	double			 panel_w;
	/* the cells' weights: the method's, or the code method's sampled pairs */
	const struct fa_matrix	*w;
	struct fa_matrix	 sampled;
	double			 max_w;		/* the heaviest shown pair */
	double			 width, height;
	double			 title;		/* of the type */
	double			 panel_title;
	const struct fa_shared_line *sl;	/* lines of several instances */
	int			 nr_sl;
};

static void hm_color(double v, char *buf, size_t size)
{
	int last = ARRAY_SIZE(hm_scale) - 1, k;
	double pos = v < 0 ? 0 : v > 1 ? last : v * last, frac;
	int rgb[3];

	k = pos >= last ? last - 1 : (int)pos;
	frac = pos - k;
	for (int c = 0; c < 3; c++)
		rgb[c] = hm_scale[k][c] + (int)(frac * (hm_scale[k + 1][c] - hm_scale[k][c]));
	scnprintf(buf, size, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* Text as XML character data; names are C identifiers, anything else is '?' */
static size_t hm_fprintf_text(FILE *fp, const char *s)
{
	size_t printed = 0;

	for (; *s; s++) {
		switch (*s) {
		case '&':
			printed += fprintf(fp, "&amp;");
			break;
		case '<':
			printed += fprintf(fp, "&lt;");
			break;
		case '>':
			printed += fprintf(fp, "&gt;");
			break;
		case '"':
			printed += fprintf(fp, "&quot;");
			break;
		default:
			printed += fprintf(fp, "%c", *s > 0x1f && *s < 0x7f ? *s : '?');
			break;
		}
	}
	return printed;
}

static size_t hm_fprintf_tag_text(FILE *fp, const char *open, const char *text,
				  const char *close)
{
	size_t printed = fprintf(fp, "%s", open);

	printed += hm_fprintf_text(fp, text);
	return printed + fprintf(fp, "%s", close);
}

/* A <rect>, with a tooltip when there is a @title */
static size_t hm_rect(FILE *fp, double x, double y, double w, double h, const char *attrs,
		      const char *title)
{
	size_t printed = fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" ", x, y);

	printed += fprintf(fp, "width=\"%.1f\" height=\"%.1f\" %s", w, h, attrs);
	if (!title)
		return printed + fprintf(fp, "/>\n");
	return printed + hm_fprintf_tag_text(fp, "><title>", title, "</title></rect>\n");
}

static size_t hm_text(FILE *fp, double x, double y, const char *attrs, const char *text)
{
	size_t printed = fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" %s>", x, y, attrs);

	return printed + hm_fprintf_tag_text(fp, "", text, "</text>\n");
}

/* A field name as a label: cut to HM_NAME characters, the whole in its tooltip */
static size_t hm_name(FILE *fp, double x, double y, const char *attrs, const char *name)
{
	char buf[HM_NAME + 1];
	const char *cut = fa_field__short_name(name, HM_NAME, buf, sizeof(buf));
	size_t printed;

	if (cut == name)
		return hm_text(fp, x, y, attrs, name);
	printed = fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" %s>", x, y, attrs);
	printed += hm_fprintf_tag_text(fp, "", cut, "<title>");
	return printed + hm_fprintf_tag_text(fp, "", name, "</title></text>\n");
}

static const struct fa_layout *sort_layout;
static const struct fa_struct *sort_st;

static int hm_field_cmp(const void *a, const void *b)
{
	int fa = *(const int *)a, fb = *(const int *)b;
	u32 oa = fa_layout__field_offset(sort_layout, sort_st, fa);
	u32 ob = fa_layout__field_offset(sort_layout, sort_st, fb);

	if (oa != ob)
		return oa < ob ? -1 : 1;
	return fa - fb;
}

static int fa_hm_panel__init(struct fa_hm_panel *p, const struct fa_hm_type *ht,
			     const int *shown, const struct fa_layout *l, const char *what,
			     const struct fa_cost *cost)
{
	p->l = l;
	p->what = what;
	p->cost = cost;
	p->fields = calloc(ht->n + 1, sizeof(*p->fields));
	p->line = calloc(ht->n + 1, sizeof(*p->line));
	if (!p->fields || !p->line)
		return -ENOMEM;
	memcpy(p->fields, shown, ht->n * sizeof(*shown));
	sort_layout = l;
	sort_st = ht->te->st;
	qsort(p->fields, ht->n, sizeof(*p->fields), hm_field_cmp);
	for (int k = 0; k < ht->n; k++)
		p->line[k] = fa_layout__line(l, ht->te->st, p->fields[k]);
	return 0;
}

/* The split advised: the hot members, then the cold ones, in their order */
static int fa_hm_panel__init_split(struct fa_hm_panel *p, const struct fa_hm_type *ht,
				   const int *shown)
{
	const struct fa_struct *st = ht->te->st;
	const bool *hot = ht->an->advice.split.hot;
	int err = fa_hm_panel__init(p, ht, shown, &ht->an->seen.current, "split",
				    &ht->an->cost.now.model);
	int sorted[ht->n + 1], k = 0;

	if (err)
		return err;
	p->split = &ht->an->advice.split;
	memcpy(sorted, p->fields, ht->n * sizeof(*sorted));
	for (int part = 1; part >= 0; part--) {
		for (int i = 0; i < ht->n; i++) {
			if (hot[st->fields[sorted[i]].unit] == part) {
				p->line[k] = !part;
				p->fields[k++] = sorted[i];
			}
		}
	}
	return 0;
}

static void fa_hm_type__exit(struct fa_hm_type *ht)
{
	for (int i = 0; i < 2; i++) {
		zfree(&ht->panel[i].fields);
		zfree(&ht->panel[i].line);
	}
	fa_matrix__exit(&ht->sampled);
}

static void fa_hm_type__geometry(struct fa_hm_type *ht, int name_len)
{
	ht->cell = ht->n ? min(HM_MAX_CELL, max(HM_MIN_CELL, HM_MATRIX / ht->n)) : HM_MAX_CELL;
	/* offset column, name, class marker */
	ht->label_w = HM_CHAR * (6 + name_len) + HM_MARKER + 8;
	ht->col_h = HM_CHAR * name_len + HM_MARKER + 8;
	/* the line labels right of the matrix ("cacheline 51 @3264" and a gap), the titles */
	ht->panel_w = max(ht->label_w + ht->n * ht->cell + HM_CHAR * 21, HM_CHAR * 64);
	ht->width = max(ht->nr_panels * ht->panel_w,
			ht->nr_sl ? HM_SL_LABEL + HM_SL_BAR + HM_CHAR * 48 : 0);
	ht->title = HM_TITLE + (ht->w != ht->an->seen.affinity ? HM_PANEL_VISIT : 0);
	ht->panel_title = HM_PANEL_TITLE;
	if (ht->an->cost.now.visit_lines > 0 || ht->an->advice.spread ||
	    ht->an->advice.kind == FA_ADVICE_SPLIT)
		ht->panel_title += HM_PANEL_VISIT;
	ht->height = ht->title + ht->panel_title + ht->col_h + ht->n * ht->cell;
	if (ht->nr_sl)
		ht->height += HM_PAD + HM_SL_TITLE + ht->nr_sl * HM_SL_ROW;
}

/* The fields the stdio report shows, their panels and the geometry */
static int fa_hm_type__init(struct fa_hm_type *ht, struct fa_type_entry *te,
			    struct fa_analysis *an, const struct fa_report_opts *o)
{
	const struct fa_struct *st = te->st;
	int shown[st->nr_leaves + 1], len = 12, err;

	memset(ht, 0, sizeof(*ht));
	ht->te = te;
	ht->an = an;
	ht->w = an->seen.affinity;
	/*
	 * The code method weighs all fields of a function alike: the cells
	 * show what the samples add, how often each pair was accessed there.
	 */
	if (an->seen.method == FA_METHOD_CODE) {
		err = fa_matrix__init(&ht->sampled) ?: fa_type__sampled_pairs(te->t, &ht->sampled);
		if (err)
			return err;
		ht->w = &ht->sampled;
	}
	for (int i = 0; i < st->nr_leaves; i++) {
		int f = st->leaves[i];

		if (!fa_hists__field_shown(te->t, an, f, o->percent_limit))
			continue;
		len = min(HM_NAME, max(len, (int)strlen(st->fields[f].name)));
		for (int k = 0; k < ht->n; k++)
			ht->max_w = max(ht->max_w, fa_matrix__get_sym(ht->w, f, shown[k]));
		shown[ht->n++] = f;
	}
	ht->nr_panels = an->advice.changed || an->advice.kind == FA_ADVICE_SPLIT ? 2 : 1;
	if (te->t->xfer.nr_instances >= 2) {
		ht->sl = an->seen.shared_lines;
		ht->nr_sl = min(an->seen.nr_shared_lines, HM_SL_SHOWN);
	}
	fa_hm_type__geometry(ht, len);
	err = fa_hm_panel__init(&ht->panel[0], ht, shown, &an->seen.current, "current layout",
				&an->cost.now.model);
	if (!err && an->advice.changed)
		err = fa_hm_panel__init(&ht->panel[1], ht, shown, &an->advice.suggested,
					"suggested layout", &an->cost.advised.model);
	else if (!err && an->advice.kind == FA_ADVICE_SPLIT)
		err = fa_hm_panel__init_split(&ht->panel[1], ht, shown);
	return err;
}

#define HM_BOX		"fill=\"none\" stroke=\"" HM_FS_COLOR "\""
#define HM_GRAY		"fill=\"#555\""
#define HM_CENTRAL	"dominant-baseline=\"central\""
#define HM_FS		"class=\"fs\" pointer-events=\"none\" " HM_BOX " stroke-width=\"2\""
#define HM_FS_SPLIT	"class=\"fs\" pointer-events=\"none\" " HM_BOX " stroke-dasharray=\"2 2\""

static size_t fa_heatmap__legend(FILE *fp, double x, double y)
{
	size_t printed = fprintf(fp, "<g class=\"legend\" transform=\"translate(%.1f,%.1f)\">\n",
				 x, y);
	double bx = 290, cx = 430, lx = 660;

	printed += hm_text(fp, 0, 11, "", "pair weight, of the heaviest pair");
	printed += hm_rect(fp, 0, 18, 200, 12, "fill=\"url(#hm-scale)\" stroke=\"#666\"", NULL);
	printed += hm_text(fp, 0, 44, "", "0%");
	printed += hm_text(fp, 100, 44, "text-anchor=\"middle\"", "50%");
	printed += hm_text(fp, 200, 44, "text-anchor=\"end\"", "100%");
	printed += hm_rect(fp, bx, 2, 12, 12, "fill=\"#ffffff\" stroke=\"#999\"", NULL);
	printed += hm_text(fp, bx + 18, 12, "", "never together");
	printed += hm_rect(fp, bx, 20, 12, 12, HM_BOX " stroke-width=\"2\"", NULL);
	printed += hm_text(fp, bx + 18, 30, "", "false sharing");
	printed += hm_rect(fp, bx, 38, 12, 12, HM_BOX " stroke-dasharray=\"2 2\"", NULL);
	printed += hm_text(fp, bx + 18, 48, "", "... split up");
	printed += hm_text(fp, cx, 11, "", "class of the field:");
	for (int c = 0; c < FA_CLASS_MAX; c++) {
		char fill[32];

		scnprintf(fill, sizeof(fill), "fill=\"%s\"", hm_class_color[c]);
		printed += hm_rect(fp, cx + (c % 2) * 110, 20 + (c / 2) * 16, HM_MARKER, HM_MARKER,
				   fill, NULL);
		printed += hm_text(fp, cx + (c % 2) * 110 + HM_MARKER + 4, 28 + (c / 2) * 16, "",
				   fa_class__name(c));
	}
	printed += hm_rect(fp, lx, 6, 30, 1.5, "fill=\"#000\"", NULL);
	printed += hm_text(fp, lx + 36, 11, "", "cache line boundary");
	printed += hm_text(fp, lx, 30, HM_GRAY, "fields in the order of the layout;");
	printed += hm_text(fp, lx, 44, HM_GRAY, "hover a cell for the pair's weight");
	return printed + fprintf(fp, "</g>\n");
}

/* A field's offset, name and class marker, left of its row and over its column */
static size_t fa_hm_panel__label(FILE *fp, const struct fa_hm_type *ht,
				 const struct fa_hm_panel *p, int k)
{
	const struct fa_struct *st = ht->te->st;
	int f = p->fields[k];
	double x0 = ht->label_w, y0 = ht->col_h, mid = k * ht->cell + ht->cell / 2;
	double m = HM_MARKER;
	char attrs[128], offset[16];
	size_t printed;

	scnprintf(offset, sizeof(offset), "%u", fa_layout__field_offset(p->l, st, f));
	printed = hm_text(fp, 0, y0 + mid, "class=\"row-offset\" fill=\"#777\" " HM_CENTRAL,
			  offset);
	printed += hm_name(fp, x0 - m - 6, y0 + mid,
			   "class=\"row-label\" text-anchor=\"end\" " HM_CENTRAL,
			   st->fields[f].name);
	scnprintf(attrs, sizeof(attrs), "class=\"col-label\" transform=\"rotate(-90 %.1f %.1f)\" "
		  HM_CENTRAL, x0 + mid, y0 - m - 6);
	printed += hm_name(fp, x0 + mid, y0 - m - 6, attrs, st->fields[f].name);
	scnprintf(attrs, sizeof(attrs), "fill=\"%s\"",
		  hm_class_color[ht->an->seen.classes.field_cls[f]]);
	printed += hm_rect(fp, x0 - m - 2, y0 + mid - m / 2, m, m, attrs, NULL);
	return printed + hm_rect(fp, x0 + mid - m / 2, y0 - m - 2, m, m, attrs, NULL);
}

static double fa_hm_type__fs(const struct fa_hm_type *ht, int a, int b)
{
	const struct fa_matrix *fs = &ht->te->t->xfer.fs;

	return fa_matrix__get(fs, a, b) + fa_matrix__get(fs, b, a);
}

static size_t fa_hm_panel__cell(FILE *fp, const struct fa_hm_type *ht, int a, int b,
				double x, double y)
{
	const struct fa_struct *st = ht->te->st;
	const struct fa_type *t = ht->te->t;
	const struct fa_matrix *m = ht->an->seen.affinity;
	double w = fa_matrix__get_sym(ht->w, a, b), c = ht->cell;
	double mw = fa_matrix__get_sym(m, a, b);
	char color[16], attrs[96], title[512];
	int len;

	if (a == b) {
		scnprintf(title, sizeof(title), "%s: %.1f%% of the accesses to the struct",
			  st->fields[a].name, fa_type__field_share(t, a));
		return hm_rect(fp, x, y, c, c, "class=\"diag\" fill=\"#e8e8e8\"", title);
	}
	if (w <= 0 && mw <= 0)
		return 0;
	hm_color(ht->max_w ? w / ht->max_w : 0, color, sizeof(color));
	scnprintf(attrs, sizeof(attrs), "class=\"cell\" data-i=\"%d\" data-j=\"%d\" fill=\"%s\"",
		  a, b, color);
	len = scnprintf(title, sizeof(title), "%s x %s: ", st->fields[a].name,
			st->fields[b].name);
	if (ht->w != m)
		len += scnprintf(title + len, sizeof(title) - len,
				 "both sampled %.0f times or more in the functions accessing both, ",
				 w);
	scnprintf(title + len, sizeof(title) - len, "co-access %.4g (%.1f%%)%s", mw,
		  m->total ? 100 * mw / m->total : 0,
		  fa_hm_type__fs(ht, a, b) > 0 ? ", false sharing" : "");
	return hm_rect(fp, x, y, c, c, attrs, title);
}

/*
 * The false sharing pairs, outlined over the cells: solid where the layout
 * keeps them on one cache line, dashed where it splits them up.
 */
static size_t fa_hm_panel__false_sharing(FILE *fp, const struct fa_hm_type *ht,
					 const struct fa_hm_panel *p)
{
	double c = ht->cell, x0 = ht->label_w, y0 = ht->col_h;
	size_t printed = 0;

	for (int r = 0; r < ht->n; r++) {
		for (int k = 0; k < ht->n; k++) {
			bool split = p->line[r] != p->line[k];

			if (r == k || fa_hm_type__fs(ht, p->fields[r], p->fields[k]) <= 0)
				continue;
			printed += hm_rect(fp, x0 + k * c + 1, y0 + r * c + 1, c - 2, c - 2,
					   split ? HM_FS_SPLIT : HM_FS, NULL);
		}
	}
	return printed;
}

/* A line across both axes where the cache line changes, labelled on the right */
static size_t fa_hm_panel__lines(FILE *fp, const struct fa_hm_type *ht,
				 const struct fa_hm_panel *p)
{
	double c = ht->cell, x0 = ht->label_w, y0 = ht->col_h, size = ht->n * c;
	double label_end = -HM_FONT;
	size_t printed = 0;
	char label[64];

	for (int k = 0; k < ht->n; k++) {
		u32 line = p->line[k];

		if (k && p->line[k] == p->line[k - 1])
			continue;
		if (k) {
			printed += fprintf(fp, "<path class=\"line-boundary\" %s",
					   "stroke=\"#000\" stroke-width=\"1.5\"");
			printed += fprintf(fp, " d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1f\"/>\n",
					   x0, y0 + k * c, x0 + size, x0 + k * c, y0, y0 + size);
		}
		/* lines with few shown fields: label only those there is room for */
		if (k * c < label_end)
			continue;
		if (p->split)
			scnprintf(label, sizeof(label), "%s part, %u bytes", line ? "cold" : "hot",
				  line ? p->split->cold_size : p->split->hot_size);
		else
			scnprintf(label, sizeof(label), "cacheline %u @%u", line,
				  line * p->l->line_size);
		printed += hm_text(fp, x0 + size + 4, y0 + k * c + 1,
				   "class=\"line-label\" dominant-baseline=\"hanging\"", label);
		label_end = k * c + HM_FONT + 2;
	}
	return printed;
}

/*
 * What the model, which sees one instance at a time, does not: the lines
 * per visit where the instances really were, and what aligning them saves
 */
static size_t fa_hm_panel__instances(FILE *fp, const struct fa_hm_type *ht,
				     const struct fa_hm_panel *p)
{
	const struct fa_analysis *an = ht->an;
	const struct fa_cost *r = &an->cost.now.replay, *rt = &an->cost.advised.replay;
	char text[160];

	if (an->cost.now.visit_lines > 0)
		scnprintf(text, sizeof(text),
			  "lines per visit with the instances where they were: %.2f",
			  p == &ht->panel[0] ? an->cost.now.visit_lines :
			  an->cost.advised.visit_lines);
	else if (an->advice.spread && p != &ht->panel[0] && r->total > 0)
		scnprintf(text, sizeof(text),
			  "replay, the instances on lines of their own: cost %.2f -> %.2f (%+.1f%%)",
			  r->total, rt->total, 100 * (rt->total - r->total) / r->total);
	else
		return 0;
	return hm_text(fp, 0, 28 + HM_PANEL_VISIT, HM_GRAY, text);
}

/* The split's parts and what it saves, as --stdio predicts it */
static size_t fa_hm_panel__split_title(FILE *fp, const struct fa_hm_type *ht,
				       const struct fa_split *sp)
{
	const struct fa_struct *st = ht->te->st;
	char title[256];
	size_t printed;
	int len;

	scnprintf(title, sizeof(title), "split: a hot (%u bytes) and a cold struct (%u bytes)",
		  sp->hot_size, sp->cold_size);
	printed = hm_text(fp, 0, 12, "class=\"panel-title\" font-weight=\"bold\"", title);
	scnprintf(title, sizeof(title),
		  "per visit: %.1f -> %.1f bytes, %.2f -> %.2f lines (%+.1f%%)",
		  sp->now.bytes, sp->split.bytes, sp->now.lines, sp->split.lines,
		  sp->now.cost > 0 ? 100 * (sp->split.cost - sp->now.cost) / sp->now.cost : 0);
	printed += hm_text(fp, 0, 28, HM_GRAY, title);
	/* the cold members are seldom above --percent-limit: name them all */
	len = scnprintf(title, sizeof(title), "cold, in %.1f%% of the visits:",
			100 * sp->cold_share);
	for (int u = 0; u < st->nr_units && len < (int)sizeof(title) - 1; u++) {
		if (!sp->hot[u])
			len += scnprintf(title + len, sizeof(title) - len, " %s",
					 fa_unit__name(st, u));
	}
	return printed + hm_text(fp, 0, 28 + HM_PANEL_VISIT, HM_GRAY, title);
}

static size_t fa_hm_panel__title(FILE *fp, const struct fa_hm_type *ht,
				 const struct fa_hm_panel *p)
{
	const struct fa_cost *cur = &ht->an->cost.now.model;
	char title[256];
	size_t printed;

	u32 lines = DIV_ROUND_UP(p->l->size, p->l->line_size);

	if (p->split)
		return fa_hm_panel__split_title(fp, ht, p->split);
	scnprintf(title, sizeof(title), "%s: %u bytes, %u cache line%s", p->what, p->l->size,
		  lines, lines == 1 ? "" : "s");
	printed = hm_text(fp, 0, 12, "class=\"panel-title\" font-weight=\"bold\"", title);
	scnprintf(title, sizeof(title), "per %s: %.2f lines + %.2f transfers, cost %.2f",
		  ht->an->cost.per_visit ? "visit" : "window", p->cost->lines_per_window,
		  p->cost->xfers_per_window, p->cost->total);
	if (p->cost != cur && cur->total > 0)
		scnprintf(title + strlen(title), sizeof(title) - strlen(title), " (%+.1f%%)",
			  100 * (p->cost->total - cur->total) / cur->total);
	printed += hm_text(fp, 0, 28, HM_GRAY, title);
	return printed + fa_hm_panel__instances(fp, ht, p);
}

static size_t fa_hm_panel__fprintf(FILE *fp, const struct fa_hm_type *ht,
				   const struct fa_hm_panel *p, double x, double y)
{
	double c = ht->cell, size = ht->n * c;
	size_t printed = fprintf(fp, "<g class=\"panel\" transform=\"translate(%.1f,%.1f)\">\n",
				 x, y);

	printed += fa_hm_panel__title(fp, ht, p);
	printed += fprintf(fp, "<g transform=\"translate(0,%.0f)\" font-size=\"%.0f\">\n",
			   ht->panel_title, min_t(double, HM_FONT, c));
	for (int k = 0; k < ht->n; k++)
		printed += fa_hm_panel__label(fp, ht, p, k);
	printed += hm_rect(fp, ht->label_w, ht->col_h, size, size,
			   "fill=\"#ffffff\" stroke=\"#999\" stroke-width=\"0.5\"", NULL);
	for (int r = 0; r < ht->n; r++) {
		for (int k = 0; k < ht->n; k++)
			printed += fa_hm_panel__cell(fp, ht, p->fields[r], p->fields[k],
						     ht->label_w + k * c, ht->col_h + r * c);
	}
	printed += fa_hm_panel__false_sharing(fp, ht, p);
	printed += fa_hm_panel__lines(fp, ht, p);
	return printed + fprintf(fp, "</g>\n</g>\n");
}

/* The names of the fields of @mask, for a tooltip */
static int fa_hm_sl__fields(const struct fa_struct *st, u64 mask, char *buf, size_t size)
{
	int len = 0;

	for (int f = 0; f < st->nr_fields && f < 64; f++) {
		if (mask & (1ULL << f))
			len += scnprintf(buf + len, size - len, " %s", st->fields[f].name);
	}
	return len;
}

/*
 * One instance on a shared line: the bytes of the line it covers, and
 * darker, with the class of each, the fields accessed in it.
 */
static size_t fa_hm_sl__instance(FILE *fp, const struct fa_hm_type *ht,
				 const struct fa_shared_line *sl, int i, double y)
{
	const struct fa_struct *st = ht->te->st;
	u32 line = ht->an->seen.current.line_size;
	s64 start = (s64)(sl->base[i] - sl->addr), end = start + ht->te->size;
	double px = (double)HM_SL_BAR / line, x0 = HM_SL_LABEL;
	char title[512], attrs[64], name[32];
	size_t printed;
	int len;

	start = max_t(s64, start, 0);
	end = min_t(s64, end, line);
	if (sl->index[i] >= 0)
		len = scnprintf(name, sizeof(name), "[%" PRId64 "]", sl->index[i]);
	else
		len = scnprintf(name, sizeof(name), "%#" PRIx64, sl->base[i]);
	len = scnprintf(title, sizeof(title), "%s %#" PRIx64 ":", name, sl->base[i]);
	fa_hm_sl__fields(st, sl->fields[i], title + len, sizeof(title) - len);
	printed = hm_rect(fp, x0 + start * px, y, (end - start) * px, HM_SL_ROW - 6,
			  i % 2 ? "class=\"sl-inst\" fill=\"#d9e6f2\" stroke=\"#666\"" :
				  "class=\"sl-inst\" fill=\"#f2e6d9\" stroke=\"#666\"", title);
	for (int f = 0; f < st->nr_fields && f < 64; f++) {
		s64 fs = (s64)(sl->base[i] - sl->addr) + st->fields[f].offset;
		s64 fe = fs + st->fields[f].size;

		if (!(sl->fields[i] & (1ULL << f)) || fe <= 0 || fs >= line)
			continue;
		fs = max_t(s64, fs, 0);
		fe = min_t(s64, fe, line);
		scnprintf(attrs, sizeof(attrs), "class=\"sl-field\" fill=\"%s\"",
			  hm_class_color[ht->an->seen.classes.field_cls[f]]);
		printed += hm_rect(fp, x0 + fs * px + 1, y + 3, (fe - fs) * px - 2,
				   HM_SL_ROW - 12, attrs, st->fields[f].name);
	}
	if ((end - start) * px > HM_CHAR * (strlen(name) + 1))
		printed += hm_text(fp, x0 + (start + end) * px / 2, y + HM_SL_ROW - 9,
				   "text-anchor=\"middle\" pointer-events=\"none\"", name);
	return printed;
}

/* The lines of several instances that different owners access, one writing */
static size_t fa_hm_type__shared_lines(FILE *fp, const struct fa_hm_type *ht, double y)
{
	const struct fa_type *t = ht->te->t;
	const char *who = t->cfg.by_thread ? "threads" : "CPUs";
	size_t printed = fprintf(fp, "<g class=\"shared-lines\" transform=\"translate(0,%.1f)\">\n",
				 y);
	char label[128];

	scnprintf(label, sizeof(label),
		  "cache lines of several instances (different %s, one writing), byte 0 to %u:",
		  who, ht->an->seen.current.line_size - 1);
	printed += hm_text(fp, 0, 12, "class=\"sl-title\" font-weight=\"bold\"", label);
	for (int k = 0; k < ht->nr_sl; k++) {
		const struct fa_shared_line *sl = &ht->sl[k];
		double ry = HM_SL_TITLE + k * HM_SL_ROW;
		int len;

		len = scnprintf(label, sizeof(label), "%#" PRIx64 " %s ", sl->addr, who);
		/* two of them: the label stays left of the bar */
		for (int i = 0; i < sl->nr_owners && i < 2; i++)
			len += scnprintf(label + len, sizeof(label) - len, "%s%u", i ? "," : "",
					 sl->owners[i]);
		if (sl->nr_owners > 2)
			len += scnprintf(label + len, sizeof(label) - len, " +%d",
					 sl->nr_owners - 2);
		printed += hm_text(fp, 0, ry + HM_SL_ROW / 2 - 3, HM_CENTRAL, label);
		printed += hm_rect(fp, HM_SL_LABEL, ry, HM_SL_BAR, HM_SL_ROW - 6,
				   "fill=\"#ffffff\" stroke=\"#999\"", NULL);
		for (int i = 0; i < sl->nr_insts && i < FA_SL_INSTS; i++)
			printed += fa_hm_sl__instance(fp, ht, sl, i, ry);
		scnprintf(label, sizeof(label), "%d instances, %" PRIu64 " accesses, %" PRIu64
			  " writing", sl->nr_insts, sl->loads + sl->writes, sl->writes);
		printed += hm_text(fp, HM_SL_LABEL + HM_SL_BAR + 8, ry + HM_SL_ROW / 2 - 3,
				   HM_GRAY " " HM_CENTRAL, label);
	}
	return printed + fprintf(fp, "</g>\n");
}

/* A struct type: its title, then its panels side by side */
static size_t fa_hm_type__fprintf(FILE *fp, const struct fa_hm_type *ht, double y)
{
	const struct fa_type *t = ht->te->t;
	size_t printed = fprintf(fp, "<g class=\"type\" transform=\"translate(%d,%.1f)\">\n",
				 HM_PAD, y);
	char title[512];
	int len;

	scnprintf(title, sizeof(title), "%s: %u bytes, %" PRIu64 " accesses, %" PRIu64 " %s",
		  ht->te->name, ht->te->size, t->counts.nr_accesses, t->xfer.nr_instances,
		  t->xfer.nr_instances == 1 ? "instance" : "instances");
	printed += hm_text(fp, 0, 14, "class=\"type-title\" font-size=\"14\" font-weight=\"bold\"",
			   title);
	len = scnprintf(title, sizeof(title), "co-access by the %s method: ",
			fa_method__name(ht->an->seen.method));
	fa_analysis__method_reason(ht->an, t, title + len, sizeof(title) - len);
	printed += hm_text(fp, 0, 30, HM_GRAY, title);
	if (ht->w != ht->an->seen.affinity)
		printed += hm_text(fp, 0, 30 + HM_PANEL_VISIT, HM_GRAY, hm_sampled_cells);
	if (!ht->n)
		printed += hm_text(fp, 0, ht->title + 12, "", "no field above --percent-limit");
	for (int i = 0; ht->n && i < ht->nr_panels; i++)
		printed += fa_hm_panel__fprintf(fp, ht, &ht->panel[i], i * ht->panel_w, ht->title);
	if (ht->nr_sl)
		printed += fa_hm_type__shared_lines(fp, ht, ht->title + ht->panel_title +
						    ht->col_h + ht->n * ht->cell + HM_PAD);
	return printed + fprintf(fp, "</g>\n");
}

#define HM_MERGE_ROW	(HM_SL_TITLE + 3 * HM_SL_ROW)

static const char * const hm_merge_fill[2][2] = {
	{ "#c6d6ea", "#4c78a8" },	/* the first array: other elements, element i */
	{ "#fcd9b6", "#f58518" },	/* the second */
};

/*
 * One cache line of an array: its elements (of @stride bytes, the member
 * of array @k at @off in each) side by side, element i darker
 */
static size_t fa_hm_merge__line(FILE *fp, const struct fa_merge *m, int k, u32 stride, u32 off,
				u32 line, double y)
{
	double px = (double)HM_SL_BAR / line;
	u32 size = m->arr[k]->elem_size;
	size_t printed = 0;
	char fill[32];

	for (u32 at = 0; at + stride <= line; at += stride) {
		scnprintf(fill, sizeof(fill), "fill=\"%s\" stroke=\"#fff\"",
			  hm_merge_fill[k][at == 0]);
		printed += hm_rect(fp, HM_SL_LABEL + (at + off) * px, y, size * px, HM_SL_ROW - 6,
				   fill, at ? NULL : m->arr[k]->name);
	}
	return printed;
}

/* A merge of two arrays of scalars: element i of both, now and merged */
static size_t fa_hm_merge__fprintf(FILE *fp, const struct fa_merge *m, u32 line, double y)
{
	char text[256], name[128];
	size_t printed = fprintf(fp, "<g class=\"merge\" transform=\"translate(0,%.1f)\">\n", y);

	fa_merge__name(m, name, sizeof(name));
	scnprintf(text, sizeof(text),
		  "merge %s and %s into struct %s (%u bytes): lines per visit %.2f -> %.2f (%+.1f%%)",
		  m->arr[0]->name, m->arr[1]->name, name, m->size, m->lines_now, m->lines_merged,
		  100 * (m->cost_merged / m->cost_now - 1));
	printed += hm_text(fp, 0, 12, "", text);
	for (int k = 0; k < 2; k++) {
		double ry = HM_SL_TITLE + k * HM_SL_ROW;

		scnprintf(text, sizeof(text), "now: %s[i]", m->arr[k]->name);
		printed += hm_text(fp, 0, ry + HM_SL_ROW / 2 - 3, HM_CENTRAL, text);
		printed += fa_hm_merge__line(fp, m, k, m->arr[k]->elem_size, 0, line, ry);
	}
	scnprintf(text, sizeof(text), "merged: %s[i]", name);
	printed += hm_text(fp, 0, HM_SL_TITLE + 2 * HM_SL_ROW + HM_SL_ROW / 2 - 3, HM_CENTRAL,
			   text);
	for (int k = 0; k < 2; k++)
		printed += fa_hm_merge__line(fp, m, k, m->size, m->offset[k], line,
					     HM_SL_TITLE + 2 * HM_SL_ROW);
	return printed + fprintf(fp, "</g>\n");
}

/* The merges of arrays of scalars advised, each a line of both arrays */
static size_t fa_heatmap__merges(FILE *fp, const struct fa_merge *merges, int nr, u32 line,
				 double y)
{
	size_t printed = fprintf(fp, "<g class=\"arrays\" transform=\"translate(%d,%.1f)\">\n",
				 HM_PAD, y);

	printed += hm_text(fp, 0, 14, "class=\"type-title\" font-size=\"14\" font-weight=\"bold\"",
			   "arrays of scalars: a cache line of each, element i darker");
	for (int i = 0; i < nr; i++)
		printed += fa_hm_merge__fprintf(fp, &merges[i], line, HM_TITLE + i * HM_MERGE_ROW);
	return printed + fprintf(fp, "</g>\n");
}

/* An SVG document, or an HTML page whose body is the SVG image */
static size_t fa_heatmap__begin(FILE *fp, double width, double height, bool html)
{
	size_t printed = html ? fprintf(fp, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
					"<title>perf affinity report: co-access heatmap</title>"
					"</head><body>\n") :
			 fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");

	printed += fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\"",
			   width, height);
	printed += fprintf(fp, " font-family=\"DejaVu Sans Mono, monospace\" font-size=\"%d\">\n",
			   HM_FONT);
	printed += fprintf(fp, "<title>perf affinity report: co-access heatmap</title>\n");
	printed += fprintf(fp, "<defs><linearGradient id=\"hm-scale\">");
	for (size_t k = 0; k < ARRAY_SIZE(hm_scale); k++)
		printed += fprintf(fp, "<stop offset=\"%zu%%\" stop-color=\"#%02x%02x%02x\"/>",
				   100 * k / (ARRAY_SIZE(hm_scale) - 1), hm_scale[k][0],
				   hm_scale[k][1], hm_scale[k][2]);
	printed += fprintf(fp, "</linearGradient></defs>\n");
	printed += hm_rect(fp, 0, 0, width, height, "fill=\"#ffffff\"", NULL);
	return printed + fa_heatmap__legend(fp, HM_PAD, HM_PAD);
}

/**
 * fa_heatmap__fprintf - Print the co-access matrices of the reported types
 * as one SVG image, one struct type under the other
 * @fh: The struct table: the types in its order
 * @s: The session: its arrays of scalars, whose merges are drawn under the types
 * @html: As the body of an HTML page, not an SVG document
 *
 * Return: the number of bytes printed, 0 if memory ran out.
 */
size_t fa_heatmap__fprintf(FILE *fp, struct fa_hists *fh, const struct fa_session *s,
			   const struct fa_report_opts *o, bool html)
{
	struct fa_hm_type *ht = calloc(fh->nr_shown + 1, sizeof(*ht));
	double width = 1000, height = 2 * HM_PAD + HM_LEGEND, y = height;
	struct fa_merge *merges = NULL;
	struct fa_hist_entry *fe;
	int nr = 0, nr_merges = 0, err = 0;
	size_t printed = 0;

	if (!ht)
		return 0;
	if (s->arrays.nr) {
		nr_merges = fa_merges__find(&s->arrays, s->cfg->line_size, &merges);
		if (nr_merges < 0)
			goto out;
		nr_merges = min(nr_merges, HM_SL_SHOWN);
	}
	fa_hists__for_each_entry(fh, fe) {
		err = fa_hm_type__init(&ht[nr], fe->te, fe->an, o);
		if (err)
			break;
		width = max(width, ht[nr].width + 2 * HM_PAD);
		height += ht[nr++].height + 2 * HM_PAD;
	}
	if (err)
		goto out;
	if (nr_merges)
		height += HM_TITLE + nr_merges * HM_MERGE_ROW + 2 * HM_PAD;
	printed = fa_heatmap__begin(fp, width, nr ? height : height + 2 * HM_PAD, html);
	for (int i = 0; i < nr; i++) {
		printed += fa_hm_type__fprintf(fp, &ht[i], y);
		y += ht[i].height + 2 * HM_PAD;
	}
	if (!nr) {
		printed += hm_text(fp, HM_PAD, y + HM_PAD, "",
				   "no struct type above --percent-limit");
		y += 2 * HM_PAD;
	}
	if (nr_merges)
		printed += fa_heatmap__merges(fp, merges, nr_merges, s->cfg->line_size, y);
	printed += fprintf(fp, "</svg>\n%s", html ? "</body></html>\n" : "");
out:
	for (int i = 0; i < nr; i++)
		fa_hm_type__exit(&ht[i]);
	free(ht);
	free(merges);
	return printed;
}
