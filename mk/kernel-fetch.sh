#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make kernel-fetch: what 'make kernel-record' and its test need, once:
# QEMU, busybox and cpio for the guest, Debian's 6.12 kernel image and its
# vmlinux with DWARF (build/kernel), and the kernel's document of the
# tcp_sock fast path fields to compare with.
set -eu
mk=$(dirname "$0")
. "$mk/env.sh"

kdir="$BUILD/kernel"
mkdir -p "$kdir"
DEB_PACKAGES="qemu-system-x86 busybox-static cpio gcc bc" sh "$TOP/mk/deps.sh"
sh "$TOP/mk/fetch-vmlinux.sh"
sh "$TOP/mk/fetch-vmlinuz.sh"
doc="$kdir/tcp_sock.rst"
member=Documentation/networking/net_cachelines/tcp_sock.rst
[ -s "$doc" ] && exit 0
if [ -n "${LINUX_SRC:-}" ]; then
	cp "$LINUX_SRC/$member" "$doc"
elif [ -r "$TARBALL" ]; then
	tar -xJOf "$TARBALL" --wildcards "*/$member" > "$doc.tmp" && mv "$doc.tmp" "$doc"
else
	echo "kernel-fetch: no kernel source ($TARBALL): no $member to compare with" >&2
fi
