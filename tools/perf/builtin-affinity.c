// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity: which struct fields are accessed together, which are
 * written hot and shared between CPUs, and a cache line layout that keeps
 * the former together and the latter apart.
 *
 *   perf affinity record -- <workload>
 *   perf affinity report
 *
 * record samples memory accesses: with the memory events of a memory
 * sampling PMU where there is one (as perf c2c does), else with software
 * address sampling: a timer event with the interrupted registers, from
 * which report decodes the address each sampled instruction accesses.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/bitmap.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/zalloc.h>
#include <subcmd/pager.h>
#include <subcmd/parse-options.h>
#include "builtin.h"
#include "util/addr_location.h"
#include "util/affinity/decode/access.h"
#include "util/affinity/advice/analyze.h"
#include "util/affinity/advice/try.h"
#include "util/affinity/attr/attr.h"
#include "util/affinity/check/check.h"
#include "util/affinity/check/check-lines.h"
#include "util/affinity/decode/decode.h"
#include "util/affinity/check/diff.h"
#include "util/affinity/fields/fields.h"
#include "util/affinity/output/heatmap.h"
#include "util/affinity/output/hists.h"
#include "util/affinity/output/json.h"
#include "util/affinity/layout/layout.h"
#include "util/affinity/check/profile.h"
#include "util/affinity/output/report.h"
#include "util/resolve-cache.h"
#include "util/affinity/output/stats.h"
#include "util/affinity/accumulate/type.h"
#include "util/affinity/watch/watch.h"
#include "util/affinity/accumulate/worker.h"
#include "util/annotate.h"
#include "util/cacheline.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/debuginfo.h"
#include "util/env.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/header.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/mem-events.h"
#include "util/perf_regs.h"
#include "util/pmu.h"
#include "util/sample.h"
#include "util/session.h"
#include "util/strlist.h"
#include "util/symbol.h"
#include "util/thread.h"
#include "util/time-utils.h"
#include "util/tool.h"
#include "util/util.h"
#include "ui/browsers/affinity.h"
#include "ui/progress.h"
#include "ui/ui.h"
#include "ui/util.h"

/* x86-64 general purpose registers: the inputs of any memory operand */
#define AFFINITY_X86_REGS "ax,bx,cx,dx,si,di,bp,sp,ip,r8,r9,r10,r11,r12,r13,r14,r15"

/* One sample per ms of CPU time: see bench/README.md for the overhead. */
#define AFFINITY_SW_PERIOD_NS	1000000

/* --cacheline-size: what any machine has, and "not given" */
#define FA_LINE_MIN		16
#define FA_LINE_MAX		4096
#define FA_LINE_UNSET		UINT_MAX
#define FA_WINDOW_NS_UNSET	ULLONG_MAX

/* More CPUs than this in a header is a damaged header, not a machine */
#define FA_MAX_CPUS		(1 << 16)

/* Recordings one report reads (-i, several times): fa_space__of() has 8 bits */
#define AFFINITY_INPUTS_MAX	64
/* Between two recordings' samples: longer than any window or transfer */
#define AFFINITY_REC_GAP_NS	(60 * NSEC_PER_SEC)

/* A recording a report reads, of several */
struct affinity_input {
	const char		*path;
	char			*found;		/* @path, found in a directory */
	struct perf_data	*data;		/* the session's: not moved when sorted */
	struct perf_session	*session;
};

struct perf_affinity {
	struct perf_tool	 tool;
	struct fa_decoder	 decoder;
	/* record */
	const char		**tracepoints;
	int			 nr_tracepoints;
	const char		*sw_event;
	u64			 sw_period;
	bool			 force_sw;
	bool			 all_user;
	bool			 all_kernel;
	bool			 mem_event_set;
	char			*watch_arg;
	const char		*watch_from;
	struct fa_watch		 watch[FA_WATCH_TARGETS];
	int			 nr_watch;
	u64			 watch_period;
	unsigned int		 watch_duty;
	struct fa_watch_duty	 duty;
	char			*watch_exe;
	const char		*watch_vmlinux;
	char			 watch_events[FA_WATCH_MAX][80];
	/* report */
	struct fa_session	 session;
	struct fa_attr		 attr;
	struct resolve_cache	 resolver;
	struct fa_config	 cfg;
	struct fa_report_opts	 ropts;
	const char		*input_name;
	const char		*inputs[AFFINITY_INPUTS_MAX];	/* report's -i, as given */
	int			 nr_inputs;
	struct affinity_input	*recs;		/* the recordings, in the order read */
	int			 nr_recs;
	u64			 time_offset;	/* of the recording being read */
	u64			 time_end;	/* its last sample's time, offset */
	bool			 rec_begun;	/* a sample of it was read */
	const char		*field_sep;
	const char		*table;		/* -x: "struct" or "fields" */
	bool			 system_types;	/* also of system libraries' code */
	const char		*types;
	const char		*tries[FA_TRIES_MAX];	/* --try */
	int			 nr_tries;
	const char		*method_str;
	const char		*scope_str;
	const char		*time_str;
	const char		*percent_str;
	struct perf_time_interval *ptime_range;
	int			 range_num;
	const char		*cpu_list;
	DECLARE_BITMAP(cpu_bitmap, MAX_NR_CPUS);
	u64			 nr_filtered;
	const char		*json_name;
	const char		*heatmap_name;
	FILE			*json_fp;
	FILE			*heatmap_fp;
	int			 method;
	bool			 force;
	bool			 stats_only;
	bool			 use_stdio;
	bool			 use_tui;
	bool			 dump_raw;
	bool			 no_skid;
	const char		*place_str;	/* --placement */
	int			 place;		/* enum fa_place */
	u64			 place_seed;
	bool			 line_size_guessed;
	bool			 worker;
	int			 threads;	/* --threads, AFFINITY_THREADS_UNSET: as the machine says */
};

#define AFFINITY_THREADS_UNSET	(-1)

static const char * const affinity_subcommands[] = {
	"record", "report", "layout", "check", "diff", NULL
};

static const char * const affinity_record_usage[] = {
	"perf affinity record [<options>] [<command>]",
	"perf affinity record [<options>] -- <command> [<options>]",
	NULL
};

static const char * const affinity_report_usage[] = {
	"perf affinity report [<options>]",
	NULL
};

static const char * const affinity_layout_usage[] = {
	"perf affinity layout [<options>] <binary> <type>...",
	NULL
};

static const char * const affinity_check_usage[] = {
	"perf affinity check [<options>] <binary>",
	NULL
};

static const char * const affinity_diff_usage[] = {
	"perf affinity diff [<options>] [<old.data> <new.data>]",
	NULL
};

/*
 * record
 */

static int parse_record_events(const struct option *opt, const char *str,
			       int unset __maybe_unused)
{
	bool *event_set = opt->value;
	struct perf_pmu *pmu = perf_mem_events_find_pmu();

	if (!strcmp(str, "list")) {
		if (pmu && !perf_pmu__mem_events_init())
			perf_pmu__mem_events_list(pmu);
		else
			fprintf(stderr, "no memory sampling PMU on this machine\n");
		/* software address sampling, in the format of the memory events */
		fprintf(stderr, "%-13s: %s\n", "--sw",
			strcmp(perf_env__arch(NULL), "x86") ?
			"software address sampling: not supported on this architecture" :
			"available (software address sampling: --sw-event, default cpu-clock)");
		exit(0);
	}
	if (!pmu || perf_pmu__mem_events_init()) {
		pr_err("-e %s: no memory sampling PMU here; use --sw-event for software address sampling\n",
		       str);
		exit(-1);
	}
	if (perf_pmu__mem_events_parse(pmu, str))
		exit(-1);
	*event_set = true;
	return 0;
}

static int parse_tracepoint(const struct option *opt, const char *str, int unset)
{
	struct perf_affinity *aff = opt->value;
	const char **tps;

	if (unset)
		return 0;
#ifndef HAVE_LIBTRACEEVENT
	pr_err("--tracepoint %s: tracepoints are disabled due to missing libtraceevent support\n",
	       str);
	return -EOPNOTSUPP;
#endif
	tps = realloc(aff->tracepoints, (aff->nr_tracepoints + 1) * sizeof(*tps));
	if (!tps)
		return -ENOMEM;
	tps[aff->nr_tracepoints++] = str;
	aff->tracepoints = tps;
	return 0;
}

/* --try: the words are checked at once, the members once the types are known */
static int parse_try(const struct option *opt, const char *str, int unset)
{
	struct perf_affinity *aff = opt->value;
	char msg[512];

	if (unset)
		return 0;
	if (aff->nr_tries == FA_TRIES_MAX) {
		pr_err("--try %s: more than %d layouts to try\n", str, FA_TRIES_MAX);
		return -E2BIG;
	}
	if (fa_try__syntax(str, msg, sizeof(msg))) {
		pr_err("--try '%s': %s\n", str, msg);
		return -EINVAL;
	}
	aff->tries[aff->nr_tries++] = str;
	return 0;
}

/* Add @specs (var[.field][/len],...) to what --watch gives */
static int affinity__add_watch(struct perf_affinity *aff, const char *specs)
{
	char *arg = NULL;

	if (aff->watch_arg && asprintf(&arg, "%s,%s", aff->watch_arg, specs) < 0)
		arg = NULL;
	else if (!aff->watch_arg)
		arg = strdup(specs);
	if (!arg)
		return -ENOMEM;
	free(aff->watch_arg);
	aff->watch_arg = arg;
	return 0;
}

/* --watch var[.field][/len],...: kept until the workload is known, repeatable */
static int parse_watch(const struct option *opt, const char *str, int unset)
{
	return unset ? 0 : affinity__add_watch(opt->value, str);
}

/* The executable @cmd runs, through $PATH as execvp() finds it */
static char *affinity__which(const char *cmd)
{
	char *path, *dir, *saveptr = NULL, *found = NULL;

	if (strchr(cmd, '/'))
		return strdup(cmd);
	path = strdup(getenv("PATH") ?: "/usr/bin:/bin");
	for (dir = path ? strtok_r(path, ":", &saveptr) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &saveptr)) {
		if (asprintf(&found, "%s/%s", dir, cmd) < 0)
			found = NULL;
		else if (access(found, X_OK))
			zfree(&found);
	}
	free(path);
	return found;
}

/* --watch-from: what the report of an earlier recording names, added to --watch */
static int affinity__watch_from(struct perf_affinity *aff)
{
	char err[256], *from;
	int ret = fa_watch__from(aff->watch_from, &from, err, sizeof(err));

	if (ret) {
		pr_err("--watch-from %s: %s\n", aff->watch_from, err);
		return ret;
	}
	pr_info("perf affinity: --watch-from %s: --watch '%s'\n", aff->watch_from, from);
	ret = affinity__add_watch(aff, from);
	free(from);
	return ret;
}

/*
 * --watch: where each variable named will be in the workload started after
 * '--' (@cmd), which then runs without address space randomization; or
 * with --vmlinux, where it is in the running kernel
 */
static int affinity__resolve_watch(struct perf_affinity *aff, const char *cmd)
{
	struct fa_watch_resolver r = { .kernel = aff->watch_vmlinux != NULL, };
	char err[256], *tok, *saveptr = NULL;
	int ret = 0;

	if (aff->watch_from) {
		ret = affinity__watch_from(aff);
		if (ret)
			return ret;
	}
	if (!aff->watch_arg && aff->watch_vmlinux) {
		pr_err("--vmlinux %s: name the kernel's variables to watch with --watch\n",
		       aff->watch_vmlinux);
		return -EINVAL;
	}
	if (!aff->watch_arg)
		return 0;
	ret = fa_watch__available();
	if (ret) {
		pr_warning("perf affinity: no data breakpoint here (%s): recording without --watch\n",
			   strerror(-ret));
		zfree(&aff->watch_arg);
		return 0;
	}
	aff->watch_exe = cmd && !r.kernel ? affinity__which(cmd) : NULL;
	if (!aff->watch_exe && !r.kernel) {
		pr_err("--watch: name the workload after '--' (%s), or the kernel's --vmlinux\n",
		       cmd ? "not found in $PATH" : "none given");
		return -EINVAL;
	}
	r.exe = aff->watch_exe ?: aff->watch_vmlinux;
	for (tok = strtok_r(aff->watch_arg, ",", &saveptr); tok && ret >= 0;
	     tok = strtok_r(NULL, ",", &saveptr)) {
		if (!strcmp(tok, "auto") && r.kernel) {
			scnprintf(err, sizeof(err), "auto samples the workload's threads, not the kernel");
			ret = -EINVAL;
		} else if (!strcmp(tok, "auto")) {
			ret = fa_watch__auto(&aff->watch[aff->nr_watch],
					     FA_WATCH_TARGETS - aff->nr_watch, err, sizeof(err));
		} else {
			ret = fa_watch__resolve(&r, tok, &aff->watch[aff->nr_watch],
						FA_WATCH_TARGETS - aff->nr_watch, err, sizeof(err));
		}
		if (ret < 0)
			pr_err("--watch %s: %s\n", tok, err);
		else
			aff->nr_watch += ret;
	}
	fa_watch_resolver__exit(&r);
	/*
	 * the events rotate over neighbours: bytes of one line (of one CPU's
	 * instance) watched together show the transfers between them
	 */
	if (ret >= 0)
		qsort(aff->watch, aff->nr_watch, sizeof(aff->watch[0]), fa_watch__cmp_addr);
	return ret < 0 ? ret : 0;
}

