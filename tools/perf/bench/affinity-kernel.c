// SPDX-License-Identifier: GPL-2.0
/*
 * perf bench affinity kernel-synth: write a perf.data file of PEBS-shaped
 * kernel memory samples to struct rq, for perf affinity report -k on a
 * machine whose PMU has no memory sampling and whose kernel is not the
 * vmlinux at hand.
 *
 * The samples are at the real instructions of scheduler functions of the
 * vmlinux: those whose DWARF says a 'struct rq *' variable is in the base
 * register (and the few %gs: relative ones into this CPU's runqueues), and
 * the lock cmpxchg of _raw_spin_lock() on rq->__lock.  Their data addresses
 * are in the per-CPU runqueues of each CPU, as the load balancer of the
 * struct rq study touches them: every CPU takes its own rq's lock and
 * updates its clocks and current task, balances by reading nr_running,
 * curr, idle, ttwu_pending and the capacities of every rq of its group, and
 * wakes tasks up on others.  The kernel MMAP and the vmlinux's build ID
 * make 'perf affinity report -k vmlinux' resolve them as it would a
 * recording of that kernel.
 *
 *   perf bench affinity kernel-synth -k vmlinux -o perf.data
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/zalloc.h>
#include <subcmd/parse-options.h>
#include "bench.h"
#include "affinity-lines.h"
#include "../util/debug.h"

#ifdef HAVE_DWARF_SUPPORT
#include <gelf.h>
#include <elfutils/libdw.h>
#include <dwarf.h>
#include "../util/data-writer.h"
#include "../util/build-id.h"
#include "../util/data.h"
#include "../util/event.h"
#include "../util/insn-access.h"
#include "../util/sample.h"
#include "../util/symbol.h"
#include "../../arch/x86/include/uapi/asm/perf_regs.h"

#define KSYNTH_PID		2000		/* a kernel thread per CPU from here */
#define KSYNTH_PERCPU		0xffff88807fa00000ULL	/* __per_cpu_offset[0] */
#define KSYNTH_PERCPU_UNIT	0x200000ULL
#define KSYNTH_PHYS		0x7fa00000ULL
#define KSYNTH_MAX_INSNS	256
#define KSYNTH_PLAN		(SYNTH_LINES_MAX_CPUS + 2)

enum ksynth_role {
	KSYNTH_LOCK,		/* the owner takes its rq->__lock */
	KSYNTH_OWNER,		/* then updates its clocks, current task */
	KSYNTH_BALANCE,		/* a balancer reads every rq of its group */
	KSYNTH_WAKE,		/* a waker queues a task on another rq */
	KSYNTH_NR_ROLES,
};

/* A memory instruction and the offset in struct rq it accesses */
struct ksynth_insn {
	u64	ip;
	u32	off;
	bool	store;
	bool	lock;
};

struct ksynth_func {
	const char		*name;
	enum ksynth_role	 role;
	int			 nr_insns;
	struct ksynth_insn	*insns;
};

/* Optional but the first of each role: a symbol the compiler may rename */
static struct ksynth_func ksynth_funcs[] = {
	{ .name = "_raw_spin_lock",			.role = KSYNTH_LOCK, },
	{ .name = "update_rq_clock",			.role = KSYNTH_OWNER, },
	{ .name = "__schedule",				.role = KSYNTH_OWNER, },
	{ .name = "sched_tick",				.role = KSYNTH_OWNER, },
	/* this_cpu_write(runqueues.membarrier_state): %gs: relative */
	{ .name = "membarrier_exec_mmap",		.role = KSYNTH_OWNER, },
	{ .name = "idle_cpu",				.role = KSYNTH_BALANCE, },
	{ .name = "update_sd_lb_stats.constprop.0",	.role = KSYNTH_BALANCE, },
	{ .name = "update_sg_lb_stats",			.role = KSYNTH_BALANCE, },
	{ .name = "sched_balance_find_src_rq",		.role = KSYNTH_BALANCE, },
	{ .name = "try_to_wake_up",			.role = KSYNTH_WAKE, },
	{ .name = "ttwu_queue_wakelist",		.role = KSYNTH_WAKE, },
};

/* A call: a function on the rq of a CPU */
struct ksynth_call {
	s8	func;
	s8	rq;
};

struct ksynth_cpu {
	u64			clock;
	struct ksynth_call	plan[KSYNTH_PLAN];
	int			nr_plan;
	int			call;
	int			pos;
};

