#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel in QEMU with an initramfs that holds busybox, $BUILD/perf
# (with its shared libraries), the workloads of mk/guest/*.c, the kernel's
# vmlinux and RECORD_SH; the guest's /init (mk/guest/init) runs RECORD_SH,
# which writes its results into /out, and sends /out back as a tar over a
# virtio serial port.  The tar is unpacked into OUTDIR.
#
#   sh mk/guest-boot.sh KERNEL_DIR RECORD_SH OUTDIR
#
# KERNEL_DIR holds vmlinuz (the image to boot) and vmlinux (its ELF with
# DWARF, put into the guest as /vmlinux).  OUTDIR gets out.tar, what it
# holds (always record.rc, RECORD_SH's exit code, and dmesg.txt), and
# console.log.
#
# Environment: BUILD (default <top>/build), PERF (default $BUILD/perf),
# GUEST_TIMEOUT (seconds for the whole boot, default 600), GUEST_ACCEL
# (kvm or tcg: skip the probe), GUEST_SMP (4), GUEST_MEM (3G),
# GUEST_APPEND (more kernel parameters).
set -eu
mk=$(dirname "$0")
. "$mk/env.sh"

die()
{
	echo "guest-boot: $*" >&2
	exit 1
}

[ $# -eq 3 ] || die "usage: sh mk/guest-boot.sh KERNEL_DIR RECORD_SH OUTDIR"
kdir=$1
record_sh=$2
outdir=$3

TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
PERF=${PERF:-$BUILD/perf}
timeout=${GUEST_TIMEOUT:-600}
smp=${GUEST_SMP:-4}
mem=${GUEST_MEM:-3G}

command -v qemu-system-x86_64 > /dev/null ||
	die "no qemu-system-x86_64: apt-get install qemu-system-x86"
busybox=$(command -v busybox) ||
	die "no busybox: apt-get install busybox-static"
command -v cpio > /dev/null || die "no cpio: apt-get install cpio"
command -v gcc > /dev/null || die "no gcc: apt-get install gcc"
# a busybox linked to shared libraries would need them in the guest too
if ldd "$busybox" > /dev/null 2>&1; then
	die "$busybox is not static: apt-get install busybox-static"
fi
[ -s "$kdir/vmlinuz" ] || die "no $kdir/vmlinuz"
[ -s "$kdir/vmlinux" ] || die "no $kdir/vmlinux"
[ -s "$record_sh" ] || die "no $record_sh"
[ -x "$PERF" ] || die "no $PERF: run make first"
case $timeout in
''|*[!0-9]*) die "GUEST_TIMEOUT must be a number of seconds" ;;
esac

now()
{
	date +%s.%N
}

# step NAME START: print how long the step that began at START took
step()
{
	awk -v s="$2" -v e="$(now)" -v n="$1" \
		'BEGIN { printf "guest-boot: %-36s %7.1f s\n", n, e - s }'
}

start=$(now)
mkdir -p "$BUILD" "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d "$BUILD/guest-boot.XXXXXX")
qemu_pid=
cleanup()
{
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

######## the initramfs
t=$(now)
root=$tmp/root
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" \
	"$root/dev" "$root/proc" "$root/sys" "$root/tmp" "$root/out" \
	"$root/etc" "$root/root"
# big files go in as symlinks that cpio -L follows: no copies of them
ln -s "$busybox" "$root/bin/busybox"
ln -s "$(readlink -f "$PERF")" "$root/bin/perf"
ln -s "$(readlink -f "$kdir/vmlinux")" "$root/vmlinux"
cp "$record_sh" "$root/record.sh"
cp "$TOP/mk/guest/init" "$root/init"
chmod 755 "$root/init" "$root/record.sh"
# the shared libraries of perf and the dynamic loader, at their paths
ldd "$PERF" | awk '$2 == "=>" && $3 ~ /^\// { print $3; next }
		   $1 ~ /^\// { print $1 }' |
while read -r lib; do
	mkdir -p "$root${lib%/*}"
	ln -sf "$(readlink -f "$lib")" "$root$lib"
done
for src in "$TOP"/mk/guest/*.c; do
	name=${src##*/}
	gcc -O2 -g -static -pthread -Wall -o "$root/bin/${name%.c}" "$src" ||
		die "cannot build $src"
done
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
# the kernel's built-in initramfs has a /dev/console too; this one is for
# kernels without it (mknod needs root: not having it is no error)
mknod "$root/dev/console" c 5 1 2> /dev/null || true
initrd=$tmp/initrd.cpio
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -L --quiet) > "$initrd" ||
	die "cpio failed"
