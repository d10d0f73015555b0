#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Every panel target of the Grafana dashboard against a real Prometheus.

usage: prometheus_dashboard_test.py DASHBOARD PROMETHEUS_URL SCRAPE_SECONDS

Run by prometheus_scrape_test.sh once Prometheus scrapes the exporter.  Each
target expression of every panel (rows included) is evaluated as an instant
query at "now", the last point its panel draws, after substituting Grafana's
variables the way Grafana 10.4's Prometheus data source does:

- $__interval: the dashboard's time range divided by the panel's data points
  (maxDataPoints, else its width in pixels: WIDTH_PX here), rounded by
  Grafana's roundInterval() table, and never below the data source's
  "Scrape interval" (the min interval when the query sets none);
- $__rate_interval: max($__interval + scrape interval, 4 * scrape interval);
- $__range: the time range in seconds;
- a query variable (label_values(METRIC, LABEL)): its own query is run
  (/api/v1/label/LABEL/values?match[]=METRIC) and must list something; the
  panels then run once with the variable's "All" value (its allValue) and
  once with the first value listed, regex-escaped as Grafana formats a
  single value.

It runs twice: with the data source's scrape interval set to the server's
(SCRAPE_SECONDS) and with Grafana's default of 15 s.  Any target that
returns an error or an empty result, or keeps a $ variable nobody
substitutes, fails the test.
"""
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

WIDTH_PX = 1000
# Rates need two samples in their window: empty answers are retried until
# WAIT_S after the first query, then each is asked once.
WAIT_S = 20

# Grafana's roundInterval(): below each bound (ms), the interval it rounds to.
ROUND_MS = [(15, 10), (35, 20), (75, 50), (150, 100), (350, 200), (750, 500),
            (1500, 1000), (3500, 2000), (7500, 5000), (12500, 10000),
            (17500, 15000), (25000, 20000), (45000, 30000), (90000, 60000),
            (210000, 120000), (450000, 300000), (750000, 600000),
            (1050000, 900000), (1500000, 1200000), (2700000, 1800000),
            (5400000, 3600000), (9000000, 7200000), (16200000, 10800000),
            (32400000, 21600000), (86400000, 43200000)]
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def round_interval(ms):
    for bound, value in ROUND_MS:
        if ms < bound:
            return value
    return 86400000


def range_seconds(dash):
    t = dash["time"]
    m = re.fullmatch(r"now-(\d+)([smhdw])", t["from"])
    if t["to"] != "now" or not m:
        sys.exit(f"dashboard: time range {t} is not now-N..now")
    return int(m.group(1)) * UNITS[m.group(2)]


def get(base, path, params):
    url = f"{base}{path}?{urllib.parse.urlencode(params)}"
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        return json.load(e)


def targets(panels):
    for p in panels:
        yield from targets(p.get("panels", []))
        for t in p.get("targets", []):
            yield p, t


def regex_escape(value):
    return re.sub(r"([\\^$*+?.()|\[\]{}/])", r"\\\1", value)


def main():
    dash_path, base, scrape_server = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(dash_path, encoding="utf-8") as f:
        dash = json.load(f)
    rng = range_seconds(dash)
    failed = 0

    # The query variables: their own query, then the values to try.
    variables = {}
    for v in dash["templating"]["list"]:
        if v["type"] == "datasource":
            continue
        q = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
        m = re.fullmatch(r"label_values\((\w+),\s*(\w+)\)", q)
        if v["type"] != "query" or not m:
            sys.exit(f"dashboard: variable {v['name']}: cannot evaluate {q!r}")
        ans = get(base, f"/api/v1/label/{m.group(2)}/values", {"match[]": m.group(1)})
        values = ans.get("data") or []
        print(f"dashboard: variable {v['name']}: {q} = {values}")
        if ans.get("status") != "success" or not values:
            print(f"dashboard: variable {v['name']}: empty or error: {ans}")
            return 1
        variables[v["name"]] = [v.get("allValue") or "|".join(map(regex_escape, values)),
                                regex_escape(values[0])]

    deadline = time.monotonic() + WAIT_S
    all_targets = list(targets(dash["panels"]))
    if not all_targets:
        sys.exit("dashboard: no panel targets")
    for run, scrape in enumerate((scrape_server, 15)):
        for p, t in all_targets:
            max_points = p.get("maxDataPoints") or WIDTH_PX
            interval = max(round_interval(rng * 1000 / max_points) / 1000, scrape)
            rate_interval = max(interval + scrape, 4 * scrape)
            expr = t["expr"]
            subst = {"__rate_interval": f"{rate_interval:g}s", "__interval_ms": f"{interval * 1000:g}",
                     "__interval": f"{interval:g}s", "__range_s": str(rng),
                     "__range_ms": str(rng * 1000), "__range": f"{rng}s"}
            for name, values in variables.items():
                subst[name] = values[run % len(values)]
            for name in sorted(subst, key=len, reverse=True):
                expr = expr.replace("${" + name + "}", subst[name]).replace("$" + name, subst[name])
            where = (f"panel {p['title']!r} {t['refId']} (scrape {scrape}s: "
                     f"$__interval {interval:g}s, $__rate_interval {rate_interval:g}s)")
            if "$" in expr:
                print(f"dashboard: {where}: unsubstituted variable in {expr}")
                failed = 1
                continue
            while True:
                ans = get(base, "/api/v1/query", {"query": expr})
                if (ans.get("status") != "success" or ans["data"]["result"] or
                        time.monotonic() > deadline):
                    break
                time.sleep(1)
            if ans.get("status") != "success":
                print(f"dashboard: {where}: error {ans.get('error')}\n  {expr}")
                failed = 1
            elif not ans["data"]["result"]:
                print(f"dashboard: {where}: empty result\n  {expr}")
                failed = 1
            else:
                print(f"dashboard: {where}: {len(ans['data']['result'])} series")
    print(f"dashboard: {len(all_targets)} targets, {'FAILED' if failed else 'all non-empty'}")
    return failed


if __name__ == "__main__":
    sys.exit(main())
