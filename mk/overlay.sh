#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make $TREE = pristine tree + this project's new files + Makefile.patch.
#
# Only files whose content changes are written, so perf's own make sees
# unchanged timestamps and rebuilds just what a project edit touched.
set -e

if [ ! -d "$TREE" ]; then
	echo "  TREE   $TREE"
	cp -a "$PRISTINE" "$TREE"
	rm -f "$TREE/.stamp"
fi

# sync_file SRC DST: copy SRC over DST only when the content differs.
sync_file() {
	if ! cmp -s "$1" "$2"; then
		mkdir -p "$(dirname "$2")"
		# a fresh mtime, so that make rebuilds what depends on it
		cp --preserve=mode "$1" "$2"
		echo "  SYNC   ${2#"$TREE"/}"
	fi
}

# restore_file PATH: put PATH back as the pristine tree has it (or remove it).
restore_file() {
	if [ -f "$PRISTINE/$1" ]; then
		sync_file "$PRISTINE/$1" "$TREE/$1"
	elif [ -f "$TREE/$1" ]; then
		rm -f "$TREE/$1"
		echo "  RM     $1"
	fi
}

# 1. New files, kept at their kernel-tree paths under tools/.
new_list="$BUILD/.overlay-files"
(cd "$TOP" && git ls-files -co --exclude-standard tools 2>/dev/null ||
	find tools -type f) | sort -u > "$new_list.new"
while read -r f; do
	[ -f "$TOP/$f" ] && sync_file "$TOP/$f" "$TREE/$f"
done < "$new_list.new"
if [ -f "$new_list" ]; then
	comm -23 "$new_list" "$new_list.new" | while read -r f; do
		restore_file "$f"
	done
fi
mv "$new_list.new" "$new_list"

# 2. Edits to existing files: apply Makefile.patch to pristine copies of
#    the files it touches, then sync the results.
patched_list="$BUILD/.patched-files"
stage="$BUILD/patch-stage"
rm -rf "$stage"
mkdir -p "$stage"
sed -n 's|^+++ b/\([^	]*\).*|\1|p' "$TOP/Makefile.patch" | sort -u > "$patched_list.new"
while read -r f; do
	if [ -f "$PRISTINE/$f" ]; then
		mkdir -p "$stage/$(dirname "$f")"
		cp -p "$PRISTINE/$f" "$stage/$f"
	fi
done < "$patched_list.new"
if ! patch -p1 -s -f -d "$stage" --no-backup-if-mismatch < "$TOP/Makefile.patch" \
	> "$BUILD/patch.log" 2>&1; then
	cat "$BUILD/patch.log" >&2
	echo "error: Makefile.patch does not apply to $(cat "$PRISTINE/.stamp")" >&2
	exit 1
fi
while read -r f; do
	sync_file "$stage/$f" "$TREE/$f"
done < "$patched_list.new"
if [ -f "$patched_list" ]; then
	comm -23 "$patched_list" "$patched_list.new" | while read -r f; do
		restore_file "$f"
	done
fi
mv "$patched_list.new" "$patched_list"
rm -rf "$stage"