struct ksynth {
	const char		*vmlinux;
	Elf			*elf;
	Dwarf			*dbg;
	int			 fd;
	u64			 text;		/* _text */
	u64			 runqueues;	/* its per-CPU offset */
	u32			 rq_size;
	int			 nr_cpus;
	int			 nr_lines;	/* of an rq */
	u64			*truth;		/* samples per offset in struct rq */
	struct synth_lines	 lines;
	struct ksynth_cpu	 cpus[SYNTH_LINES_MAX_CPUS];
	struct perf_data_writer	 file;
};

static unsigned int ks_samples = 200000;
static unsigned int ks_cpus = 4;
static unsigned int ks_round = 1000;
static unsigned int ks_seed = 1;
static const char *ks_vmlinux;
static const char *ks_output;
static bool ks_truth;

static const struct option ksynth_options[] = {
	OPT_STRING('k', "vmlinux", &ks_vmlinux, "file", "vmlinux with DWARF"),
	OPT_UINTEGER('n', "samples", &ks_samples, "samples to write"),
	OPT_UINTEGER('c', "cpus", &ks_cpus, "CPUs, each with its rq (2 to 8)"),
	OPT_UINTEGER('r', "round", &ks_round, "samples of a CPU between FINISHED_ROUNDs"),
	OPT_UINTEGER('s', "seed", &ks_seed, "random seed"),
	OPT_STRING('o', "output", &ks_output, "file", "the perf.data to write"),
	OPT_BOOLEAN(0, "truth", &ks_truth, "print the samples of each offset in struct rq"),
	OPT_END()
};

static const char * const ksynth_usage[] = {
	"perf bench affinity kernel-synth -k <vmlinux> -o <file> [<options>]",
	NULL
};

/* DWARF register numbers of x86-64 as perf register ids */
static int ksynth__dwarf_reg(unsigned int reg)
{
	static const s8 regs[] = {
		PERF_REG_X86_AX, PERF_REG_X86_DX, PERF_REG_X86_CX, PERF_REG_X86_BX,
		PERF_REG_X86_SI, PERF_REG_X86_DI, PERF_REG_X86_BP, PERF_REG_X86_SP,
		PERF_REG_X86_R8, PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11,
		PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
	};

	return reg < ARRAY_SIZE(regs) ? regs[reg] : INSN_ACCESS_REG_NONE;
}

/* Whether @die's type is 'struct rq *', through typedefs and qualifiers */
static bool ksynth_die__is_rq_ptr(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;
	const char *name;
	bool ptr = false;

	while (dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, &type)) {
		switch (dwarf_tag(&type)) {
		case DW_TAG_pointer_type:
			if (ptr)
				return false;
			ptr = true;
			break;
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
			break;
		case DW_TAG_structure_type:
			name = dwarf_diename(&type);
			return ptr && name && !strcmp(name, "rq");
		default:
			return false;
		}
		die = &type;
	}
	return false;
}

/* Whether a 'struct rq *' variable of a scope around @ip is in @reg there */
static bool ksynth__rq_in_reg(Dwarf_Die *scopes, int nr_scopes, u64 ip, int reg)
{
	for (int i = 0; i < nr_scopes; i++) {
		Dwarf_Die var;

		if (dwarf_child(&scopes[i], &var))
			continue;
		do {
			Dwarf_Attribute attr;
			Dwarf_Op *expr;
			size_t len;
			int tag = dwarf_tag(&var);

			if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
			    !dwarf_attr(&var, DW_AT_location, &attr) ||
			    dwarf_getlocation_addr(&attr, ip, &expr, &len, 1) != 1 || len != 1 ||
			    expr[0].atom < DW_OP_reg0 || expr[0].atom > DW_OP_reg31)
				continue;
			if (ksynth__dwarf_reg(expr[0].atom - DW_OP_reg0) == reg &&
			    ksynth_die__is_rq_ptr(&var))
				return true;
		} while (dwarf_siblingof(&var, &var) == 0);
	}
	return false;
}

