#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise an lcov tracefile of amdx (tools/testing/vm/coverage.sh).

usage: coverage-report.py --root SRC INFO --table OUT.rst --errno OUT.txt

--table: a reST table, one row per file of drivers/amdx and
drivers/amdx_sim with lines and functions covered, a total per directory
and one for both.
--errno: every `return -E...;` and `x = -E...;` line of drivers/amdx that
ran zero times, as "file:line function: text".  At -O2 gcc leaves most
of these lines no counter of their own (the constant is loaded on the
jump to a shared exit); such a line counts as run as often as the
statement before it in the same block (amdx logs the cause before it
returns an errno), found by walking back to the nearest line with a
counter without crossing a line that opens or closes a block; or, as
the body of an `if`, as often as the `if` ran minus how often the line
after the body at the `if`'s depth ran; or, with branch counters
(lcov's BRDA), as run when every branch of the governing `if`'s
condition was taken (the body's first block is the target of one of
them), and as not run when the `if` never ran.  A line none of these
decide is listed, marked "(no counter)".
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
                cur = files.setdefault(rel, {'lines': {}, 'fns': {}, 'hits': {},
                                             'br': {}})
            elif cur is None:
                continue
            elif line.startswith('DA:'):
                n, c = line[3:].split(',')[:2]
                cur['lines'][int(n)] = cur['lines'].get(int(n), 0) + int(c)
            elif line.startswith('BRDA:'):
                n, block, branch, taken = line[5:].split(',')[:4]
                arcs = cur['br'].setdefault(int(n), {})
                key = (block, branch)
                arcs[key] = arcs.get(key, 0) + (0 if taken == '-' else int(taken))
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


def before(src, lines, i):
    """The counter of the statement before line @i in its block, or None.

    The line before @i must end a statement (``;``): otherwise @i is the
    body of a braceless ``if``, whose counter says how often the condition
    ran, not the errno.
    """
    j = i - 1
    while j > 0 and not src[j - 1].strip():
        j -= 1
    if j < 1 or not src[j - 1].rstrip().endswith(';'):
        return None
    while j > 0:
        text = src[j - 1].strip()
        if text.endswith('{') or text.startswith('}'):
            return None
        if j in lines:
            if re.match(r'(if|else|for|while|do)\b', text):
                return None
            return lines[j]
        j -= 1
    return None


def indent(text):
    return len(text) - len(text.lstrip('\t'))


def governing_if(src, lines, i):
    """The ``if`` line that governs line @i, or None.

    The nearest line above with a counter, reached through lines without
    one (its condition's continuation, a ``{``), must be an ``if``.
    """
    g = i - 1
    while g > 0 and g not in lines:
        if src[g - 1].strip().startswith('}'):
            return None
        g -= 1
    if g < 1 or not re.match(r'(\}\s*else\s+)?if\b', src[g - 1].strip()):
        return None
    return g


def governed(src, lines, i):
    """How often line @i ran when it is the body of an ``if``, or None.

    The ``if`` is governing_if()'s; the first line after @i at its own
    depth with a counter is where the ``if`` goes on when its condition is
    false.  The
    difference of the two counts is how often the body ran (a ``return``
    or a ``goto`` leaves it, so it never falls through).
    """
    g = governing_if(src, lines, i)
    if g is None:
        return None
    depth = indent(src[g - 1])
    # The body must leave: else the line after it counts the body too.
    last = i
    if src[g - 1].rstrip().endswith('{'):
        e = i + 1
        while e <= len(src) and not (indent(src[e - 1]) == depth and
                                     src[e - 1].strip().startswith('}')):
            if src[e - 1].strip():
                last = e
            e += 1
    if not re.match(r'(return|goto|break|continue)\b', src[last - 1].strip()):
        return None
    n = i + 1
    while n <= len(src):
        text = src[n - 1]
        if text.strip():
            if indent(text) < depth or re.match(r'\w+:', text):
                return None
            if indent(text) == depth and n in lines and \
               not text.strip().startswith('}'):
                return lines[g] - lines[n]
        n += 1
    return None


def if_above(src, i):
    """The first line of the ``if`` whose body line @i is, or None.

    The body must be straight-line code up to @i (statements at @i's
    depth, none that leaves or branches), so that entering the body means
    reaching @i; the condition may continue over several lines.
    """
    d = indent(src[i - 1])
    j = i - 1
    while j > 0 and (not src[j - 1].strip() or indent(src[j - 1]) >= d):
        text = src[j - 1].strip()
        if text and (indent(src[j - 1]) > d or text.endswith('{') or
                     re.match(r'(return|goto|break|continue|if|for|while|'
                              r'switch|do|case|default)\b', text)):
            return None
        j -= 1
    while j > 0:
        text = src[j - 1].strip()
        if re.match(r'(\}\s*else\s+)?if\b', text):
            return j
        prev = src[j - 2].rstrip() if j > 1 else ''
        if indent(src[j - 1]) != d - 1 or not prev.strip() or \
           prev.endswith((';', '{', '}')):
            return None
        j -= 1
    return None


def branched(src, lines, br, i):
    """How often line @i ran, from the branch counters of its ``if``.

    1 when every branch of the ``if``'s condition (its lines up to the
    one that opens the body) was taken: one of them leads into the body,
    and the body runs straight to @i.  0 when the ``if`` never ran.  None
    otherwise.
    """
    g = if_above(src, i)
    if g is None:
        g = governing_if(src, lines, i)
    if g is None:
        return None
    if lines.get(g) == 0:
        return 0
    arcs = []
    for c in range(g, i):
        arcs += br.get(c, {}).values()
        if src[c - 1].rstrip().endswith('{'):
            break
    if arcs and all(arcs):
        return 1
    return None


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
            if c is None:
                c = before(src, d['lines'], i)
            if c is None:
                c = governed(src, d['lines'], i)
            if c is None:
                c = branched(src, d['lines'], d['br'], i)
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
