#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Check that one misuse of a Rust API is rejected by the compiler, for the
# stated reason. CASE.rs (scripts/rust-compile-fail/) is built against the
# kernel crate of the built tree as an external module object, twice:
#   - as is (the control): it must compile, warnings being errors;
#   - with --cfg misuse: it must fail with the error code of its
#     "// expect: ENNNN" line, and with no other error code.
# Usage: scripts/rust-compile-fail.sh CASE.rs WORKDIR KMAKE...
#   KMAKE: the make command line for the kernel tree, with O=
set -eu
. "$(dirname "$0")/lib.sh"
src=$1
work=$2
shift 2

name=$(basename "$src" .rs)
want=$(sed -n 's|^// expect: \(E[0-9][0-9]*\)$|\1|p' "$src")
[ -n "$want" ] || die "$src: no '// expect: ENNNN' line"

# Kbuild builds external modules in their own directory.
dir=$work/$name
rm -rf "$dir"
mkdir -p "$dir"
cp "$src" "$dir/$name.rs"
echo "obj-m := $name.o" >"$dir/Kbuild"

if ! "$@" M="$dir" "$name.o" >"$dir/control.log" 2>&1; then
	cat "$dir/control.log"
	die "$name: the control (built without --cfg misuse) does not compile"
fi

rm -f "$dir/$name.o"
if "$@" M="$dir" RUSTFLAGS_MODULE='--cfg misuse' "$name.o" >"$dir/misuse.log" 2>&1; then
	die "$name: the misuse compiled; expected error $want"
fi
got=$(sed -n 's/^error\[\(E[0-9]*\)\].*/\1/p' "$dir/misuse.log" | sort -u | tr '\n' ' ')
if [ "$got" != "$want " ]; then
	cat "$dir/misuse.log"
	die "$name: expected error $want only, got: ${got:-no error code}"
fi
grep -A3 "^error\[$want\]" "$dir/misuse.log" | head -n 4
echo "$name: rejected with $want as expected"