/* The offset in struct rq an instruction accesses, or -1 */
static int ksynth__rq_offset(struct ksynth *ks, struct ksynth_func *fn, Dwarf_Die *cu,
			     const struct insn_access_insn *insn, u64 ip)
{
	const struct insn_mem_operand *op = &insn->ops[0];
	Dwarf_Die *scopes;
	int nr, off = -1;

	if (op->index != INSN_ACCESS_REG_NONE)
		return -1;
	if (op->flags & INSN_ACCESS_F_SEG_GS) {
		/* this_rq()->field: %gs:runqueues+off(%rip) */
		u64 pcpu = op->base == INSN_ACCESS_REG_IP ? ip + insn->length + op->disp :
			   op->base == INSN_ACCESS_REG_NONE ? (u64)op->disp : ~0ULL;

		if (pcpu >= ks->runqueues && pcpu < ks->runqueues + ks->rq_size)
			return pcpu - ks->runqueues;
		return -1;
	}
	if (op->base < 0 || op->disp < 0 || op->disp >= ks->rq_size ||
	    (op->flags & (INSN_ACCESS_F_FRAME | INSN_ACCESS_F_SEG_FS)))
		return -1;
	/* spin_lock(&rq->__lock): the lock is the first member */
	if (fn->role == KSYNTH_LOCK)
		return (op->flags & INSN_ACCESS_F_LOCK) && !op->disp ? 0 : -1;
	nr = dwarf_getscopes(cu, ip, &scopes);
	if (nr > 0 && ksynth__rq_in_reg(scopes, nr, ip, op->base))
		off = op->disp;
	free(nr > 0 ? scopes : NULL);
	return off;
}

static int ksynth_func__add(struct ksynth_func *fn, u64 ip, u32 off,
			    const struct insn_access_insn *insn)
{
	if (fn->nr_insns == KSYNTH_MAX_INSNS)
		return -ENOSPC;
	if (!fn->insns) {
		fn->insns = calloc(KSYNTH_MAX_INSNS, sizeof(*fn->insns));
		if (!fn->insns)
			return -ENOMEM;
	}
	fn->insns[fn->nr_insns++] = (struct ksynth_insn){
		.ip = ip, .off = off, .store = insn->ops[0].op & INSN_ACCESS_OP_STORE,
		.lock = insn->ops[0].flags & INSN_ACCESS_F_LOCK,
	};
	return 0;
}

/* The instructions of @fn, at @start in @code, that access a struct rq */
static int ksynth_func__decode(struct ksynth *ks, struct ksynth_func *fn, u64 start,
			       const u8 *code, size_t len)
{
	struct insn_access_insn insn;
	Dwarf_Die cu;

	if (!dwarf_addrdie(ks->dbg, start, &cu)) {
		pr_err("%s: no DWARF for %s\n", ks->vmlinux, fn->name);
		return -ENOENT;
	}
	for (size_t pos = 0; pos < len; pos += insn.length) {
		int off;

		if (insn_access__decode(&insn, "x86", code + pos, len - pos, start + pos, true) ||
		    !insn.length)
			break;
		if (insn.result != INSN_ACCESS__OK || insn.nr_ops != 1)
			continue;
		off = ksynth__rq_offset(ks, fn, &cu, &insn, start + pos);
		if (off >= 0 && ksynth_func__add(fn, start + pos, off, &insn))
			break;
	}
	return 0;
}

/* The bytes at @addr of an allocated section */
static const u8 *ksynth__code(struct ksynth *ks, u64 addr, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(ks->elf, scn)) != NULL) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_PROGBITS ||
		    addr < shdr.sh_addr || addr + len > shdr.sh_addr + shdr.sh_size)
			continue;
		data = elf_getdata(scn, NULL);
		return data && data->d_buf ? (const u8 *)data->d_buf + addr - shdr.sh_addr :
					     NULL;
	}
	return NULL;
}

static int ksynth__symbol(struct ksynth *ks, GElf_Sym *sym, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(ksynth_funcs); i++) {
		struct ksynth_func *fn = &ksynth_funcs[i];
		const u8 *code;

		if (strcmp(name, fn->name) || GELF_ST_TYPE(sym->st_info) != STT_FUNC)
			continue;
		code = ksynth__code(ks, sym->st_value, sym->st_size);
		return code ? ksynth_func__decode(ks, fn, sym->st_value, code, sym->st_size) : 0;
	}
	if (!strcmp(name, "_text"))
		ks->text = sym->st_value;
	if (!strcmp(name, "runqueues")) {
		ks->runqueues = sym->st_value;
		ks->rq_size = sym->st_size;
	}
	return 0;
}

