#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the guest's test modules: each qemu/hostile/*.rs as an external
# module of the kernel in KMAKE's O=, copied to OUTDIR (the initramfs puts
# them in /modules). They misuse the Rust API on purpose, in safe code only:
# a source whose code (not comments) says "unsafe" is refused, and each is
# compiled with forbid(unsafe_code), which also counts what does not say the
# word (global_asm!, link_section, no_mangle, export_name).
# Usage: qemu/mkmodules.sh WORK OUTDIR SRC.rs... -- KMAKE...
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
work=$1
out=$2
shift 2
mkdir -p "$work" "$out"
objs=
while [ "$1" != -- ]; do
	# Code only: comments may say the word.
	if grep -nw unsafe "$1" | grep -v '^[0-9]*:[[:space:]]*//' >&2; then
		die "$1 says \"unsafe\": test modules must be safe Rust only"
	fi
	cmp -s "$1" "$work/${1##*/}" || cp "$1" "$work/"
	objs="$objs $(basename "$1" .rs).o"
	shift
done
shift
printf 'obj-m :=%s\nrustflags-y := -Funsafe_code\n' "$objs" >"$work/Kbuild.tmp"
cmp -s "$work/Kbuild.tmp" "$work/Kbuild" || mv "$work/Kbuild.tmp" "$work/Kbuild"
rm -f "$work/Kbuild.tmp"
"$@" M="$(realpath "$work")" modules >"$work/build.log" 2>&1 || {
	grep -E -A8 'error|warning' "$work/build.log" | head -n 40 >&2
	die "building the test modules failed (log: $work/build.log)"
}
n=0
for o in $objs; do
	cp "$work/${o%.o}.ko" "$out/"
	n=$((n + 1))
done
step modules "$n test modules"
