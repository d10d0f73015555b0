# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""`import amdx` maps what the module needs (libamdx, libdrm, the C++
runtime) and nothing of the CLI's front end: neither libsmartcols (its
tables) nor prometheus-cpp (its exporter).  Run with PYTHONPATH naming the
build of the module under test (ctest python.import_maps_*)."""
import sys

FORBIDDEN = ("libsmartcols", "libprometheus")


def mapped():
    """The files mapped into this process (/proc/self/maps)."""
    with open("/proc/self/maps", encoding="utf-8") as f:
        return {line.split()[-1] for line in f if line.split()[-1].startswith("/")}


def main():
    before = mapped()
    import amdx  # pylint: disable=import-outside-toplevel

    new = mapped() - before
    # The import happened here: the module's own file was mapped by it.
    if not any(p.endswith(".so") and "amdx" in p for p in new):
        print(f"FAIL: import amdx mapped no module file (new: {sorted(new)})", file=sys.stderr)
        return 1
    bad = sorted(p for p in mapped() if any(f in p for f in FORBIDDEN))
    if bad:
        print(f"FAIL: import amdx ({amdx.__file__}) mapped {', '.join(bad)}", file=sys.stderr)
        return 1
    print(f"import amdx ({amdx.__file__}) maps none of {', '.join(FORBIDDEN)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
