#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The Node Problem Detector custom plugin monitor for `amdx health`
# (tools/fleet/npd/amdx-health.json, Documentation/admin-guide/health.rst,
# "Node Problem Detector"), checked as NPD loads one: the fields of
# pkg/custompluginmonitor/types (CustomPluginConfig, pluginGlobalConfig,
# CustomRule) and pkg/types.Condition at node-problem-detector
# v1.37.0-alpha.1-38-g6632ca67 (2026-08-22), no unknown key (NPD's
# json.Unmarshal would drop it silently), ApplyConfiguration()'s duration
# parsing and Validate()'s rules (plugin "custom", a rule's timeout not
# above the global one, a permanent rule's condition among the default
# conditions); then the intervals health.rst documents, and the exit-code
# contract of toConditionStatus() (0 False, 1 True, anything else
# Unknown) by running the rule's command against the fake kernel.  NPD
# itself is not run.
#
# usage: fleet_npd_test.py SOURCE_JSON INSTALLED_JSON AMDX_PATH HEALTH_RST AMDX_FLEET_FAKE
import json
import os
import re
import subprocess
import sys
import tempfile
import time

source, installed, amdx_path, health_rst, fake = sys.argv[1:6]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def go_duration(text):
    """Seconds of a Go time.ParseDuration string, or None if it does not parse."""
    units = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
    if not isinstance(text, str) or text in ("", "+", "-"):
        return None
    if text == "0":
        return 0.0
    parts = re.findall(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    return sum(float(n) * units[u] for n, u in parts)


TOP = {"plugin", "pluginConfig", "source", "conditions", "rules", "metricsReporting"}
GLOBAL = {"invoke_interval", "timeout", "max_output_length", "concurrency",
          "enable_message_change_based_condition_update", "skip_initial_status"}
RULE = {"type", "condition", "reason", "path", "args", "timeout", "invoke_interval"}
CONDITION = {"type", "status", "transition", "reason", "message"}

with open(source) as f:
    src = json.load(f)
with open(installed) as f:
    cfg = json.load(f)

# The installed file is the source with the install prefix's amdx.
check(cfg["rules"][0]["path"] == amdx_path,
      f"installed rule path {cfg['rules'][0]['path']!r}, not {amdx_path!r}")
check({**cfg, "rules": [{**r, "path": "/usr/bin/amdx"} for r in cfg["rules"]]} == src,
      "the installed file differs from the source beyond the rule's path")

for name, c in (("source", src), ("installed", cfg)):
    check(set(c) <= TOP, f"{name}: unknown top-level keys {set(c) - TOP}")
    check(c.get("plugin") == "custom", f"{name}: plugin is not \"custom\"")
    check(isinstance(c.get("source"), str) and c["source"], f"{name}: no source")
    g = c.get("pluginConfig", {})
    check(set(g) <= GLOBAL, f"{name}: unknown pluginConfig keys {set(g) - GLOBAL}")
    interval = go_duration(g.get("invoke_interval", "30s"))
    timeout = go_duration(g.get("timeout", "5s"))
    check(interval is not None and timeout is not None, f"{name}: a duration does not parse")
    for key in ("max_output_length", "concurrency"):
        check(isinstance(g.get(key, 1), int) and g.get(key, 1) > 0, f"{name}: {key}")
    for key in ("enable_message_change_based_condition_update", "skip_initial_status"):
        check(isinstance(g.get(key, False), bool), f"{name}: {key} is not a bool")
    check(isinstance(c.get("metricsReporting", True), bool), f"{name}: metricsReporting")
    conds = c.get("conditions", [])
    for cond in conds:
        check(set(cond) <= CONDITION, f"{name}: unknown condition keys {set(cond) - CONDITION}")
        check(all(isinstance(cond.get(k), str) and cond[k] for k in ("type", "reason", "message")),
              f"{name}: a condition without type, reason or message")
    rules = c.get("rules", [])
    check(len(rules) == 1, f"{name}: {len(rules)} rules, expected the one of amdx health")
    for r in rules:
        check(set(r) <= RULE, f"{name}: unknown rule keys {set(r) - RULE}")
        check(r.get("type") in ("permanent", "temporary"), f"{name}: rule type {r.get('type')}")
        check(isinstance(r.get("path"), str) and os.path.isabs(r["path"]),
              f"{name}: rule path not absolute")
        check(isinstance(r.get("args"), list) and all(isinstance(a, str) for a in r["args"]),
              f"{name}: rule args not a list of strings")
        check(r.get("args", [None])[0] == "health", f"{name}: the rule does not run amdx health")
        check(isinstance(r.get("reason"), str) and r["reason"], f"{name}: rule without reason")
        rt = go_duration(r["timeout"]) if "timeout" in r else None
        check("timeout" not in r or rt is not None, f"{name}: rule timeout does not parse")
        # Validate(): a rule's timeout is not above the global one.
        check(rt is None or timeout is None or rt <= timeout,
              f"{name}: rule timeout above the global timeout")
        if r.get("type") == "permanent":
            check(any(cond.get("type") == r.get("condition") for cond in conds),
                  f"{name}: permanent rule's condition {r.get('condition')} has no default")

# health.rst documents the interval and timeout amdx health is measured
# against, and shows this file.
g = src["pluginConfig"]
check(go_duration(g["invoke_interval"]) == 30.0, "invoke_interval is not health.rst's 30 s")
check(go_duration(g["timeout"]) == 10.0, "timeout is not health.rst's 10 s")
check(go_duration(src["rules"][0]["timeout"]) == 10.0, "rule timeout is not 10 s")
with open(health_rst) as f:
    rst = f.read()
check("30 s interval" in rst and "10 s timeout" in rst,
      "health.rst does not state the 30 s interval and 10 s timeout")
check("tools/fleet/npd/amdx-health.json" in rst, "health.rst does not name the file")

# The exit-code contract, NPD's toConditionStatus(): the rule's command
# (its args, against the fake kernel) in each state, within the rule's
# timeout, one line on standard output that NPD trims to max_output_length.
STATUS = {0: "False", 1: "True"}
rule = src["rules"][0]
limit = go_duration(rule["timeout"])
with tempfile.TemporaryDirectory() as work:
    journal = os.path.join(work, "events.jsonl")
    open(journal, "w").close()
    cases = [
        ("healthy", [], {}, 0),
        ("a device reset pending", [], {"AMDX_FAKE_RECOVERY": "0:all:device"}, 1),
        ("the module not loaded", ["-d", "/nonexistent/amdx"], {}, 2),
    ]
    for what, pre, env, want in cases:
        argv = [fake] + (pre or ["-d", "/dev/null"]) + rule["args"] + ["--journal", journal]
        start = time.monotonic()
        p = subprocess.run(argv, capture_output=True, text=True,
                           env={**os.environ, "AMDX_FAKE_DEVICES": "1", **env}, timeout=limit)
        took = time.monotonic() - start
        out = p.stdout.strip()
        check(p.returncode == want, f"{what}: exit {p.returncode}, expected {want}: {out!r}")
        check(STATUS.get(p.returncode, "Unknown") == STATUS.get(want, "Unknown"),
              f"{what}: condition status")
        check(out.startswith("amdx health: ") and "\n" not in out,
              f"{what}: not one 'amdx health:' line: {out!r}")
        check(took < limit, f"{what}: took {took:.2f} s, the rule's timeout is {limit} s")
        print(f"{what}: exit {p.returncode} -> condition "
              f"{STATUS.get(p.returncode, 'Unknown')}: "
              f"{out[:g['max_output_length']]!r} ({took:.2f} s)")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
