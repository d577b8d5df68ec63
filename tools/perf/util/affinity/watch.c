// SPDX-License-Identifier: GPL-2.0
/* perf affinity record --watch (see watch.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/zalloc.h>
#include "fields.h"
#include "watch.h"
#include "../debuginfo.h"
#include "../strbuf.h"

/* x86-64: ELF_ET_DYN_BASE, where an executable with an interpreter goes */
#define FA_X86_64_ET_DYN_BASE	0x555555554aaaULL
#define FA_PAGE_SIZE		4096ULL

/* What --watch names: var, var.field, var->field, var+off, and /len */
struct fa_watch_spec {
	char	*var;
	char	*field;
	u64	 off;
	u32	 len;
	bool	 deref;
};

static int fa_watch_spec__parse(const char *spec, struct fa_watch_spec *ws)
{
	char *s, *end;

	memset(ws, 0, sizeof(*ws));
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
	return *ws->var ? 0 : -EINVAL;
}

/* The link time address and size of data symbol @name in @elf */
static int fa_elf__object(Elf *elf, const char *name, u64 *addr, u64 *size)
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

			if (!gelf_getsym(data, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
				continue;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name)) {
				*addr = sym.st_value;
				*size = sym.st_size;
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
		first = min(first, (u64)ph.p_vaddr);
		if (is_power_of_2(ph.p_align))
			align = max(align, (u64)ph.p_align);
	}
	/* a static PIE goes where mmap() puts it */
	if (!interp || first == ~0ULL)
		return -ENOTSUP;
	*bias = ((FA_X86_64_ET_DYN_BASE & ~(align - 1)) - first) & ~(FA_PAGE_SIZE - 1);
	return 0;
}

/*
 * The offset and size of @field of @var's struct type, or of the struct
 * type @var points to (@deref), from @exe's DWARF
 */
static int fa_watch__field(const char *exe, const char *var, u64 vaddr, const char *field,
			   bool deref, u64 *off, u64 *size)
{
	struct debuginfo *di = debuginfo__new(exe);
	struct fa_struct *st = NULL;
	u64 die_offset, var_die;
	struct strbuf name;
	int err = -ENOENT;
	bool array;
	u32 tsize;

	strbuf_init(&name, 64);
	if (!di)
		goto out;
	if (deref ? fa_dwarf__pointee_type(di->dbg, var, vaddr, &name, &tsize, &die_offset) :
		    fa_dwarf__var_type(di->dbg, var, vaddr, &name, &tsize, &array, &die_offset,
				       &var_die))
		goto out;
	st = fa_struct__from_dwarf(di->dbg, name.buf, tsize, die_offset);
	for (int i = 0; st && i < st->nr_fields; i++) {
		if (!strcmp(st->fields[i].name, field)) {
			*off = st->fields[i].offset;
			*size = st->fields[i].size;
			err = 0;
			break;
		}
	}
out:
	fa_struct__delete(st);
	strbuf_release(&name);
	debuginfo__delete(di);
	return err;
}

/* The largest length of 8, 4, 2, 1 bytes that @addr is aligned to, and @size holds */
static u32 fa_watch__len(u64 addr, u64 size)
{
	u32 len = 8;

	while (len > 1 && ((addr & (len - 1)) || len > size))
		len /= 2;
	return len;
}

/* The ELF of @exe: resolve @ws in it into @w */
static int fa_watch__resolve_elf(struct fa_watch *w, const struct fa_watch_spec *ws,
				 const char *exe, Elf *elf, char *errbuf, size_t size)
{
	u64 vaddr, vsize, bias, off = ws->off, fsize;
	int err;

	if (fa_elf__object(elf, ws->var, &vaddr, &vsize)) {
		scnprintf(errbuf, size, "no variable '%s' in the symbol table of %s", ws->var,
			  exe);
		return -ENOENT;
	}
	err = fa_elf__load_bias(elf, &bias);
	if (err) {
		scnprintf(errbuf, size, "%s: %s", exe, err == -ENOTSUP ?
			  "a static PIE, its address is not known before it runs" :
			  "not an ELF executable");
		return err;
	}
	fsize = vsize - min(off, vsize);
	if (ws->field) {
		u64 foff;

		if (fa_watch__field(exe, ws->var, vaddr, ws->field, ws->deref, &foff, &fsize)) {
			scnprintf(errbuf, size, "no member '%s' in the struct type %s%s (DWARF of %s)",
				  ws->field, ws->deref ? "pointed to by " : "of ", ws->var, exe);
			return -ENOENT;
		}
		off += foff;
	}
	w->size = fsize ?: 1;
	if (ws->deref) {
		/* where it points is learned as the workload runs (watch-duty.c) */
		w->ptr = bias + vaddr;
		w->off = off;
		w->addr = w->ptr;
		/* an allocation is aligned to 16 bytes at least */
		w->len = ws->len ?: fa_watch__len(off, w->size);
		return 0;
	}
	w->addr = bias + vaddr + off;
	w->len = ws->len ?: fa_watch__len(w->addr, w->size);
	if (w->addr & (w->len - 1)) {
		scnprintf(errbuf, size, "%s at %#" PRIx64 " is not aligned to %u bytes", w->spec,
			  w->addr, w->len);
		return -EINVAL;
	}
	return 0;
}

/**
 * fa_watch__resolve - Where --watch @w->spec will be in @exe, run without ASLR
 * @errbuf: Why not, when it returns an error
 */
int fa_watch__resolve(struct fa_watch *w, const char *exe, char *errbuf, size_t size)
{
	struct fa_watch_spec ws;
	Elf *elf = NULL;
	int fd = -1, err;

	err = fa_watch_spec__parse(w->spec, &ws);
	if (err) {
		scnprintf(errbuf, size,
			  "not var, var.field, var->field or var+offset, then /1, /2, /4 or /8");
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
	err = fa_watch__resolve_elf(w, &ws, exe, elf, errbuf, size);
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(ws.var);
	return err;
}

/* The perf event of @w, the @nr-th: "mem:ADDR/LEN:rw/period=N,name=watchNR/" */
int fa_watch__event(const struct fa_watch *w, int nr, u64 period, char *buf, size_t size)
{
	return scnprintf(buf, size, "mem:%#" PRIx64 "/%u:rw/period=%" PRIu64 ",name=watch%d/",
			 w->addr, w->len, period, nr);
}

/*
 * Run what this process starts without address space randomization: the
 * watched addresses are then where fa_watch__resolve() said
 */
int fa_watch__no_aslr(void)
{
	int persona = personality(0xffffffff);

	if (persona < 0 || personality(persona | ADDR_NO_RANDOMIZE) < 0)
		return -errno;
	return 0;
}
