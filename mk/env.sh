# SPDX-License-Identifier: GPL-2.0
# Sourced by the mk/ scripts: the paths the top-level Makefile exports,
# derived from the checkout when a script is run bare (sh mk/series.sh).
# The script's own directory must be in $mk.
: "${TOP:=$(cd "$mk/.." && pwd)}"
: "${BUILD:=$TOP/build}"
: "${PRISTINE:=$BUILD/pristine}"
: "${TREE:=$BUILD/linux}"
: "${OBJ:=$BUILD/obj}"
: "${PREFIX:=$BUILD/install}"
: "${PERF:=$BUILD/perf}"
: "${JOBS:=$(nproc)}"
export TOP BUILD PRISTINE TREE OBJ PREFIX PERF JOBS

# entry_header FILE NAME: "NAME: ..." of a series entry, before its first blank line
entry_header() {
	sed -n "/^\$/q; s/^$2: *//p" "$1"
}
