#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Provide a bindgen that Linux 6.12 accepts (>= 0.65.1) as DIR/bin/bindgen.
#
# Debian 12 ships 0.60.1. When the system one is too old, fetch Debian 13's
# bindgen and the glibc it was linked against into DIR and run it under that
# glibc's own loader: nothing outside DIR is touched, and it uses Debian 12's
# libclang 19 at run time (it dlopens libclang, it does not link it).
# Usage: scripts/bindgen.sh DIR
set -eu
. "$(dirname "$0")/lib.sh"
dir=$(realpath -m "$1")
min=0.65.1

# version_ok VERSION: true when VERSION >= $min.
version_ok() {
	[ "$(printf '%s\n%s\n' "$min" "$1" | sort -V | head -n 1)" = "$min" ]
}

mkdir -p "$dir/bin"
sys=$(command -v bindgen || true)
[ "$sys" = "$dir/bin/bindgen" ] && sys=
if [ -n "$sys" ] && version_ok "$("$sys" --version | awk '{print $2}')"; then
	ln -sf "$sys" "$dir/bin/bindgen"
	step bindgen "using the system's $("$sys" --version)"
	exit 0
fi

root=$dir/trixie
apt=$dir/apt
rm -rf "$root" "$apt"
mkdir -p "$apt/debs" "$root"
step bindgen "fetching Debian 13's bindgen into $dir"
debian_apt "$apt" trixie apt-get update >"$apt/log" 2>&1 ||
	die "cannot fetch Debian 13's package lists (see $apt/log)." \
		"Provide bindgen >= $min in PATH instead."
(cd "$apt/debs" && debian_apt "$apt" trixie apt-get download bindgen libc6) >>"$apt/log" 2>&1 ||
	die "cannot download Debian 13's bindgen (see $apt/log)"
for deb in "$apt/debs"/*.deb; do
	dpkg-deb -x "$deb" "$root"
done

# Written under a temporary name: make treats bin/bindgen as done.
cat >"$dir/bin/bindgen.tmp" <<EOT
#!/bin/sh
# Debian 13's bindgen under Debian 13's loader; written by scripts/bindgen.sh.
LIBCLANG_PATH=\${LIBCLANG_PATH:-/usr/lib/llvm-19/lib} exec \\
	$root/usr/lib64/ld-linux-x86-64.so.2 \\
	--library-path $root/usr/lib/x86_64-linux-gnu \\
	$root/usr/bin/bindgen "\$@"
EOT
chmod +x "$dir/bin/bindgen.tmp"
ver=$("$dir/bin/bindgen.tmp" --version) || die "the fetched bindgen does not run"
version_ok "${ver#bindgen }" || die "fetched $ver, need >= $min"
mv "$dir/bin/bindgen.tmp" "$dir/bin/bindgen"
rm -rf "$apt/debs" "$apt/cache"
step bindgen "using $ver (Debian 13, private loader)"
