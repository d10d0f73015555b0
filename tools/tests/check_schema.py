#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Validate the JSON output of amdx commands (run against the fake kernel)
with the documented JSON Schemas in Documentation/admin-guide, check each
schema rejects a broken document, and check the compatibility rule of
cli.rst: a document with a key added anywhere (a newer amdx) still
validates.

  check_schema.py SCHEMA_DIR FAKE_CLI [JQ AMDX_SCHEMA_JQ]

With JQ, it checks instead that selftests/amdx_schema.jq (the validator
amdx_cli_test.sh uses on the real module in the VM, which has no Python)
gives python3-jsonschema's verdict on every one of these documents."""
import copy
import json
import os
import subprocess
import sys

import jsonschema


def load(schema_dir, name):
    with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def run(fake_cli, args):
    out = subprocess.run([fake_cli, "-d", "/dev/null", *args], check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()] if "monitor" in args \
        else [json.loads(out)]


def breakages(doc, mutations):
    """Copies of doc, each broken by one mutation."""
    for mutate in mutations:
        b = copy.deepcopy(doc)
        mutate(b)
        yield b


def dev0(doc):
    return doc["devices"][0]


# schema, commands, mutations that must make the first document invalid
CASES = [
    ("amdx-dev-show.schema.json",
     [["-j", "dev", "show"], ["-p", "dev", "show", "1"]],
     [lambda d: dev0(d).pop("vram"),
      lambda d: dev0(d).update(compute_mode="spx"),
      lambda d: dev0(d).update(hive_id=42),
      lambda d: dev0(d)["gpus"][0].pop("index"),
      lambda d: dev0(d)["gpus"][0].update(uuid="GPU-4A7C1E0F23B5D698"),
      lambda d: d.pop("schema_version")]),
    ("amdx-partition-show.schema.json",
     [["-j", "partition", "show"], ["-p", "partition", "show", "1"]],
     [lambda d: dev0(d)["partitions"][0].pop("state"),
      lambda d: dev0(d)["partitions"][0].update(vf="none"),
      lambda d: dev0(d).update(compute_mode="cpx")]),
    ("amdx-vf-show.schema.json",
     [["-j", "vf", "show"], ["-j", "vf", "show", "1"]],
     [lambda d: d["devices"][1]["vfs"][0].update(priority="urgent"),
      lambda d: d["devices"][1]["vfs"][0].pop("vram_quota"),
      lambda d: dev0(d).update(max_vfs=-1),
      lambda d: d["devices"][1]["vfs"][0].update(bdf="c2:00.1")]),
    ("amdx-ras-show.schema.json",
     [["-j", "ras", "show"], ["-p", "ras", "show", "0"]],
     [lambda d: dev0(d)["blocks"][0]["total"].update(ce="n/a"),
      lambda d: dev0(d)["blocks"][0].update(block="l2"),
      lambda d: dev0(d).pop("rma"),
      lambda d: dev0(d)["reset_scope"].update(hive_id=0)]),
    ("amdx-recover.schema.json",
     [["-j", "recover", "plan", "0"], ["-j", "recover", "plan", "0", "--action", "device"]],
     [lambda d: d["plan"].update(action="reboot"),
      lambda d: d["plan"].pop("reset_devices"),
      lambda d: d["plan"]["scope"][0].update(reset="all") if d["plan"]["scope"]
      else d["plan"].update(state="ok"),
      lambda d: d.pop("plan")]),
    ("amdx-link-show.schema.json",
     [["-j", "link", "show"], ["-p", "link", "show", "1"],
      ["-j", "link", "show", "--matrix"]],
     [lambda d: d["links"][0].update(state="flapping"),
      lambda d: d.pop("links"),
      lambda d: d["links"][0].pop("hops"),
      lambda d: d["links"][0].update(device_a=-1),
      lambda d: d["links"][0]["time_ns"].pop("up"),
      lambda d: d["links"][0].update(hive_id=42)]),
    ("amdx-monitor.schema.json",
     [["-j", "monitor", "--timeout-ms", "100"]],
     [lambda d: d.update(kind="boom"),
      lambda d: d.pop("seq"),
      lambda d: d.update(schema_version=1)]),
]


def with_added_keys(doc):
    """doc with a new key in every object, as a newer amdx might print."""
    doc = copy.deepcopy(doc)

    def add(node):
        if isinstance(node, dict):
            for v in node.values():
                add(v)
            node["added_in_a_later_release"] = {"any": ["value"]}
        elif isinstance(node, list):
            for v in node:
                add(v)
    add(doc)
    return doc


def jq_problems(jq, program, schema_dir, name, doc):
    """What amdx_schema.jq says of doc: its lines about the document
    itself (not its self-checks of broken copies)."""
    short = name[len("amdx-"):-len(".schema.json")]
    case = json.dumps({"schema": short, "doc": doc})
    out = subprocess.run([jq, "-r", "-f", program, "--slurpfile", short,
                          os.path.join(schema_dir, name)], input=case,
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"jq failed: {out.stderr}")
    return [line for line in out.stdout.splitlines()
            if line.startswith(f"{short}: $")], out.stdout


def main_jq(schema_dir, fake_cli, jq, program):
    for name, commands, mutations in CASES:
        validator = load(schema_dir, name)
        first = None
        for args in commands:
            for doc in run(fake_cli, args):
                first = first or doc
                problems, everything = jq_problems(jq, program, schema_dir, name, doc)
                if everything:  # valid, extended valid, broken copies rejected
                    print(f"amdx_schema.jq on {' '.join(args)}: {everything}",
                          file=sys.stderr)
                    return 1
        for broken in breakages(first, mutations):
            assert not validator.is_valid(broken)
            problems, _ = jq_problems(jq, program, schema_dir, name, broken)
            if not problems:
                print(f"amdx_schema.jq accepts what {name} rejects: "
                      f"{json.dumps(broken)}", file=sys.stderr)
                return 1
        print(f"ok: amdx_schema.jq agrees with jsonschema on {name}")
    return 0


def main():
    schema_dir, fake_cli = sys.argv[1], sys.argv[2]
    if len(sys.argv) == 5:
        return main_jq(schema_dir, fake_cli, sys.argv[3], sys.argv[4])
    for name, commands, mutations in CASES:
        validator = load(schema_dir, name)
        first = None
        for args in commands:
            docs = run(fake_cli, args)
            if not docs:
                print(f"{' '.join(args)}: no output", file=sys.stderr)
                return 1
            for doc in docs:
                validator.validate(doc)
            first = first or docs[0]
            print(f"ok: {' '.join(args)}: {len(docs)} document(s) valid against {name}")
        # A test that cannot fail is a defect: the schema must catch breakage.
        for broken in breakages(first, mutations):
            if validator.is_valid(broken):
                print(f"{name} accepted a broken document: {json.dumps(broken)}",
                      file=sys.stderr)
                return 1
        print(f"ok: {name}: broken documents rejected")
        extended = with_added_keys(first)
        errors = list(validator.iter_errors(extended))
        if errors:
            print(f"{name} rejects a document with added keys: {errors[0].message}",
                  file=sys.stderr)
            return 1
        print(f"ok: {name}: documents with added keys accepted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
