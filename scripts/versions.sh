#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the toolchain and tree versions a run was made with.
# Usage: scripts/versions.sh KSRC KOBJ BINDGEN
set -eu
ksrc=$1
kobj=$2
bindgen=$3
echo "linux-source-6.12 $(cat "$ksrc/.git/debian-version"), series head $(git -C "$ksrc" rev-parse --short HEAD) ($(git -C "$ksrc" rev-list --count pristine..HEAD) patches)"
echo "kernel      $(cat "$kobj/include/config/kernel.release" 2>/dev/null || echo '?')"
echo "rustc       $(/usr/bin/rustc --version)"
echo "bindgen     $("$bindgen" --version)"
echo "clang       $(clang --version | head -n 1)"
echo "ld.lld      $(ld.lld --version)"
echo "qemu        $(qemu-system-x86_64 --version | head -n 1) (TCG)"
