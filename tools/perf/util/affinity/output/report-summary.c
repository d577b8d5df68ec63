// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity report, stdio: what the samples gave, as perf c2c's Trace
 * Event Information, and why (almost) nothing was attributed, in words a
 * user can act on.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "../decode/access.h"
#include "../attr/attr.h"
#include "../decode/decode.h"
#include "report.h"
#include "stats.h"
#include "../accumulate/type.h"
#include "../../dso.h"
#include "../../hashmap.h"

/* The attributed loads, stores and HITMs of all types */
static void fa_attr__op_totals(struct fa_attr *a, u64 *loads, u64 *stores, u64 *hitm)
{
	*loads = *stores = *hitm = 0;
	for (int i = 0; i < a->s->nr_types; i++) {
		const struct fa_type *t = a->s->types[i]->t;

		if (!t)
			continue;
		/* a class held by value: its holder's counts have them */
		*loads += fa_type__loads(t) - t->counts.held.loads;
		*stores += fa_type__stores(t) - t->counts.held.stores;
		*hitm += t->counts.hitm - t->counts.held.hitm;
	}
}

/**
 * fa_report__summary - What the samples gave, as c2c's Trace Event Information
 * @ds: What decoding made of the samples
 * @a: What attribution made of the accesses
 *
 * Return: the number of characters printed.
 */
size_t fa_report__summary(FILE *fp, const struct fa_decode_stats *ds, struct fa_attr *a)
{
	const struct fa_attr_stats *st = &a->stats;
	u64 samples = ds->other + fa_decode_stats__samples(ds), loads, stores, hitm;
	size_t printed = fa_report__banner(fp, "Memory Access Information");
	int types = 0;

	for (int i = 0; i < a->s->nr_types; i++)
		types += a->s->types[i]->t != NULL;
	fa_attr__op_totals(a, &loads, &stores, &hitm);

	printed += fa_stat_line(fp, "Samples", samples);
	for (int i = 0; i < FA_SRC_MAX; i++) {
		char label[64];

		if (!ds->samples[i])
			continue;
		scnprintf(label, sizeof(label), "  %s", fa_source__text(i));
		printed += fa_stat_line(fp, label, ds->samples[i]);
	}
	printed += fa_stat_line(fp, "Memory accesses decoded", st->accesses);
	printed += fa_stat_line(fp, "Attributed to struct fields", st->resolved);
	printed += fa_stat_line(fp, "  loads", loads);
	printed += fa_stat_line(fp, "  stores and read-modify-writes", stores);
	printed += fa_stat_line(fp, "  HITM (data source)", hitm);
	printed += fa_stat_line(fp, "  by the data address (variables)", st->by_address);
	if (st->watched)
		printed += fa_stat_line(fp, "  watchpoint hits (roles, not heat)", st->watched);
	if (st->by_instance)
		printed += fa_stat_line(fp, "  by the address of an instance", st->by_instance);
	if (st->by_tls)
		printed += fa_stat_line(fp, "  by a thread-local variable", st->by_tls);
	if (st->system) {
		char label[64];

		scnprintf(label, sizeof(label), "  to %u system libraries' types, left out",
			  st->system_types);
		printed += fa_stat_line(fp, label, st->system);
	}
	if (st->failed[FA_ATTR_FILTERED])
		printed += fa_stat_line(fp, "Of other types than -T's", st->failed[FA_ATTR_FILTERED]);
	printed += fa_stat_line(fp, "Not attributed (see --stats)", fa_attr_stats__unattributed(st));
	printed += fa_stat_line(fp, "Struct types", types);
	return printed;
}

/* How the report says who accessed a field */

/*
 * Why (almost) nothing was attributed: the reasons a user can act on, each
 * with the DSOs it is about.
 */
enum fa_why {
	FA_WHY_NO_REGS,		/* samples without registers */
	FA_WHY_FEW_REGS,	/* without the registers the addresses need */
	FA_WHY_NO_CODE,		/* the binary is gone */
	FA_WHY_CHANGED,		/* the binary is not the one recorded */
	FA_WHY_NO_SYM,		/* no symbols: stripped */
	FA_WHY_NO_DBGINFO,	/* no debug info: built without -g */
	FA_WHY_MAX,
};

static const char * const fa_why_text[FA_WHY_MAX] = {
	[FA_WHY_NO_REGS]	= "the samples have no registers: use 'perf affinity record'",
	[FA_WHY_FEW_REGS]	= "the samples lack the registers the addresses need",
	[FA_WHY_NO_CODE]	= "no code for the hot DSOs (deleted or moved since recording?)",
	[FA_WHY_CHANGED]	= "the hot DSOs changed since recording (build ID differs)",
	[FA_WHY_NO_SYM]		= "no symbols for the hot DSOs (stripped?)",
	[FA_WHY_NO_DBGINFO]	= "no debug info for the hot DSOs (built without -g?)",
};

#define FA_WHY_DSOS	3	/* named in the line, most samples first */
#define FA_WHY_TALLY	32

struct fa_why_dso {
	struct dso	*dso;
	u64		 count;
};

static void fa_why__tally(struct fa_why_dso *t, int *n, struct dso *dso, u64 count)
{
	int i;

	for (i = 0; i < *n && t[i].dso != dso; i++)
		;
	if (i == *n) {
		if (*n == FA_WHY_TALLY)
			return;
		t[(*n)++] = (struct fa_why_dso){ .dso = dso, };
	}
	t[i].count += count;
}