/* Walk the symbol table twice: the functions need runqueues */
static int ksynth__symbols(struct ksynth *ks, bool funcs)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(ks->elf, scn)) != NULL) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;
			int err;

			if (!gelf_getsym(data, i, &sym))
				continue;
			name = elf_strptr(ks->elf, shdr.sh_link, sym.st_name);
			if (!name || (funcs != (GELF_ST_TYPE(sym.st_info) == STT_FUNC)))
				continue;
			err = ksynth__symbol(ks, &sym, name);
			if (err)
				return err;
		}
		return 0;
	}
	pr_err("%s: no symbol table\n", ks->vmlinux);
	return -ENOENT;
}

/* Every role needs a function with rq accesses, the rest are extra */
static int ksynth__check_roles(struct ksynth *ks)
{
	static const char * const roles[] = {
		[KSYNTH_LOCK]		= "the rq lock",
		[KSYNTH_OWNER]		= "rq clock updates",
		[KSYNTH_BALANCE]	= "load balancing",
		[KSYNTH_WAKE]		= "wakeups",
	};

	for (int r = 0; r < KSYNTH_NR_ROLES; r++) {
		bool found = false;

		for (size_t i = 0; i < ARRAY_SIZE(ksynth_funcs); i++)
			found |= (int)ksynth_funcs[i].role == r && ksynth_funcs[i].nr_insns;
		if (!found) {
			pr_err("%s: no struct rq access found for %s\n", ks->vmlinux, roles[r]);
			return -ENOENT;
		}
	}
	return 0;
}

static int ksynth__load(struct ksynth *ks)
{
	int err;

	elf_version(EV_CURRENT);
	ks->fd = open(ks->vmlinux, O_RDONLY);
	if (ks->fd < 0) {
		pr_err("cannot open %s: %s\n", ks->vmlinux, strerror(errno));
		return -errno;
	}
	ks->elf = elf_begin(ks->fd, ELF_C_READ_MMAP, NULL);
	ks->dbg = ks->elf ? dwarf_begin_elf(ks->elf, DWARF_C_READ, NULL) : NULL;
	if (!ks->dbg) {
		pr_err("%s: not an ELF file with DWARF\n", ks->vmlinux);
		return -EINVAL;
	}
	err = ksynth__symbols(ks, /*funcs=*/false);
	if (!err && (!ks->text || !ks->rq_size)) {
		pr_err("%s: no _text or runqueues: not a vmlinux?\n", ks->vmlinux);
		err = -ENOENT;
	}
	if (!err)
		err = ksynth__symbols(ks, /*funcs=*/true);
	return err ?: ksynth__check_roles(ks);
}

static void ksynth__unload(struct ksynth *ks)
{
	if (ks->dbg)
		dwarf_end(ks->dbg);
	if (ks->elf)
		elf_end(ks->elf);
	if (ks->fd >= 0)
		close(ks->fd);
	for (size_t i = 0; i < ARRAY_SIZE(ksynth_funcs); i++) {
		zfree(&ksynth_funcs[i].insns);
		ksynth_funcs[i].nr_insns = 0;
	}
}

/* A function of @role, at random among those with accesses */
static int ksynth__pick(struct ksynth *ks, enum ksynth_role role)
{
	int nr = 0, pick;

	for (size_t i = 0; i < ARRAY_SIZE(ksynth_funcs); i++)
		nr += ksynth_funcs[i].role == role && ksynth_funcs[i].nr_insns;
	pick = synth_lines__rnd(&ks->lines) % nr;
	for (size_t i = 0; i < ARRAY_SIZE(ksynth_funcs); i++) {
		if (ksynth_funcs[i].role == role && ksynth_funcs[i].nr_insns && !pick--)
			return i;
	}
	return 0;
}

static void ksynth_cpu__call(struct ksynth *ks, struct ksynth_cpu *c, enum ksynth_role role,
			     int rq)
{
	c->plan[c->nr_plan++] = (struct ksynth_call){ .func = ksynth__pick(ks, role), .rq = rq, };
}

/*
 * What @cpu does next: schedule on its rq (lock, then clocks and current
 * task); balance (read every rq of the group, then lock the busiest to pull
 * tasks from it, half the time); or wake a task up on another rq, under
 * that rq's lock.  The lock's line is written by every CPU.
 */
