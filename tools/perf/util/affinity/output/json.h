/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf affinity report --json: the whole analysis as one JSON document, for
 * scripts and other tools.  The schema is documented in perf-affinity.txt
 * (JSON OUTPUT) and checked by tests/shell/lib/affinity_schema.json; bump
 * FA_JSON_SCHEMA_VERSION when a key changes meaning or goes away.
 */
#ifndef __PERF_AFFINITY_JSON_H
#define __PERF_AFFINITY_JSON_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "../../json-writer.h"

struct fa_analysis;
struct fa_attr;
struct fa_decode_stats;
struct fa_hists;
struct fa_report_opts;

#define FA_JSON_SCHEMA_VERSION	1

struct fa_cost;

void fa_json__cost(struct json_writer *j, const char *key, const struct fa_cost *c);

/**
 * struct fa_json_header - What the report knows besides the analysis
 * @hostname: Of the machine that recorded
 * @arch: Its architecture
 * @perf_version: Of the perf that reports
 * @nr_cpus: CPUs of the machine that recorded
 * @recorded_line_size: The L1 data cache line size it recorded, or 0
 * @line_size_source: Where the line size used comes from: "recorded",
 *                    "option" (--cacheline-size) or "this-machine"
 * @method: --method
 * @types: -T, or NULL
 * @decode: What decoding made of the samples
 * @recordings: Of a report of several recordings, each one; else NULL
 * @nr_recordings: How many
 */
struct fa_json_recording {
	const char			*path;
	const char			*hostname;
	const char			*arch;
	int				 nr_cpus;
};

struct fa_json_header {
	const char			*hostname;
	const char			*arch;
	const char			*perf_version;
	int				 nr_cpus;
	u32				 recorded_line_size;
	const char			*line_size_source;
	int				 method;
	const char			*types;
	const struct fa_decode_stats	*decode;
	const struct fa_json_recording	*recordings;
	int				 nr_recordings;
};

size_t fa_json__fprintf(FILE *fp, const struct fa_json_header *h, struct fa_attr *a,
			struct fa_hists *fh, const struct fa_report_opts *o);

#endif /* __PERF_AFFINITY_JSON_H */
