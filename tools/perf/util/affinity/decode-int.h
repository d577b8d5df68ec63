/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interfaces between the parts of the sample decoder. */
#ifndef __PERF_AFFINITY_DECODE_INT_H
#define __PERF_AFFINITY_DECODE_INT_H

#include <linux/types.h>

struct addr_location;
struct evsel;
struct fa_access;
struct fa_decoder;
struct insn_access_insn;
struct perf_sample;

int fa_decoder__sw_init(struct fa_decoder *dec);
void fa_decoder__sw_exit(struct fa_decoder *dec);
const struct insn_access_insn *fa_decoder__insn(struct fa_decoder *dec,
						struct addr_location *al, u64 ip);
int fa_decoder__sw(struct fa_decoder *dec, struct perf_sample *sample,
		   struct addr_location *al, struct fa_access *acc);
int fa_decoder__tp(struct fa_decoder *dec, struct evsel *evsel,
		   struct perf_sample *sample, struct fa_access *acc);

#endif /* __PERF_AFFINITY_DECODE_INT_H */
