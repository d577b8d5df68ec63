// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "access.h"

/* The key of @value, "?" out of the enum */
const char *fa_label__key(const struct fa_label *labels, int nr, int value)
{
	return value >= 0 && value < nr && labels[value].key ? labels[value].key : "?";
}

/* The text of @value, "?" out of the enum */
const char *fa_label__text(const struct fa_label *labels, int nr, int value)
{
	return value >= 0 && value < nr && labels[value].text ? labels[value].text : "?";
}

/* The value whose key is @key, or -1 */
int fa_label__parse(const struct fa_label *labels, int nr, const char *key)
{
	for (int i = 0; i < nr; i++) {
		if (labels[i].key && !strcmp(labels[i].key, key))
			return i;
	}
	return -1;
}

static const struct fa_label fa_source_labels[FA_SRC_MAX] = {
	[FA_SRC_MEM]	= { "mem", "memory sampling PMU" },
	[FA_SRC_SW]	= { "sw", "software address sampling" },
	[FA_SRC_TP]	= { "tp", "field labelled tracepoints" },
};

const char *fa_source__name(enum fa_source src)
{
	return fa_label__key(fa_source_labels, FA_SRC_MAX, src);
}

const char *fa_source__text(enum fa_source src)
{
	return fa_label__text(fa_source_labels, FA_SRC_MAX, src);
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
