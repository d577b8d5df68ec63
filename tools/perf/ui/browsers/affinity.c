// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI of perf affinity report: the struct table; ENTER opens a struct
 * with its fields, false sharing and co-access pairs; 'l' its current and
 * suggested layouts with their predicted cost.
 *
 * Every screen is made of sections of the stdio report printed into
 * memory, so both interfaces show the same numbers in the same columns and
 * the formats are defined once, in util/affinity/report.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ttydefaults.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include "ui/browser.h"
#include "ui/browsers/affinity.h"
#include "ui/keysyms.h"
#include "ui/libslang.h"
#include "util/affinity/analyze.h"
#include "util/affinity/attr.h"
#include "util/affinity/classify.h"
#include "util/affinity/matrix.h"
#include "util/affinity/report.h"
#include "util/affinity/type.h"
#include "util/debug.h"

/* Columns a RIGHT or LEFT key scrolls lines wider than the screen */
#define FA_HSCROLL_STEP	8

/* What the screens show: the analyzed struct types of the report */
struct fa_tui {
	struct fa_attr			*attr;
	struct fa_analysis		*an;
	const struct fa_report_opts	*opts;
	u64				 total;
};

/* A screen of printed lines, tabs expanded so that a column is a character */
struct fa_browser {
	struct ui_browser	 b;
	char			**lines;
	char			*header;	/* column header above the lines, or NULL */
	u8			*colors;	/* of each line, or NULL: by its text */
	u32			 hscroll;	/* characters scrolled off to the left */
	u32			 width;		/* of the longest line */
	char			 search[50];
};

/* The stdio report's sections that make the field and the layout screens */
static const int fa_fields_sections[] = {
	FA_REPORT_ALIGNMENT, FA_REPORT_FIELDS, FA_REPORT_FALSE_SHARING, FA_REPORT_SHARED_LINES,
	FA_REPORT_PAIRS,
	FA_REPORT_CLUSTERS,
};

static const int fa_layout_sections[] = {
	FA_REPORT_COST, FA_REPORT_LAYOUTS,
};

static const char fa_help_common[] =
	"UP/DOWN/PGUP\n"
	"PGDN/HOME/END Move\n"
	"RIGHT/LEFT    Scroll wide lines\n"
	"/             Search\n"
	"n             Next match\n"
	"h/?/F1        Show this window\n"
	"q/CTRL+C      Quit";

static const char fa_help_structs[] =
	"ENTER         Fields, false sharing and co-access pairs of the struct\n"
	"l             Current and suggested layout of the struct, their cost\n"
	"ESC           Quit\n";

static const char fa_help_fields[] =
	"ENTER/l       Current and suggested layout, their predicted cost\n"
	"ESC/LEFT      Back to the struct table\n";

static const char fa_help_layout[] =
	"ESC/LEFT      Back\n";

/* @s with its tabs expanded to the next multiple of 8 columns */
static char *fa_line__expand(const char *s, size_t len)
{
	size_t cols = 0, n = 0;
	char *line;

	for (size_t i = 0; i < len; i++)
		cols += s[i] == '\t' ? 8 - cols % 8 : 1;
	line = malloc(cols + 1);
	if (!line)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\t') {
			line[n++] = s[i];
			continue;
		}
		do
			line[n++] = ' ';
		while (n % 8);
	}
	line[n] = '\0';
	return line;
}

static void fa_browser__exit(struct fa_browser *fb)
{
	for (u32 i = 0; fb->lines && i < fb->b.nr_entries; i++)
		zfree(&fb->lines[i]);
	zfree(&fb->lines);
	zfree(&fb->header);
	zfree(&fb->colors);
}

/* Make the lines of @buf, what a stdio printer wrote, the browser's entries */
static int fa_browser__set_text(struct fa_browser *fb, const char *buf, size_t size)
{
	const char *end = buf + size, *pos;
	u32 nr = 0;

	/* sections begin with an empty line, a screen does not */
	while (buf < end && *buf == '\n')
		buf++;
	for (pos = buf; pos < end; pos++)
		nr += *pos == '\n';
	nr += size && end[-1] != '\n';

	fb->lines = calloc(nr + 1, sizeof(*fb->lines));
	if (!fb->lines)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++) {
		const char *eol = memchr(buf, '\n', end - buf) ?: end;

		fb->lines[i] = fa_line__expand(buf, eol - buf);
		if (!fb->lines[i])
			return -ENOMEM;
		fb->width = max_t(u32, fb->width, strlen(fb->lines[i]));
		fb->b.nr_entries = i + 1;
		buf = eol + 1;
	}
	fb->b.entries = fb->lines;
	return 0;
}

