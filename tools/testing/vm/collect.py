#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one test-VM run: parse the KTAP of every suite with the kernel's
own kunit_parser, require every expected suite, and scan the console for
KASAN, lockdep, WARN/BUG/oops and kmemleak reports.

usage: collect.py KUNIT_DIR OUTDIR --label L --expect kunit:NAME ...
Prints a report and, last, 'counts: P F S'.  Exit 1 when the run failed.
"""
import argparse
import io
import re
import sys
from contextlib import redirect_stdout

SPLATS = re.compile(
    r'(BUG: |WARNING: |Oops|KASAN|kernel BUG|INFO: possible|'
    r'INFO: trying to register|INFO: task .* blocked|Kernel panic|'
    r'general protection fault|UBSAN|unreferenced object|'
    r'DEBUG_LOCKS_WARN_ON|inconsistent lock state|'
    r'suspicious RCU usage|sleeping function called from invalid)')


# An oops's own account, kept with it: where it happened and how it got
# there (a CI log cut to its tail still says where).
OOPS = re.compile(r'(Oops|BUG: |kernel BUG|general protection fault)')
OOPS_DETAIL = re.compile(r'(RIP: |Call Trace|\] +(\? )?[\w.]+\+0x[0-9a-f]+/)')


def splat_lines(lines):
    """The kernel log's splat lines; after an oops, its RIP and call trace."""
    out = []
    for i, line in enumerate(lines):
        if SPLATS.search(line):
            out.append(line)
            if OOPS.search(line):
                out.extend([l for l in lines[i + 1:i + 60]
                            if OOPS_DETAIL.search(l)][:16])
    return out


def sections(path):
    cur, out = None, {}
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            if line.startswith('### '):
                cur = line[4:].strip()
                out[cur] = []
            elif cur is not None:
                out[cur].append(line + '\n')
    return out


def kunit_lines(lines):
    """Suites run at module load print no top-level KTAP header in 6.1:
    add one, planning as many suites as reported results.  6.12 prints
    its own: keep it."""
    if any(l.startswith('KTAP version') for l in lines):
        return lines
    n = sum(1 for l in lines if re.match(r'(ok|not ok) \d+ ', l))
    return ['KTAP version 1\n', f'1..{n}\n'] + lines


def kselftest_lines(lines):
    """6.1's kselftest_harness.h prints a skipped test as "ok N # SKIP why",
    without its name, which kunit_parser counts as a crash: put back the
    name from the harness's "#  RUN  name ..." line."""
    out, last = [], 'skipped'
    for l in lines:
        m = re.match(r'#\s+RUN\s+(\S+) \.\.\.', l)
        if m:
            last = m.group(1)
        m = re.match(r'(ok \d+) # SKIP(.*)', l)
        if m:
            l = f'{m.group(1)} {last} # SKIP{m.group(2)}\n'
        out.append(l)
    return out


def failed_tests(test, prefix=''):
    """(dotted name, log) of the failed or crashed leaf tests under test."""
    out = []
    for t in test.subtests:
        full = f'{prefix}{t.name}'
        if t.subtests:
            out.extend(failed_tests(t, full + '.'))
        elif t.status.name in ('FAILURE', 'TEST_CRASHED'):
            out.append((full, t.log))
    return out


# The diagnostics of the first failures go with their names into the
# summary (lib.sh prints them last, where a log cut to its tail keeps
# them): the harness's own "RUN"/"OK" lines say nothing.
DETAILED, DETAIL_LINES = 3, 8


def detail(log):
    keep = [l.strip() for l in log
            if l.strip() and not re.match(r'#?\s*(RUN|OK)\s', l.strip())]
    return [f'    | {l}' for l in keep[-DETAIL_LINES:]]


def clock_note(outdir, secs):
    """The guest's seconds against QEMU's wall time: a guest clock that
    ran fast (a bad TSC calibration under TCG) makes every timeout in the
    guest fire early, which explains failures nothing else does."""
    try:
        wall = int(open(f'{outdir}/time').read().split()[0])
        end = int([l for l in secs.get('end', [])
                   if l.startswith('# seconds=')][-1].split('=')[1])
    except (OSError, ValueError, IndexError):
        return None
    if wall > 0 and end > 1.5 * wall + 30:
        return (f'guest clock ran {end / wall:.1f}x the host\'s '
                f'({end} guest s in {wall} s of QEMU wall time)')
    return None


