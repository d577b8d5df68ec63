// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI of perf affinity report, as perf c2c's: the struct table and a
 * struct's field table are perf hists browsed with the hists browser;
 * ENTER drills down from a struct to its fields, from the fields to the
 * false sharing, shared lines, co-access pairs and clusters; 'l' shows the
 * current and suggested layouts with their predicted cost.
 *
 * Those last screens are sections of the stdio report printed into memory,
 * so both interfaces show the same text, defined once in
 * util/affinity/report.c.
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
#include "ui/browsers/hists.h"
#include "ui/browsers/affinity.h"
#include "ui/keysyms.h"
#include "ui/libslang.h"
#include "util/affinity/advice/analyze.h"
#include "util/affinity/attr/attr.h"
#include "util/affinity/attr/session.h"
#include "util/affinity/layout/classify.h"
#include "util/affinity/output/hists.h"
#include "util/affinity/output/report.h"
#include "util/affinity/accumulate/type.h"
#include "util/debug.h"

/* Columns a RIGHT or LEFT key scrolls lines wider than the screen */
#define FA_HSCROLL_STEP	8

/* What the screens show: the struct table of the report, the arrays */
struct fa_tui {
	struct fa_hists			*structs;
	const struct fa_session		*session;
	const struct fa_report_opts	*opts;
};

/* A screen of printed lines, tabs expanded so that a column is a character */
struct fa_browser {
	struct ui_browser	 b;
	char			**lines;
	u32			 hscroll;	/* characters scrolled off to the left */
	u32			 width;		/* of the longest line */
	char			 search[50];
};

/* The stdio report's sections that make the details and the layout screens */
static const int fa_details_sections[] = {
	FA_REPORT_ALIGNMENT, FA_REPORT_FALSE_SHARING, FA_REPORT_SHARED_LINES, FA_REPORT_PAIRS,
	FA_REPORT_CLUSTERS,
};

static const int fa_layout_sections[] = {
	FA_REPORT_ADVICE, FA_REPORT_WHATIF, FA_REPORT_COST, FA_REPORT_LAYOUTS,
};

static const char fa_help_move[] =
	"UP/DOWN/PGUP\n"
	"PGDN/HOME/END Move\n";

/* and on the text screens */
static const char fa_help_text[] =
	"RIGHT/LEFT    Scroll wide lines\n"
	"/             Search\n"
	"n             Next match\n"
	"h/?/F1        Show this window\n"
	"q/CTRL+C      Quit";

static const char fa_help_structs[] =
	"ENTER         Fields of the struct\n"
	"l             Current and suggested layout of the struct, their cost\n"
	"a             Arrays of scalars and the merges advised\n"
	"ESC/q         Quit\n";

static const char fa_help_fields[] =
	"ENTER         False sharing, shared lines, co-access pairs, clusters\n"
	"l             Current and suggested layout, their predicted cost\n"
	"ESC           Back to the struct table\n"
	"LEFT/RIGHT    Scroll the columns\n"
	"q             Quit\n";

static const char fa_help_details[] =
	"l             Current and suggested layout, their predicted cost\n"
	"ESC/LEFT      Back to the fields\n";

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
	int color = fa_line__color(*line);

	if (ui_browser__is_current_entry(b, row))
		color = HE_COLORSET_SELECTED;
	ui_browser__set_color(b, color);
	fa_browser__write_line(fb, *line, b->width);
}

