#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Apply the series in PATCHDIR with git am on the pristine commit, then move
# the build tree SRC to the result.
#
# SRC must hold nothing but that: a change made there by hand (or a file
# added) is not in the series, so the run stops and names it rather than
# build it or throw it away.
#
# git am runs in the scratch worktree WORK, and SRC is switched with a plain
# checkout: only files that differ from what SRC had are rewritten, so Kbuild
# rebuilds only what the series change touched. STAMP records the series
# applied and is rewritten only when that changes.
# Usage: scripts/apply.sh SRC WORK PATCHDIR STAMP [EXCLUDE...]
#   EXCLUDE: patch file names (or globs) to leave out, e.g. '*-mm-filemap-*'
set -eu
. "$(dirname "$0")/lib.sh"
src=$1
work=$2
pdir=$3
stamp=$4
shift 4

[ -f "$pdir/series" ] || die "$pdir/series is missing"
list=
for p in $(grep -v '^#' "$pdir/series"); do
	for x in "$@"; do
		# shellcheck disable=SC2254 # EXCLUDE is a glob on purpose
		case $p in $x) continue 2 ;; esac
	done
	list="$list $p"
done

# Before anything else: whatever the stamp says, a changed tree is not the series.
# --ignored: Debian's top-level .gitignore ignores every file that is not
# tracked, so a new file shows only as ignored.
dirty=$(git -C "$src" status --porcelain --untracked-files=all --ignored | head -n 20)
if [ -n "$dirty" ]; then
	echo "$dirty" | sed 's/^/  /' >&2
	die "$src differs from pristine + $pdir/ (above): what would be built is not" \
		"what the series ships. Edit the series with 'make edit' (README" \
		"\"Editing the series\"); to drop these changes: git -C $src checkout -f HEAD" \
		"&& git -C $src clean -fdx"
fi

want=$( (git -C "$src" rev-parse pristine; for p in $list; do
	cat "$pdir/$p"; done) | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$want" ] &&
	[ "$(git -C "$src" rev-parse HEAD)" = "$(sed -n 2p "$stamp")" ]; then
	step apply "series already applied ($(echo $list | wc -w) patches)"
	exit 0
fi

export GIT_COMMITTER_NAME=iov-build GIT_COMMITTER_EMAIL=iov-build@localhost
git -C "$work" am --abort >/dev/null 2>&1 || true
git -C "$work" checkout -q -f --detach pristine
git -C "$work" clean -q -fdx
step apply "git am of$(echo " $list" | wc -w | sed 's/^/ /') patches on pristine"
paths=
for p in $list; do
	paths="$paths $(realpath "$pdir/$p")"
done
# One git am for the whole series: each invocation reads the whole index.
# shellcheck disable=SC2086 # paths have no spaces
if ! git -C "$work" am -q $paths >"$work.am.log" 2>&1; then
	sed 's/^/  /' "$work.am.log" >&2
	git -C "$work" am --abort >/dev/null 2>&1 || true
	have=$(cat "$(git -C "$src" rev-parse --path-format=absolute --git-common-dir)/debian-version")
	made=$(sed -n 's/^# The series.*; base: Debian //p' "$pdir/series")
	die "the series does not apply to linux-source-6.12 $have (it was made against" \
		"$made; the failing patch is named above). Refresh it for this tree: git am" \
		"-3 the series onto pristine in build/linux-edit, resolve, commit the branch as" \
		"'edit', then 'make export'."
fi
head=$(git -C "$work" rev-parse HEAD)
git -C "$src" checkout -q --detach "$head"
printf '%s\n%s\n' "$want" "$head" >"$stamp.tmp"
mv "$stamp.tmp" "$stamp"
step apply "build tree at the series head $(git -C "$src" rev-parse --short HEAD)"
