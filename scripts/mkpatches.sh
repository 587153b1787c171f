#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Turn the series descriptions (c-core/, rust-bindings/, samples/: series/NN-*)
# into a git format-patch series.
#
#   scripts/mkpatches.sh WORKTREE OUTDIR STAMP          write the series to OUTDIR
#   scripts/mkpatches.sh --check WORKTREE OUTDIR STAMP  fail if OUTDIR is stale
#
# WORKTREE is a scratch git worktree of the kernel tree with tag "pristine".
# A series description is a small mail-like file:
#
#   Subject: subsystem: summary
#   Files: new/file/in-tree/path.c other/new.h   (copied from the area)
#   Diffs: lib/Makefile.diff                     (applied with git apply)
#   <blank line>
#   Body: why the change is needed...
#
# Descriptions are applied in order of their file names (NN-) across areas
# (scripts/series.sh). Both modes also import the commits back
# (scripts/import.py) and require the areas unchanged: what "make edit"
# exports, "make import" gives back. STAMP records the inputs of the last
# success; --check with the same inputs only says so.
set -eu
. "$(dirname "$0")/lib.sh"

check=
if [ "${1-}" = --check ]; then
	check=1
	shift
fi
[ $# -eq 3 ] || die "usage: $0 [--check] WORKTREE OUTDIR STAMP"
work=$1
out=$2
stamp=$3
top=$(pwd)
here=$(dirname "$0")
# shellcheck source=scripts/series.sh
. "$here/series.sh"

# inputs: everything the result depends on.
inputs() {
	git -C "$work" rev-parse pristine
	series_areas_hash
	cat "$here/mkpatches.sh" "$here/series.sh" "$here/import.py" "$here/lib.sh" \
		"$here/cover-letter.txt" | sha256sum
	[ -d "$out" ] && find "$out" -type f | LC_ALL=C sort | xargs sha256sum
}
want=$(inputs | sha256sum | cut -d' ' -f1)
if [ -n "$check" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	step patches "$out/ is up to date (nothing changed since the last check)"
	exit 0
fi
rm -f "$stamp"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

series_specs >"$tmp/specs"
: >"$tmp/used"
series_commit "$work" series signoff "$tmp/used"

# Every file of an area must be part of the series: nothing is left out silently.
for area in $series_areas; do
	[ -d "$area" ] && find "$area" -type f ! -path "$area/series/*" ! -path "$area/README.md"
done | sort >"$tmp/all"
sort "$tmp/used" | comm -23 "$tmp/all" - >"$tmp/unused"
[ -s "$tmp/unused" ] && die "files in no series description: $(tr '\n' ' ' <"$tmp/unused")"

mkdir "$tmp/out"
version=$(cat "$(git -C "$work" rev-parse --path-format=absolute --git-common-dir)/debian-version")
n=$(git -C "$work" rev-list --count pristine..series)
if [ "$n" -gt 0 ]; then
	git -C "$work" config branch.series.description "$(cat "$top/scripts/cover-letter.txt")"
	git -C "$work" format-patch -q --cover-letter --cover-from-description=subject \
		--zero-commit --no-signature --base=pristine -o "$tmp/out" pristine..series
fi
# The patches in order, each after the description it is made from.
{
	echo "# Apply with: git am \$(grep -v '^#' series)"
	echo "# base: Debian linux-source-6.12 $version, commit $(git -C "$work" rev-parse pristine)"
	echo "# Each patch is made from the description named above it."
	(cd "$tmp/out" && ls) | grep -v '^0000-cover-letter' | paste -d' ' "$tmp/specs" - |
		while read -r spec patch; do
			printf '# %s\n%s\n' "$spec" "$patch"
		done
} >"$tmp/series"
mv "$tmp/series" "$tmp/out/series"

# The round trip: importing these commits must give the areas back as they are.
python3 "$here/import.py" --by-order --check "$work" pristine..series ||
	die "the areas are not in the form 'make import' writes them (see above):" \
		"'make edit import' stores them so without changing the series"

# normalize DIR: the series minus what depends on the exact 6.12.y tree
# (blob ids, line numbers, base commit), so a newer Debian sublevel that only
# moves lines does not count as a change.
normalize() {
	mkdir -p "$tmp/norm/$2"
	for f in "$1"/*; do
		sed -E -e '/^index [0-9a-f]+\.\.[0-9a-f]+/d' -e '/^base-commit: /d' \
			-e '/^# base: /d' -e 's/^@@ -[0-9,]+ \+[0-9,]+ @@/@@ @@/' \
			"$f" >"$tmp/norm/$2/${f##*/}"
	done
}

if [ -n "$check" ]; then
	[ -d "$out" ] || die "$out/ is missing: run 'make patches'"
	normalize "$out" committed
	normalize "$tmp/out" fresh
	if ! diff -r "$tmp/norm/committed" "$tmp/norm/fresh" >"$tmp/diff"; then
		head -n 40 "$tmp/diff" >&2
		die "$out/ is stale: run 'make patches' and commit the result"
	fi
	step patches "$out/ is up to date ($n patches)"
else
	rm -rf "$out"
	cp -r "$tmp/out" "$out"
	step patches "wrote $n patches to $out/"
fi
inputs | sha256sum | cut -d' ' -f1 >"$stamp"
