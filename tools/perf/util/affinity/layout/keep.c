// SPDX-License-Identifier: GPL-2.0
/* The offsets a layout must keep (see keep.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "debug.h"
#include "../fields/fields.h"
#include "keep.h"
#include "layout.h"

/* The field named @name (@len bytes of it), or NULL */
static const struct fa_field *fa_keep__field(const struct fa_struct *st, const char *name,
					     size_t len)
{
	for (int f = 0; f < st->nr_fields; f++) {
		const char *n = st->fields[f].name;

		if (strlen(n) == len && !strncmp(n, name, len))
			return &st->fields[f];
	}
	return NULL;
}

/* The unit of the field named @name (@len bytes of it), or -1 */
static int fa_keep__unit(const struct fa_struct *st, const char *name, size_t len)
{
	const struct fa_field *f = fa_keep__field(st, name, len);

	return f ? f->unit : -1;
}

/* Position of unit @u in the offset order of @l */
static int fa_layout__pos(const struct fa_layout *l, int u)
{
	for (int k = 0; k < l->nr_units; k++) {
		if (l->order[k] == u)
			return k;
	}
	return -1;
}

static int fa_keep__pins(struct fa_keep *k, const struct fa_struct *st, const char *list)
{
	int matched = 0;

	for (const char *s = list; s && *s; ) {
		size_t len = strcspn(s, ",");
		int u = fa_keep__unit(st, s, len);

		if (u >= 0 && !k->pin[u]) {
			k->pin[u] = FA_PIN_ASKED;
			k->nr_pins++;
		}
		matched += u >= 0;
		s += len + (s[len] == ',');
	}
	return matched;
}

/* FROM-TO: an end left out is the struct's; -1 if a name is not a field */
static int fa_keep__range(const struct fa_struct *st, const struct fa_layout *cur,
			  const char *s, size_t len, struct fa_keep_range *r)
{
	const char *dash = memchr(s, '-', len);
	int from = 0, to = cur->nr_units - 1;

	if (!dash)
		return -1;
	if (dash > s)
		from = fa_layout__pos(cur, fa_keep__unit(st, s, dash - s));
	if (dash + 1 < s + len)
		to = fa_layout__pos(cur, fa_keep__unit(st, dash + 1, s + len - dash - 1));
	if (from < 0 || to < 0)
		return -1;
	r->from = min(from, to);
	r->to = max(from, to);
	return 0;
}

static int fa_keep__ranges(struct fa_keep *k, const struct fa_struct *st,
			   const struct fa_layout *cur, const char *list)
{
	int matched = 0;

	for (const char *s = list; s && *s; ) {
		size_t len = strcspn(s, ",");
		struct fa_keep_range r;

		if (!fa_keep__range(st, cur, s, len, &r)) {
			struct fa_keep_range *ranges = realloc(k->ranges, (k->nr_ranges + 1) *
							       sizeof(*ranges));

			if (!ranges)
				return -ENOMEM;
			k->ranges = ranges;
			k->ranges[k->nr_ranges++] = r;
			matched++;
		}
		s += len + (s[len] == ',');
	}
	return matched;
}

/*
 * A lock or an atomic is never the base code casts the struct to: the
 * first member of struct rq is its lock, and moving it off the line the
 * load balancer reads is the fix.
 */
static bool fa_field__is_sync(const struct fa_field *f)
{
	static const char * const sync[] = {
		"spinlock_t", "raw_spinlock_t", "arch_spinlock_t", "rwlock_t", "arch_rwlock_t",
		"seqlock_t", "seqcount_t", "seqcount_spinlock_t", "atomic_t", "atomic64_t",
		"atomic_long_t", "refcount_t", "local_t", "struct mutex", "struct rw_semaphore",
		"struct qspinlock", "struct qrwlock", "struct raw_spinlock", "struct spinlock",
		"pthread_mutex_t", "pthread_spinlock_t", "pthread_rwlock_t", "pthread_cond_t",
	};

	for (size_t i = 0; f->type && i < ARRAY_SIZE(sync); i++) {
		if (!strcmp(f->type, sync[i]))
			return true;
	}
	return false;
}

