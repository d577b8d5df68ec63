/* SPDX-License-Identifier: GPL-2.0 */
/* Analyses of the planted patterns of tests/affinity-planted.h */
#ifndef __PERF_TESTS_AFFINITY_ANALYSIS_H
#define __PERF_TESTS_AFFINITY_ANALYSIS_H

#include "affinity/advice/analyze.h"
#include "affinity/fields/fields.h"
#include "affinity/accumulate/type.h"
#include "affinity-planted.h"

/* The analysis perf affinity report makes of @t, by the window method */
static inline int analysis__run(struct fa_analysis *a, struct fa_type *t)
{
	fa_type__flush(t);
	return fa_analysis__run(a, t, FA_METHOD_WINDOW, FA_XFER_COST, NULL);
}

/* The end of a test that analyzed @t: @t and its struct go too */
static inline void analysis__exit(struct fa_analysis *a, struct fa_type *t)
{
	fa_analysis__exit(a);
	planted_type__delete(t);
}

#endif /* __PERF_TESTS_AFFINITY_ANALYSIS_H */
