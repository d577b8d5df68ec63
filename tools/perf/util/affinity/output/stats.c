// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report --stats: what decoding made of the samples and
 * attribution of the accesses, the reasons of those given up, and with -v
 * the functions whose accesses were not attributed.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include "../decode/access.h"
#include "../attr/attr.h"
#include "../decode/decode.h"
#include "stats.h"
#include "../../dso.h"
#include "../../hashmap.h"

/* A 'label: value' line of --stats and of the summary */
size_t fa_stat_line(FILE *fp, const char *label, u64 value)
{
	return fprintf(fp, "  %-40s: %10" PRIu64 "\n", label, value);
}

/**
 * fa_decode_stats__fprintf - Print what decoding made of the samples
 *
 * Return: the number of characters printed.
 */
size_t fa_decode_stats__fprintf(const struct fa_decode_stats *st, FILE *fp)
{
	u64 accesses = 0, dropped = 0;
	size_t printed = 0;
	char label[64];

	for (int i = 0; i < FA_SRC_MAX; i++)
		accesses += st->accesses[i];
	for (int i = 0; i < FA_DROP_MAX; i++)
		dropped += st->dropped[i];

	printed += fprintf(fp, "=================================================\n");
	printed += fprintf(fp, "            Memory Access Decoding\n");
	printed += fprintf(fp, "=================================================\n");
	for (int i = 0; i < FA_SRC_MAX; i++) {
		scnprintf(label, sizeof(label), "Samples, %s", fa_source__text(i));
		printed += fa_stat_line(fp, label, st->samples[i]);
	}
	printed += fa_stat_line(fp, "Samples of other events", st->other);
	printed += fa_stat_line(fp, "Allocation / free events", st->allocs + st->frees);
	printed += fa_stat_line(fp, "Accesses", accesses);
	printed += fa_stat_line(fp, "  by the instruction before the IP", st->skid);
	printed += fa_stat_line(fp, "    of them, hardware watchpoint hits", st->watch);
	printed += fa_stat_line(fp, "  further back in the sampled block", st->block);
	printed += fa_stat_line(fp, "  in the block, registers changed since", st->block_lost);
	printed += fa_stat_line(fp, "  fs:/gs: relative (TLS, per-CPU)", st->seg);
	printed += fa_stat_line(fp, "  string operation elements", st->string);
	printed += fa_stat_line(fp, "  direction unknown", st->unknown_op);
	printed += fa_stat_line(fp, "  in kernel mode", st->kernel);
	printed += fa_stat_line(fp, "Samples without an access", dropped);
	for (int i = 0; i < FA_DROP_MAX; i++) {
		if (!st->dropped[i])
			continue;
		scnprintf(label, sizeof(label), "  %s", fa_drop__name(i));
		printed += fa_stat_line(fp, label, st->dropped[i]);
	}
	if (st->samples[FA_SRC_SW])
		printed += fprintf(fp, "Walks back through the sampled block, stopped\n");
	for (int i = 0; i < FA_WALK_MAX && st->samples[FA_SRC_SW]; i++) {
		scnprintf(label, sizeof(label), "  %s", fa_walk_stop__name(i));
		printed += fa_stat_line(fp, label, st->walk_stop[i]);
	}
	if (st->code_cut)
		printed += fa_stat_line(fp, "Functions cut at 64 KiB", st->code_cut);
	return printed;
}

static int fa_fail_site__cmp(const void *a, const void *b)
{
	const struct fa_fail_site *fa = *(const struct fa_fail_site **)a;
	const struct fa_fail_site *fb = *(const struct fa_fail_site **)b;

	return fa->count > fb->count ? -1 : fa->count < fb->count;
}

/**
 * fa_attr__fprintf_fail_sites - The @max functions with the most accesses
 * that could not be attributed, and why
 */
