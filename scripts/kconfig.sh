#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make the guest kernel's .config: tinyconfig + FRAGMENT, then olddefconfig,
# then check that every option FRAGMENT asks for ended up as asked (Kconfig
# silently drops options whose dependencies are missing). The config is
# generated in a scratch directory and copied to OBJ only when it changed,
# so an unchanged config costs Kbuild nothing.
# Usage: scripts/kconfig.sh SRC FRAGMENT OBJ KMAKE...
#   KMAKE: the make command line for the kernel tree SRC (without O=)
set -eu
. "$(dirname "$0")/lib.sh"
src=$1
fragment=$(realpath "$2")
obj=$3
shift 3
scratch=$obj.kconfig

step config "checking that Rust is available"
mkdir -p "$scratch" "$obj"
"$@" -s O="$scratch" rustavailable >"$scratch/rustavailable.log" 2>&1 || {
	cat "$scratch/rustavailable.log" >&2
	die "the kernel says Rust is not available (see above)"
}
sed 's/^/  /' "$scratch/rustavailable.log"

step config "tinyconfig + ${fragment##*/} + olddefconfig"
"$@" O="$scratch" tinyconfig >"$scratch/config.log" 2>&1 &&
	"$src/scripts/kconfig/merge_config.sh" -m -O "$scratch" \
		"$scratch/.config" "$fragment" >>"$scratch/config.log" 2>&1 &&
	"$@" O="$scratch" olddefconfig >>"$scratch/config.log" 2>&1 || {
	tail -n 20 "$scratch/config.log" >&2
	die "kernel configuration failed (log: $scratch/config.log)"
}

# Each "CONFIG_X=v" must be in .config as is; each "# CONFIG_X is not set"
# must not be set.
bad=
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$scratch/.config" || bad="$bad
  wanted $line, got: $(grep -E "^(# )?${line%%=*}[= ]" "$scratch/.config" || echo 'absent')"
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		grep -q "^$opt=" "$scratch/.config" && bad="$bad
  wanted $line, got: $(grep "^$opt=" "$scratch/.config")"
		;;
	esac
done <"$fragment"
[ -z "$bad" ] || die "Kconfig did not take these options (missing dependencies?):$bad"

if cmp -s "$scratch/.config" "$obj/.config"; then
	step config "unchanged"
else
	cp "$scratch/.config" "$obj/.config"
	step config "written to $obj/.config"
fi
