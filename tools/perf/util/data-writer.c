// SPDX-License-Identifier: GPL-2.0
/*
 * A perf.data file of synthesized samples: see data-writer.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/zalloc.h>
#include <internal/lib.h>
#include "data-writer.h"
#include "data.h"
#include "build-id.h"
#include "debug.h"
#include "dso.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "header.h"
#include "machine.h"
#include "sample.h"
#include "session.h"
#include "symbol.h"
#include "synthetic-events.h"

#define PERF_DATA_WRITER_BUF	(4 << 20)

/* What perf c2c and perf mem read from the header, as perf record writes it */
static void perf_data_writer__features(struct perf_session *session)
{
	static const int feats[] = {
		HEADER_BUILD_ID, HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION,
		HEADER_ARCH, HEADER_NRCPUS, HEADER_CPUDESC, HEADER_CPUID, HEADER_TOTAL_MEM,
		HEADER_EVENT_DESC, HEADER_CPU_TOPOLOGY, HEADER_NUMA_TOPOLOGY, HEADER_CACHE,
	};

	for (size_t i = 0; i < ARRAY_SIZE(feats); i++)
		perf_header__set_feat(&session->header, feats[i]);
}

/* The binary the samples are in, for the build ID table */
static int perf_data_writer__add_dso(struct perf_data_writer *f, const char *path)
{
	struct dso *dso = machine__findnew_dso(&f->session->machines.host, path);

	if (!dso)
		return -ENOMEM;
	dso__set_hit(dso);
	dso__put(dso);
	return 0;
}

/**
 * perf_data_writer__mem_attr - The event of Intel PEBS load latency samples
 * @kernel: Of the kernel only, else of user space only
 */
void perf_data_writer__mem_attr(struct perf_event_attr *attr, bool kernel)
{
	*attr = (struct perf_event_attr){
		.size = sizeof(*attr),
		.type = PERF_TYPE_RAW,
		.config = 0x1cd,	/* cpu/mem-loads,ldlat=30/P */
		.sample_type = PERF_DATA_WRITER_MEM_SAMPLE_TYPE,
		.sample_period = 1000,
		.precise_ip = 3,
		.sample_id_all = 1,
		.exclude_kernel = !kernel,
		.exclude_user = kernel,
		.mmap = 1,
		.mmap_data = !kernel,
		.comm = 1,
	};
}

/**
 * perf_data_writer__add_kernel - Give the kernel's samples the build ID of @vmlinux
 *
 * Return: 0, or a negative error if @vmlinux has no build ID.
 */
int perf_data_writer__add_kernel(struct perf_data_writer *f, const char *vmlinux)
{
	struct machine *machine = &f->session->machines.host;
	struct build_id bid;
	struct dso *dso;

	if (filename__read_build_id(vmlinux, &bid) <= 0) {
		pr_err("%s: no build ID\n", vmlinux);
		return -ENOENT;
	}
	dso = machine__findnew_dso(machine, machine->mmap_name);
	if (!dso)
		return -ENOMEM;
	dso__set_kernel(dso, DSO_SPACE__KERNEL);
	dso__set_build_id(dso, &bid);
	dso__set_hit(dso);
	dso__put(dso);
	return 0;
}

/**
 * perf_data_writer__open - Start @data, a perf.data of samples of @attr
 * @dso_path: The binary the samples are in (build ID table), or NULL
 *
 * Return: 0, or a negative error; perf_data_writer__close() must follow.
 */
int perf_data_writer__open(struct perf_data_writer *f, struct perf_data *data,
			   struct perf_event_attr *attr, const char *dso_path)
{
	struct evsel *evsel;
	int err = -ENOMEM;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->sample_type = attr->sample_type;
	f->session = perf_session__new(data, NULL);
	if (IS_ERR(f->session)) {
		err = PTR_ERR(f->session);
		f->session = NULL;
		return err;
	}
	f->evlist = evlist__new();
	evsel = evsel__new(attr);
	f->buf = malloc(PERF_DATA_WRITER_BUF);
	f->event = malloc(PERF_SAMPLE_MAX_SIZE);
	if (!f->evlist || !evsel || !f->buf || !f->event) {
		evsel__delete(evsel);
		return err;
	}
	evlist__add(f->evlist, evsel);
	f->session->evlist = f->evlist;
	perf_data_writer__features(f->session);
	f->fd = perf_data__fd(data);
	err = dso_path ? perf_data_writer__add_dso(f, dso_path) : 0;
	return err ?: perf_session__write_header(f->session, f->evlist, f->fd, false);
}

