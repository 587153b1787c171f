#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# "make edit" and "make import": the series as a git branch to edit with
# git's own tools (commit --fixup, rebase -i --autosquash, ...), and back.
#
#   scripts/edit.sh edit KSRC EDIT    make EDIT a worktree of KSRC's repository
#                                     on branch "edit": one commit per
#                                     description, each with a "Series:"
#                                     trailer naming it
#   scripts/edit.sh import EDIT       write pristine..HEAD of EDIT back into
#                                     the areas (scripts/import.py)
#   scripts/edit.sh check EDIT        fail if EDIT has work not imported
#                                     (for targets that would remove it)
#
# The worktree is never reset behind the user's back. EDIT's git directory
# keeps "iov-sync": the commit and the areas as of the last export or
# import. A HEAD that moved since, or uncommitted changes, is work not yet
# imported; areas that changed since are work not yet exported. "edit"
# rebuilds the branch only when it holds no such work, "import" writes the
# areas only when they hold none.
set -eu
here=$(dirname "$0")
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
# shellcheck source=scripts/series.sh
. "$here/series.sh"

usage() {
	die "usage: $0 edit KSRC EDIT | import EDIT | check EDIT"
}

# state: the sync file of the worktree $edit.
state() {
	echo "$(git -C "$edit" rev-parse --absolute-git-dir)/iov-sync"
}

# pending: print why $edit has work that was not imported, if it has.
pending() {
	gd=$(git -C "$edit" rev-parse --absolute-git-dir)
	for op in rebase-merge rebase-apply MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD BISECT_LOG; do
		[ -e "$gd/$op" ] && { echo "a git operation is in progress ($op)"; return; }
	done
	dirty=$(git -C "$edit" status --porcelain --ignored | head -n 5)
	[ -z "$dirty" ] || { printf 'uncommitted changes:\n%s\n' "$dirty"; return; }
	synced=$(sed -n 1p "$(state)" 2>/dev/null || true)
	head=$(git -C "$edit" rev-parse HEAD)
	[ "$head" = "$synced" ] ||
		echo "commits not imported yet ($(git -C "$edit" log --oneline -1 HEAD))"
}

# record: the worktree and the areas are in sync now.
record() {
	printf '%s\n%s\n' "$(git -C "$edit" rev-parse HEAD)" "$(series_content_hash)" >"$(state).tmp"
	mv "$(state).tmp" "$(state)"
}

# areas_changed: the areas changed since the last sync, headers of the
# descriptions aside.
areas_changed() {
	[ "$(series_content_hash)" != "$(sed -n 2p "$(state)" 2>/dev/null || true)" ]
}

cmd=${1-}
case $cmd in
edit)
	[ $# -eq 3 ] || usage
	ksrc=$2
	edit=$3
	if [ -e "$edit" ]; then
		git -C "$edit" rev-parse --git-dir >/dev/null 2>&1 ||
			die "$edit exists but is not a git worktree: move it away"
		why=$(pending)
		if [ -n "$why" ]; then
			extra=
			areas_changed && extra=" The areas changed as well since then: bring one side's changes into the other by hand first."
			die "$edit has work that is not imported: $why. Run 'make import'" \
				"(or drop that work: git -C $edit reset --hard $(sed -n 1p "$(state)")).$extra"
		fi
		if ! areas_changed; then
			step edit "$edit is up to date: branch $(git -C "$edit" rev-parse --abbrev-ref HEAD)," \
				"$(git -C "$edit" rev-list --count pristine..HEAD) commits on pristine"
			exit 0
		fi
		step edit "the areas changed since $edit was made: rebuilding its branch"
	else
		git -C "$ksrc" worktree prune
		git -C "$ksrc" worktree add -q --detach "$(realpath -m "$edit")" pristine
	fi
	used=$(mktemp)
	trap 'rm -f "$used"' EXIT
	series_commit "$edit" edit series "$used"
	git -C "$edit" checkout -q -f edit
	record
	step edit "$edit: branch edit, $(git -C "$edit" rev-list --count pristine..edit) commits on" \
		"pristine; edit them with git, then 'make import'"
	;;
import)
	[ $# -eq 2 ] || usage
	edit=$2
	[ -d "$edit" ] || die "$edit does not exist: run 'make edit' first"
	gd=$(git -C "$edit" rev-parse --absolute-git-dir)
	for op in rebase-merge rebase-apply MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD; do
		[ -e "$gd/$op" ] && die "a git operation is in progress in $edit ($op): finish it first"
	done
	dirty=$(git -C "$edit" status --porcelain --ignored | head -n 5)
	[ -z "$dirty" ] || die "$edit has uncommitted changes; commit them (e.g. git commit" \
		"--fixup) and rebase first, they are not imported: $dirty"
	if areas_changed; then
		git status --short -- $series_areas | head -n 10 >&2
		die "the areas changed since $edit was made from them; importing would overwrite" \
			"that. Put those changes into $edit as commits (or undo them), then" \
			"run 'make import' again."
	fi
	step import "writing pristine..HEAD of $edit into the areas"
	changed=$(python3 "$here/import.py" "$edit" pristine..HEAD) || exit 1
	record
	if [ -z "$changed" ]; then
		step import "the areas already match the branch: nothing changed"
	else
		step import "changed: $(echo $changed)"
		step import "next: 'make patches', then commit the areas and patches/"
	fi
	;;
check)
	[ $# -eq 2 ] || usage
	edit=$2
	[ -d "$edit" ] || exit 0
	why=$(pending)
	[ -z "$why" ] || die "$edit has work that is not imported: $why. Run 'make import'" \
		"first, or remove it yourself (git -C $edit worktree remove --force $edit)."
	;;
*) usage ;;
esac
