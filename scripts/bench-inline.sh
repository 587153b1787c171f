#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Inlining check for "make bench": from the built objects, show that the
# Rust copy paths call the C copy functions directly, with no layer of
# Rust functions in between. Fails if:
#   - in a Rust object of the benchmarked code (the benchmark, and the Rust
#     RAM file sample when it is built: samples' *iov*.rs), a function that calls a C copy
#     function also calls a function of the kernel crate out of line (a
#     symbol whose mangled path has "6kernel": kernel::iov, kernel::page,
#     ...) or a C helper (rust_helper_*, but see below). Calls to core's panic
#     functions (overflow checks, never taken) are allowed, and so is the
#     one out-of-line function of the kernel crate in cold_paths (a misc
#     device's result beyond the request: it only reports and fails it);
#   - a copy function of the benchmark does not call (or tail-call) its C
#     function (_copy_to_iter, _copy_from_iter, copy_page_to_iter,
#     copy_page_from_iter_atomic);
#   - a Rust object of a sample calls none of the C copy functions;
#   - a misc device's read_iter or write_iter file operation in a sample
#     (the MiscdeviceVTable adapter) does not itself call a C copy
#     function, that is the driver's handler and the kernel::iov calls
#     were not inlined into it.
# C helpers (rust_helper_*) are allowed only for the C static inline
# functions listed in allowed_helpers: Rust cannot inline C in 6.12, and
# they are not part of the copy (current task, its signals, resched, the
# killable mutex lock, a macro under lockdep; the C twin calls the same).
# Prints every call each checked function makes, as the evidence.
# Usage: scripts/bench-inline.sh KSRC KOBJ OUTDIR
#   OUTDIR gets the call lists, NAME.calls, one "FUNCTION TARGET" a line.
set -eu
. "$(dirname "$0")/lib.sh"
ksrc=$1
kobj=$2
out=$3
copy_fns='_copy_to_iter _copy_from_iter copy_page_to_iter copy_page_from_iter copy_page_from_iter_atomic'
allowed_helpers='rust_helper_get_current rust_helper_fatal_signal_pending rust_helper_cond_resched rust_helper_mutex_lock_killable'
# (mangled: v0 symbol of kernel::miscdevice::result_too_large)
cold_paths='_RNvNtCs[A-Za-z0-9_]*_6kernel10miscdevice16result_too_large'
mkdir -p "$out"

# calls OBJ: "FUNCTION TARGET" for every call, and every jump to another
# function (a tail call), in OBJ. In an object file the target is in the
# relocation on the line after the instruction.
calls() {
	llvm-objdump -d -r --no-show-raw-insn "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; sub(/^</, "", fn); sub(/>:$/, "", fn); next }
		/\t(callq?|j[a-z]+)[ \t]/ { pending = 1; next }
		pending && /R_X86_64_(PLT32|PC32)/ {
			t = $NF; sub(/[-+]0x[0-9a-f]+$/, "", t); print fn, t }
		{ pending = 0 }'
}

bench=$kobj/samples/iov_bench/rust_iov_bench.o
[ -f "$bench" ] || die "$bench is missing: is CONFIG_SAMPLE_IOV_BENCH set?"
objs=$bench
for src in $(grep -rl --include='*iov*.rs' 'kernel::iov' "$ksrc/samples" 2>/dev/null | sort); do
	rel=${src#"$ksrc"/}
	obj=$kobj/${rel%.rs}.o
	[ "$obj" = "$bench" ] || [ ! -f "$obj" ] || objs="$objs $obj"
done

bad=0
for obj in $objs; do
	base=$out/$(basename "$obj" .o)
	calls "$obj" >"$base.calls"
	echo "inline: ${obj#"$kobj"/}: calls made by the functions that copy"
	# Every call of each function that calls a C copy function.
	awk -v fns="$copy_fns" '
		BEGIN { n = split(fns, f, " "); for (i = 1; i <= n; i++) c[f[i]] = 1 }
		$2 in c { copier[$1] = 1 }
		{ line[NR] = $0; caller[NR] = $1 }
		END { for (i = 1; i <= NR; i++) if (caller[i] in copier) print line[i] }' \
		"$base.calls" | sort -u >"$base.copiers"
	while read -r fn target; do
		printf '  %s -> %s\n' "$(echo "$fn" | llvm-cxxfilt)" "$(echo "$target" | llvm-cxxfilt)"
	done <"$base.copiers"
	# grep exits 1 when nothing matches, 2 on an error, which must not pass.
	rc=0
	grep -E ' (.*6kernel.*|rust_helper_.*)$' "$base.copiers" >"$base.rust" || rc=$?
	[ "$rc" -le 1 ] || die "grep failed on $base.copiers"
	rc=0
	grep -v -E " ($(echo $allowed_helpers $cold_paths | tr ' ' '|'))$" "$base.rust" >"$base.layers" || rc=$?
	[ "$rc" -le 1 ] || die "grep failed on $base.rust"
	if [ -s "$base.layers" ]; then
		echo "  FAILED: out-of-line calls into the kernel crate or Rust helpers:"
		while read -r fn target; do
			printf '    %s -> %s\n' "$fn" "$(echo "$target" | llvm-cxxfilt)"
		done <"$base.layers"
		bad=1
	fi
	# The file operations of a Rust misc device: the handler, with its
	# kernel::iov calls, must be inlined into them down to the C copy.
	llvm-nm --defined-only --just-symbol-name "$obj" | sort -u >"$base.syms"
	for fop in read_iter write_iter; do
		llvm-cxxfilt <"$base.syms" | paste "$base.syms" - |
			awk -F '\t' -v fop="$fop" '$2 ~ ("MiscdeviceVTable<.*>>::" fop "$") { print $1 }' \
			>"$base.$fop"
		while read -r fn; do
			if ! awk -v fn="$fn" '$1 == fn' "$base.copiers" | grep -q .; then
				echo "  FAILED: the $fop file operation $(echo "$fn" | llvm-cxxfilt) does" \
					"not call a C copy function itself"
				bad=1
			else
				echo "  $fop file operation calls the C copy function directly"
			fi
		done <"$base.$fop"
	done
	if [ ! -s "$base.copiers" ]; then
		echo "  FAILED: no function calls a C copy function ($copy_fns)"
		bad=1
	fi
done

# The benchmark's copy functions, each with the C function it must call.
while read -r fn want; do
	if ! grep -qx "$fn $want" "$out/rust_iov_bench.calls"; then
		echo "  FAILED: $fn does not call $want directly"
		bad=1
	fi
done <<EOF
rust_iov_bench_kvec_to _copy_to_iter
rust_iov_bench_copy_to _copy_to_iter
rust_iov_bench_kvec_from _copy_from_iter
rust_iov_bench_copy_from _copy_from_iter
rust_iov_bench_page_to copy_page_to_iter
rust_iov_bench_page_from copy_page_from_iter_atomic
EOF
[ "$bad" = 0 ] || die "inlining check failed: a Rust layer is left in a copy path"
step inline "$(echo "$objs" | wc -w) Rust object(s): copy paths call the C copy functions directly"
