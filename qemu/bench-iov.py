#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise one "make bench" boot: tables, CSV files and a plot.

Reads the batch times the guest printed:
  console.log  "iov-bench: PATH BYTES OPS VARIANT NS..." (KUnit suite
               iov_rust_bench, wrapper cost: c, rust and memcpy)
  results.log  "bench-ramfile: CALL BYTES SEGS DEVICE OPS NS..." (driver
               cost, qemu/bench-ramfile.c)
and writes to OUT: wrapper.csv, driver.csv, summary.txt (also printed),
bench.gp and bench.png (if gnuplot is there).

Per cell the median time per operation of each variant, the ratio of the
medians, and a 95% bootstrap interval of that ratio (batches resampled
in their interleaved pairs, so slow phases of the host hit both sides).
QEMU runs under TCG here: only ratios within the boot are results.
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys

BOOTSTRAP = 2000
WRAPPER_RE = re.compile(r'iov-bench: (\w+) (\d+) (\d+) (\w+)((?: \d+)+)\s*$')
DRIVER_RE = re.compile(r'^bench-ramfile: (\w+) (\d+) (\d+) (\w+) (\d+)((?: \d+)+)\s*$')

# Targets (README.md "Benchmarks", the cover letter): Rust/C time of a copy
# at most WRAPPER_TARGET, a page copy under 4 KiB at most PAGE_SMALL_TARGET
# (the Rust benchmark loop's few extra instructions per copy); the
# Rust sample's throughput at least DRIVER_TARGET of its C twin's. With
# --exact (QEMU -icount: ratios of instructions) a missed target fails.
WRAPPER_TARGET = 1.01
PAGE_SMALL_TARGET = 1.03
DRIVER_TARGET = 0.98


def wrapper_target(path, size):
    return PAGE_SMALL_TARGET if path.startswith('page') and size < 4096 else WRAPPER_TARGET


def read_lines(path):
    try:
        with open(path, errors='backslashreplace') as f:
            return [line.rstrip('\r\n') for line in f]
    except OSError:
        return []


def ratio_interval(num, den, rng):
    """95% bootstrap interval of median(num) / median(den), pairs kept."""
    n = min(len(num), len(den))
    if n < 2:
        r = statistics.median(num) / statistics.median(den)
        return r, r
    ratios = []
    for _ in range(BOOTSTRAP):
        idx = [rng.randrange(n) for _ in range(n)]
        ratios.append(statistics.median([num[i] for i in idx]) /
                      statistics.median([den[i] for i in idx]))
    ratios.sort()
    return ratios[int(0.025 * BOOTSTRAP)], ratios[int(0.975 * BOOTSTRAP) - 1]


def mbps(nbytes, ns):
    return nbytes * 1000.0 / ns if ns else 0.0


def fmt_size(n):
    if n >= 1 << 20:
        return f'{n >> 20} MiB'
    if n >= 1 << 10:
        return f'{n >> 10} KiB'
    return f'{n} B'


def parse_wrapper(lines):
    """{(path, bytes): {variant: [ns per op, ...]}} in first-seen order."""
    cells = {}
    for line in lines:
        m = WRAPPER_RE.search(line)
        if not m:
            continue
        path, size, ops, variant = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        ns = [int(x) / ops for x in m.group(5).split()]
        cells.setdefault((path, size), {})[variant] = ns
    return cells


