#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build-time checks, reported as TAP in OUT (qemu/results.py shows them as
# the "build lint" suite): checkpatch --strict on every patch of the series,
# rustfmtcheck, rustdoc and kernel-doc (warnings fail) on the patched tree,
# the Rust misuse cases of scripts/rust-compile-fail/, which must not
# compile (those of scripts/rust-compile-fail/up/ against the kernel crate
# of a uniprocessor configuration, UPCONFIG, prepared in build/obj-up), and
# the sample drivers built as external modules against the headers a kernel
# package installs, and Debian's own 6.12 configs with the series' settings
# on top (they must keep RUST). Exits 1 if any check failed.
#
# Every check is reported every time, but what cannot have changed is not
# redone: a check that passed with the same inputs passes again (checkpatch:
# the patch and the pristine tree; the Rust checks and the module builds:
# the trees of rust/, include/, arch/x86/include/, scripts/, samples/, the
# .config and the compilers). rustdoc runs next to the other checks (two
# cores), without documenting core again (see rustdoc_kernel).
# Usage: scripts/lint.sh OUT PATCHDIR KSRC UPCONFIG KMAKE...
#   KMAKE: the make command line for the kernel tree, with O=
set -eu
here=$(realpath "$(dirname "$0")")
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
out=$1
pdir=$(realpath "$2")
ksrc=$3
upconfig=$(realpath "$4")
shift 4

outdir=$(realpath "$(dirname "$out")")
cache=$outdir/lint-cache
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
mkdir -p "$cache"

# check NAME CMD...: run one check; its status and output go to $res.
check() {
	name=$1
	shift
	rc=0
	"$@" >"$res/$name.log" 2>&1 || rc=$?
	echo "$rc" >"$res/$name.rc"
	echo "$name" >>"$res/order.$group"
}

# cached KEY CMD...: run CMD unless it passed before with the same KEY.
cached() {
	key=$cache/$(echo "$1" | sha256sum | cut -d' ' -f1)
	shift
	[ -f "$key" ] && { echo "passed before with the same inputs (cached)"; return; }
	"$@" && touch "$key"
}
is_cached() {
	[ -f "$cache/$(echo "$1" | sha256sum | cut -d' ' -f1)" ]
}

obj=
kmake_src=
kmake_vars=
for arg in "$@"; do
	case $arg in
	O=*) obj=${arg#O=} ;;
	*=*) kmake_src="$kmake_src $arg" kmake_vars="$kmake_vars $arg" ;;
	*) kmake_src="$kmake_src $arg" ;;
	esac
