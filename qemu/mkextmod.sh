#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The out-of-tree module template (samples/rust/out_of_tree of the patched
# tree), built as a driver author builds it: against the linux-headers
# package of DEBDIR unpacked alone (dpkg -x), in an environment with
# nothing of this pipeline in it (no PATH to build/tools or to LLVM's
# directory, no make variables of ours), with Debian's clang-19 and the
# rustc in the system's PATH.
# A file the headers package lacks fails the build. Also unpacks the
# linux-image package: its kernel is the one the guest boots
# (OUT/vmlinuz). OUT/guest then holds what the guest runs: the module and
# its test in modules/, and out_of_tree, the program that runs the test on the
# module (load, test, unload).
# Usage: qemu/mkextmod.sh DEBDIR TEMPLATE OUT
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
debs=$(realpath "$1")
template=$2
out=$(realpath -m "$3")

headers=$(ls "$debs"/linux-headers-*.deb)
image=$(ls "$debs"/linux-image-*.deb | grep -v -- '-dbg_')
krel=$(dpkg-deb -f "$image" Package)
krel=${krel#linux-image-}

rm -rf "$out"
mkdir -p "$out/headers" "$out/image" "$out/guest/modules"
dpkg -x "$headers" "$out/headers"
dpkg -x "$image" "$out/image"
kdir=$out/headers/usr/src/linux-headers-$krel
[ -f "$kdir/Makefile" ] || die "$headers has no usr/src/linux-headers-$krel"
# What /lib/modules/$krel/build points to once the package is installed.
[ "$(readlink "$out/headers/lib/modules/$krel/build")" = "/usr/src/linux-headers-$krel" ] ||
	die "$headers: lib/modules/$krel/build does not point to its headers"
kernel=$out/image/boot/vmlinuz-$krel
[ -f "$kernel" ] || die "$image has no boot/vmlinuz-$krel"
ln -s "$kernel" "$out/vmlinuz"

cp -r "$template" "$out/src"
step extmod "building ${template##*/} against the headers package alone"
# What a user's shell has: the system's PATH and HOME, nothing else.
userenv() {
	env -i PATH=/usr/bin:/bin HOME="${HOME:-/root}" "$@"
}
userenv make -C "$out/src" KDIR="$kdir" LLVM=-19 >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	die "the out-of-tree module did not build against the headers package (log: $out/build.log)"
}
# The test through the template's own rule, static for the initramfs.
userenv make -C "$out/src" KDIR="$kdir" LLVM=-19 CC='clang-19 -static' \
	CFLAGS='-O2 -Wall -Wextra -Werror' rust_out_of_tree_test >>"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	die "the out-of-tree module's test did not build (log: $out/build.log)"
}
cp "$out/src/rust_out_of_tree.ko" "$out/src/rust_out_of_tree_test" "$out/guest/modules/"
cat >"$out/guest/out_of_tree" <<'EOT'
#!/bin/sh
# Written by qemu/mkextmod.sh: the out-of-tree module's test, which loads it,
# tests its device and unloads it.
exec /modules/rust_out_of_tree_test /modules/rust_out_of_tree.ko
EOT
chmod +x "$out/guest/out_of_tree"
step extmod "rust_out_of_tree.ko ($(du -h "$out/src/rust_out_of_tree.ko" | cut -f1)) for $krel; boot $(basename "$kernel") of the image package"
