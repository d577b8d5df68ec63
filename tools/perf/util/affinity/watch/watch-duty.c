// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity record --watch: the controller of the watchpoints.
 *
 * Every access to watched bytes traps (5 to 17 us here): a field a loop
 * accesses each iteration would slow it down thousands of times.  Armed
 * for --watch-duty percent of every FA_WATCH_CYCLE_MS, a thread of the
 * workload loses about that share of its time, and the hits are slices of
 * its accesses, spread over the whole run.
 *
 * A watchpoint on var->field follows the pointer var: the instance it
 * points to is allocated as the workload runs.  Every cycle the pointer is
 * read from the workload's memory; the watchpoint is disarmed while it is
 * NULL and moved to the field when it changes.
 *
 * With more ranges than debug registers, the FA_WATCH_MAX events rotate
 * over them: each slice armed watches the next ones.
 *
 * --watch auto's ranges are disarmed until the workload's first samples
 * (watch-learn.c) name the line they are the words of.
 *
 * 'perf record --control' does the arming and moving: a thread here writes
 * 'enable watchN', 'disable watchN' and 'watch watchN ADDR/LEN' to its
 * control pipe (fa_watch__event() names the events so).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/uio.h>
#include <linux/kernel.h>
#include <linux/time64.h>
#include <linux/zalloc.h>
#include "../../debug.h"
#include "../../time-utils.h"
#include "watch.h"

static void fa_sleep_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000L, };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The workload, once it runs its executable: the child perf record forked
 * (before its exec, the child is a copy of perf and enable_on_exec would
 * undo a 'disable')
 */
static int fa_watch_duty__workload(struct fa_watch_duty *d)
{
	char path[64], exe[PATH_MAX], *real;
	int pid = 0;
	ssize_t n;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", getpid());
	fp = fopen(path, "r");
	if (!fp || fscanf(fp, "%d", &pid) != 1)
		pid = 0;
	if (fp)
		fclose(fp);
	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	real = realpath(d->exe, NULL);
	if (!real || strcmp(real, exe))
		pid = 0;
	free(real);
	return pid;
}

/* Where each var->field is now: what var holds, plus the field's offset */
static void fa_watch_duty__follow(struct fa_watch_duty *d)
{
	for (int w = 0; w < d->nr; w++) {
		u64 ptr = 0;
		struct iovec local = { .iov_base = &ptr, .iov_len = sizeof(ptr), };
		struct iovec remote = {
			.iov_base = (void *)(uintptr_t)d->watch[w].ptr, .iov_len = sizeof(ptr),
		};

		if (!d->watch[w].ptr)
			continue;
		if (process_vm_readv(d->pid, &local, 1, &remote, 1, 0) != sizeof(ptr))
			ptr = 0;
		d->target[w] = ptr ? ptr + d->watch[w].off : 0;
	}
}

/*
 * Arm (@on) or disarm the events, each on its range of this slice (moved
 * there first), those on a range following NULL disarmed
 */
static void fa_watch_duty__arm(struct fa_watch_duty *d, bool on)
{
	for (int e = 0; e < d->nr_events; e++) {
		int w = (d->base + e) % d->nr;
		u64 target = d->target[w];

		/* a full pipe drops a command: the next cycle puts it right */
		if (on && target && (target != d->at[e] || d->watch[w].len != d->len_at[e]) &&
		    dprintf(d->ctl[1], "watch watch%d %#" PRIx64 "/%u\n", e, target,
			    d->watch[w].len) > 0) {
			d->at[e] = target;
			d->len_at[e] = d->watch[w].len;
		}
		dprintf(d->ctl[1], "%s watch%d\n", on && target ? "enable" : "disable", e);
	}
}

static u64 fa_now_ms(void)
{
	return rdclock() / NSEC_PER_MSEC;
}

/* --watch auto: the line learned, its words the ranges to watch */
static void fa_watch_duty__learned(struct fa_watch_duty *d, u64 line,
				   const struct fa_learn_pick *pick)
{
	for (int w = 0; w < d->nr; w++) {
		if (d->watch[w].learn)
			d->target[w] = line + d->watch[w].off;
	}
	pr_info("perf affinity: --watch auto: watching the cache line at %#" PRIx64 " (%s), %" PRIu64 " of %" PRIu64 " samples in %" PRIu64 " ms, of two threads or more\n",
		line, fa_learn_kind__name(pick->kind), pick->samples, d->learn.samples,
		fa_now_ms() - d->learn_ms);
	if (pick->other)
		pr_info("perf affinity: --watch auto: rather than the line at %#" PRIx64 " (%s), %" PRIu64 " samples: the program's own data first, then a thread's stack, then a system library's\n",
			pick->other, fa_learn_kind__name(pick->other_kind), pick->other_samples);
}

static void fa_watch_duty__ended(void)
{
	pr_warning("perf affinity: --watch auto: the workload ended before a line two threads share was seen: nothing watched\n");
}

/* Whether @pid still runs: not gone, not a zombie perf record has to reap */
static bool fa_watch_duty__alive(int pid)
{
	char path[64], buf[256], *paren;
	bool alive = false;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	if (fgets(buf, sizeof(buf), fp)) {
		paren = strrchr(buf, ')');
		alive = paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
	}
	fclose(fp);
	return alive;
}