size_t fa_attr__fprintf_fail_sites(struct fa_attr *a, int max, FILE *fp)
{
	size_t n = hashmap__size(a->fail_sites), k = 0, printed;
	struct fa_fail_site **sites = calloc(n + 1, sizeof(*sites));
	struct hashmap_entry *cur;
	size_t bkt;

	if (!sites)
		return 0;
	hashmap__for_each_entry(a->fail_sites, cur, bkt)
		sites[k++] = cur->pvalue;
	qsort(sites, n, sizeof(*sites), fa_fail_site__cmp);
	printed = fprintf(fp, "\n  Not attributed, by function:\n");
	for (k = 0; k < n && (int)k < max; k++)
		printed += fprintf(fp, "  %8" PRIu64 "  %-28s %s %s\n", sites[k]->count,
				   fa_attr_fail__name(sites[k]->reason),
				   dso__short_name(sites[k]->dso), sites[k]->sym);
	free(sites);
	return printed;
}

size_t fa_attr_stats__fprintf(const struct fa_attr_stats *st, FILE *fp)
{
	u64 failed = 0, data, typed;
	size_t printed = 0;
	char label[64];

	for (int i = 0; i < FA_ATTR_MAX; i++)
		failed += st->failed[i];
	printed += fprintf(fp, "=================================================\n");
	printed += fprintf(fp, "            Field Attribution\n");
	printed += fprintf(fp, "=================================================\n");
	printed += fa_stat_line(fp, "Accesses", st->accesses);
	printed += fa_stat_line(fp, "Attributed to a struct field", st->resolved);
	printed += fa_stat_line(fp, "  by the data address (variables)", st->by_address);
	printed += fa_stat_line(fp, "  by the address of an instance", st->by_instance);
	printed += fa_stat_line(fp, "    identified after the access", st->by_later);
	printed += fa_stat_line(fp, "  in the instance it is embedded in", st->by_enclosing);
	printed += fa_stat_line(fp, "  by a thread-local variable", st->by_tls);
	printed += fa_stat_line(fp, "  both ways, same field", st->agree);
	printed += fa_stat_line(fp, "  both ways, other field", st->disagree);
	printed += fa_stat_line(fp, "Attributed to an array element", st->by_array);
	printed += fa_stat_line(fp, "Not attributed", failed);
	/* what data-type profiling can do: accesses off the stack by code with DWARF */
	data = st->accesses - st->failed[FA_ATTR_STACK] - st->failed[FA_ATTR_FILTERED] -
	       st->failed[FA_ATTR_NO_DBGINFO] - st->failed[FA_ATTR_NO_SYM] -
	       st->failed[FA_ATTR_ASM];
	typed = st->resolved + st->by_array + st->failed[FA_ATTR_NOT_STRUCT];
	for (int i = 0; i < FA_ATTR_MAX; i++) {
		if (!st->failed[i])
			continue;
		scnprintf(label, sizeof(label), "  %s", fa_attr_fail__name(i));
		printed += fa_stat_line(fp, label, st->failed[i]);
	}
	printed += fa_stat_line(fp, "Thread-local (%fs:) accesses", st->tls);
	printed += fa_stat_line(fp, "  to a variable of the executable", st->tls_found);
	printed += fa_stat_line(fp, "  attributed", st->by_tls + st->tls_array);
	printed += fa_stat_line(fp, "  through a pointer the code computed", st->tls_ptr);
	printed += fprintf(fp, "  %-40s: %9.1f%%\n", "Attributed, of thread-local accesses",
			   st->tls ? 100.0 * (st->by_tls + st->tls_array) / st->tls : 0);
	printed += fprintf(fp, "  %-40s: %9.1f%%\n", "Typed, of data accesses by -g code",
			   data ? 100.0 * typed / data : 0);
	printed += fprintf(fp, "  %-40s: %9.1f%%\n", "Attributed, of data accesses by -g code",
			   data ? 100.0 * (st->resolved + st->by_array) / data : 0);
	return printed;
}
