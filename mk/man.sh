#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Render perf-affinity(1) and install it where 'perf help affinity' looks
# ($prefix/share/man, the prefix perf was built with).  Rendered the way
# tools/perf/Documentation/Makefile does with USE_ASCIIDOCTOR=1.
set -e

doc="$TREE/tools/perf/Documentation"
src="$doc/perf-affinity.txt"
dst="$PREFIX/share/man/man1/perf-affinity.1"

[ -f "$dst" ] && [ "$dst" -nt "$src" ] && exit 0
if ! command -v asciidoctor >/dev/null; then
	echo "warning: asciidoctor not found, 'perf help affinity' will not work" >&2
	exit 0
fi
mkdir -p "$(dirname "$dst")"
ver=$(sed -n 's/#define PERF_VERSION "\(.*\)"/\1/p' "$OBJ/PERF-VERSION-FILE")
asciidoctor -b manpage -d manpage -a compat-mode -I "$doc" \
	-r asciidoctor-extensions -a mansource=perf -a manmanual="perf Manual" \
	-a perf_version="$ver" -o "$dst" "$src"
echo "  MAN    $dst"
