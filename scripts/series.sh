#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The series in patches/ is the source; this turns it into a git branch to
# edit and back, with stock git, as kernel developers carry a series (Debian's
# "gbp pq import/export" does the same for debian/patches):
#
#   series.sh edit KSRC EDIT PDIR   EDIT: a worktree of KSRC's repository on
#                                   branch "edit", made by git am of PDIR on
#                                   pristine; the cover letter is the
#                                   branch description
#   series.sh export EDIT PDIR      git format-patch of pristine..edit into
#                                   PDIR, with its series file, and the views
#   series.sh check WORK PDIR STAMP fail unless exporting git am of PDIR (done
#                                   in the scratch worktree WORK) gives PDIR
#                                   and the views back; STAMP records the
#                                   inputs of the last success
#   series.sh pending EDIT          fail if EDIT holds work not exported
#
# The views, c-core/, rust-bindings/ and samples/ next to PDIR, are generated
# for reading: every file the series adds, whole, at its in-tree path, and
# for every file it changes, PATH.diff, all the series does to it. A path
# belongs to rust-bindings/ under rust/, to samples/ under samples/, and to
# c-core/ otherwise.
#
# Nothing is reset behind the user's back: EDIT's git directory keeps
# "iov-sync", the branch head and a hash of PDIR as of the last edit or
# export. A head that moved since (or uncommitted changes) is work not
# exported; a PDIR that changed since is work not yet in the branch.
set -eu
. "$(dirname "$0")/lib.sh"

views="c-core rust-bindings samples"
# The identity of the git am commits, which only exists in the branch.
export GIT_COMMITTER_NAME=iov-build GIT_COMMITTER_EMAIL=iov-build@localhost

usage() {
	die "usage: $0 edit KSRC EDIT PDIR | export EDIT PDIR | check WORK PDIR STAMP | pending EDIT"
}

# patch_list PDIR: the patch files of PDIR/series, in order.
patch_list() {
	[ -f "$1/series" ] || die "$1/series is missing"
	grep -v -e '^#' -e '^[[:space:]]*$' "$1/series" | sed "s|^|$1/|"
}

# am REPO PDIR: git am the series onto pristine, detached; reproducible ids.
am() {
	git -C "$1" am --abort >/dev/null 2>&1 || true
	git -C "$1" checkout -q -f --detach pristine
	git -C "$1" clean -q -fdx
	# shellcheck disable=SC2046 # patch paths have no spaces
	git -C "$1" am -q --committer-date-is-author-date $(patch_list "$(realpath "$2")") ||
		die "git am of $2 onto pristine failed in $1 (the failing patch is named above)"
}

# cover_description COVER: the subject and body of a cover letter as a branch
# description (format-patch --cover-from-description=subject): the text
# between the Subject: header and the shortlog.
cover_description() {
	awk '/^Subject: / { sub(/^Subject: \[PATCH [0-9]+\/[0-9]+\] /, ""); s = $0; h = 1; next }
		h && /^ / { sub(/^ /, ""); s = s " " $0; next }
		h && /^$/ { print s; h = 0; b = 1 }
		b && /^[^ ].* \([0-9]+\):$/ { exit }
		b { print }' "$1" | git stripspace
}

