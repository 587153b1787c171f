#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Extract Debian's linux-source-6.12 into DIR as a git repository whose one
# commit, tagged "pristine", is the tarball as shipped, and add WORK, a
# scratch worktree where the series is applied and checked (scripts/apply.sh,
# scripts/series.sh). The last thing written is DIR/.git/debian-version,
# so an interrupted run starts again from scratch. EDIT, the worktree of
# "make edit", goes with the repository that holds its branch: the Makefile
# has checked that it holds no work that is not exported.
# Usage: scripts/tree.sh TARBALL DIR WORK EDIT
set -eu
. "$(dirname "$0")/lib.sh"
tarball=$1
dir=$2
work=$3
edit=$4

[ -r "$tarball" ] || die "$tarball not found: install linux-source-6.12"
version=$(dpkg-query -W -f '${Version}' linux-source-6.12)
tmp=$dir.tmp
rm -rf "$tmp" "$dir" "$work" "$edit"
mkdir -p "$tmp"
step tree "extracting linux-source-6.12 $version"
tar -xf "$tarball" -C "$tmp" --strip-components=1

step tree "recording the pristine tree in git"
cd "$tmp"
git init -q
# Fixed identity and date: the pristine commit id then depends only on the
# tarball's contents. -f: Debian's top-level .gitignore ignores everything.
export GIT_AUTHOR_NAME=Debian GIT_AUTHOR_EMAIL=debian-kernel@lists.debian.org
export GIT_COMMITTER_NAME=Debian GIT_COMMITTER_EMAIL=debian-kernel@lists.debian.org
export GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'
git add -f -A .
git commit -q -m "Debian linux-source-6.12 $version"
git tag pristine
git config gc.auto 0
cd - >/dev/null
mv "$tmp" "$dir"
git -C "$dir" worktree prune
git -C "$dir" worktree add -q --detach "$(realpath -m "$work")" pristine
echo "$version" >"$dir/.git/debian-version"
step tree "pristine tree ready at $dir"
