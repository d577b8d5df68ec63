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
#include "../accumulate/boot.h"
#include "../attr/attr.h"
#include "../attr/dlines.h"
#include "report.h"
#include "../../dso.h"


/* "thread 1234" or "CPU 3" */
static const char *fa_dline__owner_kind(const struct fa_dline *l)
{
	return fa_space__kernel(l->space) ? "CPU" : "thread";
}

/* Of several recordings, the one its pid, threads or CPUs are of: "@2" */
static const char *fa_dline__rec(const struct fa_dline *l, char *buf, size_t size)
{
	if (!l->several)
		return "";
	scnprintf(buf, size, "@%u", fa_space__rec(l->space) + 1);
	return buf;
}

static size_t fa_dline__fprintf_pid(const struct fa_dline *l, FILE *fp)
{
	char rec[8];

	if (fa_space__kernel(l->space))
		return 0;
	return fprintf(fp, "  pid %u%s", fa_space__pid(l->space),
		       fa_dline__rec(l, rec, sizeof(rec)));
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

/* ", by count+0x26 (file.c:12)" */
static size_t fa_report__dl_code(FILE *fp, const char *lead, const struct fa_dl_code *code)
{
	size_t printed = fprintf(fp, "%s%s+%#" PRIx64, lead, code->sym, code->sym_off);

	if (code->srcline)
		printed += fprintf(fp, " (%s)", code->srcline);
	return printed;
}

static size_t fa_report__dl_owner(FILE *fp, const struct fa_dline *l, const struct fa_dl_owner *o,
				  u32 line_size)
{
	char what[256], rec[8];
	u32 lo, hi;
	size_t printed;

	fa_dl_owner__bytes(o, line_size, &lo, &hi);
	fa_dl_owner__what_scnprintf(o, what, sizeof(what));
	printed = fprintf(fp, "      %s %u%s: %s, bytes %u-%u, %" PRIu64 " loads %" PRIu64 " stores",
			  fa_dline__owner_kind(l), o->id, fa_dline__rec(l, rec, sizeof(rec)), what,
			  lo, hi, o->loads, o->stores);
	if (o->code.sym)
		printed += fa_report__dl_code(fp, ", by ", &o->code);
	if (o->wcode.sym && o->wcode.addr != o->code.addr)
		printed += fa_report__dl_code(fp, ", stores by ", &o->wcode);
	if (o->rcode.sym && o->rcode.addr != o->code.addr)
		printed += fa_report__dl_code(fp, ", loads by ", &o->rcode);
	return printed + fprintf(fp, "\n");
}

static size_t fa_report__dl_where(FILE *fp, const struct fa_dline *l)
{
	size_t printed = fprintf(fp, "\n  line %#" PRIx64, l->addr);

	if (l->where.var)
		printed += fprintf(fp, "  %s+0x%" PRIx64, l->where.var, l->where.var_off);
	else if (l->where.ptr)
		printed += fprintf(fp, "  *%s", l->where.ptr);
	if (l->where.map)
		printed += fprintf(fp, "  %s+0x%" PRIx64, l->where.map, l->where.map_off);
	printed += fa_dline__fprintf_pid(l, fp);
	printed += fprintf(fp, ": %" PRIu64 " loads, %" PRIu64 " stores,", l->loads, l->stores);
	printed += fprintf(fp, " %" PRIu64 " transfers", l->xfers);
	/* every access to the bytes watched: roles and transfers exact */
	return printed + fprintf(fp, "%s\n", l->exact ? " (watchpoint hits, exact)" : "");
}

/*
 * The step of an index that gives each @who's slot of @size bytes a line:
 * "index by thread x 16" where the slot divides a line; else the aligned
 * struct first, as a whole number of slots is then several lines
 */
static size_t fa_report__dl_step(FILE *fp, u32 size, u32 line_size, const char *who)
{
	u32 step = fa_dl_slot__step(size, line_size);

	if (step * size == line_size)
		return 0;
	return fprintf(fp, " to a multiple of %u bytes (a %u-byte aligned struct per %s, allocated at a %u-byte boundary, or index by %s x %u, %u bytes)\n",
		       line_size, line_size, who, line_size, who, step, step * size);
}

/*
 * The rest of a stride's edit: the code that reads other owners' slots
 * (a sum over them all) must step as the index does, and the allocation
 * grows with it
 */
static size_t fa_report__dl_readers(FILE *fp, const struct fa_dline *l)
{
	int n = min_t(int, l->nr_owners, FA_DL_OWNERS), nr = 0;
	size_t printed = 0;

	for (int i = 0; i < n; i++) {
		const struct fa_dl_owner *o = &l->owners[i];

		if (!o->rcode.sym || !o->wcode.sym || o->rcode.addr == o->wcode.addr)
			continue;
		printed += fprintf(fp, nr++ ? "," : "      the whole edit: the allocation and the index, and the code that reads the slots:");
		printed += fa_report__dl_code(fp, " ", &o->rcode);
	}
	return printed + (nr ? fprintf(fp, "\n") : 0);
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
		printed += fprintf(fp, " pad the per-%s stride", who);
		if (!fa_report__dl_step(fp, max(o->what.size, 1U), line_size, who))
			printed += fprintf(fp, " to %u bytes (%u elements)\n", line_size,
					   line_size / max(o->what.size, 1U));
		return printed + fa_report__dl_readers(fp, l);
	case FA_DL_ADV_STRIDE:
		stride = fa_dline__stride(l, line_size);
		printed += fprintf(fp, "%s+%#" PRIx64 " accesses a slot per %s, %u bytes apart:",
				   o->code.sym, o->code.sym_off, who, stride);
		printed += fprintf(fp, " pad the stride");
		if (!fa_report__dl_step(fp, stride, line_size, who)) {
			printed += fprintf(fp, " to %u bytes (a slot per cache line:", line_size);
			printed += fprintf(fp, " index by %s x %u,", who, line_size / stride);
			printed += fprintf(fp, " or a %u-byte aligned struct per %s)\n", line_size,
					   who);
		}
		return printed + fa_report__dl_readers(fp, l);
	case FA_DL_ADV_BYTES:
	case FA_DL_ADV_NONE:
	case FA_DL_ADV_TYPE:
	default:
		return printed + fprintf(fp, "give each %s's bytes a cache line of their own\n",
					 who);
	}
}

