#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Makefile.patch holds the edits to existing perf files as a series of
# sections, one per patch of the upstream series, applied in order.  Each
# section starts with a line '#### section: <name>' (patch(1) skips it).
#
#   sections.sh split Makefile.patch DIR   DIR/<name>.patch + DIR/series
#   sections.sh join DIR > Makefile.patch  the reverse (e.g. from quilt)
set -e

case "$1" in
split)
	mkdir -p "$3"
	: > "$3/series"
	awk -v dir="$3" '
		/^#### section: / {
			name = $3
			print name ".patch" >> (dir "/series")
			# an empty section too, for join
			printf "" > (dir "/" name ".patch")
			next
		}
		name != "" { print > (dir "/" name ".patch") }
	' "$2"
	;;
join)
	cat <<'HDR'
# Edits to existing files of the Linux 6.12 tree, applied with patch -p1 by
# mk/overlay.sh.  Each '#### section:' is one patch of the series that
# 'make series' writes (see series/); hunks of a later section apply on top
# of the earlier ones.
HDR
	while read -r p; do
		[ -n "$p" ] || continue
		echo "#### section: ${p%.patch}"
		cat "$2/$p"
	done < "$2/series"
	;;
*)
	echo "usage: $0 split PATCH DIR | join DIR" >&2
	exit 1
	;;
esac
