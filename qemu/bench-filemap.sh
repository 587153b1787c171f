#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot two kernels in turn, "with" and "without" the mm/filemap patch
# (A B A B ...), each running only the bench-filemap program, and compare
# the costs it reports: per boot, the median of its rounds; per kernel, the
# median over its boots; then the ratio with/without. QEMU is TCG here, so
# only the ratio means anything.
# Usage: qemu/bench-filemap.sh DIR BOOTS TIMEOUT
#   DIR holds bzImage.with, bzImage.without and initramfs.cpio.gz; each
#   boot's output goes to DIR/boot-N-KERNEL, the summary to DIR/summary.txt
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
dir=$1
boots=$2
timeout=$3

: >"$dir/samples.txt"
n=1
while [ "$n" -le "$boots" ]; do
	for k in with without; do
		out=$dir/boot-$n-$k
		# No KUnit: the boot only runs the benchmark.
		"$(dirname "$0")/run.sh" "$dir/bzImage.$k" "$dir/initramfs.cpio.gz" \
			"$out" "$timeout" kunit.enable=0
		grep -q '^iov-results: exit bench-filemap 0' "$out/results.log" ||
			die "boot $n ($k): bench-filemap did not finish (see $out/)"
		tr -d '\r' <"$out/results.log" |
			sed -n "s/^bench-filemap /$k $n /p" >>"$dir/samples.txt"
	done
	n=$((n + 1))
done

# samples.txt: KERNEL BOOT CALL SIZE NS, one line per round. "spread" is
# how far the per-boot medians of a kernel lie apart: a ratio closer to 1
# than that is noise.
awk '
function median(list,    v, n, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
# Spread of the per-boot medians: (max - min) / median, in percent.
function spread(list, mid,    v, n, i, lo, hi) {
	n = split(list, v, " ")
	lo = hi = v[1]
	for (i = 2; i <= n; i++) {
		if (v[i] + 0 < lo + 0) lo = v[i]
		if (v[i] + 0 > hi + 0) hi = v[i]
	}
	return 100 * (hi - lo) / mid
}
{
	key = $3 " " $4
	round[$1 " " $2 " " key] = round[$1 " " $2 " " key] " " $5
	if (!(key in seen)) { seen[key] = 1; order[++nkeys] = key }
	boots[$1 " " $2] = 1
}
END {
	for (b in round) {
		split(b, f, " ")
		perboot[f[1] " " f[3] " " f[4]] = perboot[f[1] " " f[3] " " f[4]] " " median(round[b])
	}
	printf "%-8s %6s %12s %7s %12s %7s %7s\n", "call", "bytes", \
		"with ns", "spread", "without ns", "spread", "ratio"
	for (i = 1; i <= nkeys; i++) {
		k = order[i]
		w = median(perboot["with " k]); o = median(perboot["without " k])
		split(k, f, " ")
		printf "%-8s %6s %12.1f %6.1f%% %12.1f %6.1f%% %7.3f\n", f[1], f[2], \
			w, spread(perboot["with " k], w), \
			o, spread(perboot["without " k], o), w / o
	}
}' "$dir/samples.txt" >"$dir/summary.txt"
cat "$dir/summary.txt"
step bench "$boots boots per kernel; ratio = with / without (< 1: the patch is faster)"
