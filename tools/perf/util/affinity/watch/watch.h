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
#include <linux/zalloc.h>
#include <internal/mmap.h>

struct fa_struct;
struct hashmap;
struct regs_dump;

#define FA_WATCH_MAX		4	/* x86 debug registers: events */
#define FA_WATCH_TARGETS	32	/* ranges they rotate over */
#define FA_WATCH_CYCLE_MS	100	/* of the duty cycle (watch-duty.c) */
#define FA_WATCH_DUTY		5	/* percent of it armed, by default */

/* --watch auto (watch-learn.c) */
#define FA_LEARN_MS		500	/* sampled to learn the line to watch */
#define FA_LEARN_WAIT_MS	2000	/* at most, for a line two threads share */
#define FA_LEARN_EVENTS		256	/* a thread found at the start, a CPU */
#define FA_LEARN_CPUS		64	/* their rings: one per CPU */
#define FA_LEARN_LINE		64	/* bytes of the line watched */
#define FA_LEARN_UNITS		(FA_LEARN_LINE / 8)	/* watchpoints over it */
#define FA_LEARN_STACKS		16	/* threads whose stack pointer is kept */
#define FA_LEARN_RIVAL		8	/* a line preferred for its kind: 1/8 the samples */

/**
 * struct fa_watch_learn - The workload sampled to learn what to watch
 * @fd: An event per thread found at the start and CPU; new threads
 *      inherit them
 * @nr_fd: How many
 * @ring: The ring buffer of a CPU's events (the first's, the others'
 *        output set to it)
 * @nr_rings: How many
 * @lines: By cache line (its index): struct fa_learn_line
 * @samples: Samples taken
 * @decoded: Of those, with the address they accessed
 * @sp: The stack pointer a thread (@sp_tid) was last sampled with: the
 *      anonymous mappings that are threads' stacks
 * @nr_sp: How many threads
 */
struct fa_watch_learn {
	int		 fd[FA_LEARN_EVENTS];
	int		 nr_fd;
	struct perf_mmap ring[FA_LEARN_CPUS];
	int		 nr_rings;
	struct hashmap	*lines;
	u64		 samples;
	u64		 decoded;
	u64		 sp[FA_LEARN_STACKS];
	u32		 sp_tid[FA_LEARN_STACKS];
	int		 nr_sp;
};

/**
 * struct fa_watch - A watched range
 * @spec: As given: var, var.field, var->field, var+off, each optionally /len
 * @addr: Where the workload will have it; for var->field, where the event
 *        is created (disarmed): the pointer variable
 * @ptr: var->field: where the workload will have var, 0 for the others
 * @off: var->field: the offset of the field in what var points to
 * @len: Bytes watched: 1, 2, 4 or 8, @addr aligned to it
 * @size: Bytes of what was named (only the first @len are watched)
 * @learn: --watch auto: at @off in the line learned (watch-learn.c)
 */
struct fa_watch {
	char	*spec;
	u64	 addr;
	u64	 ptr;
	u64	 off;
	u32	 len;
	u32	 size;
	bool	 learn;
};

/* Free the specs of @n watched ranges, the last first (an unwinding) */
static inline void fa_watch__free_specs(struct fa_watch *w, int n)
{
	while (n > 0)
		zfree(&w[--n].spec);
}

/**
 * struct fa_watch_duty - Watchpoints armed for a share of the time, and
 * moved to where the pointers they follow point (watch-duty.c)
 * @thread: Writes the commands
 * @ctl: The control pipe of perf record: it reads [0]
 * @watch: The ranges to watch
 * @nr: How many
 * @nr_events: The events watch0 to watch<nr_events - 1>, the first ranges'
 *             when opened; with more ranges they rotate over them
 * @base: The range the first event watches in this slice
 * @exe: The workload's executable, NULL when watching the kernel
 * @pid: The workload, once it runs @exe, else 0
 * @target: Where each range is, 0 while a pointer it follows is NULL
 * @at: Where each event watches now
 * @len_at: How many bytes
 * @on_us: Armed for this long
 * @off_us: Then not for this long (0: armed all the time)
 * @learn: --watch auto: the workload sampled until the line is known
 * @learning: @learn samples (from @learn_ms on the monotonic clock)
 * @learn_ms: When it started
 * @stop: The recording ended
 * @running: @thread runs
 * @control: perf record's --control argument
 */
struct fa_watch_duty {
	pthread_t		 thread;
	int			 ctl[2];
	const struct fa_watch	*watch;
	int			 nr;
	int			 nr_events;
	int			 base;
	char			*exe;
	int			 pid;
	u64			 target[FA_WATCH_TARGETS];
	u64			 at[FA_WATCH_MAX];
	u32			 len_at[FA_WATCH_MAX];
	unsigned int		 on_us;
	unsigned int		 off_us;
	struct fa_watch_learn	 learn;
	bool			 learning;
	u64			 learn_ms;
	bool			 stop;
	bool			 running;
	char			 control[32];
};