/* What is watched, and where: a line each with -v, or when they are few */
static void affinity__watch_info(const struct fa_watch *fw, unsigned int duty, bool few)
{
	char where[64];

	if (fw->learn)
		scnprintf(where, sizeof(where), "in the line learned, +%" PRIu64, fw->off);
	else if (fw->ptr)
		scnprintf(where, sizeof(where), "where %#" PRIx64 " points, +%" PRIu64, fw->ptr,
			  fw->off);
	else
		scnprintf(where, sizeof(where), "at %#" PRIx64, fw->addr);
	eprintf(few ? 0 : 1, verbose,
		"perf affinity: watching %s %s, %u bytes%s, %u%% of the time\n",
		fw->spec, where, fw->len, fw->size > fw->len ? " (its first)" : "", duty);
}

/* The length of @spec without its CPU: "runqueues@2.clock" -> "runqueues" */
static int affinity__watch_var(const char *spec, const char **rest)
{
	const char *at = strchr(spec, '@');

	*rest = at ? at + 1 + strspn(at + 1, "0123456789") : spec + strlen(spec);
	return at ? at - spec : (int)strlen(spec);
}

/*
 * Many ranges (a per-CPU variable on every CPU) in one line: each variable
 * once, with how many CPUs' instances of it are watched
 */
static void affinity__watch_summary(const struct perf_affinity *aff, unsigned int duty)
{
	char names[512];
	int len = 0;

	for (int w = 0; w < aff->nr_watch && len < (int)sizeof(names) - 1; w++) {
		const char *rest, *spec = aff->watch[w].spec, *r;
		int n = affinity__watch_var(spec, &rest), same = 0, seen = 0;

		for (int v = 0; v < aff->nr_watch; v++) {
			const char *other = aff->watch[v].spec;
			bool eq = affinity__watch_var(other, &r) == n && !strncmp(other, spec, n) &&
				  !strcmp(r, rest);

			same += eq;
			seen += eq && v < w;
		}
		if (seen)
			continue;
		len += scnprintf(names + len, sizeof(names) - len, "%s%.*s%s", len ? ", " : "", n,
				 spec, rest);
		if (same > 1)
			len += scnprintf(names + len, sizeof(names) - len, " x%d", same);
	}
	pr_info("perf affinity: %d watchpoints rotate over the %d ranges, armed %u%% of the time, each range %.1f%%: %s (-v lists them)\n",
		FA_WATCH_MAX, aff->nr_watch, duty, (double)duty * FA_WATCH_MAX / aff->nr_watch,
		names);
}

/* A data breakpoint per variable resolved, armed --watch-duty of the time */
static int affinity__record_watch(struct perf_affinity *aff, const char **argv, int *i)
{
	int ret;

	for (int w = 0; w < aff->nr_watch; w++) {
		struct fa_watch *fw = &aff->watch[w];

		/* the first ranges' events rotate over all (watch-duty.c) */
		if (w < FA_WATCH_MAX) {
			fa_watch__event(fw, w, aff->watch_period ?: 1, aff->watch_events[w],
					sizeof(aff->watch_events[w]));
			argv[(*i)++] = "-e";
			argv[(*i)++] = aff->watch_events[w];
		}
		affinity__watch_info(fw, min(aff->watch_duty, 100U), aff->nr_watch <= FA_WATCH_MAX);
	}
	if (aff->nr_watch > FA_WATCH_MAX)
		affinity__watch_summary(aff, min(aff->watch_duty, 100U));
	if (aff->nr_watch && aff->watch[0].learn)
		pr_info("perf affinity: --watch auto: the workload sampled for %d ms to find the cache line two threads share the most, then its words watched\n",
			FA_LEARN_MS);
	if (aff->nr_watch && aff->watch_exe && fa_watch__no_aslr())
		pr_warning("perf affinity: cannot turn address space randomization off: the watched addresses may be wrong\n");
	ret = fa_watch_duty__start(&aff->duty, aff->watch, aff->nr_watch, aff->watch_exe,
				   aff->watch_duty);
	if (ret) {
		pr_err("--watch-duty: cannot start arming the watchpoints: %s\n", strerror(-ret));
		return ret;
	}
	if (aff->duty.running) {
		argv[(*i)++] = "--control";
		argv[(*i)++] = aff->duty.control;
	}
	return 0;
}

/* "cpu-clock:u" -> "cpu-clock/period=N/u"; events with terms are left alone */
static char *affinity__sw_event(struct perf_affinity *aff)
{
	const char *ev = aff->sw_event ?: "cpu-clock";
	const char *mod = strchr(ev, ':');
	char *str = NULL;

	if (strchr(ev, '/'))
		return strdup(ev);
	if (asprintf(&str, "%.*s/period=%" PRIu64 "/%s", mod ? (int)(mod - ev) : (int)strlen(ev),
		     ev, aff->sw_period, mod ? mod + 1 : "") < 0)
		return NULL;
	return str;
}

static int affinity__record_sw(struct perf_affinity *aff, const char **argv, int *i,
			       char **sw_event)
{
	if (strcmp(perf_env__arch(NULL), "x86")) {
		pr_err("no memory sampling PMU here, and software address sampling is only supported on x86-64\n");
		return -EOPNOTSUPP;
	}
	*sw_event = affinity__sw_event(aff);
	if (!*sw_event)
		return -ENOMEM;

	argv[(*i)++] = "-e";
	argv[(*i)++] = *sw_event;
	argv[(*i)++] = "-d";		/* data mmaps, so heap and anon addresses resolve */
	argv[(*i)++] = "--sample-cpu";
	/* Interrupted registers for kernel samples, user registers for user ones. */
	if (!aff->all_kernel)
		argv[(*i)++] = "--user-regs=" AFFINITY_X86_REGS;
	if (!aff->all_user)
		argv[(*i)++] = "--intr-regs=" AFFINITY_X86_REGS;
	pr_info("perf affinity: %s, using software address sampling: %s with sampled registers\n",
		aff->force_sw ? "--sw given" : "no memory sampling PMU here", *sw_event);
	return 0;
}

static int affinity__record_mem(struct perf_affinity *aff, struct perf_pmu *pmu,
				const char **argv, int *i)
{
	if (!aff->mem_event_set) {
		struct perf_mem_event *e = perf_pmu__mem_events_ptr(pmu,
								    PERF_MEM_EVENTS__LOAD_STORE);

		/* Loads and stores, as one event where the PMU has it. */
		if (e->tag) {
			perf_mem_record[PERF_MEM_EVENTS__LOAD_STORE] = true;
		} else {
			perf_mem_record[PERF_MEM_EVENTS__LOAD] = true;
			perf_mem_record[PERF_MEM_EVENTS__STORE] = true;
		}
	}
	if (perf_mem_record[PERF_MEM_EVENTS__LOAD] ||
	    perf_mem_record[PERF_MEM_EVENTS__LOAD_STORE])
		argv[(*i)++] = "-W";
	argv[(*i)++] = "-d";
	argv[(*i)++] = "--phys-data";
	argv[(*i)++] = "--sample-cpu";
	pr_info("perf affinity: using the memory events of the %s PMU\n", pmu->name);
	if (perf_mem_record[PERF_MEM_EVENTS__LOAD] && perf_mem_events__loads_ldlat > 3)
		pr_info("perf affinity: loads faster than %u cycles are not sampled (-l/--ldlat); read-mostly fields look colder than they are\n",
			perf_mem_events__loads_ldlat);
	return perf_mem_events__record_args(argv, i);
}

static int perf_affinity__record(struct perf_affinity *aff, int argc, const char **argv)
{
	const struct option options[] = {
	OPT_CALLBACK('e', "event", &aff->mem_event_set, "event",
		     "memory event selector. Use 'perf affinity record -e list' to list available events",
		     parse_record_events),
	OPT_UINTEGER('l', "ldlat", &perf_mem_events__loads_ldlat, "setup mem-loads latency"),
	OPT_BOOLEAN('u', "all-user", &aff->all_user, "collect only user level data"),
	OPT_BOOLEAN('k', "all-kernel", &aff->all_kernel, "collect only kernel level data"),
	OPT_BOOLEAN(0, "sw", &aff->force_sw,
		    "software address sampling even where a memory sampling PMU exists"),
	OPT_STRING(0, "sw-event", &aff->sw_event, "event",
		   "sampling event for software address sampling (default cpu-clock)"),
	OPT_U64(0, "sw-period", &aff->sw_period,
		"sample period of the software event (default 1000000, ns for clocks)"),
	OPT_CALLBACK(0, "tracepoint", aff, "tracepoint",
		     "also record this tracepoint (allocations, field labelled accesses); repeatable",
		     parse_tracepoint),
	OPT_CALLBACK(0, "watch", aff, "auto|var[@cpu][.field|->field|.*][/len],...",
		     "hardware watchpoints on variables of the workload or kernel (4 rotate over up to 32); auto: the line two threads share the most, learned in the run",
		     parse_watch),
	OPT_U64(0, "watch-period", &aff->watch_period,
		"record one watchpoint hit in N (default 1: every hit)"),
	OPT_STRING(0, "watch-from", &aff->watch_from, "file",
		   "watch what the report of this earlier recording (or its JSON) names"),
	OPT_UINTEGER(0, "watch-duty", &aff->watch_duty,
		     "percent of the time the watchpoints are armed (default 5, 100: all)"),
	OPT_STRING(0, "vmlinux", &aff->watch_vmlinux, "file",
		   "--watch variables of the running kernel, this vmlinux's (root, with -a)"),
	OPT_INCR('v', "verbose", &verbose, "be more verbose"),
	OPT_END()
	};
	struct perf_pmu *pmu;
	const char **rec_argv;
	char *sw_event = NULL;
	int rec_argc, i = 0, j, ret;
	const char *cmd = NULL;

	aff->watch_duty = FA_WATCH_DUTY;
	aff->duty.ctl[0] = aff->duty.ctl[1] = -1;
	/* the workload, for --watch: after '--' */
	for (j = 0; j + 1 < argc; j++) {
		if (!strcmp(argv[j], "--")) {
			cmd = argv[j + 1];
			break;
		}
	}
	argc = parse_options(argc, argv, options, affinity_record_usage, PARSE_OPT_KEEP_UNKNOWN);
	if (aff->all_user && aff->all_kernel) {
		pr_err("-u/--all-user and -k/--all-kernel exclude each other\n");
		return -EINVAL;
	}
	if (!aff->sw_period) {
		pr_err("--sw-period 0: a sample every N events (ns for clocks), N at least 1\n");
		return -EINVAL;
	}
	if (aff->force_sw && aff->mem_event_set) {
		pr_err("--sw and -e exclude each other: -e selects a memory event\n");
		return -EINVAL;
	}
	if (!aff->watch_duty || aff->watch_duty > 100) {
		pr_err("--watch-duty %u: a percentage of the time, 1 to 100\n", aff->watch_duty);
		return -EINVAL;
	}
	ret = affinity__resolve_watch(aff, cmd);
	if (ret)
		goto out_free_watch;
	pmu = perf_mem_events_find_pmu();
	if (pmu && perf_pmu__mem_events_init())
		pmu = NULL;

	/* Max number of arguments multiplied by number of PMUs that can support them. */
	rec_argc = argc + 2 * aff->nr_tracepoints + 2 * (FA_WATCH_MAX + 1) + 16 +
		   11 * (pmu ? perf_pmu__mem_events_num_mem_pmus(pmu) + 1 : 0);
	rec_argv = calloc(rec_argc + 1, sizeof(char *));
	if (!rec_argv) {
		ret = -ENOMEM;
		goto out_free_watch;
	}

	rec_argv[i++] = "record";
	if (aff->force_sw || !pmu)
		ret = affinity__record_sw(aff, rec_argv, &i, &sw_event);
	else
		ret = affinity__record_mem(aff, pmu, rec_argv, &i);
	if (ret)
		goto out;

	ret = affinity__record_watch(aff, rec_argv, &i);
	if (ret)
		goto out;
	if (aff->all_user)
		rec_argv[i++] = "--all-user";
	if (aff->all_kernel)
		rec_argv[i++] = "--all-kernel";
	for (j = 0; j < aff->nr_tracepoints; j++) {
		rec_argv[i++] = "-e";
		rec_argv[i++] = aff->tracepoints[j];
	}
	for (j = 0; j < argc; j++)
		rec_argv[i++] = argv[j];

	if (verbose > 0) {
		pr_debug("calling:");
		for (j = 0; j < i; j++)
			pr_debug(" %s", rec_argv[j]);
		pr_debug("\n");
	}
	ret = cmd_record(i, rec_argv);
out:
	fa_watch_duty__stop(&aff->duty);
	free(sw_event);
	free(rec_argv);
out_free_watch:
	fa_watch__free_specs(aff->watch, aff->nr_watch);
	zfree(&aff->watch_exe);
	zfree(&aff->watch_arg);
	return ret;
}

/*
 * report
 */

/* What the access was attributed to, or why it was not */
static void fa_attr_last__fprintf(const struct fa_attr_last *last, const char *sep, FILE *fp)
{
	if (last->te)
		fprintf(fp, "%s%s.%s[%#" PRIx64 "]", sep ?: " ", last->te->name,
			last->te->st->fields[last->field].name, last->base);
	else if (last->arr)
		fprintf(fp, "%s%s[%u]", sep ?: " ", last->arr->name, last->index);
	else if (last->pending)
		fprintf(fp, "%s%s", sep ?: " # ", "waits for an instance at its address");
	else
		fprintf(fp, "%s%s", sep ?: " # ", fa_attr_fail__name(last->reason));
}

/*
 * One access and what it was attributed to (@last), or with @drop a sample
 * that gave none and why.
 */