/*
 * Make the warnings stand out: false sharing and fields written on one CPU
 * and accessed on others in the color of perf's hottest entries, cache
 * line boundaries in that of annotate's jump arrows, holes in that of
 * addresses.  The stdio report prints no color codes, so the text says.
 */
static int fa_line__color(const char *line)
{
	if (strstr(line, fa_class__name(FA_CLASS_SHARED_WRITTEN)) ||
	    strstr(line, "(written on CPU"))
		return HE_COLORSET_TOP;
	if (strstr(line, fa_class__name(FA_CLASS_WRITE_HOT)))
		return HE_COLORSET_MEDIUM;
	if (strstr(line, "/* --- cacheline"))
		return HE_COLORSET_JUMP_ARROWS;
	if (strstr(line, "/* XXX"))
		return HE_COLORSET_ADDR;
	return HE_COLORSET_NORMAL;
}

static void fa_browser__write_line(struct fa_browser *fb, const char *line, unsigned int width)
{
	size_t len = strlen(line);

	ui_browser__write_nstring(&fb->b, line + min_t(size_t, len, fb->hscroll), width);
}

static void fa_browser__write(struct ui_browser *b, void *entry, int row)
{
	struct fa_browser *fb = container_of(b, struct fa_browser, b);
	char **line = entry;
	int color = fb->colors ? fb->colors[line - fb->lines] : fa_line__color(*line);

	if (ui_browser__is_current_entry(b, row))
		color = HE_COLORSET_SELECTED;
	ui_browser__set_color(b, color);
	fa_browser__write_line(fb, *line, b->width);
}

static unsigned int fa_browser__refresh(struct ui_browser *b)
{
	struct fa_browser *fb = container_of(b, struct fa_browser, b);

	if (fb->header) {
		ui_browser__gotorc_title(b, 0, 0);
		ui_browser__set_color(b, HE_COLORSET_ROOT);
		fa_browser__write_line(fb, fb->header, b->width + 1);
	}
	return ui_browser__argv_refresh(b);
}

/* The scroll bar is as high as the lines, not as the lines and the header */
static void fa_browser__refresh_dimensions(struct ui_browser *b)
{
	ui_browser__refresh_dimensions(b);
	b->height -= b->extra_title_lines;
}

static void fa_browser__init(struct fa_browser *fb)
{
	memset(fb, 0, sizeof(*fb));
	fb->b.refresh_dimensions = fa_browser__refresh_dimensions;
	fb->b.refresh = fa_browser__refresh;
	fb->b.seek = ui_browser__argv_seek;
	fb->b.write = fa_browser__write;
}

/* Show line @idx, in the middle of the screen where it can be */
static void fa_browser__goto(struct fa_browser *fb, u32 idx)
{
	struct ui_browser *b = &fb->b;
	u32 top = idx > b->rows / 2U ? idx - b->rows / 2U : 0;

	if (b->nr_entries > b->rows)
		top = min_t(u32, top, b->nr_entries - b->rows);
	else
		top = 0;
	b->index = idx;
	b->top_idx = top;
	b->top = fb->lines + top;
}

/* The next line containing the search string, after the current one */
static void fa_browser__search(struct fa_browser *fb, bool ask)
{
	struct ui_browser *b = &fb->b;

	if ((ask || !fb->search[0]) &&
	    (ui_browser__input_window("Search", "String: ", fb->search,
				      "ENTER: OK, ESC: Cancel", 0) != K_ENTER || !fb->search[0]))
		return;
	for (u32 k = 1; k <= b->nr_entries; k++) {
		u32 i = (b->index + k) % b->nr_entries;

		if (strstr(fb->lines[i], fb->search)) {
			fa_browser__goto(fb, i);
			return;
		}
	}
	ui_browser__warning(b, 1, "\"%s\" not found", fb->search);
}

static void fa_browser__help(struct fa_browser *fb, const char *help)
{
	char *text;

	if (asprintf(&text, "%s%s", help, fa_help_common) < 0)
		return;
	ui_browser__help_window(&fb->b, text);
	free(text);
}

