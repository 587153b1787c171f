#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the guest's initramfs: a static busybox, qemu/init, the static test
# programs found in each TESTDIR (each becomes /tests/NAME) and the test
# modules in TESTDIR/modules, with the programs that load them (each
# becomes /modules/NAME).
# Usage: qemu/mkinitramfs.sh OUT.cpio.gz TESTDIR...
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
out=$(realpath -m "$1")
shift
root=$out.d

rm -rf "$root"
mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" "$root/tests"
cp /bin/busybox "$root/bin/busybox"
cp "$(dirname "$0")/init" "$root/init"
n=0
for tests in "$@"; do
	for t in "$tests"/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		cp "$t" "$root/tests/"
		n=$((n + 1))
	done
	# Test modules, loaded by the tests that need them.
	for m in "$tests"/modules/*; do
		[ -f "$m" ] || continue
		mkdir -p "$root/modules"
		cp "$m" "$root/modules/"
	done
done
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 -n >"$out.tmp"
mv "$out.tmp" "$out"
step initramfs "$n test programs, $(du -h "$out" | cut -f1)"