/* "predicted transfers 110 -> 0 (-100.0%, 95% interval ...)" */
static size_t fa_report__dl_predicted(FILE *fp, u64 xfers, u64 apart, const struct fa_interval *ci)
{
	char ci_str[FA_INTERVAL_STR];

	fa_interval__str(ci, /*saving=*/true, ci_str, sizeof(ci_str));
	return fprintf(fp, "      predicted transfers %" PRIu64 " -> %" PRIu64 " (%+.1f%%, %s)\n",
		       xfers, apart, -100 * ci->est, ci_str);
}

/* The smaller edit, where one owner's bytes alone on a line remove nearly as much */
static size_t fa_report__dl_alone(FILE *fp, const struct fa_dline *l)
{
	int k = fa_dline__alone(l);
	char rec[8];

	if (k < 0)
		return 0;
	return fprintf(fp, "      smaller: a line for %s %u%s's bytes alone, the others' together, leaves %" PRIu64 " transfers\n",
		       fa_dline__owner_kind(l), l->owners[k].id, fa_dline__rec(l, rec, sizeof(rec)),
		       l->xfers_alone[k]);
}

/*
 * Why a line's edit is not advised: its transfers fell in too few groups
 * of time (record longer), or the saving's interval does not reach
 * FA_MIN_GAIN with enough of them (the edit does not surely save)
 */
static size_t fa_report__dl_unsure(FILE *fp, const struct fa_interval *ci, int nr)
{
	char ci_str[FA_INTERVAL_STR];

	if (nr < FA_BOOT_MIN_GROUPS)
		return fprintf(fp, "    Advice: none yet, the evidence is insufficient (transfers in %d of %d groups of time, %d needed): record longer\n",
			       nr, FA_BOOT_GROUPS, FA_BOOT_MIN_GROUPS);
	fa_interval__str(ci, /*saving=*/true, ci_str, sizeof(ci_str));
	return fprintf(fp, "    Advice: none, the saving is not sure to reach %.0f%% (%s, transfers in %d of %d groups of time)\n",
		       100 * FA_MIN_GAIN, ci_str, nr, FA_BOOT_GROUPS);
}

/*
 * The edit, when its saving of transfers is sure (as a type's edits must
 * be), with the transfers it leaves; else the candidate and why not
 */
static size_t fa_report__dl_apart(FILE *fp, const struct fa_dline *l, u32 line_size,
				  enum fa_dl_advice adv)
{
	struct fa_interval ci;
	size_t printed;
	int nr;

