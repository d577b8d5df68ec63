// SPDX-License-Identifier: GPL-2.0
/*
 * A 2-thread driver of LMDB for perf affinity's attribution on real
 * optimized code (bench/README.md).
 *
 * One environment in a temporary directory, a plain named DB ("kv") and
 * a DUPSORT named DB ("dup").  The writer thread commits transactions of
 * ~200 small puts (plus a few deletes); the reader thread runs read
 * transactions with point lookups and cursor scans over both DBs.
 *
 * Usage: ldrv <iterations>
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ftw.h>
#include "lmdb.h"

#define PUTS_PER_TXN	200
#define KEY_SPACE	40000
#define DUP_KEYS	512
#define SCAN_LEN	400

struct drv {
	MDB_env *env;
	MDB_dbi kv;
	MDB_dbi dup;
	unsigned long iters;
	unsigned long found;
	unsigned long scanned;
};

static void check(int rc, const char *what)
{
	if (rc) {
		fprintf(stderr, "%s: %s\n", what, mdb_strerror(rc));
		exit(1);
	}
}

static unsigned int rnd(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void mk_key(char *buf, size_t len, unsigned int k)
{
	snprintf(buf, len, "key%08u", k);
}

static void put_kv(MDB_txn *txn, MDB_dbi dbi, unsigned int k, unsigned int v)
{
	char kb[16], vb[32];
	MDB_val key, val;

	mk_key(kb, sizeof(kb), k);
	snprintf(vb, sizeof(vb), "val-%u-%u", k, v);
	key.mv_data = kb;
	key.mv_size = strlen(kb);
	val.mv_data = vb;
	val.mv_size = strlen(vb);
	check(mdb_put(txn, dbi, &key, &val, 0), "mdb_put");
}

static void put_dup(MDB_txn *txn, MDB_dbi dbi, unsigned int k, unsigned int v)
{
	char kb[16];
	MDB_val key, val;

	mk_key(kb, sizeof(kb), k % DUP_KEYS);
	key.mv_data = kb;
	key.mv_size = strlen(kb);
	val.mv_data = &v;
	val.mv_size = sizeof(v);
	check(mdb_put(txn, dbi, &key, &val, 0), "mdb_put dup");
}

static void del_kv(MDB_txn *txn, MDB_dbi dbi, unsigned int k)
{
	char kb[16];
	MDB_val key;
	int rc;

	mk_key(kb, sizeof(kb), k);
	key.mv_data = kb;
	key.mv_size = strlen(kb);
	rc = mdb_del(txn, dbi, &key, NULL);
	if (rc != MDB_NOTFOUND)
		check(rc, "mdb_del");
}

static void write_txn(struct drv *d, unsigned int *seed, unsigned long it)
{
	MDB_txn *txn;
	unsigned int i, r;

	check(mdb_txn_begin(d->env, NULL, 0, &txn), "txn_begin w");
	for (i = 0; i < PUTS_PER_TXN; i++) {
		r = rnd(seed);
		if (i % 4 == 3)
			put_dup(txn, d->dup, r, (unsigned int)it);
		else
			put_kv(txn, d->kv, r % KEY_SPACE, (unsigned int)it);
		if (i % 25 == 24)
			del_kv(txn, d->kv, rnd(seed) % KEY_SPACE);
	}
	check(mdb_txn_commit(txn), "txn_commit");
}

static void *writer(void *arg)
{
	struct drv *d = arg;
	unsigned int seed = 1;
	unsigned long it;

	for (it = 0; it < d->iters; it++)
		write_txn(d, &seed, it);
	return NULL;
}

static unsigned long lookups(MDB_txn *txn, MDB_dbi dbi, unsigned int *seed)
{
	char kb[16];
	MDB_val key, val;
	unsigned long hit = 0;
	int i;

	for (i = 0; i < 100; i++) {
		mk_key(kb, sizeof(kb), rnd(seed) % KEY_SPACE);
		key.mv_data = kb;
		key.mv_size = strlen(kb);
		if (!mdb_get(txn, dbi, &key, &val))
			hit += val.mv_size;
	}
	return hit;
}

static unsigned long scan(MDB_txn *txn, MDB_dbi dbi, unsigned int start,
			  MDB_cursor_op next)
{
	MDB_cursor *cur;
	MDB_val key, val;
	char kb[16];
	unsigned long n = 0;
	int rc;

	check(mdb_cursor_open(txn, dbi, &cur), "cursor_open");
	mk_key(kb, sizeof(kb), start);
	key.mv_data = kb;
	key.mv_size = strlen(kb);
	rc = mdb_cursor_get(cur, &key, &val, MDB_SET_RANGE);
	while (!rc && n < SCAN_LEN) {
		n += val.mv_size ? 1 : 0;
		rc = mdb_cursor_get(cur, &key, &val, next);
	}
	mdb_cursor_close(cur);
	return n;
}

static unsigned long count_dups(MDB_txn *txn, MDB_dbi dbi, unsigned int k)
{
	MDB_cursor *cur;
	MDB_val key, val;
	char kb[16];
	size_t cnt = 0;

	check(mdb_cursor_open(txn, dbi, &cur), "cursor_open dup");
	mk_key(kb, sizeof(kb), k % DUP_KEYS);
	key.mv_data = kb;
	key.mv_size = strlen(kb);
	if (!mdb_cursor_get(cur, &key, &val, MDB_SET))
		mdb_cursor_count(cur, &cnt);
	mdb_cursor_close(cur);
	return cnt;
}

static void read_txn(struct drv *d, unsigned int *seed)
{
	MDB_txn *txn;
	MDB_stat st;

	check(mdb_txn_begin(d->env, NULL, MDB_RDONLY, &txn), "txn_begin r");
	d->found += lookups(txn, d->kv, seed);
	d->scanned += scan(txn, d->kv, rnd(seed) % KEY_SPACE, MDB_NEXT);
	d->scanned += scan(txn, d->dup, rnd(seed) % DUP_KEYS, MDB_NEXT);
	d->scanned += count_dups(txn, d->dup, rnd(seed));
	check(mdb_stat(txn, d->kv, &st), "mdb_stat");
	d->scanned += st.ms_depth;
	mdb_txn_abort(txn);
}

static void *reader(void *arg)
{
	struct drv *d = arg;
	unsigned int seed = 7;
	unsigned long it;

	for (it = 0; it < d->iters; it++)
		read_txn(d, &seed);
	return NULL;
}

static void open_dbs(struct drv *d)
{
	MDB_txn *txn;

	check(mdb_txn_begin(d->env, NULL, 0, &txn), "txn_begin open");
	check(mdb_dbi_open(txn, "kv", MDB_CREATE, &d->kv), "dbi_open kv");
	check(mdb_dbi_open(txn, "dup", MDB_CREATE | MDB_DUPSORT, &d->dup),
	      "dbi_open dup");
	check(mdb_txn_commit(txn), "txn_commit open");
}

static void open_env(struct drv *d, const char *dir)
{
	check(mdb_env_create(&d->env), "env_create");
	check(mdb_env_set_mapsize(d->env, 1UL << 30), "set_mapsize");
	check(mdb_env_set_maxdbs(d->env, 4), "set_maxdbs");
	check(mdb_env_set_maxreaders(d->env, 8), "set_maxreaders");
	check(mdb_env_open(d->env, dir, MDB_NOSYNC | MDB_NOMETASYNC, 0644),
	      "env_open");
	open_dbs(d);
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(p);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/ldrv.XXXXXX";
	struct drv d = { 0 };
	pthread_t w, r;

	d.iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	open_env(&d, dir);
	pthread_create(&w, NULL, writer, &d);
	pthread_create(&r, NULL, reader, &d);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("iters %lu found %lu scanned %lu\n", d.iters, d.found, d.scanned);
	mdb_env_close(d.env);
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return 0;
}
