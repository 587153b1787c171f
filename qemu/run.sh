#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot the guest kernel under QEMU (TCG) and capture its output:
#   OUTDIR/console.log  the serial console (ttyS0): kernel log, KTAP, /init
#   OUTDIR/results.log  the results port (ttyS1): user-space TAP from /init
# With a terminal on stdin the console is interactive and /init offers a
# shell after the tests (iov.shell=1); without one nothing reads stdin.
# The whole boot is bounded by TIMEOUT seconds. QEMU_CPU overrides the
# guest CPU model (default "max"), e.g. "max,-erms" for "make bench";
# QEMU_EXTRA adds QEMU options, e.g. "-icount shift=0" (guest clock counts
# instructions: "make bench BENCH_QEMU=..."). QEMU_CPUS (default 2) is the
# number of guest CPUs, one socket each: the guest has no ACPI and finds
# its CPUs in the MP table, where QEMU lists one per socket. Multi-threaded
# TCG runs them on separate host threads, so they really run in parallel.
# Usage: qemu/run.sh BZIMAGE INITRAMFS OUTDIR TIMEOUT [KERNEL-ARGS...]
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
kernel=$1
initrd=$2
out=$3
timeout=$4
shift 4

mkdir -p "$out"
rm -f "$out/console.log" "$out/results.log"
append="console=ttyS0 panic=-1 $*"
# shellcheck disable=SC2086 # QEMU_EXTRA is a list of options
cpus=${QEMU_CPUS:-2}
# One vCPU: the default single-threaded TCG, which "-icount" needs.
accel=tcg
[ "$cpus" -gt 1 ] && accel=tcg,thread=multi
set -- qemu-system-x86_64 -accel "$accel" -cpu "${QEMU_CPU:-max}" \
	-smp "cpus=$cpus,sockets=$cpus,cores=1,threads=1" -m 1G \
	-nodefaults -no-reboot -display none \
	-kernel "$kernel" -initrd "$initrd" ${QEMU_EXTRA:-}
if [ -t 0 ] && [ -t 1 ]; then
	step boot "interactive: Ctrl-A X quits QEMU (log: $out/console.log)"
	set -- "$@" -chardev stdio,id=con,mux=on,signal=off,logfile="$out/console.log" \
		-serial chardev:con -mon chardev=con,mode=readline \
		-serial file:"$out/results.log" -append "$append iov.shell=1"
	# --foreground: QEMU must stay in the terminal's foreground process
	# group to read it; the shell at the end is the user's to close.
	timeout --foreground "$timeout" "$@" || rc=$?
else
	step boot "booting, up to ${timeout}s (log: $out/console.log)"
	set -- "$@" -serial file:"$out/console.log" \
		-serial file:"$out/results.log" -append "$append"
	timeout -k 10 "$timeout" "$@" </dev/null || rc=$?
fi
case ${rc:-0} in
0) step boot "guest powered off" ;;
124 | 137) step boot "TIMEOUT: the guest did not finish in ${timeout}s" ;;
*) step boot "QEMU exited with status $rc" ;;
esac
echo "${rc:-0}" >"$out/qemu.status"
