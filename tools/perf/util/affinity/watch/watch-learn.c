// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity record --watch auto: what to watch, learned in the same
 * run.  For the first FA_LEARN_MS the workload's threads are sampled as
 * software address sampling does (cpu-clock with the user registers); the
 * address each sample's instruction accesses is decoded from its bytes and
 * registers, and the cache line the most samples of two threads or more
 * touched is watched for the rest of the run, FA_LEARN_UNITS watchpoints
 * over its words.  Perf record samples the run as usual meanwhile: the
 * report types the line and its hits from the recording.
 *
 * On a CPU whose timer interrupts land after the access (AMD), the
 * sampled instruction often accesses no memory: the instruction before it
 * is tried, if its address registers were not written since.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/refcount.h>
#include <internal/lib.h>
#include <internal/mmap.h>
#include <perf/event.h>
#include <perf/mmap.h>
#include "../../hashmap.h"
#include "../../insn-access.h"
#include "../../perf_regs.h"
#include "../../sample.h"
#include "../../../perf-sys.h"
#include "../decode/key.h"
#include "watch.h"

#define FA_LEARN_ARCH		"x86"	/* of the code decoded, the registers read */
#define FA_LEARN_PERIOD_NS	250000	/* 4 kHz per thread, for FA_LEARN_MS */
#define FA_LEARN_PAGES		16	/* the ring buffer of a CPU's events */

/*
 * What the samples saw of a cache line; @pointer: an access not based on
 * the stack pointer, as another thread reaches a thread's locals (a
 * thread's stack reused by the next has its slots accessed by two)
 */
struct fa_learn_line {
	u64	line;
	u64	samples;
	u32	tid[2];		/* the first two threads seen */
	bool	pointer;
	int	kind;		/* enum fa_learn_kind, once the line is to be picked */
};

#define FA_LEARN_BEFORE	48	/* bytes decoded before the IP to find the instruction there */

/*
 * Where the instruction before the one at @ip starts in @code (@ip at
 * @code[@at]), -1 if not known.  x86 code decoded backwards is ambiguous
 * ('20 01' ends where 'lock addl $0x1,0x20(%rax)' does); decoded forwards
 * from any byte it falls into step within a few instructions: the start
 * most of the 16 forward decodes from 48 to 33 bytes back agree on.
 */
static int fa_learn__prev_insn(const u8 *code, int at, u64 ip)
{
	int votes[FA_LEARN_BEFORE] = { 0 }, best = -1;
	struct insn_access_insn insn;

	for (int start = 0; start < 16 && start < at; start++) {
		int off = start, prev = -1;

		while (off < at && !insn_access__decode(&insn, FA_LEARN_ARCH, code + off, at + 16 - off,
							ip - at + off, true) && insn.length) {
			prev = off;
			off += insn.length;
		}
		if (off == at && prev >= 0)
			votes[prev]++;
	}
	for (int i = 0; i < at; i++) {
		if (votes[i] && (best < 0 || votes[i] > votes[best]))
			best = i;
	}
	return best;
}

/* The address @insn at @ip accesses, none of %fs:/%gs: (thread-local) */
static bool fa_learn__addr(struct insn_access_insn *insn, u64 ip, struct regs_dump *regs,
			   u64 *addr)
{
	return insn->result == INSN_ACCESS__OK && insn->nr_ops &&
	       !(insn->ops[0].flags & (INSN_ACCESS_F_SEG_FS | INSN_ACCESS_F_SEG_GS)) &&
	       !insn_access__addr(insn, &insn->ops[0], ip, regs, addr);
}

/* Whether the access of @insn is based on the stack or frame pointer */
static bool fa_learn__frame(const struct insn_access_insn *insn)
{
	return insn->ops[0].flags & INSN_ACCESS_F_FRAME;
}

/*
 * The addresses the instruction at @ip of @pid accesses and the one before
 * it (on AMD a timer interrupt lands after the access that held it off,
 * often on a load of the loop's condition), from the registers @regs
 * sampled there: at most two.  The one before only if no register of its
 * address was written since.
 * @frame: Result: bit i set if @addrs[i] is based on the stack or frame
 *         pointer: a thread's own local, unless another reaches it by pointer
 *
 * Return: the number of addresses in @addrs.
 */
