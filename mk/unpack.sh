#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unpack the part of the kernel tree that tools/perf needs into
# $PRISTINE: tools/, include/, arch/*/include and the arch Makefiles (so
# that 'make kernelversion' works and perf gets its version string),
# scripts/ (checkpatch.pl) and the few files perf's MANIFEST names outside
# of tools/.
set -e

rm -rf "$PRISTINE"
mkdir -p "$PRISTINE"

if [ -n "$LINUX_SRC" ]; then
	[ -f "$LINUX_SRC/tools/perf/perf.c" ] || {
		echo "error: LINUX_SRC=$LINUX_SRC is not a kernel tree (no tools/perf/perf.c)" >&2
		exit 1
	}
	echo "  UNPACK $LINUX_SRC"
	(cd "$LINUX_SRC" && tar -cf - --exclude=.git tools include scripts \
		Makefile COPYING MAINTAINERS kernel/bpf/disasm.c kernel/bpf/disasm.h \
		arch/*/include arch/*/tools arch/*/Makefile* 2>/dev/null) |
		tar -xf - -C "$PRISTINE"
else
	[ -f "$TARBALL" ] || {
		echo "error: $TARBALL not found (apt-get install linux-source-6.12, or set LINUX_SRC=)" >&2
		exit 1
	}
	echo "  UNPACK $TARBALL"
	top=$(tar -tJf "$TARBALL" | head -1 | cut -d/ -f1)
	tar -xJf "$TARBALL" -C "$PRISTINE" --strip-components=1 --wildcards \
		"$top/tools/*" "$top/include/*" "$top/scripts/*" \
		"$top/arch/*/include/*" "$top/arch/*/tools/*" "$top/arch/*/Makefile*" \
		"$top/kernel/bpf/disasm.*" "$top/Makefile" "$top/COPYING" \
		"$top/MAINTAINERS"
fi

ver=$(make -s -C "$PRISTINE" kernelversion 2>/dev/null) || ver=""
[ -n "$ver" ] || { echo "error: cannot get the kernel version of $PRISTINE" >&2; exit 1; }
echo "$ver" > "$PRISTINE/.stamp"
# A fresh working tree is made from the new pristine tree.
rm -rf "$TREE" "$BUILD/.applied"
