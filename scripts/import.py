#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the commits of a kernel branch back into the series areas.

The series is stored in c-core/, rust-bindings/ and samples/: per patch a
description <area>/series/NN-topic (Subject:, Files:, Diffs: headers, a
blank line, the commit message body), new files whole at their in-tree
path, changes to existing files as diffs (README "The patch series").
scripts/mkpatches.sh turns that into commits; this is the way back.

Each commit of RANGE (oldest first) is matched to its description: by its
"Series: <area>/series/NN-topic" trailer (the branch of "make edit"), or,
with --by-order, by position (the branch mkpatches.sh builds, whose
commits are in the order of the descriptions). Then:

  - a path the header lists under Files: is written whole, as the commit
    leaves it;
  - a path of a Diffs: file is written as that commit's diff of it;
  - the commit message, minus the subject, the Series: trailer and the
    series' own Signed-off-by:, becomes the body;
  - a description no commit maps to is removed, with the files only it
    used.

A commit without a trailer, a path its header does not list, a listed
path the commit does not change, a deleted file or descriptions out of
order are errors that name the commit and the path; nothing is written
then. A trailer that names a description which does not exist yet makes
a new one (new files under Files:, changed ones as <path>.diff or
<path>.<topic>.diff). Importing the branch the areas were made from
writes them byte for byte as they are (mkpatches.sh --check verifies it).

Usage: import.py [--by-order] [--check] REPO RANGE
  REPO   a git worktree of the kernel tree holding RANGE (e.g. build/linux-edit)
  RANGE  e.g. pristine..HEAD
  --check  write nothing; exit 1 and list the differences if importing
           would change the areas
"""

import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

AREAS = ('c-core', 'rust-bindings', 'samples')
# The identity mkpatches.sh signs the patches with (its Signed-off-by: is
# not part of the stored body).
SIGNOFF = ('Signed-off-by: Seed abac5b57 maintainers '
           '<maintainers@users.noreply.a-seed-abac5b57.example>')
TRAILER = re.compile(r'^Series:\s*(\S+)\s*$')
HEADERS = ('Subject', 'Files', 'Diffs')
# git diff with every option that user configuration could change fixed,
# so the stored diffs do not depend on who imports them.
DIFF = ['-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false',
        '-c', 'core.quotePath=true', 'diff', '--no-color', '--no-ext-diff',
        '--no-textconv', '--no-renames', '--diff-algorithm=myers',
        '--indent-heuristic', '--inter-hunk-context=0', '-U3',
        '--src-prefix=a/', '--dst-prefix=b/']


class ImportError_(Exception):
    pass


def die(msg):
    raise ImportError_(msg)


def git(repo, *args, binary=False):
    res = subprocess.run(['git', '-C', repo] + list(args), capture_output=True)
    if res.returncode != 0:
        die('git %s: %s' % (' '.join(args), res.stderr.decode(errors='replace').strip()))
    return res.stdout if binary else res.stdout.decode()


class Spec:
    """One series/NN-topic description."""

    def __init__(self, area, name, text):
        self.area, self.name = area, name
        self.path = '%s/series/%s' % (area, name)
        head, _, body = text.partition('\n\n')
        self.header = head.split('\n')
        self.body = body
        self.files, self.diffs = [], []
        for line in self.header:
            key, sep, value = line.partition(':')
            if not sep or key not in HEADERS:
                die('%s: header line %r is not one of %s' % (self.path, line, ', '.join(HEADERS)))
            if key == 'Files':
                self.files += value.split()
            elif key == 'Diffs':
                self.diffs += value.split()
        self.subject = self.get('Subject')
        # The kernel paths of diffs that do not exist yet (a new description).
        self.new_targets = {}

    def get(self, key):
        for line in self.header:
            if line.startswith(key + ':'):
                return line.split(':', 1)[1].strip()
        return None

    def text(self, subject, body):
        header = []
        for line in self.header:
            header.append('Subject: ' + subject if line.startswith('Subject:') else line)
        return '\n'.join(header) + '\n\n' + body


def diff_target(path):
    """The kernel path a stored diff changes (its "+++ b/" line)."""
    with open(path, errors='surrogateescape') as f:
        for line in f:
            if line.startswith('+++ b/'):
                return line[6:].rstrip('\n')
    die('%s: not a diff (no "+++ b/" line)' % path)


def read_specs(top):
    specs = {}
    for area in AREAS:
        d = os.path.join(top, area, 'series')
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            with open(os.path.join(d, name), errors='surrogateescape') as f:
                spec = Spec(area, name, f.read())
            specs[spec.path] = spec
    return specs


def message_parts(msg):
    """Subject, body and Series: trailer of a commit message."""
    lines = msg.rstrip('\n').split('\n')
    subject = lines[0].strip()
    rest = lines[1:]
    while rest and not rest[0].strip():
        rest.pop(0)
    series = []
    # Trailers: the last paragraph's lines of ours are taken off.
    while rest and (TRAILER.match(rest[-1]) or rest[-1] == SIGNOFF or not rest[-1].strip()):
        m = TRAILER.match(rest.pop())
        if m:
            series.append(m.group(1))
    # git commit --cleanup=whitespace: no trailing blanks, no runs of blank lines.
    body, blank = [], False
    for line in rest:
        line = line.rstrip()
        if not line:
            blank = bool(body)
            continue
        if blank:
            body.append('')
        body.append(line)
        blank = False
    return subject, ('\n'.join(body) + '\n' if body else ''), series


def listed_paths(top, spec):
    """The kernel paths a description's header lists, or None if a diff is missing."""
    paths = set(spec.files)
    for d in spec.diffs:
        f = os.path.join(top, spec.area, d)
        if not os.path.exists(f):
            return None
        paths.add(diff_target(f))
    return paths