int fa_watch_learn__addrs(int pid, u64 ip, struct regs_dump *regs, u64 *addrs, u8 *frame)
{
	u8 code[FA_LEARN_BEFORE + 16];
	struct iovec local = { .iov_base = code, .iov_len = sizeof(code), };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)(ip - FA_LEARN_BEFORE),
				.iov_len = sizeof(code), };
	struct insn_access_insn insn;
	int n = 0, prev;

	*frame = 0;
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != sizeof(code))
		return 0;
	if (!insn_access__decode(&insn, FA_LEARN_ARCH, code + FA_LEARN_BEFORE, 16, ip, true) &&
	    fa_learn__addr(&insn, ip, regs, &addrs[n]))
		*frame |= fa_learn__frame(&insn) << n++;
	prev = fa_learn__prev_insn(code, FA_LEARN_BEFORE, ip);
	if (prev >= 0 &&
	    !insn_access__decode(&insn, FA_LEARN_ARCH, code + prev, FA_LEARN_BEFORE + 16 - prev,
				 ip - FA_LEARN_BEFORE + prev, true) &&
	    insn.length == FA_LEARN_BEFORE - prev && !(insn.written_regs & insn.addr_regs) &&
	    fa_learn__addr(&insn, ip - insn.length, regs, &addrs[n]))
		*frame |= fa_learn__frame(&insn) << n++;
	return n;
}

/* Keep where thread @tid's stack is: its stack pointer, sampled in @regs */
static void fa_watch_learn__stack(struct fa_watch_learn *l, u32 tid, struct regs_dump *regs)
{
	u64 sp;
	int i;

	if (perf_reg_value(&sp, regs, perf_arch_reg_sp(FA_LEARN_ARCH)))
		return;
	for (i = 0; i < l->nr_sp && l->sp_tid[i] != tid; i++)
		;
	if (i == FA_LEARN_STACKS)
		return;
	l->nr_sp += i == l->nr_sp;
	l->sp_tid[i] = tid;
	l->sp[i] = sp;
}

static int fa_watch_learn__sample(struct fa_watch_learn *l, int pid, const u64 *array,
				  size_t nr)
{
	u64 regs_mask = arch__user_reg_mask();
	struct regs_dump regs = { .mask = regs_mask, };
	struct fa_learn_line *ll;
	u64 addrs[2];
	u8 frame;
	u32 tid;
	int n;

	/* ip, pid/tid, abi, the registers */
	if (nr < 3 + (size_t)hweight64(regs_mask) || !array[2])
		return 0;
	tid = array[1] >> 32;
	regs.abi = array[2];
	regs.regs = (u64 *)&array[3];
	l->samples++;
	fa_watch_learn__stack(l, tid, &regs);
	n = fa_watch_learn__addrs(pid, array[0], &regs, addrs, &frame);
	l->decoded += n > 0;
	/* a sample counts once for a line, its two accesses in it or not */
	if (n == 2 && addrs[1] / FA_LEARN_LINE == addrs[0] / FA_LEARN_LINE) {
		frame &= frame >> 1;
		n = 1;
	}
	for (int i = 0; i < n; i++) {
		ll = fa_u64_map__findnew(l->lines, addrs[i] / FA_LEARN_LINE, sizeof(*ll));
		if (!ll)
			return -ENOMEM;
		ll->samples++;
		ll->pointer |= !(frame & (1 << i));
		if (!ll->tid[0])
			ll->tid[0] = tid;
		else if (!ll->tid[1] && ll->tid[0] != tid)
			ll->tid[1] = tid;
	}
	return 0;
}

/* Take the samples out of the ring @map */
static int fa_watch_learn__drain(struct fa_watch_learn *l, struct perf_mmap *map, int pid)
{
	union perf_event *event;
	int err = 0;

	if (perf_mmap__read_init(map) < 0)
		return 0;
	while (!err && (event = perf_mmap__read_event(map))) {
		if (event->header.type == PERF_RECORD_SAMPLE)
			err = fa_watch_learn__sample(l, pid, (const u64 *)event->sample.array,
						     (event->header.size - sizeof(event->header)) /
						     sizeof(u64));
		perf_mmap__consume(map);
	}
	perf_mmap__read_done(map);
	return err;
}

/*
 * Sample thread @tid on CPU @cpu, and the threads it creates (an inherited
 * event needs a CPU to be mapped): in the ring of the CPU's first event
 */
static int fa_watch_learn__open(struct fa_watch_learn *l, int tid, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr), .sample_period = FA_LEARN_PERIOD_NS,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER,
		.sample_regs_user = arch__user_reg_mask(), .inherit = 1,
		.exclude_kernel = 1, .exclude_hv = 1, .wakeup_events = 1 << 30,
	};
	struct perf_mmap_param mp = {
		.prot = PROT_READ | PROT_WRITE, .mask = FA_LEARN_PAGES * page_size - 1,
	};
	int fd, first = -1;

	if (l->nr_fd == FA_LEARN_EVENTS)
		return 0;
	fd = sys_perf_event_open(&attr, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno == ENODEV ? 0 : -errno;	/* an offline CPU */
	for (int k = 0; k < l->nr_rings; k++) {
		if (l->ring[k].cpu.cpu == cpu)
			first = l->ring[k].fd;
	}
	if (first >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, first))
		goto out_close;
	if (first < 0) {
		struct perf_mmap *map = &l->ring[l->nr_rings];
		struct perf_cpu pcpu = { .cpu = cpu, };

		if (l->nr_rings == FA_LEARN_CPUS)
			goto out_close;
		perf_mmap__init(map, NULL, /*overwrite=*/false, NULL);
		if (perf_mmap__mmap(map, &mp, fd, pcpu))
			goto out_close;
		/* the event's reference and the reader's, as evlist__mmap() takes */
		refcount_set(&map->refcnt, 2);
		l->nr_rings++;
	}
	l->fd[l->nr_fd++] = fd;
	return 0;

