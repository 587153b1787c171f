#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Configure a kernel in OBJ from BASE, a distribution's config (Debian's
# /boot/config-*), and FRAGMENT, what the series needs on top
# (scripts/deb.config), for "make deb KCONFIG=BASE": BASE, then the
# settings that only make sense in the distribution's own packaging put
# back to the kernel's defaults, then FRAGMENT, then olddefconfig. Every
# option of FRAGMENT must survive olddefconfig (6.12 drops RUST without a
# word while MODVERSIONS is set); what BASE had and the result does not
# is listed in OBJ/config-dropped.txt.
# Usage: scripts/deb-config.sh BASE FRAGMENT SRC OBJ KMAKE...
#   KMAKE: the make command line for the kernel tree SRC (without O=)
set -eu
. "$(dirname "$0")/lib.sh"
base=$1
fragment=$(realpath "$2")
src=$3
obj=$4
shift 4

[ -n "$base" ] || die "KCONFIG is empty: name a kernel config, e.g. KCONFIG=/boot/config-\$(uname -r)"
[ -f "$base" ] && [ -r "$base" ] || die "KCONFIG=$base: no such readable file"
grep -q '^CONFIG_X86_64=y$' "$base" ||
	die "KCONFIG=$base is not the config of an x86_64 kernel (no CONFIG_X86_64=y)"
mkdir -p "$obj"
cp "$base" "$obj/.config"
config() {
	"$src/scripts/config" --file "$obj/.config" "$@"
}

# Key and certificate files named by BASE belong to the distribution's
# packaging (Debian: MODULE_SIG_KEY="output/signing_key.pem"): a file that
# is not there goes back to the default, and the build makes a signing key
# of its own. The build salt names the distribution's build.
for opt in SYSTEM_TRUSTED_KEYS SYSTEM_REVOCATION_KEYS MODULE_SIG_KEY; do
	file=$(config --state "$opt")
	case $file in undef | '') continue ;; esac
	case $file in
	/*) [ -f "$file" ] ;;
	*) [ -f "$src/$file" ] || [ -f "$obj/$file" ] ;;
	esac || {
		case $opt in
		MODULE_SIG_KEY) config --set-str "$opt" certs/signing_key.pem ;;
		*) config --set-str "$opt" '' ;;
		esac
		step debconfig "CONFIG_$opt=\"$file\" is not here: the kernel's default instead"
	}
done
config --set-str BUILD_SALT ''

"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" \
	>"$obj/config.log" 2>&1 &&
	"$@" O="$obj" olddefconfig >>"$obj/config.log" 2>&1 || {
	tail -n 20 "$obj/config.log" >&2
	die "kernel configuration failed (log: $obj/config.log)"
}
bad=$(config_missing "$fragment" "$obj/.config")
[ -z "$bad" ] || die "Kconfig did not take these options on top of $base:$bad"

# What BASE set and the result does not (the compiler's options, those
# needing a tool that is missing, such as DEBUG_INFO_BTF without pahole).
grep -E '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$base" | LC_ALL=C sort >"$obj/config-base.tmp"
grep -E '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$obj/.config" | LC_ALL=C sort |
	LC_ALL=C comm -23 "$obj/config-base.tmp" - >"$obj/config-dropped.txt"
rm -f "$obj/config-base.tmp"
step debconfig "$obj/.config: $base + ${fragment##*/}; RUST kept," \
	"$(grep -c . "$obj/config-dropped.txt" || true) options of the base dropped ($obj/config-dropped.txt)"