def parse_driver(lines):
    cells = {}
    for line in lines:
        m = DRIVER_RE.match(line)
        if not m:
            continue
        call, size, segs, dev, ops = (m.group(1), int(m.group(2)), int(m.group(3)),
                                      m.group(4), int(m.group(5)))
        ns = [int(x) / ops for x in m.group(6).split()]
        cells.setdefault((call, size, segs), {})[dev] = ns
    return cells


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--boot', required=True, help='directory with console.log, results.log')
    ap.add_argument('--out', required=True, help='output directory')
    ap.add_argument('--env', help='file with toolchain and host facts to include')
    ap.add_argument('--exact', action='store_true',
                    help='the guest counted instructions (-icount): a missed target fails')
    args = ap.parse_args()
    rng = random.Random(7)
    os.makedirs(args.out, exist_ok=True)

    console = read_lines(os.path.join(args.boot, 'console.log'))
    results = read_lines(os.path.join(args.boot, 'results.log'))
    wrapper = parse_wrapper(console)
    driver = parse_driver(results)
    problems = []
    try:
        status = open(os.path.join(args.boot, 'qemu.status')).read().strip()
    except OSError:
        status = 'unknown'
    if status != '0':
        problems.append(f'the guest did not run to the end (QEMU status {status}; see '
                        f'{args.boot}/console.log and the boot line above)')
    if not any('iov-bench: end' in line for line in console):
        problems.append('the in-kernel benchmark (iov_rust_bench.iov_bench_wrapper_cost) did not finish')
    if not any(line.startswith('bench-ramfile: end') for line in results):
        problems.append('the driver benchmark (bench-ramfile) did not finish')
    problems += [line for line in results if line.startswith('bench-ramfile: error')]
    clock = [line.split()[-1] for line in console if 'Switched to clocksource' in line]
    if clock and clock[-1] not in ('tsc', 'tsc-early'):
        problems.append(f'the guest timed with clocksource {clock[-1]} (TSC calibration '
                        'failed?): the times are in jiffies and mean nothing; run again')
    # A batch timed at 0 ns (clock trouble) would make every ratio meaningless.
    for name, cells in (('in-kernel', wrapper), ('driver', driver)):
        for key, variants in list(cells.items()):
            if any(x <= 0 for ns in variants.values() for x in ns):
                problems.append(f'{name} cell {key}: a batch took 0 ns; cell left out')
                del cells[key]
    if not wrapper:
        problems.append('no "iov-bench:" lines in the kernel log')

    out = []
    say = out.append
    say('QEMU TCG (no KVM): the guest CPU is emulated, so absolute times and MB/s')
    say('are not claims; the results are ratios measured within this one boot.')
    if clock:
        say(f'guest clocksource {clock[-1]}')
    for line in results:
        if re.match(r'bench-ramfile: (cpu|flags|kernel|device|buffer) ', line):
            say('guest ' + line[len('bench-ramfile: '):])
    if args.env and os.path.exists(args.env):
        say(open(args.env).read().rstrip())
    say('')

    # Wrapper cost.
    memcpy_by_size = {}
    rows = []
    for (path, size), v in wrapper.items():
        if not all(k in v for k in ('c', 'rust', 'memcpy')):
            continue
        c, r, m = (statistics.median(v[k]) for k in ('c', 'rust', 'memcpy'))
        lo, hi = ratio_interval(v['rust'], v['c'], rng)
        rows.append((path, size, c, r, m, r / c, lo, hi, m / c, m / r, len(v['c'])))
        memcpy_by_size.setdefault(size, []).extend(v['memcpy'])
    with open(os.path.join(args.out, 'wrapper.csv'), 'w') as f:
        f.write('path,bytes,c_ns_per_op,rust_ns_per_op,memcpy_ns_per_op,c_MBps,rust_MBps,'
                'memcpy_MBps,rust_over_c_time,ci95_lo,ci95_hi,c_of_memcpy,rust_of_memcpy,'
                'samples\n')
        for path, size, c, r, m, ratio, lo, hi, cf, rf, n in rows:
            f.write(f'{path},{size},{c:.1f},{r:.1f},{m:.1f},{mbps(size, c):.1f},'
                    f'{mbps(size, r):.1f},{mbps(size, m):.1f},{ratio:.4f},{lo:.4f},{hi:.4f},'
                    f'{cf:.4f},{rf:.4f},{n}\n')
    say('Wrapper cost (in-kernel, KUnit iov_rust_bench): median ns per copy, Rust/C time')
    say('ratio with its 95% bootstrap interval, each path as a fraction of memcpy().')
    say(f'{"path":<11}{"bytes":>8}{"C ns":>10}{"Rust ns":>10}{"memcpy ns":>11}'
        f'{"Rust/C":>8}{"95% interval":>16}{"C/memcpy":>10}{"Rust/memcpy":>12}')
    for path, size, c, r, m, ratio, lo, hi, cf, rf, n in rows:
        say(f'{path:<11}{fmt_size(size):>8}{c:>10.0f}{r:>10.0f}{m:>11.0f}{ratio:>8.3f}'
            f'{f"{lo:.3f}-{hi:.3f}":>16}{cf:>10.2f}{rf:>12.2f}')
    missed = [(p, s, x) for p, s, c, r, m, x, lo, hi, cf, rf, n in rows
              if x > wrapper_target(p, s)]
    say(f'Target (wrapper): Rust/C time <= {WRAPPER_TARGET} in every cell, '
        f'<= {PAGE_SMALL_TARGET} for page copies under 4 KiB: '
        + ('met' if not missed else 'MISSED in ' + ', '.join(
            f'{p} {fmt_size(s)} ({x:.3f})' for p, s, x in missed)))
    if missed and args.exact:
        problems.append('wrapper target missed')
    say('')

    # Driver cost.
    memcpy_ns = {s: statistics.median(v) for s, v in memcpy_by_size.items()}
    drows = []
    for (call, size, segs), v in driver.items():
        c = statistics.median(v['c']) if 'c' in v else None
        r = statistics.median(v['rust']) if 'rust' in v else None
        if c is not None and r is not None:
            # Throughput ratio Rust/C = C time / Rust time.
            lo, hi = ratio_interval(v['c'], v['rust'], rng)
            ratio = c / r
        else:
            ratio = lo = hi = None
        m = memcpy_ns.get(size)
        drows.append((call, size, segs, c, r, ratio, lo, hi, m))

    def cell(x, spec):
        return format(x, spec) if x is not None else ''

    with open(os.path.join(args.out, 'driver.csv'), 'w') as f:
        f.write('call,bytes,segments,c_ns_per_op,rust_ns_per_op,c_MBps,rust_MBps,'
                'rust_over_c_throughput,ci95_lo,ci95_hi,c_of_memcpy,rust_of_memcpy\n')
        for call, size, segs, c, r, ratio, lo, hi, m in drows:
            f.write(','.join([
                call, str(size), str(segs), cell(c, '.1f'), cell(r, '.1f'),
                cell(c and mbps(size, c), '.1f'), cell(r and mbps(size, r), '.1f'),
                cell(ratio, '.4f'), cell(lo, '.4f'), cell(hi, '.4f'),
                cell(m and c and m / c, '.4f'), cell(m and r and m / r, '.4f')]) + '\n')
    say('Driver cost (user space -> /dev/c-iov-ramfile, /dev/rust-iov-ramfile): median ns')
    say('per call and MB/s; Rust/C throughput ratio with its 95% bootstrap interval; the')
    say('C twin as a fraction of an in-kernel memcpy() of the same size.')
    say(f'{"call":<7}{"bytes":>8}{"segs":>6}{"C ns":>10}{"C MB/s":>9}{"Rust ns":>10}'
        f'{"Rust MB/s":>10}{"Rust/C":>8}{"95% interval":>16}{"C/memcpy":>10}')
    for call, size, segs, c, r, ratio, lo, hi, m in drows:
        say(f'{call:<7}{fmt_size(size):>8}{segs:>6}{cell(c, ".0f"):>10}'
            f'{cell(c and mbps(size, c), ".0f"):>9}{cell(r, ".0f"):>10}'
            f'{cell(r and mbps(size, r), ".0f"):>10}{cell(ratio, ".3f"):>8}'
            f'{(f"{lo:.3f}-{hi:.3f}" if lo is not None else ""):>16}'
            f'{cell(m and c and m / c, ".3f"):>10}')
    if any(x[5] is not None for x in drows):
        missed = [x for x in drows if x[5] is not None and x[5] < DRIVER_TARGET]
        say(f'Target (driver): Rust/C throughput >= {DRIVER_TARGET} in every cell: '
            + ('met' if not missed else f'MISSED in {len(missed)} of {len(drows)} cells'))
        if missed and args.exact:
            problems.append('driver target missed')
    else:
        say('Target (driver): not measured, only one device exists in this kernel.')
    say('')

    problems += write_plot(args.out, rows, drows, say)
    for p in problems:
        say('FAILED: ' + p)
    text = '\n'.join(out) + '\n'
    with open(os.path.join(args.out, 'summary.txt'), 'w') as f:
        f.write(text)
    sys.stdout.write(text)
    return 1 if problems or not rows or not drows else 0