static void fa_access__fprintf(const struct fa_access *acc, const char *sep, const char *drop,
			       const struct fa_attr_last *last, FILE *fp)
{
	const struct fa_origin *o = acc->origin;
	const char *op = drop ? "drop" : fa_op__name(acc->op);
	char ts[64], flags[32];
	int n = 0;

	timestamp__scnprintf_usec(o->time, ts, sizeof(ts));
	flags[0] = '\0';
	if (acc->flags & FA_ACC_SKID)
		n += scnprintf(flags + n, sizeof(flags) - n, "%sskid", n ? "|" : "");
	if (acc->flags & FA_ACC_BLOCK)
		n += scnprintf(flags + n, sizeof(flags) - n, "%sblock", n ? "|" : "");
	if (acc->flags & FA_ACC_SEG)
		n += scnprintf(flags + n, sizeof(flags) - n, "%sseg", n ? "|" : "");
	if (acc->flags & FA_ACC_LOCK)
		n += scnprintf(flags + n, sizeof(flags) - n, "%slock", n ? "|" : "");
	if (acc->flags & FA_ACC_STRING)
		n += scnprintf(flags + n, sizeof(flags) - n, "%sstr", n ? "|" : "");
	if (acc->flags & FA_ACC_KERNEL)
		n += scnprintf(flags + n, sizeof(flags) - n, "%sk", n ? "|" : "");
	if (!n)
		scnprintf(flags, sizeof(flags), "-");

	if (sep) {
		fprintf(fp, "%s%s%u%s%u%s%u%s%#" PRIx64 "%s%#" PRIx64 "%s%u%s%s%s%s%s%s%s%s",
			ts, sep, o->cpu, sep, o->pid, sep, o->tid, sep, acc->ip, sep,
			acc->addr, sep, acc->size, sep, op, sep,
			fa_source__name(o->source), sep, flags, sep,
			o->sym ? o->sym->name : "[unknown]");
	} else {
		fprintf(fp, "%16s %4u %7u %7u %18" PRIx64 " %18" PRIx64 " %4u %-8s %-3s %-10s %s",
			ts, o->cpu, o->pid, o->tid, acc->ip, acc->addr, acc->size,
			op, fa_source__name(o->source), flags,
			o->sym ? o->sym->name : "[unknown]");
	}
	if (drop)
		fprintf(fp, "%s%s", sep ?: " # ", drop);
	else
		fa_attr_last__fprintf(last, sep, fp);
	fputc('\n', fp);
}

static void perf_affinity__dump_header(struct perf_affinity *aff, FILE *fp)
{
	if (aff->field_sep)
		return;
	fprintf(fp, "# %14s %4s %7s %7s %18s %18s %4s %-8s %-3s %-10s %s %s\n", "time", "cpu",
		"pid", "tid", "ip", "addr", "size", "op", "src", "flags", "symbol",
		"type.field[base] or # why not");
}

/* --time and --cpu */
static bool perf_affinity__skip_sample(struct perf_affinity *aff, struct perf_sample *sample)
{
	if ((aff->ptime_range &&
	     perf_time__ranges_skip_sample(aff->ptime_range, aff->range_num, sample->time)) ||
	    (aff->cpu_list && (sample->cpu >= MAX_NR_CPUS ||
			       !test_bit(sample->cpu, aff->cpu_bitmap)))) {
		aff->nr_filtered++;
		return true;
	}
	return false;
}

/*
 * A sample's time, after those of the recordings read before: the first
 * sample of each begins AFFINITY_REC_GAP_NS after the last one's
 */
static void perf_affinity__offset(struct perf_affinity *aff, struct perf_sample *sample)
{
	if (!aff->rec_begun) {
		aff->rec_begun = true;
		aff->time_offset = 0;
		if (aff->time_end && sample->time < aff->time_end + AFFINITY_REC_GAP_NS)
			aff->time_offset = aff->time_end + AFFINITY_REC_GAP_NS - sample->time;
	}
	sample->time += aff->time_offset;
	aff->time_end = max(aff->time_end, sample->time);
}

static int process_sample_event(const struct perf_tool *tool,
				union perf_event *event __maybe_unused,
				struct perf_sample *sample, struct evsel *evsel,
				struct machine *machine)
{
	struct perf_affinity *aff = container_of(tool, struct perf_affinity, tool);
	struct fa_access acc[FA_DECODE_MAX_ACC];
	struct addr_location none, *al;
	struct fa_origin origin;
	int n;

	if (perf_affinity__skip_sample(aff, sample))
		return 0;
	perf_affinity__offset(aff, sample);
	/* the resolver's: not to be exited */
	al = resolve_cache__resolve(&aff->resolver, machine, sample);
	if (!al) {
		pr_debug("problem processing sample at %#" PRIx64 ", skipping it\n", sample->ip);
		addr_location__init(&none);
		al = &none;
	}
	/* --comms, --pid, --tid, --dsos */
	if (al->filtered) {
		aff->nr_filtered++;
		return 0;
	}

	n = fa_decoder__decode(&aff->decoder, evsel, sample, al, &origin, acc);
	/* first: the accesses are marked with the sampled function */
	if (fa_attr__add_code(&aff->attr, &origin))
		return -ENOMEM;
	if (aff->dump_raw && !n && aff->decoder.last_drop != FA_DROP_NONE)
		fa_access__fprintf(&acc[0], aff->field_sep,
				   fa_drop__name(aff->decoder.last_drop), NULL, stdout);
	for (int i = 0; i < n; i++) {
		int err = fa_attr__add(&aff->attr, &acc[i]);

		if (err)
			return err;
		if (aff->dump_raw)
			fa_access__fprintf(&acc[i], aff->field_sep, /*drop=*/NULL,
					   &aff->attr.last, stdout);
	}
	return 0;
}

static int process_feature_event(struct perf_session *session, union perf_event *event)
{
	/* HEADER_LAST_FEATURE only marks the end of the features in a pipe */
	if (event->feat.feat_id < HEADER_LAST_FEATURE)
		return perf_event__process_feature(session, event);
	return 0;
}

/* The L1 data cache line size of the machine that recorded */
static u32 perf_env__l1d_line_size(struct perf_env *env)
{
	for (int i = 0; i < env->caches_cnt; i++) {
		struct cpu_cache_level *c = &env->caches[i];

		if (c->level == 1 && c->type && strcmp(c->type, "Instruction"))
			return c->line_size;
	}
	return 0;
}

/* Several recordings: each one's machine and samples, numbered as threads name them */
static void perf_affinity__print_recordings(struct perf_affinity *aff, FILE *fp)
{
	fprintf(fp, "# recordings: %d, read in this order (thread 1201@2: of the second)\n",
		aff->nr_recs);
	for (int i = 0; i < aff->nr_recs; i++) {
		struct perf_env *env = &aff->recs[i].session->header.env;

		fprintf(fp, "#   %d: %s, recorded on %s (%s), %d CPUs\n", i + 1, aff->recs[i].path,
			env->hostname ?: "?", env->arch ?: "?", env->nr_cpus_avail);
	}
}

static void perf_affinity__print_header(struct perf_affinity *aff, struct perf_session *session,
					FILE *fp)
{
	struct perf_env *env = &session->header.env;
	u32 line = perf_env__l1d_line_size(env);

	fprintf(fp, "# perf affinity report\n");
	if (aff->nr_recs > 1)
		perf_affinity__print_recordings(aff, fp);
	else
		fprintf(fp, "# recorded on: %s (%s), %d CPUs\n", env->hostname ?: "?",
			env->arch ?: "?", env->nr_cpus_avail);
	fprintf(fp, "# cache line size: %u bytes (%s)\n", aff->cfg.line_size,
		line && line == aff->cfg.line_size ? "recorded" :
		line ? "--cacheline-size, recorded differs" : "not recorded, this machine's");
	if (aff->cfg.window_ns)
		fprintf(fp, "# windows: per %s, %" PRIu64 " ns\n", fa_scope__text(aff->cfg.scope),
			aff->cfg.window_ns);
	else
		fprintf(fp, "# windows: per %s, %d accesses\n", fa_scope__text(aff->cfg.scope),
			aff->cfg.window);
	if (aff->nr_filtered)
		fprintf(fp, "# %" PRIu64 " samples filtered out (%s)\n", aff->nr_filtered,
			"--time, --cpu, --comms, --pid, --tid, --dsos");
	if (aff->place != FA_PLACE_RECORDED)
		fprintf(fp, "# placement: %s, seed %" PRIu64 ": %" PRIu64 " samples re-placed\n",
			fa_place__text(aff->place), aff->place_seed, aff->decoder.placed);
	fprintf(fp, "#\n");
}

/*
 * A percentage option, after parsing, 0 to @max (100, or more for a
 * growth): a bad value is one line, as the others
 */
static int parse_percent_value(const char *opt, const char *str, double max, double *pcnt)
{
	char *end;

	*pcnt = strtod(str, &end);
	if (end != str && *end == '%')
		end++;
	if (end == str || *end || !(*pcnt >= 0 && *pcnt <= max)) {
		pr_err("--%s %s: a percentage, 0 to %g\n", opt, str, max);
		return -EINVAL;
	}
	return 0;
}

static int parse_percent(struct perf_affinity *aff)
{
	if (!aff->percent_str)
		return 0;
	return parse_percent_value("percent-limit", aff->percent_str, 100,
				   &aff->ropts.percent_limit);
}

/* -k and --symfs: a typo would only show as kernel samples not attributed */
static int check_paths(void)
{
	char sbuf[STRERR_BUFSIZE];
	struct stat st;
	int err;

	/* with --symfs, -k is in it */
	if (symbol_conf.vmlinux_name && !*symbol_conf.symfs &&
	    access(symbol_conf.vmlinux_name, R_OK)) {
		err = errno;
		pr_err("-k %s: %s\n", symbol_conf.vmlinux_name,
		       str_error_r(err, sbuf, sizeof(sbuf)));
		return -err;
	}
	if (symbol_conf.symfs && *symbol_conf.symfs &&
	    (stat(symbol_conf.symfs, &st) || !S_ISDIR(st.st_mode))) {
		pr_err("--symfs %s: not a directory\n", symbol_conf.symfs);
		return -ENOTDIR;
	}
	return 0;
}

/* --cacheline-size @line: what a machine may have, or an error */
static int check_line_size(u32 line)
{
	if (line < FA_LINE_MIN || line > FA_LINE_MAX || line & (line - 1)) {
		pr_err("--cacheline-size %u: a power of two, %u to %u bytes\n", line,
		       FA_LINE_MIN, FA_LINE_MAX);
		return -EINVAL;
	}
	return 0;
}

/*
 * Values the options take that are not theirs to take: 0 for "not given"
 * would hide a typo behind the default.
 */
static int parse_values(struct perf_affinity *aff)
{
	u32 line = aff->cfg.line_size;

	if (line == FA_LINE_UNSET)
		aff->cfg.line_size = 0;
	else if (check_line_size(line))
		return -EINVAL;
	if (aff->cfg.window_ns == FA_WINDOW_NS_UNSET) {
		aff->cfg.window_ns = 0;
	} else if (!aff->cfg.window_ns) {
		pr_err("--window-ns 0: a window lasts at least 1 ns\n");
		return -EINVAL;
	}
	if (aff->types && !aff->types[strspn(aff->types, ", ")]) {
		pr_err("-T '%s': no struct type given\n", aff->types);
		return -EINVAL;
	}
	if (aff->table && strcmp(aff->table, "struct") && strcmp(aff->table, "fields")) {
		pr_err("--table %s: use struct or fields\n", aff->table);
		return -EINVAL;
	}
	if (aff->table && !aff->field_sep) {
		pr_err("--table %s: picks the table -x prints; --stdio prints them all\n",
		       aff->table);
		return -EINVAL;
	}
	if (aff->field_sep && !*aff->field_sep) {
		pr_err("-x '': give the separator of the columns, e.g. -x ,\n");
		return -EINVAL;
	}
	if (aff->threads != AFFINITY_THREADS_UNSET &&
	    (aff->threads < 1 || aff->threads > FA_WORKERS_MAX + 1)) {
		pr_err("--threads %d: 1 to %d, the main thread and its workers\n", aff->threads,
		       FA_WORKERS_MAX + 1);
		return -EINVAL;
	}
	return parse_percent(aff) ?: check_paths();
}

static int parse_method(struct perf_affinity *aff)
{
	aff->place = aff->place_str ? fa_place__parse(aff->place_str, &aff->place_seed) :
		     FA_PLACE_RECORDED;
	if (aff->place < 0) {
		pr_err("--placement %s: use recorded, one or later, and a seed after a colon\n",
		       aff->place_str);
		return -EINVAL;
	}
	aff->method = aff->method_str ? fa_method__parse(aff->method_str) : FA_METHOD_AUTO;
	if (aff->method < 0) {
		pr_err("--method %s: use auto, window or code\n", aff->method_str);
		return -EINVAL;
	}
	if (aff->ropts.sort_keys && fa_hists__check_keys("--sort", aff->ropts.sort_keys))
		return -EINVAL;
	if (aff->ropts.fields && fa_hists__check_keys("-F", aff->ropts.fields))
		return -EINVAL;
	if (fa_keep_opts__check(&aff->ropts.keep))
		return -EINVAL;
	aff->cfg.scope = aff->scope_str ? fa_scope__parse(aff->scope_str) : FA_SCOPE_CPU;
	if (aff->cfg.scope < 0) {
		pr_err("--scope %s: use cpu, thread or instance\n", aff->scope_str);
		return -EINVAL;
	}
	if (aff->cfg.window < 2 || aff->cfg.window > FA_MAX_WINDOW) {
		pr_err("--window %d: a window has 2 to %d accesses\n", aff->cfg.window,
		       FA_MAX_WINDOW);
		return -EINVAL;
	}
	return 0;
}

/* --cpu and --time need the session: its CPUs and its time span */
static int perf_affinity__filters(struct perf_affinity *aff, struct perf_session *session)
{
	int size;

	if (aff->cpu_list &&
	    perf_session__cpu_bitmap(session, aff->cpu_list, aff->cpu_bitmap))
		return -EINVAL;
	if (aff->time_str &&
	    perf_time__parse_for_ranges(aff->time_str, session, &aff->ptime_range, &size,
					&aff->range_num) < 0)
		return -EINVAL;
	return 0;
}