def print_seconds(label, secs):
    """guest-init.sh ends each section with "# seconds=N" (for "begin"
    and "end": seconds since boot): print the boot, the total and every
    suite, slowest first."""
    boot = end = None
    took = []
    for name, lines in secs.items():
        n = [int(m.group(1)) for m in
             (re.match(r'# seconds=(\d+)$', l.strip()) for l in lines) if m]
        if not n:
            continue
        if name.startswith('begin '):
            boot = n[-1]
        elif name == 'end':
            end = n[-1]
        else:
            took.append((n[-1], re.sub(r'^(kunit|kselftest) ', '', name)))
    if boot is None and not took:
        return
    took.sort(key=lambda t: -t[0])
    print(f'[{label}] seconds: boot {boot}, all {end}; ' +
          ', '.join(f'{name} {n}' for n, name in took))


def print_slowest(label, secs, n=8):
    """amdx_harness.h prints "# time: N ms NAME" after each kselftest
    case: print the n slowest of the run, where its time goes."""
    took = []
    for name, lines in secs.items():
        if not name.startswith('kselftest '):
            continue
        for l in lines:
            m = re.match(r'# time: (\d+) ms (\S+)', l.strip())
            if m:
                took.append((int(m.group(1)), m.group(2)))
    if took:
        took.sort(key=lambda t: -t[0])
        print(f'[{label}] slowest tests: ' +
              ', '.join(f'{name} {ms / 1000:.0f}' for ms, name in took[:n]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('kunit_dir')
    ap.add_argument('outdir')
    ap.add_argument('--label', default='vm')
    ap.add_argument('--expect', action='append', default=[])
    a = ap.parse_args()
    sys.path.insert(0, a.kunit_dir)
    import kunit_parser  # noqa: E402  (the kernel's own KTAP parser)

    secs = sections(f'{a.outdir}/results.log')
    console = open(f'{a.outdir}/console.log', errors='replace').read()
    passed = failed = skipped = 0
    problems = []
    detailed = 0

    kunit_suites = set()
    for name in secs:
        if name.startswith('kunit '):
            secs[name] = kunit_lines(secs[name])
        elif name.startswith('kselftest '):
            secs[name] = kselftest_lines(secs[name])
    for name, lines in secs.items():
        if name.startswith('kunit '):
            buf = io.StringIO()
            with redirect_stdout(buf):
                t = kunit_parser.parse_run_tests(lines)
            kunit_suites.update('kunit ' + s.name for s in t.subtests)
    for name in a.expect:
        if name not in secs and name not in kunit_suites:
            problems.append(f'missing suite: {name}')
            failed += 1

    for name, lines in secs.items():
        kind = name.split(' ', 1)[0]
        if kind not in ('kunit', 'kselftest'):
            continue
        exit_line = [l for l in lines if l.startswith('# exit=')]
        buf = io.StringIO()
        with redirect_stdout(buf):
            test = kunit_parser.parse_run_tests(lines)
        c = test.counts
        ok = c.failed == 0 and c.crashed == 0 and c.errors == 0 \
            and c.total() > 0
        if exit_line and exit_line[-1].strip() not in ('# exit=0', '# exit=4'):
            # kselftest: 4 = KSFT_SKIP for a binary that skipped whole.
            ok = False
            problems.append(f'{name}: {exit_line[-1].strip()}')
        passed += c.passed
        skipped += c.skipped
        failed += c.failed + c.crashed
        if not ok:
            if c.failed + c.crashed == 0:
                failed += 1
            problems.append(f'{name}: {c}')
            for t, log in failed_tests(test):
                problems.append(f'  {name}: {t} FAILED')
                if detailed < DETAILED:
                    problems.extend(detail(log))
                    detailed += 1
            sys.stdout.write(buf.getvalue())
        print(f'[{a.label}] {name}: {c}')

    print_seconds(a.label, secs)
    print_slowest(a.label, secs)
    if 'end' not in secs:
        problems.append('guest did not reach the end of the run')
    if 'kmemleak' in secs and any(l.strip() for l in secs['kmemleak']):
        problems.append('kmemleak reported leaks:')
        problems.extend('  ' + l.rstrip() for l in secs['kmemleak'][:40])
    splat = splat_lines(console.splitlines())
    if splat:
        problems.append('kernel log shows a splat:')
        problems.extend('  ' + l for l in splat[:40])

    note = clock_note(a.outdir, secs)
    if note:
        print(f'[{a.label}] note: {note}')
        if problems:
            problems.append(note)
    if problems:
        print(f'[{a.label}] FAILED:')
        for p in problems:
            print(f'[{a.label}]   {p}')
        print(f'[{a.label}] console tail:')
        for l in console.splitlines()[-60:]:
            print(f'[{a.label}] | {l}')
        if not failed:
            failed = 1
    print(f'counts: {passed} {failed} {skipped}')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
