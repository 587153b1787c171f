#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Apply the series in PATCHDIR with git am on the pristine commit, then move
# the build tree SRC to the result.
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

[ -f "$pdir/series" ] || die "$pdir/series is missing: run 'make patches'"
list=
for p in $(grep -v '^#' "$pdir/series"); do
	for x in "$@"; do
		# shellcheck disable=SC2254 # EXCLUDE is a glob on purpose
		case $p in $x) continue 2 ;; esac
	done
	list="$list $p"
done

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
for p in $list; do
	if ! git -C "$work" am -q "$(realpath "$pdir/$p")" >"$work.am.log" 2>&1; then
		sed 's/^/  /' "$work.am.log" >&2
		git -C "$work" am --abort >/dev/null 2>&1 || true
		have=$(cat "$(git -C "$src" rev-parse --path-format=absolute --git-common-dir)/debian-version")
		made=$(sed -n 's/^# base: //p' "$pdir/series")
		die "$p does not apply to linux-source-6.12 $have (the series was made" \
			"against $made). Refresh the edits in c-core/, rust-bindings/," \
			"samples/ for this tree and run 'make patches'."
	fi
done
head=$(git -C "$work" rev-parse HEAD)

if ! git -C "$src" diff --quiet HEAD; then
	git -C "$src" status --short | head -n 10 >&2
	die "$src has local changes; they would be lost. Move them into the" \
		"series (or 'git -C $src stash') and re-run."
fi
git -C "$src" checkout -q --detach "$head"
printf '%s\n%s\n' "$want" "$head" >"$stamp.tmp"
mv "$stamp.tmp" "$stamp"
step apply "build tree at the series head $(git -C "$src" rev-parse --short HEAD)"