/*
 * --watch auto: sample the workload for FA_LEARN_MS, longer while no line
 * two threads share was seen, up to FA_LEARN_WAIT_MS
 */
static void fa_watch_duty__learn(struct fa_watch_duty *d)
{
	struct fa_learn_pick pick;
	u64 line = 0, ms;
	int err;

	if (!d->learn_ms) {
		d->learn_ms = fa_now_ms();
		err = fa_watch_learn__start(&d->learn, d->pid);
		if (err) {
			pr_warning("perf affinity: --watch auto: cannot sample the workload (%s): nothing watched\n",
				   strerror(-err));
			goto out_stop;
		}
		return;
	}
	if (fa_watch_learn__read(&d->learn, d->pid))
		goto out_stop;
	if (!fa_watch_duty__alive(d->pid)) {
		fa_watch_duty__ended();
		goto out_stop;
	}
	ms = fa_now_ms() - d->learn_ms;
	if (ms < FA_LEARN_MS)
		return;
	line = fa_watch_learn__line(&d->learn, d->pid, &pick);
	if (!line && ms < FA_LEARN_WAIT_MS)
		return;
	if (line)
		fa_watch_duty__learned(d, line, &pick);
	else
		pr_warning("perf affinity: --watch auto: no cache line two threads share in %" PRIu64 " samples (%" PRIu64 " with an address): nothing watched\n",
			   d->learn.samples, d->learn.decoded);
out_stop:
	fa_watch_learn__stop(&d->learn);
	d->learning = false;
}

static void *fa_watch_duty__run(void *arg)
{
	struct fa_watch_duty *d = arg;
	bool on = true;

	while (!__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE)) {
		/* the kernel's variables are there from the start */
		if (!d->pid && d->exe) {
			d->pid = fa_watch_duty__workload(d);
			if (!d->pid) {
				fa_sleep_us(1000);
				continue;
			}
		} else if (d->learning) {
			fa_watch_duty__learn(d);
			fa_sleep_us(10000);
		} else {
			fa_sleep_us(on ? d->on_us : d->off_us);
			on = !on || !d->off_us;
			/* the next ranges, from one slice to the next */
			if (on && d->nr > d->nr_events)
				d->base = (d->base + d->nr_events) % d->nr;
		}
		fa_watch_duty__follow(d);
		fa_watch_duty__arm(d, on);
	}
	return NULL;
}

/* Whether anything needs controlling: a duty cycle, or a pointer to follow */
static bool fa_watch_duty__needed(const struct fa_watch *watch, int nr, unsigned int percent)
{
	for (int w = 0; w < nr; w++) {
		if (percent < 100 || watch[w].ptr || watch[w].learn || w >= FA_WATCH_MAX)
			return true;
	}
	return false;
}

/**
 * fa_watch_duty__start - Control the @nr watchpoints of @watch
 * @exe: The workload's executable, NULL for variables of the kernel
 * @percent: Of the time they are armed (100: all of it)
 *
 * Nothing is done when nothing needs controlling.  Else @d->control is the
 * argument of 'perf record --control' to record with.
 *
 * Return: 0 or a negative error.
 */
int fa_watch_duty__start(struct fa_watch_duty *d, const struct fa_watch *watch, int nr,
			 const char *exe, unsigned int percent)
{
	unsigned int cycle_us = FA_WATCH_CYCLE_MS * 1000;

	memset(d, 0, sizeof(*d));
	d->ctl[0] = d->ctl[1] = -1;
	if (!fa_watch_duty__needed(watch, nr, percent))
		return 0;
	d->watch = watch;
	d->nr = nr;
	d->nr_events = min(nr, FA_WATCH_MAX);
	for (int w = 0; w < nr; w++) {
		d->target[w] = watch[w].ptr || watch[w].learn ? 0 : watch[w].addr;
		d->learning |= watch[w].learn;
	}
	/* where perf record opens the events */
	for (int e = 0; e < d->nr_events; e++) {
		d->at[e] = watch[e].addr;
		d->len_at[e] = watch[e].len;
	}
	d->on_us = percent >= 100 ? cycle_us : cycle_us * percent / 100 ?: 1;
	d->off_us = cycle_us - d->on_us;
	d->exe = exe ? strdup(exe) : NULL;
	if (exe && !d->exe) {
		errno = ENOMEM;
		goto out_err;
	}
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
	nr = errno;
	fa_watch_duty__stop(d);
	return -nr;
}

/* The recording ended: stop controlling */
void fa_watch_duty__stop(struct fa_watch_duty *d)
{
	if (d->running) {
		__atomic_store_n(&d->stop, true, __ATOMIC_RELEASE);
		pthread_join(d->thread, NULL);
		d->running = false;
	}
	if (d->learning && d->learn_ms)
		fa_watch_duty__ended();
	fa_watch_learn__stop(&d->learn);
	d->learning = false;
	for (int i = 0; i < 2; i++) {
		if (d->ctl[i] >= 0)
			close(d->ctl[i]);
		d->ctl[i] = -1;
	}
	zfree(&d->exe);
}