/*
 * perf's stdio has no progress bar; the report prints nothing until the
 * samples are processed, so show how far it is on a terminal's stderr.
 */
static void stdio_progress__update(struct ui_progress *p)
{
	if (p->total)
		fprintf(stderr, "\r%s %3d%%", p->title, (int)(100 * p->curr / p->total));
}

static void stdio_progress__finish(void)
{
	/* clear the line, for the output that follows */
	fprintf(stderr, "\r\033[K");
}

static struct ui_progress_ops stdio_progress__ops = {
	.update = stdio_progress__update,
	.finish = stdio_progress__finish,
};

/* What the recording says, unless the user said otherwise */
static int perf_affinity__config(struct perf_affinity *aff, struct perf_session *session)
{
	struct perf_env *env = &session->header.env;
	u32 recorded = perf_env__l1d_line_size(env);

	if (!aff->cfg.line_size)
		aff->cfg.line_size = recorded;
	if (!aff->cfg.line_size) {
		aff->cfg.line_size = cacheline_size();
		aff->line_size_guessed = true;
	}
	/* a corrupt header: --cacheline-size was checked when parsed */
	if (aff->cfg.line_size < FA_LINE_MIN || aff->cfg.line_size > FA_LINE_MAX ||
	    aff->cfg.line_size & (aff->cfg.line_size - 1)) {
		pr_err("recorded cache line size %u is not a power of two, %u to %u: use --cacheline-size\n",
		       aff->cfg.line_size, FA_LINE_MIN, FA_LINE_MAX);
		return -EINVAL;
	}
	/* every field has CPU sets of that many bits, walked for each table */
	if (env->nr_cpus_avail > FA_MAX_CPUS) {
		pr_err("%s: the header says %d CPUs, more than perf affinity handles (%d): corrupt?\n",
		       session->data->path, env->nr_cpus_avail, FA_MAX_CPUS);
		return -EINVAL;
	}
	aff->cfg.nr_cpus = env->nr_cpus_avail > 0 ? env->nr_cpus_avail : 4096;
	return 0;
}

/* Once the samples are read: a file that cannot be is one line of error */
static void perf_affinity__warn_line_size(struct perf_affinity *aff)
{
	if (aff->line_size_guessed)
		pr_warning("perf affinity: no cache line size recorded, using this machine's: %u\n",
			   aff->cfg.line_size);
}

/* Analyze every struct type that has accesses, with progress */
/* What growing type @i costs the types that embed an array of it */
static void perf_affinity__embedder(struct fa_attr *a, int i, struct fa_analysis *an)
{
	const struct fa_type_entry *outer = NULL;
	int f = fa_types__embedder(a->s->types, a->s->nr_types, a->s->types[i], &outer);

	if (f >= 0) {
		an->seen.embed_type = outer->name;
		an->seen.embed_field = &outer->st->fields[f];
	}
}

/* Every member --keep and --keep-order name is in a reported type */
static int perf_affinity__check_keep(struct perf_affinity *aff)
{
	struct fa_attr *a = &aff->attr;
	const struct fa_struct **sts = calloc(a->s->nr_types ?: 1, sizeof(*sts));
	int nr = 0, err;

	if (!sts)
		return -ENOMEM;
	for (int i = 0; i < a->s->nr_types; i++) {
		if (a->s->types[i]->t)
			sts[nr++] = a->s->types[i]->st;
	}
	err = fa_keep_opts__check_names(&aff->ropts.keep, sts, nr);
	free(sts);
	return err;
}

/* Score --try @text for the type @i if it has the members the text names: 1 if so */
static int perf_affinity__try_type(struct perf_affinity *aff, struct fa_analysis *an, int i,
				   const char *text, char *msg, size_t size)
{
	struct fa_type_entry *te = aff->attr.s->types[i];
	struct fa_try *tries, tr;
	int err = fa_try__parse(&tr, te->st, &an->seen.current, text, msg, size);

	if (err == -ENOENT)
		return 0;
	if (!err)
		err = fa_try__score(&tr, te->t, an);
	if (err == -EINVAL)
		scnprintf(msg, size, "%s is not laid out as its members say (packed?): no edit of it can be scored",
			  fa_struct__printed_name(te->st));
	if (err)
		goto out_exit;
	tries = realloc(an->tries, (an->nr_tries + 1) * sizeof(*tries));
	err = -ENOMEM;
	if (!tries)
		goto out_exit;
	an->tries = tries;
	an->tries[an->nr_tries++] = tr;
	return 1;
out_exit:
	fa_try__exit(&tr);
	return err;
}

/* --try: every layout in the types that have the members it names */
static int perf_affinity__tries(struct perf_affinity *aff, struct fa_analysis *an)
{
	struct fa_attr *a = &aff->attr;
	char msg[512];

	for (int k = 0; k < aff->nr_tries; k++) {
		int found = 0, err = 0;

		msg[0] = '\0';
		for (int i = 0; err >= 0 && i < a->s->nr_types; i++) {
			if (a->s->types[i]->t)
				err = perf_affinity__try_type(aff, &an[i], i, aff->tries[k], msg,
							      sizeof(msg));
			found += err > 0;
		}
		if (err < 0 || !found) {
			pr_err("--try '%s': %s\n", aff->tries[k],
			       err < 0 || msg[0] ? msg : "no struct reported");
			return err < 0 && err != -EINVAL ? err : -ENOENT;
		}
	}
	return 0;
}

static int perf_affinity__analyze(struct perf_affinity *aff, struct fa_analysis *an, u64 *total)
{
	struct fa_attr *a = &aff->attr;
	struct ui_progress prog;
	int err = 0;

	*total = 0;
	if (aff->method != FA_METHOD_WINDOW)
		err = fa_attr__code_context(a, &aff->decoder);
	/* the accumulation ends: the analyses only read the types */
	for (int i = 0; !err && i < a->s->nr_types; i++) {
		if (a->s->types[i]->t)
			fa_type__flush(a->s->types[i]->t);
	}
	if (!aff->system_types)
		fa_attr__drop_system(a);
	fa_attr__dl_srclines(a);
	ui_progress__init(&prog, a->s->nr_types, "Analyzing struct types...");
	for (int i = 0; !err && i < a->s->nr_types; i++) {
		if (a->s->types[i]->t) {
			err = fa_analysis__run(&an[i], a->s->types[i]->t, aff->method,
					       aff->ropts.xfer_cost, &aff->ropts.keep);
			*total += a->s->types[i]->t->counts.nr_accesses;
			perf_affinity__embedder(a, i, &an[i]);
		}
		ui_progress__update(&prog, 1);
	}
	ui_progress__finish();
	if (!err && (aff->ropts.keep.keep || aff->ropts.keep.keep_order))
		err = perf_affinity__check_keep(aff);
	if (!err && aff->nr_tries)
		err = perf_affinity__tries(aff, an);
	return err;
}

/* --heatmap: a file named *.html or *.htm gets an HTML page, others SVG */
static bool perf_affinity__html(const char *name)
{
	const char *dot = name ? strrchr(name, '.') : NULL;

	return dot && (!strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm"));
}

/* --json and --heatmap: '-' is standard output, instead of the stdio report */
static int perf_affinity__open_output(FILE **fp, const char *name, const char *opt)
{
	char sbuf[STRERR_BUFSIZE];
	int err;

	if (!name)
		return 0;
	*fp = strcmp(name, "-") ? fopen(name, "w") : stdout;
	if (*fp)
		return 0;
	err = errno;
	pr_err("--%s %s: %s\n", opt, name, str_error_r(err, sbuf, sizeof(sbuf)));
	return -err;
}

/* Before the samples are read: a wrong path must not cost a long report first */
static int perf_affinity__open_outputs(struct perf_affinity *aff)
{
	if (aff->json_name && aff->heatmap_name && !strcmp(aff->json_name, "-") &&
	    !strcmp(aff->heatmap_name, "-")) {
		pr_err("--json and --heatmap cannot both go to standard output\n");
		return -EINVAL;
	}
	if ((aff->json_name || aff->heatmap_name) && aff->dump_raw && !aff->stats_only) {
		pr_err("--dump-raw-accesses makes no report for --json or --heatmap\n");
		return -EINVAL;
	}
	return perf_affinity__open_output(&aff->json_fp, aff->json_name, "json") ?:
	       perf_affinity__open_output(&aff->heatmap_fp, aff->heatmap_name, "heatmap");
}

/* Close them, or on @err remove them: half a document is worse than none */
static int perf_affinity__close_output(FILE **fp, const char *name, int err)
{
	char sbuf[STRERR_BUFSIZE];

	if (!*fp || *fp == stdout)
		return err;
	if ((ferror(*fp) | fclose(*fp)) && !err) {
		err = -EIO;
		pr_err("%s: %s\n", name, str_error_r(errno ?: EIO, sbuf, sizeof(sbuf)));
	}
	*fp = NULL;
	if (err)
		unlink(name);
	return err;
}

static int perf_affinity__close_outputs(struct perf_affinity *aff, int err)
{
	err = perf_affinity__close_output(&aff->json_fp, aff->json_name, err);
	return perf_affinity__close_output(&aff->heatmap_fp, aff->heatmap_name, err);
}

static int perf_affinity__write_outputs(struct perf_affinity *aff, struct perf_session *session,
					struct fa_hists *fh)
{
	struct perf_env *env = &session->header.env;
	u32 recorded = perf_env__l1d_line_size(env);
	struct fa_json_header h = {
		.hostname		= env->hostname,
		.arch			= env->arch,
		.perf_version		= perf_version_string,
		.nr_cpus		= env->nr_cpus_avail,
		.recorded_line_size	= recorded,
		.line_size_source	= recorded == aff->cfg.line_size ? "recorded" :
					  !recorded && aff->cfg.line_size == (u32)cacheline_size() ?
					  "this-machine" : "option",
		.method			= aff->method,
		.types			= aff->types,
		.decode			= &aff->decoder.stats,
	};
	struct fa_json_recording recs[AFFINITY_INPUTS_MAX];

	for (int i = 0; aff->recs && i < aff->nr_recs; i++) {
		env = &aff->recs[i].session->header.env;
		recs[i] = (struct fa_json_recording){
			.path = aff->recs[i].path, .hostname = env->hostname, .arch = env->arch,
			.nr_cpus = env->nr_cpus_avail,
		};
	}
	h.recordings = recs;
	h.nr_recordings = aff->recs ? aff->nr_recs : 0;
	if (aff->json_fp && !fa_json__fprintf(aff->json_fp, &h, &aff->attr, fh, &aff->ropts))
		return -ENOMEM;
	if (aff->heatmap_fp && !fa_heatmap__fprintf(aff->heatmap_fp, fh, &aff->session, &aff->ropts,
						    perf_affinity__html(aff->heatmap_name)))
		return -ENOMEM;
	return 0;
}

/*
 * An error (or with @warn a warning) once the TUI may be up: pr_err() would
 * only flash on its help line before the screen is restored, ui__error()
 * waits for a key there.  On stdio, one line.
 */
static void __printf(2, 3) report_error(bool warn, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (use_browser > 0 && warn)
		ui__warning("%s", msg);
	else if (use_browser > 0)
		ui__error("%s", msg);
	else if (warn)
		pr_warning("%s", msg);
	else
		pr_err("%s", msg);
}

/* The registers software address sampling recorded: "ip,sp" */
static void perf_affinity__sampled_regs(struct perf_session *session, char *buf, size_t size)
{
	const char *arch = perf_env__arch(&session->header.env);
	struct evsel *evsel;
	u64 mask = 0;
	int len = 0;

	evlist__for_each_entry(session->evlist, evsel) {
		struct perf_event_attr *attr = &evsel->core.attr;

		if (fa_evsel__source(evsel) == FA_SRC_SW)
			mask |= attr->sample_regs_user | attr->sample_regs_intr;
	}
	buf[0] = '\0';
	for (int r = 0; r < 64; r++) {
		if (mask & (1ULL << r))
			len += scnprintf(buf + len, size - len, "%s%s", len ? "," : "",
					 perf_reg_name(r, arch));
	}
	for (int i = 0; i < len; i++)
		buf[i] = tolower(buf[i]);
}

/*
 * Most accesses were to code without symbols or debug info: nothing could
 * be named, which is no proof that nothing is shared
 */
static bool perf_affinity__unnamed(const struct perf_affinity *aff)
{
	const struct fa_attr_stats *as = &aff->attr.stats;
	u64 unnamed = as->failed[FA_ATTR_NO_SYM] + as->failed[FA_ATTR_NO_DBGINFO] +
		      aff->decoder.stats.dropped[FA_DROP_NO_SYM];

	return unnamed * 2 >= as->accesses;
}

/*
 * As many samples lost to what the recording lacks (registers, code, the
 * binary recorded) as gave an access: the few accesses decoded prove
 * nothing of the rest
 */
static bool perf_affinity__undecoded(const struct perf_affinity *aff)
{
	const u64 *drop = aff->decoder.stats.dropped;
	u64 lost = drop[FA_DROP_NO_REGS] + drop[FA_DROP_NO_REG] + drop[FA_DROP_NO_MAP] +
		   drop[FA_DROP_NO_CODE] + drop[FA_DROP_CHANGED];

	return lost >= aff->attr.stats.accesses;
}

/*
 * A recording of other events gives no report: say what would.  One where
 * nothing could be attributed gives an empty one: say why instead, and
 * when almost nothing could, say it too.
 */
static int perf_affinity__check_input(struct perf_affinity *aff, struct perf_session *session,
				      const char *path)
{
	const struct fa_decode_stats *st = &aff->decoder.stats;
	const struct fa_attr_stats *as = &aff->attr.stats;
	char regs[256], why[512];

	if (!fa_decode_stats__samples(st) && !aff->nr_filtered && !st->other) {
		report_error(false, "%s has no samples: %s\n", path,
			     "record longer, or with a smaller --sw-period");
		return -ENODATA;
	}
	if (!fa_decode_stats__samples(st) && !aff->nr_filtered) {
		report_error(false, "%s has no memory access samples (%" PRIu64 " %s): %s\n",
			     path, st->other,
			     "of events without registers or data addresses",
			     "record it with 'perf affinity record'");
		return -EINVAL;
	}
	/* filters say why themselves: "No sample is left", -T */
	if (!fa_decode_stats__samples(st) || as->failed[FA_ATTR_FILTERED])
		return 0;
	perf_affinity__sampled_regs(session, regs, sizeof(regs));
	if (!fa_report__why(&aff->decoder, &aff->attr, regs, why, sizeof(why)))
		return 0;
	/* lines threads share are worth a report, typed or not */
	if (!as->resolved && !aff->session.dlines.nr_shared &&
	    fa_keymap__size(&aff->session.dlines.lines) && !perf_affinity__unnamed(aff) &&
	    !perf_affinity__undecoded(aff)) {
		report_error(true, "%s: nothing shared: none of the %zu data lines accessed moved between threads, and no access is to a struct field\n",
			     path, (size_t)fa_keymap__size(&aff->session.dlines.lines));
		return 0;
	}
	if (!as->resolved && !aff->session.dlines.nr_shared) {
		report_error(false, "%s: no access attributed to a struct field: %s\n",
			     path, why);
		return -ENODATA;
	}
	report_error(true, "%s: only %" PRIu64 " of %" PRIu64 " samples %s: %s\n", path,
		     as->resolved, fa_decode_stats__samples(st),
		     "attributed to a struct field", why);
	return 0;
}

/* The struct table's types, in its order, and what is known of each */
static void perf_affinity__print_types(struct perf_affinity *aff, struct fa_hists *fh)
{
	struct fa_hist_entry *fe;

	fa_hists__for_each_entry(fh, fe)
		fa_report__type(stdout, fe, &aff->ropts);
}

/* -x: one table for a script, its keys first, nothing else on stdout */
static void perf_affinity__print_table(struct perf_affinity *aff, struct fa_hists *fh)
{
	if (aff->table && !strcmp(aff->table, "fields"))
		fa_report__field_tables_sep(stdout, fh, &aff->ropts);
	else
		fa_hists__fprintf(fh, stdout);
}

/* Analyze every struct type, and make the struct table of them */
static int perf_affinity__structs(struct perf_affinity *aff, struct fa_analysis **pan,
				  struct fa_hists *fh, bool *have_fh, u64 *total)
{
	struct fa_attr *a = &aff->attr;
	int err;

	*have_fh = false;
	*pan = calloc(a->s->nr_types + 1, sizeof(**pan));
	if (!*pan)
		return -ENOMEM;
	err = perf_affinity__analyze(aff, *pan, total);
	if (err)
		return err;
	if (aff->types && !*total && a->stats.accesses && !aff->stats_only) {
		report_error(false, "-T %s: %s, see --stats\n", aff->types,
			     "no access to such a struct type was attributed");
		return -ENOENT;
	}
	*have_fh = true;
	return fa_hists__structs(fh, a->s, *pan, &aff->ropts);
}

static void perf_affinity__structs_exit(struct perf_affinity *aff, struct fa_analysis *an,
					struct fa_hists *fh, bool have_fh)
{
	struct fa_attr *a = &aff->attr;

	if (have_fh)
		fa_hists__exit(fh);
	for (int i = 0; an && i < a->s->nr_types; i++) {
		if (a->s->types[i]->t)
			fa_analysis__exit(&an[i]);
	}
	free(an);
}

/* Analyze and print every struct type */
static int perf_affinity__output(struct perf_affinity *aff, struct perf_session *session)
{
	struct fa_attr *a = &aff->attr;
	struct fa_analysis *an;
	struct fa_hists fh;
	bool have_fh;
	u64 total;
	int err;

	err = perf_affinity__structs(aff, &an, &fh, &have_fh, &total);
	if (err)
		goto out;
	err = perf_affinity__write_outputs(aff, session, &fh);
	if (err || aff->json_fp == stdout || aff->heatmap_fp == stdout)
		goto out;
	if (use_browser == 1) {
		err = fa_report__browse(&fh, a->s, &aff->ropts);
		goto out;
	}
	/* only now: the progress of the analysis is on stderr */
	setup_pager();
	if (!aff->field_sep || aff->stats_only)
		perf_affinity__print_header(aff, session, stdout);
	if (aff->stats_only) {
		fa_decode_stats__fprintf(&aff->decoder.stats, stdout);
		fa_attr_stats__fprintf(&a->stats, stdout);
		if (verbose > 0)
			fa_attr__fprintf_fail_sites(a, 20, stdout);
		goto out;
	}
	if (aff->field_sep) {
		perf_affinity__print_table(aff, &fh);
		if (!total)
			pr_err("No access was attributed to a struct field: see perf affinity report --stats\n");
		goto out;
	}
	fa_report__summary(stdout, &aff->decoder.stats, a);
	fa_report__struct_table(stdout, &fh, &aff->ropts);
	perf_affinity__print_types(aff, &fh);
	fa_report__arrays(stdout, a->s);
	fa_report__data_lines(stdout, a);
	if (!total && aff->nr_filtered && !aff->attr.stats.accesses)
		printf("\nNo sample is left after filtering\n");
	else if (!total && a->stats.system)
		printf("\nNo struct type is left: --system-types reports system libraries' ones\n");
	else if (!total)
		printf("\nNo access was attributed to a struct field: see perf affinity report --stats\n");
out:
	perf_affinity__structs_exit(aff, an, &fh, have_fh);
	return err;
}

/*
 * Events that change threads or maps: what the resolver and the data
 * address ranges hold of them may be stale after them, and the data lines
 * are named with them as they were before (fa_attr__sync_lines()).
 */
#define FA_FLUSHING_TOOL(name)							\
static int perf_affinity__##name(const struct perf_tool *tool, union perf_event *event,	\
				 struct perf_sample *sample, struct machine *machine)	\
{										\
	struct perf_affinity *aff = container_of(tool, struct perf_affinity, tool);	\
										\
	int err = fa_attr__sync_lines(&aff->attr);				\
										\
	resolve_cache__flush(&aff->resolver);					\
	fa_attr__flush_ranges(&aff->attr);					\
	return err ?: perf_event__process_##name(tool, event, sample, machine);	\
}

