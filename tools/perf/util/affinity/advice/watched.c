// SPDX-License-Identifier: GPL-2.0
/*
 * The watchpoints' hits of a type replayed with another layout: what the
 * advice would leave of the transfers they saw.
 */
#include <errno.h>
#include <string.h>
#include "../accumulate/exact.h"
#include "../decode/key.h"
#include "../layout/classify.h"
#include "../layout/layout.h"
#include "analyze.h"
#include "watched.h"

/**
 * fa_exact_lines__replay - What the kept hits would move with layout @l
 * @line_start: The instances moved back to the start of their first line
 *              (a layout that relies on line boundaries aligns the struct)
 *
 * The same accesses in the same order, each field at its offset in @l: the
 * transfers of the lines as fa_exact_lines__add() counts them.  With the
 * current layout, the counts of the lines.
 */
int fa_exact_lines__replay(const struct fa_exact_lines *xl, const struct fa_struct *st,
			   const struct fa_layout *l, bool line_start, struct fa_exact_cost *cost)
{
	struct hashmap *lines = fa_u64_map__new();
	u32 line_size = l->line_size;

	memset(cost, 0, sizeof(*cost));
	if (!lines)
		return -ENOMEM;
	for (size_t i = 0; i < xl->nr_hits; i++) {
		const struct fa_exact_hit *h = &xl->hits[i];
		u64 base = line_start ? h->base - h->base % line_size : h->base;
		u64 line = (base + fa_layout__field_offset(l, st, h->field)) / line_size;
		struct fa_exact_line *el = fa_exact_line__find(lines, line);
		int from;

		if (!el) {
			fa_map__free_values(lines);
			return -ENOMEM;
		}
		from = fa_exact_line__hit(el, h);
		cost->transfers += from >= 0;
		cost->false_sharing += from >= 0 && from != h->field;
	}
	cost->hits = xl->nr_hits;
	fa_map__free_values(lines);
	return 0;
}

/*
 * Whether the watched accesses move the lines more often @then than @now:
 * FA_MIN_GAIN more, and not by a few transfers
 */
bool fa_exact_cost__worse(const struct fa_exact_cost *now, const struct fa_exact_cost *then)
{
	return then->transfers >= now->transfers + FA_MIN_SAMPLES &&
	       then->transfers > now->transfers * (1 + FA_MIN_GAIN);
}