/**
 * struct fa_kernel - The running kernel, as /proc says (watch-kernel.c)
 * @text: The link time address of _text in its vmlinux
 * @slide: How far KASLR moved it from there
 * @cpu_base: __per_cpu_offset[] of each CPU
 * @nr_cpus: How many
 */
struct fa_kernel {
	u64	 text;
	u64	 slide;
	u64	*cpu_base;
	int	 nr_cpus;
};

/**
 * struct fa_watch_resolver - Where fa_watch__resolve() looks
 * @exe: The workload's executable, or the running kernel's vmlinux
 * @kernel: Variables of the running kernel (watch-kernel.c)
 * @var: The variable whose struct type @st is kept for the next spec
 *       (searching a vmlinux's DWARF takes seconds)
 * @vaddr: Its address in @exe
 * @deref: @st is the type it points to
 * @st: The type, NULL if it has none
 * @running: Where the kernel is, read with the first variable of the kernel
 */
struct fa_watch_resolver {
	const char		*exe;
	bool			 kernel;
	char			*var;
	u64			 vaddr;
	bool			 deref;
	struct fa_struct	*st;
	struct fa_kernel	 running;
};

int fa_watch__from(const char *path, char **arg, char *errbuf, size_t size);
int fa_watch_learn__addrs(int pid, u64 ip, struct regs_dump *regs, u64 *addrs, u8 *frame);
int fa_watch_learn__start(struct fa_watch_learn *l, int pid);
int fa_watch_learn__read(struct fa_watch_learn *l, int pid);
/* Where a learned line is, in the order --watch auto prefers them */
enum fa_learn_kind {
	FA_LEARN_OWN,		/* the program's globals, its heap, anonymous memory */
	FA_LEARN_STACK,		/* a thread's stack: locals lambdas share */
	FA_LEARN_SYSTEM,	/* a library's data (libc's locks), or not known */
	FA_LEARN_KIND_MAX,
};

/*
 * The line fa_watch_learn__line() picked: its samples and kind; @other,
 * the most sampled line if it is not that one (0 if it is)
 */
struct fa_learn_pick {
	u64	samples;
	int	kind;
	u64	other;
	u64	other_samples;
	int	other_kind;
};

u64 fa_watch_learn__line(const struct fa_watch_learn *l, int pid, struct fa_learn_pick *pick);
int fa_learn__map_kind(const char *line, const char *exe, u64 *start, u64 *end);
bool fa_learn_line__better(u64 samples_a, u64 line_a, int kind_a, u64 samples_b, u64 line_b,
			   int kind_b, u64 most);
const char *fa_learn_kind__name(enum fa_learn_kind kind);
void fa_watch_learn__stop(struct fa_watch_learn *l);
int fa_watch__auto(struct fa_watch *w, int room, char *errbuf, size_t size);
int fa_watch_duty__start(struct fa_watch_duty *d, const struct fa_watch *watch, int nr,
			 const char *exe, unsigned int percent);
void fa_watch_duty__stop(struct fa_watch_duty *d);

/* watch-event.c */
int fa_watch__event(const struct fa_watch *w, int nr, u64 period, char *buf, size_t size);
int fa_watch__cmp_addr(const void *a, const void *b);
int fa_watch__no_aslr(void);
int fa_watch__available(void);

#ifdef HAVE_DWARF_SUPPORT
int fa_watch__resolve(struct fa_watch_resolver *r, const char *spec, struct fa_watch *w,
		      int room, char *errbuf, size_t size);
void fa_watch_resolver__exit(struct fa_watch_resolver *r);
int fa_kernel__init(struct fa_kernel *k, const char *vmlinux, u64 text, u64 offsets,
		    char *errbuf, size_t size);
void fa_kernel__exit(struct fa_kernel *k);
u64 fa_kernel__addr(const struct fa_kernel *k, u64 vaddr, bool percpu, int cpu);
#else
#include <errno.h>
#include <stdio.h>
#include <linux/compiler.h>

/* The variables' addresses need the DWARF and ELF readers */
static inline int fa_watch__resolve(struct fa_watch_resolver *r __maybe_unused,
				    const char *spec __maybe_unused,
				    struct fa_watch *w __maybe_unused, int room __maybe_unused,
				    char *errbuf, size_t size)
{
	snprintf(errbuf, size, "perf was built without DWARF support");
	return -EOPNOTSUPP;
}

static inline void fa_watch_resolver__exit(struct fa_watch_resolver *r __maybe_unused)
{
}
#endif

#endif /* __PERF_AFFINITY_WATCH_H */
