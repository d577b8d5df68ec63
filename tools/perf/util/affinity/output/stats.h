/* SPDX-License-Identifier: GPL-2.0 */
/* perf affinity report --stats: what decoding and attribution made of the samples. */
#ifndef __PERF_AFFINITY_STATS_H
#define __PERF_AFFINITY_STATS_H

#include <stdio.h>
#include <linux/types.h>

struct fa_attr;
struct fa_attr_stats;
struct fa_decode_stats;

size_t fa_stat_line(FILE *fp, const char *label, u64 value);
size_t fa_decode_stats__fprintf(const struct fa_decode_stats *st, FILE *fp);
size_t fa_attr_stats__fprintf(const struct fa_attr_stats *st, FILE *fp);
size_t fa_attr__fprintf_fail_sites(struct fa_attr *a, int max, FILE *fp);

#endif /* __PERF_AFFINITY_STATS_H */
