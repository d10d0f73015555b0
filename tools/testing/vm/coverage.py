#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make coverage: turn the guest's gcov counters into a per-file table.

usage: coverage.py RESULTS_LOG ROOT OUTDIR

The guest prints each .gcda of the modules (debugfs gcov, kept after
unload) base64-encoded in the "### gcov" section of RESULTS_LOG, named by
its build path.  They are written next to the .gcno files of the tree
(ROOT), lcov (Debian) reads them, and this prints line and function
coverage per file of drivers/amdx and drivers/amdx_sim, then the
`return -E...` lines of drivers/amdx no test reached.  Exit 1 when there
is no coverage data.
"""
import base64
import os
import re
import subprocess
import sys


def extract(log, root):
    cur, chunks, n = None, [], 0

    def flush():
        nonlocal n
        if cur and cur.startswith(root + '/drivers/'):
            with open(cur, 'wb') as f:
                f.write(base64.b64decode(''.join(chunks)))
            n += 1
    insec = False
    for line in open(log, errors='replace'):
        line = line.rstrip('\r\n')
        if line.startswith('### '):
            if insec:
                flush()
                cur = None
            insec = line == '### gcov'
            continue
        if not insec:
            continue
        if line.startswith('@@ '):
            flush()
            cur, chunks = line[3:], []
        elif cur:
            chunks.append(line.strip())
    if insec:
        flush()
    return n


def parse_info(path):
    files, cur = {}, None
    for line in open(path):
        line = line.strip()
        if line.startswith('SF:'):
            cur = files.setdefault(line[3:], {'da': {}, 'fnf': 0, 'fnh': 0})
        elif line.startswith('DA:') and cur is not None:
            ln, cnt = line[3:].split(',')[:2]
            cur['da'][int(ln)] = cur['da'].get(int(ln), 0) + int(cnt)
        elif line.startswith('FNF:'):
            cur['fnf'] += int(line[4:])
        elif line.startswith('FNH:'):
            cur['fnh'] += int(line[4:])
    return files


def main():
    log, root, out = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    os.makedirs(out, exist_ok=True)
    for d in ('drivers/amdx', 'drivers/amdx_sim'):
        for f in os.listdir(os.path.join(root, d)):
            if f.endswith('.gcda'):
                os.unlink(os.path.join(root, d, f))
    n = extract(log, root)
    print(f'[coverage] {n} .gcda files from the guest')
    if not n:
        print('[coverage] no coverage data (is CONFIG_GCOV_KERNEL set?)')
        return 1
    info = os.path.join(out, 'amdx.info')
    subprocess.run(['lcov', '--quiet', '--capture', '--rc',
                    'lcov_function_coverage=1',
                    '--directory', os.path.join(root, 'drivers/amdx'),
                    '--directory', os.path.join(root, 'drivers/amdx_sim'),
                    '--base-directory', root, '--output-file', info],
                   check=True, stdout=subprocess.DEVNULL)
    files = parse_info(info)
    rows, totals = [], {}
    for path in sorted(files):
        rel = os.path.relpath(path, root)
        m = re.match(r'(drivers/amdx(_sim)?)/[^/]+\.c$', rel)
        if not m:
            continue
        d = files[path]
        lf = len(d['da'])
        lh = sum(1 for c in d['da'].values() if c)
        rows.append((rel, lh, lf, d['fnh'], d['fnf']))
        t = totals.setdefault(m.group(1), [0, 0, 0, 0])
        for i, v in enumerate((lh, lf, d['fnh'], d['fnf'])):
            t[i] += v

    def pct(a, b):
        return f'{100.0 * a / b:5.1f}%' if b else '   - '
    w = max(len(r[0]) for r in rows)
    print(f'[coverage] {"file":<{w}}  {"lines":>15}  {"functions":>13}')
    for rel, lh, lf, fh, ff in rows:
        print(f'[coverage] {rel:<{w}}  {pct(lh, lf)} {lh:4}/{lf:<4}  '
              f'{pct(fh, ff)} {fh:3}/{ff:<3}')
    for d, (lh, lf, fh, ff) in sorted(totals.items()):
        print(f'[coverage] {d + " (total)":<{w}}  {pct(lh, lf)} {lh:4}/{lf:<4}  '
              f'{pct(fh, ff)} {fh:3}/{ff:<3}')
    # Error returns no test reached.
    missed = []
    for path in sorted(files):
        rel = os.path.relpath(path, root)
        if not re.match(r'drivers/amdx/[^/]+\.c$', rel):
            continue
        src = open(path, errors='replace').read().splitlines()
        for ln, cnt in sorted(files[path]['da'].items()):
            if cnt == 0 and ln <= len(src) and \
                    re.search(r'return -E[A-Z0-9]+;', src[ln - 1]):
                missed.append(f'{rel}:{ln}: {src[ln - 1].strip()}')
    print(f'[coverage] return -E... lines in drivers/amdx no test reached: '
          f'{len(missed)}')
    for m in missed:
        print(f'[coverage]   {m}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