static int perf_data_writer__flush(struct perf_data_writer *f)
{
	if (writen(f->fd, f->buf, f->len) != (ssize_t)f->len)
		return -errno ?: -EIO;
	f->written += f->len;
	f->len = 0;
	return 0;
}

/*
 * The CPUs of the samples where they are not this machine's: perf's header
 * writer counts this machine's, so overwrite HEADER_NRCPUS after it.
 */
static int perf_data_writer__write_nr_cpus(struct perf_data_writer *f)
{
	u32 nr[2] = { f->nr_cpus, f->nr_cpus };		/* present, online */
	struct perf_file_header hdr;
	struct perf_file_section sec;
	int idx = 0;
	u64 off;

	if (pread(f->fd, &hdr, sizeof(hdr), 0) != sizeof(hdr) ||
	    !test_bit(HEADER_NRCPUS, hdr.adds_features))
		return -EIO;
	for (int feat = HEADER_FIRST_FEATURE; feat < HEADER_NRCPUS; feat++)
		idx += test_bit(feat, hdr.adds_features);
	off = hdr.data.offset + hdr.data.size + idx * sizeof(sec);
	if (pread(f->fd, &sec, sizeof(sec), off) != sizeof(sec) || sec.size < sizeof(nr) ||
	    pwrite(f->fd, nr, sizeof(nr), sec.offset) != sizeof(nr))
		return -EIO;
	return 0;
}

/**
 * perf_data_writer__close - Finish the file: the events, then the header again
 * @err: The error the writing ended with, 0 if none: then nothing more is
 *       written.
 *
 * Return: @err, or the error of finishing the file.
 */
int perf_data_writer__close(struct perf_data_writer *f, int err)
{
	if (!err && f->session) {
		err = perf_data_writer__flush(f);
		if (!err) {
			f->session->header.data_size = f->written;
			err = perf_session__write_header(f->session, f->evlist, f->fd, true);
		}
		if (!err && f->nr_cpus)
			err = perf_data_writer__write_nr_cpus(f);
	}
	if (f->session) {
		f->session->evlist = NULL;
		perf_session__delete(f->session);
	}
	evlist__delete(f->evlist);
	zfree(&f->buf);
	zfree(&f->event);
	return err;
}

int perf_data_writer__write(struct perf_data_writer *f, const void *event, size_t size)
{
	if (f->len + size > PERF_DATA_WRITER_BUF && perf_data_writer__flush(f))
		return -EIO;
	memcpy(f->buf + f->len, event, size);
	f->len += size;
	return 0;
}

/* A non-sample event, with the sample_id of @pid/@tid appended */
int perf_data_writer__write_side(struct perf_data_writer *f, union perf_event *event,
				 u32 pid, u32 tid)
{
	struct perf_sample id = { .pid = pid, .tid = tid, .time = 1, };

	event->header.size += perf_event__synthesize_id_sample((void *)event +
							       event->header.size,
							       f->sample_type, &id);
	return perf_data_writer__write(f, event, event->header.size);
}

/* A sample of the file's event, in user space unless @sample->cpumode says */
int perf_data_writer__write_sample(struct perf_data_writer *f, struct perf_sample *sample)
{
	union perf_event *event = f->event;

	event->header.type = PERF_RECORD_SAMPLE;
	event->header.misc = sample->cpumode ?: PERF_RECORD_MISC_USER;
	event->header.size = perf_event__sample_event_size(sample, f->sample_type, 0);
	if (perf_event__synthesize_sample(event, f->sample_type, 0, sample))
		return -EINVAL;
	return perf_data_writer__write(f, event, event->header.size);
}
