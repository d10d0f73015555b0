#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the include graph and the call graph of drivers/amdx run one way.

The files of drivers/amdx are layered (drivers/amdx/Kbuild,
Documentation/internals.rst): leaves, the device and the event log, the
gates, the features, the front.  Kbuild lists them bottom-up: a file may
depend on the files listed before it only, so nothing below may depend on
something above and the dependency graph has no cycle.  This test builds
that graph from the sources and fails on any cycle and on any dependency
on a file listed later.

The include graph, by file basename:

- a node per .c file of drivers/amdx (tests/ and the build's *.mod.c
  excluded);
- a header belongs to the .c files that define what it declares (a
  function prototype or an extern variable); a header with no such file
  (types, inline helpers) belongs to nobody;
- A.c -> B.c when A.c includes, directly or through other headers, a
  header that belongs to B.c.

Headers do not show everything that links: a tracepoint, for one, is
declared by a macro and defined where CREATE_TRACE_POINTS is.  So the
same rules are checked on the call graph of the built objects too, read
with nm: A.o -> B.o when A.o uses a symbol B.o defines.  Its objects are
the ones kbuild linked into amdx.ko (amdx.mod) in each directory given
with --objects, by default drivers/amdx and build/src/*/drivers/amdx
(make check's per-kernel builds) where built, each against the Kbuild
beside it; a directory whose sources are newer than its objects is
skipped, and with none left that test is.

The layers are drivers/amdx/Kbuild's groups ("# N. ..." comments, then
the objects up to the next one), and the order is the order of the
objects in the file.  Strongly connected components of more than one
file are cycles, and none is allowed: inside a feature too, files call
down only (the HMM wing, drivers/amdx/Kbuild, is split so that they do).

usage: include-graph.py [--dir DIR] [--objects DIR]... [--dot]
  --dir      the directory to check (default: the repository's drivers/amdx)
  --objects  a directory of amdx's built objects (repeatable)
  --dot      print the include graph in Graphviz dot instead
Prints KTAP; exit status 0 when no cycle exists.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LAYER = re.compile(r"^#\s*(\d+)\.")
OBJECT = re.compile(r"\b(amdx_\w+)\.o\b")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# A prototype at file scope: "type name(...);", not static (inline).
DECL = re.compile(r"^(?!static\b|#|\s)[^;{}()#]*?\b(\w+)\s*\([^;{}]*\)\s*;",
                  re.M)
EXTERN = re.compile(r"^extern\b[^;(]*?\b(\w+)\s*(?:\[[^\]]*\])?\s*;", re.M)
# A definition at file scope: "type name(...) {" or "type name = ...".
DEFN = re.compile(r"^(?!static\b|#|\s)[^;{}()=#]*?\b(\w+)\s*\([^;{}]*\)\s*\{",
                  re.M)
VARDEF = re.compile(r"^(?!static\b|extern\b|#|\s)(?:const\s+)?"
                    r"(?:struct\s+)?\w+[\s*]+(\w+)\s*(?:\[[^\]]*\])?\s*=",
                    re.M)


def load(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def strip(text):
    """Drop comments and line continuations."""
    return COMMENT.sub(" ", text).replace("\\\n", " ")


def build(srcdir):
    """Return (units, deps): the .c basenames and unit -> set of units."""
    files = sorted(f for f in os.listdir(srcdir)
                   if f.endswith((".c", ".h")) and not f.endswith(".mod.c"))
    raw = {f: load(os.path.join(srcdir, f)) for f in files}
    text = {f: strip(raw[f]) for f in files}
    incs = {f: [os.path.basename(i) for i in INCLUDE.findall(text[f])
                if os.path.basename(i) in raw] for f in files}
    units = [f for f in files if f.endswith(".c")]

    defined = {}
    for c in units:
        for name in DEFN.findall(text[c]) + VARDEF.findall(text[c]):
            defined.setdefault(name, set()).add(c)
    owners = {}
    for h in (f for f in files if f.endswith(".h")):
        names = set(DECL.findall(text[h])) | set(EXTERN.findall(text[h]))
        owners[h] = set()
        for name in names:
            owners[h] |= defined.get(name, set())

    def reach(f):
        seen, todo = set(), list(incs[f])
        while todo:
            i = todo.pop()
            if i not in seen:
                seen.add(i)
                todo.extend(incs[i])
        return seen

    deps = {}
    for c in units:
        deps[c] = set()
        for h in reach(c):
            deps[c] |= owners.get(h, set())
        deps[c].discard(c)
    return units, deps


def layers(srcdir):
    """Map each .c basename to (its Kbuild group number, its position)."""
    layer, out = None, {}
    with open(os.path.join(srcdir, "Kbuild"), encoding="utf-8") as f:
        for line in f:
            m = LAYER.match(line)
            if m:
                layer = int(m.group(1))
            elif layer is not None and not line.startswith("#"):
                for obj in OBJECT.findall(line):
                    out.setdefault(obj + ".c", (layer, len(out)))
    return out


def objects(objdir):
    """Return (units, deps) of the call graph of objdir's amdx.ko objects.

    Units are named by their source's basename, as in build().
    """
    with open(os.path.join(objdir, "amdx.mod"), encoding="utf-8") as f:
        objs = [os.path.basename(o) for o in f.read().split()]
    defined, used = {}, {}
    for o in objs:
        out = subprocess.run(["nm", os.path.join(objdir, o)], check=True,
                             capture_output=True, text=True).stdout
        unit = o[:-2] + ".c"
        used[unit] = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0] == "U":
                used[unit].add(f[1])
            elif len(f) == 3 and f[1] in "BDGRTVW":
                defined.setdefault(f[2], set()).add(unit)
    deps = {u: set().union(*(defined.get(s, set()) for s in used[u])) - {u}
            for u in used}
    return sorted(used), deps


def object_dirs():
    """The directories of amdx's built objects, where built."""
    dirs = [os.path.join(ROOT, "drivers/amdx")]
    dirs += sorted(glob.glob(os.path.join(ROOT, "build/src/*/drivers/amdx")))
    return [d for d in dirs if os.path.exists(os.path.join(d, "amdx.mod"))]