static int fa_why_dso__cmp(const void *a, const void *b)
{
	const struct fa_why_dso *x = a, *y = b;

	return x->count > y->count ? -1 : x->count < y->count;
}

/* ": dso, dso" of the samples given up for @why */
static int fa_why__dsos(const struct fa_decoder *dec, const struct fa_attr *a, int why,
			char *buf, size_t size)
{
	static const int drop[FA_WHY_MAX] = {
		[FA_WHY_NO_CODE] = FA_DROP_NO_CODE + 1, [FA_WHY_CHANGED] = FA_DROP_CHANGED + 1,
	};
	static const int fail[FA_WHY_MAX] = {
		[FA_WHY_NO_SYM] = FA_ATTR_NO_SYM + 1, [FA_WHY_NO_DBGINFO] = FA_ATTR_NO_DBGINFO + 1,
	};
	static const int drop_too[FA_WHY_MAX] = { [FA_WHY_NO_SYM] = FA_DROP_NO_SYM + 1, };
	struct fa_why_dso t[FA_WHY_TALLY];
	struct hashmap_entry *cur;
	int n = 0, len = 0;
	size_t bkt;

	hashmap__for_each_entry(dec->drop_dsos, cur, bkt) {
		struct fa_drop_dso *d = cur->pvalue;

		if (d->reason + 1 == drop[why] || d->reason + 1 == drop_too[why])
			fa_why__tally(t, &n, d->dso, d->count);
	}
	hashmap__for_each_entry(a->fail_sites, cur, bkt) {
		struct fa_fail_site *fs = cur->pvalue;

		if (fs->reason + 1 == fail[why])
			fa_why__tally(t, &n, fs->dso, fs->count);
	}
	qsort(t, n, sizeof(*t), fa_why_dso__cmp);
	for (int i = 0; i < n && i < FA_WHY_DSOS; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i ? ", " : ": ",
				 dso__short_name(t[i].dso));
	if (n > FA_WHY_DSOS)
		len += scnprintf(buf + len, size - len, " and %d more", n - FA_WHY_DSOS);
	return len;
}

/**
 * fa_report__why - Why no access, or few, was attributed to a struct field
 * @regs: The registers the samples have, for the reason that they are too few
 *
 * Return: the length of the reason written to @buf, 0 when most samples
 * were attributed or none was decoded.
 */
int fa_report__why(const struct fa_decoder *dec, const struct fa_attr *a, const char *regs,
		   char *buf, size_t size)
{
	const struct fa_decode_stats *ds = &dec->stats;
	const struct fa_attr_stats *as = &a->stats;
	const u64 *drop = ds->dropped;
	u64 count[FA_WHY_MAX] = {
		[FA_WHY_NO_REGS]	= drop[FA_DROP_NO_REGS],
		[FA_WHY_FEW_REGS]	= drop[FA_DROP_NO_REG],
		[FA_WHY_NO_CODE]	= drop[FA_DROP_NO_CODE] + drop[FA_DROP_NO_MAP],
		[FA_WHY_CHANGED]	= drop[FA_DROP_CHANGED],
		[FA_WHY_NO_SYM]		= as->failed[FA_ATTR_NO_SYM] + drop[FA_DROP_NO_SYM],
		[FA_WHY_NO_DBGINFO]	= as->failed[FA_ATTR_NO_DBGINFO],
	};
	u64 samples = fa_decode_stats__samples(ds), best = 0, lost, failed = 0;
	int why = -1, top = 0, len;

	/* more than 1 in 100 attributed: the report says the rest */
	if (!samples || as->resolved * 100 > samples)
		return 0;
	for (int i = 0; i < FA_ATTR_MAX; i++) {
		failed += as->failed[i];
		if (as->failed[i] > as->failed[top])
			top = i;
	}
	/* of the samples lost for a reason; those without a memory operand are not */
	lost = failed - as->failed[FA_ATTR_NO_SYM] - as->failed[FA_ATTR_NO_DBGINFO];
	for (int i = 0; i < FA_WHY_MAX; i++) {
		lost += count[i];
		if (count[i] > best) {
			best = count[i];
			why = i;
		}
	}
	if (why < 0 && !as->accesses) {
		/* code without memory operands: nothing to attribute */
		for (int i = 0; i < FA_DROP_MAX; i++) {
			if (drop[i] > drop[top])
				top = i;
		}
		return scnprintf(buf, size, "no sample gave a memory access: most '%s'%s",
				 fa_drop__name(top), " (see --stats)");
	}
	if (why < 0 || best * 2 < lost) {
		/* no one reason for most of them: the biggest, as --stats says it */
		len = scnprintf(buf, size, "%" PRIu64 " of %" PRIu64 " accesses not attributed",
				failed, as->accesses);
		return len + scnprintf(buf + len, size - len, ": most '%s' (see --stats)",
				       fa_attr_fail__name(top));
	}
	len = scnprintf(buf, size, "%s", fa_why_text[why]);
	if (why == FA_WHY_FEW_REGS)
		return len + scnprintf(buf + len, size - len, " (sampled: %s): %s", regs ?: "?",
				       "record with 'perf affinity record'");
	return len + fa_why__dsos(dec, a, why, buf + len, size - len);
}
