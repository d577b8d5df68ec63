// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report, stdio: the array variables of scalars the accesses
 * were to, element by element, and the merges of parallel arrays advised
 * (merge.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "../advice/analyze.h"
#include "../accumulate/arrays.h"
#include "../attr/attr.h"
#include "../advice/merge.h"
#include "report.h"

#define FA_HOT_ELEMENTS	4	/* hottest elements named per array */

/* The @max elements with the most accesses, into @top; how many */
static int fa_array__hottest(const struct fa_array *arr, u32 *top, int max)
{
	int n = 0;

	for (u32 c = 0; c < arr->nr_counts; c++) {
		int k;

		if (!arr->counts[c])
			continue;
		for (k = n; k > 0 && arr->counts[top[k - 1]] < arr->counts[c]; k--) {
			if (k < max)
				top[k] = top[k - 1];
		}
		if (k < max) {
			top[k] = c;
			n = min(n + 1, max);
		}
	}
	return n;
}

static size_t fa_report__array_elements(FILE *fp, const struct fa_array *arr)
{
	u32 top[FA_HOT_ELEMENTS];
	int n = fa_array__hottest(arr, top, FA_HOT_ELEMENTS);
	size_t printed = 0;

	if (!n)
		return 0;
	printed += fprintf(fp, "    hottest elements:");
	for (int k = 0; k < n; k++) {
		double share = 100.0 * arr->counts[top[k]] / arr->accesses;
		u32 first = top[k] * arr->per_count;

		if (arr->per_count == 1)
			printed += fprintf(fp, "%s [%u] %.1f%%", k ? "," : "", first, share);
		else
			printed += fprintf(fp, "%s [%u-%u] %.1f%%", k ? "," : "", first,
					   min(first + arr->per_count, arr->nr_elems) - 1, share);
	}
	return printed + fprintf(fp, "\n");
}

static size_t fa_report__array_funcs(FILE *fp, const struct fa_array *arr)
{
	size_t printed;

	if (!arr->nr_funcs)
		return 0;
	printed = fprintf(fp, "    accessed by:");
	for (int i = 0; i < arr->nr_funcs; i++)
		printed += fprintf(fp, "%s %s (%" PRIu64 " samples)", i ? "," : "",
				   arr->funcs[i].sym, arr->funcs[i].weight);
	return printed + fprintf(fp, "\n");
}

static size_t fa_report__array(FILE *fp, const struct fa_array *arr, u32 line)
{
	size_t printed;

	printed = fprintf(fp, "\n  %s: %s%s[%u], %u bytes each", arr->name,
			  arr->tls ? "thread-local " : "", arr->elem_type, arr->nr_elems,
			  arr->elem_size);
	if (arr->elem_size <= line)
		printed += fprintf(fp, ", %u per cache line", line / arr->elem_size);
	printed += fprintf(fp, ", %" PRIu64 " accesses (%" PRIu64 " loads, %" PRIu64 " stores)\n",
			   arr->accesses, arr->loads, arr->stores);
	printed += fa_report__array_elements(fp, arr);
	return printed + fa_report__array_funcs(fp, arr);
}

static size_t fa_report__merge(FILE *fp, const struct fa_merge *m)
{
	char name[256];
	size_t printed;

	fa_merge__name(m, name, sizeof(name));
	printed = fprintf(fp, "\n  Advice: merge %s and %s into one array of struct %s (%u bytes)\n",
			  m->arr[0]->name, m->arr[1]->name, name, m->size);
	printed += fprintf(fp, "    both at one index in:");
	for (int i = 0; i < m->nr_funcs; i++)
		printed += fprintf(fp, "%s %s", i ? "," : "", m->funcs[i]);
	printed += fprintf(fp, " (%" PRIu64 " samples; functions accessing only one: %" PRIu64 ")\n",
			   m->both, m->one[0] + m->one[1]);
	printed += fprintf(fp, "  predicted: %+.1f%% (lines per visit %.2f -> %.2f, times the bytes per element)\n\n",
			   100 * (m->cost_merged / m->cost_now - 1), m->lines_now, m->lines_merged);
	return printed + fa_merge__fprintf_c(m, fp);
}

/**
 * fa_report__arrays - The arrays of scalars accessed, and the merges advised
 */
size_t fa_report__arrays(FILE *fp, const struct fa_session *s)
{
	u32 line = s->cfg->line_size;
	struct fa_merge *merges;
	size_t printed;
	int nr;

	if (!s->arrays.nr)
		return 0;
	nr = fa_merges__find(&s->arrays, line, &merges);
	printed = fa_report__banner(fp, "Arrays of scalars");
	for (int i = 0; i < s->arrays.nr; i++) {
		if (s->arrays.arrays[i]->accesses || s->arrays.arrays[i]->nr_funcs)
			printed += fa_report__array(fp, s->arrays.arrays[i], line);
	}
	if (nr == 0)
		printed += fprintf(fp, "\n  Advice: none, no merge of two arrays the same code accesses at one index saves %.0f%%\n",
				   100 * FA_MIN_GAIN);
	for (int i = 0; i < nr; i++)
		printed += fa_report__merge(fp, &merges[i]);
	free(merges);
	return printed;
}
