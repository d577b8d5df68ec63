// SPDX-License-Identifier: GPL-2.0
/* Merging parallel arrays into one array of structs (see merge.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "analyze.h"
#include "../accumulate/arrays.h"
#include "merge.h"

/* The functions accessing @a and @b at one index: the same register, or sampled in both */
static bool fa_merge__same_index(const struct fa_array_func *fa, const struct fa_array_func *fb)
{
	if (fa->index != FA_ARRAY_NO_INDEX && fb->index != FA_ARRAY_NO_INDEX)
		return fa->index == fb->index;
	return fa->accesses && fb->accesses;
}

/* Where the members of the merged struct go, and its size */
static void fa_merge__layout(struct fa_merge *m)
{
	const struct fa_array *a = m->arr[0], *b = m->arr[1];
	u32 align = max(a->elem_align, b->elem_align);

	m->offset[0] = 0;
	m->offset[1] = roundup(a->elem_size, b->elem_align);
	m->size = roundup(m->offset[1] + b->elem_size, align);
}

/* Lines element @i takes: of both arrays now, of the merged struct */
static int fa_merge__lines_now(const struct fa_merge *m, u32 i, u32 line)
{
	const struct fa_array *a = m->arr[0], *b = m->arr[1];

	return 1 + (fa_array__line(a, i, line) != fa_array__line(b, i, line));
}

static int fa_merge__lines_merged(const struct fa_merge *m, u32 i, u32 line)
{
	u64 start = (u64)i * m->size;

	return (start + m->size - 1) / line - start / line + 1;
}

/* Lines per visit at one index, weighed by the accesses to each element */
static void fa_merge__lines(struct fa_merge *m, u32 line)
{
	double w = 0, now = 0, merged = 0;

	for (u32 i = 0; i < m->arr[0]->nr_elems; i++) {
		u64 c = fa_array__count(m->arr[0], i) + fa_array__count(m->arr[1], i);

		w += c;
		now += (double)c * fa_merge__lines_now(m, i, line);
		merged += (double)c * fa_merge__lines_merged(m, i, line);
	}
	m->lines_now = w ? now / w : 2;
	m->lines_merged = w ? merged / w : 1;
}

/* The samples of the functions accessing both, or one of them */
static void fa_merge__visits(struct fa_merge *m)
{
	for (int k = 0; k < 2; k++) {
		const struct fa_array *x = m->arr[k], *y = m->arr[!k];

		for (int i = 0; i < x->nr_funcs; i++) {
			const struct fa_array_func *fx = &x->funcs[i];
			const struct fa_array_func *fy = fa_array__find_func(y, fx->func);

			if (!fy || !fa_merge__same_index(fx, fy)) {
				m->one[k] += fx->weight;
				continue;
			}
			if (k)
				continue;
			m->both += max(fx->weight, fy->weight);
			if (m->nr_funcs < FA_MERGE_FUNCS)
				m->funcs[m->nr_funcs++] = fx->sym;
		}
	}
}

/**
 * fa_merge__judge - Whether to merge arrays @a and @b (merge.h)
 *
 * Return: 1 if the merge is advised, with @m filled in, else 0.
 */
int fa_merge__judge(struct fa_merge *m, const struct fa_array *a, const struct fa_array *b,
		    u32 line_size)
{
	double sa, sb;

	memset(m, 0, sizeof(*m));
	if (a == b || a->tls != b->tls || a->nr_elems != b->nr_elems || a->nr_elems < 2)
		return 0;
	/* the wider alignment first: no padding between them */
	m->arr[0] = a->elem_align > b->elem_align ||
		    (a->elem_align == b->elem_align && a->accesses >= b->accesses) ? a : b;
	m->arr[1] = m->arr[0] == a ? b : a;
	fa_merge__layout(m);
	if (m->size > line_size)
		return 0;
	fa_merge__visits(m);
	if (!m->both)
		return 0;
	fa_merge__lines(m, line_size);
	sa = m->arr[0]->elem_size;
	sb = m->arr[1]->elem_size;
	m->cost_now = m->both * m->lines_now + m->one[0] + m->one[1];
	m->cost_merged = m->both * m->lines_merged * m->size / (sa + sb) +
		     m->one[0] * m->size / sa + m->one[1] * m->size / sb;
	return m->cost_merged < m->cost_now * (1 - FA_MIN_GAIN);
}

static int fa_merge__cmp(const void *pa, const void *pb)
{
	const struct fa_merge *a = pa, *b = pb;
	double ga = a->cost_now - a->cost_merged, gb = b->cost_now - b->cost_merged;

	return ga > gb ? -1 : ga < gb;
}

static bool fa_merge__uses(const struct fa_merge *merges, int nr, const struct fa_merge *m)
{
	for (int i = 0; i < nr; i++) {
		for (int k = 0; k < 2; k++) {
			if (merges[i].arr[k] == m->arr[0] || merges[i].arr[k] == m->arr[1])
				return true;
		}
	}
	return false;
}

/**
 * fa_merges__find - The merges to advise, the one saving most first; each
 * array in one at most
 *
 * Return: how many, or -ENOMEM.  *@merges is the caller's to free.
 */
int fa_merges__find(const struct fa_arrays *as, u32 line_size, struct fa_merge **merges)
{
	struct fa_merge *cand = calloc(1, sizeof(*cand)), m;
	int nr = 0, kept = 0;

	*merges = cand;
	if (!cand)
		return -ENOMEM;
	for (int i = 0; i < as->nr; i++) {
		for (int j = i + 1; j < as->nr; j++) {
			if (!fa_merge__judge(&m, as->arrays[i], as->arrays[j], line_size))
				continue;
			cand = realloc(*merges, (nr + 2) * sizeof(*cand));
			if (!cand)
				return -ENOMEM;
			*merges = cand;
			cand[nr++] = m;
		}
	}
	qsort(cand, nr, sizeof(*cand), fa_merge__cmp);
	for (int i = 0; i < nr; i++) {
		if (!fa_merge__uses(cand, kept, &cand[i]))
			cand[kept++] = cand[i];
	}
	return kept;
}

/* The merged array's name: the arrays' names, the common prefix once */
int fa_merge__name(const struct fa_merge *m, char *buf, size_t size)
{
	const char *a = m->arr[0]->name, *b = m->arr[1]->name;
	size_t p = 0;

	while (a[p] && a[p] == b[p])
		p++;
	/* back to the end of a word: tiny_head, tiny_count -> tiny_head_count */
	while (p && a[p - 1] != '_')
		p--;
	return scnprintf(buf, size, "%s_%s", a, b + p);
}

/* The merged struct and array, and what the accesses become, as C */
size_t fa_merge__fprintf_c(const struct fa_merge *m, FILE *fp)
{
	const struct fa_array *a = m->arr[0];
	char name[256];
	size_t printed;

	fa_merge__name(m, name, sizeof(name));
	printed = fprintf(fp, "struct %s {\n", name);
	for (int k = 0; k < 2; k++) {
		const char *type = m->arr[k]->elem_type;

		printed += fprintf(fp, "\t%s%s%s;\n", type,
				   type[strlen(type) - 1] == '*' ? "" : " ", m->arr[k]->name);
	}
	printed += fprintf(fp, "};\t/* %u bytes */\n", m->size);
	printed += fprintf(fp, "%sstruct %s %s[%u];\n", a->tls ? "__thread " : "", name,
			   name, a->nr_elems);
	for (int k = 0; k < 2; k++)
		printed += fprintf(fp, "/* %s[i] -> %s[i].%s */\n", m->arr[k]->name, name,
				   m->arr[k]->name);
	return printed;
}
