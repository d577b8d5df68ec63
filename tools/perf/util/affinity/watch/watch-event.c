// SPDX-License-Identifier: GPL-2.0
/*
 * The perf events of perf affinity record --watch: their names and order,
 * whether this machine has data breakpoints, and the workload run where
 * the watched addresses were predicted.  Nothing here needs DWARF: --watch
 * auto works without it.
 */
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>
#include <sys/personality.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/kernel.h>
#include "watch.h"
#include "../../../perf-sys.h"

/* qsort() order of struct fa_watch: by address */
int fa_watch__cmp_addr(const void *a, const void *b)
{
	const struct fa_watch *wa = a, *wb = b;

	return wa->addr < wb->addr ? -1 : wa->addr > wb->addr;
}

/* The perf event of @w, the @nr-th: "mem:ADDR/LEN:rw/period=N,name=watchNR/" */
int fa_watch__event(const struct fa_watch *w, int nr, u64 period, char *buf, size_t size)
{
	return scnprintf(buf, size, "mem:%#" PRIx64 "/%u:rw/period=%" PRIu64 ",name=watch%d/",
			 w->addr, w->len, period, nr);
}

/*
 * Whether this machine has a data breakpoint for this process (no debug
 * registers, or no breakpoint PMU, in some virtual machines): 0, or why not
 * (a negative errno)
 */
int fa_watch__available(void)
{
	static u64 probe;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT, .size = sizeof(attr), .bp_type = HW_BREAKPOINT_RW,
		.bp_addr = (uintptr_t)&probe, .bp_len = HW_BREAKPOINT_LEN_8, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = sys_perf_event_open(&attr, 0, -1, -1, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * Run what this process starts without address space randomization: the
 * watched addresses are then where fa_watch__resolve() said
 */
int fa_watch__no_aslr(void)
{
	int persona = personality(0xffffffff);

	if (persona < 0 || personality(persona | ADDR_NO_RANDOMIZE) < 0)
		return -errno;
	return 0;
}
