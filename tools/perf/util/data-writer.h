/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Write a perf.data file of synthesized samples of one event, as perf record
 * writes it: the header with its features (build IDs of the DSOs added,
 * topology, caches) and the events, buffered.  For 'perf bench affinity
 * synth' and the tests, which need memory samples without a PMU.
 */
#ifndef __PERF_DATA_WRITER_H
#define __PERF_DATA_WRITER_H

#include <stdbool.h>
#include <linux/perf_event.h>
#include <linux/types.h>

struct evlist;
struct perf_data;
struct perf_event_attr;
struct perf_sample;
struct perf_session;
union perf_event;

struct perf_data_writer {
	struct perf_session	*session;
	struct evlist		*evlist;
	u64			 sample_type;
	int			 fd;
	union perf_event	*event;		/* room for one event */
	char			*buf;
	size_t			 len;
	u64			 written;	/* bytes of events */
	u32			 nr_cpus;	/* for the header, if not this machine's */
};

/* What a PEBS memory sample has: IP, TID, TIME, ADDR, CPU, PERIOD, WEIGHT, DATA_SRC, PHYS_ADDR */
#define PERF_DATA_WRITER_MEM_SAMPLE_TYPE \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
	 PERF_SAMPLE_PHYS_ADDR)

void perf_data_writer__mem_attr(struct perf_event_attr *attr, bool kernel);
int perf_data_writer__open(struct perf_data_writer *f, struct perf_data *data,
			   struct perf_event_attr *attr, const char *dso_path);
int perf_data_writer__add_kernel(struct perf_data_writer *f, const char *vmlinux);
int perf_data_writer__close(struct perf_data_writer *f, int err);
int perf_data_writer__write(struct perf_data_writer *f, const void *event, size_t size);
int perf_data_writer__write_side(struct perf_data_writer *f, union perf_event *event,
				 u32 pid, u32 tid);
int perf_data_writer__write_sample(struct perf_data_writer *f, struct perf_sample *sample);

#endif /* __PERF_DATA_WRITER_H */
