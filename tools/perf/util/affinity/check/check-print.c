// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity check's answer: why a layout does not hold, with its cache
 * lines in pahole's format, or that it holds; as text and as JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include "../advice/analyze.h"
#include "check.h"
#include "../layout/classify.h"
#include "../layout/cluster.h"
#include "../fields/fields.h"
#include "../output/json.h"
#include "../accumulate/owner.h"
#include "../output/report.h"
#include "../accumulate/type.h"

static const char * const fa_check_kinds[FA_CHECK_MAX] = {
	[FA_CHECK_SHARED]	= "shared",
	[FA_CHECK_SPREAD]	= "spread",
	[FA_CHECK_HOLE]		= "hole",
	[FA_CHECK_COST]		= "cost",
	[FA_CHECK_EVIDENCE]	= "evidence",
	[FA_CHECK_INSTANCES]	= "instances",
	[FA_CHECK_GROUP]	= "group",
};

static const char *fa_check__unit_name(const struct fa_check *c, int unit)
{
	return fa_unit__name(c->st, unit);
}

/* "written by thread 1201", "read on CPU 0-3" */
static void fa_check__owners(const struct fa_check *c, int unit, bool written, char *buf,
			     size_t size)
{
	const struct fa_unit_info *ui = &c->an->seen.classes.units[c->old_unit[unit]];
	const struct fa_type *t = c->t;
	char owners[64];

	fa_owners__scnprintf(t->cfg.owners, written ? ui->writers : ui->accessors,
			     t->cfg.nr_owners, owners, sizeof(owners));
	scnprintf(buf, size, "%s %s %s", written ? "written" : ui->writer ? "accessed" : "read",
		  fa_type__owner_verb(t), owners);
}

static bool fa_check_finding__same_group(const struct fa_check_finding *a,
					 const struct fa_check_finding *b)
{
	return a->kind == FA_CHECK_SHARED && b->kind == FA_CHECK_SHARED && a->unit == b->unit &&
	       a->line == b->line && a->as_recorded == b->as_recorded &&
	       a->undecided == b->undecided;
}

/*
 * The pairs of one written unit on one line, the others by their owners:
 * "lock (written by thread 1) shares cache line 0 with a, b (read by thread 2)"
 *
 * Return: the findings said.
 */
static int fa_check__shared_fprintf(const struct fa_check *c, int i, FILE *fp)
{
	const struct fa_check_finding *f = &c->findings[i];
	char who[96], next[96];
	int n = 0;

	fa_check__owners(c, f->unit, true, who, sizeof(who));
	fprintf(fp, "  %s (%s) shares cache line %u with", fa_check__unit_name(c, f->unit), who,
		f->line);
	do {
		const struct fa_check_finding *o = &c->findings[i + n];
		bool last = i + n + 1 == c->nr_findings || !fa_check_finding__same_group(f, o + 1);

		fa_check__owners(c, o->other, false, who, sizeof(who));
		if (!last)
			fa_check__owners(c, o[1].other, false, next, sizeof(next));
		fprintf(fp, " %s", fa_check__unit_name(c, o->other));
		if (last || strcmp(who, next))
			fprintf(fp, " (%s)", who);
		fprintf(fp, "%s", last ? "" : ",");
		n++;
		if (last)
			break;
	} while (1);
	if (f->undecided)
		fprintf(fp, ": %s, and the evidence for the report's candidate that has them apart is insufficient\n",
			f->as_recorded ? "so it did when recorded" : "they were apart when recorded");
	else
		fprintf(fp, ": %s\n", f->as_recorded ?
			"so it did when recorded, and the report advises them apart" :
			"they were apart when recorded");
	return n;
}

/* The units of cluster @k still there, by name */
static void fa_check__cluster_fprintf(const struct fa_check *c, int k, FILE *fp)
{
	const struct fa_cluster *cl = &c->an->advice.clusters.clusters[k];
	int shown = 0;

	for (int i = 0; i < cl->nr; i++) {
		int u = c->new_unit[cl->units[i]];

		if (u < 0)
			continue;
		if (shown == 6) {
			fprintf(fp, " ...");
			break;
		}
		fprintf(fp, " %s", fa_check__unit_name(c, u));
		shown++;
	}
}

