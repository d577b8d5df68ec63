// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report, stdio: the data cache lines shared between threads,
 * whatever lives on them (dlines.h), the perf c2c view named by what the
 * accesses were attributed to, and how to give each thread its own line.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include "../advice/analyze.h"
#include "../layout/boot.h"
#include "../attr/attr.h"
#include "../attr/dlines.h"
#include "report.h"
#include "../../dso.h"


/* "thread 1234" or "CPU 3" */
static const char *fa_dline__owner_kind(const struct fa_dline *l)
{
	return l->space ? "thread" : "CPU";
}

/**
 * fa_dl_owner__what_scnprintf - What an owner accessed on a line, in words
 */
int fa_dl_owner__what_scnprintf(const struct fa_dl_owner *o, char *buf, size_t size)
{
	const struct fa_dl_what *w = &o->what;
	int n;

	if (w->field)
		n = scnprintf(buf, size, "%s.%s", w->type, w->field);
	else if (w->var && o->index_lo == o->index_hi)
		n = scnprintf(buf, size, "%s[%" PRId64 "]", w->var, o->index_lo);
	else if (w->var)
		n = scnprintf(buf, size, "%s[%" PRId64 "..%" PRId64 "]", w->var, o->index_lo,
			      o->index_hi);
	else if (w->type && w->base && o->index_lo == o->index_hi)
		n = scnprintf(buf, size, "%s element [%" PRId64 "]", w->type, o->index_lo);
	else if (w->type && w->base)
		n = scnprintf(buf, size, "%s elements [%" PRId64 "..%" PRId64 "]", w->type,
			      o->index_lo, o->index_hi);
	else if (w->type)
		n = scnprintf(buf, size, "%s", w->type);
	else
		n = scnprintf(buf, size, "untyped");
	if (o->more_what)
		n += scnprintf(buf + n, size - n, " and more");
	return n;
}

static size_t fa_report__dl_owner(FILE *fp, const struct fa_dline *l, const struct fa_dl_owner *o,
				  u32 line_size)
{
	char what[256];
	u32 lo, hi;
	size_t printed;

	fa_dl_owner__bytes(o, line_size, &lo, &hi);
	fa_dl_owner__what_scnprintf(o, what, sizeof(what));
	printed = fprintf(fp, "      %s %u: %s, bytes %u-%u, %" PRIu64 " loads %" PRIu64 " stores",
			  fa_dline__owner_kind(l), o->id, what, lo, hi, o->loads, o->stores);
	if (!o->code.sym)
		return printed + fprintf(fp, "\n");
	printed += fprintf(fp, ", by %s+%#" PRIx64, o->code.sym, o->code.sym_off);
	if (o->code.srcline)
		printed += fprintf(fp, " (%s)", o->code.srcline);
	return printed + fprintf(fp, "\n");
}

static size_t fa_report__dl_where(FILE *fp, const struct fa_dline *l)
{
	size_t printed = fprintf(fp, "\n  line %#" PRIx64, l->addr);

	if (l->where.var)
		printed += fprintf(fp, "  %s+0x%" PRIx64, l->where.var, l->where.var_off);
	if (l->where.map)
		printed += fprintf(fp, "  %s+0x%" PRIx64, l->where.map, l->where.map_off);
	if (l->space)
		printed += fprintf(fp, "  pid %u", l->space);
	printed += fprintf(fp, ": %" PRIu64 " loads, %" PRIu64 " stores,", l->loads, l->stores);
	return printed + fprintf(fp, " %" PRIu64 " transfers\n", l->xfers);
}

/* The edit @adv that gives each owner its own line, after @lead */
static size_t fa_report__dl_edit(FILE *fp, const struct fa_dline *l, u32 line_size,
				 enum fa_dl_advice adv, const char *lead)
{
	const struct fa_dl_owner *o = &l->owners[0];
	const char *who = fa_dline__owner_kind(l);
	size_t printed = fprintf(fp, "%s", lead);
	u32 stride;

	switch (adv) {
	case FA_DL_ADV_ELEMENTS:
		printed += fprintf(fp, "give each %s's %s elements a cache line of their own:",
				   who, o->what.type);
		return printed + fprintf(fp, " pad the per-%s stride to %u bytes (%u elements)\n",
					 who, line_size, line_size / max(o->what.size, 1U));
	case FA_DL_ADV_STRIDE:
		stride = fa_dline__stride(l, line_size);
		printed += fprintf(fp, "%s+%#" PRIx64 " accesses a slot per %s, %u bytes apart:",
				   o->code.sym, o->code.sym_off, who, stride);
		printed += fprintf(fp, " pad the stride to %u bytes (a slot per cache line:",
				   line_size);
		printed += fprintf(fp, " index by %s x %u,", who, line_size / stride);
		return printed + fprintf(fp, " or a %u-byte aligned struct per %s)\n", line_size,
					 who);
	case FA_DL_ADV_BYTES:
	case FA_DL_ADV_NONE:
	case FA_DL_ADV_TYPE:
	default:
		return printed + fprintf(fp, "give each %s's bytes a cache line of their own\n",
					 who);
	}
}