static const struct {
	const char *key;	/* the JSON's */
	const char *why;	/* the report's */
} fa_pins[] = {
	[FA_PIN_ASKED]		= { "keep", "--keep", },
	[FA_PIN_BASE]		= { "base", "first member, a struct: code may cast to it", },
	[FA_PIN_CLASS_BASE]	= { "base class", "a base class: the compiler places it", },
	[FA_PIN_ABI]		= { "abi", "assembly or user space has its offsets", },
};

/* Why a unit is kept in place (enum fa_pin, not FA_PIN_NONE), for the JSON */
const char *fa_pin__key(int pin)
{
	return pin > FA_PIN_NONE && pin < (int)ARRAY_SIZE(fa_pins) ? fa_pins[pin].key : "keep";
}

/* And for the report */
const char *fa_pin__why(int pin)
{
	return pin > FA_PIN_NONE && pin < (int)ARRAY_SIZE(fa_pins) ? fa_pins[pin].why : "--keep";
}

/**
 * fa_keep__init - What layouts of @st must keep
 * @cur: The recorded layout
 * @o: --keep and --keep-order, may be NULL
 *
 * Returns how many of the fields and ranges asked for @st has, or -ENOMEM.
 */
int fa_keep__init(struct fa_keep *k, const struct fa_struct *st, const struct fa_layout *cur,
		  const struct fa_keep_opts *o)
{
	int first = cur->nr_units ? cur->order[0] : -1;
	int pins, ranges;

	memset(k, 0, sizeof(*k));
	k->pin = calloc(st->nr_units + 1, sizeof(*k->pin));
	if (!k->pin)
		return -ENOMEM;
	if (first >= 0 && st->fields[st->units[first].field].kind == FA_FIELD_STRUCT &&
	    !fa_field__is_sync(&st->fields[st->units[first].field])) {
		k->pin[first] = FA_PIN_BASE;
		k->nr_pins++;
	}
	for (int u = 0; u < st->nr_units; u++) {
		if (!st->fields[st->units[u].field].base && !st->abi_decl)
			continue;
		k->nr_pins += !k->pin[u];
		k->pin[u] = st->abi_decl ? FA_PIN_ABI : FA_PIN_CLASS_BASE;
	}
	pins = fa_keep__pins(k, st, o ? o->keep : NULL);
	ranges = fa_keep__ranges(k, st, cur, o ? o->keep_order : NULL);
	if (ranges < 0) {
		fa_keep__exit(k);
		return ranges;
	}
	k->matched = pins + ranges;
	return k->matched;
}

void fa_keep__exit(struct fa_keep *k)
{
	zfree(&k->pin);
	zfree(&k->ranges);
}

/* The units of range @r follow each other in @l as in @cur, at the same distances */
static bool fa_keep__range_kept(const struct fa_keep_range *r, const struct fa_layout *cur,
				const struct fa_layout *l)
{
	int first = cur->order[r->from];
	int pos = fa_layout__pos(l, first);

	if (pos < 0 || pos + r->to - r->from >= l->nr_units)
		return false;
	for (int k = r->from; k <= r->to; k++) {
		int u = cur->order[k];

		if (l->order[pos + k - r->from] != u ||
		    l->offset[u] - l->offset[first] != cur->offset[u] - cur->offset[first])
			return false;
	}
	return true;
}

/* Whether layout @l keeps what @k asks of the recorded layout @cur */
bool fa_keep__allows(const struct fa_keep *k, const struct fa_layout *cur,
		     const struct fa_layout *l)
{
	if (!k)
		return true;
	for (int u = 0; k->nr_pins && u < cur->nr_units; u++) {
		if (k->pin[u] && l->offset[u] != cur->offset[u])
			return false;
	}
	for (int i = 0; i < k->nr_ranges; i++) {
		if (!fa_keep__range_kept(&k->ranges[i], cur, l))
			return false;
	}
	return true;
}

