#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the pipeline needs, if any are missing, on
# Debian 12 or 13 (both ship Linux 6.12 as linux-source-6.12).
# Usage: scripts/deps.sh LOGFILE
set -eu
. "$(dirname "$0")/lib.sh"
log=$1

# The Rust toolchain: Debian 12's own rustc is too old (1.63) and its
# bindgen too (scripts/bindgen.sh); its -web packages are recent. Debian
# 13's own are recent enough, bindgen included.
# shellcheck disable=SC1091 # the system's
. /etc/os-release
case ${ID:-}-${VERSION_ID:-} in
debian-12) rust="rustc-web rust-web-src rustfmt-web rust-web-clippy" ;;
debian-13) rust="rustc rust-src rustfmt rust-clippy bindgen" ;;
*) die "this pipeline runs on Debian 12 or 13, which ship Linux 6.12; this is ${PRETTY_NAME:-unknown}" ;;
esac

# See README.md "Toolchain" for why each is here.
packages="
	linux-source-6.12
	$rust
	clang-19 lld-19 llvm-19 libclang1-19
	make gcc libc6-dev flex bison bc libelf-dev libssl-dev python3 git xz-utils
	python3-ply python3-git
	qemu-system-x86 busybox-static cpio
	gnuplot-nox
	liburing-dev libaio-dev
	dpkg-dev debhelper rsync kmod dwarves zstd debian-archive-keyring
"

missing=
for p in $packages; do
	status=$(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = installed ] || missing="$missing $p"
done
if [ -z "$missing" ]; then
	step deps "all Debian packages present"
	exit 0
fi

if [ "$(id -u)" = 0 ]; then
	sudo=
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	die "missing Debian packages:$missing." \
		"Install them as root: apt-get install --no-install-recommends$missing"
fi

step deps "installing:$missing (log: $log)"
export DEBIAN_FRONTEND=noninteractive
# apt-get update exits 0 when the archive cannot be reached; look for it.
if ! $sudo apt-get update >"$log" 2>&1 ||
	grep -qE '^(W|E): (Failed to fetch|Some index files failed)' "$log"; then
	grep -E '^(W|E):' "$log" | head -n 5 >&2
	die "cannot update the package lists: is Debian's archive reachable" \
		"(network, proxy)? Install by hand: apt-get install$missing"
fi
# shellcheck disable=SC2086 # the package list is meant to be split
if ! $sudo apt-get install -y --no-install-recommends $missing >>"$log" 2>&1; then
	tail -n 5 "$log" >&2
	die "apt-get install failed for:$missing (see $log)"
fi
step deps "installed"
