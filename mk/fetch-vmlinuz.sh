#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fetch the kernel image that build/kernel/vmlinux (mk/fetch-vmlinux.sh)
# holds the DWARF of, once, into $BUILD/kernel/vmlinuz: the vmlinuz of
# Debian's linux-image-<kver>-unsigned of the same version (about 100 MB).
set -eu
mk=$(dirname "$0")
. "$mk/env.sh"

dir="$BUILD/kernel"
[ -s "$dir/vmlinuz" ] && exit 0
target=$(readlink "$dir/vmlinux" || true)
kver=${target#vmlinux-}
[ -n "$kver" ] && [ "$kver" != "$target" ] ||
	{ echo "$dir/vmlinux: not fetched by mk/fetch-vmlinux.sh" >&2; exit 1; }
pkg=linux-image-$kver-unsigned
apt-cache show "$pkg" > /dev/null 2>&1 || apt-get update -qq
# the version of the -dbg package the vmlinux came from
ver=$(apt-cache madison "linux-image-$kver-dbg" | awk '{ print $3; exit }')
[ -n "$ver" ] || { echo "no package linux-image-$kver-dbg: cannot tell its version" >&2; exit 1; }

echo "fetching $pkg $ver (about 100 MB) into $dir"
cd "$dir"
rm -f ./*.deb
apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver"
dpkg-deb --fsys-tarfile "${pkg}"_*.deb | tar -x "./boot/vmlinuz-$kver"
rm -f ./*.deb
mv "boot/vmlinuz-$kver" "vmlinuz-$kver"
rmdir boot
ln -sf "vmlinuz-$kver" vmlinuz
echo "$dir/vmlinuz: $pkg $ver"
