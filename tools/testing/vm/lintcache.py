#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Lint results cached per input, as ccache caches compiler output.

usage: lintcache.py [--each] TOOL [ARGS...]
   or: a symlink named after the tool (sparse, clang-tidy-14,
       clang-format-14) in a directory at the front of PATH: the tool is
       the next one of that name in PATH.

--each (and always for clang-format) runs TOOL ARGS FILE once per file
argument, in parallel, printing the results in argument order.

A run's key is the SHA-256 of: AMDX_LINT_ENV (lint.sh: every installed
package's version, this script), AMDX_LINT_ENV_CXX for clang-* (the lint
configurations) and AMDX_LINT_ENV_KERNEL for the others (the kernel tree
and its configuration), the tool's path and inode, the
arguments, the content of every argument naming a file and, for sparse,
of every file of the tree that kbuild's .cmd file of the object lists as
a dependency; for clang-tidy, the file's compile command and every file
of the tree the compiler's -M lists for it (a changed header misses
only for the translation units that include it; without AMDX_LINT_ROOT
or a command, clang-tidy runs uncached).  That list is kept per command
in AMDX_LINT_CACHE/deps with each file's digest: while every file on it
is unchanged, the compiler is not asked again (ccache's direct mode).  The tree's path
(AMDX_LINT_ROOT) is written as @ROOT@ in what is hashed and stored, so
another clone of the same content hits.  A hit replays the stored exit
status, stdout and stderr; a changed file always misses.  Entries live in
AMDX_LINT_CACHE (default /var/cache/amdx/lint); lint.sh drops those
unused for 14 days.  Without AMDX_LINT_ENV the tool runs uncached.
"""
import concurrent.futures
import glob
import hashlib
import json
import os
import shlex
import subprocess
import sys

ROOT = os.environ.get('AMDX_LINT_ROOT', '')
CACHE = os.environ.get('AMDX_LINT_CACHE', '/var/cache/amdx/lint')


def norm(s):
    return s.replace(ROOT, '@ROOT@') if ROOT else s


def unnorm(s):
    return s.replace('@ROOT@', ROOT) if ROOT else s


def find_tool(name):
    """The first NAME in PATH that is not this script."""
    me = os.path.realpath(__file__)
    for d in os.environ.get('PATH', '').split(os.pathsep):
        p = os.path.join(d, name)
        if os.access(p, os.X_OK) and os.path.realpath(p) != me:
            return p
    sys.exit(f'lintcache: no {name} in PATH')


def file_digest(h, path):
    h.update(norm(os.path.abspath(path)).encode() + b'\0')
    with open(path, 'rb') as f:
        h.update(hashlib.sha256(f.read()).digest())


def content_digest(path):
    """The SHA-256 of the file's content, hex."""
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def kbuild_deps(src):
    """The tree's files kbuild recorded as the object's dependencies
    (lint.sh builds the modules first), or None without a .cmd file."""
    d, base = os.path.split(os.path.abspath(src))
    cmd = glob.glob(os.path.join(d, '.' + os.path.splitext(base)[0] + '.o.cmd'))
    if not cmd:
        return None
    deps, inside = [], False
    with open(cmd[0], errors='replace') as f:
        for line in f:
            if line.startswith('deps_'):
                inside = True
                continue
            if not inside:
                continue
            tok = line.strip().rstrip('\\').strip()
            if not tok:
                continue
            if ':' in tok and not tok.startswith('$('):
                break
            if tok.startswith('$('):
                continue
            deps.append(tok)
    return sorted(set(p for p in deps if os.path.abspath(p).startswith(ROOT + '/')))


def command_deps(cmd, cwd):
    """(the command, every file of the tree it includes) for one compile
    command run in cwd, from the compiler's own -M; None when the
    compiler fails."""
    # The last -M's list for the same command, when every file on it is
    # unchanged: what the compiler would list again (a changed file can
    # include others, and its digest differs; ccache's direct mode).
    line = ' '.join(cmd)
    mh = hashlib.sha256(os.environ.get('AMDX_LINT_ENV', '').encode() +
                        b'\0' + norm(cwd).encode() + b'\0' +
                        norm(line).encode())
    manifest = os.path.join(CACHE, 'deps', mh.hexdigest())
    try:
        with open(manifest) as f:
            known = json.load(f)
        if all(content_digest(unnorm(p)) == d for p, d in known):
            os.utime(manifest)
            return line, [unnorm(p) for p, _ in known]
    except (OSError, ValueError, TypeError):
        pass
    out, skip = [], False
    for a in cmd:  # the command without its output: preprocess only
        if skip:
            skip = False
        elif a == '-o':
            skip = True
        elif a != '-c':
            out.append(a)
    p = subprocess.run(out + ['-M', '-MF', '/dev/stdout', '-E', '-o',
                              '/dev/null'], cwd=cwd, capture_output=True,
                       text=True, errors='replace')
    if p.returncode:
        return None
    deps = p.stdout.replace('\\\n', ' ').split(':', 1)[-1].split()
    deps = sorted(set(os.path.abspath(os.path.join(cwd, d)) for d in deps))
    deps = [d for d in deps if d.startswith(ROOT + '/')]
    try:
        os.makedirs(os.path.dirname(manifest), exist_ok=True)
        tmp = f'{manifest}.{os.getpid()}.tmp'
        with open(tmp, 'w') as f:
            json.dump([[norm(d), content_digest(d)] for d in deps], f)
        os.replace(tmp, manifest)
    except OSError:
        pass
    return line, deps


def tidy_deps(argv):
    """clang-tidy's input beyond the file: (its compile commands, every
    file of the tree they include), from the compilation database (-p
    DIR) or the flags after "--"; None when they cannot be had (the run
    is then not cached).  A file the database lists more than once (two
    targets build it) is linted once per command, so every command is
    part of the key: a TU of two targets ran uncached in every lint."""
    files = [a for a in argv[1:] if os.path.isfile(a)]
    if len(files) != 1:
        return None
    src = os.path.abspath(files[0])
    if '--' in argv:
        cmds = [(['g++'] + argv[argv.index('--') + 1:] + [src], os.getcwd())]
    elif '-p' in argv:
        db = os.path.join(argv[argv.index('-p') + 1], 'compile_commands.json')
        try:
            with open(db) as f:
                cmds = [(e.get('arguments') or shlex.split(e['command']),
                         e['directory'])
                        for e in json.load(f)
                        if os.path.abspath(os.path.join(e['directory'],
                                                        e['file'])) == src]
        except (OSError, ValueError, KeyError):
            return None
    else:
        return None
    if not cmds:
        return None
    lines, deps = [], set()
    for cmd, cwd in cmds:
        got = command_deps(cmd, cwd)
        if got is None:
            return None
        lines.append(got[0])
        deps.update(got[1])
    return '\n'.join(lines), sorted(deps)


def key(argv, tool):
    h = hashlib.sha256()
    h.update(os.environ['AMDX_LINT_ENV'].encode() + b'\0')
    name = os.path.basename(tool)
    if name.startswith('clang-'):
        h.update(os.environ.get('AMDX_LINT_ENV_CXX', '').encode() + b'\0')
    else:
        h.update(os.environ.get('AMDX_LINT_ENV_KERNEL', '').encode() + b'\0')
    st = os.stat(os.path.realpath(tool))
    h.update(f'{os.path.realpath(tool)} {st.st_ino} {st.st_size} '
             f'{st.st_mtime_ns}\0'.encode())
    for a in argv[1:]:
        h.update(norm(a).encode() + b'\0')
        if os.path.isfile(a):
            file_digest(h, a)
    if name == 'sparse':
        deps = kbuild_deps(argv[-1])
        if deps is None:
            return None
        for p in deps:
            file_digest(h, p)
    if name.startswith('clang-tidy'):
        td = tidy_deps(argv)
        if td is None or not ROOT:
            return None
        h.update(norm(td[0]).encode() + b'\0')
        for p in td[1]:
            file_digest(h, p)
    return h.hexdigest()


def run(argv, tool):
    """(status, stdout, stderr) of argv, from the cache when it can."""
    k = key(argv, tool) if 'AMDX_LINT_ENV' in os.environ else None
    path = k and os.path.join(CACHE, k[:2], k)
    if path and os.path.exists(path):
        try:
            with open(path) as f:
                e = json.load(f)
            os.utime(path)
            return e['status'], unnorm(e['stdout']), unnorm(e['stderr'])
        except (OSError, ValueError, KeyError):
            pass
    p = subprocess.run([tool] + argv[1:], capture_output=True, text=True,
                       errors='replace')
    # A tool killed by a signal (status < 0) says nothing about the file.
    if path and p.returncode >= 0:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f'{path}.{os.getpid()}.tmp'
        with open(tmp, 'w') as f:
            json.dump({'status': p.returncode, 'stdout': norm(p.stdout),
                       'stderr': norm(p.stderr)}, f)
        os.replace(tmp, path)
    return p.returncode, p.stdout, p.stderr


def main():
    argv = sys.argv[:]
    each = False
    if os.path.basename(argv[0]).startswith('lintcache'):
        argv = argv[1:]
        if argv and argv[0] == '--each':
            each = True
            argv = argv[1:]
        if not argv:
            sys.exit(__doc__)
        tool = argv[0] if os.sep in argv[0] else find_tool(argv[0])
    else:
        tool = find_tool(os.path.basename(argv[0]))
    each = each or os.path.basename(tool).startswith('clang-format')
    if not each:
        status, out, err = run(argv, tool)
        sys.stdout.write(out)
        sys.stderr.write(err)
        return status
    opts = [a for a in argv[1:] if not os.path.isfile(a)]
    files = [a for a in argv[1:] if os.path.isfile(a)]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as ex:
        results = list(ex.map(lambda f: run([argv[0]] + opts + [f], tool),
                              files))
    status = 0
    for s, out, err in results:
        sys.stdout.write(out)
        sys.stderr.write(err)
        status = status or s
    return status


if __name__ == '__main__':
    sys.exit(main())
