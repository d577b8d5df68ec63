// SPDX-License-Identifier: GPL-2.0
/* perf affinity record --watch (see watch.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/zalloc.h>
#include "../fields/fields.h"
#include "watch.h"
#include "../../debuginfo.h"
#include "../../strbuf.h"

/* x86-64: ELF_ET_DYN_BASE, where an executable with an interpreter goes */
#define FA_X86_64_ET_DYN_BASE	0x555555554aaaULL
#define FA_PAGE_SIZE		4096ULL

/*
 * What --watch names: var, var.field, var->field, var+off, and /len; a
 * per-CPU kernel variable's instance of one CPU: var@cpu
 */
struct fa_watch_spec {
	char	*var;
	char	*field;
	u64	 off;
	u32	 len;
	int	 cpu;
	bool	 deref;
};

static int fa_watch_spec__parse(const char *spec, struct fa_watch_spec *ws)
{
	char *s, *end;

	memset(ws, 0, sizeof(*ws));
	ws->cpu = -1;
	ws->var = strdup(spec);
	if (!ws->var)
		return -ENOMEM;
	s = strchr(ws->var, '/');
	if (s) {
		*s++ = '\0';
		ws->len = strtoul(s, &end, 0);
		if (*end || (ws->len != 1 && ws->len != 2 && ws->len != 4 && ws->len != 8))
			return -EINVAL;
	}
	s = strchr(ws->var, '+');
	if (s) {
		*s++ = '\0';
		ws->off = strtoull(s, &end, 0);
		if (*end || end == s)
			return -EINVAL;
	}
	s = strstr(ws->var, "->");
	if (s) {
		*s = '\0';
		ws->field = s + 2;
		ws->deref = true;
		return *ws->var && *ws->field && !ws->off ? 0 : -EINVAL;
	}
	s = strchr(ws->var, '.');
	if (s) {
		*s++ = '\0';
		ws->field = s;
	}
	s = strchr(ws->var, '@');
	if (s) {
		*s++ = '\0';
		ws->cpu = strtol(s, &end, 10);
		if (*end || end == s || ws->cpu < 0)
			return -EINVAL;
	}
	return *ws->var ? 0 : -EINVAL;
}

/* Whether section @idx of @elf is named @name */
static bool fa_elf__section_is(Elf *elf, size_t idx, const char *name)
{
	Elf_Scn *scn = elf_getscn(elf, idx);
	const char *n = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (scn && gelf_getshdr(scn, &sh) && !elf_getshdrstrndx(elf, &shstrndx))
		n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && !strcmp(n, name);
}

/*
 * The link time address and size of symbol @name in @elf, of @type
 * (STT_NOTYPE: any), and whether it is a per-CPU variable of the kernel
 */
static int fa_elf__symbol(Elf *elf, const char *name, int type, u64 *addr, u64 *size,
			  bool *percpu)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, i, &sym) ||
			    (type != STT_NOTYPE && GELF_ST_TYPE(sym.st_info) != type))
				continue;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name)) {
				*addr = sym.st_value;
				*size = sym.st_size;
				*percpu = fa_elf__section_is(elf, sym.st_shndx, ".data..percpu");
				return 0;
			}
		}
	}
	return -ENOENT;
}

/*
 * Where the link time address 0 of @elf is in a process without address
 * space randomization: as the kernel's load_elf_binary() places it
 */
static int fa_elf__load_bias(Elf *elf, u64 *bias)
{
	u64 align = FA_PAGE_SIZE, first = ~0ULL;
	bool interp = false;
	GElf_Ehdr eh;
	size_t n;

	if (!gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n))
		return -EINVAL;
	if (eh.e_type == ET_EXEC) {
		*bias = 0;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph))
			return -EINVAL;
		if (ph.p_type == PT_INTERP)
			interp = true;
		if (ph.p_type != PT_LOAD)
			continue;
		first = min_t(u64, first, ph.p_vaddr);
		if (is_power_of_2(ph.p_align))
			align = max(align, (u64)ph.p_align);
	}
	/* a static PIE goes where mmap() puts it */
	if (!interp || first == ~0ULL)
		return -ENOTSUP;
	*bias = ((FA_X86_64_ET_DYN_BASE & ~(align - 1)) - first) & ~(FA_PAGE_SIZE - 1);
	return 0;
}

