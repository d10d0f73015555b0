# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""amdx.pyi names exactly what `import amdx` has: its classes, their
methods and properties, the module's attributes; each method's keyword
arguments as pybind11 declares them (its __doc__ signature; arguments
without a name there are positional-only in the stub)."""
import ast
import os
import re
import unittest

import amdx

STUB = os.path.join(os.path.dirname(__file__), "..", "amdx.pyi")


def stub_tree():
    with open(STUB, encoding="utf-8") as f:
        return ast.parse(f.read())


def typed_dicts(tree):
    """The stub's TypedDicts (and those derived from them), by name."""
    names = {"TypedDict"}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name) and b.id in names for b in node.bases):
            names.add(node.name)
    return names - {"TypedDict"}


def is_typed_dict(node):
    """A TypedDict of the stub: the keys of a result, not a class of the module."""
    return node.name in typed_dicts(stub_tree())


class Stub(unittest.TestCase):
    def test_module_attributes(self):
        tree = stub_tree()
        names = set()
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and not is_typed_dict(node):
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign):
                names.add(node.target.id)
        public = {n for n in dir(amdx) if not n.startswith("_")} | {"__version__"}
        self.assertEqual(names, public)

    def test_methods_and_their_arguments(self):
        for node in stub_tree().body:
            if not isinstance(node, ast.ClassDef) or node.name == "Error" or is_typed_dict(node):
                continue
            cls = getattr(amdx, node.name)
            stubbed = {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
            real = {n for n in vars(cls) if not n.startswith("_")}
            real |= {n for n in ("__iter__", "__next__") if n in vars(cls)}
            # pybind11 gives every class an __init__; one with a
            # constructor has a signature for its doc.
            if (cls.__init__.__doc__ or "").startswith("__init__("):
                real.add("__init__")
            self.assertEqual(set(stubbed), real, node.name)
            for name, f in stubbed.items():
                # Positional-only in the stub: no py::arg, pybind11's argN.
                posonly = [f"arg{i}" for i in range(len(f.args.posonlyargs) - 1)]
                if f.args.posonlyargs:
                    args = posonly + [a.arg for a in f.args.args]
                else:
                    args = [a.arg for a in f.args.args][1:]
                doc = getattr(cls, name).__doc__ or ""
                if not args or isinstance(getattr(cls, name), property):
                    continue
                # pybind11: "name(self: amdx.X, compute: Optional[str] = None, ...) -> ..."
                sig = re.search(r"\((self: [^,)]*(?:, )?)(.*?)\) ->", doc)
                self.assertIsNotNone(sig, f"{node.name}.{name}: {doc!r}")
                real_args = [a.split(":")[0].strip() for a in sig.group(2).split(", ") if a]
                self.assertEqual(args, real_args, f"{node.name}.{name}")


if __name__ == "__main__":
    unittest.main()
