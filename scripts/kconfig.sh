#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make the guest kernel's .config: tinyconfig + FRAGMENT, then olddefconfig,
# then check that every option FRAGMENT asks for ended up as asked (Kconfig
# silently drops options whose dependencies are missing). The config is
# generated in a scratch directory and copied to OBJ only when it changed,
# so an unchanged config costs Kbuild nothing. Kconfig's toolchain probes
# take most of a minute, so nothing is redone while none of its inputs
# changed: the Kconfig files and configs/*.config of the tree, scripts/,
# FRAGMENT, this script and the compilers.
# Usage: [EXCLUDED='PATCH...'] scripts/kconfig.sh SRC FRAGMENT OBJ KMAKE...
#   KMAKE: the make command line for the kernel tree SRC (without O=)
set -eu
. "$(dirname "$0")/lib.sh"
src=$1
fragment=$(realpath "$2")
obj=$3
shift 3
scratch=$obj.kconfig

key=$( (git -C "$src" ls-tree -r HEAD | grep -E '(^|/)Kconfig[^/]*$|/configs/[^/]*\.config$'
	git -C "$src" rev-parse HEAD:scripts
	cat "$fragment" "$0"
	for tool in clang ld.lld /usr/bin/rustc bindgen pahole; do "$tool" --version 2>&1 | head -n 1; done) |
	sha256sum | cut -d' ' -f1)
if [ "$(cat "$scratch/inputs" 2>/dev/null)" = "$key" ]; then
	if cmp -s "$scratch/.config" "$obj/.config"; then
		step config "unchanged (no Kconfig input changed)"
	else
		# A make in OBJ with other variables (compiler, no BINDGEN) ran
		# Kconfig again: put back the config these inputs give.
		cp "$scratch/.config" "$obj/.config"
		step config "restored $obj/.config (it was changed outside this Makefile)"
	fi
	exit 0
fi
rm -f "$scratch/inputs"

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

# Options added by patches left out of the build (EXCLUDED: their files)
# are not asked for.
left_out=" $(sed -n 's/^+config \([A-Za-z0-9_]*\)$/CONFIG_\1/p' ${EXCLUDED:-/dev/null} | tr '\n' ' ')"
bad=$(config_missing "$fragment" "$scratch/.config" "$left_out")
[ -z "$bad" ] || die "Kconfig did not take these options (missing dependencies?):$bad"

if cmp -s "$scratch/.config" "$obj/.config"; then
	step config "unchanged"
else
	cp "$scratch/.config" "$obj/.config"
	step config "written to $obj/.config"
fi
echo "$key" >"$scratch/inputs"
