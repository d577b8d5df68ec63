/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A worker thread that accumulates the attributed accesses into their
 * struct types (fa_type__accumulate()) while the main thread reads,
 * resolves, decodes and attributes the next samples: a single producer,
 * single consumer ring, so the types see the accesses in the order the
 * main thread attributed them and the report is the same with or without
 * the worker.
 *
 * Several workers (fa_workers) shard the types: each type is one worker's,
 * the least loaded when the type's first access comes, so that every type
 * still sees its accesses in order and the report is the same for any
 * number of them.  Other work (the data lines) goes to them as calls of a
 * function with a copy of its argument, in order by a key.
 */
#ifndef __PERF_AFFINITY_WORKER_H
#define __PERF_AFFINITY_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct fa_sample;
struct fa_type;
struct fa_worker;

struct fa_worker *fa_worker__new(void);
int fa_worker__add(struct fa_worker *w, struct fa_type *t, const char *sym,
		   const struct fa_sample *s);
int fa_worker__drain(struct fa_worker *w);
int fa_worker__delete(struct fa_worker *w);

#define FA_WORKERS_MAX	16	/* worker threads, as perf record --threads caps its own */
#define FA_WORK_CALL_MAX	224	/* bytes of a call's argument */

struct fa_workers;

int fa_workers__default(void);
struct fa_workers *fa_workers__new(int nr);
int fa_workers__nr(const struct fa_workers *ws);
int fa_workers__add(struct fa_workers *ws, struct fa_type *t, const char *sym,
		    const struct fa_sample *s);
int fa_workers__call(struct fa_workers *ws, u64 key, int (*fn)(void *arg), void *arg,
		     size_t size);
int fa_workers__drain(struct fa_workers *ws);
int fa_workers__delete(struct fa_workers *ws);

#endif /* __PERF_AFFINITY_WORKER_H */