static void fa_watch_resolver__forget_type(struct fa_watch_resolver *r)
{
	zfree(&r->var);
	fa_struct__delete(r->st);
	r->st = NULL;
}

/*
 * @var's struct type, or the struct type @var points to (@deref), from
 * the DWARF of @r->exe: the last one is kept for the next spec
 */
static struct fa_struct *fa_watch_resolver__struct(struct fa_watch_resolver *r,
						   const char *var, u64 vaddr, bool deref)
{
	struct debuginfo *di;
	u64 die_offset, var_die;
	struct strbuf name;
	bool array;
	u32 tsize;

	if (r->var && !strcmp(r->var, var) && r->vaddr == vaddr && r->deref == deref)
		return r->st;
	fa_watch_resolver__forget_type(r);
	r->var = strdup(var);
	if (!r->var)
		return NULL;
	r->vaddr = vaddr;
	r->deref = deref;
	di = debuginfo__new(r->exe);
	strbuf_init(&name, 64);
	if (di && !(deref ? fa_dwarf__pointee_type(di->dbg, var, vaddr, &name, &tsize,
						   &die_offset) :
			    fa_dwarf__var_type(di->dbg, NULL, var, vaddr, &name, &tsize,
					       &array, &die_offset, &var_die)))
		r->st = fa_struct__from_dwarf(di->dbg, name.buf, tsize, die_offset);
	strbuf_release(&name);
	debuginfo__delete(di);
	return r->st;
}

/* The resolution ended: forget the struct type kept and the running kernel */
void fa_watch_resolver__exit(struct fa_watch_resolver *r)
{
	fa_watch_resolver__forget_type(r);
	fa_kernel__exit(&r->running);
}

/* The largest length of 8, 4, 2, 1 bytes that @addr is aligned to, and @size holds */
static u32 fa_watch__len(u64 addr, u64 size)
{
	u32 len = 8;

	while (len > 1 && ((addr & (len - 1)) || len > size))
		len /= 2;
	return len;
}

/*
 * @w: @size bytes at @off of variable @ws->var at @var_addr in the
 * workload, or of what it points to; @name its member's, or NULL
 */
static int fa_watch__target(struct fa_watch *w, const struct fa_watch_spec *ws, u64 var_addr,
			    u64 off, u64 size, const char *name, char *errbuf, size_t errsize)
{
	char var[128];

	/* a per-CPU variable's instance: var@cpu */
	if (ws->cpu >= 0)
		scnprintf(var, sizeof(var), "%s@%d", ws->var, ws->cpu);
	else
		scnprintf(var, sizeof(var), "%s", ws->var);
	memset(w, 0, sizeof(*w));
	if (name && asprintf(&w->spec, "%s%s%s", var, ws->deref ? "->" : ".", name) < 0)
		w->spec = NULL;
	else if (!name)
		w->spec = strdup(var);
	if (!w->spec)
		return -ENOMEM;
	w->size = size ?: 1;
	if (ws->deref) {
		/* where it points is learned as the workload runs (watch-duty.c) */
		w->ptr = var_addr;
		w->off = off;
		w->addr = w->ptr;
		/* an allocation is aligned to 16 bytes at least */
		w->len = ws->len ?: fa_watch__len(off, w->size);
		return 0;
	}
	w->addr = var_addr + off;
	w->len = ws->len ?: fa_watch__len(w->addr, w->size);
	if (w->addr & (w->len - 1)) {
		scnprintf(errbuf, errsize, "%s at %#" PRIx64 " is not aligned to %u bytes",
			  w->spec, w->addr, w->len);
		return -EINVAL;
	}
	return 0;
}

/*
 * Whether @f is member @name, or an anonymous union of it ("{donor|curr}"
 * is curr): watching the union watches the member
 */