/*
 * Browse until a key the screen acts on; the keys every screen has are
 * handled here.  LEFT scrolls back first, then it goes back.
 */
static int fa_browser__run(struct fa_browser *fb, const char *title, const char *helpline,
			   const char *help)
{
	int key;

	/* the scroll keys are news to whoever sees a table cut at the edge */
	if (ui_browser__show(&fb->b, title, "%s%s", helpline,
			     fb->width > (u32)SLtt_Screen_Cols ? "  RIGHT/LEFT scroll" : "") < 0)
		return -1;
	while (1) {
		key = ui_browser__run(&fb->b, 0);
		switch (key) {
		case '/':
		case 'n':
			fa_browser__search(fb, key == '/');
			continue;
		case K_RIGHT:
			if (fb->hscroll + fb->b.width < fb->width)
				fb->hscroll += FA_HSCROLL_STEP;
			continue;
		case K_LEFT:
			if (!fb->hscroll)
				break;
			fb->hscroll -= min_t(u32, fb->hscroll, FA_HSCROLL_STEP);
			continue;
		case 'h':
		case '?':
		case K_F1:
			fa_browser__help(fb, help);
			continue;
		case CTRL('c'):
			key = 'q';
			break;
		default:
			break;
		}
		break;
	}
	ui_browser__hide(&fb->b);
	return key;
}

/* Print @nr sections of struct type @i into @fb */
static int fa_tui__print_sections(struct fa_tui *tui, int i, const int *sections, int nr,
				  struct fa_browser *fb)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	int err = -errno;

	if (!fp)
		goto out_err;
	for (int s = 0; s < nr; s++)
		fa_report__section(fp, sections[s], tui->attr->types[i], &tui->an[i], tui->opts);
	err = fclose(fp) ? -errno : fa_browser__set_text(fb, buf, size);
	free(buf);
	if (!err)
		return 0;
out_err:
	pr_err("perf affinity: cannot make the screen of %s: %s\n", tui->attr->types[i]->name,
	       strerror(-err));
	return err;
}

/* The layouts of struct type @i and their cost; 'q' when the user quits */
static int fa_tui__layout(struct fa_tui *tui, int i)
{
	struct fa_browser fb;
	char title[256];
	int key, n;

	fa_browser__init(&fb);
	if (fa_tui__print_sections(tui, i, fa_layout_sections, ARRAY_SIZE(fa_layout_sections),
				   &fb)) {
		key = -1;
		goto out;
	}
	n = scnprintf(title, sizeof(title), "Layouts of ");
	fa_report__title(tui->attr->types[i], title + n, sizeof(title) - n);
	do {
		key = fa_browser__run(&fb, title, "ESC/LEFT back  / search  h/? help  q quit",
				      fa_help_layout);
	} while (key != 'q' && key != K_ESC && key != K_LEFT && key >= 0);
out:
	fa_browser__exit(&fb);
	return key;
}

/* The fields of struct type @i, its false sharing and pairs; 'q' on quit */
static int fa_tui__fields(struct fa_tui *tui, int i)
{
	struct fa_browser fb;
	char title[256];
	int key;

	fa_browser__init(&fb);
	if (fa_tui__print_sections(tui, i, fa_fields_sections, ARRAY_SIZE(fa_fields_sections),
				   &fb)) {
		key = -1;
		goto out;
	}
	fa_report__title(tui->attr->types[i], title, sizeof(title));
	while (1) {
		key = fa_browser__run(&fb, title,
				      "ENTER/l layout  ESC/LEFT back  / search  h/? help  q quit",
				      fa_help_fields);
		if (key == K_ENTER || key == 'l') {
			key = fa_tui__layout(tui, i);
			if (key == 'q' || key < 0)
				break;
			continue;
		}
		if (key == 'q' || key == K_ESC || key == K_LEFT || key < 0)
			break;
	}
out:
	fa_browser__exit(&fb);
	return key;
}

