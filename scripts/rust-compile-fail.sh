#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Check that misuses of a Rust API are rejected by the compiler, each for its
# stated reason. A case CASE.rs (scripts/rust-compile-fail/) is built against
# the kernel crate of the built tree as an external module object, twice:
#   - as is (the control): it must compile, warnings being errors;
#   - with --cfg misuse: it must fail with the errors its "// expect:" lines
#     name, one per line, and with no other: "// expect: ENNNN" is an error
#     code, anything else the message of an error that has none (lifetime
#     errors: "// expect: lifetime may not live long enough").
#
#   scripts/rust-compile-fail.sh --build WORK CASE.rs... -- KMAKE...
#       build every control with one Kbuild run, then every misuse with the
#       compiler command Kbuild used plus --cfg misuse (two at a time; Kbuild
#       lets the stable compiler take -Z options with RUSTC_BOOTSTRAP=1)
#   scripts/rust-compile-fail.sh --check WORK NAME
#       report on one case from what --build left in WORK; exit 1 if the
#       control failed, the misuse compiled or failed for another reason
#   KMAKE: the make command line for the kernel tree, with O=
set -eu
. "$(dirname "$0")/lib.sh"

case ${1-} in
--build)
	work=$2
	shift 2
	rm -rf "$work"
	mkdir -p "$work"
	objs=
	while [ "$1" != -- ]; do
		name=$(basename "$1" .rs)
		cp "$1" "$work/$name.rs"
		objs="$objs $name.o"
		shift
	done
	shift
	echo "obj-m := $objs" >"$work/Kbuild"
	obj=
	for arg in "$@"; do
		case $arg in O=*) obj=${arg#O=} ;; esac
	done
	[ -n "$obj" ] || die "the make command line has no O="
	# -k: one control that fails must not hide the others.
	# shellcheck disable=SC2086 # a list of targets
	"$@" -k M="$work" $objs >"$work/control.log" 2>&1 || true
	for o in $objs; do
		name=${o%.o}
		[ -f "$work/$o" ] || continue
		sed -n "s|^savedcmd_[^ ]* := ||p" "$work/.$o.cmd" | sed 's/ ; .*$//' >"$work/$name.cmd"
		echo "$name"
	done | xargs -r -P 2 -I NAME sh -c \
		'cd "$1" && rm -f "$2/NAME.o" && RUSTC_BOOTSTRAP=1 sh -c "$(cat "$2/NAME.cmd") --cfg misuse" \
			>"$2/NAME.misuse.log" 2>&1; echo $? >"$2/NAME.misuse.rc"' - "$obj" "$work"
	;;
--check)
	work=$2
	name=$3
	want=$(sed -n 's|^// expect: \(..*\)$|\1|p' "$work/$name.rs" | sort -u)
	[ -n "$want" ] || die "$name.rs: no '// expect: ' line"
	if [ ! -f "$work/$name.misuse.rc" ]; then
		grep -B2 -A12 "$name.rs" "$work/control.log" || tail -n 30 "$work/control.log"
		die "$name: the control (built without --cfg misuse) does not compile"
	fi
	if [ "$(cat "$work/$name.misuse.rc")" = 0 ]; then
		die "$name: the misuse compiled; expected: $want"
	fi
	# Every error, as "ENNNN" when it has a code and as its message when not.
	got=$(sed -n -e '/^error: aborting/d' -e 's/^error\[\(E[0-9]*\)\].*/\1/p' \
		-e 's/^error: //p' "$work/$name.misuse.log" | sort -u)
	if [ "$got" != "$want" ]; then
		cat "$work/$name.misuse.log"
		die "$name: expected these errors only: $(echo "$want" | paste -sd';'); got:" \
			"$(echo "$got" | paste -sd';')"
	fi
	echo "$want" | while read -r w; do
		grep -A3 -F -m1 "$w" "$work/$name.misuse.log"
	done
	echo "$name: rejected as expected: $(echo "$want" | paste -sd';')"
	;;
*)
	die "usage: $0 --build WORK CASE.rs... -- KMAKE... | --check WORK NAME"
	;;
esac
