#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make kernel-record: perf affinity on a real kernel.  With Debian's 6.12
# kernel image and its vmlinux (mk/kernel-fetch.sh, build/kernel), boot it in
# QEMU with build/perf and two workloads of our own in an initramfs
# (mk/guest-boot.sh), record there (mk/guest/record.sh: struct rq watched
# on every CPU plus sampling under a scheduler stress, sampling under TCP
# request/response and under perf bench futex hash, sched messaging and
# epoll wait), bring the perf.data out to build/kernel/guest and
# report on the host against the vmlinux; then set the reports beside the
# upstream ground truth (bench/kernel_truth.py).  Each step says how long
# it took.
set -eu
mk=$(dirname "$0")
. "$mk/env.sh"

kdir="$BUILD/kernel"
out="$kdir/guest"
vmlinux="$kdir/vmlinux"
PATH="$BUILD:$PATH"
PERF_PAGER=cat
export PATH PERF_PAGER

now() { date +%s.%N; }
took() { printf '%-52s %6.1f s\n' "kernel-record: $1" "$(echo "$(now) - $2" | bc)"; }

doc="$kdir/tcp_sock.rst"

t=$(now)
# the last recording is kept, as perf keeps perf.data.old
rm -rf "$out.old"
[ -d "$out" ] && mv "$out" "$out.old"
mkdir -p "$out"
sh "$TOP/mk/guest-boot.sh" "$kdir" "$TOP/mk/guest/record.sh" "$out"
took "boot, record in the guest, power off" "$t"
for f in rq tcp futex msg epoll; do
	[ "$(cat "$out/$f.rc" 2> /dev/null)" = 0 ] ||
		{ echo "kernel-record: the guest's $f recording failed:" >&2;
		  tail -5 "$out/$f.record" >&2; exit 1; }
done

# the guest ran the kernel the vmlinux describes
want=$(readelf -n "$vmlinux" | sed -n 's/.*Build ID: //p')
got=$(perf buildid-list -i "$out/rq.data" 2> /dev/null | awk '/\[kernel.kallsyms\]/ { print $1 }')
[ "$got" = "$want" ] ||
	{ echo "kernel-record: the guest's kernel has build ID '$got', $vmlinux $want" >&2; exit 1; }
echo "kernel-record: build ID $want: the guest ran the kernel of $vmlinux"

t=$(now)
# one report writes both the stdio and the JSON; with it, the upstream
# reorder of tip 89951fc1f820 ('sched: Reorder some fields in struct rq')
# in the advice's words: the fields pick_next_task_fair() reads without the
# lock on the first line, the lock on the next with nr_switches, the clocks
# together (clock_task keeps its alignment: --try moves, it does not unalign)
rq_upstream='move ttwu_pending after nr_preferred_running; move cpu_capacity after ttwu_pending;'
rq_upstream="$rq_upstream move {donor|curr} after cpu_capacity; move idle after {donor|curr};"
rq_upstream="$rq_upstream move nr_switches after idle; start a cache line at nr_switches;"
rq_upstream="$rq_upstream move __lock after nr_switches; move clock after clock_task"
for size in 64 128; do
	perf affinity report -i "$out/rq.data" -k "$vmlinux" -T rq --cacheline-size $size \
		--try "$rq_upstream" --stdio --json "$out/rq.$size.json" \
		> "$out/rq.$size.txt" 2> /dev/null
done
took "report struct rq at 64 and 128 byte lines" "$t"
t=$(now)
perf affinity report -i "$out/tcp.data" -k "$vmlinux" -T tcp_sock --stdio \
	--json "$out/tcp_sock.json" > "$out/tcp_sock.txt" 2> /dev/null
took "report struct tcp_sock" "$t"
t=$(now)
# perf's own benchmarks: every struct type, as a kernel developer would look first
for f in futex msg epoll; do
	perf affinity report -i "$out/$f.data" -k "$vmlinux" --stdio \
		--json "$out/$f.json" > "$out/$f.txt" 2> /dev/null
done
took "report perf bench futex hash, sched messaging, epoll" "$t"
t=$(now)
# struct rq under the four loads at once: one report of the recordings
perf affinity report -i "$out/rq.data" -i "$out/futex.data" -i "$out/msg.data" \
	-i "$out/epoll.data" -k "$vmlinux" -T rq --stdio > "$out/rq.loads.txt" 2> /dev/null
took "report struct rq of the four recordings in one" "$t"
perf affinity check -i "$out/tcp.data" -k "$vmlinux" -T tcp_sock "$vmlinux" \
	> "$out/tcp_sock.check" 2>&1 && rc=0 || rc=$?
echo "kernel-record: perf affinity check of the 6.12 tcp_sock layout: exit $rc," \
	"$(grep -m1 -i 'hold\|regress\|evidence' "$out/tcp_sock.check" || true)"

echo
python3 "$TOP/bench/kernel_truth.py" --dir "$out" --doc "$doc"
echo
echo "kernel-record: reports in $out (rq.64.txt, rq.128.txt, tcp_sock.txt, futex.txt, msg.txt, epoll.txt and their .json; rq.loads.txt of four recordings)"
