#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the user-space test programs listed in LIST as static binaries in
# OUTDIR, from the patched kernel tree (so they are part of the series).
# LIST has one program per line: "NAME in-tree/path.c [extra cc flags]";
# a path starting with qemu/ names one of this repository's own programs.
# A program is rebuilt when its source or the kselftest harness is newer.
# Usage: qemu/mktests.sh KSRC KOBJ LIST OUTDIR
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
ksrc=$1
kobj=$2
list=$3
out=$4
harness=$ksrc/tools/testing/selftests/kselftest_harness.h
: "${USER_CC:?USER_CC (the compiler command) is set by the Makefile}"

mkdir -p "$out"
n=0
built=0
# Programs no longer listed must not run.
for bin in "$out"/*; do
	[ -f "$bin" ] || continue
	grep -q "^${bin##*/}[[:space:]]" "$list" || rm -f "$bin"
done
while read -r name src flags; do
	case $name in '' | \#*) continue ;; esac
	n=$((n + 1))
	case $src in
	qemu/*) file=$(dirname "$0")/../$src ;;
	*) file=$ksrc/$src ;;
	esac
	[ -f "$file" ] || die "$list: $src is not in the patched tree"
	bin=$out/$name
	if [ "$bin" -nt "$file" ] && [ "$bin" -nt "$harness" ]; then
		continue
	fi
	# shellcheck disable=SC2086 # extra flags are meant to be split
	$USER_CC -Wno-unused-parameter \
		-I"$ksrc/tools/testing/selftests" -I"$kobj/usr/include" \
		-o "$bin" "$file" $flags -lpthread ||
		die "building test program $name from $src failed"
	built=$((built + 1))
done <"$list"
step tests "$n test programs ($built rebuilt)"
