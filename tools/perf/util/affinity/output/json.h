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

struct fa_analysis;
struct fa_attr;
struct fa_decode_stats;
struct fa_hists;
struct fa_report_opts;

#define FA_JSON_SCHEMA_VERSION	1
#define FA_JSON_MAX_DEPTH	16

/**
 * struct fa_json - A streaming JSON writer
 * @fp: Where it goes
 * @printed: Bytes written
 * @depth: Open objects and arrays
 * @nr: Members written so far at each depth
 * @flat: The container at each depth is written on one line
 */
struct fa_json {
	FILE	*fp;
	size_t	 printed;
	int	 depth;
	int	 nr[FA_JSON_MAX_DEPTH];
	bool	 flat[FA_JSON_MAX_DEPTH];
};

void fa_json__init(struct fa_json *j, FILE *fp);
void fa_json__begin_object(struct fa_json *j, const char *key, bool flat);
void fa_json__end_object(struct fa_json *j);
void fa_json__begin_array(struct fa_json *j, const char *key, bool flat);
void fa_json__end_array(struct fa_json *j);
void fa_json__string(struct fa_json *j, const char *key, const char *str);
void fa_json__u64(struct fa_json *j, const char *key, u64 val);
void fa_json__int(struct fa_json *j, const char *key, int val);
void fa_json__double(struct fa_json *j, const char *key, double val);
void fa_json__bool(struct fa_json *j, const char *key, bool val);
void fa_json__null(struct fa_json *j, const char *key);
size_t fa_json__fprintf_str(FILE *fp, const char *str);
struct fa_cost;
void fa_json__cost(struct fa_json *j, const char *key, const struct fa_cost *c);

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
 */
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
};

size_t fa_json__fprintf(FILE *fp, const struct fa_json_header *h, struct fa_attr *a,
			struct fa_hists *fh, const struct fa_report_opts *o);

#endif /* __PERF_AFFINITY_JSON_H */
