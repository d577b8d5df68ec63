// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity: which struct fields are accessed together, which are
 * written hot and shared between CPUs, and a cache line layout that keeps
 * the former together and the latter apart.
 *
 *   perf affinity record -- <workload>
 *   perf affinity report
 */
#include <errno.h>
#include <string.h>
#include <linux/string.h>
#include <subcmd/parse-options.h>
#include "builtin.h"
#include "util/debug.h"

static const char * const affinity_subcommands[] = { "record", "report", NULL };

static int perf_affinity__not_yet(const char *subcmd)
{
	pr_err("perf affinity %s: not implemented yet\n", subcmd);
	return -EOPNOTSUPP;
}

int cmd_affinity(int argc, const char **argv)
{
	const char *affinity_usage[] = {
		"perf affinity record [<options>] [-- <command> [<options>]]",
		"perf affinity report [<options>]",
		NULL
	};
	const struct option affinity_options[] = {
	OPT_INCR('v', "verbose", &verbose, "be more verbose"),
	OPT_END()
	};

	argc = parse_options_subcommand(argc, argv, affinity_options, affinity_subcommands,
					affinity_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(affinity_usage, affinity_options);

	if (strlen(argv[0]) > 2 && strstarts("record", argv[0]))
		return perf_affinity__not_yet("record");
	if (strlen(argv[0]) > 2 && strstarts("report", argv[0]))
		return perf_affinity__not_yet("report");

	pr_err("Unknown subcommand: %s\n", argv[0]);
	usage_with_options(affinity_usage, affinity_options);
	return -EINVAL;
}