	if (fa_dline__saving(l, &ci, &nr)) {
		printed = fa_report__dl_edit(fp, l, line_size, adv, "    Advice: ");
	} else {
		printed = fa_report__dl_unsure(fp, &ci, nr);
		printed += fa_report__dl_edit(fp, l, line_size, adv,
					      "      the leading candidate: ");
	}
	printed += fa_report__dl_predicted(fp, l->xfers, l->xfers_apart, &ci);
	return printed + fa_report__dl_alone(fp, l);
}

static size_t fa_report__dl_advice(FILE *fp, const struct fa_attr *a, const struct fa_dline *l,
				   u32 line_size)
{
	enum fa_dl_advice adv = fa_dline__advice(l, line_size);
	const char *who = fa_dline__owner_kind(l);

	switch (adv) {
	case FA_DL_ADV_TYPE:
		if (fa_attr__left_out(a, fa_dline__type(l)))
			return fprintf(fp, "    Advice: none: %s is a system library's, left out (--system-types reports it)\n",
				       fa_dline__type(l));
		return fprintf(fp, "    Advice: see %s above: its fields share the line\n",
			       fa_dline__type(l));
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
	enum fa_dl_sharing sharing = fa_dline__sharing(l);
	const char *who = fa_dline__owner_kind(l);

	switch (sharing) {
	case FA_DL_FALSE:
		printed += fprintf(fp, "    false sharing: %u %ss, each accesses bytes the others do not\n",
				   l->nr_owners, who);
		break;
	case FA_DL_MIXED:
		printed += fprintf(fp, "    false sharing: %u %ss; the bytes two access, one writing,",
				   l->nr_owners, who);
		printed += fprintf(fp, " are true sharing, %" PRIu64 " of %" PRIu64 " transfers\n",
				   l->xfers_apart, l->xfers);
		break;
	case FA_DL_TRUE:
	default:
		printed += fprintf(fp, "    true sharing: %u %ss, one writes bytes another accesses\n",
				   l->nr_owners, who);
		break;
	}
	for (int i = 0; i < n; i++)
		printed += fa_report__dl_owner(fp, l, &l->owners[i], line_size);
	if (l->nr_owners > FA_DL_OWNERS)
		printed += fprintf(fp, "      and %u more %ss\n", l->nr_owners - FA_DL_OWNERS,
				   fa_dline__owner_kind(l));
	printed += fa_report__dl_advice(fp, a, l, line_size);
	/* no watching what was watched */
	if (!fa_dlines__find(&a->s->watched, l->addr, l->space) &&
	    fa_dline__watch_scnprintf(l, line_size, watch, sizeof(watch)))
		printed += fprintf(fp, "    Exact roles and transfers: perf affinity record --watch '%s' -- <workload>\n",
				   watch);
	return printed;
}

/* "nd" of "2nd", of the interleaving strides: 2 and up */
static const char *fa_ordinal(u32 n)
{
	return n == 2 ? "nd" : n == 3 ? "rd" : "th";
}

/* The first and the last line of @g, and where its first line is */
static size_t fa_report__dl_group_where(FILE *fp, const struct fa_dl_group *g)
{
	const struct fa_dline *l0 = g->lines[0];
	u64 lo = l0->addr, hi = l0->addr;
	size_t printed;

	for (int k = 1; k < g->nr; k++) {
		lo = min(lo, g->lines[k]->addr);
		hi = max(hi, g->lines[k]->addr);
	}
	printed = fprintf(fp, "\n  lines %#" PRIx64 "-%#" PRIx64, lo, hi);
	if (l0->where.ptr)
		printed += fprintf(fp, "  *%s", l0->where.ptr);
	if (l0->where.map)
		printed += fprintf(fp, "  %s+0x%" PRIx64 "-0x%" PRIx64, l0->where.map,
				   l0->where.map_off - (l0->addr - lo), l0->where.map_off + (hi - l0->addr));
	printed += fa_dline__fprintf_pid(l0, fp);
	printed += fprintf(fp, ": %d lines of one array of %s, elements [%" PRId64 "..%" PRId64 "],",
			   g->nr, g->what->type, g->index_lo, g->index_hi);
	return printed + fprintf(fp, " %" PRIu64 " loads, %" PRIu64 " stores, %" PRIu64 " transfers\n",
				 g->loads, g->stores, g->xfers);
}

/* An owner of @g: its elements and its code, on the first line it is named on */
static size_t fa_report__dl_group_owner(FILE *fp, const struct fa_dl_group *g, u32 k)
{
	const struct fa_dline *l0 = g->lines[0];
	char rec[8];
	size_t printed = fprintf(fp, "      %s %u%s:", fa_dline__owner_kind(l0), g->ids[k],
				 fa_dline__rec(l0, rec, sizeof(rec)));

	if (g->stride)
		printed += fprintf(fp, " every %u%s element from [%u]", g->stride,
				   fa_ordinal(g->stride), g->residue[k]);
	else if (g->id_lo[k] <= g->id_hi[k])
		printed += fprintf(fp, " elements [%" PRId64 "..%" PRId64 "]", g->id_lo[k],
				   g->id_hi[k]);
	else
		printed += fprintf(fp, " untyped");
	for (int i = 0; i < g->nr; i++) {
		const struct fa_dline *l = g->lines[i];

		for (u32 j = 0; j < l->nr_owners && j < FA_DL_OWNERS; j++) {
			if (l->owners[j].id == g->ids[k] && l->owners[j].code.sym)
				return printed + fa_report__dl_code(fp, ", by ", &l->owners[j].code) +
				       fprintf(fp, "\n");
		}
	}
	return printed + fprintf(fp, "\n");
}

/*
 * Lines of one array accessed alike, one finding: an array interleaved
 * between threads is one access pattern and one edit, not 200 lines
 */
static size_t fa_report__dl_group(FILE *fp, const struct fa_dl_group *g)
{
	const struct fa_dline *l0 = g->lines[0];
	const char *who = fa_dline__owner_kind(l0);
	struct fa_interval ci;
	size_t printed = fa_report__dl_group_where(fp, g);
	bool sure;
	int nr;

	printed += fprintf(fp, "    false sharing: %u %ss%s\n", g->nr_ids, who,
			   g->stride ? ", interleaved: each accesses elements the others do not, in every line" :
			   ", each accesses bytes the others do not");
	for (u32 k = 0; k < g->nr_ids; k++)
		printed += fa_report__dl_group_owner(fp, g, k);
	sure = fa_dl_group__saving(g, &ci, &nr);
	if (!sure)
		printed += fa_report__dl_unsure(fp, &ci, nr);
	printed += fprintf(fp, "%s", sure ? "    Advice: " : "      the leading candidate: ");
	if (g->stride) {
		printed += fprintf(fp, "give each %s a block of the array of its own, not every %u%s element:",
				   who, g->stride, fa_ordinal(g->stride));
		printed += fprintf(fp, " %s t of %u takes elements [t * n / %u, (t + 1) * n / %u);",
				   who, g->stride, g->stride, g->stride);
		printed += fprintf(fp, " %ss then meet only where blocks meet\n", who);
	} else {
		printed += fprintf(fp, "give each %s's %s elements cache lines of their own\n", who,
				   g->what->type);
	}
	return printed + fa_report__dl_predicted(fp, g->xfers, g->xfers_apart, &ci);
}

/**
 * fa_report__data_lines - The data cache lines threads share, typed or not
 */
size_t fa_report__data_lines(FILE *fp, const struct fa_attr *a)
{
	struct fa_dl_group *groups = NULL;
	struct fa_dline **lines;
	size_t printed;
	int nr, nr_groups, shown = 0, more = 0;

	nr = fa_dlines__contended_all(&a->s->dlines, &a->s->watched, &lines);
	if (nr <= 0) {
		free(lines);
		if (nr < 0 || !fa_keymap__size(&a->s->dlines.lines))
			return 0;
		/* a fix that worked: a good result, said so */
		return fa_report__banner(fp, "Shared Data Cache Lines") +
		       fprintf(fp, "\n  nothing shared: of the %zu data lines accessed, none moved between threads by writes\n",
			       (size_t)fa_keymap__size(&a->s->dlines.lines));
	}
	nr_groups = fa_dlines__groups(lines, nr, &groups);
	printed = fa_report__banner(fp, "Shared Data Cache Lines");
	printed += fprintf(fp, "\n  %d line%s moved between threads (CPUs in the kernel)",
			   nr, nr == 1 ? "" : "s");
	printed += fprintf(fp, " by writes:");
	printed += fprintf(fp, " by address, typed or not\n");
	for (int k = 0; k < nr_groups; k++) {
		if (shown == FA_DL_SHOWN) {
			more += groups[k].nr;
			continue;
		}
		shown++;
		if (groups[k].nr > 1)
			printed += fa_report__dl_group(fp, &groups[k]);
		else
			printed += fa_report__dline(fp, a, groups[k].lines[0], a->s->cfg->line_size);
	}
	if (more)
		printed += fprintf(fp, "\n  %d more lines: see --json\n", more);
	fa_dl_groups__free(groups, max(nr_groups, 0));
	free(lines);
	return printed;
}
