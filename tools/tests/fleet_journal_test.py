#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""amdx-eventd's journal validates against its schema
(Documentation/admin-guide/amdx-eventd-journal.schema.json): run
amdx_eventd_fake until it journaled every backlog record, validate each
line, and check the schema rejects broken records."""
import copy
import json
import os
import subprocess
import sys

import jsonschema


def main():
    schema_path, fake, work = sys.argv[1:4]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    os.makedirs(work, exist_ok=True)
    journal = os.path.join(work, "events.jsonl")
    if os.path.exists(journal):
        os.unlink(journal)
    # The fake's two devices hold one record of every kind the uapi has;
    # the schema must name each of them (and "unknown", for newer ones).
    nkinds = len(schema["properties"]["kind"]["enum"]) - 1
    subprocess.run([fake, "-d", "/dev/null", "--journal", journal, "--count",
                    str(2 * nkinds)], check=True, timeout=30, capture_output=True)
    with open(journal, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    assert len(records) == 2 * nkinds, (len(records), nkinds)
    kinds = {r["kind"] for r in records}
    assert len(kinds) == nkinds and "unknown" not in kinds, sorted(kinds)
    for r in records:
        v.validate(r)
    lost = next(r for r in records if r["kind"] == "lost")
    for mutate in (lambda r: r.pop("boot_id"), lambda r: r.update(schema_version=2),
                   lambda r: r.pop("last_seq"), lambda r: r.update(seq=0)):
        b = copy.deepcopy(lost)
        mutate(b)
        assert not v.is_valid(b), b
    print(f"{len(records)} records of {len(kinds)} kinds valid")


if __name__ == "__main__":
    main()
