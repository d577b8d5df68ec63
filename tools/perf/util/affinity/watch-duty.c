// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity record --watch-duty: the watchpoints armed for a share of
 * the time.  Every access to watched bytes traps (about 5 us): a field a
 * loop accesses each iteration would slow it down thousands of times.
 * Armed for FA_WATCH_CYCLE_MS * percent / 100 of every FA_WATCH_CYCLE_MS,
 * a thread of the workload loses at most that share of its time, and the
 * hits are slices of its accesses, spread over the whole run.
 *
 * 'perf record --control' does the arming: a thread here writes 'enable
 * watchN' and 'disable watchN' to its control pipe (fa_watch__event()
 * names the events so).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "watch.h"

static void fa_sleep_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000L, };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void *fa_watch_duty__run(void *arg)
{
	struct fa_watch_duty *d = arg;
	bool on = true;

	while (!__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE)) {
		fa_sleep_us(on ? d->on_us : d->off_us);
		on = !on;
		/* a full pipe drops a command: the next one puts it right */
		for (int w = 0; w < d->nr; w++)
			dprintf(d->ctl[1], "%s watch%d\n", on ? "enable" : "disable", w);
	}
	return NULL;
}

/**
 * fa_watch_duty__start - Arm the @nr watchpoints @percent of the time
 *
 * Does nothing at 100 percent or more.  Else @d->control is the argument
 * of 'perf record --control' to record with.
 *
 * Return: 0 or a negative error.
 */
int fa_watch_duty__start(struct fa_watch_duty *d, int nr, unsigned int percent)
{
	unsigned int cycle_us = FA_WATCH_CYCLE_MS * 1000;

	memset(d, 0, sizeof(*d));
	d->ctl[0] = d->ctl[1] = -1;
	if (!nr || percent >= 100)
		return 0;
	d->nr = nr;
	d->on_us = cycle_us * percent / 100 ?: 1;
	d->off_us = cycle_us - d->on_us;
	/* not for the workload; the thread never waits for perf record */
	if (pipe2(d->ctl, O_CLOEXEC) || fcntl(d->ctl[1], F_SETFL, O_NONBLOCK))
		goto out_err;
	snprintf(d->control, sizeof(d->control), "fd:%d", d->ctl[0]);
	errno = pthread_create(&d->thread, NULL, fa_watch_duty__run, d);
	if (errno)
		goto out_err;
	d->running = true;
	return 0;

out_err:
	fa_watch_duty__stop(d);
	return -errno;
}

/* The recording ended: stop arming */
void fa_watch_duty__stop(struct fa_watch_duty *d)
{
	if (d->running) {
		__atomic_store_n(&d->stop, true, __ATOMIC_RELEASE);
		pthread_join(d->thread, NULL);
		d->running = false;
	}
	for (int i = 0; i < 2; i++) {
		if (d->ctl[i] >= 0)
			close(d->ctl[i]);
		d->ctl[i] = -1;
	}
}
