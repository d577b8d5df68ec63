#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What the guest of 'make kernel-record' records (mk/guest/init runs it in
# /out; everything left there comes out to build/kernel/guest/).
#
# rq.data: the scheduler stress, sampled, and watched: hardware
#   watchpoints on 8 members of struct rq of every CPU's runqueue (4 CPUs,
#   32 ranges, 4 at a time), armed $GUEST_DUTY percent of the time.  The
#   members: the lock, what remote CPUs read without it (nr_running,
#   ttwu_pending, curr, cpu_capacity), the clocks, and a counter.
# tcp.data: the TCP request/response over loopback, sampled (a socket is
#   allocated as it runs: no variable to watch).
# futex.data, msg.data, epoll.data: what kernel developers tune with
#   perf's own benchmarks, sampled: perf bench futex hash (the futex hash
#   buckets), sched messaging (wakeups over socket pairs), epoll wait.
RQ_FIELDS=${RQ_FIELDS:-"__lock nr_running ttwu_pending curr cpu_capacity clock clock_task nr_switches"}
SECONDS_RQ=${guest_rq_seconds:-20}
SECONDS_TCP=${guest_tcp_seconds:-15}
SECONDS_BENCH=${guest_bench_seconds:-10}
GUEST_DUTY=${guest_duty:-20}

watch=
for f in $RQ_FIELDS; do
	watch="${watch:+$watch,}runqueues.$f"
done

step()
{
	echo "guest: [$(cut -d' ' -f1 /proc/uptime)] $*"
}

step "perf affinity record -a --watch (struct rq) -- schedstress $SECONDS_RQ"
perf affinity record -a --vmlinux /vmlinux --watch "$watch" --watch-duty "$GUEST_DUTY" \
	-o rq.data -- schedstress "$SECONDS_RQ" > rq.record 2>&1
echo $? > rq.rc
tail -3 rq.record
step "perf affinity record -a -- tcprr $SECONDS_TCP"
perf affinity record -a -o tcp.data -- tcprr "$SECONDS_TCP" > tcp.record 2>&1
echo $? > tcp.rc
tail -3 tcp.record
# name, then the command: each recording's exit code in NAME.rc
bench()
{
	name=$1
	shift
	step "perf affinity record -a -- $*"
	perf affinity record -a -o "$name.data" -- "$@" > "$name.record" 2>&1
	echo $? > "$name.rc"
	tail -2 "$name.record"
}

bench futex perf bench futex hash -t 4 -r "$SECONDS_BENCH"
bench msg perf bench sched messaging -g 4 -l 40
bench epoll perf bench epoll wait -t 4 -r "$SECONDS_BENCH"
step "done"