def new_spec(top, path, subject, changes, taken):
    """A description for a commit whose trailer names a file that does not exist; its diffs
    get names no other description in use has (`taken`, area-relative)."""
    m = re.match(r'^(%s)/series/(\d+)-([\w.+-]+)$' % '|'.join(map(re.escape, AREAS)), path)
    if not m:
        die('trailer "Series: %s": expected <area>/series/NN-topic, area one of %s'
            % (path, ', '.join(AREAS)))
    area, topic = m.group(1), m.group(3)
    files, diffs = [], []
    for status, kpath in changes:
        if status == 'A':
            files.append(kpath)
            continue
        name = kpath + '.diff'
        if (area, name) in taken:
            name = '%s.%s.diff' % (kpath, topic)
        diffs.append(name)
    header = ['Subject: ' + subject]
    if files:
        header.append('Files: ' + ' '.join(files))
    if diffs:
        header.append('Diffs: ' + ' '.join(diffs))
    spec = Spec(area, path.split('/')[-1], '\n'.join(header) + '\n\n')
    spec.new_targets = {d: k for d, (_, k) in zip(diffs, [c for c in changes if c[0] != 'A'])}
    return spec


def import_range(repo, rng, by_order, top, out):
    """Write the areas RANGE describes into OUT (a copy of the areas)."""
    specs = read_specs(top)
    ordered = sorted(specs.values(), key=lambda s: s.name)
    commits = git(repo, 'rev-list', '--reverse', '--topo-order', rng).split()
    merges = git(repo, 'rev-list', '--merges', rng).split()
    if merges:
        die('%s has merge commits (%s): the series must be linear' % (rng, ' '.join(merges)))
    if by_order and len(commits) != len(ordered):
        die('%s has %d commits, the areas describe %d patches' % (rng, len(commits), len(ordered)))

    # First pass: each commit's message, description (by trailer or
    # position) and changed paths.
    found = []
    for i, c in enumerate(commits):
        short = c[:12]
        subject, body, series = message_parts(git(repo, 'log', '-1', '--format=%B', c))
        what = 'commit %s "%s"' % (short, subject)
        if by_order:
            path = ordered[i].path
        else:
            if len(series) != 1:
                die('%s has %s "Series: <area>/series/NN-topic" trailer: it must name the one '
                    'series file it is (README "Editing the series"). A fixup! commit: run '
                    'git rebase -i --autosquash pristine first.'
                    % (what, 'no' if not series else 'more than one'))
            path = series[0]
        changes = []
        for line in git(repo, 'diff-tree', '-r', '--no-renames', '--no-commit-id',
                        '--name-status', c).splitlines():
            status, kpath = line.split('\t', 1)
            if status not in ('A', 'M'):
                die('%s %s %s: only added or changed files can be stored in the areas'
                    % (what, {'D': 'deletes', 'T': 'changes the type of'}.get(status, status),
                       kpath))
            changes.append((status, kpath))
        if not changes:
            die('%s changes nothing' % what)
        found.append((c, path, subject, body, changes, what))

    # A trailer that names a description which does not exist yet: a new
    # patch, or one renamed (new NN or topic). A description of the same
    # area and subject that no commit names any more is the old name: its
    # header (and so its file names) carries over when it lists exactly the
    # paths the commit changes.
    named = {f[1] for f in found}
    renamed = {}
    for c, path, subject, body, changes, what in found:
        if path in specs:
            continue
        for old in specs.values():
            if (old.path not in named and old.path not in renamed.values()
                    and old.area == path.split('/')[0] and old.subject == subject
                    and listed_paths(top, old) == {k for _, k in changes}):
                renamed[path] = old.path
                break
    # The diff names in use: those of the descriptions commits still name,
    # under their name or a new one.
    taken = {(s.area, d) for s in specs.values()
             if s.path in named or s.path in renamed.values() for d in s.diffs}
    done = []          # (commit, spec, ...) in branch order
    created = []       # descriptions made for new commits
    for c, path, subject, body, changes, what in found:
        spec = specs.get(path)
        if spec is None:
            spec = new_spec(top, path, subject, changes, taken)
            if path in renamed:
                old = specs[renamed[path]]
                spec.header, spec.files, spec.diffs = old.header, old.files, old.diffs
                spec.new_targets = {}
                created.append('%s (renamed from %s)' % (spec.path, old.path))
            else:
                created.append('%s (%s)' % (spec.path, what))
            taken |= {(spec.area, d) for d in spec.diffs}
            specs[spec.path] = spec
        if any(d[1] is spec for d in done):
            die('%s: a second commit for %s' % (what, spec.path))
        done.append((c, spec, subject, body, changes, what))

    names = [s.name for _, s, *_ in done]
    for a, b in zip(names, names[1:]):
        if a >= b:
            die('the commits are not in the order of their series files: %s comes before %s. '
                'Reorder the commits or rename the series file (NN sets the order).' % (a, b))

    wrote = set()
    for c, spec, subject, body, changes, what in done:
        adir = os.path.join(out, spec.area)
        by_path = {}
        for d in spec.diffs:
            src = os.path.join(top, spec.area, d)
            if os.path.exists(src):
                kpath = diff_target(src)
            elif d in spec.new_targets:
                kpath = spec.new_targets[d]
            else:
                # A diff just added to the header: <path>.diff or <path>.<topic>.diff.
                cands = [k for _, k in changes if d == k + '.diff' or
                         (d.startswith(k + '.') and d.endswith('.diff'))]
                if not cands:
                    die('%s lists %s, which does not exist and is not named after a path the '
                        'commit changes (<path>.diff or <path>.<topic>.diff)'
                        % (spec.path, os.path.join(spec.area, d)))
                kpath = max(cands, key=len)
            if kpath in by_path:
                die('%s: two diffs of %s' % (spec.path, kpath))
            by_path[kpath] = d
        listed = set(spec.files) | set(by_path)
        for status, kpath in changes:
            if kpath not in listed:
                die('%s (%s) changes %s, which its header does not list: add "Files: %s" '
                    '(a new file) or "Diffs: %s.diff" to %s'
                    % (what, spec.path, kpath, kpath, kpath, spec.path))
        changed = {kpath for _, kpath in changes}
        for kpath in sorted(listed - changed):
            die('%s does not change %s, which %s lists: take it out of the header'
                % (what, kpath, spec.path))
        for kpath in spec.files:
            dst = os.path.join(adir, kpath)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, 'wb') as f:
                f.write(git(repo, 'show', '%s:%s' % (c, kpath), binary=True))
            wrote.add(os.path.join(spec.area, kpath))
        # One git diff per commit, cut into one diff per path.
        whole = git(repo, *DIFF, c + '^', c, '--', *sorted(by_path), binary=True) if by_path else b''
        pieces = {}
        for piece in re.split(rb'(?m)^(?=diff --git )', whole):
            m = re.match(rb'diff --git a/(\S+) b/', piece)
            if m:
                # No blob ids: they depend on the exact 6.12.y tree, and git
                # apply does not need them.
                pieces[m.group(1).decode()] = re.sub(
                    rb'(?m)^index [0-9a-f]+\.\.[0-9a-f]+( \d+)?\n', b'', piece)
        for kpath, d in by_path.items():
            dst = os.path.join(adir, d)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, 'wb') as f:
                f.write(pieces[kpath])
            wrote.add(os.path.join(spec.area, d))
        os.makedirs(os.path.join(adir, 'series'), exist_ok=True)
        with open(os.path.join(out, spec.path), 'w', errors='surrogateescape') as f:
            f.write(spec.text(subject, body))
        wrote.add(spec.path)

    for c in created:
        print('new series file %s' % c, file=sys.stderr)

    # What no commit wrote any more: descriptions of dropped commits and the
    # files only they used. The areas' READMEs are not part of the series.
    for area in AREAS:
        for root, _, files in os.walk(os.path.join(out, area)):
            for name in files:
                rel = os.path.relpath(os.path.join(root, name), out)
                if rel not in wrote and rel != os.path.join(area, 'README.md'):
                    os.remove(os.path.join(root, name))
                    print('removed %s (no commit uses it)' % rel, file=sys.stderr)


