// SPDX-License-Identifier: GPL-2.0
/*
 * Samples to memory accesses: which source an event is, and the memory
 * sampling PMU path, where the sample carries the data address.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include "decode.h"
#include "decode-int.h"
#include "key.h"
#include "../../addr_location.h"
#include "../../env.h"
#include "../../evsel.h"
#include "../../dso.h"
#include "../../hashmap.h"
#include "../../insn-access.h"
#include "../../sample.h"
#include "../../strlist.h"

static const struct fa_label fa_drop_labels[FA_DROP_MAX] = {
	[FA_DROP_NO_MEM]	= { "no_mem_operand", "no memory operand" },
	[FA_DROP_STACK]		= { "stack_only", "implicit stack access only" },
	[FA_DROP_VSIB]		= { "gather_scatter", "gather/scatter" },
	[FA_DROP_DECODE]	= { "not_decoded", "instruction not decoded" },
	[FA_DROP_NO_MAP]	= { "no_map", "IP outside a known map" },
	[FA_DROP_NO_CODE]	= { "no_code", "code not readable" },
	[FA_DROP_CHANGED]	= { "changed", "binary changed since recording" },
	[FA_DROP_NO_REGS]	= { "no_regs", "no registers in sample" },
	[FA_DROP_NO_REG]	= { "no_reg", "address register not sampled" },
	[FA_DROP_ARCH]		= { "arch", "unsupported architecture" },
	[FA_DROP_NO_ADDR]	= { "no_addr", "no data address" },
	[FA_DROP_TP_FORMAT]	= { "tp_format", "tracepoint without access fields" },
	[FA_DROP_NO_SYM]	= { "no_sym", "no symbol: instruction before unknown" },
};

const char *fa_drop__name(enum fa_drop reason)
{
	return fa_label__text(fa_drop_labels, FA_DROP_MAX, reason);
}

const char *fa_drop__key(enum fa_drop reason)
{
	return fa_label__key(fa_drop_labels, FA_DROP_MAX, reason);
}

static const struct fa_label fa_walk_stop_labels[FA_WALK_MAX] = {
	[FA_WALK_ENTRY]		= { "entry", "at a jump target" },
	[FA_WALK_CALL]		= { "call", "at a call" },
	[FA_WALK_BRANCH]	= { "branch", "at a jump or return" },
	[FA_WALK_START]		= { "start", "at the function's start" },
	[FA_WALK_INDIRECT]	= { "indirect", "in a function with indirect jumps" },
	[FA_WALK_UNKNOWN]	= { "unknown", "at an instruction not understood" },
	[FA_WALK_LIMIT]		= { "limit", "at the walk's limit" },
	[FA_WALK_NO_CODE]	= { "no_code", "no code to walk" },
};

const char *fa_walk_stop__name(enum fa_walk_stop stop)
{
	return fa_label__text(fa_walk_stop_labels, FA_WALK_MAX, stop);
}

const char *fa_walk_stop__key(enum fa_walk_stop stop)
{
	return fa_label__key(fa_walk_stop_labels, FA_WALK_MAX, stop);
}

int fa_decoder__init(struct fa_decoder *dec, struct perf_env *env, struct machine *machine)
{
	memset(dec, 0, sizeof(*dec));
	dec->env = env;
	dec->machine = machine;
	dec->names = strlist__new(NULL, NULL);
	dec->drop_dsos = fa_u64_map__new();
	if (!dec->names || !dec->drop_dsos)
		return -ENOMEM;
	return fa_decoder__cache_init(dec);
}

/*
 * The next of several recordings a report reads: its header and machine.
 * What was decoded stays: its code is another session's DSOs.
 */
void fa_decoder__recording(struct fa_decoder *dec, struct perf_env *env, struct machine *machine,
			   u8 rec)
{
	dec->env = env;
	dec->machine = machine;
	dec->arch = NULL;
	dec->rec = rec;
}

