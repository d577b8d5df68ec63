// SPDX-License-Identifier: GPL-2.0
/* Threads as the owners of cache lines (see owner.h). */
#include <errno.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include "../decode/key.h"
#include "owner.h"
#include "../../hashmap.h"

int fa_owners__init(struct fa_owners *o)
{
	memset(o, 0, sizeof(*o));
	o->index = fa_u64_map__new();
	return o->index ? 0 : -ENOMEM;
}

void fa_owners__exit(struct fa_owners *o)
{
	fa_map__free_values(o->index);
	o->index = NULL;
}

struct fa_owner {
	u64	key;		/* rec << 32 | tid */
	u32	index;
};

/*
 * The index of thread @tid of recording @rec, a new one for a thread not
 * seen yet: threads of two recordings are two owners, whatever their IDs
 */
int fa_owners__index(struct fa_owners *o, u8 rec, u32 tid)
{
	u64 key = (u64)rec << 32 | tid;
	int c = fa_cache__slot(key);
	struct fa_owner *ow;

	/* every access looks its thread up: most are one of a few recent ones */
	if (o->cache_index[c] && o->cache[c] == key)
		return o->cache_index[c] - 1;
	if (hashmap__find(o->index, &key, &ow))
		goto out_cache;
	ow = fa_u64_map__findnew(o->index, key, sizeof(*ow));
	if (!ow)
		return -ENOMEM;
	/* a folded thread is in the map too: counted once, found as fast */
	if (o->nr == FA_MAX_THREADS) {
		o->folded++;
		ow->index = FA_MAX_THREADS - 1;
	} else {
		ow->index = o->nr;
		o->recs[o->nr] = rec;
		o->tids[o->nr++] = tid;
	}
out_cache:
	o->cache[c] = key;
	o->cache_index[c] = ow->index + 1;
	return ow->index;
}

/*
 * The set @bits as the report prints it: CPUs as ranges ("0-3,7") when @o
 * is NULL, thread IDs otherwise ("1201,1202"), '-' for none; a list too
 * long for @buf ends with '+'.
 */
int fa_owners__scnprintf(const struct fa_owners *o, const unsigned long *bits, int nbits,
			 char *buf, size_t size)
{
	int bit, n = 0;

	if (bitmap_empty(bits, nbits))
		return scnprintf(buf, size, "-");
	if (!o) {
		n = bitmap_scnprintf((unsigned long *)bits, nbits, buf, size);
		return n ?: scnprintf(buf, size, "-");
	}
	for_each_set_bit(bit, bits, nbits) {
		char tid[24], rec[8] = "";
		int len;

		/* the recordings as the header numbers them */
		if (o->several)
			scnprintf(rec, sizeof(rec), "@%u", o->recs[bit] + 1);
		len = scnprintf(tid, sizeof(tid), "%s%u%s%s", n ? "," : "", o->tids[bit], rec,
				bit == FA_MAX_THREADS - 1 && o->folded ? "+" : "");

		if ((size_t)(n + len + 2) > size)
			return n + scnprintf(buf + n, size - n, "+");
		n += scnprintf(buf + n, size - n, "%s", tid);
	}
	return n;
}