FA_FLUSHING_TOOL(mmap)
FA_FLUSHING_TOOL(mmap2)
FA_FLUSHING_TOOL(comm)
FA_FLUSHING_TOOL(fork)
FA_FLUSHING_TOOL(exit)
FA_FLUSHING_TOOL(namespaces)

static void perf_affinity__tool_init(struct perf_affinity *aff)
{
	perf_tool__init(&aff->tool, /*ordered_events=*/true);
	aff->tool.sample	= process_sample_event;
	aff->tool.mmap		= perf_affinity__mmap;
	aff->tool.mmap2		= perf_affinity__mmap2;
	aff->tool.comm		= perf_affinity__comm;
	aff->tool.fork		= perf_affinity__fork;
	aff->tool.exit		= perf_affinity__exit;
	aff->tool.namespaces	= perf_affinity__namespaces;
	aff->tool.lost		= perf_event__process_lost;
	/* pipe input */
	aff->tool.attr		= perf_event__process_attr;
	aff->tool.feature	= process_feature_event;
#ifdef HAVE_LIBTRACEEVENT
	aff->tool.tracing_data	= perf_event__process_tracing_data;
#endif
	aff->tool.build_id	= perf_event__process_build_id;
	aff->tool.event_update	= perf_event__process_event_update;
	aff->tool.ordering_requires_timestamps = true;
}

/*
 * The TUI by default on a terminal, as perf c2c report; output made to be
 * read by scripts or counted (--stats, -x, raw accesses) stays stdio.
 */
static void perf_affinity__setup_browser(struct perf_affinity *aff)
{
	bool to_stdout = (aff->json_name && !strcmp(aff->json_name, "-")) ||
			 (aff->heatmap_name && !strcmp(aff->heatmap_name, "-"));

	if (aff->use_stdio || aff->stats_only || aff->dump_raw || aff->field_sep || to_stdout) {
		use_browser = 0;
	} else if (aff->use_tui) {
#ifndef HAVE_SLANG_SUPPORT
		pr_warning("--tui: perf is built without slang, the report is on stdio\n");
#endif
		use_browser = 1;
	}
	setup_browser(/*fallback_to_pager=*/false);
}

/*
 * Whether the perf.data file @path ends before the data section its header
 * gives (a copy cut short, a disk that filled): where both end, if so
 */
