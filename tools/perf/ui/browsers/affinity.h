/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UI_BROWSERS_AFFINITY_H
#define __PERF_UI_BROWSERS_AFFINITY_H

#include <linux/compiler.h>
#include <linux/types.h>

struct fa_hists;
struct fa_report_opts;
struct fa_session;

#ifdef HAVE_SLANG_SUPPORT
int fa_report__browse(struct fa_hists *fh, const struct fa_session *s,
		      const struct fa_report_opts *o);
#else
static inline int fa_report__browse(struct fa_hists *fh __maybe_unused,
				    const struct fa_session *s __maybe_unused,
				    const struct fa_report_opts *o __maybe_unused)
{
	return -1;
}
#endif /* HAVE_SLANG_SUPPORT */

#endif /* __PERF_UI_BROWSERS_AFFINITY_H */