static void fa_check__finding_fprintf(const struct fa_check *c,
				      const struct fa_check_finding *f, FILE *fp)
{
	const char *per = c->an->cost.per_visit ? "visit" : "window";
	char ci[FA_INTERVAL_STR];

	switch (f->kind) {
	case FA_CHECK_SPREAD:
		fprintf(fp, "  fields accessed together are on %d %u byte cache lines",
			f->lines_now, f->line_size);
		fprintf(fp, " from line %u, ", f->line);
		if (f->undecided)
			fprintf(fp, "on %d with the report's candidate, whose evidence is insufficient:",
				f->lines_allowed);
		else
			fprintf(fp, "not %d:", f->lines_allowed);
		fa_check__cluster_fprintf(c, f->other, fp);
		fprintf(fp, "\n");
		break;
	case FA_CHECK_GROUP:
		fprintf(fp, "  %s%s (hot) joins the %u byte cache line %u of fields accessed together, %s:",
			f->note ? "note: " : "", fa_check__unit_name(c, f->unit), f->line_size,
			f->line, f->note ? "all of them read only" :
			"one side writes what the other accesses");
		fa_check__cluster_fprintf(c, f->other, fp);
		fprintf(fp, "\n");
		break;
	case FA_CHECK_HOLE:
		fprintf(fp, "  %sa hole of %u bytes before %s on hot cache line %u: the hot lines have %u bytes of holes, %u when recorded\n",
			f->note ? "note: " : "", f->bytes, fa_check__unit_name(c, f->unit), f->line,
			c->hole_bytes_now, c->hole_bytes_recorded);
		break;
	case FA_CHECK_COST:
		fprintf(fp, "  the recorded accesses cost %.1f%% more (lines + %g x transfers per %s, %s), %s the %.1f%% --max-regression allows\n",
			100 * c->change, c->an->cost.xfer_cost, per,
			fa_interval__str(&c->change_ci, false, ci, sizeof(ci)),
			f->undecided ? "maybe more than" : "more than", 100 * c->max_regression);
		break;
	case FA_CHECK_EVIDENCE:
		fprintf(fp, "  the recorded accesses of the type are in %d of %d groups of time, %d needed to tell: record longer\n",
			f->groups, FA_BOOT_GROUPS, FA_BOOT_MIN_GROUPS);
		break;
	case FA_CHECK_INSTANCES:
		fprintf(fp, "  the recorded instances, where they were (%" PRIu64 " of %" PRIu64 " not at the start of a cache line), still move lines between threads: %.1f transfers per 1k accesses replayed, %.1f with the advice%s\n",
			c->t->xfer.misaligned, c->t->xfer.nr_instances,
			c->replay_now.xfers_per_kacc, c->replay_advised.xfers_per_kacc,
			c->layout.align < c->layout.line_size ?
			"; align the type to the line, and allocate it so" : "");
		break;
	default:
		break;
	}
}

/* What is new since the recording, and what the recording saw that is gone */
static void fa_check__changes_fprintf(const struct fa_check *c, FILE *fp)
{
	const struct fa_struct *old = c->t->st;
	int n = 0;

	for (int u = 0; u < c->st->nr_units; u++) {
		int line = fa_check__line_of(c, u);
		bool hot = false;

		if (c->old_unit[u] >= 0)
			continue;
		/* a hot line: one with a unit the recording saw accessed */
		for (int v = 0; v < c->st->nr_units && !hot; v++)
			hot = fa_check__hot(c, v) && fa_check__line_of(c, v) == line;
		fprintf(fp, "%s %s (%u bytes, line %d%s)", n++ ? "," : "  new, not in the recording:",
			fa_check__unit_name(c, u), c->st->units[u].size, line,
			hot ? ", a hot line" : "");
	}
	if (n)
		fprintf(fp, "\n");
	n = 0;
	for (int u = 0; u < old->nr_units; u++) {
		if (c->new_unit[u] >= 0 || c->an->seen.classes.units[u].cls == FA_CLASS_COLD)
			continue;
		fprintf(fp, "%s %s", n++ ? "," : "  accessed when recorded, now gone:",
			fa_unit__name(old, u));
	}
	if (n)
		fprintf(fp, "\n");
}

