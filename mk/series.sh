#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write the work as an upstream patch series against the pristine tree:
#
#   build/series-git/   a git tree: the pristine base commit + one commit per
#                       series/ entry (its Makefile.patch section + new files)
#   build/series/       git format-patch output, checkpatch.pl results: the
#                       series series/series names ('%series NAME COVER'),
#                       N-NAME/, each with its cover letter series/COVER
#
# Then check that the patches apply to the base with 'git am'.  With
# --build, also build perf at every patch of the series, and the whole
# series without libdw, libtraceevent and slang (NO_DWARF=1, ...).
set -eu
mk=$(dirname "$0")
. "$mk/env.sh"

SERIES_DIR="$TOP/series"
GIT_TREE="$BUILD/series-git"
OUT="$BUILD/series"
SECTIONS="$BUILD/series-sections"
GROWN="$BUILD/series-grown"
AUTHOR_NAME=$(git -C "$TOP" config user.name || echo "perf affinity developers")
AUTHOR_EMAIL=$(git -C "$TOP" config user.email || echo "perf-affinity@localhost")
export GIT_AUTHOR_NAME="$AUTHOR_NAME" GIT_AUTHOR_EMAIL="$AUTHOR_EMAIL"
export GIT_COMMITTER_NAME="$AUTHOR_NAME" GIT_COMMITTER_EMAIL="$AUTHOR_EMAIL"

entries=$(grep -v '^[#%]' "$SERIES_DIR/series" | grep -v '^$')
# NAME COVER FIRST-ENTRY of each series, in order
topics=$(awk '/^%series / { want = $2 " " $3; next }
	      /^[#%]/ || /^$/ { next }
	      want { print want " " $1; want = "" }' "$SERIES_DIR/series")

die() {
	echo "error: $*" >&2
	exit 1
}

body() {	# body FILE: everything after the first blank line
	sed '1,/^$/d' "$1"
}

check_coverage() {
	rm -rf "$SECTIONS"
	sh "$TOP/mk/sections.sh" split "$TOP/Makefile.patch" "$SECTIONS"
	for s in $(sed 's/\.patch$//' "$SECTIONS/series"); do
		echo "$entries" | grep -qx "$s" ||
			die "Makefile.patch section '$s' is not in series/series"
	done
	listed=$(for e in $entries; do entry_header "$SERIES_DIR/$e" Files; done | tr ' ' '\n')
	for f in $(cd "$TOP" && git ls-files tools); do
		echo "$listed" | grep -qx "$f" || die "$f is in no patch of series/series"
	done
}

# The series ends in the tree the build uses: every file as in tools/
check_final() {
	for n in $(cd "$TOP" && git ls-files tools); do
		cmp -s "$TOP/$n" "$GIT_TREE/$n" ||
			die "$n: the series ends with another version than tools/ has (series/grow.patch?)"
	done
}

make_base() {
	ver=$(cat "$PRISTINE/.stamp")
	rm -rf "$GIT_TREE"
	cp -a "$PRISTINE" "$GIT_TREE"
	rm -f "$GIT_TREE/.stamp"
	cd "$GIT_TREE"
	git init -q
	git add -A
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git commit -q -m "Linux $ver (the parts tools/perf needs)"
	git tag base
}

commit_entry() {
	e=$1
	f="$SERIES_DIR/$e"
	[ -f "$f" ] || die "series/$e does not exist"
	subject=$(entry_header "$f" Subject)
	[ -n "$subject" ] || die "series/$e has no Subject:"
	if [ -f "$SECTIONS/$e.patch" ]; then
		patch -p1 -s --no-backup-if-mismatch < "$SECTIONS/$e.patch" ||
			die "section $e does not apply"
	fi
	for n in $(entry_header "$f" Files); do
		mkdir -p "$(dirname "$n")"
		cp -p "$TOP/$n" "$n"
	done
	# the versions of new files as of this patch (mk/grow.sh)
	if [ -d "$GROWN/$e" ]; then
		(cd "$GROWN/$e" && find . -type f) | while read -r n; do
			cp "$GROWN/$e/$n" "$n"
		done
	fi
	git add -A
	git diff --cached --quiet && die "series/$e changes nothing"
	{ echo "$subject"; echo; body "$f"; echo; echo "Signed-off-by: $AUTHOR_NAME <$AUTHOR_EMAIL>"; } |
		git commit -q -F -
}

# size_table RANGE: the lines each patch of RANGE changes (added + removed),
# of code, of tests (tools/perf/tests/) and of documentation
size_table() {
	echo
	echo "Changed lines per patch (added + removed):"
	echo
	echo "   #   code  tests   docs  subject"
	n=0
	for c in $(git rev-list --reverse "$1"); do
		n=$((n + 1))
		git show --numstat --format= "$c" | awk -v n="$n" -v s="$(git log -1 --format=%s "$c")" '
			$1 == "-" { next }
			$3 ~ /^tools\/perf\/tests\// { t += $1 + $2; next }
			$3 ~ /^tools\/perf\/Documentation\// { d += $1 + $2; next }
			{ c += $1 + $2 }
			END { printf "  %2d  %5d  %5d  %5d  %.52s\n", n, c, t, d, s }'
	done
}

# fill_cover LETTER FILE RANGE: the subject and text of series/FILE in the
# cover letter git format-patch wrote, and the size table of RANGE
fill_cover() {
	subject=$(entry_header "$SERIES_DIR/$2" Subject)
	[ -n "$subject" ] || die "series/$2 has no Subject:"
	{ body "$SERIES_DIR/$2"; size_table "$3"; } > "$1.blurb"
	awk -v s="$subject" -v blurb="$1.blurb" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, s) }
		/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; next }
		{ print }' "$1" > "$1.new" && mv "$1.new" "$1"
	rm -f "$1.blurb"
}