static void ksynth_cpu__plan(struct ksynth *ks, struct ksynth_cpu *c, int cpu)
{
	u32 r = synth_lines__rnd(&ks->lines) % 100;
	int other = (cpu + 1 + synth_lines__rnd(&ks->lines) % (ks->nr_cpus - 1)) % ks->nr_cpus;

	c->nr_plan = 0;
	c->call = 0;
	c->pos = 0;
	if (r < 60) {
		ksynth_cpu__call(ks, c, KSYNTH_LOCK, cpu);
		ksynth_cpu__call(ks, c, KSYNTH_OWNER, cpu);
	} else if (r < 85) {
		for (int i = 0; i < ks->nr_cpus; i++)
			ksynth_cpu__call(ks, c, KSYNTH_BALANCE, (cpu + 1 + i) % ks->nr_cpus);
		if (r % 2)
			ksynth_cpu__call(ks, c, KSYNTH_LOCK, other);
	} else {
		ksynth_cpu__call(ks, c, KSYNTH_LOCK, other);
		ksynth_cpu__call(ks, c, KSYNTH_WAKE, other);
	}
}

static u64 ksynth__rq(int cpu)
{
	return KSYNTH_PERCPU + (u64)cpu * KSYNTH_PERCPU_UNIT;
}

static int ksynth__write_sample(struct ksynth *ks, int cpu)
{
	struct ksynth_cpu *c = &ks->cpus[cpu];
	struct perf_sample sample = { .pid = KSYNTH_PID + cpu, .tid = KSYNTH_PID + cpu,
				      .cpu = cpu, .period = 1000,
				      .cpumode = PERF_RECORD_MISC_KERNEL, };
	const struct ksynth_func *fn;
	const struct ksynth_insn *in;
	struct ksynth_call *call;

	if (!c->nr_plan)
		ksynth_cpu__plan(ks, c, cpu);
	call = &c->plan[c->call];
	fn = &ksynth_funcs[call->func];
	in = &fn->insns[c->pos];
	if (++c->pos == fn->nr_insns) {
		c->pos = 0;
		if (++c->call == c->nr_plan)
			c->nr_plan = 0;
	}
	c->clock += 100 + synth_lines__rnd(&ks->lines) % 200;
	sample.time = c->clock;
	sample.ip = in->ip;
	sample.addr = ksynth__rq(call->rq) + ks->runqueues + in->off;
	sample.phys_addr = KSYNTH_PHYS + (sample.addr & 0x3fffffffULL);
	sample.data_src = synth_lines__access(&ks->lines, call->rq * ks->nr_lines + in->off / 64,
					      cpu, in->store, in->lock, &sample.weight);
	ks->truth[in->off]++;
	return perf_data_writer__write_sample(&ks->file, &sample);
}

/*
 * The samples in time order, the CPU furthest behind next, so that the
 * lines' states (the data sources) follow the order the report sees them
 * in; a FINISHED_ROUND after each round of every CPU.
 */
static int ksynth__write_samples(struct ksynth *ks)
{
	struct perf_event_header round = { .type = PERF_RECORD_FINISHED_ROUND,
					   .size = sizeof(round), };
	u64 per_round = (u64)ks_round * ks->nr_cpus;
	int err = 0;

	for (u64 i = 0; i < ks_samples && !err; i++) {
		int cpu = 0;

		for (int c = 1; c < ks->nr_cpus; c++) {
			if (ks->cpus[c].clock < ks->cpus[cpu].clock)
				cpu = c;
		}
		err = ksynth__write_sample(ks, cpu);
		if (!err && ((i + 1) % per_round == 0 || i + 1 == ks_samples))
			err = perf_data_writer__write(&ks->file, &round, sizeof(round));
	}
	return err;
}

/* The kernel map, as perf record synthesizes it: pgoff is _text */
static int ksynth__write_mmap(struct ksynth *ks)
{
	static const char name[] = "[kernel.kallsyms]_text";
	union perf_event event;

	memset(&event.mmap, 0, sizeof(event.mmap));
	event.mmap.header.type = PERF_RECORD_MMAP;
	event.mmap.header.misc = PERF_RECORD_MISC_KERNEL;
	event.mmap.header.size = sizeof(event.mmap) - sizeof(event.mmap.filename) +
				 PERF_ALIGN(sizeof(name), sizeof(u64));
	event.mmap.pid = (u32)-1;
	event.mmap.start = ks->text;
	event.mmap.len = ~0ULL - ks->text;
	event.mmap.pgoff = ks->text;
	memcpy(event.mmap.filename, name, sizeof(name));
	return perf_data_writer__write_side(&ks->file, &event, (u32)-1, 0);
}

