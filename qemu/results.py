#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn one guest boot into a verdict.

Reads OUT/console.log (kernel log with KUnit KTAP), OUT/results.log (TAP
of the user-space test programs, framed by /init) and OUT/qemu.status.
Both kinds of TAP are parsed by the kernel tree's own parser
(tools/testing/kunit/kunit.py parse --json). Prints one table and the
closing line "N passed, N failed"; exits 1 on any failed case, missing
suite, crash, timeout or kernel warning.
"""

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys

# Kernel log lines that fail a run whatever the tests said.
BAD_LOG = re.compile(
    r'WARNING:|BUG:|Oops|Kernel panic|kernel BUG at|Call Trace:|'
    r'general protection fault|KASAN|UBSAN|'
    r'possible circular locking|possible recursive locking|'
    r'inconsistent lock state|rcu: INFO:|INFO: task .* blocked')

MARK = re.compile(r'^iov-results: (begin|end|suite (\S+)|exit (\S+) (-?\d+))\s*$')

# A test that provokes a kernel report on purpose names it first, on the
# console (/dev/kmsg): "iov-expect-report: HEAD". The next line containing
# HEAD starts that report, and the one "Call Trace:" that follows within
# REPORT_LINES lines is its stack dump; only that is excused.
EXPECT = re.compile(r'iov-expect-report: (.+?)\s*$')
REPORT_LINES = 40


def bad_log_lines(log):
    """Return the lines of a console log that fail the run.

    A "Call Trace:" within 60 lines of the previous bad line is part of that
    report and not counted again; the stack dump of a report a test named
    beforehand (see EXPECT) is excused.
    """
    bad, last = [], -100
    expected, head_at = [], None
    for i, line in enumerate(log):
        m = EXPECT.search(line)
        if m:
            expected.append(m.group(1))
            continue
        for head in expected:
            if head in line:
                expected.remove(head)
                head_at = i
                break
        if not BAD_LOG.search(line):
            continue
        if (head_at is not None and 'Call Trace:' in line and
                not BAD_LOG.search(line.replace('Call Trace:', '')) and
                i - head_at <= REPORT_LINES):
            head_at = None
            continue
        # The trace that follows a report is part of that report.
        if 'Call Trace:' not in line or i - last > 60:
            bad.append(line)
        last = i
    return bad


def kunit_parse(kunit_py, log_path, json_path):
    """Run the tree's KTAP parser on log_path; return (suites, ok).

    suites maps a suite name to [passed, failed, skipped]. ok is False when
    the parser itself found the log unparseable or inconsistent.
    """
    with open(json_path + '.log', 'w') as plog:
        rc = subprocess.run([sys.executable, kunit_py, 'parse',
                             '--json=' + json_path, log_path],
                            stdout=plog, stderr=subprocess.STDOUT).returncode
    try:
        with open(json_path) as f:
            root = json.load(f)
    except (OSError, ValueError):
        return {}, False
    return root, rc == 0


def count_leaves(group, counts):
    """Add the statuses of every leaf test case in a KernelCI JSON group."""
    for case in group.get('test_cases', []):
        status = case['status']
        if status == 'PASS':
            counts[0] += 1
        elif status == 'SKIP':
            counts[2] += 1
        else:
            counts[1] += 1
    for sub in group.get('sub_groups', []):
        count_leaves(sub, counts)
    return counts


def failure_excerpt(parse_log, limit=40):
    """The kunit.py lines around each failed or crashed case, for the log."""
    try:
        lines = open(parse_log, errors='backslashreplace').read().splitlines()
    except OSError:
        return []
    # Drop kunit.py's "[hh:mm:ss] " prefix.
    lines = [re.sub(r'^\[\d\d:\d\d:\d\d\] ', '', line) for line in lines]
    out, start = [], 0
    for i, line in enumerate(lines):
        if line.startswith('[PASSED]') or line.startswith('[SKIPPED]'):
            start = i + 1
        elif re.match(r'\[(FAILED|CRASHED|ERROR)\]', line):
            out.extend(lines[max(start, i - 8):i + 1])
            start = i + 1
    return out[:limit]


def split_user_tap(path):
    """Split results.log into {suite: (tap_lines, exit_status or None)}."""
    suites, cur, began, ended = {}, None, False, False
    try:
        lines = open(path, errors='backslashreplace').read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        line = line.rstrip('\r')
        m = MARK.match(line)
        if not m:
            if cur is not None:
                suites[cur][0].append(line)
            continue
        if m.group(1) == 'begin':
            began = True
        elif m.group(1) == 'end':
            ended = True
            cur = None
        elif m.group(2):
            cur = m.group(2)
            suites[cur] = ([], None)
        else:
            name, status = m.group(3), int(m.group(4))
            if name in suites:
                suites[name] = (suites[name][0], status)
            cur = None
    return suites, began, ended


def read_expected(path):
    """Expected suites: 'KIND NAME PASSED [SKIPPED]' per line, exact counts;
    a later line for the same suite replaces an earlier one."""
    want = {}
    for line in open(path):
        line = line.split('#', 1)[0].split()
        if line:
            want[(line[0], line[1])] = (int(line[2]), int(line[3]) if len(line) > 3 else 0)
    return want


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True, help='boot output directory')
    ap.add_argument('--ksrc', required=True, help='kernel source tree')
    ap.add_argument('--expected', required=True, help='expected suites file')
    ap.add_argument('--versions', help='file with tool versions to show')
    ap.add_argument('--lint', help='TAP file of the build-time checks')
    ap.add_argument('--cpus', type=int, default=1,
                    help='CPUs the guest was given: fewer brought up fail the run')
    ap.add_argument('--require', action='append', default=[],
                    help='a kernel log line (regex) that must appear, e.g. KCSAN enabled')
    ap.add_argument('--left-out', action='append', default=[],
                    help='a suite this boot does not run (one that a patch left out of '
                    'the build adds, or one of the normal boot only): not expected')
    ap.add_argument('--suite',
                    help='the one suite this boot ran (a glob, as kunit.filter_glob takes): '
                    'only suites it matches are expected, and at least one must be')
    ap.add_argument('--record', help='where to write the summary if the run passes')
    ap.add_argument('--steps', help='progress lines of the run, for --record')
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)  # kunit.py changes directory

    kunit_py = os.path.join(args.ksrc, 'tools/testing/kunit/kunit.py')
    console = os.path.join(args.out, 'console.log')
    rows = {}        # (kind, suite) -> [passed, failed, skipped]
    parse_logs = {}  # (kind, suite) -> kunit.py output for it
    problems = []    # failures that are not test cases

    try:
        status = int(open(os.path.join(args.out, 'qemu.status')).read())
    except (OSError, ValueError):
        status = None
    if status in (124, 137):
        problems.append('timeout: the guest did not finish')
    elif status not in (0, None):
        problems.append(f'QEMU exited with status {status}')

    # Kernel: KUnit suites on the console.
    kunit_json = os.path.join(args.out, 'kunit.json')
    root, ok = kunit_parse(kunit_py, console, kunit_json)
    # With --suite naming a user program, kunit.filter_glob leaves no
    # suite to run, and kunit.py rejects a log without tests.
    no_kunit = args.suite and not root.get('sub_groups') and not any(
        k == 'kernel' and fnmatch.fnmatchcase(n, args.suite) for k, n in read_expected(args.expected))
    if not ok and count_leaves(root, [0, 0, 0])[1] == 0 and not no_kunit:
        problems.append('kunit.py parse rejected the kernel log '
                        f'(see {args.out}/kunit.json.log)')
    for suite in root.get('sub_groups', []):
        rows[('kernel', suite['name'])] = count_leaves(suite, [0, 0, 0])
        parse_logs[('kernel', suite['name'])] = kunit_json + '.log'
    for case in root.get('test_cases', []):
        # A suite with no parsed cases, e.g. one that crashed.
        rows[('kernel', case['name'])] = count_leaves(
            {'test_cases': [case]}, [0, 0, 0])
        parse_logs[('kernel', case['name'])] = kunit_json + '.log'

    # User space: TAP from the results port, one block per program.
    user, began, ended = split_user_tap(os.path.join(args.out, 'results.log'))
    if not began or not ended:
        problems.append('/init did not finish (no end marker on the results port)')
    udir = os.path.join(args.out, 'user')
    os.makedirs(udir, exist_ok=True)
    for name, (tap, exit_status) in user.items():
        tap_path = os.path.join(udir, name + '.tap')
        with open(tap_path, 'w') as f:
            f.write('\n'.join(tap) + '\n')
        troot, tok = kunit_parse(kunit_py, tap_path, tap_path + '.json')
        counts = count_leaves(troot, [0, 0, 0])
        rows[('user', name)] = counts
        parse_logs[('user', name)] = tap_path + '.json.log'
        if exit_status is None:
            problems.append(f'user {name}: did not finish (crash or hang)')
        elif exit_status != 0 and counts[1] == 0:
            problems.append(f'user {name}: exit status {exit_status}')
        if not tok and counts[1] == 0:
            problems.append(f'user {name}: TAP output not parseable '
                            f'(see {tap_path}.json.log)')

    # Build-time checks (scripts/lint.sh), if they ran.
    if args.lint:
        if os.path.exists(args.lint):
            lroot, lok = kunit_parse(kunit_py, os.path.abspath(args.lint),
                                     os.path.abspath(args.lint) + '.json')
            rows[('build', 'lint')] = count_leaves(lroot, [0, 0, 0])
            parse_logs[('build', 'lint')] = os.path.abspath(args.lint) + '.json.log'
            if not lok and rows[('build', 'lint')][1] == 0:
                problems.append('lint results not parseable')
        else:
            problems.append('build lint: did not run')

    # Exact counts: a case added, lost or newly skipped is a change to the
    # expected-suites file, not something a run lets through.
    expected = read_expected(args.expected)
    if args.suite:
        expected = {k: v for k, v in expected.items() if fnmatch.fnmatchcase(k[1], args.suite)}
        if not expected:
            problems.append(f'SUITE={args.suite} matches no suite of {args.expected}')
    for (kind, name), (passed, skipped) in expected.items():
        if name in args.left_out:
            continue
        got = rows.get((kind, name))
        if got is None:
            problems.append(f'{kind} suite {name}: missing')
        elif got[0] != passed or got[2] != skipped:
            problems.append(f'{kind} suite {name}: {got[0]} passed and {got[2]} skipped, '
                            f'{args.expected} says {passed} and {skipped}')

    try:
        log = open(console, errors='backslashreplace').read().splitlines()
    except OSError:
        log = []
        problems.append('no console log')
    bad = bad_log_lines(log)
    # The concurrency tests mean something only with every CPU up.
    up = [re.search(r'smp: Brought up \d+ nodes?, (\d+) CPUs?', line) for line in log]
    up = [int(m.group(1)) for m in up if m]
    if not up:
        problems.append('kernel log: no "smp: Brought up" line (how many CPUs?)')
    elif up[-1] < args.cpus:
        problems.append(f'the guest brought up {up[-1]} CPU(s), {args.cpus} were given')
    for pattern in args.require:
        if not any(re.search(pattern, line) for line in log):
            problems.append(f'kernel log: no line matches "{pattern}"')
    for line in bad[:10]:
        problems.append('kernel log: ' + line.strip())
    if len(bad) > 10:
        problems.append(f'kernel log: {len(bad) - 10} more such lines')

    out = []
    if args.versions and os.path.exists(args.versions):
        out.append(open(args.versions).read().rstrip())
    if up:
        out.append(f'guest       {up[-1]} CPU(s) brought up of {args.cpus}')
    out.append('')
    width = max([len(n) for _, n in rows] + [24])
    out.append(f'{"suite":<{width + 8}} {"passed":>7} {"failed":>7} {"skipped":>8}')
    total = [0, 0, 0]
    for (kind, name), (p, f, s) in sorted(rows.items()):
        out.append(f'{kind:<7} {name:<{width}} {p:>7} {f:>7} {s:>8}')
        total = [total[0] + p, total[1] + f, total[2] + s]
    out.append(f'{"total":<{width + 8}} {total[0]:>7} {total[1]:>7} {total[2]:>8}')
    # What the debug boot's fault injection reached (the guest prints it).
    try:
        results_log = open(os.path.join(args.out, 'results.log'), errors='replace').read()
    except OSError:
        results_log = ''
    faults = [line.strip() for line in results_log.splitlines()
              if 'usercopy faults injected: ' in line]
    if faults:
        out += [''] + faults
    # And the model-based test's totals (its suite prints them).
    model = [line.split('# ', 1)[1].strip() for line in log if '# iov_iter model: ' in line]
    if model:
        out += [''] + model
    print('\n'.join(out))
    for (kind, name), (p, f, s) in sorted(rows.items()):
        if f:
            print(f'FAILED: {kind} suite {name}: {f} failed case(s):')
            for line in failure_excerpt(parse_logs[(kind, name)]):
                print('    ' + line)
    for p in problems:
        print('FAILED: ' + p)
    failed = total[1] + len(problems)
    print(f'{total[0]} passed, {failed} failed')
    if args.record and not failed:
        steps = (open(args.steps).read().rstrip().splitlines()
                 if args.steps and os.path.exists(args.steps) else [])
        os.makedirs(os.path.dirname(os.path.abspath(args.record)), exist_ok=True)
        with open(args.record, 'w') as f:
            f.write('\n'.join(out + ['', f'{total[0]} passed, {failed} failed']))
            if steps:
                f.write('\n\nphase times of this run ([min:s] since it started):\n')
                f.write('\n'.join(steps))
            f.write('\n')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