static bool perf_data__truncated(const char *path, u64 *data_end, u64 *file_end)
{
	struct perf_file_header h;
	bool cut = false;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return false;
	/* a header perf record wrote: its size, its data section begun in the file */
	if (fstat(fd, &st) == 0 && read(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	    !memcmp(&h.magic, "PERFILE2", sizeof(h.magic)) && h.size == sizeof(h) &&
	    h.data.offset >= sizeof(h) && h.data.offset <= (u64)st.st_size &&
	    h.data.size <= UINT64_MAX - h.data.offset) {
		*data_end = h.data.offset + h.data.size;
		*file_end = st.st_size;
		cut = *data_end > *file_end;
	}
	close(fd);
	return cut;
}

/*
 * Why @path is no perf.data to report, in one line: perf's session code
 * says it in two or three, which -v still shows.  Return: the error to
 * exit with, @err or one that says it better
 */
static int perf_affinity__input_error(const char *path, bool force, int err)
{
	u64 data_end, file_end;
	char sbuf[STRERR_BUFSIZE], data[PATH_MAX];
	struct stat st;

	if (!strcmp(path, "-")) {
		pr_err("standard input: not a perf.data stream, or a corrupt one%s\n",
		       verbose > 0 ? "" : " (rerun with -v to learn more)");
	} else if (stat(path, &st) < 0) {
		pr_err("%s: %s\n", path, str_error_r(errno, sbuf, sizeof(sbuf)));
	} else if (S_ISDIR(st.st_mode) &&
		   (snprintf(data, sizeof(data), "%s/data", path) >= (int)sizeof(data) ||
		    access(data, F_OK))) {
		pr_err("%s: a directory, and not one 'perf record' wrote (no %s/data)\n",
		       path, path);
	} else if (!S_ISDIR(st.st_mode) && !st.st_size) {
		pr_err("%s: empty file, nothing to report\n", path);
	} else if (!force && st.st_uid && st.st_uid != geteuid()) {
		pr_err("%s: not owned by you or root (use -f to override)\n", path);
	} else if (!S_ISDIR(st.st_mode) && perf_data__truncated(path, &data_end, &file_end)) {
		pr_err("%s: truncated: its events end at byte %" PRIu64 ", the file at %" PRIu64 "\n",
		       path, data_end, file_end);
		return -EINVAL;
	} else if (err == -EINVAL || err == -1) {
		pr_err("%s: not a perf.data file, or a corrupt one%s\n", path,
		       verbose > 0 ? "" : " (rerun with -v to learn more)");
	} else {
		pr_err("%s: %s\n", path, str_error_r(-err, sbuf, sizeof(sbuf)));
	}
	return err;
}

/* Quiet perf's own messages unless -v asks for them, for one line of ours */
static int perf_affinity__quiet(void)
{
	int old = verbose;

	if (!verbose)
		verbose = -1;
	return old;
}

/* What report, check and diff analyze with unless told otherwise */
static void perf_affinity__defaults(struct perf_affinity *aff)
{
	aff->cfg.window = 8;
	aff->cfg.xfer_ns = 10000000;
	aff->cfg.replay_max = 1 << 20;
	aff->ropts.top_pairs = 10;
	aff->ropts.percent_limit = 1;
	aff->ropts.xfer_cost = FA_XFER_COST;
	aff->cfg.line_size = FA_LINE_UNSET;
	aff->cfg.window_ns = FA_WINDOW_NS_UNSET;
	aff->worker = true;
	aff->threads = AFFINITY_THREADS_UNSET;
}

/* Once per command, before the first session: symbols get room for annotations */
static int perf_affinity__annotate_init(void)
{
	annotation_options__init();
	annotate_opts.annotate_src = false;
	/* the members of the types it finds: perf affinity's fields are built on them */
	symbol_conf.annotate_data_member = true;
	if (symbol__annotation_init() < 0)
		return -ENOMEM;
	annotation_config__init();
	return 0;
}

/* A recording's session: why it cannot be read in one line */
static int perf_affinity__session(struct perf_affinity *aff, struct perf_data *data,
				  struct perf_session **psession)
{
	struct perf_session *session;
	int old_verbose = perf_affinity__quiet();

	session = perf_session__new(data, &aff->tool);
	verbose = old_verbose;
	if (IS_ERR(session))
		return perf_affinity__input_error(data->path, data->force, PTR_ERR(session));
	*psession = session;
	return min(symbol__init(&session->header.env), 0);
}

/* The report's pipeline, begun with the first recording: decoder and accumulators */
static int perf_affinity__begin(struct perf_affinity *aff, struct perf_session *session)
{
	int err = perf_affinity__filters(aff, session) ?:
		  fa_decoder__init(&aff->decoder, &session->header.env, &session->machines.host) ?:
		  fa_session__init(&aff->session, &aff->cfg, aff->types) ?:
		  fa_attr__init(&aff->attr, &aff->session) ?:
		  resolve_cache__init(&aff->resolver);

	if (err)
		return err;
	aff->decoder.no_skid = aff->no_skid;
	aff->decoder.place = aff->place;
	aff->decoder.place_seed = aff->place_seed;
	aff->attr.code_context = aff->method != FA_METHOD_WINDOW;
	aff->attr.dec = &aff->decoder;
	return 0;
}

/* A recording, opened for the report's pipeline: its session and decoder */
static int perf_affinity__open(struct perf_affinity *aff, struct perf_data *data,
			       struct perf_session **psession)
{
	perf_affinity__tool_init(aff);
	return perf_affinity__session(aff, data, psession) ?:
	       perf_affinity__config(aff, *psession) ?: perf_affinity__begin(aff, *psession);
}

/* Below this, the threads' start and handovers cost more than they save */
#define AFFINITY_THREADS_MIN_BYTES	(16 << 20)

/*
 * The threads to read @session with, the main one included: --threads, else
 * a worker for every other CPU perf may run on, one thread for a small file
 * or a machine whose CPUs are busy.  The report is the same for any number.
 */
static int perf_affinity__threads(struct perf_affinity *aff, struct perf_session *session)
{
	int workers = fa_workers__default();
	double load;
	u64 size = perf_data__size(session->data);

	if (!aff->worker)
		return 1;
	if (aff->threads != AFFINITY_THREADS_UNSET)
		return aff->threads;
	if (workers && size < AFFINITY_THREADS_MIN_BYTES) {
		pr_debug("perf affinity: 1 thread: %s is small (%" PRIu64 " kB)\n",
			 session->data->path, size >> 10);
		return 1;
	}
	if (workers && getloadavg(&load, 1) == 1 && load >= workers + 1) {
		pr_debug("perf affinity: 1 thread: the %d CPUs are busy (load %.1f)\n",
			 workers + 1, load);
		return 1;
	}
	return workers + 1;
}

/* Its samples, attributed: an error in one line */
static int perf_affinity__read(struct perf_affinity *aff, struct perf_session *session)
{
	const char *path = session->data->path;
	int err, wait_err, old_verbose, threads = perf_affinity__threads(aff, session);

	if (threads > 1)
		aff->session.workers = fa_workers__new(threads - 1);
	pr_debug("perf affinity: %d thread%s\n", 1 + fa_workers__nr(aff->session.workers),
		 aff->session.workers ? "s" : "");
	old_verbose = perf_affinity__quiet();
	err = perf_session__process_events(session);
	if (!err)
		fa_attr__flush_pending(&aff->attr);
	/* the types and the data lines are the main thread's again */
	wait_err = fa_workers__delete(aff->session.workers);
	aff->session.workers = NULL;
	fa_attr__name_lines(&aff->attr);
	err = err ?: wait_err;
	verbose = old_verbose;
	if (err == -ERANGE) {
		report_error(false, "%s: a sample of CPU %u, but the header says %d CPUs: corrupt?\n",
			     path, aff->attr.bad_cpu, aff->cfg.nr_cpus);
		return err;
	}
	if (err) {
		report_error(false, "%s: cannot process its events (%s): %s%s\n", path,
			     err == -ENOMEM ? "out of memory" : "bad event",
			     "truncated or corrupt?",
			     verbose > 0 ? "" : " (rerun with -v to learn more)");
		return err;
	}
	return 0;
}

/* What is odd about the samples read, in one line */
static int perf_affinity__read_done(struct perf_affinity *aff, struct perf_session *session,
				    const char *name)
{
	perf_affinity__warn_line_size(aff);
	if (aff->dump_raw || aff->stats_only)
		return 0;
	return perf_affinity__check_input(aff, session, name);
}

/* Its samples, attributed: an error, or what is odd about them, in one line */
static int perf_affinity__process(struct perf_affinity *aff, struct perf_session *session)
{
	return perf_affinity__read(aff, session) ?:
	       perf_affinity__read_done(aff, session, session->data->path);
}

static void perf_affinity__close(struct perf_affinity *aff, struct perf_session *session)
{
	zfree(&aff->ptime_range);
	resolve_cache__exit(&aff->resolver);
	fa_attr__exit(&aff->attr);
	fa_session__exit(&aff->session);
	fa_decoder__exit(&aff->decoder);
	if (session)
		perf_session__delete(session);
}

/*
 * Several recordings in one report: of one workload, to narrow the
 * intervals; of several workloads or machines that share a struct type.
 * Each has its own session (binaries, build IDs, kernel); the accesses of
 * each are another address space and other owners (fa_space__of()), and
 * its samples come after the one before's, a gap apart, so that no window,
 * transfer or replay crosses from one to the other.  They are read in an
 * order of their own (their first sample's time, then size), not the
 * command line's, so that any order gives the same report.
 */

static int parse_input(const struct option *opt, const char *str, int unset)
{
	struct perf_affinity *aff = opt->value;

	if (unset) {
		aff->nr_inputs = 0;
		return 0;
	}
	if (aff->nr_inputs == AFFINITY_INPUTS_MAX) {
		pr_err("-i %s: at most %d recordings in one report\n", str, AFFINITY_INPUTS_MAX);
		return -1;
	}
	aff->inputs[aff->nr_inputs++] = str;
	return 0;
}

static int affinity_input__add(struct perf_affinity *aff, const char *path, char *found)
{
	if (aff->nr_recs == AFFINITY_INPUTS_MAX) {
		pr_err("%s: at most %d recordings in one report\n", path, AFFINITY_INPUTS_MAX);
		free(found);
		return -E2BIG;
	}
	aff->recs[aff->nr_recs].path = found ?: path;
	aff->recs[aff->nr_recs++].found = found;
	return 0;
}

static int affinity__data_file(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 5 && !strcmp(d->d_name + len - 5, ".data");
}

/* A directory perf record did not write: the recordings in it (*.data), by name */
static int affinity_input__add_dir(struct perf_affinity *aff, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, affinity__data_file, alphasort), err = 0;

	if (n < 0) {
		pr_err("%s: %s\n", dir, strerror(errno));
		return -errno;
	}
	if (!n) {
		pr_err("%s: a directory, and not one 'perf record' wrote (no %s/data), nor one of recordings (*.data)\n",
		       dir, dir);
		err = -ENOENT;
	}
	for (int i = 0; i < n; i++) {
		char *path;

		if (!err)
			err = asprintf(&path, "%s/%s", dir, names[i]->d_name) < 0 ? -ENOMEM :
			      affinity_input__add(aff, path, path);
		free(names[i]);
	}
	free(names);
	return err;
}

/* Whether @path is a directory of recordings, not one perf record -o wrote */
static bool affinity__recordings_dir(const char *path)
{
	char data[PATH_MAX];
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode) &&
	       snprintf(data, sizeof(data), "%s/data", path) < (int)sizeof(data) &&
	       access(data, F_OK);
}

/* The recordings -i names, directories of them read */
static int perf_affinity__inputs(struct perf_affinity *aff)
{
	int err = 0;

	if (!aff->nr_inputs)
		aff->inputs[aff->nr_inputs++] = "perf.data";
	aff->recs = calloc(AFFINITY_INPUTS_MAX, sizeof(*aff->recs));
	if (!aff->recs)
		return -ENOMEM;
	for (int i = 0; i < aff->nr_inputs && !err; i++) {
		const char *path = aff->inputs[i];

		if (!strcmp(path, "-") && aff->nr_inputs > 1) {
			pr_err("-i -: a recording from standard input is read alone\n");
			return -EINVAL;
		}
		err = affinity__recordings_dir(path) ? affinity_input__add_dir(aff, path) :
		      affinity_input__add(aff, path, NULL);
	}
	return err;
}

