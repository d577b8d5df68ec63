// SPDX-License-Identifier: GPL-2.0
/*
 * A 2-thread driver of SQLite for perf affinity's attribution on real
 * optimized code (bench/README.md): each thread has its own in-memory
 * database and runs transactions of 200 inserts into an indexed table,
 * then a range select on the index.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "sqlite3.h"

static long rounds;

static void *worker(void *arg)
{
	sqlite3 *db;
	sqlite3_stmt *ins, *sel;
	long sum = 0;

	(void)arg;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return NULL;
	sqlite3_exec(db, "CREATE TABLE t(k INTEGER PRIMARY KEY, v INTEGER, s TEXT);"
			 "CREATE INDEX tv ON t(v);", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO t VALUES(?, ?, 'some text value')", -1,
			   &ins, NULL);
	sqlite3_prepare_v2(db, "SELECT sum(k) FROM t WHERE v BETWEEN ? AND ?", -1, &sel, NULL);
	for (long r = 0; r < rounds; r++) {
		sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
		for (int i = 0; i < 200; i++) {
			sqlite3_bind_int(ins, 1, (r * 200 + i) % 20000);
			sqlite3_bind_int(ins, 2, (r * 7919 + i * 31) % 5000);
			sqlite3_step(ins);
			sqlite3_reset(ins);
		}
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		sqlite3_bind_int(sel, 1, r % 5000);
		sqlite3_bind_int(sel, 2, r % 5000 + 50);
		if (sqlite3_step(sel) == SQLITE_ROW)
			sum += sqlite3_column_int64(sel, 0);
		sqlite3_reset(sel);
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	sqlite3_close(db);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	rounds = argc > 1 ? atol(argv[1]) : 2000;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
