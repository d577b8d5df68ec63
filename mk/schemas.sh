#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the JSON Schemas of perf affinity report, check and diff where
# perf's 'make install' puts them ($prefix/share/perf-core/affinity), for
# the perf built here.
set -e

lib="$TREE/tools/perf/tests/shell/lib"
dst="$PREFIX/share/perf-core/affinity"

mkdir -p "$dst"
for kind in report check diff; do
	src="$lib/affinity_${kind}_schema.json"
	[ "$kind" = report ] && src="$lib/affinity_schema.json"
	cmp -s "$src" "$dst/$kind.schema.json" || cp "$src" "$dst/$kind.schema.json"
done
