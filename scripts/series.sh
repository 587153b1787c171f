# SPDX-License-Identifier: GPL-2.0
# The series as commits: shared by scripts/mkpatches.sh (patches/) and
# scripts/edit.sh (the branch of "make edit"). Sourced after lib.sh, from
# the repository top.

series_areas="c-core rust-bindings samples"
series_name='Seed abac5b57 maintainers'
series_mail='maintainers@users.noreply.a-seed-abac5b57.example'

# series_specs: the descriptions (<area>/series/NN-topic), ordered by file
# name across the areas: NN sets the order of the patches.
series_specs() {
	for area in $series_areas; do
		for f in "$area"/series/*; do
			[ -f "$f" ] && printf '%s %s\n' "${f##*/}" "$f"
		done
	done | sort | cut -d' ' -f2
}

# series_header SPEC NAME: the words of header NAME (may repeat) in SPEC.
series_header() {
	sed -n "/^\$/q; s/^$2:[[:space:]]*//p" "$1" | tr '\n' ' '
}

# series_areas_hash: one hash of every file of the areas, to tell whether
# they changed.
series_areas_hash() {
	find $series_areas -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1
}

# series_content_hash: the same without the headers of the descriptions,
# which say how commits map to files: editing them (to map a path a commit
# now changes) is part of importing, not a change import would overwrite.
series_content_hash() {
	for f in $(find $series_areas -type f | LC_ALL=C sort); do
		case $f in
		*/series/*) printf '%s ' "$f"; sed '1,/^$/d' "$f" | sha256sum ;;
		*) sha256sum "$f" ;;
		esac
	done | sha256sum | cut -d' ' -f1
}

# series_commit REPO BRANCH TRAILER USED: point BRANCH of the kernel repository
# REPO at the series as commits on pristine, one per description, with a
# fixed identity and date (reproducible ids). TRAILER is what ends each
# message: "signoff" (the patches' Signed-off-by:) or "series" (a "Series:
# <description>" trailer, which "make import" maps the commit back by).
# Appends the area files used to USED. The commits are made in a private
# index, so no worktree is touched (a checkout of BRANCH is the caller's
# business). The identity and date stay exported (format-patch dates the
# cover letter with them).
series_commit() {
	_repo=$1
	_branch=$2
	_trailer=$3
	_used=$4
	_top=$(pwd)
	_tmp=$(mktemp -d)
	export GIT_AUTHOR_NAME="$series_name" GIT_AUTHOR_EMAIL="$series_mail"
	export GIT_COMMITTER_NAME="$series_name" GIT_COMMITTER_EMAIL="$series_mail"
	export GIT_AUTHOR_DATE='2026-12-03T00:00:00Z' GIT_COMMITTER_DATE='2026-12-03T00:00:00Z'
	# The private index holds only the top-level directories the series
	# touches (a third of the tree): every command that reads it is faster.
	# Each commit's tree is pristine's with those directories replaced.
	for spec in $(series_specs); do
		area=${spec%%/*}
		series_header "$spec" Files
		for d in $(series_header "$spec" Diffs); do
			[ -f "$area/$d" ] && sed -n 's|^+++ b/||p' "$area/$d"
		done
	done | tr ' ' '\n' | sed -n 's|^\([^/]*\).*|\1|p' | sort -u >"$_tmp/tops"
	git -C "$_repo" ls-tree pristine | awk -F '\t' 'NR == FNR { top[$1] = 1; next }
		!($2 in top)' "$_tmp/tops" - >"$_tmp/rest"
	export GIT_INDEX_FILE="$_tmp/index"
	git -C "$_repo" read-tree "$(git -C "$_repo" ls-tree pristine |
		awk -F '\t' 'NR == FNR { top[$1] = 1; next } $2 in top' "$_tmp/tops" - |
		git -C "$_repo" mktree)"
	_head=$(git -C "$_repo" rev-parse "pristine^{commit}")
	_tree=$(git -C "$_repo" rev-parse "pristine^{tree}")
	for spec in $(series_specs); do
		area=${spec%%/*}
		subject=$(sed -n '/^$/q; s/^Subject:[[:space:]]*//p' "$spec")
		[ -n "$subject" ] || die "$spec: no Subject: line"
		# One git command per step and patch that reads the index: each reads
		# all of it (hash-object does not).
		: >"$_tmp/info"
		for f in $(series_header "$spec" Files); do
			[ -f "$area/$f" ] || die "$spec: $area/$f does not exist"
			_mode=100644
			[ -x "$area/$f" ] && _mode=100755
			printf '%s %s\t%s\n' $_mode \
				"$(git -C "$_repo" hash-object -w --no-filters "$_top/$area/$f")" "$f" \
				>>"$_tmp/info"
			echo "$area/$f" >>"$_used"
		done
		if [ -s "$_tmp/info" ]; then
			git -C "$_repo" update-index --add --index-info <"$_tmp/info"
		fi
		_diffs=
		for d in $(series_header "$spec" Diffs); do
			[ -f "$area/$d" ] || die "$spec: $area/$d does not exist"
			echo "$area/$d" >>"$_used"
			_diffs="$_diffs $_top/$area/$d"
		done
		if [ -n "$_diffs" ]; then
			# shellcheck disable=SC2086 # paths have no spaces
			git -C "$_repo" apply --cached $_diffs ||
				die "$spec: a diff of '$(series_header "$spec" Diffs)' does not apply"
		fi
		{
			echo "$subject"
			echo
			sed '1,/^$/d' "$spec"
			echo
			case $_trailer in
			signoff) echo "Signed-off-by: $series_name <$series_mail>" ;;
			series) echo "Series: $spec" ;;
			esac
		} | git stripspace >"$_tmp/msg"
		_parent=$_tree
		_tree=$(git -C "$_repo" ls-tree "$(git -C "$_repo" write-tree)" | cat - "$_tmp/rest" |
			git -C "$_repo" mktree)
		[ "$_tree" != "$_parent" ] || die "$spec: the patch is empty"
		_head=$(git -C "$_repo" commit-tree "$_tree" -p "$_head" -F "$_tmp/msg")
	done
	unset GIT_INDEX_FILE
	git -C "$_repo" update-ref "refs/heads/$_branch" "$_head"
	rm -rf "$_tmp"
}