done
up_obj=$outdir/obj-up
# What the kernel crate, the Rust checks and the sample modules are built from.
rust_inputs=$(git -C "$ksrc" rev-parse HEAD:rust HEAD:include HEAD:arch/x86/include \
	HEAD:scripts HEAD:samples; sha256sum <"$obj/.config"; /usr/bin/rustc --version;
	cat "$here/lint.sh" "$here/rust-compile-fail.sh" "$here"/rust-compile-fail/*.rs \
		"$here"/rust-compile-fail/up/*.rs "$upconfig" | sha256sum)

# The kernel crate of the uniprocessor configuration: its config (scripts/kconfig.sh redoes
# nothing while no input changed), then "make prepare", which builds the Rust crates.
up_prepare() {
	# shellcheck disable=SC2086 # the make command line, without its O=
	"$here/kconfig.sh" "$ksrc" "$upconfig" "$up_obj" $kmake_src &&
		$kmake_src O="$up_obj" -j2 prepare
}

# rustdoc of the kernel crate; a warning is a failure, not only an error.
# The kernel's "rustdoc" target also documents core and then rewrites all
# 40000 pages of it (a minute); it runs only when the command it uses for
# the kernel crate may have changed (Makefiles, .config, compiler), and
# that command, saved by Kbuild, is run directly otherwise (5 s).
rustdoc_kernel() {
	flags=$({
		cd "$ksrc" && cat Makefile rust/Makefile scripts/Makefile.* scripts/Kbuild.include
		cat "$obj/.config"
		/usr/bin/rustdoc --version
	} | sha256sum | cut -d' ' -f1)
	if [ -f "$obj/.rustdoc-kernel.cmd" ] && [ "$(cat "$cache/rustdoc-flags" 2>/dev/null)" = "$flags" ]; then
		# macros too: the series changes it (module parameters).
		for crate in macros kernel; do
			cmd=$(sed -n "s/^savedcmd_rustdoc-$crate := //p" "$obj/.rustdoc-$crate.cmd")
			# Kbuild lets the stable compiler take -Z options (RUSTC_BOOTSTRAP=1).
			(cd "$obj" && RUSTC_BOOTSTRAP=1 sh -c "$cmd") || return
		done
	else
		"$@" rustdoc || return
		echo "$flags" >"$cache/rustdoc-flags"
	fi
	! grep -q '^warning' "$res/rustdoc.log"
}

checkpatch() {
	# Debian's python3 first: checkpatch runs scripts/spdxcheck.py, which
	# needs python3-ply, and a pyenv or venv python3 may not have it.
	# The tree has no upstream history, so the commits that Fixes: tags
	# name are unknown to it: that one message, and only it, is ignored.
	(cd "$ksrc" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --quiet \
		--ignore UNKNOWN_COMMIT_ID "$1")
}

kerneldoc() {
	(cd "$ksrc" && perl scripts/kernel-doc -none -Wall "$1") >"$res/kd.tmp" 2>&1 || return
	cat "$res/kd.tmp"
	[ ! -s "$res/kd.tmp" ]
}

# The samples are built into the guest kernel; they must also build as
# modules, with their "capacity" parameter in the module info. So must the
# Rust examples that are not doctests (scripts/rust-examples.sh: the
# README's, and module examples in the series' documentation). One
# external-module build for all, against the headers a kernel package
# installs (scripts/package/install-extmod-build, as "make bindeb-pkg" runs
# it), not against the build tree: a file the headers lack fails it.
headers=$outdir/extmod-headers
headers_install() {
	rm -rf "$headers"
	"$@" run-command \
		KBUILD_RUN_COMMAND="\$(srctree)/scripts/package/install-extmod-build $headers"
}
# hmake ARG...: make against the installed headers, with the kernel's variables.
hmake() {
	# shellcheck disable=SC2086 # the make variables
	make -C "$headers" $kmake_vars "$@"
}
# An external Rust module built by another rustc than the kernel's must stop
# and name both versions.
rustc_differs() {
	dir=$outdir/extmod-rustc
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$ksrc/samples/rust/rust_iov_ramfile.rs" "$dir/"
	echo "obj-m := rust_iov_ramfile.o" >"$dir/Kbuild"
	printf '#!/bin/sh\necho "rustc 1.0.0 (0000000 1970-01-01)"\n' >"$dir/rustc-other"
	chmod +x "$dir/rustc-other"
	if hmake RUSTC="$dir/rustc-other" M="$dir" modules >"$dir/build.log" 2>&1; then
		echo "built with another rustc"
		return 1
	fi
	grep -F "the kernel was built by $(/usr/bin/rustc --version); you are using rustc 1.0.0 (0000000 1970-01-01)" \
		"$dir/build.log" || { tail -n 20 "$dir/build.log"; return 1; }
}
modwork=$outdir/sample-modules
samples="samples/iov_ramfile/c_iov_ramfile.c samples/rust/rust_iov_ramfile.rs"
examples=$outdir/rust-examples
modules_build() {
	rm -rf "$modwork" && mkdir -p "$modwork"
	objs=
	for src in $samples; do
		cp "$ksrc/$src" "$modwork/"
		objs="$objs $(basename "${src%.*}").o"
	done
	for name in $(cat "$res/examples"); do
		cp "$examples/$name.rs" "$modwork/"
		objs="$objs $name.o"
	done
	echo "obj-m := $objs" >"$modwork/Kbuild"
	headers_install "$@" && hmake -k M="$modwork" modules
}
example_check() {
	[ -f "$modwork/$1.ko" ] || { grep -A12 "$1.rs" "$res/modules-build.log" | head -n 60; return 1; }
}
module_check() {
	[ -f "$modwork/$1.ko" ] || { tail -n 40 "$res/modules-build.log"; return 1; }
	llvm-objcopy-19 -O binary --only-section=.modinfo "$modwork/$1.ko" "$modwork/$1.modinfo" &&
		tr '\0' '\n' <"$modwork/$1.modinfo" | grep '^parm=capacity:'
}

# Two groups, one per core: rustdoc and the module builds; the rest.
group=1
(
	check rustdoc cached "rustdoc $rust_inputs" rustdoc_kernel "$@"
	check rust_examples "$here/rust-examples.sh" "$here/../README.md" "$ksrc" "$examples"
	grep -v ' ' "$res/rust_examples.log" >"$res/examples" || true
	example_inputs="$rust_inputs $(cat "$here/rust-examples.sh" "$examples"/*.rs 2>/dev/null |
		sha256sum)"
	for src in $samples $(cat "$res/examples"); do
		is_cached "module $(basename "${src%.*}") $example_inputs" && continue
		modules_build "$@" >"$res/modules-build.log" 2>&1 || true
		break
	done
	for src in $samples; do
		name=$(basename "${src%.*}")
		check "module_$name" cached "module $name $example_inputs" module_check "$name"
	done
	for name in $(cat "$res/examples"); do
		check "example_$name" cached "module $name $example_inputs" example_check "$name"
	done
	if ! is_cached "extmod-rustc $example_inputs" && [ ! -d "$headers" ]; then
		headers_install "$@" >"$res/headers.log" 2>&1 || true
	fi
	check extmod_rustc_differs cached "extmod-rustc $example_inputs" rustc_differs
) &

# Debian's own 6.12 configs (Debian 12 and 13, fetched once) with what the
# series needs on top, as "make deb KCONFIG=" makes them: RUST and every
# option of scripts/deb.config must survive olddefconfig.
debian_config() {
	"$here/debian-config.sh" "$1" "$outdir/debian-configs/apt-$1" \
		"$outdir/debian-configs/config-$1" &&
		# shellcheck disable=SC2086 # the make command line, without its O=
		"$here/deb-config.sh" "$outdir/debian-configs/config-$1" "$here/deb.config" \
			"$ksrc" "$outdir/debian-configs/obj-$1" $kmake_src
}
debian_config_inputs() {
	git -C "$ksrc" rev-parse HEAD^{tree}
	cat "$here/deb.config" "$here/deb-config.sh" "$here/lib.sh" \
		"$outdir/debian-configs/config-$1" 2>/dev/null
	for tool in clang ld.lld /usr/bin/rustc bindgen; do "$tool" --version 2>&1 | head -n 1; done
}

group=2
(
	for release in 12 13; do
		# Fetched first (once): the config is one of the inputs.
		"$here/debian-config.sh" "$release" "$outdir/debian-configs/apt-$release" \
			"$outdir/debian-configs/config-$release" >/dev/null 2>&1 || true
		check "debian${release}_config_keeps_rust" cached \
			"debconfig $(debian_config_inputs $release | sha256sum)" debian_config $release
	done
	for p in $(grep -v '^#' "$pdir/series"); do
		check "checkpatch_${p%.patch}" cached \
			"checkpatch $(git -C "$ksrc" rev-parse pristine) $(sha256sum <"$pdir/$p")" \
			checkpatch "$pdir/$p"
	done
	check rustfmtcheck "$@" rustfmtcheck
	# kernel-doc on each source Documentation/core-api/iov_iter.rst pulls
	# function docs from: any warning fails.
	for f in $(sed -n 's/^\.\. kernel-doc:: *//p' \
		"$ksrc/Documentation/core-api/iov_iter.rst" 2>/dev/null | sort -u); do
		check "kernel_doc_$(echo "$f" | tr /. __)" kerneldoc "$f"
	done
	# Built only if some case has to run again.
	cfwork=$outdir/rust-compile-fail
	for src in "$here"/rust-compile-fail/*.rs; do
		is_cached "cf $(basename "$src" .rs) $rust_inputs" && continue
		"$here/rust-compile-fail.sh" --build "$cfwork" "$here"/rust-compile-fail/*.rs \
			-- "$@" >"$res/cf-build.log" 2>&1 || true
		break
	done
	for src in "$here"/rust-compile-fail/*.rs; do
		name=$(basename "$src" .rs)
		check "rust_compile_fail_$name" cached "cf $name $rust_inputs" \
			"$here/rust-compile-fail.sh" --check "$cfwork" "$name"
	done
	cfwork_up=$outdir/rust-compile-fail-up
	for src in "$here"/rust-compile-fail/up/*.rs; do
		is_cached "cf-up $(basename "$src" .rs) $rust_inputs" && continue
		{
			up_prepare &&
				# shellcheck disable=SC2086 # the make command line
				"$here/rust-compile-fail.sh" --build "$cfwork_up" \
					"$here"/rust-compile-fail/up/*.rs -- $kmake_src O="$up_obj"
		} >"$res/cf-up-build.log" 2>&1 || true
		break
	done
	for src in "$here"/rust-compile-fail/up/*.rs; do
		name=$(basename "$src" .rs)
		check "rust_compile_fail_up_$name" cached "cf-up $name $rust_inputs" \
			"$here/rust-compile-fail.sh" --check "$cfwork_up" "$name"
	done
) &
wait

n=0
failed=0
{
	echo "TAP version 13"
	echo "1..$(cat "$res"/order.* | wc -l)"
	for name in $(cat "$res/order.2" "$res/order.1"); do
		n=$((n + 1))
		if [ "$(cat "$res/$name.rc")" = 0 ]; then
			echo "ok $n $name"
		else
			failed=$((failed + 1))
			sed 's/^/# /' "$res/$name.log" | head -n 60
			echo "not ok $n $name"
		fi
	done
} >"$out.tmp"
mv "$out.tmp" "$out"
failed=$(grep -c '^not ok' "$out" || true)
step lint "$n checks, $failed failed (checkpatch --strict, rustfmtcheck, rustdoc, kernel-doc, Rust compile-fail, sample modules against installed headers, Rust examples, Debian configs)"
[ "$failed" = 0 ]