/* One '-' in a range, not alone; none in a field name */
static bool fa_keep__well_formed(const char *s, size_t len, bool range)
{
	const char *dash = memchr(s, '-', len);

	if (!len || !range)
		return len && !dash;
	return dash && len > 1 && !memchr(dash + 1, '-', s + len - dash - 1);
}

static int fa_keep__check_list(const char *opt, const char *list, bool ranges)
{
	for (const char *s = list; s && *s; ) {
		size_t len = strcspn(s, ",");

		if (!fa_keep__well_formed(s, len, ranges)) {
			pr_err("%s: '%.*s' is not %s\n", opt, (int)len, s,
			       ranges ? "FROM-TO, FROM- or -TO" : "a field name");
			return -EINVAL;
		}
		s += len + (s[len] == ',');
	}
	return 0;
}

/* Whether --keep and --keep-order are well formed: -EINVAL, said, if not */
int fa_keep_opts__check(const struct fa_keep_opts *o)
{
	if (fa_keep__check_list("--keep", o->keep, false) ||
	    fa_keep__check_list("--keep-order", o->keep_order, true))
		return -EINVAL;
	return 0;
}

/* Whether a struct of @sts has a field named @name (@len bytes of it) */
static const struct fa_struct *fa_keep__owner(const struct fa_struct * const *sts, int nr,
					      const char *name, size_t len)
{
	for (int i = 0; i < nr; i++) {
		if (sts[i] && fa_keep__field(sts[i], name, len))
			return sts[i];
	}
	return NULL;
}

/* Each name of one item of --keep or --keep-order in a struct of @sts; a note if reversed */
static int fa_keep__check_item(const char *opt, const char *s, size_t len,
			       const struct fa_struct * const *sts, int nr)
{
	const char *dash = memchr(s, '-', len);
	size_t from_len = dash ? (size_t)(dash - s) : len;
	const char *to = dash ? dash + 1 : NULL;
	size_t to_len = dash ? s + len - to : 0;
	const struct fa_struct *st;

	if (from_len && !fa_keep__owner(sts, nr, s, from_len)) {
		pr_err("%s %.*s: no member '%.*s' in any reported type\n", opt, (int)len, s,
		       (int)from_len, s);
		return -EINVAL;
	}
	if (to_len && !fa_keep__owner(sts, nr, to, to_len)) {
		pr_err("%s %.*s: no member '%.*s' in any reported type\n", opt, (int)len, s,
		       (int)to_len, to);
		return -EINVAL;
	}
	if (!from_len || !to_len)
		return 0;
	st = fa_keep__owner(sts, nr, s, from_len);
	if (fa_keep__field(st, to, to_len) &&
	    fa_keep__field(st, s, from_len)->offset > fa_keep__field(st, to, to_len)->offset)
		pr_warning("%s %.*s: %.*s comes after %.*s in %s: taken as %.*s-%.*s\n", opt,
			   (int)len, s, (int)from_len, s, (int)to_len, to, st->name, (int)to_len,
			   to, (int)from_len, s);
	return 0;
}

/**
 * fa_keep_opts__check_names - Whether every member --keep and --keep-order
 * name is in a struct of @sts (the types reported): -EINVAL, said, if not
 *
 * A range whose ends are the wrong way round is taken the right way, with a
 * note.
 */
int fa_keep_opts__check_names(const struct fa_keep_opts *o, const struct fa_struct * const *sts,
			      int nr)
{
	static const char * const opts[] = { "--keep", "--keep-order", };
	const char *lists[] = { o->keep, o->keep_order, };

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		for (const char *s = lists[i]; s && *s; ) {
			size_t len = strcspn(s, ",");

			if (fa_keep__check_item(opts[i], s, len, sts, nr))
				return -EINVAL;
			s += len + (s[len] == ',');
		}
	}
	return 0;
}