# export_to REPO OUT: pristine..HEAD of REPO as patches, series and views in OUT.
export_to() {
	mkdir -p "$2/patches"
	n=$(git -C "$1" rev-list --count pristine..HEAD)
	[ "$n" -gt 0 ] || die "$1: no commits on pristine to export"
	# The cover letter is dated and signed as the last commit, and ends after the
	# shortlog: without the diffstat, a change to one patch changes one file.
	ident=$(git -C "$1" log -1 --format='%an|%ae|%aD' HEAD)
	GIT_COMMITTER_NAME=${ident%%|*} GIT_COMMITTER_EMAIL=$(echo "$ident" | cut -d'|' -f2) \
		GIT_COMMITTER_DATE=${ident##*|} git -C "$1" format-patch -q --zero-commit \
		--no-signature --cover-letter --cover-from-description=subject -o "$2/patches" \
		pristine..HEAD
	cover=$2/patches/0000-cover-letter.patch
	awk '/^[^ ].* \([0-9]+\):$/ { s = 1 } { print } s && /^$/ { exit }' "$cover" >"$cover.tmp"
	mv "$cover.tmp" "$cover"
	version=$(cat "$(git -C "$1" rev-parse --path-format=absolute --git-common-dir)/debian-version")
	{
		echo "# The series, in order (git am \$(grep -v '^#' series)); base: Debian linux-source-6.12 $version"
		# Comment lines group the patches: those that only touch rust/ (or
		# samples/), not counting Documentation/ and MAINTAINERS, are Rust
		# bindings (samples); a patch touching only those two stays in the
		# group of the patch before it; all others are the C core.
		group='C core'
		for p in $(cd "$2/patches" && ls -- [0-9]*.patch | grep -v '^0000-cover-letter'); do
			files=$(sed -n 's|^diff --git a/\([^ ]*\) .*|\1|p' "$2/patches/$p" |
				grep -v -e '^Documentation/' -e '^MAINTAINERS$' || true)
			if [ -z "$files" ]; then
				:
			elif ! echo "$files" | grep -qv '^rust/'; then
				group='Rust bindings'
			elif ! echo "$files" | grep -qv '^samples/'; then
				group='Samples'
			else
				group='C core'
			fi
			[ "$group" = "${last-}" ] || echo "# $group"
			last=$group
			echo "$p"
		done
	} >"$2/patches/series"
	base=$(git -C "$1" rev-parse pristine)
	git -C "$1" diff --name-status --no-renames "$base" HEAD | while read -r st path; do
		case $path in rust/*) v=rust-bindings ;; samples/*) v=samples ;; *) v=c-core ;; esac
		mkdir -p "$2/$v/$(dirname "$path")"
		case $st in
		A) git -C "$1" show "HEAD:$path" >"$2/$v/$path" ;;
		*) git -C "$1" diff "$base" HEAD -- "$path" >"$2/$v/$path.diff" ;;
		esac
	done
}

# normalize DIR: what depends on the exact 6.12.y tree dropped (blob ids, hunk
# line numbers, base version), so a newer Debian sublevel that only moves
# lines does not make the series stale.
normalize() {
	find "$1" -type f | while read -r f; do
		sed -E -i -e '/^index [0-9a-f]+\.\.[0-9a-f]+/d' -e 's/^# The series, in order.*//' \
			-e 's/^@@ -[0-9,]+ \+[0-9,]+ @@/@@ @@/' "$f"
	done
}

# cover_ranges PDIR: the cover letter's headings "... (patches A-B)" (or
# "(patch A)") must cover 1 to the number of patches, in order: its
# overview cannot go stale when patches are added, dropped or moved between
# its groups.
cover_ranges() {
	n=$(grep -c '^[0-9]' "$1/series")
	sed -n -e 's/^[A-Z].* (patches \([0-9]*\)-\([0-9]*\))$/\1 \2/p' \
		-e 's/^[A-Z].* (patch \([0-9]*\))$/\1 \1/p' "$1/0000-cover-letter.patch" |
		awk -v n="$n" '$1 != next_ { bad = 1 } { next_ = $2 + 1 }
			BEGIN { next_ = 1 } END { exit bad || next_ != n + 1 }' ||
		die "the cover letter's \"(patches A-B)\" headings do not cover patches 1-$n in order"
}

# state EDIT: the sync file; synced_pdir PDIR: the hash recorded for PDIR.
state() { echo "$(git -C "$1" rev-parse --absolute-git-dir)/iov-sync"; }
pdir_hash() { find "$1" -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-64; }
record() {
	printf '%s\n%s\n' "$(git -C "$1" rev-parse HEAD)" "$(pdir_hash "$2")" >"$(state "$1")"
}

# pending EDIT: print why EDIT has work not exported, if it has.
pending() {
	gd=$(git -C "$1" rev-parse --absolute-git-dir)
	for op in rebase-merge rebase-apply MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD; do
		[ -e "$gd/$op" ] && { echo "a git operation is in progress ($op)"; return; }
	done
	dirty=$(git -C "$1" status --porcelain --ignored | head -n 5)
	[ -z "$dirty" ] || { printf 'uncommitted changes:\n%s\n' "$dirty"; return; }
	[ "$(git -C "$1" rev-parse HEAD)" = "$(sed -n 1p "$(state "$1")" 2>/dev/null)" ] ||
		echo "commits not exported ($(git -C "$1" log --oneline -1 HEAD))"
}

cmd=${1-}
case $cmd in
edit)
	[ $# -eq 4 ] || usage
	ksrc=$2 edit=$3 pdir=$4
	if [ -e "$edit" ]; then
		why=$(pending "$edit")
		changed=
		[ "$(pdir_hash "$pdir")" = "$(sed -n 2p "$(state "$edit")" 2>/dev/null)" ] || changed=1
		if [ -n "$why" ] && [ -n "$changed" ]; then
			die "$edit has work not exported ($why) and $pdir/ changed since it was made:" \
				"bring one into the other by hand (git -C $edit am, or make export)"
		elif [ -n "$why" ]; then
			step edit "$edit has work not exported yet ($why): carry on, then 'make export'"
			exit 0
		elif [ -z "$changed" ]; then
			step edit "$edit is up to date: branch edit, $(git -C "$edit" rev-list --count pristine..HEAD) commits on pristine"
			exit 0
		fi
		step edit "$pdir/ changed since $edit was made: making its branch again"
	else
		git -C "$ksrc" worktree prune
		git -C "$ksrc" worktree add -q --detach "$(realpath -m "$edit")" pristine
	fi
	am "$edit" "$pdir"
	git -C "$edit" checkout -q -B edit
	git -C "$edit" config branch.edit.description "$(cover_description "$pdir/0000-cover-letter.patch")"
	record "$edit" "$pdir"
	step edit "$edit: branch edit, $(git -C "$edit" rev-list --count pristine..edit) commits on pristine;" \
		"edit with git (commit --fixup, rebase -i --autosquash pristine), then 'make export'"
	;;
export)
	[ $# -eq 3 ] || usage
	edit=$2 pdir=$3
	[ -d "$edit" ] || die "$edit does not exist: run 'make edit' first"
	why=$(pending "$edit")
	case $why in "a git operation"* | uncommitted*) die "$edit: $why; finish or commit it first" ;; esac
	if [ "$(pdir_hash "$pdir")" != "$(sed -n 2p "$(state "$edit")" 2>/dev/null)" ]; then
		die "$pdir/ changed since $edit was made; exporting would overwrite that." \
			"Put those changes into $edit first (git am), or run 'make edit' if $edit has none"
	fi
	bad=$(git -C "$edit" log --format='%h %s' pristine..HEAD | grep -E '^[0-9a-f]+ (fixup|squash|amend)!' || true)
	[ -z "$bad" ] || die "unsquashed commits (git rebase -i --autosquash pristine): $bad"
	for c in $(git -C "$edit" rev-list pristine..HEAD); do
		git -C "$edit" log -1 --format=%B "$c" | grep -q '^Signed-off-by: ' ||
			die "commit $(git -C "$edit" log -1 --format='%h %s' "$c") has no Signed-off-by:"
	done
	git -C "$edit" config branch.edit.description >/dev/null ||
		die "branch edit of $edit has no description (the cover letter): git branch --edit-description"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	export_to "$edit" "$tmp"
	cover_ranges "$tmp/patches"
	top=$(dirname "$(realpath "$pdir")")
	for v in $views; do rm -rf "${top:?}/$v"; done
	for v in $views; do [ ! -d "$tmp/$v" ] || cp -r "$tmp/$v" "$top/$v"; done
	rm -rf "$pdir" && cp -r "$tmp/patches" "$pdir"
	record "$edit" "$pdir"
	step export "$(grep -c '^[0-9]' "$pdir/series") patches and the views written; commit them"
	;;
