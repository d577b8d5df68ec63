#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fetch a vmlinux with DWARF into $BUILD/kernel/vmlinux, once: the one of
# Debian's linux-image-<version>-amd64-dbg package of the version of the
# linux-source-6.12 perf is built from (the newest 6.12 otherwise).  The
# .deb is about 1 GB; only the vmlinux (about 350 MB) is kept.
set -eu
mk=$(dirname "$0")
. "$mk/env.sh"

dir="$BUILD/kernel"
[ -s "$dir/vmlinux" ] && exit 0
mkdir -p "$dir"
meta=${KERNEL_DBG_PACKAGE:-linux-image-6.12-amd64-dbg}
command -v apt-get > /dev/null || { echo "no apt-get: cannot fetch $meta" >&2; exit 1; }
apt-cache show "$meta" > /dev/null 2>&1 || apt-get update -qq
pkg=$(apt-cache depends "$meta" | awk '/Depends:/ { print $2; exit }')
[ -n "$pkg" ] || { echo "no package $meta" >&2; exit 1; }
ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
if [ -z "$ver" ] || ! apt-cache madison "$pkg" | grep -qF " $ver "; then
	ver=$(apt-cache show "$pkg" | awk '/^Version:/ { print $2; exit }')
fi
kver=${pkg#linux-image-}
kver=${kver%-dbg}
member=./usr/lib/debug/boot/vmlinux-$kver

echo "fetching $pkg $ver (about 1 GB) into $dir"
cd "$dir"
rm -f ./*.deb
apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver"
# the vmlinux is near the start of the archive: stop tar after it, which
# kills dpkg-deb with SIGPIPE (its error is not one)
dpkg-deb --fsys-tarfile "${pkg}"_*.deb 2>/dev/null | tar -x --occurrence=1 "$member" || true
rm -f ./*.deb
[ -s "$member" ] || { echo "$member not in $pkg" >&2; exit 1; }
mv "$member" "vmlinux-$kver"
rm -rf ./usr
ln -sf "vmlinux-$kver" vmlinux
echo "$dir/vmlinux: $pkg $ver, build ID $(readelf -n vmlinux | sed -n 's/.*Build ID: //p')"
