#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""KUnit's nested KTAP from a kernel log, as one flat TAP line per case.

usage: kunit-cases.py KUNIT_DIR LOG PREFIX
Parses LOG with the kernel's own kunit_parser (KUNIT_DIR: a tree's
tools/testing/kunit) and prints "ok - PREFIX suite.case" or "not ok -
PREFIX suite.case" for every leaf case (parameterised cases by their
parameter's name; a skipped one with "# SKIP reason"), then "# suites: N".
amdgpu-check.sh numbers the lines into its own KTAP.
"""
import io
import os
import sys
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from collect import kunit_lines  # noqa: E402


def leaves(test, prefix):
    for t in test.subtests:
        name = f'{prefix}.{t.name}' if prefix else t.name
        if t.subtests:
            yield from leaves(t, name)
        else:
            yield name, t


def main():
    kunit_dir, log, prefix = sys.argv[1:4]
    sys.path.insert(0, kunit_dir)
    import kunit_parser  # noqa: E402  (the kernel's own KTAP parser)

    lines = kunit_lines(open(log, errors='replace').readlines())
    with redirect_stdout(io.StringIO()):
        run = kunit_parser.parse_run_tests(lines)
    for name, t in leaves(run, ''):
        status = t.status.name
        if status == 'SUCCESS':
            print(f'ok - {prefix} {name}')
        elif status == 'SKIPPED':
            print(f'ok - {prefix} {name} # SKIP')
        else:
            print(f'not ok - {prefix} {name}')
            for line in t.log[-30:]:
                print(f'# {line.rstrip()}')
    print(f'# suites: {len(run.subtests)}')


if __name__ == '__main__':
    main()
