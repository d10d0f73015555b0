#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the include graph of drivers/amdx runs one way.

The files of drivers/amdx are layered (drivers/amdx/Kbuild,
Documentation/internals.rst): leaves, the device and the event log, the
gates, the features, the front.  A file may depend on its own layer and
the ones below; nothing below may depend on something above, so the
dependency graph has no cycle.  This test builds that graph from the
sources and fails on any cycle.

The graph, by file basename:

- a node per .c file of drivers/amdx (tests/ and the build's *.mod.c
  excluded);
- a header belongs to the .c files that define what it declares (a
  function prototype or an extern variable); a header with no such file
  (types, inline helpers) belongs to nobody;
- A.c -> B.c when A.c includes, directly or through other headers, a
  header that belongs to B.c.

The layers are drivers/amdx/Kbuild's groups ("# N. ..." comments, then
the objects up to the next one): no file may depend on a file of a
higher layer.  Its strongly connected components of more than one file
are cycles, and none is allowed: inside a feature too, files call down
only (the HMM wing, drivers/amdx/Kbuild, is split so that they do).

usage: include-graph.py [--dir DIR] [--dot]
  --dir  the directory to check (default: the repository's drivers/amdx)
  --dot  print the dependency graph in Graphviz dot instead
Prints KTAP; exit status 0 when no cycle exists.
"""
import argparse
import os
import re
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
    """Map each .c basename to its Kbuild group number."""
    layer, out = None, {}
    with open(os.path.join(srcdir, "Kbuild"), encoding="utf-8") as f:
        for line in f:
            m = LAYER.match(line)
            if m:
                layer = int(m.group(1))
            elif layer is not None and not line.startswith("#"):
                for obj in OBJECT.findall(line):
                    out[obj + ".c"] = layer
    return out


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

    cycles = sorted((c for c in sccs(units, deps) if len(c) > 1),
                    key=lambda c: sorted(c))
    layer = layers(args.dir)
    unlayered = [u for u in units if u not in layer]
    upward = [(u, d) for u in units for d in sorted(deps[u])
              if u in layer and d in layer and layer[d] > layer[u]]
    print("KTAP version 1")
    print("1..3")
    print(f"# {len(units)} files, "
          f"{sum(len(d) for d in deps.values())} dependencies")
    print(f"{'ok' if units else 'not ok'} 1 include_graph_built")
    for c in cycles:
        print(f"# cycle: {' '.join(sorted(c))}")
        for u in sorted(c):
            print(f"#   {u} -> {' '.join(sorted(deps[u] & c))}")
    print(f"{'not ok' if cycles else 'ok'} 2 no_cycle")
    for u in unlayered:
        print(f"# {u}: in no layer of Kbuild")
    for u, d in upward:
        print(f"# {u} (layer {layer[u]}) -> {d} (layer {layer[d]})")
    fail3 = bool(unlayered or upward)
    print(f"{'not ok' if fail3 else 'ok'} 3 no_dependency_on_a_higher_layer")
    return 1 if cycles or fail3 or not units else 0


if __name__ == "__main__":
    sys.exit(main())