/* The order recordings are read in: theirs, whatever the command line's */
static int affinity_input__cmp(const void *pa, const void *pb)
{
	const struct affinity_input *a = pa, *b = pb;
	const struct evlist *ea = a->session->evlist, *eb = b->session->evlist;
	u64 sa = perf_data__size(a->data), sb = perf_data__size(b->data);

	if (ea->first_sample_time != eb->first_sample_time)
		return ea->first_sample_time < eb->first_sample_time ? -1 : 1;
	if (ea->last_sample_time != eb->last_sample_time)
		return ea->last_sample_time < eb->last_sample_time ? -1 : 1;
	if (sa != sb)
		return sa < sb ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* One cache line size for all the recordings, unless --cacheline-size gives it */
static int perf_affinity__config_all(struct perf_affinity *aff)
{
	bool given = aff->cfg.line_size != 0;
	u32 first = perf_env__l1d_line_size(&aff->recs[0].session->header.env);
	int nr_cpus = 0;

	for (int i = 0; i < aff->nr_recs; i++) {
		struct perf_session *session = aff->recs[i].session;
		u32 line = perf_env__l1d_line_size(&session->header.env);
		int err;

		if (!given && line != first) {
			pr_err("%s: recorded with %u byte cache lines, %s with %u: give --cacheline-size\n",
			       aff->recs[i].path, line, aff->recs[0].path, first);
			return -EINVAL;
		}
		err = perf_affinity__config(aff, session);
		if (err)
			return err;
		nr_cpus = max(nr_cpus, aff->cfg.nr_cpus);
	}
	aff->cfg.nr_cpus = nr_cpus;
	return 0;
}

/* Every recording, opened and ordered, and the pipeline begun with the first */
static int perf_affinity__open_all(struct perf_affinity *aff)
{
	int err = perf_affinity__inputs(aff);

	perf_affinity__tool_init(aff);
	for (int i = 0; i < aff->nr_recs && !err; i++) {
		struct affinity_input *in = &aff->recs[i];

		in->data = zalloc(sizeof(*in->data));
		if (!in->data)
			return -ENOMEM;
		*in->data = (struct perf_data){
			.mode = PERF_DATA_MODE_READ, .path = in->path, .force = aff->force,
		};
		err = perf_affinity__session(aff, in->data, &in->session);
	}
	if (err)
		return err;
	qsort(aff->recs, aff->nr_recs, sizeof(*aff->recs), affinity_input__cmp);
	aff->input_name = aff->recs[0].path;
	err = perf_affinity__config_all(aff) ?: perf_affinity__begin(aff, aff->recs[0].session);
	aff->session.owners.several = aff->nr_recs > 1;
	aff->attr.several = aff->nr_recs > 1;
	aff->session.dlines.several = aff->attr.several;
	aff->session.watched.several = aff->attr.several;
	return err;
}

/* The next recording: its machine, its filters, its samples after the last one's */
static int perf_affinity__next(struct perf_affinity *aff, int rec)
{
	struct perf_session *session = aff->recs[rec].session;

	fa_decoder__recording(&aff->decoder, &session->header.env, &session->machines.host, rec);
	resolve_cache__flush(&aff->resolver);
	fa_attr__flush_ranges(&aff->attr);
	aff->rec_begun = false;
	zfree(&aff->ptime_range);
	return perf_affinity__filters(aff, session);
}

/* Every recording's samples, attributed, in their order */
static int perf_affinity__process_all(struct perf_affinity *aff)
{
	int err = 0;

	for (int i = 0; i < aff->nr_recs && !err; i++)
		err = (i ? perf_affinity__next(aff, i) : 0) ?:
		      perf_affinity__read(aff, aff->recs[i].session);
	if (err)
		return err;
	return perf_affinity__read_done(aff, aff->recs[0].session,
					aff->nr_recs > 1 ? "the recordings" : aff->recs[0].path);
}

static void perf_affinity__close_all(struct perf_affinity *aff)
{
	perf_affinity__close(aff, NULL);
	for (int i = 0; aff->recs && i < aff->nr_recs; i++) {
		if (aff->recs[i].session)
			perf_session__delete(aff->recs[i].session);
		free(aff->recs[i].data);
		free(aff->recs[i].found);
	}
	zfree(&aff->recs);
}

#ifndef HAVE_DWARF_SUPPORT
/* Without libdw there are no data types, fields or layouts: say so, not why a binary has none */
static int perf_affinity__no_dwarf(const char *cmd, const char *why)
{
	pr_err("perf affinity %s: %s, disabled due to missing DWARF support\n", cmd, why);
	return -EOPNOTSUPP;
}
#endif

static int perf_affinity__report(struct perf_affinity *aff, int argc, const char **argv)
{
	const struct option options[] = {
	OPT_CALLBACK('i', "input", aff, "file",
		     "the recording (default perf.data); again for several, or a directory of them",
		     parse_input),
	OPT_BOOLEAN('f', "force", &aff->force, "don't complain, do it"),
	OPT_STRING('T', "type", &aff->types, "struct[,struct...]",
		   "only these struct types ('struct rq' or rq)"),
	OPT_BOOLEAN(0, "system-types", &aff->system_types,
		    "also the types only system libraries' code accesses (libc, ld.so)"),
	OPT_BOOLEAN(0, "stdio", &aff->use_stdio, "use the stdio interface"),
	OPT_BOOLEAN(0, "tui", &aff->use_tui, "use the TUI interface (default on a terminal)"),
	OPT_BOOLEAN(0, "stats", &aff->stats_only,
		    "print the decoding and attribution statistics only"),
	OPT_STRING(0, "method", &aff->method_str, "auto|window|code",
		   "how co-access is found: access windows, or the fields of the sampled code"),
	OPT_STRING(0, "scope", &aff->scope_str, "cpu|thread|instance",
		   "what a window of accesses belongs to (default cpu)"),
	OPT_INTEGER(0, "window", &aff->cfg.window, "accesses in a window (default 8)"),
	OPT_U64(0, "window-ns", &aff->cfg.window_ns, "or: the time of a window, in ns"),
	OPT_UINTEGER(0, "cacheline-size", &aff->cfg.line_size,
		     "cache line size (default: the recording machine's)"),
	OPT_STRING('s', "sort", &aff->ropts.sort_keys, "key[,key...]",
		   "order of the tables: accesses (structs, default), offset (fields, default),"
		   " name, size, stores, hitm, fs, lines, gain, line, loads, share, class"),
	OPT_STRING('F', "fields", &aff->ropts.fields, "key[,key...]",
		   "columns of the tables, keys as for --sort, and readers, writers"),
	OPT_BOOLEAN(0, "emit-c", &aff->ropts.emit_c, "also print suggested layouts as C"),
	OPT_STRING(0, "keep", &aff->ropts.keep.keep, "field[,field...]",
		   "fields whose offsets code relies on: layouts keep them where they are"),
	OPT_CALLBACK(0, "try", aff, "edit[;edit...]",
		     "what-if: score this layout as the advice is, in the advice's words ('move lock to the end; start a cache line at reader1')",
		     parse_try),
	OPT_STRING(0, "keep-order", &aff->ropts.keep.keep_order, "from-to[,from-to...]",
		   "members that stay together in their order (an offsetof() range)"),
	OPT_STRING(0, "json", &aff->json_name, "file",
		   "also write the report as JSON to this file ('-': only that, to stdout)"),
	OPT_STRING(0, "heatmap", &aff->heatmap_name, "file",
		   "write the co-access matrices as an SVG image (an HTML page: *.html) to this file"),
	OPT_STRING(0, "percent-limit", &aff->percent_str, "percent",
		   "hide structs and fields with fewer accesses, in percent (default 1)"),
	OPT_BOOLEAN(0, "dump-raw-accesses", &aff->dump_raw,
		    "print every decoded memory access, one per line"),
	OPT_STRING('x', "field-separator", &aff->field_sep, "separator",
			   "one table, its columns separated by this (and --dump-raw-accesses)"),
	OPT_STRING(0, "table", &aff->table, "struct|fields",
		   "with -x: the struct table (default), or the field tables as one"),
	OPT_STRING(0, "time", &aff->time_str, "str",
		   "only samples in this time span (start,stop; see perf report --time)"),
	OPT_STRING('C', "cpu", &aff->cpu_list, "cpu", "only samples of these CPUs"),
	OPT_STRING(0, "pid", &symbol_conf.pid_list_str, "pid[,pid...]",
		   "only samples of these processes"),
	OPT_STRING(0, "tid", &symbol_conf.tid_list_str, "tid[,tid...]",
		   "only samples of these threads"),
	OPT_STRING('c', "comms", &symbol_conf.comm_list_str, "comm[,comm...]",
		   "only samples of these commands"),
	OPT_STRING('d', "dsos", &symbol_conf.dso_list_str, "dso[,dso...]",
		   "only samples of code in these DSOs"),
	OPT_CALLBACK(0, "symfs", NULL, "directory",
		     "look for files with symbols relative to this directory",
		     symbol__config_symfs),
	OPT_STRING('k', "vmlinux", &symbol_conf.vmlinux_name, "file", "vmlinux pathname"),
	OPT_BOOLEAN(0, "no-skid", &aff->no_skid,
		    "decode a software sample's instruction only, not its block before it"),
	OPT_STRING(0, "placement", &aff->place_str, "recorded|one|later[:seed]",
		   "take each software sample as another CPU's timer would have: one access (Intel), or later in its block (AMD); seeded"),
	OPT_BOOLEAN(0, "worker", &aff->worker,
		    "accumulate the struct types in other threads (--no-worker: --threads 1)"),
	OPT_INTEGER(0, "threads", &aff->threads,
		    "threads to read with, 1 to 17: the main one and workers for the struct types (default: the CPUs available)"),
	OPT_INCR('v', "verbose", &verbose, "be more verbose"),
	OPT_END()
	};
	struct perf_session *session;
	int err;

	perf_affinity__defaults(aff);
	argc = parse_options(argc, argv, options, affinity_report_usage, 0);
	if (argc)
		usage_with_options_msg(affinity_report_usage, options,
				       "unexpected argument: %s", argv[0]);
	aff->ropts.sep = aff->field_sep;
	symbol_conf.field_sep = aff->field_sep;
#ifndef HAVE_DWARF_SUPPORT
	return perf_affinity__no_dwarf("report", "fields are found by data type profiling");
#endif
	err = parse_values(aff) ?: parse_method(aff) ?: perf_affinity__open_outputs(aff);
	if (err)
		goto out;

	err = perf_affinity__annotate_init() ?: perf_affinity__open_all(aff);
	if (err)
		goto out_close;
	session = aff->recs[0].session;
	perf_affinity__setup_browser(aff);
	/* the pager only once there is output: the progress is on stderr */
	if (aff->dump_raw) {
		setup_pager();
		perf_affinity__dump_header(aff, stdout);
	} else if (!use_browser && !quiet && isatty(STDERR_FILENO)) {
		ui_progress__ops = &stdio_progress__ops;
	}
	err = perf_affinity__process_all(aff);
	if (!err && (!aff->dump_raw || aff->stats_only))
		err = perf_affinity__output(aff, session);
out_close:
	perf_affinity__close_all(aff);
	annotation_options__exit();
out:
	return perf_affinity__close_outputs(aff, err);
}

#ifdef HAVE_DWARF_SUPPORT
/* The layout of type @name of @dbg, as pahole -C prints it */
static int perf_affinity__print_layout(struct debuginfo *di, const char *path, const char *name,
				       u32 line_size)
{
	struct fa_struct *st = fa_struct__from_dwarf_named(di->dbg, name);
	struct fa_layout l;

	if (!st) {
		pr_err("%s: no struct, union or typedef %s in its debug info\n", path, name);
		return -ENOENT;
	}
	if (fa_layout__current(&l, st, line_size)) {
		fa_struct__delete(st);
		return -ENOMEM;
	}
	fa_layout__fprintf(&l, st, stdout);
	fa_layout__exit(&l);
	fa_struct__delete(st);
	return 0;
}
#endif

/*
 * The layouts of types in a binary's debug info (a vmlinux, a program, a
 * library), as pahole -C prints them: what a recording's report starts
 * from, without one
 */
static int perf_affinity__layout(int argc, const char **argv)
{
	unsigned int line_size = 64;
	const struct option options[] = {
	OPT_UINTEGER(0, "cacheline-size", &line_size,
		     "cache line size of the comments, in bytes (default 64)"),
	OPT_INCR('v', "verbose", &verbose, "be more verbose"),
	OPT_END()
	};
	struct debuginfo *di;
	int err = 0;

	argc = parse_options(argc, argv, options, affinity_layout_usage, 0);
	if (argc < 2)
		usage_with_options_msg(affinity_layout_usage, options,
				       argc ? "no type given" : "no binary given");
	if (check_line_size(line_size))
		return -EINVAL;
#ifndef HAVE_DWARF_SUPPORT
	return perf_affinity__no_dwarf("layout", "layouts come from DWARF");
#endif
	if (access(argv[0], R_OK)) {
		pr_err("%s: %s\n", argv[0], strerror(errno));
		return -errno;
	}
	di = debuginfo__new(argv[0]);
	if (!di) {
		pr_err("%s: no DWARF debug info (built without -g, or stripped?)\n", argv[0]);
		return -ENOENT;
	}
#ifdef HAVE_DWARF_SUPPORT
	for (int i = 1; i < argc && err != -ENOMEM; i++) {
		if (i > 1)
			putchar('\n');
		err = perf_affinity__print_layout(di, argv[0], argv[i], line_size) ?: err;
	}
#endif
	debuginfo__delete(di);
	return err;
}

/*
 * check and diff: what report analyzes, of one recording against a binary's
 * layout, or of two recordings
 */

/*
 * The command's state (cmd_affinity()): the analysis options check and
 * diff share (OPT_PARENT) point into it
 */
static struct perf_affinity affinity;

static const struct option affinity_analysis_options[] = {
	OPT_BOOLEAN('f', "force", &affinity.force, "don't complain, do it"),
	OPT_STRING('T', "type", &affinity.types, "struct[,struct...]",
		   "only these struct types ('struct rq' or rq)"),
	OPT_BOOLEAN(0, "system-types", &affinity.system_types,
		    "also the types only system libraries' code accesses (libc, ld.so)"),
	OPT_BOOLEAN(0, "stdio", &affinity.use_stdio, "use the stdio interface (the only one)"),
	OPT_STRING(0, "json", &affinity.json_name, "file",
		   "also write the answer as JSON to this file ('-': only that, to stdout)"),
	OPT_STRING(0, "percent-limit", &affinity.percent_str, "percent",
		   "only structs and fields with this share of the accesses (default 1)"),
	OPT_STRING(0, "method", &affinity.method_str, "auto|window|code",
		   "how co-access is found, as for report"),
	OPT_UINTEGER(0, "cacheline-size", &affinity.cfg.line_size,
		     "cache line size (default: the recording machine's)"),
	OPT_CALLBACK(0, "symfs", NULL, "directory",
		     "look for files with symbols relative to this directory",
		     symbol__config_symfs),
	OPT_STRING('k', "vmlinux", &symbol_conf.vmlinux_name, "file", "vmlinux pathname"),
	OPT_STRING(0, "placement", &affinity.place_str, "recorded|one|later[:seed]",
		   "take each software sample as another CPU's timer would have: one access (Intel), or later in its block (AMD); seeded"),
	OPT_BOOLEAN(0, "worker", &affinity.worker,
		    "accumulate the struct types in other threads (--no-worker: --threads 1)"),
	OPT_INTEGER(0, "threads", &affinity.threads,
		    "threads to read with, 1 to 17: the main one and workers for the struct types (default: the CPUs available)"),
	OPT_INCR('v', "verbose", &verbose, "be more verbose"),
	OPT_END()
};

/* A recording, read and analyzed as report does, with progress on a terminal */
static int perf_affinity__load(struct perf_affinity *aff, const char *path,
			       struct perf_data *data, struct perf_session **session,
			       struct fa_analysis **an, struct fa_hists *fh, bool *have_fh)
{
	u64 total;
	int err;

	*have_fh = false;
	*an = NULL;
	*data = (struct perf_data){
		.mode = PERF_DATA_MODE_READ, .path = path, .force = aff->force,
	};
	err = perf_affinity__open(aff, data, session);
	if (err)
		return err;
	if (!quiet && isatty(STDERR_FILENO))
		ui_progress__ops = &stdio_progress__ops;
	err = perf_affinity__process(aff, *session);
	return err ?: perf_affinity__structs(aff, an, fh, have_fh, &total);
}

/* The answer as JSON: --json - leaves the text out */
static bool perf_affinity__text(struct perf_affinity *aff)
{
	return aff->json_fp != stdout;
}

/* check's exit code when the recording cannot tell whether a layout holds */
#define AFFINITY_CHECK_UNDECIDED	2

struct affinity_check {
	const char		*binary;
	const char		*max_str;
	double			 max_regression;
	struct debuginfo	*di;
	struct json_writer		 json;
	int			 nr_types;	/* of the recording */
	struct fa_check_lines	 lines;
	bool			 have_lines;
	int			 checked;
	int			 failed;
	int			 undecided;
};

#ifdef HAVE_DWARF_SUPPORT
/* One type of the recording against its layout in the binary */
static int affinity_check__type(struct affinity_check *ck, struct perf_affinity *aff,
				const char *name, const struct fa_type *t,
				const struct fa_analysis *an)
{
	struct fa_struct *st = fa_struct__from_dwarf_named(ck->di->dbg, name);
	struct fa_check c;
	int err;

	if (!st && aff->types) {
		pr_err("%s: no %s in its debug info\n", ck->binary, name);
		return -ENOENT;
	}
	if (!st) {
		pr_debug("%s: no %s in its debug info: not checked\n", ck->binary, name);
		return 0;
	}
	err = fa_check__run(&c, t, an, st, ck->max_regression);
	if (!err) {
		if (perf_affinity__text(aff) && ck->checked)
			putchar('\n');
		if (perf_affinity__text(aff))
			fa_check__fprintf(&c, ck->binary, stdout);
		if (aff->json_fp)
			fa_check__json(&ck->json, &c);
		ck->failed += c.nr_failed > 0;
		ck->undecided += !c.nr_failed && c.nr_undecided;
		ck->checked++;
		fa_check__exit(&c);
	}
	fa_struct__delete(st);
	return err;
}
#else
static int affinity_check__type(struct affinity_check *ck __maybe_unused,
				struct perf_affinity *aff __maybe_unused,
				const char *name __maybe_unused,
				const struct fa_type *t __maybe_unused,
				const struct fa_analysis *an __maybe_unused)
{
	return -EOPNOTSUPP;
}
#endif

static void affinity_check__begin(struct affinity_check *ck, struct perf_affinity *aff)
{
	if (!aff->json_fp)
		return;
	json_writer__init(&ck->json, aff->json_fp);
	json_writer__begin_object(&ck->json, NULL, /*flat=*/false);
	json_writer__string(&ck->json, "input", aff->input_name);
	json_writer__string(&ck->json, "binary", ck->binary);
	json_writer__double(&ck->json, "max_regression", 100 * ck->max_regression);
	json_writer__begin_array(&ck->json, "checks", /*flat=*/false);
}

/*
 * The slot arrays of the recording's shared lines outside the struct
 * types, judged by their element in the binary
 */
static int affinity_check__lines(struct affinity_check *ck, struct perf_affinity *aff)
{
	int err = fa_check_lines__init(&ck->lines, &aff->session.dlines, &aff->session.watched);

	if (err)
		return err;
	ck->have_lines = true;
#ifdef HAVE_DWARF_SUPPORT
	fa_check_lines__run(&ck->lines, ck->di->dbg, aff->session.dlines.line_size);
#endif
	ck->failed += ck->lines.failed;
	ck->checked += ck->lines.judged;
	if (perf_affinity__text(aff))
		fa_check_lines__fprintf(&ck->lines, ck->binary, stdout);
	return 0;
}

static int affinity_check__end(struct affinity_check *ck, struct perf_affinity *aff, int err)
{
	if (aff->json_fp) {
		json_writer__end_array(&ck->json);
		if (ck->have_lines)
			fa_check_lines__json(&ck->lines, &ck->json);
		json_writer__bool(&ck->json, "holds", !ck->failed && !ck->undecided);
		json_writer__string(&ck->json, "verdict", ck->failed ? "regressed" :
				ck->undecided ? "insufficient" : "holds");
		json_writer__end_object(&ck->json);
		fputc('\n', aff->json_fp);
	}
	if (!err && !ck->checked && !ck->nr_types) {
		struct fa_dl_sum sum;

		/* slots as recorded: their layout is code (an index, an allocation) */
		fa_dlines__sum(&aff->session.dlines, &aff->session.watched, &sum);
		pr_err("%s: no struct type accessed, %d data lines threads share, untyped: nothing the binary's debug info tells; compare a recording of the new build with 'perf affinity diff'\n",
		       aff->input_name, sum.nr);
		err = -ENOENT;
	} else if (!err && !ck->checked) {
		pr_err("%s: none of the struct types %s accessed is in its debug info\n",
		       ck->binary, aff->input_name);
		err = -ENOENT;
	}
	if (ck->have_lines)
		fa_check_lines__exit(&ck->lines);
	return err;
}

/* The types of a recording, in the report's order */
static int affinity_check__types(struct affinity_check *ck, struct perf_affinity *aff,
				 struct fa_hists *fh)
{
	struct fa_hist_entry *fe;
	int err = 0;

	affinity_check__begin(ck, aff);
	fa_hists__for_each_entry(fh, fe) {
		ck->nr_types++;
		err = affinity_check__type(ck, aff, fe->te->name, fe->te->t, fe->an);
		if (err)
			break;
	}
	if (!err)
		err = affinity_check__lines(ck, aff);
	return affinity_check__end(ck, aff, err);
}

/* The types of a report saved with --json */
static int affinity_check__profile(struct affinity_check *ck, struct perf_affinity *aff)
{
	struct fa_type_filter *only = fa_type_filter__new(aff->types);
	struct fa_profile p;
	int err = IS_ERR(only) ? PTR_ERR(only) : fa_profile__read(&p, aff->input_name);
	int wanted = 0;

	if (err)
		goto out;
	affinity_check__begin(ck, aff);
	for (int i = 0; !err && i < p.nr_types; i++) {
		struct fa_profile_type *pt = &p.types[i];

		if (!fa_type_filter__wants(only, pt->t.st->name) ||
		    pt->share < aff->ropts.percent_limit)
			continue;
		wanted++;
		err = affinity_check__type(ck, aff, pt->t.st->name, &pt->t, &pt->an);
	}
	if (!err && aff->types && !wanted) {
		pr_err("-T %s: no such struct type in %s\n", aff->types, aff->input_name);
		err = -ENOENT;
	}
	err = affinity_check__end(ck, aff, err);
	fa_profile__exit(&p);
out:
	fa_type_filter__delete(only);
	return err;
}

/* The options, the binary, its debug info: all before the long read */
static int affinity_check__parse(struct affinity_check *ck, struct perf_affinity *aff)
{
	int err = parse_values(aff) ?: parse_method(aff);

	if (!err && ck->max_str)
		err = parse_percent_value("max-regression", ck->max_str, 1e6,
					  &ck->max_regression);
	if (err)
		return err;
	ck->max_regression /= 100;
	if (access(ck->binary, R_OK)) {
		err = -errno;
		pr_err("%s: %s\n", ck->binary, strerror(errno));
		return err;
	}
	ck->di = debuginfo__new(ck->binary);
	if (!ck->di) {
		pr_err("%s: no DWARF debug info (built without -g, or stripped?)\n", ck->binary);
		return -ENOENT;
	}
	return perf_affinity__open_outputs(aff);
}

/*
 * Whether the layouts of a binary's types keep what a recording of their
 * accesses needs: exit 0 if they do, 1 if not, with the reasons, and
 * AFFINITY_CHECK_UNDECIDED if the recording cannot tell
 */
static int perf_affinity__check(struct perf_affinity *aff, int argc, const char **argv)
{
	struct affinity_check ck = { .max_regression = 1, };
	const struct option options[] = {
	OPT_STRING('i', "input", &aff->input_name, "file", "the recording (default perf.data)"),
	OPT_STRING(0, "max-regression", &ck.max_str, "percent",
		   "how much more the recorded accesses may cost with this layout (default 1)"),
	OPT_PARENT(affinity_analysis_options),
	};
	struct perf_data data;
	struct perf_session *session = NULL;
	struct fa_analysis *an = NULL;
	struct fa_hists fh;
	bool have_fh = false;
	int err;

	perf_affinity__defaults(aff);
	argc = parse_options(argc, argv, options, affinity_check_usage, 0);
	if (argc != 1)
		usage_with_options_msg(affinity_check_usage, options,
				       argc ? "one binary only" : "no binary given");
#ifndef HAVE_DWARF_SUPPORT
	return perf_affinity__no_dwarf("check", "layouts come from DWARF");
#endif
	ck.binary = argv[0];
	aff->input_name = aff->input_name ?: "perf.data";
	err = affinity_check__parse(&ck, aff);
	if (!err && fa_profile__is_json(aff->input_name)) {
		err = affinity_check__profile(&ck, aff);
		goto out;
	}
	if (!err)
		err = perf_affinity__annotate_init();
	if (!err)
		err = perf_affinity__load(aff, aff->input_name, &data, &session, &an, &fh,
					  &have_fh);
	if (!err)
		err = affinity_check__types(&ck, aff, &fh);
	perf_affinity__structs_exit(aff, an, &fh, have_fh);
	perf_affinity__close(aff, session);
	annotation_options__exit();
out:
	if (ck.di)
		debuginfo__delete(ck.di);
	err = perf_affinity__close_outputs(aff, err);
	return err ?: ck.failed ? 1 : ck.undecided ? AFFINITY_CHECK_UNDECIDED : 0;
}

/* One recording of diff: what was read of it, and its analysis */
struct affinity_side {
	struct perf_affinity	 aff;
	struct perf_data	 data;
	struct perf_session	*session;
	struct fa_analysis	*an;
	struct fa_hists		 fh;
	bool			 have_fh;
};

/* The type named @name in @side, if it has accesses to it */
static struct fa_hist_entry *affinity_side__find(struct affinity_side *side, const char *name)
{
	struct fa_hist_entry *fe;

	fa_hists__for_each_entry(&side->fh, fe) {
		if (!strcmp(fe->te->name, name))
			return fe;
	}
	return NULL;
}

static bool affinity_side__hitm(struct affinity_side *side)
{
	return side->aff.decoder.stats.samples[FA_SRC_MEM] > 0;
}

static int affinity_diff__type(struct affinity_side *sides, struct fa_hist_entry *fe, int in,
			       struct json_writer *j)
{
	struct fa_hist_entry *other = affinity_side__find(&sides[!in], fe->te->name);
	struct fa_diff_side s[2] = {
		[0] = { .hitm = affinity_side__hitm(&sides[0]),
			.samples = fa_decode_stats__samples(&sides[0].aff.decoder.stats), },
		[1] = { .hitm = affinity_side__hitm(&sides[1]),
			.samples = fa_decode_stats__samples(&sides[1].aff.decoder.stats), },
	};
	struct perf_affinity *aff = &sides[0].aff;
	struct fa_diff d;
	int err;

	/* the new recording's types that the old one has are done */
	if (in && other)
		return 0;
	s[in].t = fe->te->t;
	s[in].an = fe->an;
	if (other) {
		s[!in].t = other->te->t;
		s[!in].an = other->an;
	}
	err = fa_diff__init(&d, fe->te->name, &s[0], &s[1], aff->ropts.percent_limit);
	if (!err && perf_affinity__text(aff))
		fa_diff__fprintf(&d, stdout);
	if (!err && j)
		err = fa_diff__json(j, &d);
	return err;
}

/* The lines threads share in each recording, typed or not */
static void affinity_diff__dlines(struct affinity_side *sides, struct json_writer *j)
{
	struct fa_dl_sum sum[2];
	u64 samples[2];

	for (int i = 0; i < 2; i++) {
		fa_dlines__sum(&sides[i].aff.session.dlines, &sides[i].aff.session.watched, &sum[i]);
		samples[i] = fa_decode_stats__samples(&sides[i].aff.decoder.stats);
	}
	if (perf_affinity__text(&sides[0].aff))
		fa_diff__dlines_fprintf(stdout, &sum[0], samples[0], &sum[1], samples[1]);
	if (j)
		fa_diff__dlines_json(j, &sum[0], samples[0], &sum[1], samples[1]);
}

static int affinity_diff__types(struct affinity_side *sides)
{
	struct perf_affinity *aff = &sides[0].aff;
	struct json_writer j, *jp = aff->json_fp ? &j : NULL;
	struct fa_hist_entry *fe;
	int err = 0;

	if (perf_affinity__text(aff))
		printf("# perf affinity diff: %s (old) -> %s (new)\n", sides[0].data.path,
		       sides[1].data.path);
	if (jp) {
		json_writer__init(jp, aff->json_fp);
		json_writer__begin_object(jp, NULL, /*flat=*/false);
		json_writer__string(jp, "old", sides[0].data.path);
		json_writer__string(jp, "new", sides[1].data.path);
		json_writer__begin_array(jp, "types", /*flat=*/false);
	}
	for (int in = 0; !err && in < 2; in++) {
		fa_hists__for_each_entry(&sides[in].fh, fe) {
			err = affinity_diff__type(sides, fe, in, jp);
			if (err)
				break;
		}
	}
	if (jp)
		json_writer__end_array(jp);
	if (!err)
		affinity_diff__dlines(sides, jp);
	if (jp) {
		json_writer__end_object(jp);
		fputc('\n', aff->json_fp);
	}
	return err;
}

static void affinity_side__exit(struct affinity_side *side)
{
	perf_affinity__structs_exit(&side->aff, side->an, &side->fh, side->have_fh);
	perf_affinity__close(&side->aff, side->session);
}

/* Two recordings of the same types, as perf diff: perf.data.old perf.data by default */
static int perf_affinity__diff(struct perf_affinity *aff, int argc, const char **argv)
{
	struct affinity_side *sides = calloc(2, sizeof(*sides));
	const char *paths[2] = { "perf.data.old", "perf.data" };
	int err;

	if (!sides)
		return -ENOMEM;
	perf_affinity__defaults(aff);
	argc = parse_options(argc, argv, affinity_analysis_options, affinity_diff_usage, 0);
	if (argc != 0 && argc != 2)
		usage_with_options_msg(affinity_diff_usage, affinity_analysis_options,
				       "two recordings, or none for perf.data.old and perf.data");
	for (int i = 0; argc && i < 2; i++)
		paths[i] = argv[i];
#ifndef HAVE_DWARF_SUPPORT
	free(sides);
	return perf_affinity__no_dwarf("diff", "fields are found by data type profiling");
#endif
	err = parse_values(aff) ?: parse_method(aff) ?: perf_affinity__open_outputs(aff);
	if (!err)
		err = perf_affinity__annotate_init();
	for (int i = 0; !err && i < 2; i++) {
		/* both read as the options say; the second has no outputs of its own */
		sides[i].aff = *aff;
		sides[i].aff.json_fp = NULL;
		err = perf_affinity__load(&sides[i].aff, paths[i], &sides[i].data,
					  &sides[i].session, &sides[i].an, &sides[i].fh,
					  &sides[i].have_fh);
	}
	sides[0].aff.json_fp = aff->json_fp;
	if (!err)
		err = affinity_diff__types(sides);
	for (int i = 0; i < 2; i++)
		affinity_side__exit(&sides[i]);
	free(sides);
	annotation_options__exit();
	return perf_affinity__close_outputs(aff, err);
}

int cmd_affinity(int argc, const char **argv)
{
	struct perf_affinity *aff = &affinity;
	const struct option affinity_options[] = {
	OPT_INCR('v', "verbose", &verbose, "be more verbose"),
	OPT_END()
	};
	const char *affinity_usage[] = {
		"perf affinity record [<options>] [-- <command> [<options>]]",
		"perf affinity report [<options>]",
		"perf affinity layout [<options>] <binary> <type>...",
		"perf affinity check [<options>] <binary>",
		"perf affinity diff [<options>] [<old.data> <new.data>]",
		NULL
	};
	int ret;

	affinity.sw_period = AFFINITY_SW_PERIOD_NS;
	argc = parse_options_subcommand(argc, argv, affinity_options, affinity_subcommands,
					affinity_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(affinity_usage, affinity_options);

	if (strlen(argv[0]) > 2 && strstarts("record", argv[0])) {
		ret = perf_affinity__record(aff, argc, argv);
	} else if (strlen(argv[0]) > 2 && strstarts("report", argv[0])) {
		ret = perf_affinity__report(aff, argc, argv);
	} else if (strlen(argv[0]) > 2 && strstarts("layout", argv[0])) {
		ret = perf_affinity__layout(argc, argv);
	} else if (strlen(argv[0]) > 2 && strstarts("check", argv[0])) {
		ret = perf_affinity__check(aff, argc, argv);
	} else if (!strcmp(argv[0], "diff")) {
		ret = perf_affinity__diff(aff, argc, argv);
	} else {
		pr_err("Unknown subcommand: %s\n", argv[0]);
		usage_with_options(affinity_usage, affinity_options);
		ret = -EINVAL;
	}
	free(aff->tracepoints);
	return ret;
}
