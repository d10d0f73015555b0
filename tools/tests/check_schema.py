#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Validate `amdx -j dev show` (run against the fake kernel) with the
documented JSON Schema, and check the schema rejects a broken document."""
import copy
import json
import subprocess
import sys

import jsonschema


def main():
    schema_path, fake_cli = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    for args in (["-j", "dev", "show"], ["-p", "dev", "show", "1"]):
        out = subprocess.run([fake_cli, "-d", "/dev/null", *args], check=True,
                             capture_output=True, text=True).stdout
        doc = json.loads(out)
        validator.validate(doc)
        print(f"ok: {' '.join(args)}: {len(doc['devices'])} device(s) valid")

    # A test that cannot fail is a defect: the schema must catch breakage.
    broken = [copy.deepcopy(doc) for _ in range(3)]
    del broken[0]["devices"][0]["vram"]
    broken[1]["devices"][0]["compute_mode"] = "spx"
    broken[2]["devices"][0]["surprise"] = 1
    for b in broken:
        if validator.is_valid(b):
            print("schema accepted a broken document", file=sys.stderr)
            return 1
    print("ok: broken documents rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
