// SPDX-License-Identifier: GPL-2.0
/* Field classes and the constraints they put on layouts (see classify.h). */
#include <errno.h>
#include <stdlib.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "classify.h"
#include "fields.h"
#include "type.h"

static const char * const fa_class_names[FA_CLASS_MAX] = {
	[FA_CLASS_COLD]			= "cold",
	[FA_CLASS_READ_MOSTLY]		= "read-mostly",
	[FA_CLASS_WRITE_HOT]		= "write-hot",
	[FA_CLASS_SHARED_WRITTEN]	= "shared-written",
};

const char *fa_class__name(u8 cls)
{
	return cls < FA_CLASS_MAX ? fa_class_names[cls] : "?";
}

/* Whether every bit of @a is in @b */
static bool bitmap_subset_of(const unsigned long *a, const unsigned long *b, int nbits)
{
	for (int i = 0; i < (int)BITS_TO_LONGS(nbits); i++) {
		if (a[i] & ~b[i])
			return false;
	}
	return true;
}

static u8 fa_field__class(const struct fa_field_stats *fs, double hottest, int nr_cpus)
{
	u64 accesses = fs->loads + fs->stores + fs->rmws + fs->other;
	u64 writes = fs->stores + fs->rmws;

	if (!accesses || fs->weight <= hottest * FA_COLD_SHARE)
		return FA_CLASS_COLD;
	if (writes < accesses * FA_WRITE_SHARE)
		return FA_CLASS_READ_MOSTLY;
	if (bitmap_weight(fs->writers, nr_cpus) > 1 ||
	    !bitmap_subset_of(fs->readers, fs->writers, nr_cpus))
		return FA_CLASS_SHARED_WRITTEN;
	return FA_CLASS_WRITE_HOT;
}

void fa_classes__exit(struct fa_classes *c)
{
	for (int u = 0; c->units && u < c->nr_units; u++) {
		bitmap_free(c->units[u].accessors);
		bitmap_free(c->units[u].writers);
	}
	zfree(&c->units);
	zfree(&c->field_cls);
}

static void fa_unit_info__add_leaf(struct fa_unit_info *ui, const struct fa_field_stats *fs,
				   u8 cls, int nr_cpus)
{
	ui->weight += fs->weight;
	ui->cls = max(ui->cls, cls);
	bitmap_or(ui->accessors, ui->accessors, fs->readers, nr_cpus);
	bitmap_or(ui->accessors, ui->accessors, fs->writers, nr_cpus);
	/* a read-mostly leaf's rare writes do not make the unit a writer */
	if (cls == FA_CLASS_WRITE_HOT || cls == FA_CLASS_SHARED_WRITTEN) {
		ui->writer = true;
		bitmap_or(ui->writers, ui->writers, fs->writers, nr_cpus);
	}
}

/**
 * fa_classes__init - Classify the fields of @t and sum them up per unit
 */
int fa_classes__init(struct fa_classes *c, struct fa_type *t)
{
	const struct fa_struct *st = t->st;
	double hottest = 0;

	c->nr_units = st->nr_units;
	c->nr_cpus = t->cfg.nr_cpus;
	c->field_cls = calloc(st->nr_fields, 1);
	c->units = calloc(st->nr_units, sizeof(*c->units));
	if (!c->field_cls || !c->units)
		goto out_err;
	for (int u = 0; u < st->nr_units; u++) {
		c->units[u].accessors = bitmap_zalloc(c->nr_cpus);
		c->units[u].writers = bitmap_zalloc(c->nr_cpus);
		if (!c->units[u].accessors || !c->units[u].writers)
			goto out_err;
	}
	for (int i = 0; i < st->nr_leaves; i++)
		hottest = max(hottest, t->stats[st->leaves[i]].weight);
	for (int i = 0; i < st->nr_leaves; i++) {
		int f = st->leaves[i];

		c->field_cls[f] = fa_field__class(&t->stats[f], hottest, c->nr_cpus);
		fa_unit_info__add_leaf(&c->units[st->fields[f].unit], &t->stats[f],
				       c->field_cls[f], c->nr_cpus);
	}
	return 0;

out_err:
	fa_classes__exit(c);
	return -ENOMEM;
}

/* @w writes and a CPU other than its writers accesses @a */
static bool fa_unit_info__hurts(const struct fa_unit_info *w, const struct fa_unit_info *a,
				int nr_cpus)
{
	return w->writer && !bitmap_subset_of(a->accessors, w->writers, nr_cpus);
}

/**
 * fa_classes__conflict - Units @u and @v must not share a cache line
 *
 * One is written on a CPU and the other is accessed on another CPU: every
 * such write would take the line away from that other CPU.  Two units
 * written by the same CPUs may share a line: they move together anyway.
 */
bool fa_classes__conflict(const struct fa_classes *c, int u, int v)
{
	const struct fa_unit_info *a = &c->units[u], *b = &c->units[v];

	if (a->cls == FA_CLASS_COLD || b->cls == FA_CLASS_COLD)
		return false;
	if (a->writer && b->writer && bitmap_equal(a->writers, b->writers, c->nr_cpus) &&
	    bitmap_equal(a->accessors, b->accessors, c->nr_cpus))
		return false;
	return fa_unit_info__hurts(a, b, c->nr_cpus) || fa_unit_info__hurts(b, a, c->nr_cpus);
}