size=$(du -m "$initrd" | cut -f1)
step "initramfs ($size MB)" "$t"

######## KVM, if it works here, else TCG
# KVM can be there and still fail (nested virtualization that cannot run
# this kernel): a probe boot without a root file system must reach the
# kernel's panic, which with panic=-1 -no-reboot ends QEMU
probe_kvm()
{
	log=$tmp/probe.log
	qemu-system-x86_64 -accel kvm -cpu max -m 256M -display none \
		-serial "file:$log" -monitor none -no-reboot \
		-kernel "$kdir/vmlinuz" \
		-append "console=ttyS0 panic=-1 rdinit=/none root=/dev/none" \
		< /dev/null > "$tmp/probe.err" 2>&1 &
	qemu_pid=$!
	i=0
	while [ $i -lt 60 ] && kill -0 "$qemu_pid" 2> /dev/null; do
		grep -q "Kernel panic" "$log" 2> /dev/null && break
		grep -q "KVM internal error" "$tmp/probe.err" && break
		sleep 0.5
		i=$((i + 1))
	done
	kill "$qemu_pid" 2> /dev/null || true
	wait "$qemu_pid" 2> /dev/null || true
	qemu_pid=
	grep -q "Kernel panic" "$log" 2> /dev/null
}

t=$(now)
accel=${GUEST_ACCEL:-}
if [ -z "$accel" ]; then
	if [ ! -w /dev/kvm ]; then
		accel=tcg why="no /dev/kvm"
	elif probe_kvm; then
		accel=kvm why="KVM works"
	else
		accel=tcg why="KVM probe boot failed"
	fi
	step "probe: $accel ($why)" "$t"
fi
case $accel in
kvm) accel_opt=kvm ;;
tcg) accel_opt=tcg,thread=multi ;;
*) die "GUEST_ACCEL must be kvm or tcg" ;;
esac

######## the boot
rm -f "$outdir/out.tar" "$outdir/console.log"
# init ends /record.sh a while before the timeout, so what it made still
# comes out: 4/5 of the time less a minute for the boot and the tar
record_timeout=$((timeout * 4 / 5 - 60))
[ $record_timeout -gt 0 ] || record_timeout=$((timeout / 2))
append="console=ttyS0 quiet panic=-1 guest_record_timeout=$record_timeout"
append="$append ${GUEST_APPEND:-}"
# TCG on several host threads may crash the guest kernel while it patches
# its own code (an int3 left in a static key's NOP: 'Oops: int3'), before
# or while it records: such a boot is tried once more
for try in 1 2; do
echo "guest-boot: booting $(readlink -f "$kdir/vmlinuz") with -accel $accel_opt -smp $smp -m $mem (at most $timeout s)"
rm -f "$outdir/out.tar" "$outdir/console.log"
t=$(now)
set +e
timeout -k 10 "$timeout" qemu-system-x86_64 \
	-accel "$accel_opt" -cpu max -smp "$smp" -m "$mem" \
	-nographic -monitor none -no-reboot \
	-chardev "stdio,id=con,signal=off,logfile=$outdir/console.log" \
	-serial chardev:con \
	-kernel "$kdir/vmlinuz" -initrd "$initrd" -append "$append" \
	-device virtio-serial-pci \
	-chardev "file,id=out,path=$outdir/out.tar" \
	-device virtserialport,chardev=out,name=out \
	< /dev/null
rc=$?
set -e
step "qemu ($accel)" "$t"
[ $rc -eq 0 ] && [ ! -s "$outdir/out.tar" ] && [ $try = 1 ] &&
	grep -q "Kernel panic" "$outdir/console.log" 2> /dev/null || break
echo "guest-boot: the guest kernel panicked before it sent its results (console.log): booting again"
done
[ $rc -eq 124 ] && die "timeout: the guest ran longer than $timeout s (GUEST_TIMEOUT)"
[ $rc -eq 0 ] || die "qemu-system-x86_64 failed with $rc"

######## the results
t=$(now)
[ -s "$outdir/out.tar" ] || die "the guest sent nothing (see $outdir/console.log)"
tar -C "$outdir" -xf "$outdir/out.tar" || die "cannot unpack $outdir/out.tar"
step "unpack" "$t"
# the guest's own times, from its uptime
tr -d '\r' < "$outdir/console.log" | grep -o 'guest: \[.*' || true
step "total" "$start"
rrc=$(cat "$outdir/record.rc" 2> /dev/null || echo "?")
[ "$rrc" = 0 ] || die "$record_sh exited with $rrc in the guest (see $outdir/console.log)"
echo "guest-boot: results in $outdir"