check)
	[ $# -eq 4 ] || usage
	work=$2 pdir=$3 stamp=$4
	top=$(dirname "$(realpath "$pdir")")
	key=$( (git -C "$work" rev-parse pristine; cat "$0" "$(dirname "$0")/lib.sh"
		for v in "$pdir" $views; do [ ! -d "$top/${v##*/}" ] || pdir_hash "$top/${v##*/}"; done) |
		sha256sum | cut -c1-64)
	if [ "$(cat "$stamp" 2>/dev/null)" = "$key" ]; then
		step patches "$pdir/ and the views are as exported (nothing changed since the last check)"
		exit 0
	fi
	rm -f "$stamp"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	am "$work" "$pdir"
	git -C "$work" config branch.check.description "$(cover_description "$pdir/0000-cover-letter.patch")"
	git -C "$work" checkout -q -B check
	export_to "$work" "$tmp/fresh"
	mkdir "$tmp/committed"
	cp -r "$pdir" "$tmp/committed/patches"
	for v in $views; do [ ! -d "$top/$v" ] || cp -r "$top/$v" "$tmp/committed/"; done
	normalize "$tmp/fresh"
	normalize "$tmp/committed"
	if ! diff -r "$tmp/committed" "$tmp/fresh" >"$tmp/diff"; then
		head -n 40 "$tmp/diff" >&2
		die "$pdir/ or the views are not what exporting the series gives (above): edit" \
			"the series with 'make edit' and 'make export' (README \"Editing the series\")"
	fi
	cover_ranges "$pdir"
	echo "$key" >"$stamp"
	step patches "$(grep -c '^[0-9]' "$pdir/series") patches, in exported form; the views match"
	;;
pending)
	[ $# -eq 2 ] || usage
	[ -d "$2" ] || exit 0
	why=$(pending "$2")
	[ -z "$why" ] || die "$2 has work not exported: $why. Run 'make export' first, or remove" \
		"it yourself (git -C $2 worktree remove --force $2)."
	;;
*) usage ;;
esac
