/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf affinity report --heatmap: the co-access matrix of every reported
 * struct type as a self-contained SVG image, fields on both axes in layout
 * order with the cache line boundaries drawn, the current layout next to
 * the suggested (or split) one; under them the merges of arrays advised.
 */
#ifndef __PERF_AFFINITY_HEATMAP_H
#define __PERF_AFFINITY_HEATMAP_H

#include <stdbool.h>
#include <stdio.h>

struct fa_session;
struct fa_hists;
struct fa_report_opts;

size_t fa_heatmap__fprintf(FILE *fp, struct fa_hists *fh, const struct fa_session *s,
			   const struct fa_report_opts *o, bool html);

#endif /* __PERF_AFFINITY_HEATMAP_H */
