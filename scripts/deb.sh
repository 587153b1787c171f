#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build Debian binary packages of the kernel configured in OBJ with the
# tree's own "make bindeb-pkg" (linux-image-*, linux-headers-*,
# linux-libc-dev) and move them to OUTDIR. The package version is fixed,
# KERNELRELEASE-1. bindeb-pkg writes next to OBJ; the packages of a build
# that fails are removed, never left half-made in OUTDIR. Nothing is redone
# while the kernel, its config and the source tree are what the packages
# in OUTDIR were made from.
# Usage: scripts/deb.sh OBJ OUTDIR KMAKE...
#   KMAKE: the make command line for the kernel tree (without O=)
set -eu
. "$(dirname "$0")/lib.sh"
obj=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
parent=$(dirname "$obj")
log=$out.log

for tool in dpkg-buildpackage dh_testdir rsync depmod; do
	command -v "$tool" >/dev/null ||
		die "$tool not found: make deps installs it (dpkg-dev, debhelper, rsync, kmod)"
done
krel=$("$@" -s O="$obj" kernelrelease)
version=$krel-1
src=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$obj/Makefile")
# inputs: what the packages are made from (after a build: before the first
# one there is no kernel yet).
inputs() {
	(cat "$obj/.config" "$obj/arch/x86/boot/bzImage" "$obj/Module.symvers" "$0" 2>/dev/null
		git -C "$src" rev-parse HEAD 2>/dev/null || echo "no tree at $src") |
		sha256sum | cut -d' ' -f1
}
if [ -f "$out/.inputs" ] && [ "$(cat "$out/.inputs")" = "$(inputs)" ]; then
	step deb "packages of $krel unchanged in $out"
	exit 0
fi
step deb "bindeb-pkg of $krel (log: $log)"
rm -rf "$out" "$out.tmp"
mkdir -p "$out.tmp"
# Only the packages of this run: the directory next to OBJ is shared.
rm -f "$parent"/linux-*_"$version"_*.deb "$parent"/linux-upstream_"$version"_*
# DEB_BUILD_OPTIONS=terse: Kbuild's usual short lines, not every command.
# No linux-image-*-dbg: a distribution config with DEBUG_INFO would make a
# package of gigabytes that driver authors do not need.
if ! DEB_BUILD_OPTIONS=terse DEB_BUILD_PROFILES=pkg.linux-upstream.nokerneldbg "$@" O="$obj" KDEB_PKGVERSION="$version" \
	bindeb-pkg >"$log" 2>&1; then
	grep -E -B2 -A8 'error|Error' "$log" | tail -n 40 >&2
	rm -f "$parent"/linux-*_"$version"_*.deb "$parent"/linux-upstream_"$version"_*
	die "bindeb-pkg failed (log: $log)"
fi
mv "$parent"/linux-*_"$version"_*.deb "$out.tmp/"
rm -f "$parent"/linux-upstream_"$version"_*
for p in image headers; do
	ls "$out.tmp"/linux-"$p"-"$krel"_"$version"_*.deb >/dev/null 2>&1 ||
		die "bindeb-pkg made no linux-$p-$krel package (log: $log)"
done
inputs >"$out.tmp/.inputs"
mv "$out.tmp" "$out"
step deb "$(cd "$out" && for f in *.deb; do printf '%s %s, ' "${f%%_*}" "$(du -h "$f" | cut -f1)"; done | sed 's/, $//') in $out"