out_close:
	close(fd);
	return -errno ?: -ENOSPC;
}

/**
 * fa_watch_learn__start - Sample the threads of @pid
 *
 * Return: 0, or a negative error: nothing to learn from.
 */
int fa_watch_learn__start(struct fa_watch_learn *l, int pid)
{
	int nr_cpus = sysconf(_SC_NPROCESSORS_CONF), err = 0;
	char path[64];
	struct dirent *de;
	DIR *dir;

	l->lines = fa_u64_map__new();
	if (!l->lines)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir)) && !err) {
		for (int cpu = 0; de->d_name[0] != '.' && cpu < nr_cpus && !err; cpu++)
			err = fa_watch_learn__open(l, atoi(de->d_name), cpu);
	}
	closedir(dir);
	return l->nr_rings ? 0 : err ?: -ESRCH;
}

/* Take what the threads of @pid sampled since the last call */
int fa_watch_learn__read(struct fa_watch_learn *l, int pid)
{
	int err = 0;

	for (int k = 0; k < l->nr_rings && !err; k++)
		err = fa_watch_learn__drain(l, &l->ring[k], pid);
	return err;
}

static const char * const fa_learn_kind_names[FA_LEARN_KIND_MAX] = {
	[FA_LEARN_OWN]		= "the program's own data",
	[FA_LEARN_STACK]	= "a thread's stack",
	[FA_LEARN_SYSTEM]	= "a system library's data",
};

const char *fa_learn_kind__name(enum fa_learn_kind kind)
{
	return kind < FA_LEARN_KIND_MAX ? fa_learn_kind_names[kind] : "?";
}

/**
 * fa_learn__map_kind - What the mapping a line of /proc/PID/maps describes
 * holds, as --watch auto prefers it
 * @exe: The program's path (/proc/PID/exe)
 * @start: Result: where it starts
 * @end: and ends
 *
 * Return: enum fa_learn_kind, or -1 for a line that is none.
 */
int fa_learn__map_kind(const char *line, const char *exe, u64 *start, u64 *end)
{
	unsigned long long s, e;
	int path = -1;
	size_t len;

	if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %n", &s, &e, &path) < 2 || path < 0)
		return -1;
	*start = s;
	*end = e;
	line += path;
	len = strcspn(line, "\n");
	/* anonymous: malloc()'s arenas (and threads' stacks, told by their SP) */
	if (!len || !strncmp(line, "[heap]", len))
		return FA_LEARN_OWN;
	if (!strncmp(line, "[stack]", len))
		return FA_LEARN_STACK;
	if (exe && strlen(exe) == len && !strncmp(line, exe, len))
		return FA_LEARN_OWN;
	return FA_LEARN_SYSTEM;
}

/*
 * Of the mappings of @pid, the kind of the one @addr is in: an anonymous
 * one a sampled thread's stack pointer is in is that thread's stack
 */
static int fa_learn__kind(const struct fa_watch_learn *l, FILE *maps, const char *exe, u64 addr)
{
	char buf[PATH_MAX + 128];
	u64 start, end;
	int kind;

	rewind(maps);
	while (fgets(buf, sizeof(buf), maps)) {
		kind = fa_learn__map_kind(buf, exe, &start, &end);
		if (kind < 0 || addr < start || addr >= end)
			continue;
		for (int i = 0; kind == FA_LEARN_OWN && i < l->nr_sp; i++) {
			if (l->sp[i] >= start && l->sp[i] < end)
				kind = FA_LEARN_STACK;
		}
		return kind;
	}
	return FA_LEARN_SYSTEM;
}

/*
 * Whether @a of @kind_a is to be watched rather than @b of @kind_b, when
 * the most sampled line of the program (not of a system library) had @most
 * samples: a line of a kind preferred but with less than 1/FA_LEARN_RIVAL
 * of those is a stray access, not what the threads share
 */