def stale(objdir):
    """Whether a source or Kbuild in objdir is newer than its amdx.mod."""
    built = os.path.getmtime(os.path.join(objdir, "amdx.mod"))
    return any(os.path.getmtime(os.path.join(objdir, f)) > built
               for f in os.listdir(objdir)
               if f == "Kbuild" or (f.endswith((".c", ".h")) and
                                    not f.endswith(".mod.c")))


def check(units, deps, layer, what):
    """Print the problems of one graph; return (cycles?, order problems?)."""
    cycles = sorted((c for c in sccs(units, deps) if len(c) > 1),
                    key=lambda c: sorted(c))
    for c in cycles:
        print(f"# {what}: cycle: {' '.join(sorted(c))}")
        for u in sorted(c):
            print(f"#   {u} -> {' '.join(sorted(deps[u] & c))}")
    unlayered = [u for u in units if u not in layer]
    for u in unlayered:
        print(f"# {what}: {u}: in no layer of Kbuild")
    upward = [(u, d) for u in units for d in sorted(deps[u])
              if u in layer and d in layer and layer[d] > layer[u]]
    for u, d in upward:
        where = ("listed after it" if layer[d][0] == layer[u][0]
                 else f"layer {layer[d][0]}")
        print(f"# {what}: {u} (layer {layer[u][0]}) -> {d} ({where})")
    return bool(cycles), bool(unlayered or upward)


def sccs(nodes, deps):
    """Tarjan's algorithm, iterative."""
    index, low, stack, on, out = {}, {}, [], set(), []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        work = [(root, iter(sorted(deps[root])))]
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.add(x)
                        if x == v:
                            break
                    out.append(comp)
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(deps[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=os.path.join(ROOT, "drivers/amdx"))
    ap.add_argument("--objects", action="append")
    ap.add_argument("--dot", action="store_true")
    args = ap.parse_args()

    units, deps = build(args.dir)
    if args.dot:
        print("digraph amdx {")
        for u in units:
            for d in sorted(deps[u]):
                print(f'\t"{u}" -> "{d}";')
        print("}")
        return 0

    layer = layers(args.dir)
    print("KTAP version 1")
    print("1..4")
    print(f"# {len(units)} files, "
          f"{sum(len(d) for d in deps.values())} dependencies")
    print(f"{'ok' if units else 'not ok'} 1 include_graph_built")
    cyc, order = check(units, deps, layer, "includes")
    fail_cyc, fail_order = cyc, order
    print(f"{'not ok' if cyc else 'ok'} 2 no_cycle")
    print(f"{'not ok' if order else 'ok'} 3 no_dependency_on_a_file_listed_later")

    dirs = args.objects if args.objects is not None else object_dirs()
    cyc = order = False
    for d in list(dirs):
        # Objects are checked against the Kbuild they were built from.
        if stale(d):
            print(f"# {d}: sources newer than the objects, skipped")
            dirs.remove(d)
            continue
        ounits, odeps = objects(d)
        print(f"# {d}: {len(ounits)} objects, "
              f"{sum(len(x) for x in odeps.values())} calls")
        c, o = check(ounits, odeps, layers(d), f"calls in {d}")
        cyc, order = cyc or c, order or o
    fail_cyc, fail_order = fail_cyc or cyc, fail_order or order
    if not dirs:
        print("ok 4 calls_run_one_way # SKIP no amdx.ko objects built "
              "from these sources")
    else:
        print(f"{'not ok' if cyc or order else 'ok'} 4 calls_run_one_way")
    return 1 if fail_cyc or fail_order or not units else 0


if __name__ == "__main__":
    sys.exit(main())
