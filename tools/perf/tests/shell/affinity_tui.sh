#!/bin/bash
# perf affinity report TUI
# SPDX-License-Identifier: GPL-2.0
#
# Browse the report of PEBS-shaped samples of the lockshare workload
# ('perf bench affinity synth': the same every run) as a user would, in a
# detached tmux session of a fixed size: the struct table and the field
# table (perf hists browsers), ENTER from a struct to its fields, ENTER
# from the fields to the false sharing, 'l' for the layouts, ESC back, 'q'
# to quit; check what each screen shows and that perf exits with 0.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
screen="${tmpdir}/screen"
status="${tmpdir}/status"
# a server of our own: nothing of the user's tmux is touched
tmux_sock="perf_affinity_tui_$$"

cleanup() {
	tmux -L "${tmux_sock}" kill-server > /dev/null 2>&1
	rm -rf "${tmpdir}"
	trap - EXIT TERM INT
}

if ! command -v tmux > /dev/null; then
	affinity__skip "tmux is not installed"
fi
if ! perf version --build-options | grep -q 'libslang: \[ on'; then
	affinity__skip "perf is built without slang: no TUI"
fi
if [ "$(uname -m)" != x86_64 ]; then
	affinity__skip "perf bench affinity synth decodes x86-64 code only"
fi

# Capture the screen until it shows $1, for up to 30 seconds
wait_screen() {
	for _ in $(seq 60); do
		tmux -L "${tmux_sock}" capture-pane -p -t affinity > "${screen}" 2> /dev/null
		grep -q -- "$1" "${screen}" && return 0
		sleep 0.5
	done
	fail "the screen does not show '$1'"
	echo "---- the screen ----"
	cat "${screen}"
	return 1
}

expect() {
	grep -q -- "$1" "${screen}" || fail "$2: no '$1' on the screen"
}

send() {
	tmux -L "${tmux_sock}" send-keys -t affinity "$1"
}

# PEBS-shaped samples of the lockshare workload: the same report every run
if ! perf bench affinity synth -n 20000 -I 1 -o "${perfdata}" > /dev/null 2>&1; then
	fail "perf bench affinity synth"
	cleanup
	exit 1
fi

perf=$(command -v perf)
tmux -L "${tmux_sock}" -f /dev/null new-session -d -s affinity -x 160 -y 50 \
	"TERM=xterm-256color '${perf}' affinity report -i '${perfdata}' -T lockshare_rq;
	 echo \$? > '${status}'"

echo "the struct table"
if wait_screen "struct lockshare_rq"; then
	expect "perf affinity report: 1 struct type" "title"
	expect "Accesses .* FS pairs" "column header"
	expect "ENTER fields" "key help"
	expect "? help" "key help"
	expect "q quit" "key help"
fi

echo "ENTER: the field table"
send Enter
if wait_screen "^Field .* Off"; then
	expect "^struct lockshare_rq: 72 bytes" "title"
	grep -q "^lock .* \(write-hot\|shared-written\)" "${screen}" ||
		fail "fields: no lock field classified as written"
	expect "^clock .* read-mostly" "fields"
	expect "ENTER details" "key help"
fi

echo "the field table opens with its first row selected, DOWN selects the next"
# the table's row drawn in another background than the others: the selected one
selected_row() {
	tmux -L "${tmux_sock}" capture-pane -p -e -t affinity | python3 -c '
import re, sys
rows = sys.stdin.read().split("\n")
start = next(i for i, r in enumerate(rows) if re.search(r"Field .* Off", r)) + 1
for n, r in enumerate(rows[start:start + 20]):
	bg = re.match(r"((?:\x1b\[[0-9;]*m)*)", r).group(1)
	if re.search(r"\x1b\[(4[0-8]|10[0-7])[;m]", bg):
		print(n)
		break'
}
row=$(selected_row)
[ "${row}" = 0 ] || fail "the field table opens with row '${row}' selected, not the first"
send Down
sleep 1
row=$(selected_row)
[ "${row}" = 1 ] || fail "one DOWN selects row '${row}', not the second"
send Up
sleep 1

echo "ENTER: the false sharing and pairs"
send Enter
if wait_screen "False sharing"; then
	expect "lock (written by thread .*-> clock (read by thread" "false sharing"
	expect "Top co-access pairs" "pairs"
	expect "l layout" "key help"
fi

echo "l: the layouts and their cost"
send l
if wait_screen "Predicted cost"; then
	expect "/\* --- cacheline 1 boundary (64 bytes) --- \*/" "layout"
	expect "total (lines + .* -[0-9.]*%" "cost"
	expect "Suggested layout" "layout"
	expect "ESC/LEFT back" "key help"
fi

echo "ESC, ESC: back to the field table"
send Escape
wait_screen "False sharing" > /dev/null
send Escape
wait_screen "^Field .* Off" > /dev/null

echo "ESC: back to the struct table"
send Escape
wait_screen "ENTER fields" > /dev/null
expect "a arrays" "key help"

echo "a: the arrays of scalars, none here; ESC back"
send a
if wait_screen "No access to an array of scalars was attributed"; then
	expect "Arrays of scalars" "title"
fi
send Escape
wait_screen "ENTER fields" > /dev/null

echo "q: quit"
send q
for _ in $(seq 60); do
	[ -s "${status}" ] && break
	sleep 0.5
done
if [ ! -s "${status}" ]; then
	fail "perf did not exit on 'q'"
elif [ "$(cat "${status}")" != 0 ]; then
	fail "perf exited with $(cat "${status}")"
fi

cleanup
exit $err
