#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""amdx ps against the fake kernel (amdx_fleet_fake): the processes a
partition plan reports as holders, by device, memory and compute
partition, with the kernel's privacy rule (a hidden holder has pid and
comm null, "n/a" in the table); devices whose holders the kernel does not
count are listed as unknown with the reason.  The JSON validates against
Documentation/admin-guide/amdx-ps.schema.json, which rejects broken
copies.

  fleet_ps_test.py SCHEMA FLEET_FAKE"""
import copy
import json
import os
import subprocess
import sys

import jsonschema


def ps(fake, env, *args):
    e = dict(os.environ, **env)
    r = subprocess.run([fake, "-d", "/dev/null", *args, "ps"], env=e,
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise AssertionError(f"amdx ps exit {r.returncode}: {r.stderr}")
    return r.stdout


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main():
    schema_path, fake = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)

    holders = {"AMDX_FAKE_DEVICES": "1",
               "AMDX_FAKE_HOLDERS": "4242:trainer:0:512,0::0:64"}
    doc = json.loads(ps(fake, holders, "-j"))
    v.validate(doc)
    procs = doc["processes"]
    check(len(procs) == 2, f"two holders expected: {procs}")
    check(procs[0] == {"device": 0, "bdf": procs[0]["bdf"], "pid": 4242,
                       "comm": "trainer", "mem_partition": 0,
                       "partitions": [0], "pages": 512}, f"holder: {procs[0]}")
    # The privacy rule: the kernel's pid 0 is no process 0.
    check(procs[1]["pid"] is None and procs[1]["comm"] is None,
          f"hidden holder shown: {procs[1]}")
    check(doc["unknown"] == [], f"unknown: {doc['unknown']}")
    text = ps(fake, holders)
    lines = text.splitlines()
    check(lines[0].split() == ["DEVICE", "BDF", "PID", "COMM", "MEM_PARTITION",
                               "PARTITIONS", "PAGES"], f"header: {lines[0]}")
    check(lines[1].split()[2:4] == ["4242", "trainer"], f"row: {lines[1]}")
    check(lines[2].split()[2:4] == ["n/a", "n/a"], f"hidden row: {lines[2]}")

    # VFs enabled: the plan is refused before it counts holders.
    vfs = json.loads(ps(fake, dict(holders, AMDX_FAKE_VFS="2"), "-j"))
    v.validate(vfs)
    check(vfs["processes"] == [] and len(vfs["unknown"]) == 1 and
          "vfs_enabled" in vfs["unknown"][0]["why"], f"with VFs: {vfs}")

    # The schema rejects broken documents.
    for mutate in (lambda d: d["processes"][0].update(pid=0),
                   lambda d: d["processes"][0].pop("partitions"),
                   lambda d: d["processes"][0].update(comm="x" * 16),
                   lambda d: d.pop("unknown"),
                   lambda d: d.update(schema_version=1)):
        b = copy.deepcopy(doc)
        mutate(b)
        check(not v.is_valid(b), f"schema accepts {b}")
    print("fleet_ps_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