bool fa_learn_line__better(u64 samples_a, u64 line_a, int kind_a, u64 samples_b, u64 line_b,
			   int kind_b, u64 most)
{
	bool stray_a = samples_a * FA_LEARN_RIVAL < most;
	bool stray_b = samples_b * FA_LEARN_RIVAL < most;

	if ((kind_a == FA_LEARN_SYSTEM) != (kind_b == FA_LEARN_SYSTEM))
		return kind_b == FA_LEARN_SYSTEM;
	if (stray_a != stray_b)
		return stray_b;
	if (kind_a != kind_b)
		return kind_a < kind_b;
	if (samples_a != samples_b)
		return samples_a > samples_b;
	return line_a < line_b;
}

/* Whether two threads were seen on @ll, one not on its own stack */
static bool fa_learn_line__shared(const struct fa_learn_line *ll)
{
	return ll->tid[1] && ll->pointer;
}

/*
 * The kind of each line two threads share, from @pid's mappings (@maps,
 * NULL: the program's own); the most samples of one of the program's
 */
static u64 fa_watch_learn__kinds(const struct fa_watch_learn *l, FILE *maps, const char *exe)
{
	struct hashmap_entry *cur;
	u64 most = 0;
	size_t bkt;

	hashmap__for_each_entry(l->lines, cur, bkt) {
		struct fa_learn_line *ll = cur->pvalue;

		if (!fa_learn_line__shared(ll))
			continue;
		ll->kind = maps ? fa_learn__kind(l, maps, exe, ll->line * FA_LEARN_LINE) :
				  FA_LEARN_OWN;
		if (ll->kind != FA_LEARN_SYSTEM)
			most = max(most, ll->samples);
	}
	return most;
}

/**
 * fa_watch_learn__line - The line to watch: of those two threads or more
 * sampled, one of the program's own data before one of a thread's stack
 * before one of a system library (libc's lock), the most sampled (the
 * lowest of a tie) of its kind, or 0; but not one of the program's with
 * less than 1/FA_LEARN_RIVAL the samples of its most sampled
 * @pid: The workload, whose mappings tell the kinds
 * @pick: Result: what was picked, and the most sampled line if it differs
 */
u64 fa_watch_learn__line(const struct fa_watch_learn *l, int pid, struct fa_learn_pick *pick)
{
	const struct fa_learn_line *best = NULL, *most = NULL;
	char path[64], exe[PATH_MAX];
	struct hashmap_entry *cur;
	u64 most_own;
	ssize_t n;
	FILE *maps;
	size_t bkt;

	memset(pick, 0, sizeof(*pick));
	if (!l->lines)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	maps = fopen(path, "r");
	most_own = fa_watch_learn__kinds(l, maps, exe);
	if (maps)
		fclose(maps);
	hashmap__for_each_entry(l->lines, cur, bkt) {
		const struct fa_learn_line *ll = cur->pvalue;

		if (!fa_learn_line__shared(ll))
			continue;
		if (!best || fa_learn_line__better(ll->samples, ll->line, ll->kind, best->samples,
						   best->line, best->kind, most_own))
			best = ll;
		if (!most || ll->samples > most->samples)
			most = ll;
	}
	if (!best)
		return 0;
	pick->samples = best->samples;
	pick->kind = best->kind;
	if (most != best) {
		pick->other = most->line * FA_LEARN_LINE;
		pick->other_samples = most->samples;
		pick->other_kind = most->kind;
	}
	return best->line * FA_LEARN_LINE;
}

/* Stop sampling */
void fa_watch_learn__stop(struct fa_watch_learn *l)
{
	for (int k = 0; k < l->nr_rings; k++)
		perf_mmap__munmap(&l->ring[k]);
	for (int k = 0; k < l->nr_fd; k++)
		close(l->fd[k]);
	l->nr_rings = l->nr_fd = 0;
	fa_map__free_values(l->lines);
	l->lines = NULL;
}

/*
 * --watch auto: FA_LEARN_UNITS ranges, a word each of the line learned,
 * created at an address no code accesses and disarmed until it is known
 */
int fa_watch__auto(struct fa_watch *w, int room, char *errbuf, size_t size)
{
	if (room < FA_LEARN_UNITS) {
		scnprintf(errbuf, size, "auto watches %d ranges: more than %d in all",
			  FA_LEARN_UNITS, FA_WATCH_TARGETS);
		return -E2BIG;
	}
	for (int k = 0; k < FA_LEARN_UNITS; k++) {
		w[k] = (struct fa_watch){
			.spec = strdup("auto"), .addr = page_size, .off = k * 8, .len = 8,
			.size = 8, .learn = true,
		};
		if (!w[k].spec) {
			fa_watch__free_specs(w, k);
			return -ENOMEM;
		}
	}
	return FA_LEARN_UNITS;
}
