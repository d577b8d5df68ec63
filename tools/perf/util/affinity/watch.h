/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf affinity record --watch: hardware watchpoints on variables of the
 * workload, named as in its source (var, var.field), armed before it
 * starts.  Their address is known before the workload runs because it
 * runs without address space randomization (personality(ADDR_NO_RANDOMIZE)):
 * an executable is then loaded where the kernel puts it by default.
 */
#ifndef __PERF_AFFINITY_WATCH_H
#define __PERF_AFFINITY_WATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define FA_WATCH_MAX		4	/* x86 debug registers */
#define FA_WATCH_CYCLE_MS	100	/* of the duty cycle (watch-duty.c) */
#define FA_WATCH_DUTY		5	/* percent of it armed, by default */

/**
 * struct fa_watch - A watched range
 * @spec: As given: var, var.field, var+off, each optionally /len
 * @addr: Where the workload will have it
 * @len: Bytes watched: 1, 2, 4 or 8, @addr aligned to it
 * @size: Bytes of what was named (only the first @len are watched)
 */
struct fa_watch {
	char	*spec;
	u64	 addr;
	u32	 len;
	u32	 size;
};

/**
 * struct fa_watch_duty - Watchpoints armed for a share of the time
 * @thread: Writes the commands
 * @ctl: The control pipe of perf record: it reads [0]
 * @nr: Watchpoints, the events watch0 to watch<nr - 1>
 * @on_us: Armed for this long
 * @off_us: Then not for this long
 * @stop: The recording ended
 * @running: @thread runs
 * @control: perf record's --control argument
 */
struct fa_watch_duty {
	pthread_t	 thread;
	int		 ctl[2];
	int		 nr;
	unsigned int	 on_us;
	unsigned int	 off_us;
	bool		 stop;
	bool		 running;
	char		 control[32];
};

int fa_watch_duty__start(struct fa_watch_duty *d, int nr, unsigned int percent);
void fa_watch_duty__stop(struct fa_watch_duty *d);

#ifdef HAVE_DWARF_SUPPORT
int fa_watch__resolve(struct fa_watch *w, const char *exe, char *errbuf, size_t size);
int fa_watch__event(const struct fa_watch *w, int nr, u64 period, char *buf, size_t size);
int fa_watch__no_aslr(void);
#else
#include <errno.h>
#include <stdio.h>
#include <linux/compiler.h>

/* The variables' addresses need the DWARF and ELF readers */
static inline int fa_watch__resolve(struct fa_watch *w __maybe_unused,
				    const char *exe __maybe_unused, char *errbuf, size_t size)
{
	snprintf(errbuf, size, "perf was built without DWARF support");
	return -EOPNOTSUPP;
}

static inline int fa_watch__event(const struct fa_watch *w __maybe_unused,
				  int nr __maybe_unused, u64 period __maybe_unused, char *buf __maybe_unused,
				  size_t size __maybe_unused)
{
	return 0;
}

static inline int fa_watch__no_aslr(void)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* __PERF_AFFINITY_WATCH_H */