void fa_decoder__exit(struct fa_decoder *dec)
{
	struct hashmap_entry *cur;
	size_t bkt;

	fa_decoder__cache_exit(dec);
	strlist__delete(dec->names);
	dec->names = NULL;
	if (dec->drop_dsos) {
		hashmap__for_each_entry(dec->drop_dsos, cur, bkt)
			dso__put(((struct fa_drop_dso *)cur->pvalue)->dso);
	}
	fa_map__free_values(dec->drop_dsos);
	dec->drop_dsos = NULL;
}

/*
 * Whether the event's data address is the address of an access: a memory
 * sampling PMU's (a raw or dynamic PMU: mem-loads, IBS, SPE) or a page
 * fault's.  'perf record -d' asks every event for one: a context switch's
 * or a cycles sample's is 0.
 */
static bool fa_attr__records_addr(const struct perf_event_attr *attr)
{
	if (!(attr->sample_type & PERF_SAMPLE_ADDR))
		return false;
	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		return attr->config == PERF_COUNT_SW_PAGE_FAULTS ||
		       attr->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		       attr->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ;
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_BREAKPOINT:
		return false;
	default:
		return true;
	}
}

/**
 * fa_evsel__source - Which kind of access source an event is
 * @evsel: The event
 *
 * Timer events with registers are software address sampling; events that
 * record data addresses (mem-loads, IBS, SPE, page faults) give them as
 * recorded; other events with registers (other software events, cycles)
 * are decoded like timer events.
 *
 * Return: enum fa_source, or -1 if the event gives no accesses.
 */
int fa_evsel__source(struct evsel *evsel)
{
	struct perf_event_attr *attr = &evsel->core.attr;
	u64 regs = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR;
	bool clock = attr->type == PERF_TYPE_SOFTWARE &&
		     (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
		      attr->config == PERF_COUNT_SW_TASK_CLOCK);

	if (attr->type == PERF_TYPE_TRACEPOINT)
		return FA_SRC_TP;
	if (clock && (attr->sample_type & regs))
		return FA_SRC_SW;
	if (fa_attr__records_addr(attr))
		return FA_SRC_MEM;
	if (attr->sample_type & regs)
		return FA_SRC_SW;
	return -1;
}

static u8 fa_op__from_data_src(u64 data_src)
{
	union perf_mem_data_src dsrc = { .val = data_src };

	if (dsrc.mem_op & PERF_MEM_OP_PFETCH)
		return FA_OP_PREFETCH;
	if ((dsrc.mem_op & PERF_MEM_OP_LOAD) && (dsrc.mem_op & PERF_MEM_OP_STORE))
		return FA_OP_RMW;
	if (dsrc.mem_op & PERF_MEM_OP_LOAD)
		return FA_OP_LOAD;
	if (dsrc.mem_op & PERF_MEM_OP_STORE)
		return FA_OP_STORE;
	return FA_OP_UNKNOWN;
}

/* The sample has the data address; the instruction may tell size and direction. */
static int fa_decoder__mem(struct fa_decoder *dec, struct perf_sample *sample,
			   struct addr_location *al, struct fa_access *acc)
{
	const struct insn_access_insn *insn;

	if (!sample->addr) {
		fa_decoder__drop(dec, FA_DROP_NO_ADDR);
		return 0;
	}
	acc->addr = sample->addr;
	acc->data_src = sample->data_src;
	acc->weight = sample->weight;
	acc->op = fa_op__from_data_src(sample->data_src);

	insn = fa_decoder__insn(dec, al, sample->ip);
	if (insn && insn->result == INSN_ACCESS__OK && insn->nr_ops == 1) {
		acc->size = insn->ops[0].size;
		if (acc->op == FA_OP_UNKNOWN)
			acc->op = insn->ops[0].op;
		if (insn->ops[0].flags & INSN_ACCESS_F_LOCK)
			acc->flags |= FA_ACC_LOCK;
		if (insn->ops[0].flags & INSN_ACCESS_F_FRAME)
			acc->flags |= FA_ACC_FRAME;
	}
	return 1;
}

