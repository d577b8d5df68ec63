/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UI_BROWSERS_AFFINITY_H
#define __PERF_UI_BROWSERS_AFFINITY_H

#include <linux/compiler.h>
#include <linux/types.h>

struct fa_analysis;
struct fa_attr;
struct fa_report_opts;

#ifdef HAVE_SLANG_SUPPORT
int fa_report__browse(struct fa_attr *a, struct fa_analysis *an, u64 total,
		      const struct fa_report_opts *o);
#else
static inline int fa_report__browse(struct fa_attr *a __maybe_unused,
				    struct fa_analysis *an __maybe_unused,
				    u64 total __maybe_unused,
				    const struct fa_report_opts *o __maybe_unused)
{
	return -1;
}
#endif /* HAVE_SLANG_SUPPORT */

#endif /* __PERF_UI_BROWSERS_AFFINITY_H */
