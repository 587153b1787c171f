#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build-time checks, reported as TAP in OUT (qemu/results.py shows them as
# the "build lint" suite): checkpatch --strict on every patch of the series,
# rustfmtcheck, rustdoc and kernel-doc (warnings fail) on the patched tree,
# the Rust misuse cases of scripts/rust-compile-fail/, which must not
# compile, and the sample drivers built as modules. Exits 1 if any check
# failed.
# Usage: scripts/lint.sh OUT PATCHDIR KSRC KMAKE...
#   KMAKE: the make command line for the kernel tree, with O=
set -eu
. "$(dirname "$0")/lib.sh"
out=$1
pdir=$(realpath "$2")
ksrc=$3
shift 3

rm -f "$out"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
n=0
failed=0
: >"$out.body"

# result NAME STATUS: one TAP line; on failure the check's output as
# diagnostics.
result() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		echo "ok $n $1" >>"$out.body"
	else
		failed=$((failed + 1))
		sed 's/^/# /' "$tmp" | head -n 60 >>"$out.body"
		echo "not ok $n $1" >>"$out.body"
	fi
}

for p in $(grep -v '^#' "$pdir/series"); do
	rc=0
	# Debian's python3 first: checkpatch runs scripts/spdxcheck.py, which
	# needs python3-ply, and a pyenv or venv python3 may not have it.
	(cd "$ksrc" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --quiet "$pdir/$p") \
		>"$tmp" 2>&1 || rc=$?
	result "checkpatch_${p%.patch}" $rc
done

rc=0
"$@" rustfmtcheck >"$tmp" 2>&1 || rc=$?
result rustfmtcheck $rc

# kernel-doc on each source Documentation/core-api/iov_iter.rst pulls
# function docs from: any warning fails.
for f in $(sed -n 's/^\.\. kernel-doc:: *//p' \
	"$ksrc/Documentation/core-api/iov_iter.rst" 2>/dev/null | sort -u); do
	rc=0
	(cd "$ksrc" && perl scripts/kernel-doc -none -Wall "$f") >"$tmp" 2>&1 || rc=$?
	[ -s "$tmp" ] && rc=1
	result "kernel_doc_$(echo "$f" | tr /. __)" $rc
done

rc=0
"$@" rustdoc >"$tmp" 2>&1 || rc=$?
grep -q '^warning' "$tmp" && rc=1
result rustdoc $rc

mkdir -p "$(dirname "$out")/rust-compile-fail"
cfwork=$(realpath "$(dirname "$out")/rust-compile-fail")
for src in "$(dirname "$0")"/rust-compile-fail/*.rs; do
	rc=0
	"$(dirname "$0")/rust-compile-fail.sh" "$src" "$cfwork" "$@" >"$tmp" 2>&1 || rc=$?
	result "rust_compile_fail_$(basename "$src" .rs)" $rc
done

# The samples are built into the guest kernel; they must also build as
# modules, with their "capacity" parameter in the module info.
modwork=$(realpath "$(dirname "$out")")/sample-modules
for src in samples/iov_ramfile/c_iov_ramfile.c samples/rust/rust_iov_ramfile.rs; do
	name=$(basename "$src")
	name=${name%.*}
	dir=$modwork/$name
	rc=0
	{
		rm -rf "$dir" && mkdir -p "$dir" &&
		cp "$ksrc/$src" "$dir/" &&
		echo "obj-m := $name.o" >"$dir/Kbuild" &&
		"$@" M="$dir" modules &&
		llvm-objcopy-19 -O binary --only-section=.modinfo "$dir/$name.ko" "$dir/modinfo" &&
		tr '\0' '\n' <"$dir/modinfo" | grep '^parm=capacity:'
	} >"$tmp" 2>&1 || rc=$?
	result "module_$name" $rc
done

{
	echo "TAP version 13"
	echo "1..$n"
	cat "$out.body"
} >"$out"
rm -f "$out.body"
step lint "$n checks, $failed failed (checkpatch --strict, rustfmtcheck, rustdoc, kernel-doc, Rust compile-fail, sample modules)"
[ "$failed" = 0 ]
