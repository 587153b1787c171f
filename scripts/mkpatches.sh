#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Turn the series descriptions (c-core/, rust-bindings/, samples/: series/NN-*)
# into a git format-patch series.
#
#   scripts/mkpatches.sh WORKTREE OUTDIR          write the series to OUTDIR
#   scripts/mkpatches.sh --check WORKTREE OUTDIR  fail if OUTDIR is stale
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
# Descriptions are applied in order of their file names (NN-) across areas.
# Commits get a fixed identity and date, so the output is reproducible.
set -eu
. "$(dirname "$0")/lib.sh"

check=
if [ "$1" = --check ]; then
	check=1
	shift
fi
work=$1
out=$2
top=$(pwd)
areas="c-core rust-bindings samples"
ident_name='Seed abac5b57 maintainers'
ident_mail='maintainers@users.noreply.a-seed-abac5b57.example'
export GIT_AUTHOR_NAME="$ident_name" GIT_AUTHOR_EMAIL="$ident_mail"
export GIT_COMMITTER_NAME="$ident_name" GIT_COMMITTER_EMAIL="$ident_mail"
export GIT_AUTHOR_DATE='2026-12-03T00:00:00Z' GIT_COMMITTER_DATE='2026-12-03T00:00:00Z'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The descriptions, ordered by file name across the areas.
for area in $areas; do
	for f in "$area"/series/*; do
		[ -f "$f" ] && printf '%s %s\n' "${f##*/}" "$f"
	done
done | sort | cut -d' ' -f2 >"$tmp/specs"

# header SPEC NAME: the words of header NAME (may repeat) in SPEC.
header() {
	sed -n "/^\$/q; s/^$2:[[:space:]]*//p" "$1" | tr '\n' ' '
}

git -C "$work" checkout -q -f -B series pristine
git -C "$work" clean -q -fdx
: >"$tmp/used"
while read -r spec; do
	area=${spec%%/*}
	subject=$(sed -n '/^$/q; s/^Subject:[[:space:]]*//p' "$spec")
	[ -n "$subject" ] || die "$spec: no Subject: line"
	for f in $(header "$spec" Files); do
		[ -f "$area/$f" ] || die "$spec: $area/$f does not exist"
		mkdir -p "$work/$(dirname "$f")"
		cp "$area/$f" "$work/$f"
		echo "$area/$f" >>"$tmp/used"
	done
	for d in $(header "$spec" Diffs); do
		[ -f "$area/$d" ] || die "$spec: $area/$d does not exist"
		git -C "$work" apply "$top/$area/$d" ||
			die "$spec: $area/$d does not apply"
		echo "$area/$d" >>"$tmp/used"
	done
	{
		echo "$subject"
		echo
		sed '1,/^$/d' "$spec"
		echo
		echo "Signed-off-by: $ident_name <$ident_mail>"
	} >"$tmp/msg"
	git -C "$work" add -f -A
	git -C "$work" diff --cached --quiet && die "$spec: the patch is empty"
	git -C "$work" commit -q --cleanup=whitespace -F "$tmp/msg"
done <"$tmp/specs"

# Every file of an area must be part of the series: nothing is left out silently.
for area in $areas; do
	[ -d "$area" ] && find "$area" -type f ! -path "$area/series/*" ! -path "$area/README.md"
done | sort >"$tmp/all"
sort "$tmp/used" | comm -23 "$tmp/all" - >"$tmp/unused"
[ -s "$tmp/unused" ] && die "files in no series description:" $(cat "$tmp/unused")

mkdir "$tmp/out"
version=$(cat "$(git -C "$work" rev-parse --path-format=absolute --git-common-dir)/debian-version")
n=$(git -C "$work" rev-list --count pristine..series)
if [ "$n" -gt 0 ]; then
	git -C "$work" config branch.series.description "$(cat "$top/scripts/cover-letter.txt")"
	git -C "$work" format-patch -q --cover-letter --cover-from-description=subject \
		--zero-commit --no-signature --base=pristine -o "$tmp/out" pristine..series
fi
{
	echo "# Apply with: git am \$(grep -v '^#' series)"
	echo "# base: Debian linux-source-6.12 $version, commit $(git -C "$work" rev-parse pristine)"
	(cd "$tmp/out" && ls) | grep -v '^0000-cover-letter' || true
} >"$tmp/series"
mv "$tmp/series" "$tmp/out/series"

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
