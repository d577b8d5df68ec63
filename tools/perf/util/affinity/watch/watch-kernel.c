// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity record --vmlinux FILE --watch: where kernel variables are
 * in the running kernel.  The vmlinux gives their link time address, the
 * running kernel's _text in /proc/kallsyms how far KASLR moved them.  A
 * per-CPU variable (in .data..percpu) is that far from each CPU's base,
 * __per_cpu_offset[cpu], read through /proc/kcore.  Both need root
 * (kptr_restrict, CAP_SYS_RAWIO).  All of it is read once per recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>
#include "watch.h"
#include "../../build-id.h"
#include "../../event.h"
#include "../../symbol.h"

#define FA_KALLSYMS	"/proc/kallsyms"
#define FA_KCORE	"/proc/kcore"

/* Read @len bytes of kernel memory at @addr from the ELF segments of /proc/kcore */
static int fa_kcore__read(u64 addr, void *buf, size_t len)
{
	int fd = open(FA_KCORE, O_RDONLY), err = -ENOENT;
	Elf *elf = NULL;
	size_t n;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getphdrnum(elf, &n)) {
		err = -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD ||
		    addr < ph.p_vaddr || addr + len > ph.p_vaddr + ph.p_filesz)
			continue;
		err = pread(fd, buf, len, ph.p_offset + addr - ph.p_vaddr) == (ssize_t)len ?
		      0 : -EIO;
		break;
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/* Whether @vmlinux is the running kernel's: their build IDs are the same */
static int fa_kernel__check_build_id(const char *vmlinux, char *errbuf, size_t size)
{
	struct build_id running, file;
	char hex[SBUILD_ID_SIZE];

	if (sysfs__read_build_id("/sys/kernel/notes", &running) < 0 ||
	    filename__read_build_id(vmlinux, &file) < 0)
		return 0;
	if (running.size == file.size && !memcmp(running.data, file.data, file.size))
		return 0;
	build_id__sprintf(&running, hex);
	scnprintf(errbuf, size, "%s is not the running kernel's vmlinux (build ID %s)", vmlinux,
		  hex);
	return -EINVAL;
}

/* The CPUs a per-CPU variable has an instance of: those configured */
static int fa_kernel__nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? n : 1;
}

/**
 * fa_kernel__init - Read where the running kernel is, once
 * @vmlinux: Its vmlinux
 * @text: The link time address of _text in it
 * @offsets: The link time address of __per_cpu_offset[] in it
 * @errbuf: Why not, when it returns an error
 *
 * Return: 0 or a negative error.
 */
int fa_kernel__init(struct fa_kernel *k, const char *vmlinux, u64 text, u64 offsets,
		    char *errbuf, size_t size)
{
	u64 running;
	int err;

	memset(k, 0, sizeof(*k));
	err = fa_kernel__check_build_id(vmlinux, errbuf, size);
	if (err)
		return err;
	/* kptr_restrict shows 0 for every address */
	if (kallsyms__get_symbol_start(FA_KALLSYMS, "_text", &running) || !running) {
		scnprintf(errbuf, size, "%s hides the kernel's addresses (kernel.kptr_restrict)",
			  FA_KALLSYMS);
		return -EACCES;
	}
	k->text = text;
	k->slide = running - text;
	k->nr_cpus = fa_kernel__nr_cpus();
	k->cpu_base = calloc(k->nr_cpus, sizeof(*k->cpu_base));
	if (!k->cpu_base)
		return -ENOMEM;
	if (fa_kcore__read(offsets + k->slide, k->cpu_base, k->nr_cpus * sizeof(u64))) {
		scnprintf(errbuf, size, "cannot read __per_cpu_offset[] in %s (root?)", FA_KCORE);
		fa_kernel__exit(k);
		return -EACCES;
	}
	return 0;
}

void fa_kernel__exit(struct fa_kernel *k)
{
	zfree(&k->cpu_base);
	k->nr_cpus = 0;
}

/**
 * fa_kernel__addr - Where the variable at link time address @vaddr is in
 * the running kernel; a per-CPU variable's instance of @cpu
 *
 * A per-CPU variable of a kernel whose per-CPU section is linked at 0 is
 * an offset, not moved with the kernel.
 */
u64 fa_kernel__addr(const struct fa_kernel *k, u64 vaddr, bool percpu, int cpu)
{
	if (!percpu)
		return vaddr + k->slide;
	return (vaddr < k->text ? vaddr : vaddr + k->slide) + k->cpu_base[cpu];
}
