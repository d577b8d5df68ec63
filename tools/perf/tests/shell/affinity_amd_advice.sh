#!/bin/bash
# perf affinity report advises alike whatever CPU placed the samples
# SPDX-License-Identifier: GPL-2.0
#
# On an AMD EPYC the timer interrupt lands after the loads of a loop, so
# the block walk gives several accesses from one sample; on Intel each
# sample gives about one.  Recordings made on AMD, with their binaries
# (lib/affinity_amd_advice.tar.xz.b64), are reported here with --symfs on
# any machine: the accesses of one sample must count as if each had been
# sampled on its own, and the advice must be the hand fix.
#
# - amd-roles: one function, a lock taker's thread and a reader's thread;
#   the hand fix starts a line at reader1 (the first the reader reads),
#   with and without watchpoint hits.
# - amd-twobuf: two instances, one thread writes lock0/lock1, the other
#   reads reader1 of both: reader1 leaves the writers' line.
# - amd-refdst: three recordings of a reference count beside read-mostly
#   fields: the same advice in each.
#
# amd-roles and amd-twobuf also with the samples re-placed (--placement) as
# an Intel timer would have taken them, and later in their blocks.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

affinity__fixtures affinity_amd_advice

# advice FILE.data TYPE [PLACEMENT]: "EDITS|LINE-OF-FIELD..." of TYPE's
# advice, from the JSON, the samples placed so (report --placement)
advice() {
	perf affinity report -i "$1" --symfs "$(dirname "$1")" --json - \
		--placement "${3:-recorded}" 2> /dev/null |
	python3 -c '
import json, sys
j = json.load(sys.stdin)
t = [t for t in j["types"] if t["name"] == sys.argv[1]][0]
adv = t["advice"] or {}
edits = ";".join(e["text"] for e in adv.get("edits") or []) or adv.get("kind", "none")
lines = {t["fields"][m["field"]]["name"]: m["line"] for m in t["suggested"]["members"]}
print(edits + "|" + " ".join(f"{k}={v}" for k, v in sorted(lines.items())))' "$2"
}

# as recorded (AMD), as an Intel timer would have placed the samples (one
# access each), and later still in their blocks
for place in recorded one later; do
	for f in roles roles-watch; do
		a=$(advice "${tmpdir}/amd-roles/${f}.data" "struct rolefn_buf" ${place})
		echo "amd-roles ${f}, placement ${place}: ${a}"
		case "${a}" in
		"start a cache line at reader1 (align it)|"*"lock0=0"*"reader1=1 reader2=1") ;;
		*) fail "amd-roles ${f}, ${place}: not the hand fix (a line at reader1)" ;;
		esac
	done

	a=$(advice "${tmpdir}/amd-twobuf/twobuf.data" "struct two_buf" ${place})
	echo "amd-twobuf, placement ${place}: ${a}"
	case "${a}" in
	*"lock0=0 lock1=0"*"reader1=1"*) ;;
	*) fail "amd-twobuf, ${place}: reader1 still on lock0/lock1's line" ;;
	esac
done

first=
for f in ref-edit ref-none1 ref-none2; do
	a=$(advice "${tmpdir}/amd-refdst/${f}.data" "struct refdst")
	echo "amd-refdst ${f}: ${a}"
	first=${first:-${a}}
	[ "${a}" = "${first}" ] || fail "amd-refdst ${f}: another advice than ref-edit's"
	case "${a}" in
	"swap lwtstate and _metrics|"*) ;;
	*) fail "amd-refdst ${f}: not the swap of lwtstate and _metrics" ;;
	esac
done

cleanup
exit ${err}
