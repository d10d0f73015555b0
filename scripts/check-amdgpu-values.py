#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check amdx's mirrors of amdgpu's values against amdgpu's own headers.

drivers/amdx_amdgpu/amdx_amdgpu_xlate.h mirrors amdgpu's enums, one
constant and struct eeprom_table_record, because the translations must
build without amdgpu's headers.  Inside amdgpu the file static_asserts
each mirror; this host test checks the same mirrors when no amdgpu build
exists, against Debian's linux-source-6.12: the five headers are extracted
once from /usr/src/linux-source-6.12.tar.xz into /var/cache/amdx.

usage: check-amdgpu-values.py [--header FILE] [--amdgpu DIR]
  --header   the mirror header (default: the repository's)
  --amdgpu   a drivers/gpu/drm/amd/amdgpu directory to read instead
Prints KTAP; exit status 0 when every check passes.
"""
import argparse
import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "drivers/amdx_amdgpu/amdx_amdgpu_xlate.h")
TARBALL = "/usr/src/linux-source-6.12.tar.xz"
AMDGPU = "drivers/gpu/drm/amd/amdgpu"
FILES = ["amdgpu_gfx.h", "amdgpu_gmc.h", "amdgpu_ras.h",
         "amdgpu_ras_eeprom.h", "amdgpu_gart.h"]

# (check, amdgpu header, amdgpu enum, mirror prefix, amdgpu enumerator ->
# mirror name); every enumerator of the enum must be mirrored.
ENUMS = [
    ("compute_modes", "amdgpu_gfx.h", "amdgpu_gfx_partition", {
        "AMDGPU_SPX_PARTITION_MODE": "AMDX_AMDGPU_SPX",
        "AMDGPU_DPX_PARTITION_MODE": "AMDX_AMDGPU_DPX",
        "AMDGPU_TPX_PARTITION_MODE": "AMDX_AMDGPU_TPX",
        "AMDGPU_QPX_PARTITION_MODE": "AMDX_AMDGPU_QPX",
        "AMDGPU_CPX_PARTITION_MODE": "AMDX_AMDGPU_CPX",
        "AMDGPU_UNKNOWN_COMPUTE_PARTITION_MODE": "AMDX_AMDGPU_COMPUTE_UNKNOWN",
        "AMDGPU_AUTO_COMPUTE_PARTITION_MODE": "AMDX_AMDGPU_COMPUTE_AUTO",
    }),
    ("memory_modes", "amdgpu_gmc.h", "amdgpu_memory_partition", {
        "UNKNOWN_MEMORY_PARTITION_MODE": "AMDX_AMDGPU_NPS_UNKNOWN",
        "AMDGPU_NPS1_PARTITION_MODE": "AMDX_AMDGPU_NPS1",
        "AMDGPU_NPS2_PARTITION_MODE": "AMDX_AMDGPU_NPS2",
        "AMDGPU_NPS3_PARTITION_MODE": "AMDX_AMDGPU_NPS3",
        "AMDGPU_NPS4_PARTITION_MODE": "AMDX_AMDGPU_NPS4",
        "AMDGPU_NPS6_PARTITION_MODE": "AMDX_AMDGPU_NPS6",
        "AMDGPU_NPS8_PARTITION_MODE": "AMDX_AMDGPU_NPS8",
    }),
    ("ras_blocks", "amdgpu_ras.h", "amdgpu_ras_block", {
        "AMDGPU_RAS_BLOCK__" + b: "AMDX_AMDGPU_RAS_BLOCK_" + b
        for b in ["UMC", "SDMA", "GFX", "MMHUB", "ATHUB", "PCIE_BIF", "HDP",
                  "XGMI_WAFL", "DF", "SMN", "SEM", "MP0", "MP1", "FUSE",
                  "MCA", "VCN", "JPEG", "IH", "MPIO", "LAST"]
    }),
    ("ras_error_types", "amdgpu_ras.h", "amdgpu_ras_error_type", {
        "AMDGPU_RAS_ERROR__" + t: "AMDX_AMDGPU_RAS_ERROR_" + t
        for t in ["NONE", "PARITY", "SINGLE_CORRECTABLE",
                  "MULTI_UNCORRECTABLE", "POISON"]
    }),
    ("ras_event_types", "amdgpu_ras.h", "ras_event_type", {
        "RAS_EVENT_TYPE_" + t: "AMDX_AMDGPU_RAS_EVENT_" + t
        for t in ["INVALID", "FATAL", "POISON_CREATION",
                  "POISON_CONSUMPTION", "COUNT"]
    }),
    ("eeprom_err_types", "amdgpu_ras_eeprom.h", "amdgpu_ras_eeprom_err_type", {
        "AMDGPU_RAS_EEPROM_ERR_" + t: "AMDX_AMDGPU_EEPROM_ERR_" + t
        for t in ["NA", "RECOVERABLE", "NON_RECOVERABLE", "COUNT"]
    }),
]

# C types of the two structs -> size in bytes.
SIZES = {"uint64_t": 8, "u64": 8, "s32": 4, "u32": 4, "int": 4, "enum": 4,
         "uint32_t": 4, "u16": 2, "uint16_t": 2, "uint8_t": 1,
         "unsigned char": 1, "u8": 1}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse_defines(text):
    out = {}
    num = r"\(?\s*(-?\s*(?:0x[0-9a-fA-F]+|\d+))\s*\)?"
    for m in re.finditer(r"^#define\s+(\w+)\s+%s\s*$" % num,
                         strip_comments(text), re.M):
        out[m.group(1)] = int(m.group(2).replace(" ", ""), 0)
    return out


def parse_enum(text, name):
    m = re.search(r"\benum\s+%s\s*\{(.*?)\}\s*;" % re.escape(name),
                  strip_comments(text), re.S)
    if not m:
        return None
    values, nxt = {}, 0
    for item in m.group(1).split(","):
        item = item.strip()
        if not item:
            continue
        key, _, expr = (p.strip() for p in item.partition("="))
        if expr:
            # Only integer literals and earlier enumerators, combined with
            # + - | << and parentheses.
            if not re.fullmatch(r"[\w\s()+\-|<>]+", expr):
                raise ValueError("%s: cannot evaluate %r" % (key, expr))
            nxt = eval(expr, {"__builtins__": {}}, dict(values))
        values[key] = nxt
        nxt += 1
    return values


def struct_layout(text, name):
    """[(field, offset, size)] of a __packed struct, unions flattened."""
    m = re.search(r"\bstruct\s+%s\s*\{(.*)\}\s*__packed\s*;" % re.escape(name),
                  strip_comments(text), re.S)
    if not m:
        return None
    body = m.group(1)
    body = body[:_matching_close(body)]
    layout, off = [], 0
    for tok in re.finditer(r"union\s*\{(.*?)\}\s*;|([^;{}]+);", body, re.S):
        if tok.group(1) is not None:
            size = 0
            for decl in tok.group(1).split(";"):
                if decl.strip():
                    f, s = _field(decl)
                    layout.append((f, off, s))
                    size = max(size, s)
            off += size
        else:
            f, s = _field(tok.group(2))
            layout.append((f, off, s))
            off += s
    return layout, off


def _matching_close(body):
    depth = 0
    for i, c in enumerate(body):
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return i
            depth -= 1
    return len(body)


def _field(decl):
    words = decl.split()
    field = words[-1]
    ctype = " ".join(words[:-1])
    if ctype.startswith("enum "):
        ctype = "enum"
    if ctype not in SIZES:
        raise ValueError("unknown type %r of %s" % (ctype, field))
    return field, SIZES[ctype]


def amdgpu_dir(arg):
    if arg:
        return arg
    if not os.path.exists(TARBALL):
        raise FileNotFoundError("%s missing (apt-get install "
                                "linux-source-6.12)" % TARBALL)
    ver = subprocess.run(["dpkg-query", "-W", "-f=${Version}",
                          "linux-source-6.12"], capture_output=True,
                         text=True, check=True).stdout.strip()
    cache = os.environ.get("AMDX_CACHE", "/var/cache/amdx")
    out = os.path.join(cache, "amdgpu-headers-" + ver)
    if all(os.path.exists(os.path.join(out, f)) for f in FILES):
        return out
    top = os.path.basename(TARBALL)[:-len(".tar.xz")]
    want = {"%s/%s/%s" % (top, AMDGPU, f): f for f in FILES}
    tmp = out + ".tmp"
    os.makedirs(tmp, exist_ok=True)
    with tarfile.open(TARBALL) as tar:
        for member in tar:
            if member.name in want:
                with open(os.path.join(tmp, want[member.name]), "wb") as f:
                    f.write(tar.extractfile(member).read())
    missing = [f for f in FILES if not os.path.exists(os.path.join(tmp, f))]
    if missing:
        raise FileNotFoundError("not in %s: %s" % (TARBALL, " ".join(missing)))
    os.replace(tmp, out)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--header", default=HEADER)
    ap.add_argument("--amdgpu")
    args = ap.parse_args()

    checks = [e[0] for e in ENUMS] + ["gpu_page_shift", "eeprom_record"]
    print("TAP version 13")
    print("1..%d" % len(checks))
    try:
        src = amdgpu_dir(args.amdgpu)
        theirs = {f: open(os.path.join(src, f)).read() for f in FILES}
        ours_text = open(args.header).read()
    except (OSError, subprocess.CalledProcessError) as e:
        print("# %s" % e)
        for n, c in enumerate(checks, 1):
            print("not ok %d %s" % (n, c))
        return 1
    ours = parse_defines(ours_text)
    print("# amdgpu headers: %s" % src)

    fail = 0
    n = 0

    def report(name, errors):
        nonlocal fail, n
        n += 1
        for e in errors:
            print("# %s: %s" % (name, e))
        print("%s %d %s" % ("not ok" if errors else "ok", n, name))
        fail |= bool(errors)

    for name, hdr, enum, mirror in ENUMS:
        errors = []
        values = parse_enum(theirs[hdr], enum)
        if values is None:
            report(name, ["enum %s not found in %s" % (enum, hdr)])
            continue
        for key, val in values.items():
            if key not in mirror:
                errors.append("%s = %d has no mirror" % (key, val))
            elif mirror[key] not in ours:
                errors.append("%s missing from the header" % mirror[key])
            elif ours[mirror[key]] != val:
                errors.append("%s is %d, amdgpu's %s is %d" %
                              (mirror[key], ours[mirror[key]], key, val))
        for key in mirror:
            if key not in values:
                errors.append("%s no longer in enum %s" % (key, enum))
        report(name, errors)

    errors = []
    page = parse_defines(theirs["amdgpu_gart.h"]).get("AMDGPU_GPU_PAGE_SHIFT")
    if page is None:
        errors.append("AMDGPU_GPU_PAGE_SHIFT not found")
    elif ours.get("AMDX_AMDGPU_GPU_PAGE_SHIFT") != page:
        errors.append("AMDX_AMDGPU_GPU_PAGE_SHIFT is %s, amdgpu's is %d" %
                      (ours.get("AMDX_AMDGPU_GPU_PAGE_SHIFT"), page))
    report("gpu_page_shift", errors)

    errors = []
    try:
        t = struct_layout(theirs["amdgpu_ras_eeprom.h"], "eeprom_table_record")
        o = struct_layout(ours_text, "amdx_amdgpu_eeprom_record")
    except ValueError as e:
        t = o = None
        errors.append(str(e))
    if not errors and (t is None or o is None):
        errors.append("struct not found")
    if not errors:
        (tl, tsize), (ol, osize) = t, o
        tf = {f: (off, s) for f, off, s in tl}
        of = {f: (off, s) for f, off, s in ol}
        # amdgpu's union aliases (offset, cu) have no mirror of their own.
        for f in of:
            if f not in tf:
                errors.append("%s: no such amdgpu field" % f)
            elif of[f] != tf[f]:
                errors.append("%s at %d size %d, amdgpu's at %d size %d" %
                              (f, *of[f], *tf[f]))
        for f, off, _ in tl:
            if f not in of and not any(o2 == off for o2, _ in of.values()):
                errors.append("amdgpu field %s (offset %d) not mirrored" %
                              (f, off))
        if osize != tsize:
            errors.append("size %d, amdgpu's %d" % (osize, tsize))
        if ours.get("AMDX_AMDGPU_EEPROM_RECORD_SIZE") != tsize:
            errors.append("AMDX_AMDGPU_EEPROM_RECORD_SIZE is %s, amdgpu's "
                          "record is %d bytes" %
                          (ours.get("AMDX_AMDGPU_EEPROM_RECORD_SIZE"), tsize))
    report("eeprom_record", errors)
    return fail


if __name__ == "__main__":
    sys.exit(main())
