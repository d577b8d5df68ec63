// SPDX-License-Identifier: GPL-2.0
#include "access.h"

static const char * const fa_source_names[FA_SRC_MAX] = {
	[FA_SRC_MEM]	= "mem",
	[FA_SRC_SW]	= "sw",
	[FA_SRC_TP]	= "tp",
};

const char *fa_source__name(enum fa_source src)
{
	return src < FA_SRC_MAX ? fa_source_names[src] : "?";
}

const char *fa_op__name(u8 op)
{
	switch (op) {
	case FA_OP_LOAD:
		return "load";
	case FA_OP_STORE:
		return "store";
	case FA_OP_RMW:
		return "rmw";
	case FA_OP_PREFETCH:
		return "prefetch";
	default:
		return "unknown";
	}
}
