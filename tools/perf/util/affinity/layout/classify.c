// SPDX-License-Identifier: GPL-2.0
/* Field classes and the constraints they put on layouts (see classify.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "classify.h"
#include "../accumulate/exact.h"
#include "../fields/fields.h"
#include "../accumulate/type.h"

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

/* The class named @name, or -1 */
int fa_class__parse(const char *name)
{
	for (int c = 0; name && c < FA_CLASS_MAX; c++) {
		if (!strcmp(fa_class_names[c], name))
			return c;
	}
	return -1;
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

/* Written by one owner and accessed by another (in one instance, if known) */
static bool fa_field_info__shared(const struct fa_field_info *fi, int nr_owners)
{
	if (fi->by_instance)
		return fi->inst_shared;
	return bitmap_weight(fi->writers, nr_owners) > 1 ||
	       !bitmap_subset_of(fi->readers, fi->writers, nr_owners);
}

/* Written by several owners (in one instance, if known) */
static bool fa_field_info__writers(const struct fa_field_info *fi, int nr_owners)
{
	if (fi->by_instance)
		return fi->inst_writers;
	return bitmap_weight(fi->writers, nr_owners) > 1;
}

static u8 fa_field__class(const struct fa_field_info *fi, double hottest, int nr_owners,
			  bool shared)
{
	if (!fi->accesses || fi->weight <= hottest * FA_COLD_SHARE)
		return FA_CLASS_COLD;
	if (fi->writes < fi->accesses * FA_WRITE_SHARE)
		return FA_CLASS_READ_MOSTLY;
	if (shared && fa_field_info__shared(fi, nr_owners))
		return FA_CLASS_SHARED_WRITTEN;
	return FA_CLASS_WRITE_HOT;
}

void fa_classes__exit(struct fa_classes *c)
{
	for (int u = 0; c->units && u < c->nr_units; u++) {
		bitmap_free(c->units[u].accessors);
		bitmap_free(c->units[u].writers);
	}
	for (int f = 0; c->fields && f < c->nr_fields; f++) {
		bitmap_free(c->fields[f].readers);
		bitmap_free(c->fields[f].writers);
	}
	zfree(&c->units);
	zfree(&c->fields);
	zfree(&c->field_cls);
}

static void fa_unit_info__add_leaf(struct fa_unit_info *ui, const struct fa_field_info *fi,
				   u8 cls, int nr_owners)
{
	ui->weight += fi->weight;
	ui->cls = max(ui->cls, cls);
	bitmap_or(ui->accessors, ui->accessors, fi->readers, nr_owners);
	bitmap_or(ui->accessors, ui->accessors, fi->writers, nr_owners);
	/* a read-mostly leaf's rare writes do not make the unit a writer */
	if (cls == FA_CLASS_WRITE_HOT || cls == FA_CLASS_SHARED_WRITTEN) {
		ui->writer = true;
		bitmap_or(ui->writers, ui->writers, fi->writers, nr_owners);
	}
	/* written on several CPUs: its line moves between them, wherever it is */
	if (cls == FA_CLASS_SHARED_WRITTEN && fa_field_info__writers(fi, nr_owners))
		ui->moving = true;
}

/*
 * Sample weight per unit of code weight: a function's samples spread over
 * the fields it accesses.
 */
static double fa_type__code_scale(const struct fa_type *t)
{
	double sampled = 0, code = 0;

	if (!t->code.stats)
		return 0;
	for (int i = 0; i < t->st->nr_leaves; i++) {
		sampled += t->counts.stats[t->st->leaves[i]].weight;
		code += t->code.stats[t->st->leaves[i]].weight;
	}
	return code > 0 ? sampled / code : 0;
}

/*
 * The owners the code of @fi ran in, @cs, as its readers and writers: of a
 * field its samples saw, only those they saw accessing it, as writers when
 * the code stores to it; of a field they never saw, all.  Whether it has
 * a writer by the code.
 */
static bool fa_field_info__code_owners(struct fa_field_info *fi, const struct fa_code_stats *cs,
				       int nr_owners)
{
	bool seen = !bitmap_empty(fi->readers, nr_owners) ||
		    !bitmap_empty(fi->writers, nr_owners);
	bool any = false;

	for (int i = 0; i < (int)BITS_TO_LONGS(nr_owners); i++) {
		unsigned long w = cs->writers[i];

		if (seen)
			w &= fi->readers[i] | fi->writers[i];
		else
			fi->readers[i] |= cs->readers[i];
		fi->writers[i] |= w;
		any |= w != 0;
	}
	return any;
}

/*
 * Who reads and writes a field the watchpoints saw, and how often it is
 * written, are what they saw; how hot it is, the samples say.  The hits of
 * the watched bytes are those of one instance.
 */
static void fa_field_info__exact(struct fa_field_info *fi, const struct fa_exact *ex,
				 int nr_owners)
{
	fa_exact__roles(ex, nr_owners, fi->readers, fi->writers);
	fi->exact = true;
	fi->accesses = ex->accesses;
	fi->writes = ex->writes;
	fi->by_instance = false;
	fi->class_by_code = false;
}

/* What the samples of field @f say, and what its code adds (see classify.h) */
static void fa_field_info__init(struct fa_field_info *fi, const struct fa_type *t, int f,
				double code_scale)
{
	const struct fa_field_stats *fs = &t->counts.stats[f];
	const struct fa_code_stats *cs = t->code.stats ? &t->code.stats[f] : NULL;
	int nr_owners = t->cfg.nr_owners;
	bool written;

	fi->weight = fs->weight;
	fi->accesses = fs->loads + fs->stores + fs->rmws + fs->other;
	fi->writes = fs->stores + fs->rmws;
	memcpy(fi->readers, fs->readers, BITS_TO_LONGS(nr_owners) * sizeof(long));
	memcpy(fi->writers, fs->writers, BITS_TO_LONGS(nr_owners) * sizeof(long));
	fi->by_instance = (t->cfg.owners || t->cfg.kernel) &&
			  fi->accesses >= FA_MIN_SAMPLES && fs->inst_seen &&
			  !t->xfer.inst_fields_dropped;
	fi->inst_shared = fs->inst_shared;
	fi->inst_writers = fs->inst_writers;
	if (!cs || !cs->readers)
		return;
	fi->by_code = true;
	fi->weight = max(fi->weight, cs->weight * code_scale);
	/*
	 * The code says what is hot and what goes together; who reads and
	 * writes a sampled field, its samples say: one function may take a
	 * lock in one thread and read the fields next to it in another.
	 */
	written = fa_field_info__code_owners(fi, cs, nr_owners);
	if (fi->accesses < FA_MIN_SAMPLES) {
		fi->accesses = FA_MIN_SAMPLES;
		fi->writes = written ? FA_MIN_SAMPLES : 0;
		fi->class_by_code = true;
	}
	/*
	 * Time based samples land on the instructions that stall, seldom on
	 * a plain store next to them: a field that much of its sampled code
	 * stores to is written, whatever its own samples say.
	 */
	if (written && cs->store_weight >= cs->weight * FA_WRITE_SHARE) {
		u64 writes = fi->accesses * FA_WRITE_SHARE + 1;

		if (writes > fi->writes) {
			fi->writes = writes;
			fi->class_by_code = true;
		}
	}
}

static int fa_classes__alloc(struct fa_classes *c, const struct fa_struct *st)
{
	c->field_cls = calloc(st->nr_fields, 1);
	c->fields = calloc(st->nr_fields, sizeof(*c->fields));
	c->units = calloc(st->nr_units, sizeof(*c->units));
	if (!c->field_cls || !c->fields || !c->units)
		return -ENOMEM;
	c->nr_units = st->nr_units;
	c->nr_fields = st->nr_fields;
	for (int u = 0; u < st->nr_units; u++) {
		c->units[u].accessors = bitmap_zalloc(c->nr_owners);
		c->units[u].writers = bitmap_zalloc(c->nr_owners);
		if (!c->units[u].accessors || !c->units[u].writers)
			return -ENOMEM;
	}
	for (int i = 0; i < st->nr_leaves; i++) {
		struct fa_field_info *fi = &c->fields[st->leaves[i]];

		fi->readers = bitmap_zalloc(c->nr_owners);
		fi->writers = bitmap_zalloc(c->nr_owners);
		if (!fi->readers || !fi->writers)
			return -ENOMEM;
		fi->agree = 1;
	}
	return 0;
}

/*
 * The weight of a watchpoint hit, in the samples' units: what the watched
 * fields that sampling saw too weigh per hit (0: none)
 */
static double fa_classes__hit_weight(const struct fa_classes *c, const struct fa_type *t)
{
	double weight = 0, hits = 0;

	for (int i = 0; i < t->st->nr_leaves; i++) {
		int f = t->st->leaves[i];
		const struct fa_exact *ex = t->counts.stats[f].exact;

		if (fa_exact__enough(ex) && t->counts.stats[f].weight > 0) {
			weight += c->fields[f].weight;
			hits += ex->hits;
		}
	}
	return hits ? weight / hits : 0;
}

/*
 * A watched field that sampling never saw (the kernel's accesses with
 * interrupts off): as hot as its hits say, at the rate of the watched
 * fields it saw, not cold
 */
static void fa_classes__watched_heat(struct fa_classes *c, const struct fa_type *t,
				     double *hottest)
{
	double hit_weight = fa_classes__hit_weight(c, t);

	for (int i = 0; hit_weight && i < t->st->nr_leaves; i++) {
		int f = t->st->leaves[i];
		const struct fa_exact *ex = t->counts.stats[f].exact;

		if (!fa_exact__enough(ex) || t->counts.stats[f].weight > 0)
			continue;
		c->fields[f].weight = max(c->fields[f].weight, ex->hits * hit_weight);
		*hottest = max(*hottest, c->fields[f].weight);
	}
}

/* @fi as replicate @rep of its samples has it (boot.h) */
static void fa_field_info__rep(struct fa_field_info *fi, const struct fa_field_groups *fg,
			       int rep)
{
	double weight = fa_boot_sum__total(&fg->weight);

	if (weight > 0)
		fi->weight *= fa_boot_sum__rep(&fg->weight, rep) / weight;
	fi->accesses = fa_boot_sum__rep(&fg->accesses, rep);
	fi->writes = fa_boot_sum__rep(&fg->writes, rep);
}

/*
 * How sure the classes from samples are: in how many of the bootstrap's
 * replicates the fields' own samples give each the same class.  Who reads
 * and writes a field, what the code adds and the watchpoints' classes are
 * held fixed.
 */
static void fa_classes__agreement(struct fa_classes *c, const struct fa_type *t)
{
	const struct fa_struct *st = t->st;
	struct fa_field_info rep[st->nr_leaves + 1];
	int agree[st->nr_leaves + 1];

	memset(agree, 0, sizeof(agree));
	for (int r = 0; r < FA_BOOT_REPS; r++) {
		double hottest = 0;

		for (int i = 0; i < st->nr_leaves; i++) {
			int f = st->leaves[i];

			rep[i] = c->fields[f];
			if (!rep[i].exact && !rep[i].class_by_code)
				fa_field_info__rep(&rep[i], &t->counts.field_groups[f], r);
			hottest = max(hottest, rep[i].weight);
		}
		for (int i = 0; i < st->nr_leaves; i++) {
			int f = st->leaves[i];

			agree[i] += fa_field__class(&rep[i], hottest, c->nr_owners, c->shared) ==
				    c->field_cls[f];
		}
	}
	for (int i = 0; i < st->nr_leaves; i++)
		c->fields[st->leaves[i]].agree = (float)agree[i] / FA_BOOT_REPS;
}

/**
 * fa_classes__init - Classify the fields of @t and sum them up per unit
 */
int fa_classes__init(struct fa_classes *c, struct fa_type *t)
{
	const struct fa_struct *st = t->st;
	double hottest = 0, code_scale = fa_type__code_scale(t);

	memset(c, 0, sizeof(*c));
	c->nr_owners = t->cfg.nr_owners;
	c->shared = fa_type__shared(t);
	if (fa_classes__alloc(c, st))
		goto out_err;
	for (int i = 0; i < st->nr_leaves; i++) {
		struct fa_field_info *fi = &c->fields[st->leaves[i]];
		const struct fa_exact *ex = t->counts.stats[st->leaves[i]].exact;

		fa_field_info__init(fi, t, st->leaves[i], code_scale);
		if (fa_exact__enough(ex))
			fa_field_info__exact(fi, ex, c->nr_owners);
		hottest = max(hottest, fi->weight);
	}
	fa_classes__watched_heat(c, t, &hottest);
	for (int i = 0; i < st->nr_leaves; i++) {
		int f = st->leaves[i];

		c->field_cls[f] = fa_field__class(&c->fields[f], hottest, c->nr_owners,
						  c->shared);
	}
	fa_classes__agreement(c, t);
	fa_classes__sum(c, st);
	return 0;

out_err:
	fa_classes__exit(c);
	return -ENOMEM;
}

/**
 * fa_classes__init_given - Room for classes the caller gives (a saved
 * report's): c->field_cls and the owners of c->fields, of @nr_owners bits;
 * fa_classes__sum() then sums them up per unit
 */
int fa_classes__init_given(struct fa_classes *c, const struct fa_struct *st, int nr_owners,
			   bool shared)
{
	memset(c, 0, sizeof(*c));
	c->nr_owners = nr_owners;
	c->shared = shared;
	if (fa_classes__alloc(c, st)) {
		fa_classes__exit(c);
		return -ENOMEM;
	}
	return 0;
}

/* The classes and owners of the leaves, summed up per unit */
void fa_classes__sum(struct fa_classes *c, const struct fa_struct *st)
{
	for (int i = 0; i < st->nr_leaves; i++) {
		int f = st->leaves[i];

		fa_unit_info__add_leaf(&c->units[st->fields[f].unit], &c->fields[f],
				       c->field_cls[f], c->nr_owners);
	}
}

/*
 * A CPU writes @w while another CPU accesses @a: unless the one CPU writing
 * @w is the only one accessing @a, some write takes the line from a reader.
 */
static bool fa_unit_info__hurts(const struct fa_unit_info *w, const struct fa_unit_info *a,
				int nr_owners)
{
	if (!w->writer || bitmap_empty(a->accessors, nr_owners))
		return false;
	return bitmap_weight(w->writers, nr_owners) > 1 ||
	       !bitmap_subset_of(a->accessors, w->writers, nr_owners);
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

	if (!c->shared || a->cls == FA_CLASS_COLD || b->cls == FA_CLASS_COLD)
		return false;
	if (a->writer && b->writer && bitmap_equal(a->writers, b->writers, c->nr_owners) &&
	    bitmap_equal(a->accessors, b->accessors, c->nr_owners))
		return false;
	return fa_unit_info__hurts(a, b, c->nr_owners) || fa_unit_info__hurts(b, a, c->nr_owners);
}

/* Enough hits to say who reads and writes the field, as samples would be */
bool fa_exact__enough(const struct fa_exact *ex)
{
	return ex && ex->hits >= FA_MIN_SAMPLES;
}

/* Its readers and writers: the owners with a share of its accesses (exact.h) */
void fa_exact__roles(const struct fa_exact *ex, int nr_owners, unsigned long *readers,
		     unsigned long *writers)
{
	bitmap_zero(readers, nr_owners);
	bitmap_zero(writers, nr_owners);
	for (int o = 0; o < nr_owners; o++) {
		if (ex->owner_accesses[o] && ex->owner_accesses[o] >= ex->accesses * FA_COLD_SHARE)
			__set_bit(o, readers);
		/* stores are a share of its own accesses, and not a few of all */
		if (ex->owner_writes[o] &&
		    ex->owner_writes[o] >= ex->owner_accesses[o] * FA_WRITE_SHARE &&
		    ex->owner_writes[o] >= ex->accesses * FA_COLD_SHARE)
			__set_bit(o, writers);
	}
}