/* The lines of the findings, and with the cost the hot lines */
static void fa_check__mark_lines(const struct fa_check *c, bool *lines)
{
	const struct fa_layout *l = &c->layout;

	for (int i = 0; i < c->nr_findings; i++) {
		const struct fa_check_finding *f = &c->findings[i];

		if (f->kind == FA_CHECK_SHARED) {
			lines[fa_check__line_of(c, f->unit)] = true;
			lines[fa_check__line_of(c, f->other)] = true;
		} else if (f->kind == FA_CHECK_HOLE) {
			lines[f->line] = lines[fa_check__line_of(c, f->unit)] = true;
		} else if (f->kind == FA_CHECK_GROUP) {
			lines[fa_check__line_of(c, f->unit)] = true;
		}
		for (int u = 0; u < l->nr_units; u++) {
			int o = c->old_unit[u];

			if (o >= 0 && (((f->kind == FA_CHECK_SPREAD || f->kind == FA_CHECK_GROUP) &&
					c->an->advice.clusters.of_unit[o] == f->other) ||
				       (f->kind == FA_CHECK_COST && fa_check__hot(c, u))))
				lines[fa_check__line_of(c, u)] = true;
		}
	}
}

static void fa_check__lines_fprintf(const struct fa_check *c, FILE *fp)
{
	const struct fa_layout *l = &c->layout;
	bool *lines = calloc(l->size / l->line_size + 2, sizeof(*lines));
	FILE *sink = fopen("/dev/null", "w");

	/* without either, all of it */
	if (lines && sink)
		fa_check__mark_lines(c, lines);
	fprintf(fp, "\n");
	fa_layout__fprintf_lines(l, c->st, lines && sink ? lines : NULL, sink ?: fp, fp);
	if (sink)
		fclose(sink);
	free(lines);
}

/**
 * fa_check__fprintf - Whether the layout of @path holds, and if not why
 */
void fa_check__fprintf(const struct fa_check *c, const char *path, FILE *fp)
{
	const char *per = c->an->cost.per_visit ? "visit" : "window";
	char ci[FA_INTERVAL_STR];

	fprintf(fp, "%s in %s: %s\n", fa_struct__printed_name(c->st), path,
		c->nr_failed ? "the layout does NOT hold" :
		c->nr_undecided ? "not enough evidence to tell whether the layout holds" :
		"the layout holds");
	for (int i = 0; i < c->nr_findings; i++) {
		if (c->findings[i].kind == FA_CHECK_SHARED)
			i += fa_check__shared_fprintf(c, i, fp) - 1;
		else
			fa_check__finding_fprintf(c, &c->findings[i], fp);
	}
	if (c->no_cost)
		fprintf(fp, "  cost: not checked, a saved report has no cost model (a perf.data has)\n");
	else
		fprintf(fp, "  cost of the recorded accesses per %s: %.2f with the recorded layout, %.2f with this one (%+.1f%%, %s)\n",
			per, c->cost_recorded.total, c->cost_now.total, 100 * c->change,
			fa_interval__str(&c->change_ci, false, ci, sizeof(ci)));
	fa_check__changes_fprintf(c, fp);
	if (c->nr_failed)
		fa_check__lines_fprintf(c, fp);
}

