#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The areas of MAINTAINERS that own a file.

usage: maintainers.py FILE...   each file's areas, most specific first
       maintainers.py --check   KTAP: every file git tracks has an area

A pattern is a path, a directory ending in "/" (everything below it) or a
glob whose "*" stays within one path component; X: lines exclude.  The
most specific area is the one whose matching pattern is longest.
"""
import fnmatch
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))


def areas():
    """[(name, [F patterns], [X patterns])] from MAINTAINERS: an area is
    a line of its own followed by its field lines ("F:\tpattern")."""
    field = re.compile(r'([A-Z]):\t(.*)$')
    with open(os.path.join(ROOT, 'MAINTAINERS')) as f:
        lines = f.read().split('\n')
    out, cur = [], None
    for i, line in enumerate(lines):
        m = field.match(line)
        if m:
            if cur is not None and m.group(1) in 'FX':
                cur[1 if m.group(1) == 'F' else 2].append(m.group(2))
        elif line and not line[0].isspace() and i + 1 < len(lines) and \
                field.match(lines[i + 1]):
            cur = (line, [], [])
            out.append(cur)
        elif not line:
            cur = None
    return out


def match(pattern, path):
    """The length of what PATTERN matches of PATH, 0 when it does not."""
    if pattern.endswith('/'):
        return len(pattern) if path.startswith(pattern) else 0
    if fnmatch.fnmatchcase(path, pattern) and \
            pattern.count('/') == path.count('/'):
        return len(pattern)
    return 0


def owners(path, table):
    found = []
    for name, inc, exc in table:
        if any(match(x, path) for x in exc):
            continue
        best = max((match(p, path) for p in inc), default=0)
        if best:
            found.append((best, name))
    return [n for _, n in sorted(found, reverse=True)]


def main():
    table = areas()
    if sys.argv[1:] == ['--check']:
        files = subprocess.run(['git', '-C', ROOT, 'ls-files'], check=True,
                               capture_output=True, text=True).stdout.split()
        orphans = [f for f in files if not owners(f, table)]
        print('TAP version 13')
        print('1..1')
        for f in orphans:
            print(f'# no area in MAINTAINERS: {f}')
        print(f'{"not ok" if orphans else "ok"} 1 every file has an area')
        return 1 if orphans else 0
    for f in sys.argv[1:]:
        rel = os.path.relpath(os.path.abspath(f), ROOT)
        print(f'{rel}: {", ".join(owners(rel, table)) or "no area"}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