static bool fa_field__is(const struct fa_field *f, const char *name)
{
	size_t len = strlen(name);
	const char *s = f->name;

	if (!strcmp(s, name))
		return true;
	if (*s != '{')
		return false;
	for (s = strstr(s, name); s; s = strstr(s + 1, name)) {
		if (s > f->name && strchr("{|,", s[-1]) && strchr("}|,", s[len]))
			return true;
	}
	return false;
}

/* @ws's members: the one named, or every leaf ('*'), into @w, room for @room */
static int fa_watch__members(struct fa_watch *w, int room, const struct fa_watch_spec *ws,
			     struct fa_watch_resolver *r, u64 vaddr, u64 var_addr, char *errbuf,
			     size_t size)
{
	struct fa_struct *st = fa_watch_resolver__struct(r, ws->var, vaddr, ws->deref);
	bool all = !strcmp(ws->field, "*");
	int n = 0, err = 0;

	/* a member by its name, nested structs too; '*': what accesses go to */
	for (int i = 0; st && i < (all ? st->nr_leaves : st->nr_fields) && !err; i++) {
		const struct fa_field *f = &st->fields[all ? st->leaves[i] : i];

		if (!all && !fa_field__is(f, ws->field))
			continue;
		if (n == room) {
			scnprintf(errbuf, size, "more than %d watchpoints", FA_WATCH_TARGETS);
			err = -E2BIG;
			break;
		}
		err = fa_watch__target(&w[n], ws, var_addr, ws->off + f->offset, f->size, f->name,
				       errbuf, size);
		n += !err;
	}
	if (!err && !n) {
		scnprintf(errbuf, size, "no member '%s' in the struct type %s%s (DWARF of %s)",
			  ws->field, ws->deref ? "pointed to by " : "of ", ws->var, r->exe);
		err = -ENOENT;
	}
	if (err)
		fa_watch__free_specs(w, n);
	return err ?: n;
}

/* @ws of the variable at @vaddr of the ELF file, at @var_addr in memory */
static int fa_watch__place(struct fa_watch *w, int room, const struct fa_watch_spec *ws,
			   struct fa_watch_resolver *r, u64 vaddr, u64 vsize, u64 var_addr,
			   char *errbuf, size_t size)
{
	int err;

	if (ws->field)
		return fa_watch__members(w, room, ws, r, vaddr, var_addr, errbuf, size);
	err = fa_watch__target(w, ws, var_addr, ws->off, vsize - min(ws->off, vsize), NULL,
			       errbuf, size);
	return err ?: 1;
}

/* Where the kernel of the vmlinux @elf runs: read with its first variable */
static int fa_watch_resolver__running(struct fa_watch_resolver *r, Elf *elf, char *errbuf,
				      size_t size)
{
	u64 text, offsets, unused;
	bool percpu;

	if (r->running.cpu_base)
		return 0;
	if (fa_elf__symbol(elf, "_text", STT_NOTYPE, &text, &unused, &percpu) ||
	    fa_elf__symbol(elf, "__per_cpu_offset", STT_OBJECT, &offsets, &unused, &percpu)) {
		scnprintf(errbuf, size, "%s: no vmlinux (no _text or __per_cpu_offset)", r->exe);
		return -EINVAL;
	}
	return fa_kernel__init(&r->running, r->exe, text, offsets, errbuf, size);
}

/*
 * A kernel variable at @vaddr of the vmlinux: where the running kernel has
 * it; a per-CPU one's instance of @ws->cpu, or of every CPU
 */
