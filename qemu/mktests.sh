#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the user-space test programs listed in LIST as static binaries in
# OUTDIR, from the patched kernel tree (so they are part of the series).
# LIST has one program per line: "NAME SOURCE... [extra cc flags]", each
# SOURCE an in-tree path (one starting with qemu/ names one of this
# repository's own programs; one without a "/" is in the directory of the
# SOURCE before it), the flags the words starting with "-".
# A program is rebuilt when one of its sources, a header next to one, or
# the kselftest harness is newer.
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
while read -r name words; do
	case $name in '' | \#*) continue ;; esac
	n=$((n + 1))
	srcs='' files='' flags=''
	for word in $words; do
		case $word in
		-*)
			flags="$flags $word"
			continue
			;;
		qemu/*) file=$(dirname "$0")/../$word ;;
		*/*) file=$ksrc/$word ;;
		*)
			[ -n "$files" ] || die "$list: $word: in the directory of which source?"
			file=${file%/*}/$word
			;;
		esac
		[ -f "$file" ] || die "$list: $word is not in the patched tree"
		srcs="$srcs $word"
		files="$files $file"
	done
	[ -n "$files" ] || die "$list: $name has no source"
	bin=$out/$name
	stale=false
	for file in $files; do
		for dep in "$file" "${file%/*}"/*.h "$harness"; do
			if [ -f "$dep" ] && ! [ "$bin" -nt "$dep" ]; then
				stale=true
			fi
		done
	done
	$stale || continue
	# shellcheck disable=SC2086 # the sources and extra flags are meant to be split
	$USER_CC -Wno-unused-parameter \
		-I"$ksrc/tools/testing/selftests" -I"$kobj/usr/include" \
		-o "$bin" $files $flags -lpthread ||
		die "building test program $name from$srcs failed"
	built=$((built + 1))
done <"$list"
step tests "$n test programs ($built rebuilt)"