/* Structs with false sharing in red, as their fields and pairs are */
static int fa_tui__struct_colors(struct fa_tui *tui, struct fa_browser *fb, const int *types)
{
	fb->colors = calloc(fb->b.nr_entries + 1, sizeof(*fb->colors));
	if (!fb->colors)
		return -ENOMEM;
	for (u32 k = 0; k < fb->b.nr_entries; k++) {
		const struct fa_type *t = tui->attr->types[types[k]]->t;

		fb->colors[k] = fa_matrix__nr_cells(&t->fs) ? HE_COLORSET_TOP : HE_COLORSET_NORMAL;
	}
	return 0;
}

/*
 * The struct table's lines, and the struct type of each in @types; how many
 * are below --percent-limit in @hidden.
 */
static int fa_tui__struct_table(struct fa_tui *tui, struct fa_browser *fb, int *types,
				int *hidden)
{
	struct fa_attr *a = tui->attr;
	int order[a->nr_types + 1], n, nr = 0;
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	int err;

	if (!fp)
		return -errno;
	n = fa_report__order(a, tui->an, tui->opts->sort, order);
	for (int k = 0; k < n; k++) {
		if (!fa_report__type_shown(a, a->types[order[k]], tui->opts->percent_limit)) {
			(*hidden)++;
			continue;
		}
		/* one line each, so line k is the struct types[k] */
		fa_report__struct_line(fp, a->types[order[k]], &tui->an[order[k]], tui->opts);
		types[nr++] = order[k];
	}
	err = fclose(fp) ? -errno : fa_browser__set_text(fb, buf, size);
	free(buf);
	if (!err)
		err = fa_tui__struct_colors(tui, fb, types);
	return err;
}

/* The struct table's column header; "# " marks a comment only in stdio */
static int fa_tui__struct_header(struct fa_tui *tui, struct fa_browser *fb)
{
	size_t size = 0;
	FILE *fp = open_memstream(&fb->header, &size);

	if (!fp)
		return -errno;
	fa_report__struct_header(fp, tui->opts);
	if (fclose(fp))
		return -errno;
	if (strstarts(fb->header, "# "))
		fb->header[0] = ' ';
	fb->header[strcspn(fb->header, "\n")] = '\0';
	return 0;
}

static int fa_tui__structs(struct fa_tui *tui)
{
	struct fa_browser fb;
	int *types = calloc(tui->attr->nr_types + 1, sizeof(*types));
	char title[128];
	int key = -1, hidden = 0, n, err;

	fa_browser__init(&fb);
	fb.b.extra_title_lines = 1;
	fb.b.no_samples_msg = "No access was attributed to a struct field: see --stats";
	err = types ? fa_tui__struct_table(tui, &fb, types, &hidden) : -ENOMEM;
	if (!err)
		err = fa_tui__struct_header(tui, &fb);
	if (err) {
		pr_err("perf affinity: cannot make the struct table: %s\n", strerror(-err));
		goto out;
	}
	n = scnprintf(title, sizeof(title), "perf affinity report: %u struct type%s",
		      fb.b.nr_entries, fb.b.nr_entries == 1 ? "" : "s");
	if (hidden)
		scnprintf(title + n, sizeof(title) - n, " (%d more below --percent-limit %g%%)",
			  hidden, tui->opts->percent_limit);
	while (1) {
		key = fa_browser__run(&fb, title,
				      "ENTER fields  l layout  / search  h/? help  q quit",
				      fa_help_structs);
		if (key < 0 || key == 'q' || key == K_ESC)
			break;
		if (!fb.b.nr_entries)
			continue;
		if (key == K_ENTER || key == 'l') {
			int i = types[fb.b.index];

			key = key == 'l' ? fa_tui__layout(tui, i) : fa_tui__fields(tui, i);
			if (key == 'q' || key < 0)
				break;
		}
	}
out:
	fa_browser__exit(&fb);
	free(types);
	return key < 0 ? -1 : 0;
}

/**
 * fa_report__browse - Browse the report of the analyzed struct types
 * @a: The struct types, with the accesses attributed to them
 * @an: Their analyses, in the order of @a's types
 * @total: Accesses attributed to all types, for --percent-limit
 * @o: What the report shows and in which order, as for stdio
 *
 * Return: 0, or -1 if the screens could not be made.
 */
int fa_report__browse(struct fa_attr *a, struct fa_analysis *an, u64 total,
		      const struct fa_report_opts *o)
{
	struct fa_tui tui = {
		.attr	= a,
		.an	= an,
		.opts	= o,
		.total	= total,
	};

	return fa_tui__structs(&tui);
}
