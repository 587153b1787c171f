#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fetch the config of Debian's own 6.12 kernel for amd64 (the newest
# linux-headers-6.12.*+debN-amd64 of Debian RELEASE, 12 or 13, when it is
# first fetched) into OUT, through a private apt setup in WORK (nothing of
# the system's apt state is used or changed). OUT is kept: a second run
# fetches nothing; remove it to fetch the newest again.
# Usage: scripts/debian-config.sh RELEASE WORK OUT
set -eu
. "$(dirname "$0")/lib.sh"
release=$1
work=$(realpath -m "$2")
out=$3

[ -s "$out" ] && exit 0
suite=$(debian_suite "$release") || exit 1
rm -rf "$work"
mkdir -p "$work/debs"
debian_apt "$work" "$suite" apt-get update >"$work/log" 2>&1 ||
	die "cannot fetch Debian $release's package lists (see $work/log)"
names=$(debian_apt "$work" "$suite" apt-cache pkgnames linux-headers-6.12. 2>>"$work/log") ||
	die "cannot list Debian $release's packages (see $work/log)"
pkg=$(echo "$names" | grep -x "linux-headers-6\.12\.[0-9]*+deb$release-amd64" | sort -V | tail -n 1)
[ -n "$pkg" ] || die "Debian $release has no linux-headers-6.12.*+deb$release-amd64 package"
(cd "$work/debs" && debian_apt "$work" "$suite" apt-get download "$pkg") >>"$work/log" 2>&1 ||
	die "cannot download $pkg (see $work/log)"
dpkg-deb -x "$work"/debs/*.deb "$work/root"
cp "$work/root/usr/src/$pkg/.config" "$out.tmp" || die "$pkg has no .config"
mv "$out.tmp" "$out"
rm -rf "$work/debs" "$work/root" "$work/cache"
step debconfig "Debian $release: config of $pkg"