static void fa_browser__init(struct fa_browser *fb)
{
	memset(fb, 0, sizeof(*fb));
	fb->b.refresh = ui_browser__argv_refresh;
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

/* The keys of a screen, @help, then those every screen of its kind has */
static void fa_help__window(struct ui_browser *b, const char *help, const char *more)
{
	char *text;

	if (asprintf(&text, "%s%s%s", help, fa_help_move, more) < 0)
		return;
	ui_browser__help_window(b, text);
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
			fa_help__window(&fb->b, help, fa_help_text);
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

/* Print @nr sections of the struct of @fe into @fb */
static int fa_tui__print_sections(struct fa_tui *tui, struct fa_hist_entry *fe,
				  const int *sections, int nr, struct fa_browser *fb)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	int err = -errno;

	if (!fp)
		goto out_err;
	for (int s = 0; s < nr; s++)
		fa_report__section(fp, sections[s], fe, tui->opts);
	err = fclose(fp) ? -errno : fa_browser__set_text(fb, buf, size);
	free(buf);
	if (!err)
		return 0;
out_err:
	pr_err("perf affinity: cannot make the screen of %s: %s\n", fe->te->name, strerror(-err));
	return err;
}

/*
 * A text screen of sections of the struct of @fe, until ESC or LEFT goes
 * back; 'l' opens the layouts from it when @layout_key.
 */
static int fa_tui__text(struct fa_tui *tui, struct fa_hist_entry *fe, const int *sections,
			int nr, const char *title, const char *helpline, const char *help,
			bool layout_key);

/* The layouts of the struct of @fe and their cost; 'q' when the user quits */
static int fa_tui__layout(struct fa_tui *tui, struct fa_hist_entry *fe)
{
	char title[256];
	int n = scnprintf(title, sizeof(title), "Layouts of ");

	fa_report__title(fe->te, title + n, sizeof(title) - n);
	return fa_tui__text(tui, fe, fa_layout_sections, ARRAY_SIZE(fa_layout_sections), title,
			    "ESC/LEFT back  / search  h/? help  q quit", fa_help_layout, false);
}

static int fa_tui__text(struct fa_tui *tui, struct fa_hist_entry *fe, const int *sections,
			int nr, const char *title, const char *helpline, const char *help,
			bool layout_key)
{
	struct fa_browser fb;
	int key = -1;

	fa_browser__init(&fb);
	if (fa_tui__print_sections(tui, fe, sections, nr, &fb))
		goto out;
	while (1) {
		key = fa_browser__run(&fb, title, helpline, help);
		if (layout_key && key == 'l') {
			key = fa_tui__layout(tui, fe);
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

/* False sharing, shared lines, pairs and clusters of the struct of @fe */
static int fa_tui__details(struct fa_tui *tui, struct fa_hist_entry *fe)
{
	char title[256];

	fa_report__title(fe->te, title, sizeof(title));
	return fa_tui__text(tui, fe, fa_details_sections, ARRAY_SIZE(fa_details_sections), title,
			    "l layout  ESC/LEFT back  / search  h/? help  q quit", fa_help_details,
			    true);
}

/* The arrays of scalars and the merges advised; 'q' when the user quits */
static int fa_tui__arrays(struct fa_tui *tui)
{
	struct fa_browser fb;
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	int key = -1;

	fa_browser__init(&fb);
	if (!fp)
		goto out;
	if (!fa_report__arrays(fp, tui->session))
		fprintf(fp, "\n  No access to an array of scalars was attributed\n");
	if (fclose(fp) || fa_browser__set_text(&fb, buf, size))
		goto out;
	while (key != 'q' && key != K_ESC && key != K_LEFT) {
		key = fa_browser__run(&fb, "Arrays of scalars",
				      "ESC/LEFT back  / search  h/? help  q quit", fa_help_layout);
		if (key < 0)
			break;
	}
out:
	free(buf);
	fa_browser__exit(&fb);
	return key;
}

static struct fa_hists *fa_hists(struct hist_browser *hb)
{
	return container_of(hb->hists, struct fa_hists, hists);
}

static int fa_tui__structs_title(struct hist_browser *hb, char *bf, size_t size)
{
	struct fa_hists *fh = fa_hists(hb);
	int n = scnprintf(bf, size, "perf affinity report: %d struct type%s", fh->nr_shown,
			  fh->nr_shown == 1 ? "" : "s");

	if (fh->nr_hidden)
		scnprintf(bf + n, size - n, " (%d more below --percent-limit %g%%)",
			  fh->nr_hidden, fh->percent_limit);
	return 0;
}

static int fa_tui__fields_title(struct hist_browser *hb, char *bf, size_t size)
{
	struct fa_hists *fh = fa_hists(hb);
	int n = fa_report__title(fh->parent->te, bf, size);

	if (fh->nr_hidden)
		scnprintf(bf + n, size - n, " (%d field%s below --percent-limit %g%%)",
			  fh->nr_hidden, fh->nr_hidden == 1 ? "" : "s", fh->percent_limit);
	return 0;
}

/* A hists browser of @fh, that shows only the entries above --percent-limit */
static struct hist_browser *fa_tui__hist_browser(struct fa_hists *fh,
						 int (*title)(struct hist_browser *, char *,
							      size_t))
{
	struct hist_browser *hb = hist_browser__new(&fh->hists);

	if (!hb)
		return NULL;
	hb->title = title;
	hb->c2c_filter = true;
	hb->nr_non_filtered_entries = fh->nr_shown;
	/* the first row is selected from the start: no key goes to showing it */
	hb->b.navkeypressed = true;
	return hb;
}

/* The selected entry, or NULL when there is none */
static struct fa_hist_entry *fa_tui__selection(struct hist_browser *hb)
{
	if (!hb->he_selection || !hb->nr_non_filtered_entries)
		return NULL;
	return fa_hist_entry(hb->he_selection);
}

/* The field table of the struct of @fe; 'q' when the user quits */
static int fa_tui__fields(struct fa_tui *tui, struct fa_hist_entry *fe)
{
	struct fa_hists *fh = fa_hists__fields(fe, tui->opts);
	struct hist_browser *hb = fh ? fa_tui__hist_browser(fh, fa_tui__fields_title) : NULL;
	int key = -1;

	if (!hb) {
		pr_err("perf affinity: cannot make the field table of %s\n", fe->te->name);
		return -1;
	}
	while (1) {
		key = hist_browser__run(hb, "ENTER details  l layout  ESC back  ? help  q quit",
					false, 0);
		if (key == K_ENTER)
			key = fa_tui__details(tui, fe);
		else if (key == 'l')
			key = fa_tui__layout(tui, fe);
		else if (key == 'h' || key == '?' || key == K_F1)
			fa_help__window(&hb->b, fa_help_fields, "");
		else if (key == K_ESC)
			break;
		if (key == 'q' || key == CTRL('c') || key < 0) {
			key = 'q';
			break;
		}
	}
	hist_browser__delete(hb);
	return key;
}

static int fa_tui__structs(struct fa_tui *tui)
{
	struct hist_browser *hb = fa_tui__hist_browser(tui->structs, fa_tui__structs_title);
	struct fa_hist_entry *fe;
	int key = -1;

	if (!hb) {
		pr_err("perf affinity: cannot make the struct table\n");
		return -1;
	}
	hb->b.no_samples_msg = "No access was attributed to a struct field: see --stats";
	while (1) {
		key = hist_browser__run(hb, "ENTER fields  l layout  a arrays  ? help  q quit",
					false, 0);
		if (key < 0 || key == 'q' || key == K_ESC || key == CTRL('c'))
			break;
		if (key == 'h' || key == '?' || key == K_F1) {
			fa_help__window(&hb->b, fa_help_structs, "");
			continue;
		}
		if (key == 'a') {
			if (fa_tui__arrays(tui) == 'q')
				break;
			continue;
		}
		fe = fa_tui__selection(hb);
		if (!fe || (key != K_ENTER && key != 'l'))
			continue;
		key = key == 'l' ? fa_tui__layout(tui, fe) : fa_tui__fields(tui, fe);
		if (key == 'q' || key < 0)
			break;
	}
	hist_browser__delete(hb);
	return key < 0 ? -1 : 0;
}

/**
 * fa_report__browse - Browse the report of the analyzed struct types
 * @fh: The struct table
 * @s: The session: the arrays of scalars
 * @o: What the report shows and in which order, as for stdio
 *
 * Return: 0, or -1 if the screens could not be made.
 */
int fa_report__browse(struct fa_hists *fh, const struct fa_session *s,
		      const struct fa_report_opts *o)
{
	struct fa_tui tui = {
		.structs	= fh,
		.session	= s,
		.opts		= o,
	};

	return fa_tui__structs(&tui);
}