static int fa_watch__resolve_kernel(struct fa_watch *w, int room, struct fa_watch_spec *ws,
				    struct fa_watch_resolver *r, Elf *elf, u64 vaddr, u64 vsize,
				    bool percpu, char *errbuf, size_t size)
{
	const struct fa_kernel *k = &r->running;
	int cpu = ws->cpu, last, n = 0, err;

	if (ws->deref || (!percpu && ws->cpu >= 0)) {
		scnprintf(errbuf, size, ws->deref ? "var->field: not in the kernel" :
			  "'%s' is no per-CPU variable: no @cpu", ws->var);
		return -EINVAL;
	}
	err = fa_watch_resolver__running(r, elf, errbuf, size);
	if (err)
		return err;
	if (!percpu)
		return fa_watch__place(w, room, ws, r, vaddr, vsize,
				       fa_kernel__addr(k, vaddr, false, 0), errbuf, size);
	if (cpu >= k->nr_cpus) {
		scnprintf(errbuf, size, "no CPU %d: %d configured", cpu, k->nr_cpus);
		return -EINVAL;
	}
	last = cpu < 0 ? k->nr_cpus - 1 : cpu;
	for (ws->cpu = max(cpu, 0); ws->cpu <= last && !err; ws->cpu++) {
		err = fa_watch__place(w + n, room - n, ws, r, vaddr, vsize,
				      fa_kernel__addr(k, vaddr, true, ws->cpu), errbuf, size);
		n += max(err, 0);
		err = min(err, 0);
	}
	ws->cpu = cpu;
	if (err)
		fa_watch__free_specs(w, n);
	return err ?: n;
}

/* The ELF of @r->exe: resolve @ws in it into @w, room for @room */
static int fa_watch__resolve_elf(struct fa_watch *w, int room, struct fa_watch_spec *ws,
				 struct fa_watch_resolver *r, Elf *elf, char *errbuf, size_t size)
{
	u64 vaddr, vsize, bias;
	bool percpu;
	int err;

	if (fa_elf__symbol(elf, ws->var, STT_OBJECT, &vaddr, &vsize, &percpu)) {
		scnprintf(errbuf, size, "no variable '%s' in the symbol table of %s", ws->var,
			  r->exe);
		return -ENOENT;
	}
	if (r->kernel)
		return fa_watch__resolve_kernel(w, room, ws, r, elf, vaddr, vsize, percpu, errbuf,
						size);
	if (ws->cpu >= 0) {
		scnprintf(errbuf, size, "@cpu: only for per-CPU variables of the kernel");
		return -EINVAL;
	}
	err = fa_elf__load_bias(elf, &bias);
	if (err) {
		scnprintf(errbuf, size, "%s: %s", r->exe, err == -ENOTSUP ?
			  "a static PIE, its address is not known before it runs" :
			  "not an ELF executable");
		return err;
	}
	return fa_watch__place(w, room, ws, r, vaddr, vsize, bias + vaddr, errbuf, size);
}

/**
 * fa_watch__resolve - Where --watch @spec will be in @r->exe, run without
 * ASLR, or in the running kernel (@r->kernel: @r->exe is its vmlinux)
 * @w: The watched ranges, room for @room (var.* and per-CPU variables name
 *     several)
 * @errbuf: Why not, when it returns an error
 *
 * Return: how many ranges are in @w, or a negative error.
 */
int fa_watch__resolve(struct fa_watch_resolver *r, const char *spec, struct fa_watch *w,
		      int room, char *errbuf, size_t size)
{
	const char *exe = r->exe;
	struct fa_watch_spec ws;
	Elf *elf = NULL;
	int fd = -1, err;

	if (room < 1) {
		scnprintf(errbuf, size, "more than %d watchpoints", FA_WATCH_TARGETS);
		return -E2BIG;
	}
	err = fa_watch_spec__parse(spec, &ws);
	if (err) {
		scnprintf(errbuf, size,
			  "not var[@cpu], var.field, var->field, var.* or var+offset, then /1, /2, /4 or /8");
		goto out;
	}
#ifndef __x86_64__
	scnprintf(errbuf, size, "--watch: x86-64 only");
	err = -ENOTSUP;
	goto out;
#endif
	elf_version(EV_CURRENT);
	fd = open(exe, O_RDONLY);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		scnprintf(errbuf, size, "cannot read %s", exe);
		err = -errno ?: -EINVAL;
		goto out;
	}
	err = fa_watch__resolve_elf(w, room, &ws, r, elf, errbuf, size);
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(ws.var);
	return err;
}
