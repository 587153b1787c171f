#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Check that the series (PATCHDIR/series) applies to Debian RELEASE's own
# linux-source-6.12, fetched through a private apt setup in WORK (the
# system's apt state is neither used nor changed), and say whether the
# patched tree is the one the pipeline builds (KSRC, the series applied to
# this machine's linux-source-6.12).
# Usage: scripts/series-debian.sh RELEASE WORK PATCHDIR KSRC
set -eu
. "$(dirname "$0")/lib.sh"
release=$1
work=$(realpath -m "$2")
pdir=$(realpath "$3")
ksrc=$(realpath "$4")
suite=$(debian_suite "$release") || exit 1

rm -rf "$work/debs" "$work/tree"
mkdir -p "$work/debs" "$work/tree"
step debian$release "fetching Debian $release's linux-source-6.12 (log: $work/log)"
{
	debian_apt "$work/apt" "$suite" apt-get update &&
		(cd "$work/debs" && debian_apt "$work/apt" "$suite" apt-get download linux-source-6.12)
} >"$work/log" 2>&1 || die "cannot fetch Debian $release's linux-source-6.12 (see $work/log)"
deb=$(ls "$work"/debs/linux-source-6.12_*.deb)
version=$(dpkg-deb -f "$deb" Version)
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.12.tar.xz |
	xz -d | tar -x -C "$work/tree" --strip-components=1
[ -f "$work/tree/Makefile" ] ||
	die "no kernel tree in $deb (expected usr/src/linux-source-6.12.tar.xz; log: $work/log)"
rm -rf "$work/debs"

# git apply as patch(1) does, to a directory that is not a repository:
# the ceiling keeps git from finding a repository around WORK.
n=0
for p in $(grep -v '^#' "$pdir/series"); do
	n=$((n + 1))
	(cd "$work/tree" && GIT_CEILING_DIRECTORIES=$work git apply --whitespace=nowarn \
		"$pdir/$p") >"$work/apply.log" 2>&1 || {
		cat "$work/apply.log" >&2
		die "patch $n ($p) does not apply to Debian $release's linux-source-6.12 $version"
	}
done
if diff -rq -x .git "$work/tree" "$ksrc" >"$work/diff.txt" 2>&1; then
	same="the patched tree is the one this pipeline builds"
else
	same="the patched tree differs from the one this pipeline builds in $(grep -c . "$work/diff.txt") files ($work/diff.txt)"
fi
step debian$release "the $n patches apply to Debian $release's linux-source-6.12 $version; $same"
