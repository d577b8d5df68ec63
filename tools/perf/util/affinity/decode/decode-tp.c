// SPDX-License-Identifier: GPL-2.0
/*
 * Field labelled tracepoints: every sample is an access to a named field of
 * a named struct.  Two forms are understood:
 *
 * - tracepoints whose fields say it: 'type' (or 'struct') and 'field' (or
 *   'member') strings, optionally the instance ('ptr', 'addr', 'instance',
 *   'obj' or 'cpu') and 'op', a string (read/access/load, write/store,
 *   modify/rmw) or a number (0 read, 1 write, 2 modify).  A kprobe with
 *   immediate string arguments is one, and so is a uprobe whose strings
 *   are literals of the probed binary (uprobes fetch strings from user
 *   memory):
 *     p:affinity/rq_clock <binary>:<offset> type=@+<offset>:string
 *       field=@+<offset>:string ptr=%di:x64 op=\1:u8
 * - tracepoints printing "Accessed <type>[<instance>]-><field> in <function>
 *   (<access|modify>)", like the struct rq access tracepoints of the access
 *   affinity reordering work on struct rq.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "access.h"
#include "decode.h"
#include "decode-int.h"
#include "../../evsel.h"
#include "../../sample.h"
#include "../../strlist.h"
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

static const char *fa_decoder__intern(struct fa_decoder *dec, const char *s)
{
	struct str_node *node = strlist__find(dec->names, s);

	if (!node && strlist__add(dec->names, s) == 0)
		node = strlist__find(dec->names, s);
	return node ? node->s : NULL;
}

static const char *first_field(struct evsel *evsel, const char * const *names)
{
	for (; *names; names++) {
		if (evsel__field(evsel, *names))
			return *names;
	}
	return NULL;
}

/* A tracepoint with type and field fields. */
static int fa_decoder__tp_fields(struct fa_decoder *dec, struct evsel *evsel,
				 struct perf_sample *sample, struct fa_access *acc)
{
	static const char * const type_names[] = { "type", "struct", NULL };
	static const char * const field_names[] = { "field", "member", NULL };
	static const char * const inst_names[] = { "ptr", "addr", "instance", "obj", "cpu", NULL };
	const char *type = first_field(evsel, type_names);
	const char *field = first_field(evsel, field_names);
	const char *inst = first_field(evsel, inst_names);
	struct tep_format_field *op = evsel__field(evsel, "op");

	if (!type || !field)
		return -1;
	acc->type_name = fa_decoder__intern(dec, evsel__rawptr(evsel, sample, type));
	acc->field_name = fa_decoder__intern(dec, evsel__rawptr(evsel, sample, field));
	if (inst)
		acc->instance = evsel__intval(evsel, sample, inst);
	acc->op = FA_OP_UNKNOWN;
	if (op && (op->flags & TEP_FIELD_IS_STRING)) {
		acc->op = fa_op__parse(evsel__rawptr(evsel, sample, "op"));
	} else if (op) {
		u64 v = evsel__intval(evsel, sample, "op");

		acc->op = v == 0 ? FA_OP_LOAD : v == 1 ? FA_OP_STORE : FA_OP_RMW;
	}
	return acc->type_name && acc->field_name ? 0 : -1;
}

/* A tracepoint printing "Accessed <type>[<n>]-><field> in <func> (<op>)". */
static int fa_decoder__tp_line(struct fa_decoder *dec, struct evsel *evsel,
			       struct perf_sample *sample, struct fa_access *acc)
{
	struct tep_record record = {
		.cpu = sample->cpu,
		.size = sample->raw_size,
		.data = sample->raw_data,
	};
	char type[128], field[128];
	struct trace_seq s;
	int err = -1;

	if (!evsel->tp_format)
		return -1;
	trace_seq_init(&s);
	tep_print_event(evsel->tp_format->tep, &s, &record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (s.buffer && !fa_tp_line__parse(s.buffer, type, sizeof(type), field, sizeof(field),
					    &acc->instance, &acc->op)) {
		acc->type_name = fa_decoder__intern(dec, type);
		acc->field_name = fa_decoder__intern(dec, field);
		err = acc->type_name && acc->field_name ? 0 : -1;
	}
	trace_seq_destroy(&s);
	return err;
}

/*
 * Allocation events (kmem:kmalloc, kmem:kfree and the like: a 'ptr' and
 * 'bytes_alloc', or a 'ptr' of an event named *free) bound objects; they are
 * no accesses.
 */
static bool fa_decoder__tp_alloc(struct fa_decoder *dec, struct evsel *evsel)
{
	const char *name = evsel__name(evsel);

	if (!evsel__field(evsel, "ptr"))
		return false;
	if (evsel__field(evsel, "bytes_alloc")) {
		dec->stats.allocs++;
		return true;
	}
	if (strstr(name, "free")) {
		dec->stats.frees++;
		return true;
	}
	return false;
}

int fa_decoder__tp(struct fa_decoder *dec, struct evsel *evsel,
		   struct perf_sample *sample, struct fa_access *acc)
{
	if (fa_decoder__tp_alloc(dec, evsel))
		return 0;
	if (!fa_decoder__tp_fields(dec, evsel, sample, acc) ||
	    !fa_decoder__tp_line(dec, evsel, sample, acc))
		return 1;
	fa_decoder__drop(dec, FA_DROP_TP_FORMAT);
	return 0;
}