# Each series with its cover letter, from its first entry's commit (tag
# topic-N) to the next series' first, the last to HEAD
write_patches() {
	rm -rf "$OUT"
	topic=0
	echo "$topics" | while read -r name cover first; do
		topic=$((topic + 1))
		from=$(git rev-parse "topic-$topic^")
		to=$(git rev-parse -q --verify "topic-$((topic + 1))^" || git rev-parse HEAD)
		dir="$OUT/$topic-$name"
		git format-patch -q --no-signature --cover-letter -o "$dir" "$from..$to"
		fill_cover "$dir/0000-cover-letter.patch" "$cover" "$from..$to"
		echo "$dir: $(git rev-list --count "$from..$to") patches"
	done
}

# The patches of every series in order, without the cover letters
patches() {
	ls "$OUT"/*/*.patch | grep -v '/0000-cover-letter.patch$'
}

run_checkpatch() {
	bad=0
	for p in $(patches); do
		"$PRISTINE/scripts/checkpatch.pl" --no-tree --quiet --show-types \
			--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG "$p" > "$p.checkpatch" 2>&1 || true
		sum=$("$PRISTINE/scripts/checkpatch.pl" --no-tree --terse --ignore \
			FILE_PATH_CHANGES,SPDX_LICENSE_TAG "$p" 2>&1 | tail -1)
		printf '  checkpatch %-60s %s\n' "$(basename "$p")" "${sum:-ok}"
		grep -q '^ERROR' "$p.checkpatch" && bad=1
	done
	return $bad
}

check_am() {
	am="$BUILD/series-am"
	rm -rf "$am"
	git clone -q --no-checkout "$GIT_TREE" "$am"
	cd "$am"
	git checkout -q base
	# shellcheck disable=SC2046
	git am -q $(patches) || die "the series does not apply with git am"
	echo "  git am: $(git rev-list --count base..HEAD) patches apply to the pristine tree"
}

# build_one OBJ LOG WHAT [MAKE VARIABLES]: build perf of the checked out
# tree into OBJ, say WHAT and whether it built; 1 if it did not
build_one() {
	obj=$1 log=$2 what=$3
	shift 3
	mkdir -p "$obj"
	# shellcheck disable=SC2086
	if make -s -C tools/perf O="$obj" $PERF_MAKEFLAGS "$@" -j"$JOBS" > "$log" 2>&1; then
		echo "  build $what ok"
		return 0
	fi
	echo "  build $what FAILED (see $log)"
	return 1
}

# suite_descs COMMIT: the descriptions of the C test suites COMMIT registers
suite_descs() {
	for v in $(git show "$1" -- tools/perf/tests/builtin-test.c |
		   sed -n 's/^+[[:space:]]*&suite__\([a-z0-9_]*\),.*/\1/p'); do
		grep -h -A3 "^struct test_suite suite__$v = {" tools/perf/tests/*.c |
			sed -n 's/.*\.desc = "\(.*\)",.*/\1/p'
		# or perf's shorthand for a suite of one case
		sed -n "s/^DEFINE_SUITE(\"\(.*\)\", $v);.*/\1/p" tools/perf/tests/*.c
	done
}

# shell_descs COMMIT: the descriptions of the shell tests COMMIT adds or changes
shell_descs() {
	for f in $(git show --format= --name-only --diff-filter=AM "$1" |
		   grep '^tools/perf/tests/shell/[^/]*\.sh$'); do
		sed -n '2s/^# //p' "$f"
	done
}

# test_one N: run, with the perf just built, the C suites the patches so
# far registered ($suites, a description a line) and the shell tests this
# one adds ($shells); 1 if one fails
test_one() {
	log="$BUILD/series-obj/test-$1.log"
	: > "$log"
	if (
		cd tools/perf
		export PATH="$BUILD/series-obj:$PATH"
		printf '%s\n%s\n' "$suites" "$shells" | grep -v '^$' | while read -r d; do
			"$BUILD/series-obj/perf" test "$d" >> "$log" 2>&1 || exit 1
		done
	) && ! grep -q 'FAILED!' "$log"; then
		echo "  test [$1] ok: $(grep -c ': Ok$' "$log") passed, $(grep -c ': Skip' "$log") skipped"
		return 0
	fi
	echo "  test [$1] FAILED (see $log)"
	return 1
}

build_each() {
	cd "$BUILD/series-am"
	fails=0
	n=0
	suites=""
	for c in $(git rev-list --reverse base..HEAD); do
		n=$((n + 1))
		git checkout -q "$c"
		build_one "$BUILD/series-obj" "$BUILD/series-obj/build-$n.log" \
			"[$n] $(git log -1 --format=%s)" || { fails=$((fails + 1)); continue; }
		suites=$(printf '%s\n%s' "$suites" "$(suite_descs "$c")")
		shells=$(shell_descs "$c")
		[ -z "$(echo "$suites$shells" | tr -d '\n')" ] || test_one "$n" ||
			fails=$((fails + 1))
	done
	git checkout -q -
	return $fails
}

# The whole series built without each optional library perf affinity uses:
# it must build, and say what it lacks at run time.
build_without() {
	cd "$BUILD/series-am"
	fails=0
	for v in NO_DWARF NO_LIBTRACEEVENT NO_SLANG; do
		build_one "$BUILD/series-obj-$v" "$BUILD/series-obj-$v/build.log" "$v=1" "$v=1" ||
			fails=$((fails + 1))
	done
	return $fails
}

check_coverage
sh "$TOP/mk/grow.sh" unpack "$GROWN"
make_base
topic=0
for e in $entries; do
	commit_entry "$e"
	if echo "$topics" | awk -v e="$e" '$3 == e { f = 1 } END { exit !f }'; then
		topic=$((topic + 1))
		git tag "topic-$topic"
	fi
done
check_final
write_patches
run_checkpatch || echo "checkpatch reported errors, see $OUT/*/*.checkpatch"
check_am
if [ "${1:-}" = "--build" ]; then
	build_each || die "some patches of the series do not build or fail their tests"
	build_without || die "the series does not build without an optional library"
fi
echo "series written to $OUT"