static void fa_origin__init(struct fa_origin *o, struct evsel *evsel, struct perf_sample *sample,
			    struct addr_location *al, int source, u8 rec)
{
	*o = (struct fa_origin){
		.time = sample->time, .ip = sample->ip, .period = sample->period ?: 1,
		.cpu = sample->cpu,
		.pid = sample->pid, .tid = sample->tid, .cpumode = sample->cpumode,
		.source = source, .thread = al->thread, .map = al->map, .sym = al->sym,
		.evsel = evsel, .watch = evsel->core.attr.type == PERF_TYPE_BREAKPOINT,
		.rec = rec,
	};
}

static void fa_access__init(struct fa_access *acc, struct perf_sample *sample,
			    const struct fa_origin *origin)
{
	union perf_mem_data_src na = { .mem_op = PERF_MEM_OP_NA, };

	memset(acc, 0, sizeof(*acc));
	acc->ip = sample->ip;
	acc->origin = origin;
	acc->data_src = na.val;
	if (sample->cpumode == PERF_RECORD_MISC_KERNEL ||
	    sample->cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		acc->flags |= FA_ACC_KERNEL;
}

static void fa_decoder__count(struct fa_decoder *dec, struct fa_access *acc, int n)
{
	for (int i = 0; i < n; i++) {
		if (acc[i].flags & FA_ACC_SKID)
			dec->stats.skid++;
		if (acc[i].flags & FA_ACC_BLOCK)
			dec->stats.block++;
		if (acc[i].flags & FA_ACC_WATCH)
			dec->stats.watch++;
		if (acc[i].flags & FA_ACC_SEG)
			dec->stats.seg++;
		if (acc[i].flags & FA_ACC_STRING)
			dec->stats.string++;
		if (acc[i].flags & FA_ACC_KERNEL)
			dec->stats.kernel++;
		if (acc[i].op == FA_OP_UNKNOWN)
			dec->stats.unknown_op++;
	}
}

/**
 * fa_decoder__decode - Decode one sample into memory accesses
 * @dec: Decoder
 * @evsel: The sample's event
 * @sample: The sample
 * @al: The sample's IP resolved (machine__resolve())
 * @origin: Filled with the sample's time, thread and code, for every sample
 * @acc: Room for FA_DECODE_MAX_ACC accesses, pointing to @origin
 *
 * The accesses of one sample are in program order (a block walk's first).
 *
 * Return: the number of accesses in @acc; 0 if the sample gave none (counted
 * in @dec->stats by reason; @acc[0] then has the sample's IP and address).
 */
int fa_decoder__decode(struct fa_decoder *dec, struct evsel *evsel,
		       struct perf_sample *sample, struct addr_location *al,
		       struct fa_origin *origin, struct fa_access *acc)
{
	int source = fa_evsel__source(evsel);
	int n;

	dec->last_drop = FA_DROP_NONE;
	if (!dec->arch) {
		/* Not before the first sample: pipe input brings the header late. */
		dec->arch = dec->env ? perf_env__arch(dec->env) : NULL;
		dec->is64 = !dec->env || !dec->env->arch || strstr(dec->env->arch, "64");
	}
	fa_origin__init(origin, evsel, sample, al, source, dec->rec);
	fa_access__init(&acc[0], sample, origin);
	if (source < 0) {
		dec->stats.other++;
		return 0;
	}
	dec->stats.samples[source]++;

	switch (source) {
	case FA_SRC_MEM:
		n = fa_decoder__mem(dec, sample, al, acc);
		break;
	case FA_SRC_SW:
		if (evsel->core.attr.type == PERF_TYPE_BREAKPOINT)
			n = fa_decoder__watch(dec, evsel, sample, al, acc);
		else
			n = fa_decoder__sw(dec, sample, al, acc);
		break;
	case FA_SRC_TP:
		n = fa_decoder__tp(dec, evsel, sample, acc);
		break;
	default:
		n = 0;
		break;
	}
	origin->nr_accesses = n;
	dec->stats.accesses[source] += n;
	fa_decoder__count(dec, acc, n);
	return n;
}

/* Samples of every source of accesses, not those of other events */
u64 fa_decode_stats__samples(const struct fa_decode_stats *st)
{
	u64 n = 0;

	for (int i = 0; i < FA_SRC_MAX; i++)
		n += st->samples[i];
	return n;
}