/*
 * The edit, when its saving of transfers is sure (as a type's edits must
 * be), with the transfers it leaves; else the candidate and why not
 */
static size_t fa_report__dl_apart(FILE *fp, const struct fa_dline *l, u32 line_size,
				  enum fa_dl_advice adv)
{
	char ci_str[FA_INTERVAL_STR];
	struct fa_interval ci;
	size_t printed;
	int nr;

	if (fa_dline__saving(l, &ci, &nr)) {
		printed = fa_report__dl_edit(fp, l, line_size, adv, "    Advice: ");
	} else {
		printed = fprintf(fp, "    Advice: none yet, the evidence is insufficient");
		printed += fprintf(fp, " (transfers in %d of %d groups of time, %d needed,",
				   nr, FA_BOOT_GROUPS, FA_BOOT_MIN_GROUPS);
		printed += fprintf(fp, " and a saving sure to reach %.0f%%): record longer\n",
				   100 * FA_MIN_GAIN);
		printed += fa_report__dl_edit(fp, l, line_size, adv,
					      "      the leading candidate: ");
	}
	fa_interval__str(&ci, /*saving=*/true, ci_str, sizeof(ci_str));
	printed += fprintf(fp, "      predicted transfers %" PRIu64 " -> %" PRIu64, l->xfers,
			   l->xfers_apart);
	return printed + fprintf(fp, " (%+.1f%%, %s)\n", -100 * ci.est, ci_str);
}

static size_t fa_report__dl_advice(FILE *fp, const struct fa_attr *a, const struct fa_dline *l,
				   u32 line_size)
{
	enum fa_dl_advice adv = fa_dline__advice(l, line_size);
	const char *who = fa_dline__owner_kind(l);

	switch (adv) {
	case FA_DL_ADV_TYPE:
		if (fa_attr__left_out(a, l->owners[0].what.type))
			return fprintf(fp, "    Advice: none: %s is a system library's, left out (--system-types reports it)\n",
				       l->owners[0].what.type);
		return fprintf(fp, "    Advice: see %s above: its fields share the line\n",
			       l->owners[0].what.type);
	case FA_DL_ADV_ELEMENTS:
	case FA_DL_ADV_STRIDE:
	case FA_DL_ADV_BYTES:
		return fa_report__dl_apart(fp, l, line_size, adv);
	case FA_DL_ADV_NONE:
	default:
		return fprintf(fp, "    Advice: none by layout: the %ss access the same bytes, %s",
			       who, "one writing (true sharing); ") +
		       fprintf(fp, "%" PRIu64 " of %" PRIu64, l->xfers_apart, l->xfers) +
		       fprintf(fp, " transfers are left with a line per %s\n", who);
	}
}

static size_t fa_report__dline(FILE *fp, const struct fa_attr *a, const struct fa_dline *l,
			       u32 line_size)
{
	char watch[256];
	size_t printed = fa_report__dl_where(fp, l);
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS);
	bool false_sharing = fa_dline__false_sharing(l);

	printed += fprintf(fp, "    %s: %u %ss, ", false_sharing ? "false sharing" : "true sharing",
			   l->nr_owners, fa_dline__owner_kind(l));
	printed += fprintf(fp, "%s\n", false_sharing ? "each accesses bytes the others do not" :
			   "one writes bytes another accesses");
	for (int i = 0; i < n; i++)
		printed += fa_report__dl_owner(fp, l, &l->owners[i], line_size);
	if (l->nr_owners > FA_DL_OWNERS)
		printed += fprintf(fp, "      and %u more %ss\n", l->nr_owners - FA_DL_OWNERS,
				   fa_dline__owner_kind(l));
	printed += fa_report__dl_advice(fp, a, l, line_size);
	if (fa_dline__watch_scnprintf(l, line_size, watch, sizeof(watch)))
		printed += fprintf(fp, "    Exact roles and transfers: perf affinity record --watch '%s' -- <workload>\n",
				   watch);
	return printed;
}

/**
 * fa_report__data_lines - The data cache lines threads share, typed or not
 */
size_t fa_report__data_lines(FILE *fp, const struct fa_attr *a)
{
	struct fa_dline **lines;
	size_t printed;
	int nr, shown = 0;

	nr = fa_dlines__contended(&a->s->dlines, &lines);
	if (nr <= 0) {
		free(lines);
		return 0;
	}
	printed = fa_report__banner(fp, "Shared Data Cache Lines");
	printed += fprintf(fp, "\n  %d line%s moved between threads (CPUs in the kernel)",
			   nr, nr == 1 ? "" : "s");
	printed += fprintf(fp, " by writes:");
	printed += fprintf(fp, " by address, typed or not\n");
	for (int i = 0; i < nr && shown < FA_DL_SHOWN; i++, shown++)
		printed += fa_report__dline(fp, a, lines[i], a->s->cfg->line_size);
	if (nr > shown)
		printed += fprintf(fp, "\n  %d more lines: see --json\n", nr - shown);
	free(lines);
	return printed;
}
