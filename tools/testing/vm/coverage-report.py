#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise an lcov tracefile of amdx (tools/testing/vm/coverage.sh).

usage: coverage-report.py --root SRC INFO --table OUT.rst --errno OUT.txt

--table: a reST table, one row per file of drivers/amdx and
drivers/amdx_sim with lines and functions covered, a total per directory
and one for both.
--errno: every `return -E...;` and `x = -E...;` line of drivers/amdx that
ran zero times, as "file:line function: text" (a line the compiler left
no counter on is marked "(no counter)").
"""
import argparse
import os
import re
import sys

ERRNO = re.compile(r'^\s*(return\s+-E[A-Z0-9]+\b|[\w.>-]+\s*=\s*-E[A-Z0-9]+\b)')
DIRS = ('drivers/amdx', 'drivers/amdx_sim')


def parse(path, root):
    """{relative file: {'lines': {n: count}, 'fns': [(line, name, hits)]}}"""
    files, cur = {}, None
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('SF:'):
                rel = os.path.relpath(line[3:], root)
                cur = files.setdefault(rel, {'lines': {}, 'fns': {}, 'hits': {}})
            elif cur is None:
                continue
            elif line.startswith('DA:'):
                n, c = line[3:].split(',')[:2]
                cur['lines'][int(n)] = cur['lines'].get(int(n), 0) + int(c)
            elif line.startswith('FN:'):
                n, name = line[3:].split(',', 1)
                cur['fns'][name] = int(n)
            elif line.startswith('FNDA:'):
                c, name = line[5:].split(',', 1)
                cur['hits'][name] = cur['hits'].get(name, 0) + int(c)
            elif line == 'end_of_record':
                cur = None
    return files


def counts(d):
    lf = len(d['lines'])
    lh = sum(1 for c in d['lines'].values() if c)
    ff = len(d['fns'])
    fh = sum(1 for n in d['fns'] if d['hits'].get(n, 0))
    return lf, lh, ff, fh


def pct(hit, total):
    return f'{100.0 * hit / total:.1f}' if total else '-'


def table(files):
    rows = []
    grand = [0, 0, 0, 0]
    for top in DIRS:
        sub = [0, 0, 0, 0]
        for rel in sorted(f for f in files if os.path.dirname(f) == top):
            c = counts(files[rel])
            if not c[0]:
                continue
            rows.append((rel, c))
            sub = [a + b for a, b in zip(sub, c)]
        rows.append((f'**{top} total**', sub))
        grand = [a + b for a, b in zip(grand, sub)]
    rows.append(('**total**', grand))
    cells = [('file', 'lines %', 'lines hit / all', 'functions %',
              'functions hit / all')]
    for name, (lf, lh, ff, fh) in rows:
        cells.append((name, pct(lh, lf), f'{lh} / {lf}', pct(fh, ff),
                      f'{fh} / {ff}'))
    width = [max(len(r[i]) for r in cells) for i in range(5)]
    rule = ' '.join('=' * w for w in width)
    out = [rule]
    for i, r in enumerate(cells):
        out.append(' '.join(c.ljust(w) for c, w in zip(r, width)).rstrip())
        if i == 0:
            out.append(rule)
    out.append(rule)
    return '\n'.join(out) + '\n'


def errnos(files, root):
    out = []
    for rel in sorted(files):
        if os.path.dirname(rel) != DIRS[0] or not rel.endswith('.c'):
            continue
        d = files[rel]
        fns = sorted((n, name) for name, n in d['fns'].items())
        with open(os.path.join(root, rel)) as f:
            src = f.read().splitlines()
        for i, text in enumerate(src, 1):
            if not ERRNO.match(text):
                continue
            c = d['lines'].get(i)
            if c:
                continue
            fn = '?'
            for n, name in fns:
                if n <= i:
                    fn = name
            note = ' (no counter)' if c is None else ''
            out.append(f'{rel}:{i} {fn}: {text.strip()}{note}')
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('info')
    ap.add_argument('--root', required=True)
    ap.add_argument('--table', required=True)
    ap.add_argument('--errno', required=True)
    a = ap.parse_args()
    files = parse(a.info, a.root)
    if not files:
        print('coverage-report: no files in ' + a.info, file=sys.stderr)
        return 1
    with open(a.table, 'w') as f:
        f.write(table(files))
    with open(a.errno, 'w') as f:
        f.writelines(l + '\n' for l in errnos(files, a.root))
    return 0


if __name__ == '__main__':
    sys.exit(main())