static void fa_check__json_finding(struct json_writer *j, const struct fa_check *c,
				   const struct fa_check_finding *f)
{
	json_writer__begin_object(j, NULL, /*flat=*/true);
	json_writer__string(j, "kind", fa_check_kinds[f->kind]);
	json_writer__bool(j, "note", f->note);
	json_writer__bool(j, "undecided", f->undecided);
	if (f->kind == FA_CHECK_SHARED || f->kind == FA_CHECK_HOLE || f->kind == FA_CHECK_GROUP)
		json_writer__string(j, "field", fa_check__unit_name(c, f->unit));
	if (f->kind == FA_CHECK_SHARED) {
		json_writer__string(j, "other", fa_check__unit_name(c, f->other));
		json_writer__bool(j, "as_recorded", f->as_recorded);
	}
	if (f->kind == FA_CHECK_INSTANCES) {
		json_writer__double(j, "transfers_per_kacc", c->replay_now.xfers_per_kacc);
		json_writer__double(j, "advised_transfers_per_kacc",
				    c->replay_advised.xfers_per_kacc);
	} else if (f->kind != FA_CHECK_COST && f->kind != FA_CHECK_EVIDENCE) {
		json_writer__u64(j, "line", f->line);
	}
	if (f->kind == FA_CHECK_HOLE)
		json_writer__u64(j, "bytes", f->bytes);
	if (f->kind == FA_CHECK_SPREAD || f->kind == FA_CHECK_GROUP) {
		json_writer__u64(j, "line_size", f->line_size);
		json_writer__int(j, "cluster", f->other);
	}
	if (f->kind == FA_CHECK_SPREAD) {
		json_writer__int(j, "lines_allowed", f->lines_allowed);
		json_writer__int(j, "lines", f->lines_now);
	}
	if (f->kind == FA_CHECK_EVIDENCE)
		json_writer__int(j, "groups", f->groups);
	json_writer__end_object(j);
}

static void fa_check__json_new(struct json_writer *j, const struct fa_check *c)
{
	json_writer__begin_array(j, "new_fields", /*flat=*/false);
	for (int u = 0; u < c->st->nr_units; u++) {
		if (c->old_unit[u] >= 0)
			continue;
		json_writer__begin_object(j, NULL, /*flat=*/true);
		json_writer__string(j, "name", fa_check__unit_name(c, u));
		json_writer__u64(j, "offset", c->layout.offset[u]);
		json_writer__u64(j, "size", c->st->units[u].size);
		json_writer__int(j, "line", fa_check__line_of(c, u));
		json_writer__end_object(j);
	}
	json_writer__end_array(j);
	json_writer__begin_array(j, "removed_fields", /*flat=*/true);
	for (int u = 0; u < c->t->st->nr_units; u++) {
		if (c->new_unit[u] < 0)
			json_writer__string(j, NULL, fa_unit__name(c->t->st, u));
	}
	json_writer__end_array(j);
}

/* One type's check, an object of the "checks" array */
void fa_check__json(struct json_writer *j, const struct fa_check *c)
{
	json_writer__begin_object(j, NULL, /*flat=*/false);
	json_writer__string(j, "type", fa_struct__printed_name(c->st));
	json_writer__bool(j, "holds", !c->nr_failed && !c->nr_undecided);
	json_writer__string(j, "verdict", fa_check__verdict(c));
	json_writer__u64(j, "size", c->st->size);
	json_writer__u64(j, "recorded_size", c->t->st->size);
	if (c->no_cost) {
		json_writer__null(j, "recorded_cost");
		json_writer__null(j, "cost");
		json_writer__null(j, "change");
	} else {
		fa_json__cost(j, "recorded_cost", &c->cost_recorded);
		fa_json__cost(j, "cost", &c->cost_now);
		json_writer__double(j, "change", 100 * c->change);
	}
	json_writer__begin_array(j, "change_interval", /*flat=*/true);
	json_writer__double(j, NULL, 100 * c->change_ci.lo);
	json_writer__double(j, NULL, 100 * c->change_ci.hi);
	json_writer__end_array(j);
	json_writer__double(j, "max_regression", 100 * c->max_regression);
	json_writer__u64(j, "recorded_hot_hole_bytes", c->hole_bytes_recorded);
	json_writer__u64(j, "hot_hole_bytes", c->hole_bytes_now);
	json_writer__begin_array(j, "findings", /*flat=*/false);
	for (int i = 0; i < c->nr_findings; i++)
		fa_check__json_finding(j, c, &c->findings[i]);
	json_writer__end_array(j);
	fa_check__json_new(j, c);
	json_writer__end_object(j);
}