def write_plot(outdir, rows, drows, say):
    """bench.png: throughput and ratios against size, via gnuplot."""
    paths = sorted({r[0] for r in rows}, key=lambda p: [r[0] for r in rows].index(p))
    with open(os.path.join(outdir, 'plot-wrapper.dat'), 'w') as f:
        for p in paths:
            f.write(f'# {p}\n')
            for path, size, c, r, m, ratio, lo, hi, cf, rf, n in rows:
                if path == p:
                    f.write(f'{size} {mbps(size, c):.1f} {mbps(size, r):.1f} '
                            f'{mbps(size, m):.1f} {ratio:.4f} {lo:.4f} {hi:.4f}\n')
            f.write('\n\n')
    calls = []
    for call, size, segs, *_ in drows:
        if (call, segs) not in calls:
            calls.append((call, segs))
    with open(os.path.join(outdir, 'plot-driver.dat'), 'w') as f:
        for call, segs in calls:
            f.write(f'# {call} {segs}\n')
            for d in drows:
                if (d[0], d[2]) == (call, segs):
                    size, c, r, ratio = d[1], d[3], d[4], d[5]
                    f.write(f'{size} {mbps(size, c) if c else "NaN"} '
                            f'{mbps(size, r) if r else "NaN"} '
                            f'{ratio if ratio is not None else "NaN"}\n')
            f.write('\n\n')
    wnames = ' '.join(paths)
    dnames = ' '.join(f'{c}/{n}' for c, n in calls)
    gp = f'''set terminal pngcairo noenhanced size 1600,1100 font ",10"
set output "{outdir}/bench.png"
set multiplot layout 2,2 title "iov_iter copies, Rust kernel::iov vs C (QEMU TCG: only ratios are results)"
wnames = "{wnames}"
dnames = "{dnames}"
set logscale x 2
set xrange [32:2097152]
set format x "%.0b%BB"
set key outside right top
set grid
set xlabel "bytes per copy"
set ylabel "MB/s (TCG)"
set title "In-kernel copies: C (solid), Rust (dashed), memcpy (grey)"
plot for [i=0:{len(paths) - 1}] "{outdir}/plot-wrapper.dat" index i using 1:2 with linespoints lt i+1 dt 1 title word(wnames, i+1), \\
     for [i=0:{len(paths) - 1}] "{outdir}/plot-wrapper.dat" index i using 1:3 with linespoints lt i+1 dt 2 notitle, \\
     "{outdir}/plot-wrapper.dat" index 0 using 1:4 with lines lc rgb "grey" lw 2 title "memcpy"
set title "Wrapper cost: Rust/C time, 95% bootstrap interval"
set ylabel "Rust time / C time"
unset logscale y
plot for [i=0:{len(paths) - 1}] "{outdir}/plot-wrapper.dat" index i using 1:5:6:7 with yerrorlines lt i+1 title word(wnames, i+1), \\
     1.0 with lines lc rgb "black" notitle
set title "Driver: C twin (solid), Rust sample (dashed)"
set ylabel "MB/s (TCG)"
plot for [i=0:{max(len(calls) - 1, 0)}] "{outdir}/plot-driver.dat" index i using 1:2 with linespoints lt i+1 dt 1 title word(dnames, i+1), \\
     for [i=0:{max(len(calls) - 1, 0)}] "{outdir}/plot-driver.dat" index i using 1:3 with linespoints lt i+1 dt 2 notitle
set title "Driver: Rust/C throughput (target >= 0.98){'' if any(d[5] is not None for d in drows) else ': no Rust sample in this kernel'}"
set ylabel "Rust MB/s / C MB/s"
{'' if any(d[5] is not None for d in drows) else 'set yrange [0.9:1.1]'}
plot for [i=0:{max(len(calls) - 1, 0)}] "{outdir}/plot-driver.dat" index i using 1:4 with linespoints lt i+1 title word(dnames, i+1), \\
     0.98 with lines lc rgb "black" dt 3 notitle
unset multiplot
'''
    with open(os.path.join(outdir, 'bench.gp'), 'w') as f:
        f.write(gp)
    if not shutil.which('gnuplot'):
        return ['gnuplot is missing (scripts/deps.sh installs gnuplot-nox)']
    rc = subprocess.run(['gnuplot', os.path.join(outdir, 'bench.gp')],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if rc.returncode or not os.path.exists(os.path.join(outdir, 'bench.png')):
        return ['gnuplot: ' + ' '.join(rc.stdout.strip().splitlines()[-2:])]
    say(f'Plot: {outdir}/bench.png; CSV: {outdir}/wrapper.csv, {outdir}/driver.csv')
    return []


if __name__ == '__main__':
    sys.exit(main())
