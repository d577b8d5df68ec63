/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Write a perf.data file of synthesized samples of one event, as perf record
 * writes it: the header with its features (build IDs of the DSOs added,
 * topology, caches) and the events, buffered.  For 'perf bench affinity
 * synth' and the tests, which need memory samples without a PMU.
 */
#ifndef __PERF_AFFINITY_SYNTH_FILE_H
#define __PERF_AFFINITY_SYNTH_FILE_H

#include <stdbool.h>
#include <linux/perf_event.h>
#include <linux/types.h>

struct evlist;
struct perf_data;
struct perf_event_attr;
struct perf_sample;
struct perf_session;
union perf_event;

struct fa_synth_file {
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
#define FA_SYNTH_MEM_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
				  PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
				  PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
				  PERF_SAMPLE_PHYS_ADDR)

void fa_synth_file__mem_attr(struct perf_event_attr *attr, bool kernel);
int fa_synth_file__open(struct fa_synth_file *f, struct perf_data *data,
			struct perf_event_attr *attr, const char *dso_path);
int fa_synth_file__add_kernel(struct fa_synth_file *f, const char *vmlinux);
int fa_synth_file__close(struct fa_synth_file *f, int err);
int fa_synth_file__write(struct fa_synth_file *f, const void *event, size_t size);
int fa_synth_file__write_side(struct fa_synth_file *f, union perf_event *event,
			      u32 pid, u32 tid);
int fa_synth_file__write_sample(struct fa_synth_file *f, struct perf_sample *sample);

#endif /* __PERF_AFFINITY_SYNTH_FILE_H */