def differences(a, b):
    """Relative paths that differ between the area trees under a and b."""
    out = []
    for area in AREAS:
        pa, pb = os.path.join(a, area), os.path.join(b, area)
        fa = {os.path.relpath(os.path.join(r, n), a) for r, _, ns in os.walk(pa) for n in ns}
        fb = {os.path.relpath(os.path.join(r, n), b) for r, _, ns in os.walk(pb) for n in ns}
        for rel in sorted(fa | fb):
            if rel not in fa or rel not in fb or not filecmp.cmp(
                    os.path.join(a, rel), os.path.join(b, rel), shallow=False):
                out.append(rel)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--by-order', action='store_true')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('repo')
    ap.add_argument('range')
    args = ap.parse_args()
    top = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        for area in AREAS:
            if os.path.isdir(area):
                shutil.copytree(area, os.path.join(tmp, area))
        try:
            import_range(args.repo, args.range, args.by_order, top, tmp)
        except ImportError_ as e:
            print('error: %s' % e, file=sys.stderr)
            return 1
        diff = differences(top, tmp)
        if args.check:
            if diff:
                print('error: importing %s would change: %s' % (args.range, ' '.join(diff)),
                      file=sys.stderr)
                return 1
            return 0
        for rel in diff:
            src, dst = os.path.join(tmp, rel), os.path.join(top, rel)
            if os.path.exists(src):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(src, dst)
            else:
                os.remove(dst)
                # And the directories that leaves empty.
                d = os.path.dirname(dst)
                while d != top and not os.listdir(d):
                    os.rmdir(d)
                    d = os.path.dirname(d)
            print(rel)
    return 0


if __name__ == '__main__':
    sys.exit(main())