static int ksynth__write_comms(struct ksynth *ks)
{
	union perf_event event;

	for (int cpu = 0; cpu < ks->nr_cpus; cpu++) {
		memset(&event.comm, 0, sizeof(event.comm));
		event.comm.header.type = PERF_RECORD_COMM;
		event.comm.header.size = offsetof(struct perf_record_comm, comm) + 16;
		event.comm.pid = KSYNTH_PID + cpu;
		event.comm.tid = KSYNTH_PID + cpu;
		snprintf(event.comm.comm, 16, "kworker/%u:1", (u8)cpu);
		if (perf_data_writer__write_side(&ks->file, &event, KSYNTH_PID + cpu,
						 KSYNTH_PID + cpu))
			return -EIO;
	}
	return 0;
}

static int ksynth__write_file(struct ksynth *ks, struct perf_data *data)
{
	struct perf_event_attr attr;
	int err;

	perf_data_writer__mem_attr(&attr, /*kernel=*/true);
	err = perf_data_writer__open(&ks->file, data, &attr, NULL);
	ks->file.nr_cpus = ks->nr_cpus;
	if (!err)
		err = perf_data_writer__add_kernel(&ks->file, ks->vmlinux);
	if (!err)
		err = ksynth__write_mmap(ks);
	if (!err)
		err = ksynth__write_comms(ks);
	if (!err)
		err = ksynth__write_samples(ks);
	return perf_data_writer__close(&ks->file, err);
}

static void ksynth__print(const struct ksynth *ks)
{
	u64 insns = 0;

	for (size_t i = 0; i < ARRAY_SIZE(ksynth_funcs); i++)
		insns += ksynth_funcs[i].nr_insns;
	printf("# %u samples of %d CPUs at %" PRIu64 " instructions, %" PRIu64 " MB\n",
	       ks_samples, ks->nr_cpus, insns, ks->file.written >> 20);
	for (size_t i = 0; ks_truth && i < ARRAY_SIZE(ksynth_funcs); i++)
		printf("# %-32s %3d accesses to struct rq\n", ksynth_funcs[i].name,
		       ksynth_funcs[i].nr_insns);
	for (u32 off = 0; ks_truth && off < ks->rq_size; off++) {
		if (ks->truth[off])
			printf("%#x %" PRIu64 "\n", off, ks->truth[off]);
	}
}

int bench_affinity_kernel_synth(int argc, const char **argv)
{
	struct perf_data data = { .mode = PERF_DATA_MODE_WRITE, .force = true, };
	struct ksynth ks = { .fd = -1, };
	int err;

	argc = parse_options(argc, argv, ksynth_options, ksynth_usage, 0);
	if (argc || !ks_vmlinux || !ks_output)
		usage_with_options(ksynth_usage, ksynth_options);
	if (ks_cpus < 2 || ks_cpus > SYNTH_LINES_MAX_CPUS) {
		pr_err("--cpus must be 2 to %d\n", SYNTH_LINES_MAX_CPUS);
		return -1;
	}
	ks.vmlinux = ks_vmlinux;
	ks.nr_cpus = ks_cpus;
	data.path = ks_output;
	ks_round = max(ks_round, 1U);
	disable_buildid_cache();
	err = symbol__init(NULL);
	if (!err)
		err = ksynth__load(&ks);
	if (!err) {
		ks.nr_lines = DIV_ROUND_UP(ks.rq_size, 64);
		ks.truth = calloc(ks.rq_size, sizeof(*ks.truth));
		err = ks.truth ? synth_lines__init(&ks.lines, ks.nr_cpus * ks.nr_lines, ks_seed) :
				 -ENOMEM;
	}
	if (!err) {
		err = ksynth__write_file(&ks, &data);
		if (err)
			pr_err("cannot write %s: %s\n", data.path, strerror(-err));
	}
	if (!err)
		ksynth__print(&ks);
	synth_lines__exit(&ks.lines);
	zfree(&ks.truth);
	ksynth__unload(&ks);
	return err ? -1 : 0;
}

#else /* !HAVE_DWARF_SUPPORT */

int bench_affinity_kernel_synth(int argc __maybe_unused, const char **argv __maybe_unused)
{
	pr_err("perf bench affinity kernel-synth needs perf built with DWARF support\n");
	return -1;
}

#endif /* HAVE_DWARF_SUPPORT */
