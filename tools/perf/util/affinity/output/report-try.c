// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report, stdio: the what-if section (report.h).  The
 * layouts --try proposes beside the recorded one and the advice, scored
 * by the same measures, in one table; then each layout's edits in the
 * words --try takes, so that the advice's can be pasted and changed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <linux/kernel.h>
#include "../advice/try.h"
#include "../accumulate/type.h"
#include "../attr/attr.h"
#include "../fields/fields.h"
#include "memory.h"
#include "report.h"

/**
 * fa_advice__snprintf - The advice in the words --try takes
 *
 * Its edits joined by "; ", or what it is when no edits make it (the full
 * reorder, a split); "" without advice.
 */
int fa_advice__snprintf(const struct fa_analysis *an, const struct fa_struct *st, char *buf,
			size_t size)
{
	int n = 0;

	buf[0] = '\0';
	if (!an->advice.changed && an->advice.kind != FA_ADVICE_SPLIT)
		return 0;
	switch (an->advice.kind) {
	case FA_ADVICE_REORDER:
		n = scnprintf(buf, size, "the full reorder");
		break;
	case FA_ADVICE_SPLIT:
		return scnprintf(buf, size, "the hot/cold split");
	case FA_ADVICE_EDIT:
		for (int i = 0; i < an->advice.edits.nr; i++) {
			n += scnprintf(buf + n, size - n, "%s", i ? "; " : "");
			n += fa_edit__snprintf(&an->advice.edits.edit[i], st, buf + n, size - n);
		}
		break;
	case FA_ADVICE_NONE:
	default:
		break;
	}
	if (an->advice.spread)
		n += scnprintf(buf + n, size - n, "%salign the struct to %u", n ? "; " : "",
			       an->advice.suggested.align);
	return n;
}

/* A saving in percent, or "-" when there is none to compare */
static int fa_saving__snprintf(const struct fa_interval *ci, bool have, char *buf, size_t size)
{
	if (!have)
		return scnprintf(buf, size, "-");
	return scnprintf(buf, size, "%+.1f%%", -100 * ci->est);
}

static int fa_interval__snprintf(const struct fa_interval *ci, bool have, char *buf, size_t size)
{
	if (!have || ci->lo == ci->hi)
		return scnprintf(buf, size, "-");
	return scnprintf(buf, size, "%+.1f%% to %+.1f%%", -100 * ci->hi, -100 * ci->lo);
}

/* One row of the table */
struct fa_try_row {
	const char		*name;
	const struct fa_layout	*l;
	const struct fa_interval *gain;
	const struct fa_interval *replay;
	double			 visit_lines;
	const struct fa_exact_cost *watched;
	int			 moved;
};

static size_t fa_try_row__fprintf(FILE *fp, const struct fa_try_row *r,
				  const struct fa_type_entry *te, const struct fa_analysis *an)
{
	struct fa_mem_price price;
	char gain[16], ci[40], replay[16], lines[16] = "-", watched[24] = "-";
	bool have = r->gain != NULL;

	fa_saving__snprintf(r->gain, have, gain, sizeof(gain));
	fa_interval__snprintf(r->gain, have, ci, sizeof(ci));
	fa_saving__snprintf(r->replay, have, replay, sizeof(replay));
	if (r->visit_lines > 0)
		scnprintf(lines, sizeof(lines), "%.2f", r->visit_lines);
	if (r->watched && r->watched->hits)
		scnprintf(watched, sizeof(watched), "%" PRIu64 "/%" PRIu64, r->watched->transfers,
			  r->watched->false_sharing);
	fa_mem_price__init(&price, te, &an->seen.current, r->l);
	return fprintf(fp, "    %-10s %6u %+9" PRId64 "  %7s  %-18s %7s %11s %11s %5d\n", r->name,
		       r->l->size, price.total, gain, ci, replay, lines, watched, r->moved);
}

static size_t fa_report__try_rows(FILE *fp, const struct fa_type_entry *te,
				  const struct fa_analysis *an)
{
	struct fa_try_row r = {
		.name = "current", .l = &an->seen.current, .visit_lines = an->cost.now.visit_lines,
		.watched = &an->watched.now,
	};
	size_t printed = fa_try_row__fprintf(fp, &r, te, an);
	char name[16];

	if (an->advice.changed) {
		r = (struct fa_try_row){
			.name = "advice", .l = &an->advice.suggested,
			.gain = an->advice.spread ? &an->cost.replay_gain_ci : &an->cost.gain_ci,
			.replay = &an->cost.replay_gain_ci,
			.visit_lines = an->cost.advised.visit_lines,
			.watched = fa_analysis__watched_replayed(an) ? &an->watched.then : NULL,
			.moved = an->advice.moved,
		};
		printed += fa_try_row__fprintf(fp, &r, te, an);
	}
	for (int i = 0; i < an->nr_tries; i++) {
		const struct fa_try *tr = &an->tries[i];

		scnprintf(name, sizeof(name), "try %d", i + 1);
		r = (struct fa_try_row){
			.name = name, .l = &tr->layout, .gain = &tr->gain_ci,
			.replay = &tr->replay_gain_ci, .visit_lines = tr->cost.visit_lines,
			.watched = &tr->watched, .moved = tr->moved,
		};
		printed += fa_try_row__fprintf(fp, &r, te, an);
	}
	return printed;
}

/* The what-if section: only with --try, for the types its layouts are of */
size_t fa_report__tries(FILE *fp, const struct fa_type_entry *te, const struct fa_analysis *an)
{
	struct fa_mem_price price;
	char buf[1024];
	size_t printed;

	if (!an->nr_tries)
		return 0;
	printed = fprintf(fp, "\n  What-if (--try), each layout scored as the advice is: saving from the current layout\n\n");
	printed += fprintf(fp, "    %-10s %6s %9s  %7s  %-18s %7s %11s %11s %5s\n", "Layout", "Size",
			   "Memory", "Model", "Model 95%", "Replay", "Lines/visit", "Watched", "Moves");
	printed += fprintf(fp, "    %-10s %6s %9s  %7s  %-18s %7s %11s %11s %5s\n", "..........",
			   "....", "......", ".....", ".........", "......", "...........",
			   ".......", ".....");
	printed += fa_report__try_rows(fp, te, an);
	printed += fprintf(fp, "\n");
	if (fa_advice__snprintf(an, te->st, buf, sizeof(buf)))
		printed += fprintf(fp, "    advice: %s\n", buf);
	for (int i = 0; i < an->nr_tries; i++) {
		const struct fa_try *tr = &an->tries[i];

		printed += fprintf(fp, "    try %d: %s%s\n", i + 1, tr->text,
				   tr->breaks ? " (moves what must stay: see 'kept')" : "");
	}
	fa_mem_price__init(&price, te, &an->seen.current, &an->seen.current);
	printed += fprintf(fp, "    Memory: bytes more where the instances live (%s, %" PRIu64 " paid for); Watched: the watched hits' transfers replayed / of them between different members\n",
			   fa_mem_home__text(price.home), price.copies);
	return printed;
}
